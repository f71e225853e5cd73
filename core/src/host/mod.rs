//! What the page does with a connection besides running it: the servers the user saved, a tool
//! result's content blocks and the icons of a server and its tools for the inspector, and the
//! second leg behind `mcp-flow-bridge`.

pub mod bridge_leg;
pub mod content;
pub mod icons;
pub mod saved;
