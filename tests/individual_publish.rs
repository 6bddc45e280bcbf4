//! What a reader sees of an individual session (issue 38): the bulletin (its text, through
//! `pdftotext`), the website (in the browser), `explain` and `audit` of
//! `fixtures/IND-RULINGS`: a table is its four players by seat, each player's scorecard says
//! where they sat, with whom and against whom, the standings and the audit name players, and
//! the audit's cached answer is its long way's.
// (a test: the machine's own files and programs)
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::{Path, PathBuf};

use common::browser::{open, table, text};
use common::scratch::{run_in, show, tmp};

fn log() -> PathBuf {
    common::root().join("fixtures/IND-RULINGS/events.jsonl")
}

/// `frekans ARGS` in `dir`: its standard output, the run asserted to succeed.
fn ok(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", show(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// Each line's words.
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

#[test]
fn explain_shows_a_traveller_line_per_table_with_its_four_seats() {
    let t = tmp("ind-explain");
    let log = log();
    let out = ok(
        t.path(),
        &[
            "explain",
            log.to_str().unwrap(),
            "--session",
            "S1",
            "--board",
            "1",
        ],
    );
    let trav = &out[out.find("Traveller:").expect("a traveller")..];
    let lines: Vec<&str> = trav.lines().skip(1).take_while(|l| !l.is_empty()).collect();
    assert_eq!(words(lines[0])[..5], ["table", "N", "S", "E", "W"], "{out}");
    // Three tables, one line each, the players by seat as the results name them.
    let tables: Vec<Vec<&str>> = lines[1..].iter().map(|l| words(l)[..5].to_vec()).collect();
    assert_eq!(
        tables,
        [
            ["1", "1", "2", "3", "4"],
            ["2", "5", "6", "7", "8"],
            ["3", "9", "10", "11", "12"]
        ],
        "{out}"
    );
    // The ruling's table by its players, each side's arithmetic by its two players.
    assert!(
        out.contains("Ruling R2 at N 5 (Ewa Lewandowska), S 6 (Tomasz Kamiński) v E 7 (Zofia Dąbrowska), W 8 (Marek Szymański):"),
        "{out}"
    );
    assert!(out.contains("  NS 5 & 6: scored in the NS line"), "{out}");
    assert!(out.contains("  EW 7 & 8: scored in the EW line"), "{out}");
}

/// The audit's JSON of `args` in `dir`.
fn audit_json(dir: &Path, args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(dir, args)).expect("the audit's JSON")
}

#[test]
fn audit_names_players_and_its_cached_answer_is_the_long_way() {
    let t = tmp("ind-audit");
    let log = log();
    let log = log.to_str().unwrap();
    let text = ok(t.path(), &["audit", log, "--ruling", "R1"]);
    assert!(text.contains("  player       before"), "{text}");
    assert!(!text.contains("  pair "), "{text}");
    // Every player of the ruled table moved, each on their own row.
    for (id, name) in [
        ("5", "Ewa"),
        ("11", "Agnieszka"),
        ("7", "Zofia"),
        ("9", "Katarzyna"),
    ] {
        assert!(
            text.lines()
                .any(|l| words(l).first() == Some(&id) && l.contains(name)),
            "{id}: {text}"
        );
    }
    // The cache left by `score`, then read by the audit; against no cache at all.
    ok(t.path(), &["score", log, "--out", "tables"]);
    let args = ["audit", log, "--ruling", "R1", "--format", "json"];
    let cached = audit_json(t.path(), &args);
    let cache = t.path().join(".cache-audit");
    assert!(
        std::fs::read_dir(&cache).is_ok_and(|mut d| d.next().is_some()),
        "no audit cache in {}",
        cache.display()
    );
    let long = audit_json(t.path(), &[&args[..], &["--no-cache"]].concat());
    assert_eq!(cached, long);
    let ids: Vec<&str> = long["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["participant"].as_str().unwrap())
        .collect();
    for id in ["5", "11", "7", "9"] {
        assert!(ids.contains(&id), "{id} not in {ids:?}");
    }
}

#[test]
fn a_ruling_proposed_by_north_is_the_audit_of_the_log_with_it() {
    let t = tmp("ind-with");
    let copy = t.path().join("copy.jsonl");
    std::fs::copy(log(), &copy).unwrap();
    let event = r#"{"type":"ruling","id":"R9","session":"S1","board":2,"north":"1","score":"A+/A-","law":"12C1(d)"}"#;
    let with = audit_json(
        t.path(),
        &["audit", "copy.jsonl", "--with", event, "--format", "json"],
    );
    ok(t.path(), &["append", "copy.jsonl", event, "--no-cache"]);
    let appended = audit_json(
        t.path(),
        &[
            "audit",
            "copy.jsonl",
            "--ruling",
            "R9",
            "--format",
            "json",
            "--no-cache",
        ],
    );
    assert_eq!(with["standings"], appended["standings"]);
    assert_eq!(with["boards"], appended["boards"]);
    // The four players of table 1 (N 1, S 2, E 3, W 4) each have their score on board 2.
    let boards: Vec<(&str, &str)> = with["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["participant"].as_str().unwrap(),
                b["side"].as_str().unwrap(),
            )
        })
        .collect();
    for p in [("1", "NS"), ("2", "NS"), ("3", "EW"), ("4", "EW")] {
        assert!(boards.contains(&p), "{p:?} not in {boards:?}");
    }
    assert!(!with["standings"].as_array().unwrap().is_empty());
}

#[test]
fn the_bulletin_lists_players_and_tables_of_four() {
    let t = tmp("ind-bulletin");
    let log = log();
    ok(t.path(), &["bulletin", log.to_str().unwrap(), "--out", "b"]);
    let pdf = common::pdftotext(&t.path().join("b/bulletin.pdf"));
    let lines: Vec<&str> = pdf.lines().collect();
    // The standings: players, each with their member number when the log gives one.
    assert!(
        lines
            .iter()
            .any(|l| words(l) == ["Place", "Player", "Name", "Total", "%", "Boards"]),
        "{pdf}"
    );
    assert!(!pdf.contains("Place Pair"), "{pdf}");
    assert!(
        lines.iter().any(|l| {
            let w = words(l);
            w.starts_with(&["7", "1", "Anna", "Nowak", "PL-04512"])
        }),
        "{pdf}"
    );
    // Board 1's traveller: a line per table, its four players by seat.
    assert!(
        pdf.contains("N S E W Contract")
            || lines.iter().any(|l| l.contains("N")
                && words(l)
                    .windows(5)
                    .any(|w| w == ["N", "S", "E", "W", "Contract"])),
        "{pdf}"
    );
    for seats in [
        ["5", "6", "7", "8"],
        ["1", "2", "3", "4"],
        ["9", "10", "11", "12"],
    ] {
        assert!(
            lines.iter().any(|l| words(l)
                .windows(5)
                .any(|w| w[..4] == seats && w[4] == "(score)")),
            "{seats:?}: {pdf}"
        );
    }
    // The rulings appendix names the ruled table's players by seat.
    assert!(pdf.contains("N 5, S 11 – E 7, W 9"), "{pdf}");
}

#[test]
fn the_site_shows_players_tables_of_four_and_each_players_scorecard() {
    let t = tmp("ind-site");
    let log = log();
    ok(t.path(), &["site", log.to_str().unwrap(), "--out", "site"]);
    let site = t.path().join("site");
    let session = open(&site.join("sessions/S1.html"));
    let standings = table(&session, "class=\"standings\"");
    assert_eq!(standings.len(), 12);
    let anna = standings.iter().find(|r| r[1] == "1").expect("player 1");
    assert_eq!(anna[2], "Anna Nowak PL-04512");
    let head = &session[session.find("<table class=\"standings\"").unwrap()..];
    let head: Vec<String> = head[..head.find("</thead>").unwrap()]
        .split("<th ")
        .skip(1)
        .map(|c| text(&format!("<th {c}")))
        .collect();
    assert_eq!(head[..3], ["Place", "Player", "Name"]);

    // Board 1: a line per table, its players N, S, E, W.
    let board = open(&site.join("boards/S1-1.html"));
    let trav = table(&board, "class=\"traveller\"");
    let seats: Vec<Vec<&str>> = trav
        .iter()
        .map(|r| r[..4].iter().map(String::as_str).collect())
        .collect();
    assert_eq!(seats.len(), 3, "{trav:?}");
    for t in [
        ["5", "6", "7", "8"],
        ["1", "2", "3", "4"],
        ["9", "10", "11", "12"],
    ] {
        assert!(seats.contains(&t.to_vec()), "{t:?} not in {seats:?}");
    }
    assert!(text(&board).contains("R2 — N 5, S 6 – E 7, W 8:"));

    // Player 5's scorecard: every board they played, their seat, partner and opponents; a
    // player's scorecard is in `players/`, none in `pairs/`.
    assert!(!site.join("pairs").exists());
    let card = open(&site.join("players/5.html"));
    assert!(
        text(&card).contains("Player 5 Ewa Lewandowska"),
        "{}",
        text(&card)
    );
    assert!(text(&card).contains("Member: PL-00018"));
    let rows = table(&card, "class=\"card\"");
    assert_eq!(rows.len(), 8, "{rows:?}");
    // (board, seat, partner, opponents): board 1 N with 6 against 7 and 8; board 3 S (North 1,
    // East 2, West 9: on their left West).
    let first: Vec<[&str; 4]> = rows
        .iter()
        .map(|r| [r[0].as_str(), r[1].as_str(), r[2].as_str(), r[3].as_str()])
        .collect();
    assert!(first.contains(&["1", "N", "6", "7, 8"]), "{first:?}");
    assert!(first.contains(&["3", "S", "1", "9, 2"]), "{first:?}");
}

#[test]
fn names_are_text_in_the_bulletin_and_the_site() {
    let t = tmp("ind-names");
    let text_of_log = std::fs::read_to_string(log())
        .unwrap()
        .replace("Anna Nowak", "Anna <b>Nowak</b> #set \\\"x\\\"");
    std::fs::write(t.path().join("log.jsonl"), text_of_log).unwrap();
    ok(t.path(), &["site", "log.jsonl", "--out", "site"]);
    let card = open(&t.path().join("site/players/1.html"));
    assert!(
        card.contains("Anna &lt;b&gt;Nowak&lt;/b&gt; #set \"x\""),
        "{card}"
    );
    ok(t.path(), &["bulletin", "log.jsonl", "--out", "b"]);
    let pdf = common::pdftotext(&t.path().join("b/bulletin.pdf"));
    assert!(pdf.contains("Anna <b>Nowak</b> #set \"x\""), "{pdf}");
}

/// The projector page of a session being played (`frekans live`) heads an individual session's
/// standings "Player", a pairs session's "Pair" as before.
#[test]
fn the_live_page_heads_players() {
    let page = |log: &Path| {
        let l = frekans::app::load(log, &Default::default()).unwrap();
        let scored = frekans::pipeline::score(&l.state).unwrap();
        let model = frekans::report::model::build(&l.state, &scored, &[], "en");
        let status = frekans::site::live::LiveStatus {
            round: 4,
            rounds: 4,
            complete: true,
            ..Default::default()
        };
        let html = frekans::site::live::page(&model, &status, "en").unwrap();
        String::from_utf8(html).unwrap()
    };
    let ind = page(&log());
    assert!(ind.contains("<th>Player</th>"), "{ind}");
    assert!(!ind.contains("<th>Pair</th>"), "{ind}");
    let pairs = page(&common::root().join("events/mazovia-pairs-2026.jsonl"));
    assert!(pairs.contains("<th>Pair</th>"), "{pairs}");
}
