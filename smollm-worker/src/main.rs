//! `smollm-worker`: the in-page language model's Web Worker. Trunk builds it for wasm32 beside
//! the app (`index.html`, `data-type="worker"`); the page starts it only when the user picks
//! SmolLM2, so the app's first load does not carry the engine.

#[cfg(target_arch = "wasm32")]
mod glue;

#[cfg(target_arch = "wasm32")]
fn main() {
    glue::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "smollm-worker runs in a browser's Web Worker: Trunk builds it for wasm32 with the app"
    );
    std::process::exit(2);
}
