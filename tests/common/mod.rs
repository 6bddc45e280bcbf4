//! Helpers shared by integration tests (`mod common;`).

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The demo championships: every `events/*.jsonl`, in name order.
pub fn demo_logs() -> Vec<PathBuf> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(root().join("events"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    logs.sort();
    logs
}

/// Every golden fixture's log, `fixtures/*/events.jsonl`, in name order.
#[allow(dead_code)]
pub fn fixture_logs() -> Vec<PathBuf> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("events.jsonl"))
        .filter(|p| p.is_file())
        .collect();
    logs.sort();
    logs
}
