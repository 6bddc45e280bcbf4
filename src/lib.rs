//! frekans: scores duplicate-bridge championships from an append-only event log.
//!
//! The command-line program's library: `app`, one function per command, composing the stages,
//! which are crates of their own (ARCHITECTURE.md): `frekans_core` (the log, replay, scoring,
//! standings, audit), `frekans_parquet` (Parquet tables, the dataset), `frekans_interop`
//! (import and export of other programs' files) and `frekans_publish` (bulletin and website).
//! Their modules are re-exported here under their names, so that `frekans::replay` is the
//! core's `replay`.

pub mod app;

pub use frekans_core::{
    adjust, audit, bridge, dd, error, event, explain, hash, integrity, kind, limits, load, memory,
    num, options, outfile, pipeline, progress, replay, score, standings, synth, text, world,
};
pub use frekans_interop::import;
pub use frekans_parquet::dataset;
pub use frekans_publish::{report, site};

/// Every table and file frekans writes: the core's row types, the Parquet tables and the
/// interchange formats.
pub mod export {
    pub use frekans_core::export::{audit_rows, rows};
    pub use frekans_interop::export::{notes, pbn, results, usebio};
    pub use frekans_parquet::export::parquet;
}
