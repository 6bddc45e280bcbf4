//! `frekans export`: USEBIO output valid against the USEBIO 1.2 DTD (tests/data, checked by
//! `xmllint --dtdvalid`, Debian's libxml2-utils), the round trip import(export(log)) scoring
//! every table and total the same in every form (MP, cross-IMPs, Butler, napki, teams with
//! VPs, Patton, board-a-match) over the demo logs and the fixtures, PBN output's shape and
//! escaping, and the command's refusals. (`tests/roundtrip.rs` checks the whole round trip of
//! both formats, the options, penalties and fouled boards carried by the files themselves.)
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use frekans::import::{usebio, Request};
use frekans::num::Q;
use serde_json::Value;

/// A fresh directory of this test's own (removed when dropped).
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let d = std::env::temp_dir().join(format!(
            "frekans-export-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }

    fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_frekans")
}

/// Validate USEBIO bytes against the DTD with xmllint (a test tool like typst: its absence is
/// a failure, never a skip).
fn xmllint_valid(xml: &[u8], what: &str) {
    let dir = Scratch::new("xmllint");
    let f = dir.path().join("out.xml");
    std::fs::write(&f, xml).unwrap();
    let dtd = common::root().join("tests/data/usebio_v1_2.dtd");
    let out = Command::new("xmllint")
        .arg("--noout")
        .arg("--nonet")
        .arg("--dtdvalid")
        .arg(&dtd)
        .arg(&f)
        .output()
        .expect("xmllint (Debian libxml2-utils) must be installed: apt-get install libxml2-utils");
    assert!(
        out.status.success(),
        "{what}: not valid USEBIO 1.2:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Each session of a log with its form, compare and options as the log gives them.
fn sessions_of(
    log: &[u8],
) -> Vec<(
    String,
    String,
    Option<String>,
    serde_json::Map<String, Value>,
)> {
    std::str::from_utf8(log)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "session")
        .map(|v| {
            (
                v["id"].as_str().unwrap().to_string(),
                v["form"].as_str().unwrap().to_string(),
                v["compare"].as_str().map(str::to_string),
                v["options"].as_object().cloned().unwrap_or_default(),
            )
        })
        .collect()
}

/// What a session scores to: each side's board score, each match's IMPs and VPs, and each
/// participant's standing (the raw total, penalties added back: USEBIO carries no penalty).
#[derive(Debug, PartialEq)]
struct Outcome {
    sides: BTreeMap<(u32, String, String), Q>,
    matches: BTreeMap<(String, String), (Option<Q>, Option<Q>, Q, Q)>,
    totals: BTreeMap<(Option<String>, String), (f64, u32)>,
}

fn outcome(log: &[u8], session: &str) -> Outcome {
    let l = frekans::app::load_bytes(log, &Default::default())
        .unwrap_or_else(|e| panic!("invalid log: {e}"));
    let state = &l.state;
    let si = state.session_index(session).unwrap();
    let scored = frekans::pipeline::score(state).unwrap();
    let mut sides = BTreeMap::new();
    for b in scored.boards().filter(|b| b.session == si) {
        for s in &b.sides {
            let side = format!("{:?}", s.side);
            sides.insert(
                (b.board, state.participant(s.participant).id.clone(), side),
                s.score,
            );
        }
    }
    let matches = scored
        .matches
        .iter()
        .filter(|m| m.session == si)
        .map(|m| {
            (
                (
                    state.participant(m.home).id.clone(),
                    state.participant(m.away).id.clone(),
                ),
                (m.imp_home, m.imp_away, m.vp_home, m.vp_away),
            )
        })
        .collect();
    let totals = scored
        .standings
        .iter()
        .filter(|s| s.session == Some(si))
        .map(|s| {
            let raw = s.total.to_f64() + s.penalties.to_f64();
            (
                (
                    s.section.clone(),
                    state.participant(s.participant).id.clone(),
                ),
                ((raw * 1e9).round() / 1e9, s.boards),
            )
        })
        .collect();
    Outcome {
        sides,
        matches,
        totals,
    }
}

/// The forms USEBIO can say (napki and Patton by frekans's own names and session note).
const EXPRESSIBLE: &[&str] = &["mp", "ximp", "butler", "napki", "teams", "patton", "bam"];

/// Whether a session has what USEBIO cannot carry: a fouled board (Law 87 groups).
fn has_fouled(log: &[u8], session: &str) -> bool {
    std::str::from_utf8(log).unwrap().lines().any(|l| {
        serde_json::from_str::<Value>(l)
            .is_ok_and(|v| v["type"] == "fouled" && v["session"] == session)
    })
}

/// The participants with a penalty in a session.
fn penalised(log: &[u8], session: &str) -> Vec<String> {
    std::str::from_utf8(log)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "penalty" && v["session"] == session)
        .filter_map(|v| v["participant"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn usebio_round_trip_scores_every_table_and_total_the_same() {
    let mut logs = common::demo_logs();
    logs.extend(common::fixture_logs());
    let mut checked: BTreeMap<String, usize> = BTreeMap::new();
    for path in logs {
        let log = std::fs::read(&path).unwrap();
        // Fixtures that are meant to be refused (ERR-*) score nothing.
        if frekans::app::load_bytes(&log, &Default::default()).is_err() {
            continue;
        }
        for (sid, form, compare, options) in sessions_of(&log) {
            if !EXPRESSIBLE.contains(&form.as_str()) || has_fouled(&log, &sid) {
                continue;
            }
            let what = format!("{} session {sid}", path.display());
            let xml = frekans::app::export_bytes(&log, "usebio", Some(&sid))
                .unwrap_or_else(|e| panic!("{what}: export failed: {e}"));
            xmllint_valid(&xml, &what);
            let req = Request {
                form: None,
                compare,
                options,
                lenient: false,
                strict: false,
                ..Request::default()
            };
            let read = usebio::read(&xml, "export.xml", &req)
                .unwrap_or_else(|p| panic!("{what}: the export does not read back: {p:?}"));
            assert!(read.skipped.is_empty());
            let back: String = read.events.iter().map(|e| format!("{e}\n")).collect();
            let mut want = outcome(&log, &sid);
            let mut got = outcome(back.as_bytes(), "S1");
            // USEBIO has no penalty: an IMP penalty moves its match's IMPs and VPs, so those
            // matches (and, at teams, those teams' totals) are compared without it. Every
            // board score is compared, and every other total (with penalties added back).
            let penalised = penalised(&log, &sid);
            for o in [&mut want, &mut got] {
                o.matches
                    .retain(|(h, a), _| !penalised.contains(h) && !penalised.contains(a));
                if form == "teams" || form == "bam" {
                    o.totals.retain(|(_, p), _| !penalised.contains(p));
                }
            }
            assert_eq!(got.sides, want.sides, "{what}: board scores");
            assert_eq!(got.matches, want.matches, "{what}: matches");
            assert_eq!(got.totals, want.totals, "{what}: totals");
            *checked.entry(form).or_default() += 1;
        }
    }
    // Every form USEBIO can say was met (at least once).
    for f in EXPRESSIBLE {
        assert!(
            checked.get(*f).is_some_and(|n| *n > 0),
            "no {f} session checked: {checked:?}"
        );
    }
}

/// The DTD accepts the hand-written USEBIO files the reader's tests use, and refuses a file
/// with a misplaced element (it can fail).
#[test]
fn the_dtd_accepts_the_test_files_and_refuses_a_stranger() {
    for f in ["pairs.xml", "teams-latin1.xml"] {
        let xml = std::fs::read(common::root().join("tests/data/usebio").join(f)).unwrap();
        xmllint_valid(&xml, f);
    }
    let bad = b"<?xml version=\"1.0\"?>\n<USEBIO Version=\"1.2\"><EVENT><BOARD><PAIR_NUMBER>1</PAIR_NUMBER></BOARD></EVENT></USEBIO>\n";
    let r = std::panic::catch_unwind(|| xmllint_valid(bad, "stranger"));
    assert!(r.is_err(), "a PAIR_NUMBER in a BOARD was accepted");
}

#[test]
fn usebio_of_the_demo_is_valid_and_says_what_was_scored() {
    let log = common::root().join("events/mazovia-pairs-2026.jsonl");
    let xml =
        frekans::app::export_bytes(&std::fs::read(&log).unwrap(), "usebio", Some("S1")).unwrap();
    xmllint_valid(&xml, "mazovia S1");
    let text = String::from_utf8(xml).unwrap();
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE USEBIO"));
    assert!(text.contains("<EVENT EVENT_TYPE=\"PAIRS\">"));
    assert!(text.contains("<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>"));
    assert!(text.contains("<NS_MATCH_POINTS>"));
    assert!(text.contains("<PERCENTAGE>"));
    // The Butler session: its datum as BOARD_AVERAGE, IMPs per line.
    let sessions = sessions_of(&std::fs::read(&log).unwrap());
    let butler = sessions.iter().find(|s| s.1 == "butler").unwrap();
    let xml = frekans::app::export_bytes(&std::fs::read(&log).unwrap(), "usebio", Some(&butler.0))
        .unwrap();
    let text = String::from_utf8(xml).unwrap();
    assert!(text.contains("<BOARD_AVERAGE>") && text.contains("<NS_BUTLER_POINTS>"));
    assert!(text.contains("EVENT_TYPE=\"BUTLER_PAIRS\""));
}

#[test]
fn hostile_names_are_escaped_in_both_formats() {
    let log = std::fs::read(common::root().join("tests/data/hostile-names.jsonl")).unwrap();
    let xml = frekans::app::export_bytes(&log, "usebio", None).unwrap();
    xmllint_valid(&xml, "hostile names");
    // Read back, the names are the same text.
    let read = usebio::read(&xml, "x", &Request::default()).unwrap();
    let names: Vec<&Value> = read
        .events
        .iter()
        .filter(|e| e["type"] == "pair")
        .flat_map(|e| e["players"].as_array().unwrap())
        .collect();
    assert!(
        names.contains(&&Value::from("#read(\"/etc/passwd\")")),
        "{names:?}"
    );
    assert!(names.contains(&&Value::from("Сергей Кузнецов")));
    let pbn = String::from_utf8(frekans::app::export_bytes(&log, "pbn", None).unwrap()).unwrap();
    assert!(pbn.contains(r##"#read(\"/etc/passwd\")"##), "{pbn}");
    assert!(pbn.contains("[Event \"Hostile #names [test]\"]"));
}

#[test]
fn pbn_has_a_game_per_board_with_its_score_table() {
    let log = std::fs::read(common::root().join("events/mazovia-pairs-2026.jsonl")).unwrap();
    let pbn =
        String::from_utf8(frekans::app::export_bytes(&log, "pbn", Some("S1")).unwrap()).unwrap();
    assert!(pbn.starts_with("% PBN 2.1\n% EXPORT\n"));
    let l = frekans::app::load_bytes(&log, &Default::default()).unwrap();
    let si = l.state.session_index("S1").unwrap();
    let boards: std::collections::BTreeSet<u32> = l
        .state
        .tables
        .iter()
        .filter(|(k, _)| k.0 == si)
        .map(|(k, _)| k.1)
        .collect();
    assert_eq!(pbn.matches("[Board ").count(), boards.len());
    assert_eq!(pbn.matches("[ScoreTable ").count(), boards.len());
    assert_eq!(pbn.matches("[TotalScoreTable ").count(), 1);
    assert!(pbn.contains("[Scoring \"MatchPoints;MP1\"]"));
    // Every table is one row: rows between a ScoreTable and the next blank line or tag.
    let mut rows = 0;
    let mut in_table = false;
    for line in pbn.lines() {
        if line.starts_with("[ScoreTable") {
            in_table = true;
        } else if line.is_empty() || line.starts_with('[') {
            in_table = false;
        } else if in_table {
            rows += 1;
        }
    }
    let tables = l.state.tables.iter().filter(|(k, _)| k.0 == si).count();
    assert_eq!(rows, tables);
    // A deal given by the log is written with its dealer and vulnerability.
    let (b, d) = l
        .state
        .deals
        .range((si, 0)..=(si, u32::MAX))
        .next()
        .unwrap();
    assert!(pbn.contains(&format!("[Board \"{}\"]", b.1)));
    assert!(pbn.contains(&format!("[Deal \"{}\"]", d.ev.pbn)));
}

#[test]
fn export_command_writes_the_file_whole_or_refuses() {
    let dir = Scratch::new("cli");
    let out = dir.path().join("teams.xml");
    let log = common::root().join("events/polish-teams-2026.jsonl");
    let run = |args: &[&str]| Command::new(bin()).args(args).output().unwrap();
    let o = run(&[
        "export",
        log.to_str().unwrap(),
        "--format",
        "usebio",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let xml = std::fs::read(&out).unwrap();
    xmllint_valid(&xml, "polish teams");
    let text = String::from_utf8(xml).unwrap();
    assert!(text.contains("<MATCH_SCORING_METHOD>VPS</MATCH_SCORING_METHOD>"));
    assert!(text.contains("<TEAM_SCORE>") && text.contains("<IMPS>"));
    assert!(text.contains("<DIRECTION>EW</DIRECTION>"));
    // No session of that name: exit 2, nothing written.
    let other = dir.path().join("none.pbn");
    let o = run(&[
        "export",
        log.to_str().unwrap(),
        "--format",
        "pbn",
        "--out",
        other.to_str().unwrap(),
        "--session",
        "NOPE",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no session \"NOPE\""));
    assert!(!other.exists());
    // A form USEBIO has no name for (napki): written, its form in the session's note
    // (`frekans session: {...}`, a root NOTES) that frekans's import reads back.
    let napki = common::root().join("fixtures/NAP-1000/events.jsonl");
    let napki_out = dir.path().join("napki.xml");
    let o = run(&[
        "export",
        napki.to_str().unwrap(),
        "--format",
        "usebio",
        "--out",
        napki_out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let xml = std::fs::read(&napki_out).unwrap();
    xmllint_valid(&xml, "napki");
    let text = String::from_utf8(xml).unwrap();
    assert!(text.contains("<BOARD_SCORING_METHOD>NAPKI</BOARD_SCORING_METHOD>"));
    assert!(text.contains("<NOTES>frekans session: {&quot;id&quot;:&quot;S1&quot;"));
    assert!(text.contains("&quot;form&quot;:&quot;napki&quot;"));
    std::fs::remove_file(&napki_out).unwrap();
    // A form this version does not score (aggregate): refused, nothing written.
    let aggregate = dir.path().join("aggregate.jsonl");
    std::fs::write(
        &aggregate,
        "{\"type\":\"session\",\"id\":\"S1\",\"form\":\"aggregate\",\"boards\":\"1\"}\n\
         {\"type\":\"result\",\"session\":\"S1\",\"board\":1,\"ns\":\"1\",\"ew\":\"2\",\"score\":400}\n",
    )
    .unwrap();
    let o = run(&[
        "export",
        aggregate.to_str().unwrap(),
        "--format",
        "usebio",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("aggregate"));
    assert!(!other.exists());
    std::fs::remove_file(&aggregate).unwrap();
    // Nothing else left beside the file.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(names, ["teams.xml"]);
}
