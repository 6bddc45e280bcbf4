//! The Parquet files read back by a reader that is not polars (pyarrow, installed by
//! scripts/test.sh into a virtualenv named by FREKANS_PYTHON): column names and types exactly as
//! interface.md says, and a few values. Fails (never skips) when the reader is missing.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

const READER: &str = r#"
import json, sys
import pyarrow.parquet as pq
out = {}
for name in ["scores", "frequencies", "boards", "standings", "rulings", "deals"]:
    t = pq.read_table(f"{sys.argv[1]}/{name}.parquet")
    out[name] = {"schema": [[f.name, str(f.type)] for f in t.schema], "rows": t.num_rows,
                 "data": t.slice(0, 2000).to_pylist()}
print(json.dumps(out))
"#;

fn python() -> String {
    std::env::var("FREKANS_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// interface.md's columns: name → type ("str", "i32", "i64", "f64", "bool").
const CONTRACT: &[(&str, &[(&str, &str)])] = &[
    (
        "scores",
        &[
            ("session", "str"),
            ("section", "str"),
            ("board", "i32"),
            ("participant", "str"),
            ("side", "str"),
            ("opponent", "str"),
            ("score", "f64"),
            ("top", "f64"),
            ("pct", "f64"),
            ("adjusted", "bool"),
            ("ns_points", "f64"),
        ],
    ),
    (
        "frequencies",
        &[
            ("session", "str"),
            ("section", "str"),
            ("board", "i32"),
            ("line", "str"),
            ("ns_points", "i32"),
            ("count", "f64"),
            ("mp_ns", "f64"),
            ("mp_ew", "f64"),
        ],
    ),
    (
        "boards",
        &[
            ("session", "str"),
            ("section", "str"),
            ("board", "i32"),
            ("results", "f64"),
            ("mean", "f64"),
            ("dispersion", "f64"),
            ("dispersion_imp", "f64"),
            ("dispersion_mp", "f64"),
            ("datum", "f64"),
        ],
    ),
    (
        "standings",
        &[
            ("session", "str"),
            ("section", "str"),
            ("participant", "str"),
            ("rank", "i32"),
            ("rank_to", "i32"),
            ("total", "f64"),
            ("max", "f64"),
            ("pct", "f64"),
            ("boards", "i32"),
        ],
    ),
    (
        "rulings",
        &[
            ("ruling", "str"),
            ("session", "str"),
            ("board", "i32"),
            ("ns", "str"),
            ("ew", "str"),
            ("score", "str"),
            ("law", "str"),
            ("seq", "i64"),
        ],
    ),
    (
        "deals",
        &[
            ("session", "str"),
            ("board", "i32"),
            ("dealer", "str"),
            ("vul", "str"),
            ("pbn", "str"),
            ("dd_N", "str"),
            ("dd_E", "str"),
            ("dd_S", "str"),
            ("dd_W", "str"),
            ("par_score", "i32"),
            ("par_contracts", "str"),
        ],
    ),
];

fn arrow_matches(want: &str, got: &str) -> bool {
    match want {
        "str" => matches!(got, "string" | "large_string" | "string_view"),
        "i32" => got == "int32",
        "i64" => got == "int64",
        "f64" => got == "double",
        "bool" => got == "bool",
        _ => false,
    }
}

#[test]
fn parquet_files_read_back_with_pyarrow() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("frekans-pq-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(["-q", "score"])
        .arg(root.join("events/mazovia-pairs-2026.jsonl"))
        .arg("--out")
        .arg(&out)
        .arg("--dd")
        .status()
        .unwrap();
    assert!(status.success());
    let py = Command::new(python())
        .arg("-c")
        .arg(READER)
        .arg(&out)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; run the tests through scripts/test.sh",
                python()
            )
        });
    assert!(
        py.status.success(),
        "pyarrow failed (is it installed? scripts/test.sh installs it): {}",
        String::from_utf8_lossy(&py.stderr)
    );
    let v: Value = serde_json::from_slice(&py.stdout).unwrap();
    for (file, cols) in CONTRACT {
        let schema = v[file]["schema"].as_array().unwrap();
        assert!(
            schema.len() >= cols.len(),
            "{file}: fewer columns than the contract"
        );
        for (i, (name, ty)) in cols.iter().enumerate() {
            let got_name = schema[i][0].as_str().unwrap();
            let got_ty = schema[i][1].as_str().unwrap();
            assert_eq!(got_name, *name, "{file}: column {i}");
            assert!(
                arrow_matches(ty, got_ty),
                "{file}.{name}: expected {ty}, pyarrow reads {got_ty}"
            );
        }
        assert!(v[file]["rows"].as_u64().unwrap() > 0, "{file} is empty");
    }
    // A few values as pyarrow reads them.
    let standings = v["standings"]["data"].as_array().unwrap();
    assert!(standings
        .iter()
        .any(|r| r["session"] == "overall" && r["rank"] == 1));
    let scores = v["scores"]["data"].as_array().unwrap();
    assert!(scores
        .iter()
        .all(|r| r["side"] == "NS" || r["side"] == "EW"));
    assert!(scores.iter().any(|r| r["adjusted"] == true));
    let rulings = v["rulings"]["data"].as_array().unwrap();
    assert!(rulings
        .iter()
        .all(|r| r["score"].as_str().is_some_and(|s| !s.is_empty())));
    // deals.parquet: one row per `deal` event of the log, in (session, board) order.
    let log = std::fs::read_to_string(root.join("events/mazovia-pairs-2026.jsonl")).unwrap();
    let deal_events = log
        .lines()
        .filter(|l| l.contains(r#""type":"deal""#))
        .count();
    let deals = v["deals"]["data"].as_array().unwrap();
    assert_eq!(deals.len(), deal_events);
    for r in deals {
        for c in ["dd_N", "dd_E", "dd_S", "dd_W"] {
            let hex = r[c].as_str().unwrap();
            assert!(
                hex.len() == 5 && hex.chars().all(|c| matches!(c, '0'..='9' | 'A'..='D')),
                "{c} = {hex:?}"
            );
        }
        assert!(r["pbn"].as_str().unwrap().starts_with("N:"));
        assert!(!r["par_contracts"].as_str().unwrap().is_empty());
    }
    let keys: Vec<(String, i64)> = deals
        .iter()
        .map(|r| {
            (
                r["session"].as_str().unwrap().to_string(),
                r["board"].as_i64().unwrap(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    let _ = std::fs::remove_dir_all(&out);
}
