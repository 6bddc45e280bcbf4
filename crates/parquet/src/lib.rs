//! frekans's Parquet tables (`export::parquet`) and a federation's championships as one dataset
//! (`dataset`): the only crate that links polars.

// The core's modules under their own names, so that `crate::replay` reads as in the core.
use frekans_core::{bridge, error, options, outfile, pipeline, replay, score};

pub mod dataset;
pub mod export;
