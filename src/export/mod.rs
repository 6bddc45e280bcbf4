//! Export: row types (`rows`) and Parquet files (`parquet`); the interchange formats (`results`,
//! the scored championship as they see it, printed by `usebio` and `pbn`, with `notes` for
//! what neither format can say).

pub mod audit_rows;
pub mod notes;
pub mod parquet;
pub mod pbn;
pub mod results;
pub mod rows;
pub mod usebio;
