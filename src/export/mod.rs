//! Export: row types (`rows`) and Parquet files (`parquet`). Knows nothing of bridge rules.

pub mod parquet;
pub mod rows;
