//! Export: the core's row types (`rows`, `audit_rows`) written as Parquet files (`parquet`).

pub use frekans_core::export::{audit_rows, rows};

pub mod parquet;
