//! The PDF bulletin laid out as a bulletin (issue 21 item 6), read back with pdftotext page by
//! page: the cover names the winners, the contents follow, a board's heading is on the page of
//! its hand diagram and results, contracts carry suit symbols, the pairs demo fits in 60 pages,
//! and the teams demo is shown as match sheets under "Team" standings. Expected values are
//! worked by hand (scores, IMPs and the WBF VP scale), not copied from frekans's output.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

mod common;

/// Render a demo's bulletin once per test binary; its PDF's path.
fn bulletin(name: &str, lang: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "frekans-layout-test-{name}-{lang}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    let log = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("events/{name}.jsonl"));
    let o = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .arg("bulletin")
        .arg(&log)
        .args(["--out", d.to_str().unwrap(), "--lang", lang])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    d.join("bulletin.pdf")
}

/// Each page's text (pdftotext -layout), in page order.
fn pages(pdf: &Path) -> Vec<String> {
    let t = common::pdftotext(pdf);
    let mut p: Vec<String> = t.split('\u{c}').map(str::to_string).collect();
    if p.last().is_some_and(|l| l.trim().is_empty()) {
        p.pop();
    }
    p
}

fn pairs() -> &'static Vec<String> {
    static P: OnceLock<Vec<String>> = OnceLock::new();
    P.get_or_init(|| pages(&bulletin("mazovia-pairs-2026", "en")))
}

fn teams() -> &'static Vec<String> {
    static P: OnceLock<Vec<String>> = OnceLock::new();
    P.get_or_init(|| pages(&bulletin("polish-teams-2026", "en")))
}

/// Lines that are a board's heading (`Board 12` alone at the start of its line).
fn board_headings(page: &str) -> Vec<(usize, u32)> {
    page.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let rest = l.trim_start().strip_prefix("Board ")?;
            let n: u32 = rest.trim_end().parse().ok()?;
            Some((i, n))
        })
        .collect()
}

#[test]
fn pairs_demo_fits_in_sixty_pages_with_a_cover_and_contents() {
    let p = pairs();
    assert!(p.len() <= 60, "{} pages", p.len());
    // The cover: the championship, its overall winner (B14, 61.18% overall: the demo's
    // README) and each session's winners.
    let cover = &p[0];
    assert!(
        cover.contains("Mazovian Pairs Championship 2026"),
        "{cover}"
    );
    assert!(cover.contains("Winners"), "{cover}");
    assert!(
        cover.contains("Michał Chmielewski – Dariusz Ślęzak"),
        "{cover}"
    );
    assert!(!cover.contains("Board "), "the cover holds no board");
    // The contents, on the next page, name each session, the overall standings and rulings
    // with their page numbers.
    let toc = &p[1];
    assert!(toc.contains("Contents"), "{toc}");
    for s in [
        "Session S1",
        "Session S2",
        "Session S3",
        "Overall standings",
        "Rulings",
    ] {
        let line = toc.lines().find(|l| l.contains(s)).unwrap_or_else(|| {
            panic!("{s} not in the contents:\n{toc}");
        });
        let page: usize = line
            .split_whitespace()
            .last()
            .and_then(|x| x.trim_matches(|c: char| !c.is_ascii_digit()).parse().ok())
            .unwrap_or_else(|| panic!("no page number: {line}"));
        assert!(
            p[page - 1].contains(s),
            "contents: {s} on page {page}, not there"
        );
    }
}

#[test]
fn every_board_heading_is_on_the_page_of_its_diagram_and_results() {
    let p = pairs();
    let mut seen = 0;
    for (k, page) in p.iter().enumerate() {
        let heads = board_headings(page);
        let lines: Vec<&str> = page.lines().collect();
        for (j, &(at, n)) in heads.iter().enumerate() {
            let end = heads.get(j + 1).map_or(lines.len(), |h| h.0);
            let body = lines[at..end].join("\n");
            // The deal's dealer line, its double-dummy par and a traveller's header follow the
            // heading on the same page.
            for want in ["Dealer", "Par ", "Contract"] {
                assert!(
                    body.contains(want),
                    "page {}: board {n}'s heading without {want:?} after it:\n{body}",
                    k + 1
                );
            }
            seen += 1;
        }
    }
    // One heading per deal: 26 + 26 deals in the two sessions of two sections (the sections
    // play the same deals), 20 in the side event.
    assert_eq!(seen, 72);
}

#[test]
fn contracts_are_printed_with_suit_symbols() {
    let all = pairs().join("\n");
    // Board 5 of session 1, section A: 4S by North making 11 tricks, NS vulnerable: +650.
    assert!(all.contains("4♠ N +1"), "no 4♠ N +1");
    for sym in ["♥", "♦", "♣", "NT"] {
        assert!(all.contains(sym), "{sym} missing");
    }
    // No contract left in letters on the pages the bulletin lays out (the rulings' notes are
    // the directors' own text, printed as typed).
    let laid_out: String = pairs()
        .iter()
        .filter(|p| {
            !p.lines()
                .next()
                .unwrap_or("")
                .trim_end()
                .ends_with("Rulings")
        })
        .cloned()
        .collect();
    assert!(laid_out.len() < all.len(), "no rulings pages found");
    let letters = regex_lite(&laid_out);
    assert!(letters.is_empty(), "contracts in letters: {letters:?}");
}

/// Contracts spelled with suit letters (`4S N`, `3HX`): a level 1–7, a suit letter, then a
/// space or `X`.
fn regex_lite(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for i in 1..c.len().saturating_sub(1) {
        let before = if i >= 2 { c[i - 2] } else { ' ' };
        if ('1'..='7').contains(&c[i - 1])
            && !before.is_alphanumeric()
            && "SHDC".contains(c[i])
            && (c[i + 1] == ' ' || c[i + 1] == 'X')
        {
            out.push(
                c[i.saturating_sub(1)..(i + 4).min(c.len())]
                    .iter()
                    .collect(),
            );
        }
    }
    out
}

#[test]
fn teams_demo_is_match_sheets_under_team_standings() {
    let p = teams();
    assert!(p.len() <= 60, "{} pages (185 before the layout)", p.len());
    let all = p.join("\n");
    // Standings of teams say Team, never Pair.
    let standings = p
        .iter()
        .find(|t| t.contains("Standings") && t.contains("Gryf Szczecin"))
        .expect("a standings page");
    assert!(standings.contains("Team"), "{standings}");
    assert!(!all.contains("Pair"), "a teams bulletin says Pair");
    assert!(all.contains("Match sheets"));
    // Match R1M1 (T1 home, T8 away), board 2, NS vulnerable: 3NT doubled +1 by South in the
    // open room, +950 (trick score 200 + game 500 + insult 50 + doubled overtrick 200); 3NT
    // one down in the closed room, -100; the difference 1050 is 14 IMPs to T1, and T1 leads
    // by 5 + 14 = 19 after board 1's 5 IMPs (+50 against -140: 190, 5 IMPs).
    let row = all
        .lines()
        .find(|l| l.contains("3NT× S +1") && l.contains("+950") && l.contains("3NT S -1"))
        .expect("R1M1 board 2 on its match sheet");
    let nums: Vec<&str> = row.split_whitespace().collect();
    for want in ["-100", "+14", "-14", "+19", "-19"] {
        assert!(nums.contains(&want), "{want} not in {row:?}");
    }
    // R1M1 ends 4 IMPs to T1 over 14 boards: the WBF continuous scale gives
    // 10 + 10 (1 - τ^(3·4/(15√14))) / (1 - τ³) = 11.28 VPs, and 8.72 to T8.
    let vps = all
        .lines()
        .find(|l| l.trim_start().starts_with("VPs") && l.contains("11.28"))
        .expect("R1M1's VPs on its sheet");
    assert!(vps.contains("8.72"), "{vps}");
    // No page per board and match: a deal's heading appears once per session's deal (98 in
    // the round robin, 28 in the final), each with every room that played it.
    let heads: usize = p.iter().map(|t| board_headings(t).len()).sum();
    assert_eq!(heads, 98 + 28);
}

#[test]
fn polish_teams_bulletin_says_druzyna() {
    let p = pages(&bulletin("polish-teams-2026", "pl"));
    let all = p.join("\n");
    assert!(all.contains("Drużyna"), "no Drużyna");
    assert!(all.contains("Spis treści"));
    assert!(all.contains("Protokoły meczów"));
    assert!(!all.contains("Para "), "a Polish teams bulletin says Para");
}
