//! `frekans dataset` (docs/dataset.md): two synthetic championships (a pairs event with deals,
//! a teams event) added to one dataset and read back by the readers a federation runs — DuckDB,
//! polars and pyarrow globbing the Hive partitions, and Delta Lake's own reader (`deltalake`,
//! with time travel) — each table as one, with the values `frekans score` writes. Then the
//! transactions: an unchanged log writes nothing, a grown one replaces its championship's files
//! only, `remove`, an invalid log writes nothing, a run killed anywhere (strace's fault
//! injection) is finished by the next, and two runs at once both land. The readers live in the
//! virtualenv named by FREKANS_PYTHON (scripts/env.sh); without them the tests fail, never skip.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::scratch::{run_in, show, tmp};
use serde_json::Value;

const TABLES: [&str; 10] = [
    "championships",
    "sessions",
    "results",
    "scores",
    "standings",
    "boards",
    "matches",
    "rulings",
    "deals",
    "players",
];

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", show(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// The two championships' logs: `a.jsonl` (pairs, two sections, deals, rulings) and `b.jsonl`
/// (teams).
fn logs(dir: &Path) -> (PathBuf, PathBuf) {
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    ok(
        dir,
        &[
            "synth",
            "--sections",
            "2",
            "--tables",
            "4",
            "--boards",
            "6",
            "--rulings",
            "0.05",
            "--deals",
            "--seed",
            "3",
            "--out",
            s(&a),
        ],
    );
    // Pair A1 with its players' member numbers (one without).
    let text = std::fs::read_to_string(&a).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("{\"type\":\"pair\",\"id\":\"A1\""))
        .unwrap();
    let mut pair: Value = serde_json::from_str(line).unwrap();
    let first = pair["players"][0].clone();
    pair["players"][0] = serde_json::json!({"name": first, "id": "PL-00042"});
    std::fs::write(&a, text.replace(line, &pair.to_string())).unwrap();
    ok(
        dir,
        &[
            "synth",
            "--form",
            "teams",
            "--sections",
            "1",
            "--tables",
            "3",
            "--boards",
            "4",
            "--seed",
            "4",
            "--out",
            s(&b),
        ],
    );
    (a, b)
}

/// `frekans score` of a log into `dir/<stem>-score`.
fn score(dir: &Path, log: &Path) -> PathBuf {
    let out = dir.join(format!(
        "{}-score",
        log.file_stem().unwrap().to_string_lossy()
    ));
    ok(dir, &["score", s(log), "--out", s(&out), "--no-cache"]);
    out
}

fn python() -> String {
    std::env::var("FREKANS_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Run a Python script with arguments; its standard output as JSON. The script ends with
/// `os._exit`: deltalake 1.x (with pyarrow) aborts now and then as the interpreter tears down
/// its threads ("terminate called without an active exception", after the output is written).
fn py(script: &str, args: &[&str]) -> Value {
    let script = format!("{script}\nimport os, sys\nsys.stdout.flush()\nos._exit(0)\n");
    let o: Output = Command::new(python())
        .arg("-c")
        .arg(&script)
        .args(args)
        .output()
        .expect("the Python of FREKANS_PYTHON (scripts/env.sh)");
    assert!(o.status.success(), "python: {}", show(&o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", show(&o)))
}

/// Every table read as one by each reader: row counts (DuckDB, polars and pyarrow over the
/// Hive partitions; deltalake now and at version 0), the columns DuckDB sees, what polars makes
/// of the bare directory, and, per championship and `score` table, whether the dataset's rows
/// (read by polars over the glob, and by deltalake) equal `score`'s file.
const READERS: &str = r#"
import json, sys
import duckdb, polars as pl, pyarrow.dataset as ds
from deltalake import DeltaTable
d = sys.argv[1]
pairs = [a.split("=", 1) for a in sys.argv[2:]]
out = {}
for t in ["championships", "sessions", "results", "scores", "standings", "boards", "matches", "rulings", "deals", "players"]:
    g = f"{d}/{t}/**/*.parquet"
    r = {}
    r["duckdb"] = duckdb.sql(f"SELECT count(*) FROM read_parquet('{g}', hive_partitioning=true)").fetchall()[0][0]
    r["columns"] = [[c[0], c[1]] for c in duckdb.sql(f"DESCRIBE SELECT * FROM read_parquet('{g}', hive_partitioning=true)").fetchall()]
    r["polars"] = pl.scan_parquet(g, hive_partitioning=True).select(pl.len()).collect().item()
    r["pyarrow"] = ds.dataset(f"{d}/{t}", partitioning="hive", format="parquet").count_rows()
    r["delta"] = DeltaTable(f"{d}/{t}").to_pyarrow_table().num_rows
    r["delta_version"] = DeltaTable(f"{d}/{t}").version()
    r["delta_v0"] = DeltaTable(f"{d}/{t}", version=0).to_pyarrow_table().num_rows
    try:
        r["polars_bare"] = pl.scan_parquet(f"{d}/{t}", hive_partitioning=True).select(pl.len()).collect().item()
    except Exception as e:
        r["polars_bare"] = "error: " + type(e).__name__
    out[t] = r
eq = {}
for champ, score in pairs:
    for t in ["scores", "standings", "boards", "rulings", "matches"]:
        try:
            want = pl.read_parquet(f"{score}/{t}.parquet")
        except FileNotFoundError:
            want = None
        got = pl.scan_parquet(f"{d}/{t}/**/*.parquet", hive_partitioning=True).filter(pl.col("championship_id") == champ)
        dt = pl.from_arrow(DeltaTable(f"{d}/{t}").to_pyarrow_table()).filter(pl.col("championship_id") == champ)
        if want is None:
            eq[f"{champ}/{t}"] = [got.select(pl.len()).collect().item() == 0, dt.height == 0, 0]
            continue
        got = got.select(want.columns).collect()
        eq[f"{champ}/{t}"] = [got.equals(want), dt.select(want.columns).equals(want), want.height]
out["equal"] = eq
out["ids"] = duckdb.sql(f"""SELECT DISTINCT participant, participant_player_ids FROM read_parquet('{d}/scores/**/*.parquet', hive_partitioning=true) WHERE participant = 'A1' AND championship_id = 'a'""").fetchall()
out["player"] = duckdb.sql(f"""SELECT participant, seat, player_id FROM read_parquet('{d}/players/**/*.parquet', hive_partitioning=true) WHERE player_id IS NOT NULL""").fetchall()
print(json.dumps(out))
"#;

/// Rows of a `score` table.
fn rows_of(file: &Path) -> u64 {
    let script = "import sys, pyarrow.parquet as pq, json; print(json.dumps(pq.read_metadata(sys.argv[1]).num_rows))";
    py(script, &[s(file)]).as_u64().unwrap()
}

#[test]
fn every_reader_reads_each_table_as_one_with_the_values_of_score() {
    let t = tmp("dataset-read");
    let dir = t.path();
    let (a, b) = logs(dir);
    let data = dir.join("data");
    let out = ok(dir, &["dataset", "add", s(&a), "--to", s(&data)]);
    assert!(out.contains("a (season 2026): added"), "{out}");
    let out = ok(dir, &["dataset", "add", s(&b), "--to", s(&data)]);
    assert!(out.contains("wrote version 1"), "{out}");
    let (sa, sb) = (score(dir, &a), score(dir, &b));
    let r = py(
        READERS,
        &[s(&data), &format!("a={}", s(&sa)), &format!("b={}", s(&sb))],
    );
    for table in TABLES {
        let x = &r[table];
        let n = x["duckdb"].as_u64().unwrap();
        assert!(n > 0, "{table}: no rows");
        for reader in ["polars", "pyarrow", "delta"] {
            assert_eq!(x[reader].as_u64(), Some(n), "{table}: {reader} {x}");
        }
        assert_eq!(x["delta_version"], 1, "{table}");
        let cols: Vec<&str> = x["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c[0].as_str().unwrap())
            .collect();
        assert_eq!(
            &cols[..2],
            ["championship_id", "championship_date"],
            "{table}"
        );
        assert!(cols.contains(&"season") && cols.contains(&"championship"));
        let date = &x["columns"][1][1];
        assert_eq!(date, "DATE", "{table}");
    }
    // Every row counted once: scores is both championships' score files.
    let scores = rows_of(&sa.join("scores.parquet")) + rows_of(&sb.join("scores.parquet"));
    assert_eq!(r["scores"]["duckdb"], scores);
    // Time travel: version 0 was championship a alone.
    assert_eq!(r["scores"]["delta_v0"], rows_of(&sa.join("scores.parquet")));
    assert_eq!(r["championships"]["duckdb"], 2);
    assert_eq!(r["championships"]["delta_v0"], 1);
    // The values of `score`, for each championship and table, through both kinds of reader.
    for (k, v) in r["equal"].as_object().unwrap() {
        assert_eq!(v[0], true, "{k}: the Hive rows differ from score's");
        assert_eq!(v[1], true, "{k}: the Delta rows differ from score's");
    }
    assert!(r["equal"]["b/matches"][2].as_u64().unwrap() > 0);
    assert!(r["equal"]["a/rulings"][2].as_u64().unwrap() > 0);
    // The participants' player ids, one list column each.
    let cols = |t: &str| -> Vec<String> {
        r[t]["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| format!("{} {}", c[0].as_str().unwrap(), c[1].as_str().unwrap()))
            .collect()
    };
    for (table, col) in [
        ("scores", "participant"),
        ("scores", "opponent"),
        ("standings", "participant"),
        ("results", "ns"),
        ("results", "ew"),
        ("matches", "home"),
        ("matches", "away"),
        ("rulings", "ns"),
    ] {
        assert!(
            cols(table).contains(&format!("{col}_player_ids VARCHAR[]")),
            "{table}: {:?}",
            cols(table)
        );
    }
    // The member number of pair A1's first player, in its rows and in players.
    assert_eq!(
        r["ids"],
        serde_json::json!([["A1", ["PL-00042", null]]]),
        "{}",
        r["ids"]
    );
    assert_eq!(r["player"], serde_json::json!([["A1", 1, "PL-00042"]]));
    eprintln!(
        "polars on the bare directory: {}",
        r["scores"]["polars_bare"]
    );
}

/// Every file and directory under `dir`: its inode, size and modification time.
fn listing(dir: &Path) -> BTreeMap<String, (u64, u64, i64, i64)> {
    common::files_under(dir)
        .into_iter()
        .chain(dirs_under(dir))
        .map(|p| {
            let m = std::fs::symlink_metadata(&p).unwrap();
            (
                p.strip_prefix(dir).unwrap().display().to_string(),
                (m.ino(), m.size(), m.mtime(), m.mtime_nsec()),
            )
        })
        .collect()
}

/// [`listing`] of the files, and the directories' names only (a refused run stages its files in
/// a directory of its own under `_frekans`, removed again: that directory's time changes).
fn files_listing(dir: &Path) -> BTreeMap<String, (u64, u64, i64, i64)> {
    listing(dir)
        .into_iter()
        .map(|(k, v)| {
            if dir.join(&k).is_dir() {
                (k, (0, 0, 0, 0))
            } else {
                (k, v)
            }
        })
        .collect()
}

fn dirs_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    let mut i = 0;
    while i < out.len() {
        for e in std::fs::read_dir(&out[i]).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                out.push(e.path());
            }
        }
        i += 1;
    }
    out
}

/// A ruling on the first result of a log, as `append` takes it.
fn ruling_on_first_result(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap();
    let r: Value = text
        .lines()
        .filter(|l| l.contains("\"type\":\"result\""))
        .map(|l| serde_json::from_str(l).unwrap())
        .next()
        .unwrap();
    serde_json::json!({"type": "ruling", "id": "LATE1", "session": r["session"],
        "board": r["board"], "ns": r["ns"], "ew": r["ew"], "score": "A+/A-", "law": "12C1(d)",
        "by": "TD"})
    .to_string()
}

/// The Delta versions of a table (its commit files).
fn versions(data: &Path, table: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(data.join(table).join("_delta_log"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    v.sort();
    v
}

#[test]
fn unchanged_logs_write_nothing_a_grown_one_replaces_its_own_files_and_remove_takes_one_out() {
    let t = tmp("dataset-incr");
    let dir = t.path();
    let (a, b) = logs(dir);
    let data = dir.join("data");
    ok(dir, &["dataset", "add", s(&a), s(&b), "--to", s(&data)]);
    assert_eq!(versions(&data, "scores").len(), 1);
    let before = listing(&data);
    // Unchanged: not a file touched, no version.
    let out = ok(dir, &["dataset", "add", s(&a), s(&b), "--to", s(&data)]);
    assert!(out.contains("a (season 2026): unchanged"), "{out}");
    assert!(out.contains("nothing changed"), "{out}");
    assert_eq!(listing(&data), before, "an unchanged add changed files");
    // A late ruling on a: one version, b's files as they were, a's scores replaced.
    ok(
        dir,
        &["append", s(&a), &ruling_on_first_result(&a), "--no-cache"],
    );
    let out = ok(dir, &["dataset", "add", s(&a), s(&b), "--to", s(&data)]);
    assert!(out.contains("a (season 2026): replaced"), "{out}");
    assert!(out.contains("b (season 2026): unchanged"), "{out}");
    assert!(out.contains("wrote version 1"), "{out}");
    let after = listing(&data);
    for table in TABLES {
        assert_eq!(versions(&data, table).len(), 2, "{table}");
        let part_b = format!("{table}/season=2026/championship=b/part-0.parquet");
        assert_eq!(after[&part_b], before[&part_b], "{part_b} changed");
    }
    let part_a = "scores/season=2026/championship=a/part-0.parquet";
    assert_ne!(after[part_a].0, before[part_a].0, "a's scores not replaced");
    // (deals did not change: the same file)
    let deals_a = "deals/season=2026/championship=a/part-0.parquet";
    assert_eq!(after[deals_a], before[deals_a]);
    // The superseded file is kept for time travel, where no glob finds it.
    let store: Vec<String> = std::fs::read_dir(data.join("scores/_store"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(store.iter().filter(|n| n.starts_with("a-")).count(), 2);
    let counts = r#"
import json, sys, duckdb, polars as pl
from deltalake import DeltaTable
d = sys.argv[1]
q = lambda t: duckdb.sql(f"SELECT count(*), count(DISTINCT championship_id), sum(CASE WHEN adjusted THEN 1 ELSE 0 END) FROM read_parquet('{d}/{t}/**/*.parquet', hive_partitioning=true)").fetchall()[0]
out = {"glob": q("results"), "delta": DeltaTable(f"{d}/results").to_pyarrow_table().num_rows,
       "delta_v0": DeltaTable(f"{d}/results", version=0).to_pyarrow_table().num_rows,
       "rulings": duckdb.sql(f"SELECT count(*) FROM read_parquet('{d}/rulings/**/*.parquet') WHERE ruling = 'LATE1'").fetchall()[0][0],
       "rulings_v0": pl.from_arrow(DeltaTable(f"{d}/rulings", version=0).to_pyarrow_table()).filter(pl.col("ruling") == "LATE1").height,
       "champs": DeltaTable(f"{d}/championships").to_pyarrow_table().num_rows}
print(json.dumps(out))
"#;
    let r = py(counts, &[s(&data)]);
    assert_eq!(r["glob"][1], 2);
    assert_eq!(r["glob"][0], r["delta"]);
    assert_eq!(r["delta"], r["delta_v0"]);
    assert_eq!(r["rulings"], 1);
    assert_eq!(r["rulings_v0"], 0);
    // list names both; remove b: a new version, b's partitions gone.
    let list = ok(dir, &["dataset", "list", "--to", s(&data)]);
    assert_eq!(list.lines().count(), 2, "{list}");
    assert!(list.lines().any(|l| l.starts_with("a\t2026\t")), "{list}");
    let out = ok(dir, &["dataset", "remove", "b", "--to", s(&data)]);
    assert!(out.contains("version 2"), "{out}");
    for table in TABLES {
        assert!(!data.join(table).join("season=2026/championship=b").exists());
        assert!(data.join(table).join("season=2026/championship=a").exists());
        assert_eq!(versions(&data, table).len(), 3, "{table}");
    }
    let r = py(counts, &[s(&data)]);
    assert_eq!(r["glob"][1], 1);
    assert_eq!(r["glob"][0], r["delta"]);
    assert_eq!(r["champs"], 1);
    let list = ok(dir, &["dataset", "list", "--to", s(&data), "--json"]);
    let rows: Vec<Value> = list
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["championship"], "a");
    assert_eq!(rows[0]["version"], 1);
    // Removing what is not there: exit 2.
    let o = run_in(dir, &["dataset", "remove", "b", "--to", s(&data)]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
}

#[test]
fn an_invalid_log_or_id_writes_nothing() {
    let t = tmp("dataset-invalid");
    let dir = t.path();
    let (a, b) = logs(dir);
    let bad = dir.join("bad.jsonl");
    let mut text = std::fs::read_to_string(&b).unwrap();
    text.push_str("{\"type\":\"result\",\"session\":\"S9\",\"board\":1}\n");
    std::fs::write(&bad, text).unwrap();
    // A new dataset: not even its directory is made.
    let fresh = dir.join("fresh");
    let o = run_in(dir, &["dataset", "add", s(&a), s(&bad), "--to", s(&fresh)]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.jsonl"));
    assert!(!fresh.exists(), "a refused add left {}", fresh.display());
    // An existing one: not a file changed (a valid log beside the bad one not added either).
    let data = dir.join("data");
    ok(dir, &["dataset", "add", s(&a), "--to", s(&data)]);
    let before = files_listing(&data);
    let o = run_in(dir, &["dataset", "add", s(&b), s(&bad), "--to", s(&data)]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert_eq!(files_listing(&data), before);
    // An id that cannot name a partition: exit 2, with the way out.
    let odd = dir.join("club night.jsonl");
    std::fs::copy(&b, &odd).unwrap();
    let o = run_in(dir, &["dataset", "add", s(&odd), "--to", s(&data)]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--id"));
    assert_eq!(files_listing(&data), before);
    ok(
        dir,
        &[
            "dataset",
            "add",
            s(&odd),
            "--id",
            "club-night",
            "--to",
            s(&data),
        ],
    );
    // A log without a date: refused unless --date or --season says it.
    let undated = dir.join("undated.jsonl");
    let text = std::fs::read_to_string(&b)
        .unwrap()
        .replace(",\"date\":\"2026-11-21\"", "")
        .lines()
        .map(|l| {
            let mut v: Value = match serde_json::from_str(l) {
                Ok(v) => v,
                Err(_) => return l.to_string(),
            };
            v.as_object_mut().unwrap().remove("at");
            v.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&undated, text + "\n").unwrap();
    let o = run_in(dir, &["dataset", "add", s(&undated), "--to", s(&data)]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--season"));
    let out = ok(
        dir,
        &[
            "dataset",
            "add",
            s(&undated),
            "--season",
            "2025",
            "--to",
            s(&data),
        ],
    );
    assert!(out.contains("(season 2025)"), "{out}");
    assert!(data
        .join("scores/season=2025/championship=undated")
        .exists());
}

/// What a dataset holds, run-independent: the manifest's championships without their times and
/// versions, every Hive file's bytes but the championships table's (which holds `added_at`), the
/// files each table's Delta log has as its current state, and no transaction or staged file
/// left behind.
fn state_of(data: &Path) -> String {
    let m: Value =
        serde_json::from_slice(&std::fs::read(data.join("_frekans/manifest.json")).unwrap())
            .unwrap();
    assert!(!data.join("_frekans/pending.json").exists());
    let own: Vec<_> = std::fs::read_dir(data.join("_frekans"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(own, ["manifest.json"], "left in _frekans: {own:?}");
    let tmps: Vec<PathBuf> = common::files_under(data)
        .into_iter()
        .filter(|p| p.to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(tmps.is_empty(), "temporaries left: {tmps:?}");
    let mut out = String::new();
    for (id, e) in m["championships"].as_object().unwrap() {
        out += &format!("{id} {} {} {}\n", e["season"], e["head"], e["events"]);
        for (t, f) in e["tables"].as_object().unwrap() {
            let file = f["file"].as_str().unwrap();
            let rows = f["rows"].as_u64().unwrap();
            if t != "championships" {
                out += &format!("  {t} {file} {rows}\n");
            } else {
                out += &format!("  {t} {rows}\n");
            }
            // The Hive file is the store file.
            let part = data.join(format!(
                "{t}/season={}/championship={id}/part-0.parquet",
                e["season"]
            ));
            let store = data.join(t).join("_store").join(file);
            assert_eq!(
                std::fs::metadata(&part).unwrap().ino(),
                std::fs::metadata(&store).unwrap().ino(),
                "{}",
                part.display()
            );
        }
    }
    for t in TABLES {
        let mut live = BTreeSet::new();
        for v in versions(data, t) {
            let text = std::fs::read_to_string(data.join(t).join("_delta_log").join(&v)).unwrap();
            for line in text.lines() {
                let a: Value = serde_json::from_str(line).unwrap();
                if let Some(p) = a["add"]["path"].as_str() {
                    live.insert(p.to_string());
                }
                if let Some(p) = a["remove"]["path"].as_str() {
                    live.remove(p);
                }
            }
        }
        let want: BTreeSet<String> = m["championships"]
            .as_object()
            .unwrap()
            .values()
            .map(|e| format!("_store/{}", e["tables"][t]["file"].as_str().unwrap()))
            .collect();
        assert_eq!(
            live, want,
            "{t}: the Delta log's files are not the manifest's"
        );
        let hive = common::files_under(&data.join(t))
            .into_iter()
            .filter(|p| p.to_string_lossy().ends_with(".parquet"))
            .count();
        assert_eq!(hive, want.len(), "{t}: Hive files");
        out += &format!("{t}: {} versions\n", versions(data, t).len());
    }
    out
}

fn argv(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// frekans under strace (as `run_in`), `strace`'s arguments first.
fn traced(dir: &Path, strace: &[&str], args: &[&str]) -> Output {
    Command::new("strace")
        .args(["-f", "-qq"])
        .args(strace)
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .current_dir(dir)
        .env_remove("FREKANS_LOG")
        .env("FREKANS_AUDIT_CACHE", dir.join(".cache-audit"))
        .output()
        .expect("strace (Debian's strace package)")
}

/// The calls a run is killed at: creating, writing, syncing, linking, renaming, removing.
const CALLS: [&str; 9] = [
    "openat", "write", "mkdir", "linkat", "fsync", "rename", "renameat", "unlinkat", "rmdir",
];

/// How many times a run of `args` makes each of [`CALLS`].
fn counts(dir: &Path, args: &[&str]) -> BTreeMap<String, u64> {
    let file = dir.join("strace-counts.txt");
    let o = traced(
        dir,
        &[
            "-c",
            "-o",
            s(&file),
            "-e",
            &format!("trace={}", CALLS.join(",")),
        ],
        args,
    );
    assert!(o.status.success(), "{}", show(&o));
    let mut n = BTreeMap::new();
    for line in std::fs::read_to_string(&file).unwrap().lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if let Some(call) = cols.last().filter(|c| CALLS.contains(c)) {
            n.insert(call.to_string(), cols[3].parse().unwrap());
        }
    }
    n
}

#[test]
fn a_run_killed_anywhere_is_finished_by_the_next() {
    let t = tmp("dataset-kill");
    let dir = t.path();
    let (a, b) = logs(dir);
    // The change to make: a grown (its own id) and b new, over a dataset of a.
    let grown = dir.join("grown");
    std::fs::create_dir(&grown).unwrap();
    let a2 = grown.join("a.jsonl");
    std::fs::copy(&a, &a2).unwrap();
    ok(
        dir,
        &["append", s(&a2), &ruling_on_first_result(&a2), "--no-cache"],
    );
    let base = dir.join("base");
    ok(dir, &["dataset", "add", s(&a), "--to", s(&base)]);
    let copy = |to: &Path| {
        let _ = std::fs::remove_dir_all(to);
        let o = Command::new("cp")
            .args(["-a", s(&base), s(to)])
            .output()
            .unwrap();
        assert!(o.status.success());
    };
    let clean = dir.join("clean");
    copy(&clean);
    let args = |d: &Path| -> Vec<String> {
        ["dataset", "add", s(&a2), s(&b), "--to", s(d)]
            .map(str::to_string)
            .to_vec()
    };
    let n = counts(dir, &argv(&args(&clean)));
    let want = state_of(&clean);
    assert!(want.contains("scores: 2 versions"), "{want}");
    let work = dir.join("work");
    let mut killed = 0;
    for (call, total) in &n {
        let mut at: Vec<u64> = [
            1,
            total / 4,
            total / 2,
            3 * total / 4,
            total.saturating_sub(1),
            *total,
        ]
        .into_iter()
        .filter(|&k| k >= 1)
        .collect();
        at.dedup();
        for k in at {
            copy(&work);
            let o = traced(
                dir,
                &["-e", &format!("inject={call}:signal=KILL:when={k}")],
                &argv(&args(&work)),
            );
            if o.status.code().is_none() {
                killed += 1;
            }
            // The next run (an add, or a list) finishes it; the dataset is the clean run's.
            if k % 2 == 0 {
                ok(dir, &["dataset", "list", "--to", s(&work)]);
            }
            ok(dir, &argv(&args(&work)));
            assert_eq!(state_of(&work), want, "killed at {call} #{k}");
        }
    }
    assert!(killed > 20, "only {killed} runs were killed");
    // Delta's reader agrees with the finished dataset.
    let r = py(
        r#"
import json, sys
from deltalake import DeltaTable
print(json.dumps([DeltaTable(f"{p}/scores").to_pyarrow_table().num_rows for p in sys.argv[1:]]))
"#,
        &[s(&clean), s(&work)],
    );
    assert_eq!(r[0], r[1]);
}

#[test]
fn two_runs_at_once_both_land() {
    let t = tmp("dataset-concurrent");
    let dir = t.path();
    let (a, b) = logs(dir);
    for round in 0..3 {
        let data = dir.join(format!("data{round}"));
        let spawn = |log: &Path| {
            Command::new(env!("CARGO_BIN_EXE_frekans"))
                .args(["dataset", "add", s(log), "--to", s(&data)])
                .current_dir(dir)
                .output()
        };
        let (oa, ob) = std::thread::scope(|sc| {
            let ha = sc.spawn(|| spawn(&a).unwrap());
            let hb = sc.spawn(|| spawn(&b).unwrap());
            (ha.join().unwrap(), hb.join().unwrap())
        });
        assert!(oa.status.success(), "{}", show(&oa));
        assert!(ob.status.success(), "{}", show(&ob));
        let list = ok(dir, &["dataset", "list", "--to", s(&data)]);
        assert_eq!(list.lines().count(), 2, "{list}");
        let state = state_of(&data);
        assert!(state.contains("scores: 2 versions"), "{state}");
    }
}
