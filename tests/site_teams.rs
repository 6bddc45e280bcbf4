//! The results website of a team event (`frekans site` of the teams demo) in a real browser:
//! chromium, headless, opens the pages from disk, and the test follows links from the index to
//! a team's scorecard, to its session's matches and standings, to the overall standings and to
//! a board, checking the IMPs, VPs and totals shown against `scores.parquet`,
//! `matches.parquet` and `standings.parquet` of `frekans score` (read with polars), and each
//! room of the board against the log's results and the IMP scale of Law 78B; the browser logs
//! no console message and every page passes `tidy`. chromium and tidy are installed by
//! scripts/test.sh (`setup_chromium`, `setup_tidy`): without them this test fails, never skips.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;
// The Parquet tables read back (polars): only the tests that read them link it.
#[path = "common/frames.rs"]
mod frames;

use std::collections::HashMap;
use std::path::Path;

use common::browser::{check_pages, links, open, rows, shows, table, text};
use common::scratch::{run_in, show, tmp};
use frames::{floats, frame, strs};

/// The IMPs of a difference in points (Law 78B's scale, from the Laws' table).
fn imps(diff: i32) -> i32 {
    const UPPER: [i32; 24] = [
        10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290, 1490, 1740,
        1990, 2240, 2490, 2990, 3490, 3990,
    ];
    let d = diff.abs();
    let n = UPPER.iter().position(|&u| d <= u).unwrap_or(24) as i32;
    n * diff.signum()
}

/// Each result of the log, by (session, match, room, board): NS, EW, declarer and the tricks
/// over or under the contract (from `tricks` or `result`), and the contract's level.
fn log_results(
    log: &Path,
) -> HashMap<(String, String, String, i64), (String, String, String, i64)> {
    let mut out = HashMap::new();
    for line in std::fs::read_to_string(log).unwrap().lines() {
        if line.starts_with("//") || line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] != "result" || v["contract"].is_null() {
            continue;
        }
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        let contract = s("contract");
        let level = contract[..1].parse::<i64>().unwrap_or(0);
        let off = match (v["tricks"].as_i64(), &v["result"]) {
            (Some(t), _) => t - 6 - level,
            (None, r) => r
                .as_str()
                .map_or(0, |r| r.replace('=', "0").parse().unwrap()),
        };
        out.insert(
            (
                s("session"),
                s("match"),
                s("room"),
                v["board"].as_i64().unwrap(),
            ),
            (s("ns"), s("ew"), s("declarer"), off),
        );
    }
    out
}

#[test]
fn from_the_index_to_a_team_its_matches_and_a_board_the_numbers_are_the_scored_ones() {
    let dir = tmp("site-teams");
    let log = common::root().join("events/polish-teams-2026.jsonl");
    let logs = log.to_str().unwrap();
    let o = run_in(dir.path(), &["site", logs, "--out", "site"]);
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(dir.path(), &["score", logs, "--out", "tables"]);
    assert!(o.status.success(), "{}", show(&o));
    let (site, tables) = (dir.path().join("site"), dir.path().join("tables"));

    // Every page valid, no script, every link to a page of the site: index, overall, rulings,
    // 2 sessions, 8 teams, 98 + 28 boards.
    let pages = check_pages(&site);
    assert!(pages >= 139, "{pages} pages");

    let index = open(&site.join("index.html"));
    assert!(text(&index).contains("Polish Team Championship 2026"));
    let index_links = links(&index);

    // A team's scorecard: every board's IMPs as scores.parquet has them, the running total
    // their sum.
    assert!(index_links.contains(&"teams/T3.html".to_string()));
    let card_page = site.join("teams/T3.html");
    let card = open(&card_page);
    let s = frame(&tables, "scores");
    let (session, board, who, score, ns_points) = (
        strs(&s, "session"),
        frames::ints(&s, "board"),
        strs(&s, "participant"),
        floats(&s, "score"),
        floats(&s, "ns_points"),
    );
    // (session, board, team) → (IMPs, the open room's NS points)
    let mut scored: HashMap<(String, i32, String), (f64, Option<f64>)> = HashMap::new();
    for k in 0..s.height() {
        let key = (
            session[k].clone().unwrap(),
            board[k].unwrap(),
            who[k].clone().unwrap(),
        );
        assert!(scored
            .insert(key, (score[k].unwrap(), ns_points[k]))
            .is_none());
    }
    let card_rows = table(&card, "class=\"card\" id=\"card-1\"");
    assert_eq!(
        card_rows.len(),
        98,
        "T3 played the 98 boards of the round robin"
    );
    let mut running = 0.0;
    let mut both_rooms = 0;
    for r in &card_rows {
        // board, opponents (and room), contract, points, score, running total, [ruling]
        let n: i32 = r[0].parse().unwrap();
        let v = scored[&("RR".to_string(), n, "T3".to_string())].0;
        shows(&r[4], v, &format!("T3 board {n} IMPs"));
        // Both rooms' points from T3's seats (the open room's, then the other's): a board with
        // no ruling is worth the IMPs of their sum.
        let points: Vec<i32> = r[3]
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        if points.len() == 2 && r.get(6).is_none_or(|x| x.trim().is_empty()) {
            assert_eq!(
                f64::from(imps(points[0] + points[1])),
                v,
                "T3 board {n}: the rooms' points {points:?} and the IMPs shown"
            );
            both_rooms += 1;
        }
        running += v;
        shows(
            &r[5],
            running,
            &format!("T3's running total after board {n}"),
        );
    }

    assert!(
        both_rooms >= 80,
        "T3's card shows both rooms: {both_rooms} boards"
    );

    // The round robin's matches: IMPs and VPs of every match as matches.parquet has them.
    assert!(index_links.contains(&"sessions/RR.html".to_string()));
    let rr = open(&site.join("sessions/RR.html"));
    let m = frame(&tables, "matches");
    let (msession, mid) = (strs(&m, "session"), strs(&m, "match"));
    let cols: Vec<Vec<Option<f64>>> = ["imp_home", "imp_away", "vp_home", "vp_away"]
        .iter()
        .map(|c| floats(&m, c))
        .collect();
    let part = &rr[rr.find("id=\"matches\"").expect("a list of matches")..];
    let match_rows = rows(part);
    assert_eq!(match_rows.len(), 28, "7 rounds of 4 matches");
    for r in &match_rows {
        // match, home, away, IMP, IMP, VP, VP
        let k = (0..m.height())
            .find(|&k| msession[k].as_deref() == Some("RR") && mid[k].as_deref() == Some(&r[0]))
            .unwrap_or_else(|| panic!("match {} not in matches.parquet", r[0]));
        for (c, col) in cols.iter().enumerate() {
            shows(
                &r[3 + c],
                col[k].unwrap(),
                &format!("match {} column {c}", r[0]),
            );
        }
    }

    // The standings of the round robin and overall (VPs) as standings.parquet has them.
    let st = frame(&tables, "standings");
    let (ssession, swho, stotal) = (
        strs(&st, "session"),
        strs(&st, "participant"),
        floats(&st, "total"),
    );
    let rank = frames::ints(&st, "rank");
    let overall = open(&site.join("overall.html"));
    for (page, sid, n) in [(&rr, "RR", 8), (&overall, "overall", 8)] {
        let got = table(page, "class=\"standings\"");
        assert_eq!(got.len(), n, "{sid}: {n} teams");
        for r in &got {
            // place, team, name, total, boards
            let k = (0..st.height())
                .find(|&k| ssession[k].as_deref() == Some(sid) && swho[k].as_deref() == Some(&r[1]))
                .unwrap_or_else(|| panic!("{sid} {} not in standings.parquet", r[1]));
            let place: i32 = r[0].split('–').next().unwrap().parse().unwrap();
            assert_eq!(place, rank[k].unwrap(), "{sid}: {}'s place", r[1]);
            shows(
                &r[3],
                stotal[k].unwrap(),
                &format!("{sid}: {}'s total", r[1]),
            );
        }
    }

    // From the scorecard to a board: both rooms of every match, each team's IMPs as
    // scores.parquet has them, the open room's NS points too, each room's tables and result as
    // the log has them, and the IMPs those two rooms' points make (Law 78B).
    let board_link = links(&card)
        .into_iter()
        .find(|l| l.starts_with("../boards/RR-"))
        .expect("the scorecard links to its boards");
    assert_eq!(board_link, "../boards/RR-1.html");
    let b = open(&card_page.parent().unwrap().join(&board_link));
    assert!(links(&b).contains(&"../teams/T3.html".to_string()));
    assert!(b.contains("class=\"deal\""), "no hand diagram");
    let results = log_results(&log);
    let rooms = table(&b, "class=\"rooms\"");
    assert_eq!(rooms.len(), 8, "board 1: 4 matches of two rooms");
    let mut seen_t3 = false;
    for pair in rooms.chunks(2) {
        // match (and its teams), room, contract, points, IMPs home, IMPs away, NS, EW[, ruling];
        // the closed room's row: room, contract, points, NS, EW[, ruling]
        let (open_row, closed_row) = (&pair[0], &pair[1]);
        let mt = open_row[0].split(' ').next().unwrap().to_string();
        let (home, away) = (open_row[6].clone(), open_row[7].clone());
        seen_t3 |= home == "T3" || away == "T3";
        assert_eq!(open_row[1], "Open room");
        assert_eq!(closed_row[0], "Closed room");
        let (home_imps, open_points) = scored[&("RR".to_string(), 1, home.clone())];
        let away_imps = scored[&("RR".to_string(), 1, away.clone())].0;
        shows(&open_row[4], home_imps, &format!("{mt}: {home}'s IMPs"));
        shows(&open_row[5], away_imps, &format!("{mt}: {away}'s IMPs"));
        shows(
            open_row[3].trim_start_matches('+'),
            open_points.unwrap(),
            &format!("{mt}: the open room's NS points"),
        );
        // (contract, NS, EW) of each room
        let open_cells = [&open_row[2], &open_row[6], &open_row[7]];
        let closed_cells = [&closed_row[1], &closed_row[3], &closed_row[4]];
        for (room, cells) in [("open", open_cells), ("closed", closed_cells)] {
            let (ns, ew, declarer, off) =
                &results[&("RR".to_string(), mt.clone(), room.to_string(), 1)];
            assert_eq!(
                (cells[1], cells[2]),
                (ns, ew),
                "{mt} {room}: the teams seated"
            );
            let words: Vec<&str> = cells[0].split(' ').collect();
            let off = match off {
                0 => "=".to_string(),
                x if *x > 0 => format!("+{x}"),
                x => x.to_string(),
            };
            assert_eq!(
                &words[1..],
                &[declarer.as_str(), off.as_str()],
                "{mt} {room}: {}",
                cells[0]
            );
        }
        let points = |c: &str| c.trim_start_matches('+').parse::<i32>().unwrap();
        let diff = points(&open_row[3]) - points(&closed_row[2]);
        shows(
            &open_row[4],
            imps(diff) as f64,
            &format!("{mt}: IMPs of {diff}"),
        );
    }
    assert!(seen_t3, "T3's match on board 1");
}

#[test]
fn the_imp_scale_of_the_test_is_law_78b() {
    // (the scale's edges, from the Laws' table)
    for (diff, want) in [
        (0, 0),
        (10, 0),
        (20, 1),
        (40, 1),
        (50, 2),
        (370, 9),
        (420, 9),
        (430, 10),
        (4000, 24),
        (-630, -12),
    ] {
        assert_eq!(imps(diff), want, "{diff}");
    }
}
