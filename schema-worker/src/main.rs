//! `schema-worker`: checks structured tool results against their output schemas in a Web Worker.
//! Trunk builds it for wasm32 beside the app (`index.html`, `data-type="worker"`); the page starts
//! it the first time a result needs checking.

#[cfg(target_arch = "wasm32")]
mod glue;

#[cfg(target_arch = "wasm32")]
fn main() {
    glue::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "schema-worker runs in a browser's Web Worker: Trunk builds it for wasm32 with the app"
    );
    std::process::exit(2);
}
