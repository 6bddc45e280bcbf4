//! The bridge core of frekans: the log, its replay, the scoring, the standings and the audit.
//!
//! The stages (see ARCHITECTURE.md): `event` reads the log with line-numbered errors,
//! `replay` folds the events into the championship state as of any `seq`, `score` scores each
//! board (one module per form), `standings` adds boards up, `pipeline` runs the boards in
//! parallel, `audit` compares two replays, `explain` prints a board's arithmetic for a director.
//! No polars, typst or XML here: the Parquet tables, the interchange formats and the
//! publication are crates of their own that build on this one.

pub mod adjust;
pub mod audit;
pub mod bridge;
pub mod dd;
pub mod error;
pub mod event;
pub mod explain;
pub mod export;
pub mod hash;
pub mod integrity;
pub mod kind;
pub mod limits;
pub mod load;
pub mod memory;
pub mod num;
pub mod options;
pub mod outfile;
pub mod pbn;
pub mod pipeline;
pub mod progress;
pub mod replay;
pub mod score;
pub mod standings;
pub mod synth;
pub mod text;
pub mod world;
