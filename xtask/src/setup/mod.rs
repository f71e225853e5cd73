//! What the commands install, once, into the tools folder: the toolchain, the model, the
//! browsers and npm packages ([`tools`]), llama.cpp's `llama-server` ([`llama`]), and the servers
//! nobody here wrote that the tests talk to ([`interop`]).

pub mod interop;
pub mod llama;
pub mod tools;
