//! Bridgemate databases as Bridgemate Control Software and TabScore write them (the fixtures of
//! tests/data/import/bws/ have the real files' schemas: tests/bws_schema.rs): every fixture's
//! import agrees with the database read here on its own (mdb-export, the last entry of each
//! table by ID, NS points worked by this file's own scorer), and each real-world shape is read
//! as its README says: two sections whose numbers repeat, a 43,000-member name list, a hand
//! record of 36 deals for 3 boards played, the older layout (no Session, no ScoringType),
//! TabScore's corrections (a row deleted and inserted again, a row edited in place, rows out of
//! ID order, a stale Declarer). `FREKANS_BWS_EXTRA=DIR` checks every `.bws` of DIR the same way
//! (the real files, which the project may not keep: docs/interop.md).
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::bws::{bws, events, import_ok as import, s};
use common::scratch::{run_in, show, tmp};
use frekans::app::load_bytes;
use frekans::export::rows::build;
use frekans::pipeline;
use frekans::replay::ReplayScope;
use serde_json::Value;

/// One table of the database, as mdb-export writes it (header → cell).
fn table(file: &Path, name: &str) -> Vec<BTreeMap<String, String>> {
    let o = Command::new("mdb-export")
        .arg(file)
        .arg(name)
        .output()
        .expect("mdb-export (Debian's mdbtools: `source scripts/env.sh && setup_mdbtools`)");
    assert!(o.status.success(), "mdb-export {name}: {o:?}");
    let mut r = csv::Reader::from_reader(o.stdout.as_slice());
    let headers: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .cloned()
                .zip(rec.iter().map(|c| c.trim().to_string()))
                .collect()
        })
        .collect()
}

/// Duplicate scoring, written out here apart from the program's (Law 72-77): NS points of
/// `contract` (`4 S x`, `PASS`) by `seat` with `result` (`=`, `+1`, `-2`) on `board`.
fn ns_points(contract: &str, seat: &str, result: &str, board: u32) -> i64 {
    let c: String = contract
        .split_whitespace()
        .collect::<String>()
        .to_uppercase();
    if c == "PASS" {
        return 0;
    }
    let level: i64 = c[..1].parse().unwrap();
    let doubled = c.matches('X').count() as i64;
    let strain = c[1..].trim_end_matches('X');
    let vul = {
        const V: [&str; 16] = [
            "-", "NS", "EW", "All", "NS", "EW", "All", "-", "EW", "All", "-", "NS", "All", "-",
            "NS", "EW",
        ];
        let v = V[((board - 1) % 16) as usize];
        v == "All" || (v == "NS") == (seat == "N" || seat == "S") && v != "-"
    };
    let off: i64 = if result == "=" || result.is_empty() {
        0
    } else {
        result.trim_start_matches('+').parse().unwrap()
    };
    let points = if off >= 0 {
        let per = if strain == "C" || strain == "D" {
            20
        } else {
            30
        };
        let trick_score = (per * level + if strain == "NT" { 10 } else { 0 }) << doubled;
        let mut p = trick_score;
        p += if trick_score >= 100 {
            if vul {
                500
            } else {
                300
            }
        } else {
            50
        };
        p += match level {
            6 => {
                if vul {
                    750
                } else {
                    500
                }
            }
            7 => {
                if vul {
                    1500
                } else {
                    1000
                }
            }
            _ => 0,
        };
        p += 50 * doubled;
        p += if doubled == 0 {
            off * per
        } else {
            off * if vul { 200 } else { 100 } * doubled
        };
        p
    } else {
        let n = -off;
        if doubled == 0 {
            -n * if vul { 100 } else { 50 }
        } else {
            let t = if vul {
                200 + 300 * (n - 1)
            } else {
                100 + 200 * (n - 1).min(2) + 300 * (n - 3).max(0)
            };
            -t * doubled
        }
    };
    if seat == "N" || seat == "S" || seat.is_empty() {
        points
    } else {
        -points
    }
}

/// Per (section letter, board): the NS points of the tables that have a result standing, and
/// how many tables have an artificial score (`Remarks` `60%-40%`), read from the database.
type Tables = BTreeMap<(String, u32), (Vec<i64>, usize)>;

fn from_database(file: &Path) -> Tables {
    let letters: BTreeMap<String, String> = table(file, "Section")
        .into_iter()
        .map(|r| {
            let l = r
                .get("Letter")
                .or_else(|| r.get("Letters"))
                .unwrap()
                .clone();
            (r["ID"].clone(), l)
        })
        .collect();
    let mut rows = table(file, "ReceivedData");
    rows.sort_by_key(|r| r["ID"].parse::<i64>().unwrap());
    let mut last: BTreeMap<(String, String, String, String), BTreeMap<String, String>> =
        BTreeMap::new();
    for r in rows {
        let k = (
            r["Section"].clone(),
            r["Table"].clone(),
            r["Round"].clone(),
            r["Board"].clone(),
        );
        last.insert(k, r);
    }
    let mut out = Tables::new();
    for ((sec, _, _, board), r) in last {
        if r["Erased"] == "1" {
            continue;
        }
        let board: u32 = board.parse().unwrap();
        let e = out.entry((letters[&sec].clone(), board)).or_default();
        let remarks = r.get("Remarks").cloned().unwrap_or_default();
        if remarks.contains('%') {
            e.1 += 1;
        } else if !r["Contract"].is_empty() {
            e.0.push(ns_points(&r["Contract"], &r["NS/EW"], &r["Result"], board));
        }
    }
    for v in out.values_mut() {
        v.0.sort_unstable();
    }
    out.retain(|_, v| !v.0.is_empty() || v.1 > 0);
    out
}

/// The same, of the log the import wrote (NS points as the program scored them).
fn from_log(log: &Path) -> Tables {
    let l = load_bytes(&std::fs::read(log).unwrap(), &ReplayScope::default()).unwrap();
    let scored = pipeline::score(&l.state).unwrap();
    let t = build(&l.state, &scored);
    let mut out = Tables::new();
    for r in t.scores.iter().filter(|r| r.side == "NS") {
        let e = out
            .entry((r.section.clone().unwrap_or_default(), r.board as u32))
            .or_default();
        match r.ns_points {
            Some(p) if !r.adjusted => e.0.push(p as i64),
            _ => e.1 += 1,
        }
    }
    for v in out.values_mut() {
        v.0.sort_unstable();
    }
    out
}

fn agrees_with_its_database(file: &Path) {
    let t = tmp("bws-real");
    let log = t.path().join("log.jsonl");
    import(t.path(), &["import", s(file), "--out", s(&log)]);
    let o = run_in(t.path(), &["check", s(&log)]);
    assert!(o.status.success(), "{}: {}", file.display(), show(&o));
    assert_eq!(
        from_log(&log),
        from_database(file),
        "{}: the log's tables are not the database's",
        file.display()
    );
}

#[test]
fn every_fixture_agrees_with_its_database() {
    for name in ["live1", "live2", "twosections", "old", "tabscore"] {
        agrees_with_its_database(&bws(name));
    }
    if let Some(dir) = std::env::var_os("FREKANS_BWS_EXTRA") {
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let ext = p.extension().map(|x| x.to_ascii_lowercase());
            if ext.as_deref() == Some(std::ffi::OsStr::new("bws")) {
                let has_results = !table(&p, "ReceivedData").is_empty();
                if has_results {
                    agrees_with_its_database(&p);
                    n += 1;
                }
            }
        }
        assert!(n > 0, "FREKANS_BWS_EXTRA has no BWS with results");
    }
}

/// The scorer of this file against hand-worked scores (a wrong scorer would make the test
/// above agree with a wrong import).
#[test]
fn the_tests_own_scorer() {
    assert_eq!(ns_points("3 NT", "N", "+1", 1), 430);
    assert_eq!(ns_points("4 S", "N", "-1", 2), -100); // NS vulnerable on board 2
    assert_eq!(ns_points("2 D x", "W", "-2", 2), 300); // EW not vulnerable on board 2
    assert_eq!(ns_points("2 D x", "W", "-2", 3), 500); // EW vulnerable on board 3
    assert_eq!(ns_points("1 NT", "E", "+1", 3), -120);
    assert_eq!(ns_points("4 H x", "S", "-1", 3), -100);
    assert_eq!(ns_points("PASS", "N", "", 3), 0);
    assert_eq!(ns_points("6 S", "N", "=", 1), 980);
    assert_eq!(ns_points("7 NT xx", "E", "=", 7), -2980);
    assert_eq!(ns_points("3 S x", "E", "-4", 1), 800);
}

fn pairs(ev: &[Value]) -> BTreeMap<String, Vec<String>> {
    ev.iter()
        .filter(|e| e["type"] == "pair")
        .map(|e| {
            (
                e["id"].as_str().unwrap().to_string(),
                e["players"]
                    .as_array()
                    .map(|p| {
                        p.iter()
                            .map(|x| x.as_str().or(x["name"].as_str()).unwrap().to_string())
                            .collect()
                    })
                    .unwrap_or_default(),
            )
        })
        .collect()
}

/// Two sections (`Letter` "A  ", "B  ") numbering their pairs from 1 each, names looked up in a
/// 43,000-member list, and a hand record of the 36 deals of the set for the 3 boards played.
#[test]
fn two_sections_a_member_list_and_a_larger_board_set() {
    let t = tmp("bws-two");
    let log = t.path().join("log.jsonl");
    let out = import(
        t.path(),
        &["import", s(&bws("twosections")), "--out", s(&log)],
    );
    assert!(
        out.contains("HandRecord: deals of boards 4-36 are not imported: this session does not play them (it plays boards 1-3)"),
        "{out}"
    );
    let ev = events(&log);
    let p = pairs(&ev);
    assert_eq!(p.len(), 12, "{p:?}");
    assert_eq!(p["A2EW"], ["Renée Lefèvre", "Priya Reed"]);
    // (West of table 2 in section B has no Name in PlayerNumbers: the member list's)
    assert_eq!(p["B2EW"], ["Justin Davis", "Chloé Dubois"]);
    assert_eq!(p["B3NS"], ["Cynthia Howard", "Mei White"]);
    let sections: Vec<_> = ev
        .iter()
        .filter(|e| e["type"] == "pair")
        .map(|e| e["section"].as_str().unwrap())
        .collect();
    assert!(
        sections.iter().all(|s| *s == "A" || *s == "B"),
        "{sections:?}"
    );
    let deals: Vec<_> = ev.iter().filter(|e| e["type"] == "deal").collect();
    assert_eq!(deals.len(), 3, "boards 1-3 only");
    assert_eq!(ev.iter().filter(|e| e["type"] == "result").count(), 18);
}

/// The older layout: no Session table, no Section.ScoringType (matchpoints, said in a notice),
/// a table "Not played" (no result, said).
#[test]
fn the_older_layout_at_matchpoints() {
    let t = tmp("bws-old");
    let log = t.path().join("log.jsonl");
    let out = import(t.path(), &["import", s(&bws("old")), "--out", s(&log)]);
    assert!(
        out.contains("no ScoringType column (the older Bridgemate layout): scored at matchpoints"),
        "{out}"
    );
    assert!(
        out.contains("board 3 at table 2 round 2: \"Not played\", so no result"),
        "{out}"
    );
    let ev = events(&log);
    assert_eq!(ev[0]["form"], "mp");
    assert_eq!(ev.iter().filter(|e| e["type"] == "result").count(), 8);
    assert_eq!(pairs(&ev)["3NS"], ["Wim de Groot", "Truus Bos"]);
    // --form says otherwise: no notice.
    let log2 = t.path().join("log2.jsonl");
    let out = import(
        t.path(),
        &[
            "import",
            s(&bws("old")),
            "--out",
            s(&log2),
            "--form",
            "ximp",
        ],
    );
    assert!(!out.contains("ScoringType"), "{out}");
    assert_eq!(events(&log2)[0]["form"], "ximp");
}

/// TabScore's corrections: the last entry by ID stands, however the rows are stored.
#[test]
fn tabscore_corrections_by_id() {
    let t = tmp("bws-tabscore");
    let log = t.path().join("log.jsonl");
    import(t.path(), &["import", s(&bws("tabscore")), "--out", s(&log)]);
    let ev = events(&log);
    let at = |board: u64, ns: &str| {
        ev.iter()
            .find(|e| e["type"] == "result" && e["board"] == board && e["ns"] == ns)
            .unwrap_or_else(|| panic!("board {board}, {ns}"))
            .clone()
    };
    // Deleted and inserted again (ID 4 gone, ID 7 stored before ID 5): 4S-1.
    let b = at(2, "1NS");
    assert_eq!(
        (&b["contract"], &b["tricks"]),
        (&Value::from("4S"), &Value::from(9))
    );
    // Edited in place (same ID, TimeLog rewritten): 2Dx-2.
    let b = at(3, "2NS");
    assert_eq!(
        (&b["contract"], &b["declarer"]),
        (&Value::from("2DX"), &Value::from("W"))
    );
    // A stale Declarer (the EW pair's number): NS/EW says North.
    let b = at(2, "3NS");
    assert_eq!(
        (&b["contract"], &b["declarer"]),
        (&Value::from("4S"), &Value::from("N"))
    );
    // The pass-out as TabScore writes it (no seat).
    assert_eq!(at(3, "1NS")["contract"], "PASS");
    assert_eq!(ev.iter().filter(|e| e["type"] == "result").count(), 9);
}

/// A dealing machine's hand record (BridgeComposer's shape: deals, no results) joins the
/// session of a BWS whose own HandRecord is empty: beside it in one import, or appended
/// later; the same deals again add nothing; another deal for a board is refused, naming it.
#[test]
fn a_hand_record_joins_the_bws_results() {
    let hands = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/import/bc-handrecord.pbn");
    let t = tmp("bws-hands");
    let log = t.path().join("log.jsonl");
    let out = import(
        t.path(),
        &["import", s(&bws("old")), s(&hands), "--out", s(&log)],
    );
    assert!(
        out.contains("bc-handrecord.pbn (pbn): session S1 (3 deals of its hand record added)"),
        "{out}"
    );
    let ev = events(&log);
    let deals: Vec<&Value> = ev.iter().filter(|e| e["type"] == "deal").collect();
    assert_eq!(deals.len(), 3);
    assert!(deals.iter().all(|d| d["session"] == "S1"));
    let o = run_in(t.path(), &["check", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));
    // Appended to a log whose session has them: nothing new.
    let before = std::fs::read(&log).unwrap();
    let out = import(t.path(), &["import", s(&hands), "--append", s(&log)]);
    assert!(out.contains("nothing new"), "{out}");
    // Appended to a log without them: they join its last session.
    let bare = t.path().join("bare.jsonl");
    import(t.path(), &["import", s(&bws("old")), "--out", s(&bare)]);
    let out = import(t.path(), &["import", s(&hands), "--append", s(&bare)]);
    assert!(out.contains("appended 3 events"), "{out}");
    // Another deal for board 2 (two hands swapped): refused, naming the board.
    let text = std::fs::read_to_string(&hands).unwrap();
    let line = text
        .lines()
        .filter(|l| l.starts_with("[Deal "))
        .nth(1)
        .unwrap()
        .to_string();
    let deal = line.trim_start_matches("[Deal \"").trim_end_matches("\"]");
    let (first, rest) = deal.split_once(':').unwrap();
    let h: Vec<&str> = rest.split(' ').collect();
    let swapped = format!("[Deal \"{first}:{} {} {} {}\"]", h[1], h[0], h[2], h[3]);
    let other = t.path().join("other.pbn");
    std::fs::write(&other, text.replacen(&line, &swapped, 1)).unwrap();
    let o = run_in(t.path(), &["import", s(&other), "--append", s(&log)]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("board 2: this hand record's deal"), "{err}");
    assert_eq!(std::fs::read(&log).unwrap(), before, "the log untouched");
}
