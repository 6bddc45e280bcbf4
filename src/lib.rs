//! frekans: scores duplicate-bridge championships from an append-only event log.
//!
//! The stages (see ARCHITECTURE.md): `event` reads the log with line-numbered errors,
//! `replay` folds the events into the championship state as of any `seq`, `score` scores each
//! board (one module per form), `standings` adds boards up, `pipeline` runs the boards in
//! parallel, `export` writes Parquet, `explain` prints a board's arithmetic for a director.

// The bulletin's label tables are long `json!` literals.
#![recursion_limit = "256"]

pub mod adjust;
pub mod app;
pub mod audit;
pub mod bridge;
pub mod dataset;
pub mod dd;
pub mod error;
pub mod event;
pub mod explain;
pub mod export;
pub mod hash;
pub mod import;
pub mod integrity;
pub mod limits;
pub mod num;
pub mod options;
pub mod outfile;
pub mod pipeline;
pub mod progress;
pub mod replay;
pub mod report;
pub mod score;
pub mod site;
pub mod standings;
pub mod synth;
pub mod text;
