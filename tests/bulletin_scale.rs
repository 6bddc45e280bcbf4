//! The bulletin of a big field (issue 21 item 5, scaled down to run in seconds): one board
//! played at 1,200 tables by 2,400 pairs (without rulings, so that scores.parquet's NS points are
//! every table's result; then with about 600 rulings), so that every cut of the bulletin
//! (`report::cut::Limits::BULLETIN`) applies. Its data (`bulletin.json`) is checked against the
//! Parquet tables `frekans bulletin` writes beside it (read with polars): the traveller shows the
//! 20 best and the 20 worst NS results played, each line as scores.parquet has that table; the
//! standings show the first 500 places as standings.parquet ranks them; the adjusted scores and
//! the rulings appendix (the log's first 500 ruling events) are cut; and each cut says, in the data and in the PDF (real typst,
//! `pdftotext`), how much is shown of how many.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;
// The Parquet tables read back (polars): only the tests that read them link it.
#[path = "common/frames.rs"]
mod frames;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use common::scratch::{run_in, show, tmp};
use frames::{floats, frame, ints, strs};
use serde_json::Value;

fn num(v: &Value) -> f64 {
    v.as_str()
        .unwrap_or_else(|| panic!("{v} is not a formatted number"))
        .trim_start_matches('+')
        .parse()
        .unwrap()
}

fn close(shown: f64, value: f64, what: &str) {
    assert!(
        (shown - value).abs() <= 0.005 + 1e-9,
        "{what}: the bulletin shows {shown}, the table has {value}"
    );
}

/// The `… N` count after `marker` in a note, e.g. `of 1200 tables`.
fn count_in(note: &str, before: &str) -> usize {
    let at = note
        .find(before)
        .unwrap_or_else(|| panic!("{before:?} not in {note:?}"));
    note[..at]
        .split_whitespace()
        .last()
        .unwrap()
        .parse()
        .unwrap()
}

/// `frekans bulletin` of a synthetic field of one board at 1,200 tables: its output directory
/// and its data.
fn big_bulletin(dir: &Path, rulings: &str) -> (std::path::PathBuf, Value) {
    let o = run_in(
        dir,
        &[
            "synth",
            "-q",
            "--sections",
            "100",
            "--tables",
            "12",
            "--boards",
            "1",
            "--compare",
            "field",
            "--rulings",
            rulings,
            "--seed",
            "11",
            "--out",
            "big.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(dir, &["bulletin", "big.jsonl", "--out", "b"]);
    assert!(o.status.success(), "{}", show(&o));
    let out = dir.join("b");
    let data: Value =
        serde_json::from_slice(&std::fs::read(out.join("bulletin.json")).unwrap()).unwrap();
    (out, data)
}

/// The PDF's text, spaces collapsed, typographic apostrophes plain.
fn pdf_text(out: &Path) -> String {
    let o = Command::new("pdftotext")
        .arg(out.join("bulletin.pdf"))
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils, installed by scripts/test.sh)");
    String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('’', "'")
}

#[test]
fn a_big_fields_bulletin_shows_the_top_and_bottom_and_says_what_it_cut() {
    let dir = tmp("bulletin-scale");
    let (out, data) = big_bulletin(dir.path(), "0");

    // scores.parquet: each table's NS row (its EW pair, NS points, NS score) and each pair's score.
    let scores = frame(&out, "scores");
    let (who, side, opp) = (
        strs(&scores, "participant"),
        strs(&scores, "side"),
        strs(&scores, "opponent"),
    );
    let (points, score) = (floats(&scores, "ns_points"), floats(&scores, "score"));
    let mut ns_rows: HashMap<String, (String, Option<f64>, f64)> = HashMap::new();
    let mut score_of: HashMap<String, f64> = HashMap::new();
    for i in 0..scores.height() {
        let id = who[i].clone().unwrap();
        score_of.insert(id.clone(), score[i].unwrap());
        if side[i].as_deref() == Some("NS") {
            ns_rows.insert(id, (opp[i].clone().unwrap(), points[i], score[i].unwrap()));
        }
    }
    let tables = ns_rows.len();
    assert_eq!(tables, 1200);

    // The traveller: the 20 best and the 20 worst NS points played, best first.
    let board = &data["sessions"][0]["boards"][0];
    assert_eq!(board["tables"], tables);
    assert_eq!(board["traveller_cut"], true);
    let mut played: Vec<f64> = ns_rows.values().filter_map(|r| r.1).collect();
    played.sort_by(|a, b| b.partial_cmp(a).unwrap());
    let want: Vec<f64> = played[..20]
        .iter()
        .chain(&played[played.len() - 20..])
        .copied()
        .collect();
    let lines = board["traveller"].as_array().unwrap();
    let got: Vec<f64> = lines.iter().map(|t| num(&t["points"])).collect();
    assert_eq!(got, want, "the traveller's NS points");
    for t in lines {
        let ns = t["ns"].as_str().unwrap();
        let (ew, _, ns_score) = &ns_rows[ns];
        assert_eq!(t["ew"].as_str().unwrap(), ew, "{ns}'s opponents");
        close(num(&t["score_ns"]), *ns_score, &format!("{ns}'s score"));
        close(num(&t["score_ew"]), score_of[ew], &format!("{ew}'s score"));
    }
    let note = board["traveller_note"].as_str().unwrap();
    assert_eq!(count_in(note, "of"), tables - 40, "{note}");
    assert_eq!(count_in(note, "tables not shown"), tables, "{note}");

    // The standings: the first 500 places as standings.parquet ranks them, of 2,400.
    let st = frame(&out, "standings");
    let (s_session, s_who, s_rank, s_total) = (
        strs(&st, "session"),
        strs(&st, "participant"),
        ints(&st, "rank"),
        floats(&st, "total"),
    );
    for (group, rows, note) in [
        (
            "S1",
            &data["sessions"][0]["standings"][0]["rows"],
            &data["sessions"][0]["standings"][0]["note"],
        ),
        ("overall", &data["overall"], &data["overall_note"]),
    ] {
        let ranked: HashMap<&str, (i32, f64)> = (0..st.height())
            .filter(|&i| s_session[i].as_deref() == Some(group))
            .map(|i| {
                (
                    s_who[i].as_deref().unwrap(),
                    (s_rank[i].unwrap(), s_total[i].unwrap()),
                )
            })
            .collect();
        assert_eq!(ranked.len(), 2400, "{group}");
        let rows = rows.as_array().unwrap();
        assert_eq!(rows.len(), 500, "{group}");
        let mut last = 0;
        for r in rows {
            let (rank, total) = ranked[r["id"].as_str().unwrap()];
            let place: i32 = r["place"]
                .as_str()
                .unwrap()
                .split('–')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(place, rank, "{group}: {}", r["id"]);
            assert!(rank >= last, "{group}: places in order");
            last = rank;
            close(
                num(&r["total"]),
                total,
                &format!("{group}: {}'s total", r["id"]),
            );
        }
        // (no one ranked above the last place shown is left out)
        assert!(ranked.values().filter(|v| v.0 < last).count() < 500);
        assert_eq!(
            rows[0]["place"].as_str().unwrap().split('–').next(),
            Some("1")
        );
        let note = note.as_str().unwrap();
        assert_eq!(count_in(note, "places of"), 500, "{note}");
        assert_eq!(count_in(note, "are shown"), 2400, "{note}");
    }

    // The PDF says it too.
    let text = pdf_text(&out);
    for want in [
        format!("{} of {tables} tables not shown", tables - 40),
        "the first 500 places of 2400 are shown".to_string(),
    ] {
        assert!(text.contains(&want), "the PDF does not say {want:?}");
    }
}

/// With rulings at 45% of the tables: the board's first 40 adjusted scores of every table with
/// a ruling in force, the first 500 rulings of rulings.parquet, each cut said.
#[test]
fn a_big_fields_adjusted_scores_and_rulings_are_cut_and_counted() {
    let dir = tmp("bulletin-scale-rulings");
    let (out, data) = big_bulletin(dir.path(), "0.45");
    let scores = frame(&out, "scores");
    let side = strs(&scores, "side");
    let adjusted = scores.column("adjusted").unwrap().bool().unwrap().clone();
    let adjusted_tables = (0..scores.height())
        .filter(|&i| side[i].as_deref() == Some("NS") && adjusted.get(i) == Some(true))
        .count();
    assert!(adjusted_tables > 40);
    let board = &data["sessions"][0]["boards"][0];
    // The adjusted scores: the first 40 of every table with a ruling in force.
    assert_eq!(board["adjusted"].as_array().unwrap().len(), 40);
    assert_eq!(board["adjusted_total"], adjusted_tables);
    let note = board["adjusted_note"].as_str().unwrap();
    assert_eq!(count_in(note, "adjusted scores"), adjusted_tables, "{note}");

    // The rulings appendix: the first 500 ruling events of the log, in log order (withdrawn
    // and superseded ones too); of them, those in force are rows of rulings.parquet.
    let log = std::fs::read_to_string(dir.path().join("big.jsonl")).unwrap();
    let events: Vec<Value> = log
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "ruling")
        .collect();
    assert!(events.len() > 500);
    let listed = data["rulings"].as_array().unwrap();
    let ids: Vec<&str> = listed.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let first: Vec<&str> = events[..500]
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, first);
    let in_force: std::collections::HashSet<String> = strs(&frame(&out, "rulings"), "ruling")
        .into_iter()
        .flatten()
        .collect();
    for r in listed.iter().filter(|r| r["status"] == "in_force") {
        assert!(in_force.contains(r["id"].as_str().unwrap()), "{}", r["id"]);
    }
    let note = data["rulings_note"].as_str().unwrap();
    assert_eq!(count_in(note, "rulings are listed"), events.len(), "{note}");

    let text = pdf_text(&out);
    for want in [
        format!("the first 40 of the board's {adjusted_tables} adjusted scores"),
        format!("the first 500 of {} rulings are listed", events.len()),
    ] {
        assert!(text.contains(&want), "the PDF does not say {want:?}");
    }
}

/// A team session of 60 matches (10 sections of 6; issue 21: at championship sizes the match
/// sheets were unbounded): the bulletin lists every match's result as matches.parquet has it,
/// prints the sheets of 50 (`Limits::BULLETIN`), those whose better-placed team placed best in
/// standings.parquet, each adding up to its match's IMPs, and says so in the data and the PDF;
/// the boards list only the rooms of the matches shown.
#[test]
fn a_big_team_sessions_match_sheets_are_cut_to_the_best_placed_teams() {
    let dir = tmp("bulletin-scale-teams");
    let o = run_in(
        dir.path(),
        &[
            "synth",
            "-q",
            "--form",
            "teams",
            "--compare",
            "section",
            "--sections",
            "10",
            "--tables",
            "6",
            "--boards",
            "2",
            "--rulings",
            "0",
            "--seed",
            "5",
            "--out",
            "t.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(dir.path(), &["bulletin", "t.jsonl", "--out", "b"]);
    assert!(o.status.success(), "{}", show(&o));
    let out = dir.path().join("b");
    let data: Value =
        serde_json::from_slice(&std::fs::read(out.join("bulletin.json")).unwrap()).unwrap();
    let session = &data["sessions"][0];
    let matches = session["matches"].as_array().unwrap();

    // Every match's result, as matches.parquet has it.
    let m = frame(&out, "matches");
    let (mid, home, away) = (strs(&m, "match"), strs(&m, "home"), strs(&m, "away"));
    let (imp_home, vp_home) = (floats(&m, "imp_home"), floats(&m, "vp_home"));
    assert_eq!(matches.len(), 60);
    assert_eq!(m.height(), 60);
    let row = |id: &str| {
        (0..m.height())
            .find(|&k| mid[k].as_deref() == Some(id))
            .unwrap()
    };
    for x in matches {
        let k = row(x["match"].as_str().unwrap());
        close(num(&x["imp_home"]), imp_home[k].unwrap(), "a match's IMPs");
        close(num(&x["vp_home"]), vp_home[k].unwrap(), "a match's VPs");
    }

    // 50 sheets shown, each adding up to its match's IMPs; the others cut.
    let st = frame(&out, "standings");
    let (who, ssession, rank) = (
        strs(&st, "participant"),
        strs(&st, "session"),
        ints(&st, "rank"),
    );
    let place: HashMap<String, i32> = (0..st.height())
        .filter(|&k| ssession[k].as_deref() != Some("overall"))
        .map(|k| (who[k].clone().unwrap(), rank[k].unwrap()))
        .collect();
    let key = |k: usize| place[home[k].as_ref().unwrap()].min(place[away[k].as_ref().unwrap()]);
    let (mut shown, mut cut) = (Vec::new(), Vec::new());
    for x in matches {
        let k = row(x["match"].as_str().unwrap());
        if x.get("sheet_cut").is_some_and(|c| c == true) {
            assert!(x["sheet"].as_array().unwrap().is_empty());
            cut.push(key(k));
        } else {
            let sheet = x["sheet"].as_array().unwrap();
            assert_eq!(sheet.len(), 2, "a sheet of two boards");
            close(
                num(&sheet[1]["running_home"]),
                imp_home[k].unwrap(),
                "a sheet's total",
            );
            shown.push(key(k));
        }
    }
    assert_eq!((shown.len(), cut.len()), (50, 10));
    let worst_shown = shown.iter().max().unwrap();
    assert!(
        cut.iter().all(|c| c >= worst_shown),
        "a sheet of a match placed {worst_shown} shown, one of {cut:?} cut"
    );
    let note = session["sheets_note"]
        .as_str()
        .expect("a note on the cut sheets");
    assert!(note.contains("50 of the session's 60 matches"), "{note}");
    assert!(
        note.contains("matches.parquet") && note.contains("results website"),
        "{note}"
    );

    // The boards list the rooms of the matches shown only (and each board number once at
    // least): no board of a cut match beyond its number's first.
    let shown_ids: std::collections::HashSet<&str> = matches
        .iter()
        .filter(|x| x.get("sheet_cut").is_none())
        .map(|x| x["match"].as_str().unwrap())
        .collect();
    let boards = session["boards"].as_array().unwrap();
    let extra = boards
        .iter()
        .filter(|b| !shown_ids.contains(b["match"].as_str().unwrap()))
        .count();
    assert!(extra <= 2, "{extra} boards of cut matches");
    assert!(
        boards.len() >= 100 && boards.len() <= 102,
        "{} boards",
        boards.len()
    );

    // The PDF says it too.
    let text = pdf_text(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("the match sheets of 50 of the session's 60 matches are shown"));
}
