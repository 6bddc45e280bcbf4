//! `frekans import FILE.bws`: Bridgemate's database read through mdbtools. The fixtures of
//! tests/data/import/bws/ (written by tools/make_bws_fixtures.py in Bridgemate's table layout)
//! are one 3-table Mitchell session in two states (`live1`: part way, `live2`: later, with a
//! result re-entered and one erased), one without ReceivedData, and two broken ones. Scores are
//! worked by hand from the contracts the generator wrote (its PLAYED table); the live-scoring
//! tests import the same file twice and a later state after an earlier one.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::{Path, PathBuf};

use common::bws::{bws, events, import_ok, s};
use common::scratch::{run_in, show, tmp};
use frekans::app::load_bytes;
use frekans::export::rows::build;
use frekans::pipeline;
use frekans::replay::ReplayScope;
use serde_json::Value;

/// (board, participant) → matchpoints, and participant → session total, of the scored log.
fn scored(log: &Path) -> (Vec<(u32, String, f64)>, Vec<(String, f64)>) {
    let l = load_bytes(&std::fs::read(log).unwrap(), &ReplayScope::default()).unwrap();
    let s = pipeline::score(&l.state).unwrap();
    let t = build(&l.state, &s);
    let scores = t
        .scores
        .iter()
        .map(|r| (r.board as u32, r.participant.clone(), r.score))
        .collect();
    let totals = t
        .standings
        .iter()
        .filter(|r| r.session != "overall")
        .map(|r| (r.participant.clone(), r.total))
        .collect();
    (scores, totals)
}

fn mp(rows: &[(u32, String, f64)], board: u32, who: &str) -> f64 {
    rows.iter()
        .find(|r| r.0 == board && r.1 == who)
        .unwrap_or_else(|| panic!("no score for {who} on board {board}: {rows:?}"))
        .2
}

fn results(log: &Path) -> Vec<Value> {
    events(log)
        .into_iter()
        .filter(|e| e["type"] == "result")
        .collect()
}

fn result_at(log: &Path, board: u64, ns: &str) -> Option<Value> {
    results(log)
        .into_iter()
        .find(|e| e["board"] == board && e["ns"] == ns)
}

/// A part-way session: pairs and names (one only in PlayerNames), the movement's boards, the
/// deals, and each table's last entry (board 2 at table 1: 4S= erased, 4S-1 stands).
#[test]
fn a_session_part_way_through() {
    let t = tmp("bws-part");
    let log = t.path().join("log.jsonl");
    import_ok(t.path(), &["import", s(&bws("live1")), "--out", s(&log)]);
    let ev = events(&log);
    let session = &ev[0];
    assert_eq!(session["type"], "session");
    assert_eq!(session["form"], "mp", "Section.ScoringType 1");
    assert_eq!(
        session["boards"], "1-3",
        "the movement's boards, played or not"
    );
    assert_eq!(session["name"], "Club pairs");
    let pairs: Vec<(&str, Vec<&str>)> = ev
        .iter()
        .filter(|e| e["type"] == "pair")
        .map(|e| {
            (
                e["id"].as_str().unwrap(),
                e["players"]
                    .as_array()
                    .map(|p| {
                        p.iter()
                            .map(|x| x.as_str().or(x["name"].as_str()).unwrap())
                            .collect()
                    })
                    .unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(pairs.len(), 6, "{pairs:?}");
    assert!(pairs.contains(&("1NS", vec!["Anna Nowak", "Jan Kowalski"])));
    // West of table 1 in round 1 has a number whose name only PlayerNames holds.
    assert!(pairs.contains(&("1EW", vec!["Piotr Zieliński", "Maria Wójcik"])));
    assert_eq!(ev.iter().filter(|e| e["type"] == "deal").count(), 3);
    assert_eq!(results(&log).len(), 7);
    let b2 = result_at(&log, 2, "1NS").expect("board 2 at table 1");
    assert_eq!(
        (&b2["contract"], &b2["declarer"], &b2["tricks"], &b2["ew"]),
        (
            &Value::from("4S"),
            &Value::from("N"),
            &Value::from(9),
            &Value::from("3EW")
        ),
        "the re-entry after the erased 4S= stands: {b2}"
    );
    assert_eq!(b2["lead"], "CK");
    let pass = result_at(&log, 3, "1NS").unwrap();
    assert_eq!(pass["contract"], "PASS");
    let o = run_in(t.path(), &["check", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));
}

/// The later state on its own: the re-entered result's last entry, the erased table gone.
#[test]
fn erased_entries_honoured() {
    let t = tmp("bws-erased");
    let log = t.path().join("log.jsonl");
    import_ok(t.path(), &["import", s(&bws("live2")), "--out", s(&log)]);
    assert_eq!(results(&log).len(), 8, "9 tables, one erased");
    assert!(
        result_at(&log, 3, "3NS").is_none(),
        "board 3 at table 3 was erased"
    );
    let b1 = result_at(&log, 1, "1NS").unwrap();
    assert_eq!(b1["tricks"], 9, "3NT= re-entered over 3NT+1: {b1}");
}

/// Live scoring: the same file again appends nothing (and says so); the later state appends
/// the two new results and a correction of the re-entered one, names the erased one, and
/// appends nothing when imported again; the log then scores what was worked by hand.
#[test]
fn live_scoring_appends_only_what_is_new() {
    let t = tmp("bws-live");
    let log = t.path().join("log.jsonl");
    import_ok(t.path(), &["import", s(&bws("live1")), "--out", s(&log)]);
    let first = std::fs::read(&log).unwrap();
    let out = import_ok(t.path(), &["import", s(&bws("live1")), "--append", s(&log)]);
    assert!(out.contains("nothing new"), "{out}");
    assert_eq!(
        std::fs::read(&log).unwrap(),
        first,
        "nothing appended twice"
    );

    let out = import_ok(t.path(), &["import", s(&bws("live2")), "--append", s(&log)]);
    assert!(out.contains("appended 3 events"), "{out}");
    assert!(
        out.contains("board 3 of pair 3NS") && out.contains("erased"),
        "the erased table is named: {out}"
    );
    let ev = events(&log);
    assert_eq!(ev.len(), 20);
    let new: Vec<&Value> = ev[17..].iter().collect();
    assert_eq!(new[0]["type"], "result");
    assert_eq!(
        (&new[0]["board"], &new[0]["ns"]),
        (&Value::from(1), &Value::from("2NS"))
    );
    assert_eq!(
        (&new[1]["board"], &new[1]["ns"]),
        (&Value::from(2), &Value::from("3NS"))
    );
    assert_eq!(
        new[1]["session"], "S1",
        "into the session of the first import"
    );
    // The re-entered 3NT=: a correction of the first import's result (seq 11).
    let c = new[2];
    assert_eq!(c["type"], "correction");
    assert_eq!(ev[c["result"].as_u64().unwrap() as usize - 1]["board"], 1);
    assert_eq!(ev[c["result"].as_u64().unwrap() as usize - 1]["ns"], "1NS");
    assert_eq!(c["tricks"], 9);

    let after = std::fs::read(&log).unwrap();
    let out = import_ok(t.path(), &["import", s(&bws("live2")), "--append", s(&log)]);
    assert!(out.contains("nothing new"), "{out}");
    assert_eq!(
        std::fs::read(&log).unwrap(),
        after,
        "nothing appended twice"
    );
    let o = run_in(t.path(), &["check", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));

    // By hand (2 MP per beat, 1 per tie, top 4). Board 1 (none vul): 1NS 3NT= +400, 2NS
    // 3NT= +400, 3NS 4S-1 -50. Board 2 (NS vul): 3NS 4S= +620, 1NS 4S-1 -100, 2NS vs 3H= by E
    // -140. Board 3 (EW vul): 2NS 2DX-2 by W +500, 1NS passed out 0, 3NS vs 1NT+1 by E -120
    // (kept: erased in the BWS only after it was imported).
    let (rows, totals) = scored(&log);
    let want = [
        (1, "1NS", 3.0),
        (1, "2NS", 3.0),
        (1, "3NS", 0.0),
        (1, "1EW", 1.0),
        (1, "3EW", 1.0),
        (1, "2EW", 4.0),
        (2, "3NS", 4.0),
        (2, "1NS", 2.0),
        (2, "2NS", 0.0),
        (2, "1EW", 0.0),
        (2, "3EW", 2.0),
        (2, "2EW", 4.0),
        (3, "2NS", 4.0),
        (3, "1NS", 2.0),
        (3, "3NS", 0.0),
        (3, "1EW", 0.0),
        (3, "2EW", 2.0),
        (3, "3EW", 4.0),
    ];
    for (b, who, v) in want {
        assert_eq!(mp(&rows, b, who), v, "board {b}, {who}");
    }
    let total = |who: &str| totals.iter().find(|r| r.0 == who).unwrap().1;
    for (who, v) in [
        ("1NS", 7.0),
        ("2NS", 7.0),
        ("3NS", 4.0),
        ("1EW", 1.0),
        ("2EW", 10.0),
        ("3EW", 7.0),
    ] {
        assert_eq!(total(who), v, "{who}'s total");
    }
}

/// A BWS imported for the first time into a log of other sessions is a new session there.
#[test]
fn a_new_bws_appends_a_session() {
    let t = tmp("bws-new");
    let log = t.path().join("log.jsonl");
    import_ok(t.path(), &["import", s(&bws("live1")), "--out", s(&log)]);
    // The same session's pairs, a session the log has not seen (another note): a new
    // session, S2 (here: the log's own session renamed by hand).
    let text = std::fs::read_to_string(&log)
        .unwrap()
        .replacen("session 4B1D", "session 0000", 1);
    let other = t.path().join("other.jsonl");
    // (a log of one line of each kind is rewritten whole without its hash chain)
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let mut v: serde_json::Map<String, Value> = serde_json::from_str(l).unwrap();
            v.remove("hash");
            serde_json::to_string(&v).unwrap()
        })
        .collect();
    std::fs::write(&other, lines.join("\n") + "\n").unwrap();
    let out = import_ok(
        t.path(),
        &["import", s(&bws("live1")), "--append", s(&other)],
    );
    assert!(out.contains("session S2"), "{out}");
    let ev = events(&other);
    assert_eq!(ev.iter().filter(|e| e["type"] == "session").count(), 2);
}

/// A pair the log already declares is left as the log has it, even where the BWS names its
/// players differently since (a name amended at the table): the live import goes on.
#[test]
fn names_amended_since_do_not_stop_live_scoring() {
    let t = tmp("bws-names");
    let log = t.path().join("log.jsonl");
    import_ok(t.path(), &["import", s(&bws("live1")), "--out", s(&log)]);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("\"Anna Nowak\""));
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let mut v: serde_json::Map<String, Value> = serde_json::from_str(l).unwrap();
            v.remove("hash");
            serde_json::to_string(&v)
                .unwrap()
                .replace("Anna Nowak", "Anna Nowak-Lis")
        })
        .collect();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let out = import_ok(t.path(), &["import", s(&bws("live2")), "--append", s(&log)]);
    assert!(out.contains("appended 3 events"), "{out}");
    assert!(std::fs::read_to_string(&log)
        .unwrap()
        .contains("Anna Nowak-Lis"));
}

/// Bad input: exit 2 naming the file and the table (and row), nothing written, a log appended
/// to left as it was.
#[test]
fn bad_bws_files_refused() {
    let t = tmp("bws-bad");
    let log = t.path().join("log.jsonl");
    import_ok(t.path(), &["import", s(&bws("live1")), "--out", s(&log)]);
    let before = std::fs::read(&log).unwrap();
    let cargo = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let cases: [(PathBuf, &[&str], &[&str]); 4] = [
        (
            bws("noresults"),
            &[],
            &["noresults.bws: ReceivedData:", "no ReceivedData table"],
        ),
        (
            bws("badcolumn"),
            &[],
            &["badcolumn.bws: ReceivedData:", "no column Contract"],
        ),
        (
            bws("badrow"),
            &[],
            &[
                "badrow.bws: ReceivedData row 10:",
                "+5 is not possible in 4S",
            ],
        ),
        (
            cargo,
            &["--format", "bws"],
            &[
                "Cargo.toml: file:",
                "cannot read it as a Microsoft Access database",
            ],
        ),
    ];
    for (file, extra, want) in &cases {
        for target in ["--out", "--append"] {
            let out = t.path().join("new.jsonl");
            let dest = if target == "--out" { &out } else { &log };
            let mut args = vec!["import", s(file), target, s(dest)];
            args.extend(extra.iter());
            let o = run_in(t.path(), &args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{}", show(&o));
            for w in want.iter() {
                assert!(err.contains(w), "{w:?} not in: {err}");
            }
            assert!(!out.exists(), "nothing written");
            assert_eq!(std::fs::read(&log).unwrap(), before, "the log untouched");
        }
    }
    // Without mdbtools: a message saying how to install it.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(["import", s(&bws("live1")), "--append", s(&log)])
        .env("PATH", t.path())
        .env("FREKANS_AUDIT_CACHE", t.path().join(".cache"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("live1.bws: file:") && err.contains("apt-get install mdbtools"),
        "{err}"
    );
    assert_eq!(std::fs::read(&log).unwrap(), before, "the log untouched");
}

/// The format is recognised from the content (a Jet database), whatever the file's name.
#[test]
fn recognised_from_content() {
    let t = tmp("bws-detect");
    let copy = t.path().join("results.dat");
    std::fs::copy(bws("live1"), &copy).unwrap();
    let log = t.path().join("log.jsonl");
    let out = import_ok(t.path(), &["import", s(&copy), "--out", s(&log)]);
    assert!(out.contains("(bws)"), "{out}");
}

/// An older copy of the BWS after a later one (issue 34): `live2` imported, then `live1`
/// appended, would have "corrected" board 1 at table 1 back to 3NT+1 (entry 1 over the log's
/// entry 12) and brought back the table erased since. It is refused (exit 2), naming the log's
/// later results, and the log is left as it was; the later copy again adds nothing.
#[test]
fn an_older_copy_of_the_bws_takes_nothing_back() {
    let t = tmp("bws-older");
    let log = t.path().join("log.jsonl");
    import_ok(t.path(), &["import", s(&bws("live2")), "--out", s(&log)]);
    // Each table's event names its entry and how far the BWS had got.
    let b1 = result_at(&log, 1, "1NS").unwrap();
    assert_eq!(b1["tricks"], 9);
    assert_eq!(
        b1["note"], "imported: Bridgemate entry 12 (the BWS's entries up to 13)",
        "{b1}"
    );
    let before = std::fs::read(&log).unwrap();
    let o = run_in(t.path(), &["import", s(&bws("live1")), "--append", s(&log)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    for want in [
        "older than what the log already took",
        "up to ID 9, the log's up to 13",
        // the table it would have corrected back
        "board 1 of pair 1NS: entry 1 here, but the log took the later entry 12",
        // the log's later results
        "board 1 of pair 2NS: the log took entry 10",
        "board 2 of pair 3NS: the log took entry 11",
    ] {
        assert!(err.contains(want), "{want:?} not in: {err}");
    }
    assert_eq!(std::fs::read(&log).unwrap(), before, "the log untouched");
    assert_eq!(result_at(&log, 1, "1NS").unwrap()["tricks"], 9);
    assert!(
        result_at(&log, 3, "3NS").is_none(),
        "the table erased in the later copy stays out"
    );
    let out = import_ok(t.path(), &["import", s(&bws("live2")), "--append", s(&log)]);
    assert!(out.contains("nothing new"), "{out}");

    // The right order still corrects: live1, then live2 (the correction names its entry).
    let log = t.path().join("log2.jsonl");
    import_ok(t.path(), &["import", s(&bws("live1")), "--out", s(&log)]);
    import_ok(t.path(), &["import", s(&bws("live2")), "--append", s(&log)]);
    let c = events(&log)
        .into_iter()
        .find(|e| e["type"] == "correction")
        .unwrap();
    assert_eq!(
        c["note"],
        "imported: re-entered at the table, Bridgemate entry 12 (the BWS's entries up to 13)"
    );
    // and live1 after both is refused too: its entries stop before the correction's.
    let o = run_in(t.path(), &["import", s(&bws("live1")), "--append", s(&log)]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
}

/// A BWS whose name starts with `-` is a file to mdbtools, never an option (`mdb-tables` and
/// `mdb-export` are both given `./-name.bws`).
#[test]
fn a_bws_named_like_an_option_is_read() {
    let t = tmp("bws-dash");
    std::fs::copy(bws("live1"), t.path().join("-1.bws")).unwrap();
    let out = import_ok(t.path(), &["import", "--out", "log.jsonl", "--", "-1.bws"]);
    assert!(out.contains("-1.bws (bws)"), "{out}");
    assert_eq!(results(&t.path().join("log.jsonl")).len(), 7);
    let out = import_ok(
        t.path(),
        &[
            "import",
            "--append",
            "log.jsonl",
            "--format",
            "bws",
            "--",
            "-1.bws",
        ],
    );
    assert!(out.contains("nothing new"), "{out}");
}
