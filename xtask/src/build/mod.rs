//! The release build of the page, in its steps: the site ([`site`]: the workers, the app with its
//! split points, wasm-opt), the split into modules fetched on demand ([`split`]) and their
//! merged chunks ([`chunks`]), the CSS ([`css`]), precompression ([`compress`]), and the first
//! load against its budget ([`size`]).

pub mod chunks;
pub mod compress;
pub mod css;
pub mod js;
pub mod site;
pub mod size;
pub mod split;
