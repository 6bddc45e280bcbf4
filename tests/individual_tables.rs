//! An individual event's tables (issue 38, docs/event-log.md "Individual events"): `score`'s
//! Parquet files of fixtures/IND-RULINGS read by pyarrow (a row per player and board, the
//! player's id as `participant`, their side's score, the opposing player in the matching seat as
//! `opponent`; standings per player with name and member number), and the federation dataset of
//! an individual championship read back by DuckDB (each row naming a player carries their member
//! number; results and rulings rows their side's two players'; the players table's kind `player`).
//! The readers live in the virtualenv named by FREKANS_PYTHON; without them the tests fail.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::scratch::{run_in, show, tmp};
use serde_json::Value;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn ok(dir: &Path, args: &[&str]) {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", show(&o));
}

fn py(script: &str, args: &[&str]) -> Value {
    let python = std::env::var("FREKANS_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let script = format!("{script}\nimport os, sys\nsys.stdout.flush()\nos._exit(0)\n");
    let o = Command::new(python)
        .arg("-c")
        .arg(&script)
        .args(args)
        .output()
        .expect("the Python of FREKANS_PYTHON (scripts/env.sh)");
    assert!(o.status.success(), "python: {}", show(&o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", show(&o)))
}

/// The fixture's seats: (board, player) -> (seat letter, the table's four players N, S, E, W).
fn seats() -> BTreeMap<(i64, String), (usize, [String; 4])> {
    let log =
        std::fs::read_to_string(common::root().join("fixtures/IND-RULINGS/events.jsonl")).unwrap();
    let mut out = BTreeMap::new();
    for l in log.lines().filter(|l| l.contains(r#""south""#)) {
        let v: Value = serde_json::from_str(l).unwrap();
        let four = ["north", "south", "east", "west"].map(|k| v[k].as_str().unwrap().to_string());
        for (i, p) in four.iter().enumerate() {
            out.insert((v["board"].as_i64().unwrap(), p.clone()), (i, four.clone()));
        }
    }
    out
}

#[test]
fn score_parquet_has_a_row_per_player_and_board_read_by_pyarrow() {
    let dir = tmp("ind-parquet");
    let out = dir.path().join("out");
    let log = common::root().join("fixtures/IND-RULINGS/events.jsonl");
    ok(
        dir.path(),
        &["score", s(&log), "--out", s(&out), "--no-cache"],
    );
    let v = py(
        r#"
import json, sys
import pyarrow.parquet as pq
print(json.dumps({n: pq.read_table(f"{sys.argv[1]}/{n}.parquet").to_pylist() for n in ["scores", "standings"]}))
"#,
        &[s(&out)],
    );
    let seats = seats();
    let scores = v["scores"].as_array().unwrap();
    // (board, side, table's North) -> the side's score: both players of a side the same.
    let mut by_side: BTreeMap<(i64, String, String), f64> = BTreeMap::new();
    for r in scores {
        let (b, p) = (
            r["board"].as_i64().unwrap(),
            r["participant"].as_str().unwrap(),
        );
        let Some((seat, four)) = seats.get(&(b, p.to_string())) else {
            continue; // a table the ruling created
        };
        // N(0)<->E(2), S(1)<->W(3); NS rows sit North or South.
        let opp = [2, 3, 0, 1][*seat];
        assert_eq!(r["opponent"].as_str().unwrap(), four[opp], "{r}");
        assert_eq!(r["side"], if *seat < 2 { "NS" } else { "EW" }, "{r}");
        let key = (b, r["side"].as_str().unwrap().to_string(), four[0].clone());
        let score = r["score"].as_f64().unwrap();
        if let Some(other) = by_side.insert(key, score) {
            assert_eq!(other, score, "two players of a side, two scores: {r}");
        }
    }
    assert!(by_side.len() > 20);
    // Standings: one row per player, with their name and member number.
    let st = v["standings"].as_array().unwrap();
    let s1: Vec<&Value> = st.iter().filter(|r| r["session"] == "S1").collect();
    assert_eq!(s1.len(), 12, "12 players");
    let anna = s1.iter().find(|r| r["participant"] == "1").unwrap();
    assert_eq!(anna["players"], "Anna Nowak");
    assert_eq!(anna["player_ids"], serde_json::json!(["PL-04512"]));
    // The penalty comes off player 10 only.
    assert!(s1
        .iter()
        .all(|r| (r["penalties"].as_f64().unwrap() > 0.0) == (r["participant"] == "10")));
}

#[test]
fn the_dataset_of_an_individual_championship_read_by_duckdb() {
    let dir = tmp("ind-dataset");
    let d = dir.path().join("data");
    let log = dir.path().join("ind.jsonl");
    ok(
        dir.path(),
        &[
            "synth",
            "--kind",
            "individual",
            "--form",
            "mp",
            "--sections",
            "1",
            "--tables",
            "4",
            "--boards",
            "6",
            "--rulings",
            "0.2",
            "--members",
            "100",
            "--seed",
            "5",
            "--out",
            s(&log),
        ],
    );
    ok(
        dir.path(),
        &["dataset", "add", s(&log), "--to", s(&d), "--id", "ind"],
    );
    let v = py(
        r#"
import json, sys, duckdb
d = sys.argv[1]
t = lambda n: f"read_parquet('{d}/{n}/**/*.parquet', hive_partitioning=true)"
out = {}
out["players"] = duckdb.sql(f"SELECT kind, count(*), count(player_id) FROM {t('players')} GROUP BY kind").fetchall()
out["scores"] = duckdb.sql(f"SELECT count(*), min(len(participant_player_ids)), min(len(opponent_player_ids)), count(*) FILTER (WHERE participant_player_ids[1] IS NULL) FROM {t('scores')}").fetchall()
out["results"] = duckdb.sql(f"SELECT count(*), min(len(ns_player_ids)), max(len(ew_player_ids)), count(*) FILTER (WHERE list_contains(ns_player_ids, NULL)) FROM {t('results')}").fetchall()
out["rulings"] = duckdb.sql(f"SELECT count(*), min(len(ns_player_ids)), min(len(ew_player_ids)) FROM {t('rulings')}").fetchall()
out["standings"] = duckdb.sql(f"SELECT count(*), count(DISTINCT participant_player_ids[1]) FROM {t('standings')} WHERE session = 'S1'").fetchall()
out["member"] = duckdb.sql(f"SELECT s.participant_player_ids[1] = p.player_id FROM {t('standings')} s JOIN {t('players')} p USING (championship_id, participant) WHERE s.session = 'S1'").fetchall()
print(json.dumps(out))
"#,
        &[s(&d)],
    );
    // 16 players, each with a member number.
    assert_eq!(v["players"], serde_json::json!([["player", 16, 16]]));
    let sc = &v["scores"][0];
    assert_eq!(sc[0], 16 * 6, "a row per player and board");
    assert_eq!(
        (sc[1].as_i64(), sc[2].as_i64(), sc[3].as_i64()),
        (Some(1), Some(1), Some(0))
    );
    let res = &v["results"][0];
    assert!(res[0].as_i64().unwrap() > 0);
    assert_eq!(
        (res[1].as_i64(), res[2].as_i64(), res[3].as_i64()),
        (Some(2), Some(2), Some(0))
    );
    let rul = &v["rulings"][0];
    assert!(rul[0].as_i64().unwrap() > 0, "rulings: {rul}");
    assert_eq!((rul[1].as_i64(), rul[2].as_i64()), (Some(2), Some(2)));
    assert_eq!(v["standings"][0], serde_json::json!([16, 16]));
    assert!(v["member"].as_array().unwrap().iter().all(|r| r[0] == true));
}
