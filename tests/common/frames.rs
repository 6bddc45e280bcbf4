//! A Parquet table read back with polars, and its columns as plain vectors.

use std::path::Path;

use polars::prelude::*;

/// `DIR/NAME.parquet` as a frame.
pub fn frame(dir: &Path, name: &str) -> DataFrame {
    let path = dir.join(format!("{name}.parquet"));
    ParquetReader::new(
        std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .finish()
    .unwrap()
}

/// A string column.
pub fn strs(df: &DataFrame, col: &str) -> Vec<Option<String>> {
    let c = df.column(col).unwrap().str().unwrap();
    (0..c.len()).map(|i| c.get(i).map(str::to_string)).collect()
}

/// A 64-bit float column.
pub fn floats(df: &DataFrame, col: &str) -> Vec<Option<f64>> {
    let c = df.column(col).unwrap().f64().unwrap();
    (0..c.len()).map(|i| c.get(i)).collect()
}

/// A 32-bit integer column.
pub fn ints(df: &DataFrame, col: &str) -> Vec<Option<i32>> {
    let c = df.column(col).unwrap().i32().unwrap();
    (0..c.len()).map(|i| c.get(i)).collect()
}
