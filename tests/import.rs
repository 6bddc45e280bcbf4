//! `frekans import`: results files of other programs (PBN, CSV) → an event log that passes
//! `frekans check` and scores the values the files publish (their MP columns) or values worked
//! by hand; bad input refused with its file and line, exit 2, nothing written; `--append`
//! durable and all or nothing.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;
// The Parquet tables read back (polars): only the tests that read them link it.
#[path = "common/frames.rs"]
mod frames;

use std::path::{Path, PathBuf};
use std::process::Command;

use frames::{floats, frame, ints, strs};

use frekans::app::load_bytes;
use frekans::export::rows::build;
use frekans::pipeline;
use frekans::replay::ReplayScope;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_frekans")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/import")
        .join(name)
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("frekans-import-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(bin())
        .args(args)
        .env(
            "FREKANS_AUDIT_CACHE",
            std::env::temp_dir().join("frekans-import-cache"),
        )
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Import `files` into a new log in `dir`, check it with `frekans check`, return its path.
fn import(dir: &Path, files: &[PathBuf], extra: &[&str]) -> PathBuf {
    let log = dir.join("log.jsonl");
    let mut args = vec!["import"];
    args.extend(files.iter().map(|f| s(f)));
    args.extend(["--out", s(&log)]);
    args.extend(extra);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "import failed: {out}{err}");
    let (code, out, err) = run(&["check", s(&log)]);
    assert_eq!(code, 0, "the imported log fails check: {out}{err}");
    log
}

/// (session, board, participant, side) → (score, pct) of the log as scored.
fn scores(log: &Path) -> Vec<(String, u32, String, String, f64, Option<f64>)> {
    let bytes = std::fs::read(log).unwrap();
    let l = load_bytes(&bytes, &ReplayScope::default()).unwrap();
    let scored = pipeline::score(&l.state).unwrap();
    let t = build(&l.state, &scored);
    t.scores
        .iter()
        .map(|r| {
            (
                r.session.clone(),
                r.board as u32,
                r.participant.clone(),
                r.side.to_string(),
                r.score,
                r.pct,
            )
        })
        .collect()
}

fn score_of(
    rows: &[(String, u32, String, String, f64, Option<f64>)],
    session: &str,
    board: u32,
    participant: &str,
) -> f64 {
    rows.iter()
        .find(|r| r.0 == session && r.1 == board && r.2 == participant)
        .unwrap_or_else(|| panic!("no score for {participant} on board {board} of {session}"))
        .4
}

fn events(log: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The constructed PBN 2.1 sample of the spec: 3 results Neuberg-factored to 4 tables and an
/// artificial `^` row; every value against the file's own MP columns (rounded to 0.01 there).
#[test]
fn constructed_sample_scores_its_published_matchpoints() {
    let dir = tmp("constructed");
    let log = import(&dir, &[data("constructed.pbn")], &[]);
    let rows = scores(&log);
    // NS and EW pairs are each numbered from 1 (table 1: 1 v 1): ids 1NS, 1EW.
    for (p, mp) in [
        ("1NS", 5.67),
        ("1EW", 0.33),
        ("2NS", 0.33),
        ("2EW", 5.67),
        ("3NS", 3.00),
        ("3EW", 3.00),
        ("4NS", 3.6),
        ("4EW", 2.4),
    ] {
        let got = score_of(&rows, "S1", 1, p);
        assert!((got - mp).abs() < 0.006, "{p}: {got}, the file says {mp}");
    }
    let ev = events(&log);
    let ruling = ev.iter().find(|e| e["type"] == "ruling").unwrap();
    assert_eq!(ruling["score"], "A+/A-");
    assert_eq!(ruling["law"], "12C");
    assert!(ruling["note"].as_str().unwrap().starts_with("imported: "));
    let deal = ev.iter().find(|e| e["type"] == "deal").unwrap();
    assert_eq!(deal["dealer"], "N");
    assert_eq!(deal["vul"], "None");
    let session = ev.iter().find(|e| e["type"] == "session").unwrap();
    assert_eq!(session["form"], "mp");
    // Every line as `frekans append` writes it: seq and hash.
    for (i, e) in ev.iter().enumerate() {
        assert_eq!(e["seq"], i + 1);
        assert_eq!(e["hash"].as_str().unwrap().len(), 64);
    }
}

/// A Magic-Contest-shaped file (Latin-1, CRLF, `"A+" "A-"`, `3D*`, `4Sx`, `PO`, `#`): the
/// published MP columns, and the names of its TotalScoreTable read as Latin-1.
#[test]
fn magic_contest_shape_latin1_crlf() {
    let dir = tmp("magic");
    let log = import(&dir, &[data("magic.pbn")], &[]);
    let rows = scores(&log);
    for (b, p, mp) in [
        (1, "1", 5.67),
        (1, "11", 0.33),
        (1, "2", 3.0),
        (1, "3", 0.33),
        (1, "4", 3.6),
        (1, "14", 2.4),
        (2, "1", 0.0),
        (2, "2", 2.0),
        (2, "3", 4.0),
        (2, "4", 6.0),
        (2, "11", 0.0),
    ] {
        let got = score_of(&rows, "S1", b, p);
        assert!(
            (got - mp).abs() < 0.006,
            "board {b} pair {p}: {got}, the file says {mp}"
        );
    }
    let ev = events(&log);
    let pair1 = ev
        .iter()
        .find(|e| e["type"] == "pair" && e["id"] == "1")
        .unwrap();
    assert_eq!(
        pair1["players"],
        serde_json::json!(["Hélène Dupont", "José Martín"])
    );
    let champ = &ev[0];
    assert_eq!(champ["type"], "championship");
    assert_eq!(champ["name"], "Tournoi de régularité");
    assert_eq!(champ["date"], "2026-11-20");
    let r = ev
        .iter()
        .find(|e| e["type"] == "result" && e["board"] == 1 && e["ns"] == "2")
        .unwrap();
    assert_eq!(r["contract"], "3DX");
    assert_eq!(r["declarer"], "E");
    assert_eq!(r["tricks"], 8);
    let po = ev
        .iter()
        .find(|e| e["type"] == "result" && e["board"] == 1 && e["ns"] == "3")
        .unwrap();
    assert_eq!(po["contract"], "PASS");
}

/// A frequency table with Multiplicity (`##` scoring) and a traveller with `A A A` and `PO`:
/// values worked by hand (see the file's header).
#[test]
fn frequency_table_and_bridgewebs_tokens() {
    let dir = tmp("webs");
    let log = import(&dir, &[data("webs.pbn")], &[]);
    let rows = scores(&log);
    let board3: Vec<f64> = rows
        .iter()
        .filter(|r| r.1 == 3 && r.3 == "NS")
        .map(|r| r.4)
        .collect();
    let mut b3 = board3.clone();
    b3.sort_by(f64::total_cmp);
    assert_eq!(b3, [1.0, 1.0, 4.0, 7.0, 7.0]);
    // Board 4: 4 results in a field of 5 (Neuberg: 7.75, 5.25, 2.75, 0.25; top 8), A = 4.
    for (p, mp) in [
        ("1", 7.75),
        ("7", 5.25),
        ("3", 2.75),
        ("5", 0.25),
        ("9", 4.0),
        ("10", 4.0),
    ] {
        let got = score_of(&rows, "S1", 4, p);
        assert!((got - mp).abs() < 1e-9, "pair {p}: {got}, by hand {mp}");
    }
    let ev = events(&log);
    let ruling = ev.iter().find(|e| e["type"] == "ruling").unwrap();
    assert_eq!(ruling["score"], "A/A");
    assert_eq!(ruling["note"], "imported: A A A");
}

/// Two files make two sessions of one log (the same file named twice is read once); a pair
/// declared with other names in the second is an error naming both places.
#[test]
fn several_files_several_sessions() {
    let dir = tmp("two");
    let night2 = dir.join("night2.pbn");
    let mut text = std::fs::read(data("magic.pbn")).unwrap();
    text.extend_from_slice(b"\n% the second night\n");
    std::fs::write(&night2, text).unwrap();
    let log = import(&dir, &[data("magic.pbn"), night2, data("magic.pbn")], &[]);
    let ev = events(&log);
    let sessions: Vec<_> = ev
        .iter()
        .filter(|e| e["type"] == "session")
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sessions, ["S1", "S2"]);
    assert_eq!(ev.iter().filter(|e| e["type"] == "pair").count(), 8);
    let other = dir.join("other.pbn");
    let text = std::fs::read(data("magic.pbn")).unwrap();
    let text = String::from_utf8_lossy(&text).replace("Anne Roux", "Eve Roux");
    std::fs::write(&other, text).unwrap();
    let out = dir.join("bad.jsonl");
    let (code, _, err) = run(&["import", s(&data("magic.pbn")), s(&other), "--out", s(&out)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("pair 2 is declared differently"), "{err}");
    assert!(!out.exists());
}

/// Bad input: each problem with its file and line, exit 2, nothing written.
#[test]
fn bad_pbn_names_file_and_line() {
    let dir = tmp("bad");
    let cases: [(&str, &str, &str); 5] = [
        // 4S by N with 9 tricks is -50, not 420.
        (
            "[Board \"1\"]\n[Scoring \"MP\"]\n[ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS\"]\n1 2 4S N 10 420\n3 4 4S N 9 420\n",
            "line 5",
            "contradicts",
        ),
        ("[Board \"1\"]\n[Deal \"N:AKQ\"\n", "line 2", "not closed"),
        (
            "[Board \"1\"]\n[Scoring \"MP\"]\n[ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result\"]\n1 2 4S N\n",
            "line 4",
            "tokens",
        ),
        (
            "[Board \"1\"]\n[Scoring \"MP\"]\n[ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result\"]\n1 2 4S N 10\n1 3 3S N 9\n",
            "line 5",
            "twice",
        ),
        (
            "[Board \"x\"]\n[Scoring \"MP\"]\n[ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result\"]\n1 2 4S N 10\n",
            "line 1",
            "[Board]",
        ),
    ];
    for (i, (text, at, what)) in cases.iter().enumerate() {
        let f = dir.join(format!("bad{i}.pbn"));
        std::fs::write(&f, text).unwrap();
        let out = dir.join(format!("bad{i}.jsonl"));
        let (code, _, err) = run(&["import", s(&f), "--out", s(&out)]);
        assert_eq!(code, 2, "case {i}: {err}");
        assert!(
            err.contains(&format!("{}: {at}: ", f.display())),
            "case {i}: {err}"
        );
        assert!(err.contains(what), "case {i}: {err}");
        assert!(!out.exists(), "case {i}: a log was written");
    }
    // An existing file is never replaced.
    let out = dir.join("exists.jsonl");
    std::fs::write(&out, "keep").unwrap();
    let (code, _, err) = run(&["import", s(&data("magic.pbn")), "--out", s(&out)]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep");
}

/// `--append`: the file's session after the log's, with seq and the chain carried on; a file
/// whose pair 2 is another pair is refused and the log left as it was.
#[test]
fn append_adds_a_session_or_nothing() {
    let dir = tmp("append");
    let log = import(&dir, &[data("magic.pbn")], &[]);
    // The same file again (a second run after a crash, say): recognised, nothing added.
    let before = std::fs::read(&log).unwrap();
    let (code, out, err) = run(&["import", s(&data("magic.pbn")), "--append", s(&log)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("S1 (already in the log"), "{out}");
    assert!(out.contains("nothing new"), "{out}");
    assert_eq!(std::fs::read(&log).unwrap(), before, "the log changed");
    // Another night's file (other bytes, the same pairs): a second session.
    let night2 = dir.join("night2.pbn");
    let mut text = std::fs::read(data("magic.pbn")).unwrap();
    text.extend_from_slice(b"\n% the second night\n");
    std::fs::write(&night2, text).unwrap();
    let (code, out, err) = run(&["import", s(&night2), "--append", s(&log)]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(&["check", s(&log)]);
    assert_eq!(code, 0, "{out}{err}");
    let ev = events(&log);
    assert_eq!(ev.iter().filter(|e| e["type"] == "session").count(), 2);
    assert_eq!(
        ev.iter().filter(|e| e["type"] == "pair").count(),
        8,
        "pairs declared once"
    );
    assert_eq!(ev.iter().filter(|e| e["type"] == "championship").count(), 1);
    let rows = scores(&log);
    assert!((score_of(&rows, "S2", 1, "1") - 5.67).abs() < 0.006);
    let before = std::fs::read(&log).unwrap();
    let other = dir.join("other.pbn");
    let text = String::from_utf8_lossy(&std::fs::read(data("magic.pbn")).unwrap())
        .replace("Anne Roux", "Eve Roux");
    std::fs::write(&other, text).unwrap();
    let (code, _, err) = run(&["import", s(&other), "--append", s(&log)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not the log's pair 2"), "{err}");
    assert_eq!(std::fs::read(&log).unwrap(), before, "the log changed");
    // A bad row: refused, the log untouched.
    let bad = dir.join("bad.pbn");
    std::fs::write(&bad, "[Board \"1\"]\n[Scoring \"MP\"]\n[ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS\"]\n1 2 4S N 9 420\n").unwrap();
    let (code, _, err) = run(&["import", s(&bad), "--append", s(&log)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.pbn: line 4: "), "{err}");
    assert_eq!(std::fs::read(&log).unwrap(), before, "the log changed");
}

/// A spreadsheet: the default layout and a mapped one, scored by hand.
#[test]
fn csv_default_and_mapped_layouts() {
    let dir = tmp("csv");
    let f = dir.join("t.csv");
    // Board 1 (None vul): 420, 170, -50, A6040 → NS 4.5 ... worked below.
    std::fs::write(
        &f,
        "session,section,board,ns,ew,contract,declarer,tricks,score,ns_players\n\
         1,A,1,1,11,4S,N,10,,Anna - Jan\n\
         1,A,1,2,12,3S,N,9,140,\n\
         1,A,1,3,13,4S,N,9,-50,\n\
         1,A,1,4,14,4S,N,11,450,\n\
         1,A,1,5,15,,,,A6040,\n",
    )
    .unwrap();
    let log = import(&dir, &[f], &["--form", "mp"]);
    let rows = scores(&log);
    // Four results (450, 420, 140, -50) in a field of 5, top 8: 6,4,2,0 raw → Neuberg
    // (r+1)*5/4-1 = 7.75, 5.25, 2.75, 0.25; A+ = 60% of 8 = 4.8.
    for (p, mp) in [
        ("4", 7.75),
        ("1", 5.25),
        ("2", 2.75),
        ("3", 0.25),
        ("5", 4.8),
        ("15", 3.2),
    ] {
        let got = score_of(&rows, "S1", 1, p);
        assert!((got - mp).abs() < 1e-9, "pair {p}: {got}, by hand {mp}");
    }
    let ev = events(&log);
    let p1 = ev
        .iter()
        .find(|e| e["type"] == "pair" && e["id"] == "1")
        .unwrap();
    assert_eq!(p1["players"], serde_json::json!(["Anna", "Jan"]));
    assert_eq!(p1["section"], "A");

    let g = dir.join("g.csv");
    std::fs::write(
        &g,
        "Brd;NS;EW;Bid;By;Res\n1;1;2;3NT;S;=\n1;3;4;3NT;S;+1\n1;5;6;3NT;S;-1\n1;7;8;3NT;S;=\n",
    )
    .unwrap();
    let dir2 = tmp("csv2");
    let log = import(
        &dir2,
        std::slice::from_ref(&g),
        &[
            "--format",
            "csv",
            "--form",
            "mp",
            "--columns",
            "board=Brd,ns=NS,ew=EW,contract=Bid,declarer=By,result=Res",
        ],
    );
    let rows = scores(&log);
    // 430 beats 3 → 6; 400 and 400 tie → 3 each; -50 → 0.
    for (p, mp) in [("3", 6.0), ("1", 3.0), ("7", 3.0), ("5", 0.0)] {
        assert_eq!(score_of(&rows, "S1", 1, p), mp, "pair {p}");
    }
    // A row whose score contradicts its contract: its line named.
    let h = dir.join("h.csv");
    std::fs::write(
        &h,
        "board,ns,ew,contract,declarer,tricks,score\n1,1,2,4S,N,10,420\n1,3,4,4S,N,10,450\n",
    )
    .unwrap();
    let out = dir.join("h.jsonl");
    let (code, _, err) = run(&[
        "import",
        s(&h),
        "--format",
        "csv",
        "--form",
        "mp",
        "--out",
        s(&out),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("h.csv: line 3: "), "{err}");
    assert!(!out.exists());
}

/// The readers on thousands of damaged copies of the test files (bytes changed, lines cut,
/// files truncated): never a panic, every problem at a line of the file. (The fuzz targets
/// `import_pbn` and `import_csv` do this at length.)
#[test]
fn damaged_files_never_panic() {
    let mut rng = frekans::synth::Rng::new(18);
    let req = frekans::import::Request {
        form: Some("mp".into()),
        ..Default::default()
    };
    let files = [
        "constructed.pbn",
        "magic.pbn",
        "webs.pbn",
        "travellers.csv",
        "vugraph-teams.pbn",
        "pairs-games.pbn",
        "bc-handrecord.pbn",
    ];
    let alphabet: &[u8] = b" \n\r\t\"#%[]{};-?^*ANSEWx0123456789.,=+\xe9\xff";
    for name in files {
        let original = std::fs::read(data(name)).unwrap();
        for _ in 0..3000 {
            let mut b = original.clone();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(b.len() as u32) as usize;
                match rng.below(4) {
                    0 => b[i] = alphabet[rng.below(alphabet.len() as u32) as usize],
                    1 => {
                        b.remove(i);
                    }
                    2 => b.insert(i, alphabet[rng.below(alphabet.len() as u32) as usize]),
                    _ => b.truncate(i),
                }
                if b.is_empty() {
                    break;
                }
            }
            let lines = b.split(|&c| c == b'\n').count();
            let r = if name.ends_with(".csv") {
                frekans::import::csv::read(&b, name, &req)
            } else {
                frekans::import::pbn::read(&b, name, &req)
            };
            if let Err(ps) = r {
                for p in ps {
                    if let Some(n) = p.at.strip_prefix("line ") {
                        let n: usize = n.parse().unwrap();
                        assert!(n >= 1 && n <= lines + 1, "{p} ({lines} lines)");
                    }
                }
            }
        }
    }
}

/// `synth --format pbn` writes a file `import` reads back to the same results as the log
/// `synth` writes with the same seed.
#[test]
fn synth_pbn_imports_to_the_synth_log() {
    let dir = tmp("synth");
    let pbn = dir.join("s.pbn");
    let jsonl = dir.join("s.jsonl");
    let common = [
        "--sections",
        "2",
        "--tables",
        "5",
        "--boards",
        "4",
        "--rulings",
        "0",
        "--corrections",
        "0",
        "--seed",
        "9",
    ];
    let mut a = vec!["synth", "--format", "pbn", "--out", s(&pbn)];
    a.extend(common);
    let (code, _, err) = run(&a);
    assert_eq!(code, 0, "{err}");
    let mut a = vec!["synth", "--out", s(&jsonl)];
    a.extend(common);
    let (code, _, err) = run(&a);
    assert_eq!(code, 0, "{err}");
    let log = import(&dir, &[pbn], &[]);
    let key = |e: &serde_json::Value| {
        (
            e["board"].as_u64().unwrap(),
            e["ns"].as_str().unwrap().to_string(),
            e["ew"].as_str().unwrap().to_string(),
            e["contract"].as_str().unwrap().to_string(),
            e.get("declarer")
                .and_then(|d| d.as_str())
                .map(str::to_string),
            e.get("tricks").and_then(|d| d.as_u64()).or_else(|| {
                // (synth writes some results as "+1", "=", "-2")
                let off = frekans::bridge::parse_result_offset(e.get("result")?.as_str()?).ok()?;
                match frekans::bridge::parse_contract(e["contract"].as_str()?).ok()? {
                    frekans::bridge::Bid::Contract(c) => c.tricks_for_offset(off).map(u64::from),
                    frekans::bridge::Bid::Pass => None,
                }
            }),
        )
    };
    let results = |p: &Path| {
        let mut v: Vec<_> = events(p)
            .iter()
            .filter(|e| e["type"] == "result")
            .map(key)
            .collect();
        v.sort();
        v
    };
    let got = results(&log);
    assert_eq!(got.len(), 2 * 5 * 4);
    assert_eq!(got, results(&jsonl));
}

/// A small USEBIO pairs file (Pianola's layout) of board 1 at two tables; `line2` is the second
/// traveller line's play and score.
fn usebio_with(line2: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="iso-8859-1"?>
<USEBIO Version="1.2">
  <EVENT EVENT_TYPE="PAIRS">
    <BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>
    <PROGRAM_NAME>Pianola</PROGRAM_NAME>
    <PARTICIPANTS>
      <PAIR><PAIR_NUMBER>1</PAIR_NUMBER></PAIR>
      <PAIR><PAIR_NUMBER>2</PAIR_NUMBER></PAIR>
      <PAIR><PAIR_NUMBER>3</PAIR_NUMBER></PAIR>
      <PAIR><PAIR_NUMBER>4</PAIR_NUMBER></PAIR>
    </PARTICIPANTS>
    <BOARD>
      <BOARD_NUMBER>1</BOARD_NUMBER>
      <TRAVELLER_LINE>
        <NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>
        <EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
        <CONTRACT>4S</CONTRACT>
        <PLAYED_BY>S</PLAYED_BY>
        <LEAD>D7</LEAD>
        <TRICKS>12</TRICKS>
        <SCORE>480</SCORE>
      </TRAVELLER_LINE>
      <TRAVELLER_LINE>
        <NS_PAIR_NUMBER>3</NS_PAIR_NUMBER>
        <EW_PAIR_NUMBER>4</EW_PAIR_NUMBER>
        {line2}
      </TRAVELLER_LINE>
    </BOARD>
  </EVENT>
</USEBIO>
"#
    )
}

/// Issue 33, slips in real files: a traveller line whose play cannot be read but whose NS
/// score can is taken by its score alone, with a notice naming the file, the line and what could
/// not be read (Pianola's real file writes `<CONTRACT>42</CONTRACT>` beside its right
/// `<SCORE>480</SCORE>`: 4S by S with 12 tricks, not vulnerable, is 480). `--strict` refuses it
/// as before; a line with neither a readable play nor a score is refused; a readable play that
/// contradicts its score is refused. The same in USEBIO, PBN and a spreadsheet.
#[test]
fn slips_are_taken_by_their_score_with_a_notice() {
    let dir = tmp("slips");
    let pbn = |row2: &str| {
        format!(
            "% PBN 2.1\n[Event \"E\"]\n[Board \"1\"]\n[Vulnerable \"None\"]\n[Scoring \"MP\"]\n\
             [ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS\"]\n\
             1 2 4S S 12 480\n{row2}\n"
        )
    };
    let csv = |row2: &str| {
        format!("board,ns,ew,contract,declarer,tricks,score\n1,1,2,4S,S,12,480\n{row2}\n")
    };
    // (format, the file with a slip, without its score, with a play that contradicts its
    // score, where the slip is, the extra flags)
    let cases: [(&str, String, String, String, &str, &[&str]); 3] = [
        (
            "xml",
            usebio_with("<CONTRACT>42</CONTRACT><PLAYED_BY>S</PLAYED_BY><LEAD>DA</LEAD><TRICKS>12</TRICKS><SCORE>480</SCORE>"),
            usebio_with("<CONTRACT>42</CONTRACT><PLAYED_BY>S</PLAYED_BY><TRICKS>12</TRICKS>"),
            usebio_with("<CONTRACT>4S</CONTRACT><PLAYED_BY>S</PLAYED_BY><TRICKS>11</TRICKS><SCORE>480</SCORE>"),
            "USEBIO/EVENT/BOARD[1]/TRAVELLER_LINE[2]/CONTRACT",
            &[],
        ),
        (
            "pbn",
            pbn("3 4 42 S 12 480"),
            pbn("3 4 42 S 12 -"),
            pbn("3 4 4S S 11 480"),
            "line 8",
            &[],
        ),
        (
            "csv",
            csv("1,3,4,42,S,12,480"),
            csv("1,3,4,42,S,12,"),
            csv("1,3,4,4S,S,11,480"),
            "line 3",
            &["--form", "mp"],
        ),
    ];
    for (ext, slip, no_score, contradicts, at, flags) in cases {
        let f = dir.join(format!("slip.{ext}"));
        std::fs::write(&f, &slip).unwrap();
        let log = dir.join(format!("slip-{ext}.jsonl"));
        let mut args = vec!["import", s(&f), "--out", s(&log)];
        args.extend(flags);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{ext}: {out}{err}");
        let all = format!("{out}{err}");
        let notice = format!("notice: {}: {at}: ", f.display());
        assert!(all.contains(&notice), "{ext}: no {notice:?} in {all}");
        assert!(all.contains("\"42\""), "{ext}: {all}");
        assert!(
            all.contains("taken by its score alone (480 for NS)"),
            "{ext}: {all}"
        );
        let (code, out, err) = run(&["check", s(&log)]);
        assert_eq!(code, 0, "{ext}: {out}{err}");
        let ev = events(&log);
        let r = ev
            .iter()
            .find(|e| e["type"] == "result" && e["ns"] == "3")
            .unwrap_or_else(|| panic!("{ext}: no result of pair 3: {ev:?}"));
        assert_eq!(r["score"], 480, "{ext}: {r}");
        assert!(r.get("contract").is_none(), "{ext}: {r}");
        // Scored with the others: 480 against 480, a tie (1 of a top of 2 each).
        let rows = scores(&log);
        assert_eq!(score_of(&rows, "S1", 1, "3"), 1.0, "{ext}");
        // --strict: refused as before, naming the place; nothing written.
        let strict_log = dir.join(format!("strict-{ext}.jsonl"));
        let mut args = vec!["import", s(&f), "--out", s(&strict_log), "--strict"];
        args.extend(flags);
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{ext}: {err}");
        assert!(
            err.contains(&format!("{}: {at}: ", f.display())),
            "{ext}: {err}"
        );
        assert!(err.contains("\"42\""), "{ext}: {err}");
        assert!(!strict_log.exists(), "{ext}");
        // Neither a readable play nor a score, or a play its score contradicts: refused.
        for (what, text, message) in [
            ("no score", &no_score, "\"42\""),
            ("contradicts", &contradicts, "480"),
        ] {
            std::fs::write(&f, text).unwrap();
            let bad_log = dir.join(format!("bad-{ext}.jsonl"));
            let mut args = vec!["import", s(&f), "--out", s(&bad_log)];
            args.extend(flags);
            let (code, _, err) = run(&args);
            assert_eq!(code, 2, "{ext}, {what}: {err}");
            assert!(
                err.contains(&format!("{}: ", f.display())),
                "{ext}, {what}: {err}"
            );
            assert!(err.contains(message), "{ext}, {what}: {err}");
            assert!(!bad_log.exists(), "{ext}, {what}");
        }
    }
}

/// A hand-record file (a dealing machine's, BridgeComposer's: deals, no ScoreTable, no
/// result) is read as `deal` events alone, with no session and no `session` field: the real
/// Big Deal file (zdenecek/pbn, MIT) and a BridgeComposer/Dealer4 hand record of a real club
/// file's shape. Imported beside a results file, the deals join its session.
#[test]
fn hand_records_are_deals_without_a_session() {
    let req = frekans::import::Request::default();
    for (name, boards) in [("bigdeal.pbn", 14), ("bc-handrecord.pbn", 3)] {
        let bytes = std::fs::read(data(name)).unwrap();
        let read = frekans::import::pbn::read(&bytes, name, &req)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(read.events.len(), boards, "{name}: {:?}", read.events);
        for (i, e) in read.events.iter().enumerate() {
            assert_eq!(e["type"], "deal", "{name}: {e}");
            assert_eq!(e["board"], i + 1, "{name}: {e}");
            assert!(e.get("session").is_none(), "{name}: {e}");
            assert!(
                e["dealer"].is_string() && e["vul"].is_string(),
                "{name}: {e}"
            );
        }
    }
    let bc = frekans::import::pbn::read(
        &std::fs::read(data("bc-handrecord.pbn")).unwrap(),
        "bc",
        &req,
    )
    .unwrap();
    // Board 2 as BridgeComposer writes it, from East: the same deal.
    assert_eq!(
        bc.events[1]["pbn"],
        "E:2.KQ98.983.AJ854 AJ98.T765.AKT4.Q QT753.432.5.KT72 K64.AJ.QJ762.963"
    );
    assert_eq!(
        (&bc.events[1]["dealer"], &bc.events[1]["vul"]),
        (&"E".into(), &"NS".into())
    );
    // Beside a results file of boards 1 and 2: their deals join its session.
    let dir = tmp("handrecord");
    let csv = dir.join("t.csv");
    std::fs::write(
        &csv,
        "board,ns,ew,contract,declarer,tricks\n1,1,2,3NT,S,9\n1,3,4,3NT,S,10\n2,1,4,2S,E,8\n2,3,2,3H,N,9\n",
    )
    .unwrap();
    let log = import(&dir, &[csv, data("bc-handrecord.pbn")], &["--form", "mp"]);
    let deals: Vec<_> = events(&log)
        .into_iter()
        .filter(|e| e["type"] == "deal")
        .collect();
    assert_eq!(deals.len(), 2, "{deals:?}");
    assert!(deals.iter().all(|d| d["session"] == "S1"), "{deals:?}");
}

/// PBN games per table, a team match (`[Room]`, `[HomeTeam]`/`[VisitTeam]`: BBO's vugraph
/// shape with a championship record's team tags): imported as teams, one match, each result in
/// its room, then scored by `frekans score`. By hand (the home team Lions NS in the open room,
/// EW in the closed room; IMPs of the home team's net score):
///
/// - board 1 (none vul): open 4S= by N +420, closed 2S+2 by the visitors NS +170: home
///   +420 − 170 = +250 → 6 IMPs to the home team;
/// - board 2 (NS vul): open 3NT−1 −100, closed the visitors' 3NT= +600: home −700 → 12 IMPs
///   to the visitors;
/// - board 3 (EW vul): open 4H= by the visitors E −620, closed 4H+1 by the home team W, NS
///   −650: home −620 + 650 = +30 → 1 IMP;
/// - board 4 (all vul): open passed out 0, closed 1NT= by the home team E (no [Score]: Law 77
///   gives EW +90): home +90 → 3 IMPs.
///
/// Home 6 + 1 + 3 = 10, visitors 12: the match −2 IMPs to the home team.
#[test]
fn team_match_games_score_their_imps() {
    let dir = tmp("vugraph");
    let log = import(&dir, &[data("vugraph-teams.pbn")], &[]);
    let ev = events(&log);
    let session = ev.iter().find(|e| e["type"] == "session").unwrap();
    assert_eq!(session["form"], "teams");
    let teams: Vec<_> = ev.iter().filter(|e| e["type"] == "team").collect();
    assert_eq!(teams.len(), 2);
    assert_eq!(
        (&teams[0]["id"], &teams[0]["name"]),
        (&"T1".into(), &"Lions".into())
    );
    assert_eq!(
        teams[0]["players"],
        serde_json::json!(["Adams", "Baker", "Green", "Hill"])
    );
    assert_eq!(
        teams[1]["players"],
        serde_json::json!(["Clark", "Davis", "Evans", "Ford"])
    );
    let m = ev.iter().find(|e| e["type"] == "match").unwrap();
    assert_eq!(
        (&m["home"], &m["away"], &m["boards"]),
        (&"T1".into(), &"T2".into(), &"1-4".into())
    );
    let closed = ev
        .iter()
        .find(|e| e["type"] == "result" && e["board"] == 3 && e["room"] == "closed")
        .unwrap();
    assert_eq!(
        (&closed["ns"], &closed["declarer"], &closed["tricks"]),
        (&"T2".into(), &"W".into(), &11.into())
    );
    let out = dir.join("out");
    let (code, o, err) = run(&["score", s(&log), "--out", s(&out)]);
    assert_eq!(code, 0, "{o}{err}");
    let sc = frame(&out, "scores");
    let (board, who, score) = (
        ints(&sc, "board"),
        strs(&sc, "participant"),
        floats(&sc, "score"),
    );
    let imps = |b: i32, t: &str| {
        (0..board.len())
            .find(|&i| board[i] == Some(b) && who[i].as_deref() == Some(t))
            .and_then(|i| score[i])
            .unwrap_or_else(|| panic!("no score of {t} on board {b}"))
    };
    for (b, home) in [(1, 6.0), (2, -12.0), (3, 1.0), (4, 3.0)] {
        assert_eq!(imps(b, "T1"), home, "board {b}");
        assert_eq!(imps(b, "T2"), -home, "board {b}");
    }
    let mt = frame(&out, "matches");
    assert_eq!(floats(&mt, "imp_home"), [Some(-2.0)]);
    assert_eq!(floats(&mt, "imp_away"), [Some(2.0)]);

    // BBO's own vugraph games name no teams: the home team is the open room's NS, the
    // visitors its EW; the same IMPs.
    let text = std::fs::read_to_string(data("vugraph-teams.pbn")).unwrap();
    let unnamed: String = text
        .lines()
        .filter(|l| !l.starts_with("[HomeTeam") && !l.starts_with("[VisitTeam"))
        .map(|l| format!("{l}\n"))
        .collect();
    let req = frekans::import::Request::default();
    let read = frekans::import::pbn::read(unnamed.as_bytes(), "bbo.pbn", &req).unwrap();
    let teams: Vec<_> = read.events.iter().filter(|e| e["type"] == "team").collect();
    assert_eq!(teams.len(), 2, "{:?}", read.events);
    assert!(teams.iter().all(|t| t.get("name").is_none()), "{teams:?}");
    let f = dir.join("bbo.pbn");
    std::fs::write(&f, &unnamed).unwrap();
    let dir2 = tmp("vugraph-bbo");
    let log = import(&dir2, &[f], &[]);
    let rows = scores(&log);
    for (b, home) in [(1, 6.0), (2, -12.0), (3, 1.0), (4, 3.0)] {
        assert_eq!(score_of(&rows, "S1", b, "T1"), home, "board {b}");
    }

    // A game of such a file without [Room]: refused, naming its line.
    let lost = text.replacen("[Room \"Closed\"]\n", "", 1);
    let f = dir.join("lost.pbn");
    std::fs::write(&f, &lost).unwrap();
    let (code, _, err) = run(&["import", s(&f), "--out", s(&dir.join("lost.jsonl"))]);
    assert_eq!(code, 2, "{err}");
    let line = 1 + lost.lines().position(|l| l == "[Contract \"2S\"]").unwrap();
    assert!(
        err.contains(&format!("lost.pbn: line {line}: no [Room]")),
        "{err}"
    );

    // A slip in a game (its contract `2` beside its [Score "NS 170"]): the table by its score,
    // with a notice; the same IMPs.
    let slip = text.replacen("[Contract \"2S\"]", "[Contract \"2\"]", 1);
    let f = dir.join("slip.pbn");
    std::fs::write(&f, &slip).unwrap();
    let (code, out, err) = run(&["import", s(&f), "--out", s(&dir.join("slip.jsonl"))]);
    assert_eq!(code, 0, "{out}{err}");
    let line = 1 + slip.lines().position(|l| l == "[Contract \"2\"]").unwrap();
    let notice = format!("notice: {}: line {line}: [Contract]: ", f.display());
    assert!(format!("{out}{err}").contains(&notice), "{out}{err}");
    let rows = scores(&dir.join("slip.jsonl"));
    assert_eq!(score_of(&rows, "S1", 1, "T1"), 6.0);
}

/// PBN games per table without rooms: a pairs session, each pair named in both its seats
/// (pbntools' travellers, `Para-1`). By hand, top 4 (3 results a board, 2 a result beaten):
/// board 1 NS +420, −50, −140 → Para-3 4, Para-1 2, Para-5 0; board 2 (NS vul) 3NT= +600 twice
/// and 3NT−1 −100 → Para-1 3, Para-3 3, Para-5 0; EW the rest of each top.
#[test]
fn pairs_games_score_their_matchpoints() {
    let dir = tmp("pairs-games");
    let log = import(&dir, &[data("pairs-games.pbn")], &[]);
    let ev = events(&log);
    let pairs: Vec<_> = ev
        .iter()
        .filter(|e| e["type"] == "pair")
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        pairs,
        ["Para-1", "Para-2", "Para-3", "Para-4", "Para-5", "Para-6"]
    );
    let rows = scores(&log);
    for (b, p, mp) in [
        (1, "Para-3", 4.0),
        (1, "Para-1", 2.0),
        (1, "Para-5", 0.0),
        (1, "Para-4", 0.0),
        (1, "Para-2", 2.0),
        (1, "Para-6", 4.0),
        (2, "Para-1", 3.0),
        (2, "Para-3", 3.0),
        (2, "Para-5", 0.0),
        (2, "Para-4", 1.0),
        (2, "Para-6", 1.0),
        (2, "Para-2", 4.0),
    ] {
        assert_eq!(score_of(&rows, "S1", b, p), mp, "board {b} pair {p}");
    }
    // Players named one by one (BBO's pairs games): each pair numbered as met, its players.
    let text = std::fs::read_to_string(data("pairs-games.pbn")).unwrap();
    let named = text
        .replace("[North \"Para-1\"]", "[North \"Ann\"]")
        .replace("[South \"Para-1\"]", "[South \"Bob\"]");
    let req = frekans::import::Request::default();
    let read = frekans::import::pbn::read(named.as_bytes(), "named.pbn", &req).unwrap();
    let first = read.events.iter().find(|e| e["type"] == "pair").unwrap();
    assert_eq!(
        (&first["id"], &first["players"]),
        (&"1".into(), &serde_json::json!(["Ann", "Bob"]))
    );
}

/// Issue 34: a spreadsheet whose quote is never closed imported 1 result of 6 with exit 0 (the
/// other rows inside a player's name). It is refused at the line the quote opened on; a quote
/// closed further down (CSV's rule: the lines between are the cell's) imports every row CSV
/// reads and says which lines went into the cell, and `--strict` refuses it.
#[test]
fn an_unbalanced_csv_quote_loses_no_row_silently() {
    let dir = tmp("csv-quote");
    let rows = |r2: &str, r5: &str| {
        format!(
            "board,ns,ew,contract,declarer,tricks,ns_players\n\
             1,1,11,4S,N,10,Anna - Jan\n\
             1,2,12,3S,N,9,{r2}\n\
             1,3,13,4S,N,9,\n\
             1,4,14,4S,N,11,\n\
             1,5,15,4S,N,10,{r5}\n\
             1,6,16,4S,N,8,\n"
        )
    };
    let f = dir.join("q.csv");
    std::fs::write(&f, rows("\"Ewa - Olga", "")).unwrap();
    let log = dir.join("q.jsonl");
    let args = ["import", s(&f), "--out", s(&log), "--form", "mp"];
    let (code, out, err) = run(&args);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("q.csv: line 3: a quote (\") opened on this line is never closed")
            && err.contains("4 more lines"),
        "{err}"
    );
    assert!(!log.exists());
    // Closed on line 6: rows 4 and 5 are inside the cell (as CSV reads it), and said.
    std::fs::write(&f, rows("\"Ewa - Olga", "Bob\"")).unwrap();
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}{err}");
    let all = format!("{out}{err}");
    assert!(
        all.contains("q.csv: line 3: a quoted cell opened on line 3 closes on line 6: lines 4-6 are inside it"),
        "{all}"
    );
    let ev = events(&log);
    assert_eq!(ev.iter().filter(|e| e["type"] == "result").count(), 3);
    let strict = dir.join("strict.jsonl");
    let (code, _, err) = run(&[
        "import",
        s(&f),
        "--out",
        s(&strict),
        "--form",
        "mp",
        "--strict",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("q.csv: line 3: a quoted cell opened on line 3 runs to line 6"),
        "{err}"
    );
    assert!(!strict.exists());
    // Balanced quotes, a quote inside a cell: every row, no notice.
    std::fs::write(&f, rows("\"Ewa, Olga\"", "O\"Brien")).unwrap();
    let log2 = dir.join("q2.jsonl");
    let (code, out, err) = run(&["import", s(&f), "--out", s(&log2), "--form", "mp"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!format!("{out}{err}").contains("notice"), "{out}{err}");
    assert_eq!(
        events(&log2)
            .iter()
            .filter(|e| e["type"] == "result")
            .count(),
        6
    );
}

/// Issue 34: a PBN (or a spreadsheet) whose lines mix UTF-8 and Latin-1 (two files pasted
/// together) was read whole as Latin-1, its UTF-8 names garbled (`Å»Ã³Å‚w`) without a word.
/// Each line is read in its own encoding and a notice says so; `--strict` refuses it.
#[test]
fn mixed_encodings_are_said() {
    let dir = tmp("mixed");
    let mut pbn = "% PBN 2.1\n[Event \"Żółw Cup\"]\n[Board \"1\"]\n[Scoring \"MP\"]\n\
                   [ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS\"]\n\
                   1 2 4S S 10 420\n3 4 4S S 9 -50\n"
        .as_bytes()
        .to_vec();
    pbn.extend_from_slice(b"[TotalScoreTable \"PairId;Names\"]\n1 \"Ren\xe9 - Jos\xe9\"\n");
    let f = dir.join("m.pbn");
    std::fs::write(&f, &pbn).unwrap();
    let log = dir.join("m.jsonl");
    let (code, out, err) = run(&["import", s(&f), "--out", s(&log)]);
    assert_eq!(code, 0, "{out}{err}");
    let all = format!("{out}{err}");
    assert!(
        all.contains("m.pbn: line 9: the file mixes encodings: line 2 is UTF-8, but 1 line (the first here) is not UTF-8"),
        "{all}"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("Żółw Cup"), "{text}");
    assert!(text.contains("René") && text.contains("José"), "{text}");
    let strict = dir.join("strict.jsonl");
    let (code, _, err) = run(&["import", s(&f), "--out", s(&strict), "--strict"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("mixes encodings"), "{err}");
    // The same in a spreadsheet.
    let mut csv = "board,ns,ew,contract,declarer,tricks,ns_players\n1,1,2,4S,N,10,Żaneta - Ola\n"
        .as_bytes()
        .to_vec();
    csv.extend_from_slice(b"1,3,4,4S,N,9,Ren\xe9 - Jos\xe9\n");
    let c = dir.join("m.csv");
    std::fs::write(&c, &csv).unwrap();
    let log = dir.join("c.jsonl");
    let (code, out, err) = run(&["import", s(&c), "--out", s(&log), "--form", "mp"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("m.csv: line 3: the file mixes encodings"),
        "{out}{err}"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("Żaneta") && text.contains("René"), "{text}");
}

/// Issue 34: board 10000 passed the readers' range (1-10000) but not the log's (1-9999): the
/// readers take the log's one constant, and say it at the board's place in the file.
#[test]
fn board_numbers_are_the_logs() {
    let dir = tmp("board-range");
    let pbn = |b: u32| {
        format!(
            "% PBN 2.1\n[Event \"E\"]\n[Board \"{b}\"]\n[Scoring \"MP\"]\n\
             [ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result\"]\n\
             1 2 4S S 10\n3 4 4S S 9\n"
        )
    };
    let csv =
        |b: u32| format!("board,ns,ew,contract,declarer,tricks\n{b},1,2,4S,N,10\n{b},3,4,4S,N,9\n");
    let xml = |b: u32| {
        // (no scores: the board's vulnerability is its number's)
        usebio_with("<CONTRACT>4S</CONTRACT><PLAYED_BY>S</PLAYED_BY><TRICKS>12</TRICKS>")
            .replace("<SCORE>480</SCORE>", "")
            .replace(
                "<BOARD_NUMBER>1</BOARD_NUMBER>",
                &format!("<BOARD_NUMBER>{b}</BOARD_NUMBER>"),
            )
    };
    let max = frekans::import::MAX_BOARD;
    assert_eq!(max, 9999);
    for (ext, make, at) in [
        ("pbn", &pbn as &dyn Fn(u32) -> String, "line 3"),
        ("csv", &csv, "line 2"),
        ("xml", &xml, "USEBIO/EVENT/BOARD[1]/BOARD_NUMBER"),
    ] {
        let f = dir.join(format!("b.{ext}"));
        std::fs::write(&f, make(max + 1)).unwrap();
        let log = dir.join(format!("b-{ext}.jsonl"));
        let (code, _, err) = run(&["import", s(&f), "--out", s(&log), "--form", "mp"]);
        assert_eq!(code, 2, "{ext}: {err}");
        assert!(
            err.contains(&format!("b.{ext}: {at}: "))
                && err.contains("1-9999")
                && err.contains("\"10000\""),
            "{ext}: {err}"
        );
        std::fs::write(&f, make(max)).unwrap();
        let (code, out, err) = run(&["import", s(&f), "--out", s(&log), "--form", "mp"]);
        assert_eq!(code, 0, "{ext}: {out}{err}");
        assert!(events(&log).iter().any(|e| e["board"] == max), "{ext}");
    }
}
