//! The event log: its typed events (`schema`) and the line-numbered reader (`read`).

pub mod append;
pub mod chain;
pub mod fields;
pub mod journal;
pub mod json;
pub mod line;
pub mod read;
pub mod repair;
pub mod schema;

pub use read::{
    read_each, read_each_batched, read_each_with, read_log, Chain, EventSink, Item, ReadLog,
    ReadOptions, ReadSummary,
};
pub use schema::*;
