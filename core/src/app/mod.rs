//! The host's side of MCP Apps (`io.modelcontextprotocol/ui`, 2026-01-26): the tool call an app
//! belongs to ([`called`]), a tool's app read
//! from its `ui://` resource ([`resource`]), the policy and frame it is rendered in
//! ([`policy`]), the context the host gives it ([`context`]), and the limits on what an app
//! may send ([`guard`]). Plain types; the page renders the frame and carries the messages.

pub mod called;
pub mod context;
pub mod frame;
pub mod guard;
pub mod policy;
pub mod resource;
