//! What the servers answer: the weather server ([`weather`]: its tool, resources, prompts,
//! completion and subscriptions; its tool's app, [`app`]), the tutorial's calculator ([`calc`]),
//! the long forecast as a task ([`forecast`]), the tool that asks the client's model and roots
//! ([`packing`]), and the parts they share: the city table, the report and its units, the
//! server's question ([`elicit`]), the resources' updates.

pub mod app;
pub mod calc;
pub mod cities;
pub mod elicit;
pub mod forecast;
pub mod packing;
pub mod prompts;
pub mod report;
pub mod resources;
pub mod units;
pub mod updates;
pub mod weather;
