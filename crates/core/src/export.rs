//! The serialized boundary's row types: one plain row per output table (`rows`) and the audit's
//! rows (`audit_rows`). The files themselves are written by the Parquet and interchange crates.

pub mod audit_rows;
pub mod rows;
