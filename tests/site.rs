//! The results website (`frekans site`) in a real browser: Debian's chromium, headless, opens the
//! pages from disk (`file://`, scripting off), and the tests follow links from the index to a
//! scorecard and from there to a board, checking the numbers shown against `scores.parquet` and
//! `standings.parquet` of `frekans score` (read with polars); the browser reports no console
//! error; every page passes Debian's HTML checker `tidy`; every link leads to a page of the
//! site; the hostile-names fixture renders literally. chromium and tidy are installed by
//! scripts/test.sh (`setup_chromium`, `setup_tidy`): without them these tests fail, never skip.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;
// The Parquet tables read back (polars): only the tests that read them link it.
#[path = "common/frames.rs"]
mod frames;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use common::browser::{check_pages, links, open, shows, table, text, walk};
use common::scratch::{run_in, show, tmp, Tmp};
use frames::{floats, frame, ints, strs};

/// The demo's site and its Parquet tables, made once for the tests of this file.
struct Demo {
    _dir: Tmp,
    site: PathBuf,
    tables: PathBuf,
}

fn demo() -> &'static Demo {
    static DEMO: OnceLock<Demo> = OnceLock::new();
    DEMO.get_or_init(|| {
        let dir = tmp("site");
        let log = common::root().join("events/mazovia-pairs-2026.jsonl");
        let log = log.to_str().unwrap();
        let o = run_in(dir.path(), &["site", log, "--out", "site"]);
        assert!(o.status.success(), "{}", show(&o));
        let o = run_in(dir.path(), &["score", log, "--out", "tables", "--dd"]);
        assert!(o.status.success(), "{}", show(&o));
        Demo {
            site: dir.path().join("site"),
            tables: dir.path().join("tables"),
            _dir: dir,
        }
    })
}

#[test]
fn from_the_index_to_a_scorecard_and_a_board_the_numbers_are_the_scored_ones() {
    let d = demo();
    let index = open(&d.site.join("index.html"));
    assert!(index.contains("<html lang=\"en\">"));
    assert!(text(&index).contains("Mazovian Pairs Championship 2026"));
    // The index links to each pair's scorecard; follow one of section B.
    let card_link = links(&index)
        .into_iter()
        .find(|l| l == "pairs/B3.html")
        .expect("the index links to pair B3's scorecard");
    let card_page = d.site.join(&card_link);
    let card = open(&card_page);

    // Every board of the scorecard against scores.parquet; the running total is their sum.
    let s = frame(&d.tables, "scores");
    let (session, board, who, score) = (
        strs(&s, "session"),
        ints(&s, "board"),
        strs(&s, "participant"),
        floats(&s, "score"),
    );
    let mut want: HashMap<(String, i32), f64> = HashMap::new();
    for k in 0..s.height() {
        if who[k].as_deref() == Some("B3") {
            *want
                .entry((session[k].clone().unwrap(), board[k].unwrap()))
                .or_default() += score[k].unwrap();
        }
    }
    let rows = table(&card, "class=\"card\" id=\"card-1\"");
    assert_eq!(rows.len(), 26, "B3 played 26 boards of S1");
    let mut running = 0.0;
    for r in &rows {
        // board, opponents (and side), contract, points, score, %, running total, ruling
        let n: i32 = r[0].parse().unwrap();
        let v = want[&("S1".to_string(), n)];
        shows(&r[4], v, &format!("B3 S1 board {n} score"));
        running += v;
        shows(
            &r[6],
            running,
            &format!("B3 S1 running total after board {n}"),
        );
    }

    // From the scorecard to its first board: the board's page links back to B3's scorecard
    // and shows B3's score there too.
    let board_link = links(&card)
        .into_iter()
        .find(|l| l.starts_with("../boards/S1-B-"))
        .expect("the scorecard links to its boards");
    assert_eq!(board_link, "../boards/S1-B-1.html");
    let board_page = card_page.parent().unwrap().join(&board_link);
    let b = open(&board_page);
    assert!(links(&b).contains(&"../pairs/B3.html".to_string()));
    let trav = table(&b, "class=\"traveller\"");
    let line = trav
        .iter()
        .find(|r| r[0] == "B3" || r[1] == "B3")
        .expect("B3 on board 1's traveller");
    let col = if line[0] == "B3" { 4 } else { 5 };
    shows(
        &line[col],
        want[&("S1".to_string(), 1)],
        "B3 on board 1's page",
    );
    // The board's deal, double-dummy table and par (the demo has its deals).
    assert!(b.contains("class=\"deal\""), "no hand diagram");
    assert_eq!(table(&b, "class=\"ddt\"").len(), 4, "no double-dummy table");
    // Par as deals.parquet has it.
    let deals = frame(&d.tables, "deals");
    let (dsession, dboard, par) = (
        strs(&deals, "session"),
        ints(&deals, "board"),
        ints(&deals, "par_score"),
    );
    let k = (0..deals.height())
        .find(|&k| dsession[k].as_deref() == Some("S1") && dboard[k] == Some(1))
        .unwrap();
    let par = par[k].unwrap();
    let par = if par > 0 {
        format!("+{par}")
    } else {
        par.to_string()
    };
    assert!(
        text(&b).contains(&format!("Par {par}:")),
        "par {par} not shown:\n{}",
        text(&b)
    );
}

#[test]
fn the_standings_shown_are_standings_parquet() {
    let d = demo();
    let st = frame(&d.tables, "standings");
    let (session, section, who, total, pct, rank) = (
        strs(&st, "session"),
        strs(&st, "section"),
        strs(&st, "participant"),
        floats(&st, "total"),
        floats(&st, "pct"),
        ints(&st, "rank"),
    );
    let page = open(&d.site.join("sessions/S1.html"));
    let mut checked = 0;
    for (marker, sec) in [("A", "A"), ("B", "B")] {
        // The session page has one standings table per section, in section order.
        let part = &page[page.find(&format!("Section {marker}</h2>")).unwrap()..];
        for r in table(part, "class=\"standings\"") {
            // place, pair, players, total, %, boards
            let k = (0..st.height())
                .find(|&k| {
                    session[k].as_deref() == Some("S1")
                        && section[k].as_deref() == Some(sec)
                        && who[k].as_deref() == Some(&r[1])
                })
                .unwrap_or_else(|| panic!("{} not in standings.parquet", r[1]));
            let place: i32 = r[0].split('–').next().unwrap().parse().unwrap();
            assert_eq!(place, rank[k].unwrap(), "{}'s place", r[1]);
            shows(&r[3], total[k].unwrap(), &format!("{}'s total", r[1]));
            shows(&r[4], pct[k].unwrap(), &format!("{}'s percentage", r[1]));
            checked += 1;
        }
    }
    assert_eq!(checked, 52, "two sections of 26 pairs");
}

#[test]
fn every_page_is_valid_html5_and_every_link_leads_to_a_page() {
    let d = demo();
    // index, overall, rulings; 3 sessions; 52 pairs + the side event's; 2 × 26 × 2 + 20 boards
    let pages = check_pages(&d.site);
    assert!(pages > 150, "{pages} pages");
    // The addresses the spec names.
    for a in ["boards/S1-A-14.html", "pairs/A12.html", "boards/S3-20.html"] {
        assert!(d.site.join(a).is_file(), "{a} missing");
    }
}

#[test]
fn hostile_names_and_notes_render_literally() {
    let dir = tmp("site-hostile");
    let log = common::root().join("tests/data/hostile-names.jsonl");
    let o = run_in(
        dir.path(),
        &[
            "site",
            log.to_str().unwrap(),
            "--out",
            "site",
            "--lang",
            "pl",
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let site = dir.path().join("site");
    let card = open(&site.join("pairs/102.html"));
    assert!(card.contains("<html lang=\"pl\">"));
    // `<script>` is text: the page has no script element, and its text has the name.
    assert!(!card.contains("<script"), "a name became markup:\n{card}");
    assert!(text(&card).contains("\\u{1F0A1} <script> – `raw` @label"));
    let board = open(&site.join("boards/S1-1.html"));
    let t = text(&board);
    for s in [
        "#read(\"/etc/passwd\") – ]#set page(width: 1pt)[",
        "]#set text(size: 100pt)[",
        "#eval(\"1+1\")",
        "Zażółć Gęślą",
        "אסף עמית",
    ] {
        assert!(
            t.contains(s) || text(&open(&site.join("index.html"))).contains(s),
            "{s:?} not shown literally"
        );
    }
    // No file of the site holds an unescaped angle bracket from a name.
    for e in walk(&site) {
        let html = std::fs::read_to_string(&e).unwrap();
        assert!(!html.contains("<script"), "{}", e.display());
    }
    let rulings = text(&open(&site.join("rulings.html")));
    assert!(rulings.contains("]#set text(size: 100pt)["));
    assert!(rulings.contains("Orzeczenia"));
}

#[test]
fn an_invalid_log_writes_no_site() {
    let dir = tmp("site-invalid");
    std::fs::write(
        dir.path().join("bad.jsonl"),
        "{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\",\"boards\":\"1-2\"}\n{\"type\":\"result\"}\n",
    )
    .unwrap();
    let o = run_in(dir.path(), &["site", "bad.jsonl", "--out", "site"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("line 2"),
        "{}",
        show(&o)
    );
    assert!(!dir.path().join("site").exists(), "something was written");
}

/// A pair whose exact running sum is beyond i128 (eight weighted rulings of coprime
/// denominators near a million: tests/data/overflow-i128.jsonl) gets its site, the view model
/// summing floats where scoring's `Total` does (issue 21 item 5: the leaders' chart summed
/// exact rationals and panicked "exact arithmetic overflowed i128" in `report::model::build`).
/// By hand: on each board pair 3's ruling is w·(-100) + (1-w)·(+620) with w = 1/p; against
/// the other two tables' -100 and +620 its -100 scores 1 of 4 and its +620 scores 3 of 4, so
/// 3 - 2/p a board, 24 - 2·Σ1/p ≈ 23.99998 over the eight, shown as 24 (75.00%).
#[test]
fn sums_beyond_i128_are_shown_not_a_panic() {
    let dir = tmp("site-overflow");
    let log = common::root().join("tests/data/overflow-i128.jsonl");
    let o = run_in(
        dir.path(),
        &["site", log.to_str().unwrap(), "--out", "site"],
    );
    assert!(o.status.success(), "{}", show(&o));
    let card = std::fs::read_to_string(dir.path().join("site/pairs/3.html")).unwrap();
    assert!(
        text(&card).contains("total 24"),
        "pair 3's scorecard: {}",
        text(&card)
    );
    let session = std::fs::read_to_string(dir.path().join("site/sessions/S1.html")).unwrap();
    let row = table(&session, "class=\"standings\"")
        .into_iter()
        .find(|r| r.get(1).is_some_and(|c| c == "3"))
        .expect("pair 3 in the standings");
    assert_eq!(row[3], "24.00", "{row:?}");
    assert_eq!(row[4], "75.00", "{row:?}");
}

/// A field of 1,440 pairs (issue 21 item 5, scaled down): standings, the index's scorecards and
/// the rulings are paged, the movers under a ruling and a board's adjusted scores cut, so no
/// page is over 1 MB; every page of the paged pages is valid and every link leads to a page.
#[test]
fn a_big_field_is_paged_and_no_page_is_over_a_megabyte() {
    let dir = tmp("site-paged");
    let o = run_in(
        dir.path(),
        &[
            "synth",
            "-q",
            "--form",
            "mp",
            "--compare",
            "field",
            "--sections",
            "60",
            "--tables",
            "12",
            "--boards",
            "24",
            "--rulings",
            "0.01",
            "--seed",
            "7",
            "--out",
            "big.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(dir.path(), &["site", "big.jsonl", "--out", "site"]);
    assert!(o.status.success(), "{}", show(&o));
    let site = dir.path().join("site");
    for f in walk(&site) {
        let size = std::fs::metadata(&f).unwrap().len();
        assert!(size <= 1_000_000, "{}: {size} bytes", f.display());
    }
    // 1,440 pairs at 1,000 rows a page; about 288 rulings at 200 a page.
    for p in ["sessions/S1-p2.html", "overall-p2.html", "rulings-p2.html"] {
        let page = site.join(p);
        assert!(page.is_file(), "{p} missing");
        let o = Command::new("tidy")
            .args(["-errors", "-q"])
            .arg(&page)
            .output()
            .expect("tidy (Debian's, installed by scripts/test.sh)");
        assert_eq!(o.status.code(), Some(0), "{p}: tidy says {}", show(&o));
        let html = std::fs::read_to_string(&page).unwrap();
        for l in links(&html) {
            let to = page.parent().unwrap().join(l.split('#').next().unwrap());
            assert!(to.is_file(), "{p}: a link to {l}, which is not there");
        }
    }
}
