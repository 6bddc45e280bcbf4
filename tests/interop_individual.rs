//! Individual events in and out of the interchange formats (issue 38, docs/interop.md
//! "Individual events"): the USEBIO file in the layout of the USEBIO specimen of an individual
//! event (tests/data/individual, the IND-MP-1 session) imported and scored to every value it
//! prints (each line's NS_/EW_MATCH_POINTS, each player's PERCENTAGE and PLACE), exported and
//! imported again to the same log; the same session as a CSV with four player columns and as a
//! Bridgemate database in TabScore's individual layout; and every IND fixture through the
//! USEBIO export and back, PBN's export refused with the reason.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::scratch::{run_in, show, tmp};
use frekans::app::load_bytes;
use frekans::export::rows::{build, ScoreRow, StandingRow};
use frekans::pipeline;
use frekans::replay::ReplayScope;
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/individual")
        .join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// frekans in `dir`, which must succeed.
fn ok(dir: &Path, args: &[&str]) {
    let o = run_in(dir, args);
    assert!(o.status.success(), "frekans {args:?}: {}", show(&o));
}

/// A log's scores and standings.
fn scored(log: &Path) -> (Vec<ScoreRow>, Vec<StandingRow>) {
    let l = load_bytes(&std::fs::read(log).unwrap(), &ReplayScope::default()).unwrap();
    let s = pipeline::score(&l.state).unwrap();
    let t = build(&l.state, &s);
    let standings = t
        .standings
        .into_iter()
        .filter(|r| r.session != "overall")
        .collect();
    (t.scores, standings)
}

/// A log's events without what differs from one writing to another (`seq`, `at`, `hash`, the
/// session's `note` naming the file imported), each as its text, sorted: the same multiset of
/// events (the order of a board's tables and of players tied on a place may differ).
fn events(log: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_to_string(log)
        .unwrap()
        .lines()
        // (a fixture's comments)
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let m = v.as_object_mut().unwrap();
            for k in ["seq", "at", "hash"] {
                m.shift_remove(k);
            }
            if m["type"] == "session" {
                m.shift_remove("note");
            }
            v.to_string()
        })
        .collect();
    out.sort();
    out
}

/// `"625/8"` or `75`: an exact value of expected.json.
fn exact(v: &Value) -> f64 {
    match v {
        Value::String(t) => {
            let (a, b) = t.split_once('/').unwrap();
            a.parse::<f64>().unwrap() / b.parse::<f64>().unwrap()
        }
        v => v.as_f64().unwrap(),
    }
}

/// Whether a printed value (`78.13`) is the exact `x` to within half a unit of its last digit.
fn agrees(printed: &str, x: f64) -> bool {
    let decimals = printed.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    (printed.parse::<f64>().unwrap() - x).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-9
}

#[test]
fn usebio_published_values_are_reproduced() {
    published_values_of("individual-usebio.xml");
}

/// The same event written as the public USEBIO specimen writes one (docs/interop.md
/// "Individual events"): each table as two lines of the same score, the second naming the
/// table's South and West as N_ and E_, every S_ and W_ number made up
/// (`tools/individual_fixtures/twin_usebio.py`). Read as such, it reproduces every printed
/// value; with `--strict` (which takes nothing a director should be told of) it is refused.
#[test]
fn usebio_written_two_lines_a_table_reproduces_the_same_values() {
    published_values_of("individual-usebio-twin.xml");
    let dir = tmp("ind-usebio-twin-strict");
    let log = dir.path().join("log.jsonl");
    let file = data("individual-usebio-twin.xml");
    let o = run_in(
        dir.path(),
        &["import", s(&file), "--strict", "--out", s(&log)],
    );
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("is not a PLAYER of the file"),
        "{}",
        show(&o)
    );
}

/// Import `file` (of `tests/data/individual/`), score it, and compare every printed value with
/// `individual-usebio.expected.json`.
fn published_values_of(file: &str) {
    let dir = tmp("ind-usebio");
    let log = dir.path().join("log.jsonl");
    ok(dir.path(), &["import", s(&data(file)), "--out", s(&log)]);
    let expected: Value =
        serde_json::from_slice(&std::fs::read(data("individual-usebio.expected.json")).unwrap())
            .unwrap();
    let (scores, standings) = scored(&log);
    let score = |board: i64, who: &Value| -> f64 {
        let who = who.as_i64().unwrap().to_string();
        let rows: Vec<&ScoreRow> = scores
            .iter()
            .filter(|r| i64::from(r.board) == board && r.participant == who)
            .collect();
        assert_eq!(rows.len(), 1, "board {board}, player {who}");
        rows[0].score
    };
    let lines = expected["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 24);
    for l in lines {
        let b = l["board"].as_i64().unwrap();
        let (ns, ew) = (
            l["NS_MATCH_POINTS"].as_f64().unwrap(),
            l["EW_MATCH_POINTS"].as_f64().unwrap(),
        );
        // Each player credited with their side's points: N and S the NS, E and W the EW.
        for (seat, want) in [("N", ns), ("S", ns), ("E", ew), ("W", ew)] {
            assert_eq!(score(b, &l[seat]), want, "board {b}, {seat}: {l}");
        }
    }
    let players = expected["players"].as_array().unwrap();
    assert_eq!(players.len(), 12);
    assert_eq!(standings.len(), 12);
    let log_players: BTreeMap<String, Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "player")
        .map(|e| (e["id"].as_str().unwrap().to_string(), e))
        .collect();
    for p in players {
        let id = p["participant"].as_str().unwrap();
        let st = standings.iter().find(|r| r.participant == id).unwrap();
        let pct = st.pct.unwrap();
        assert!((pct - exact(&p["pct"])).abs() < 1e-9, "{id}: {pct} {p}");
        assert!(
            agrees(p["PERCENTAGE"].as_str().unwrap(), pct),
            "{id}: {pct} {p}"
        );
        assert_eq!(st.total, exact(&p["total"]), "{id}");
        let place = if st.rank == st.rank_to {
            st.rank.to_string()
        } else {
            format!("{}=", st.rank)
        };
        assert_eq!(place, p["PLACE"].as_str().unwrap(), "{id}");
        let e = &log_players[id];
        assert_eq!(e["name"], p["name"], "{id}");
        assert_eq!(
            e.get("member").unwrap_or(&Value::Null),
            &p["member"],
            "{id}"
        );
    }
}

#[test]
fn usebio_round_trip_gives_the_same_log() {
    let dir = tmp("ind-roundtrip");
    let d = dir.path();
    let (log1, xml, log2, xml2) = (
        d.join("1.jsonl"),
        d.join("out.xml"),
        d.join("2.jsonl"),
        d.join("out2.xml"),
    );
    ok(
        d,
        &[
            "import",
            s(&data("individual-usebio.xml")),
            "--out",
            s(&log1),
        ],
    );
    ok(
        d,
        &["export", s(&log1), "--format", "usebio", "--out", s(&xml)],
    );
    let text = std::fs::read_to_string(&xml).unwrap();
    assert_eq!(
        text.matches(r#"EVENT_TYPE="INDIVIDUAL""#).count(),
        1 + 1 + 8
    );
    assert!(text.contains("<N_PLAYER_NUMBER>1</N_PLAYER_NUMBER>"));
    assert!(!text.contains("PAIR_NUMBER>"));
    ok(d, &["import", s(&xml), "--out", s(&log2)]);
    assert_eq!(events(&log1), events(&log2));
    // And the second export is the first, byte for byte.
    ok(
        d,
        &["export", s(&log2), "--format", "usebio", "--out", s(&xml2)],
    );
    assert_eq!(text, std::fs::read_to_string(&xml2).unwrap());
}

/// Every individual fixture (rulings, penalties, Neuberg, Butler and cross-IMPs among them)
/// through the USEBIO export and back scores as the fixture; PBN cannot say an individual and
/// refuses, exit status 2, saying why.
#[test]
fn every_individual_fixture_exports_and_imports_back() {
    let dir = tmp("ind-fixtures");
    let d = dir.path();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut n = 0;
    for e in std::fs::read_dir(&root).unwrap() {
        let fixture = e.unwrap().path();
        let name = fixture.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("IND-") {
            continue;
        }
        n += 1;
        let log = fixture.join("events.jsonl");
        let (xml, back) = (
            d.join(format!("{name}.xml")),
            d.join(format!("{name}.jsonl")),
        );
        ok(
            d,
            &["export", s(&log), "--format", "usebio", "--out", s(&xml)],
        );
        ok(d, &["import", s(&xml), "--out", s(&back)]);
        let key = |r: &StandingRow| {
            (
                r.participant.clone(),
                r.rank,
                r.rank_to,
                r.total.to_bits(),
                r.pct.map(f64::to_bits),
                r.boards,
            )
        };
        let (mut a, mut b): (Vec<_>, Vec<_>) = (
            scored(&log).1.iter().map(key).collect(),
            scored(&back).1.iter().map(key).collect(),
        );
        a.sort();
        b.sort();
        assert_eq!(a, b, "{name}");
        let pbn = d.join(format!("{name}.pbn"));
        let o = run_in(d, &["export", s(&log), "--format", "pbn", "--out", s(&pbn)]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", show(&o));
        assert!(
            err.contains("individual") && err.contains("PBN") && err.contains("usebio"),
            "{name}: {err}"
        );
        assert!(!pbn.exists());
    }
    assert_eq!(n, 6);
}

/// The standings of a log, by player: (total, pct, rank).
fn standing_values(log: &Path) -> BTreeMap<String, (u64, Option<u64>, i32)> {
    scored(log)
        .1
        .iter()
        .map(|r| {
            (
                r.participant.clone(),
                (r.total.to_bits(), r.pct.map(f64::to_bits), r.rank),
            )
        })
        .collect()
}

#[test]
fn csv_with_four_player_columns_is_the_fixture() {
    let dir = tmp("ind-csv");
    let d = dir.path();
    let log = d.join("log.jsonl");
    ok(
        d,
        &[
            "import",
            s(&data("individual.csv")),
            "--form",
            "mp",
            "--out",
            s(&log),
        ],
    );
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/IND-MP-1/events.jsonl");
    // Its results are the fixture's, seat for seat; its players the fixture's names.
    let of = |p: &Path, ty: &str| -> Vec<String> {
        events(p)
            .into_iter()
            .filter(|e| e.contains(&format!(r#""type":"{ty}""#)))
            .collect()
    };
    assert_eq!(of(&log, "result"), of(&fixture, "result"));
    let names = |p: &Path| -> Vec<(String, String)> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with('{'))
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|e| e["type"] == "player")
            .map(|e| (e["id"].to_string(), e["name"].to_string()))
            .collect()
    };
    assert_eq!(names(&log), names(&fixture));
    assert_eq!(standing_values(&log), standing_values(&fixture));
    // Both pairs' and players' columns: refused, naming the two headers.
    let both = d.join("both.csv");
    let text = std::fs::read_to_string(data("individual.csv")).unwrap();
    std::fs::write(&both, text.replacen("north,", "ns,north,", 1)).unwrap();
    let o = run_in(
        d,
        &[
            "import",
            s(&both),
            "--form",
            "mp",
            "--out",
            s(&d.join("x.jsonl")),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(err.contains(r#"both "ns" and "north""#), "{err}");
}

#[test]
fn bridgemate_individual_session_is_read() {
    let dir = tmp("ind-bws");
    let d = dir.path();
    let log = d.join("log.jsonl");
    ok(
        d,
        &["import", s(&data("bws/individual.bws")), "--out", s(&log)],
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains(r#""kind":"individual""#), "{text}");
    // Every player of the movement declared, named from PlayerNumbers (a name cut to the
    // column's 18 characters, as Bridgemate keeps it), with the member numbers entered.
    assert_eq!(text.matches(r#""type":"player""#).count(), 12);
    assert!(text.contains(r#""id":"12","section":"A","name":"Michał Mazur","member":"040213""#));
    // Player 4's name is not in PlayerNumbers: it is the PlayerNames member list's for the
    // number entered (as for pairs).
    assert!(
        text.contains(r#""id":"4","section":"A","name":"Piotr Zieliński","member":"470112""#),
        "{text}"
    );
    let expected: Value =
        serde_json::from_slice(&std::fs::read(data("bws/expected.json")).unwrap()).unwrap();
    let (scores, _) = scored(&log);
    let want = expected["scores"].as_array().unwrap();
    assert_eq!(scores.len(), want.len());
    for w in want {
        let r = scores
            .iter()
            .find(|r| {
                i64::from(r.board) == w["board"].as_i64().unwrap()
                    && r.participant == w["participant"].as_str().unwrap()
            })
            .unwrap_or_else(|| panic!("no score for {w}"));
        assert_eq!(r.side, w["side"].as_str().unwrap(), "{w}");
        assert_eq!(r.score, w["score"].as_f64().unwrap(), "{w}");
        assert_eq!(r.top, w["top"].as_f64(), "{w}");
    }
    // Live: the same file again adds nothing.
    let o = run_in(
        d,
        &[
            "import",
            s(&data("bws/individual.bws")),
            "--append",
            s(&log),
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), text);
}
