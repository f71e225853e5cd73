//! What a run recorded: one entry per diagram row with the values it carried and the exchanges
//! behind it ([`run`]), what the connection learned ([`facts`]), and what is read from records:
//! the diagram labels' live values, each row's explanation, a result's freshness, the run on a
//! time axis, the two eras compared, what changed between two runs, the message log.

pub mod compare;
pub mod diff;
pub mod explain;
pub mod facts;
pub mod freshness;
pub mod live;
pub mod message_log;
pub mod payload;
pub mod progress;
pub mod row_details;
pub mod run;
pub mod timeline;
