//! A JSON Schema validator (2020-12, the MCP specification's default dialect, and drafts 4, 6, 7
//! and 2019-09 where a schema names them), small enough to fetch on a first run: the schema is
//! read once ([`index`]), then applied ([`eval`]). Patterns are ECMA-262 regular expressions,
//! the browser's own ([`pattern`]). `format` and the `content*` keywords are annotations, as
//! 2020-12 has them by default: they are not checked.

pub mod draft;
pub mod eval;
pub mod index;
pub mod json;
pub mod pattern;
