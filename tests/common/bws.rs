//! The Bridgemate tests' helpers: the fixtures, a path as an argument, a run that must succeed,
//! a log's events.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::scratch::{run_in, show};

/// The fixture `tests/data/import/bws/NAME.bws`.
pub fn bws(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/import/bws")
        .join(format!("{name}.bws"))
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// frekans in `dir`, which must succeed: its standard output.
pub fn import_ok(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{}", show(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The events of a log, as JSON.
pub fn events(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
