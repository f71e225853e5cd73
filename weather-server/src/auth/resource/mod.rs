//! The protected resource's side: the guard of `/mcp` ([`bearer`]), which client opened each
//! session ([`sessions`]), and another issuer's JWT access tokens ([`issuer`]).

pub mod bearer;
pub mod issuer;
pub mod sessions;
