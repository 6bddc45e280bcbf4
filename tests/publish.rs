//! `frekans publish`, the nightly command: what it writes is byte for byte what `score`,
//! `bulletin` and `site` write (the Parquet tables and the PDF in DIR, the site in DIR/site);
//! publishing again after one appended ruling rewrites exactly the files whose content that
//! ruling changes — the board's page, the scorecards of the pairs whose scores moved (as
//! `audit --ruling` names them), the standings, index and rulings pages, the Parquet tables
//! that hold the board, the bulletin — and leaves every other file as it was (inode and
//! modification time), and the result is a fresh publish of the new log; pages that no longer
//! exist are removed, files publish did not write never are; a failed publish (an invalid log,
//! a failing typst) leaves DIR as it was. typst is installed by scripts/test.sh.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use common::scratch::{show, tmp};

/// Run frekans in `dir`, all the tests of this file sharing one cache directory (kept in the
/// target's directory for tests): the demo's deals are solved double dummy once, not once a
/// test (solved deals are files named by their deal's hash, written whole and checked when
/// read; the audit cache is made for concurrent runs).
fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .current_dir(dir)
        .env_remove("FREKANS_LOG")
        .env(
            "FREKANS_AUDIT_CACHE",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("publish-cache"),
        )
        .output()
        .expect("run frekans")
}

const MANIFEST: &str = ".frekans-publish";

/// Every file under `dir` (recursively) by its path relative to `dir`, with its bytes.
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    common::files_under(dir)
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            (rel, std::fs::read(&p).unwrap())
        })
        .collect()
}

/// Every file under `dir` with its inode and modification time (nanoseconds): what tells a
/// file rewritten from one left alone.
fn stamps(dir: &Path) -> BTreeMap<String, (u64, i64, i64)> {
    contents(dir)
        .into_keys()
        .map(|rel| {
            let m = std::fs::metadata(dir.join(&rel)).unwrap();
            (rel, (m.ino(), m.mtime(), m.mtime_nsec()))
        })
        .collect()
}

/// The files whose inode or modification time differ between two stamps (and those only in
/// one of them).
fn touched(
    before: &BTreeMap<String, (u64, i64, i64)>,
    after: &BTreeMap<String, (u64, i64, i64)>,
) -> BTreeSet<String> {
    let names: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    names
        .into_iter()
        .filter(|n| before.get(*n) != after.get(*n))
        .cloned()
        .collect()
}

/// Run frekans in `dir` and insist on success.
fn ok(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", show(&o));
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn demo() -> String {
    common::root()
        .join("events/mazovia-pairs-2026.jsonl")
        .display()
        .to_string()
}

/// The directory `publish` writes holds `bulletin`'s files (the Parquet tables being `score
/// --dd`'s, and `score`'s but deals.parquet) and, under site/, `site`'s, the same bytes, and
/// its manifest lists exactly them (in Polish: the English pages are the other tests').
#[test]
fn publish_writes_what_score_bulletin_and_site_write() {
    let dir = tmp("publish-same");
    let d = dir.path();
    let log = demo();
    for (lang, sub) in [("pl", "pl")] {
        let out = |what: &str| format!("{sub}-{what}");
        ok(d, &["publish", &log, "--out", &out("pub"), "--lang", lang]);
        ok(
            d,
            &["bulletin", &log, "--out", &out("bulletin"), "--lang", lang],
        );
        ok(d, &["site", &log, "--out", &out("site"), "--lang", lang]);
        ok(d, &["score", &log, "--out", &out("score")]);
        ok(d, &["score", &log, "--out", &out("score-dd"), "--dd"]);
        let published = contents(&d.join(out("pub")));
        let bulletin = contents(&d.join(out("bulletin")));
        let site = contents(&d.join(out("site")));
        let mut expected: BTreeMap<String, Vec<u8>> = bulletin.clone();
        for (name, bytes) in &site {
            expected.insert(format!("site/{name}"), bytes.clone());
        }
        let manifest = String::from_utf8(published[MANIFEST].clone()).unwrap();
        let listed: BTreeSet<&str> = manifest.lines().filter(|l| !l.starts_with('#')).collect();
        let mut without = published.clone();
        without.remove(MANIFEST);
        assert_eq!(
            without.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>(),
            "{lang}: the files"
        );
        for (name, bytes) in &expected {
            assert!(without[name] == *bytes, "{lang}: {name} differs");
        }
        assert_eq!(
            listed,
            expected.keys().map(String::as_str).collect(),
            "{lang}: the manifest"
        );
        assert!(bulletin.contains_key("bulletin.pdf") && site.contains_key("index.html"));
        for (tables, with_deals) in [(out("score"), false), (out("score-dd"), true)] {
            let tables = contents(&d.join(tables));
            assert_eq!(tables.contains_key("deals.parquet"), with_deals);
            assert!(tables.len() >= 5, "{tables:?}");
            for (name, bytes) in &tables {
                assert!(published[name] == *bytes, "{lang}: {name} is not score's");
            }
        }
    }
}

/// The nightly case: a ruling appended (`frekans append`), then publish again. Exactly the
/// files whose content the ruling changes are rewritten, and the directory is then what a
/// fresh publish of the new log writes. Publishing again with nothing changed touches nothing.
#[test]
fn a_republish_after_one_ruling_rewrites_only_what_changed() {
    let dir = tmp("publish-again");
    let d = dir.path();
    std::fs::copy(demo(), d.join("log.jsonl")).unwrap();
    ok(d, &["publish", "log.jsonl", "--out", "out"]);
    let first = stamps(&d.join("out"));
    ok(d, &["publish", "log.jsonl", "--out", "out"]);
    assert_eq!(
        touched(&first, &stamps(&d.join("out"))),
        BTreeSet::new(),
        "nothing changed, nothing rewritten"
    );
    // Another weighting of R8 (session S1, board 14, NS A9 against EW A24, section A: compared
    // by section; R8 is the appeals committee's of R2): the board's frequency table changes, so every score of that board in
    // section A may.
    let out = ok(
        d,
        &[
            "append",
            "log.jsonl",
            r#"{"type":"ruling","id":"R8b","session":"S1","board":14,"ns":"A9","ew":"A24","supersedes":"R8","score":"(20%+420&40%+450&40%-50)","law":"16B1","by":"Appeals committee"}"#,
        ],
    );
    assert!(out.starts_with("appended event"), "{out}");
    let stdout = ok(d, &["publish", "log.jsonl", "--out", "out"]);
    let rewritten = touched(&first, &stamps(&d.join("out")));

    // Whose score moved, as the audit of the new ruling says (not the site's code).
    let audit = ok(
        d,
        &["audit", "log.jsonl", "--ruling", "R8b", "--format", "json"],
    );
    let audit: serde_json::Value = serde_json::from_str(&audit).unwrap();
    let mut moved = BTreeSet::new();
    for b in audit["boards"].as_array().unwrap() {
        assert_eq!(
            (b["session"].as_str(), b["board"].as_u64()),
            (Some("S1"), Some(14))
        );
        if b["score_before"] != b["score_after"] {
            moved.insert(b["participant"].as_str().unwrap().to_string());
        }
    }
    assert!(
        moved.len() > 2,
        "the ruling moves more than its own table: {moved:?}"
    );
    let mut expected: BTreeSet<String> = [
        // the tables holding the board's scores, its frequency table and statistics, the
        // standings and the rulings; the bulletin's data and PDF (the head changes too)
        "scores.parquet",
        "frequencies.parquet",
        "boards.parquet",
        "standings.parquet",
        "rulings.parquet",
        "bulletin.json",
        "bulletin.pdf",
        // the board's page, its session's standings, the overall standings, the rulings and
        // the index (which counts the rulings)
        "site/boards/S1-A-14.html",
        "site/sessions/S1.html",
        "site/overall.html",
        "site/rulings.html",
        "site/index.html",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    for p in &moved {
        expected.insert(format!("site/pairs/{p}.html"));
    }
    assert_eq!(rewritten, expected, "{stdout}");
    assert!(
        stdout.contains(&format!("{} rewritten", expected.len())),
        "{stdout}"
    );
    // Correct first: the republished directory is a fresh publish of the new log.
    ok(d, &["publish", "log.jsonl", "--out", "fresh"]);
    assert!(contents(&d.join("out")) == contents(&d.join("fresh")));
}

/// Publishing another championship into the directory: the first one's pages that the second
/// does not have are removed, files publish did not write (beside the results, or among the
/// pages) are kept, and what publish wrote is a fresh publish of the second.
#[test]
fn pages_no_longer_published_are_removed_and_nothing_else() {
    let dir = tmp("publish-remove");
    let d = dir.path();
    ok(d, &["publish", &demo(), "--out", "out"]);
    std::fs::write(d.join("out/notes.txt"), "the director's").unwrap();
    std::fs::write(d.join("out/site/pairs/mine.html"), "a page of mine").unwrap();
    let teams = common::root().join("events/polish-teams-2026.jsonl");
    let teams = teams.to_str().unwrap();
    let stdout = ok(d, &["publish", teams, "--out", "out"]);
    assert!(stdout.contains("removed"), "{stdout}");
    ok(d, &["publish", teams, "--out", "fresh"]);
    let mut now = contents(&d.join("out"));
    assert_eq!(now.remove("notes.txt").unwrap(), b"the director's");
    assert_eq!(
        now.remove("site/pairs/mine.html").unwrap(),
        b"a page of mine"
    );
    let fresh = contents(&d.join("fresh"));
    assert_eq!(
        now.keys().collect::<Vec<_>>(),
        fresh.keys().collect::<Vec<_>>()
    );
    assert!(now == fresh);
}

/// A publish that fails leaves the directory exactly as it was: an invalid log (exit 2), a
/// typst that cannot be run (exit 1); a new directory is not made at all.
#[test]
fn a_failed_publish_leaves_the_directory_as_it_was() {
    let dir = tmp("publish-fail");
    let d = dir.path();
    let mut log = std::fs::read_to_string(demo()).unwrap();
    std::fs::write(d.join("log.jsonl"), &log).unwrap();
    ok(d, &["publish", "log.jsonl", "--out", "out"]);
    let before = stamps(&d.join("out"));
    let bytes = contents(&d.join("out"));
    log.push_str("{\"type\":\"result\",\"session\":\"S1\"}\n");
    std::fs::write(d.join("bad.jsonl"), &log).unwrap();
    for (args, status) in [
        (vec!["publish", "bad.jsonl", "--out", "out"], 2),
        (
            vec![
                "publish",
                "log.jsonl",
                "--out",
                "out",
                "--typst",
                "/nonexistent/typst",
            ],
            1,
        ),
    ] {
        let o = run_in(d, &args);
        assert_eq!(o.status.code(), Some(status), "{args:?}: {}", show(&o));
        assert_eq!(stamps(&d.join("out")), before, "{args:?}");
        assert!(contents(&d.join("out")) == bytes, "{args:?}");
    }
    let o = run_in(d, &["publish", "bad.jsonl", "--out", "new"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("line 1945"),
        "{}",
        show(&o)
    );
    assert!(!d.join("new").exists());
    let left: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with(".frekans-tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
