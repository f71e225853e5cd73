//! The demo authorization server: the authorization endpoint and the consent page
//! ([`authorize`], [`consent`]), the token endpoint ([`token`]) and client authentication
//! ([`client_auth`]), dynamic registration ([`register`]), who a client is ([`clients`], client ID
//! metadata documents in [`cimd`]) and its redirect URIs ([`redirects`]), what it remembers
//! ([`store`], [`records`]), and how it answers ([`reply`]).

pub mod authorize;
pub mod cimd;
pub mod client_auth;
pub mod clients;
pub mod consent;
pub mod records;
pub mod redirects;
pub mod register;
pub mod reply;
pub mod store;
pub mod token;
