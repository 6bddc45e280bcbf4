//! The federation's everyday questions (docs/dataset.md, "Queries"): a season of club sessions
//! with members' numbers, some playing one deal set, added to a dataset; every query of the doc
//! (read from the doc itself by tools/dataset_sql.py) runs on DuckDB and on polars SQL, the two
//! engines agree row for row, and the answers equal what each championship's own `frekans score`
//! tables and log say, computed without SQL. A dataset missing one championship fails the same
//! check. The engines live in the virtualenv named by FREKANS_PYTHON (scripts/env.sh); without
//! them the test fails, never skips.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::scratch::{run_in, show, tmp};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn python() -> String {
    std::env::var("FREKANS_PYTHON").expect(
        "FREKANS_PYTHON names the virtualenv's python with duckdb and polars (scripts/env.sh)",
    )
}

fn check(dir: &Path, ds: &Path, scored: &[String]) -> std::process::Output {
    let tool = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/dataset_sql.py");
    let mut c = Command::new(python());
    c.arg(tool)
        .arg("check")
        .arg(ds)
        .args(["--engines", "duckdb,polars"]);
    for sc in scored {
        c.args(["--scored", sc]);
    }
    c.current_dir(dir).output().unwrap()
}

#[test]
fn the_docs_queries_agree_across_engines_and_with_frekans_score() {
    let t = tmp("dsq");
    let dir = t.path();
    let mut logs = Vec::new();
    let mut scored = Vec::new();
    for i in 1..=6u32 {
        let log = dir.join(format!("club{i}.jsonl"));
        let date = format!("202{}-0{i}-1{i}", 4 + i % 2);
        // Clubs 1, 3, 5 play one deal set, 2, 4, 6 another; every club seats members of one
        // federation of 40, in fixed partnerships.
        let deal_seed = (100 + i % 2).to_string();
        let seed = i.to_string();
        let o = run_in(
            dir,
            &[
                "synth",
                "-q",
                "--sections",
                "1",
                "--tables",
                "8",
                "--boards",
                "6",
                "--seed",
                &seed,
                "--members",
                "40",
                "--deal-seed",
                &deal_seed,
                "--deals",
                "--corrections",
                "0",
                "--rulings",
                "0.05",
                "--date",
                &date,
                "--out",
                s(&log),
            ],
        );
        assert!(o.status.success(), "{}", show(&o));
        let out = dir.join(format!("s{i}"));
        let o = run_in(dir, &["score", "-q", s(&log), "--out", s(&out)]);
        assert!(o.status.success(), "{}", show(&o));
        scored.push(format!("club{i}={}={}", s(&out), s(&log)));
        logs.push(log);
    }
    let ds = dir.join("ds");
    let mut args = vec!["dataset", "add"];
    args.extend(logs.iter().map(|l| s(l)));
    args.extend(["--to", s(&ds)]);
    let o = run_in(dir, &args);
    assert!(o.status.success(), "{}", show(&o));

    let o = check(dir, &ds, &scored);
    assert!(o.status.success(), "{}", show(&o));
    let summary: serde_json::Value =
        serde_json::from_slice(o.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    let rows = &summary["rows"];
    // Every question has an answer to compare (a player of several clubs, their partnership,
    // six clubs' winners, the deals two sets of three clubs shared).
    for (q, at_least) in [
        ("player_history", 12),
        ("player_season", 1),
        ("partnership", 1),
        ("winners", 6),
        ("deals_across_clubs", 12),
        ("one_deal", 24),
    ] {
        assert!(rows[q].as_u64().unwrap() >= at_least, "{q}: {summary}");
    }

    // The check can fail: the dataset without one club no longer says what the clubs' own
    // tables say.
    let o = run_in(dir, &["dataset", "remove", "club3", "--to", s(&ds)]);
    assert!(o.status.success(), "{}", show(&o));
    let o = check(dir, &ds, &scored);
    assert!(
        !o.status.success(),
        "a missing club must fail the check: {}",
        show(&o)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("FAIL winners"), "{err}");
}
