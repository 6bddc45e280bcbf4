//! Other programs' published scores, reproduced: each results file of `tests/data/interop`
//! (PBN and USEBIO written by Ruter, Compscore, EBUScore, RealBridge, Pianola, TeamsScorer) is
//! imported through `frekans import` with the options its producer's conventions need
//! (`manifest.json`, docs/interop.md), scored with `frekans score`, and every value the
//! producer printed (`<name>.expected.json`, written from the file alone by
//! `tools/interop_published.py`) is compared with scores.parquet, boards.parquet,
//! standings.parquet and matches.parquet: each side's points on each board, Butler datums,
//! totals, percentages and match VPs.
//!
//! A printed value agrees when it is within half a unit of its last printed digit.
//! `FREKANS_INTEROP_EXTRA=DIR` also checks a directory holding its own `manifest.json` (the real
//! files the equivalents were made from, which the project may not keep; docs/interop.md).
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;
// The Parquet tables read back (polars): only the tests that read them link it.
#[path = "common/frames.rs"]
mod frames;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use frames::{floats, frame, ints, strs};
use serde_json::Value;

/// One published value (a row of `<name>.expected.json`).
#[derive(Debug)]
struct Published {
    kind: String,
    board: Option<i32>,
    participant: String,
    side: String,
    opponent: String,
    value: f64,
    decimals: u32,
}

fn expected(path: &Path) -> Vec<Published> {
    let text = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rows: Vec<Value> =
        serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
    rows.iter()
        .map(|r| Published {
            kind: s(&r["kind"]),
            board: r["board"].as_i64().map(|b| b as i32),
            participant: s(&r["participant"]),
            side: s(&r["side"]),
            opponent: s(&r["opponent"]),
            value: s(&r["value"])
                .parse()
                .unwrap_or_else(|e| panic!("{}: {r}: {e}", path.display())),
            decimals: r["decimals"].as_u64().unwrap() as u32,
        })
        .collect()
}

fn frekans(args: &[&std::ffi::OsStr], what: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .arg("-q")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{what}: frekans {:?} failed ({}):\n{}{}",
        args,
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What frekans wrote, keyed as the published values are.
struct Scored {
    /// (board, participant, side) → score; side "" sums the participant's rows on the board.
    line: HashMap<(i32, String, String), f64>,
    datum: HashMap<i32, f64>,
    /// participant → (total, pct)
    standing: HashMap<String, (f64, Option<f64>)>,
    /// (participant, opponent) → VPs of participant
    vp: HashMap<(String, String), f64>,
}

fn scored(out: &Path) -> Scored {
    let s = frame(out, "scores");
    let (board, who, side, score) = (
        ints(&s, "board"),
        strs(&s, "participant"),
        strs(&s, "side"),
        floats(&s, "score"),
    );
    let mut line: HashMap<(i32, String, String), f64> = HashMap::new();
    for (((b, p), sd), v) in board.iter().zip(&who).zip(&side).zip(&score) {
        let (b, p, sd, v) = (
            b.unwrap(),
            p.clone().unwrap(),
            sd.clone().unwrap_or_default(),
            v.unwrap_or(f64::NAN),
        );
        *line.entry((b, p.clone(), sd)).or_default() += v;
        *line.entry((b, p, String::new())).or_default() += v;
    }
    let b = frame(out, "boards");
    let mut datum = HashMap::new();
    for (bd, d) in ints(&b, "board").into_iter().zip(floats(&b, "datum")) {
        if let (Some(bd), Some(d)) = (bd, d) {
            datum.entry(bd).or_insert(d);
        }
    }
    let st = frame(out, "standings");
    let mut standing = HashMap::new();
    let (sess, who, total, pct) = (
        strs(&st, "session"),
        strs(&st, "participant"),
        floats(&st, "total"),
        floats(&st, "pct"),
    );
    for (((s, p), t), pc) in sess.iter().zip(&who).zip(&total).zip(&pct) {
        if s.as_deref() == Some("overall") {
            continue;
        }
        standing.insert(p.clone().unwrap(), (t.unwrap_or(f64::NAN), *pc));
    }
    let mut vp = HashMap::new();
    if out.join("matches.parquet").is_file() {
        let m = frame(out, "matches");
        let (h, a, vh, va) = (
            strs(&m, "home"),
            strs(&m, "away"),
            floats(&m, "vp_home"),
            floats(&m, "vp_away"),
        );
        for (((h, a), vh), va) in h.iter().zip(&a).zip(&vh).zip(&va) {
            let (h, a) = (h.clone().unwrap(), a.clone().unwrap());
            vp.insert((h.clone(), a.clone()), vh.unwrap_or(f64::NAN));
            vp.insert((a, h), va.unwrap_or(f64::NAN));
        }
    }
    Scored {
        line,
        datum,
        standing,
        vp,
    }
}

/// One file's comparison: values compared and agreeing per kind, and the disagreements.
#[derive(Default)]
struct Outcome {
    counts: BTreeMap<String, (usize, usize)>,
    wrong: Vec<String>,
}

fn check(dir: &Path, entry: &Value, work: &Path) -> Outcome {
    let name = entry["name"].as_str().unwrap();
    let file = dir.join(entry["file"].as_str().unwrap());
    let log = work.join(format!("{name}.jsonl"));
    let out = work.join(name);
    let _ = std::fs::remove_file(&log);
    let _ = std::fs::remove_dir_all(&out);
    let mut args: Vec<std::ffi::OsString> = vec!["import".into(), file.clone().into()];
    args.push("--out".into());
    args.push(log.clone().into());
    for a in entry["args"].as_array().unwrap() {
        args.push(a.as_str().unwrap().into());
    }
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    frekans(&args, name);
    frekans(
        &[
            "score".as_ref(),
            log.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
            "--no-cache".as_ref(),
        ],
        name,
    );
    let got = scored(&out);
    let scale = |kind: &str| entry["scale"][kind].as_f64().unwrap_or(1.0);
    let mut o = Outcome::default();
    for p in expected(&dir.join(format!("{name}.expected.json"))) {
        let want = p.value * scale(&p.kind);
        let tol = 0.5 * 10f64.powi(-(p.decimals as i32)) * scale(&p.kind) + 1e-6;
        let have = match p.kind.as_str() {
            // A file numbering NS and EW pairs each from 1 has ids with the direction after
            // the number (`1NS`, the readers' rule).
            "line" => {
                let b = p.board.unwrap();
                got.line
                    .get(&(b, p.participant.clone(), p.side.clone()))
                    .or_else(|| {
                        got.line
                            .get(&(b, format!("{}{}", p.participant, p.side), p.side.clone()))
                    })
                    .copied()
            }
            "datum" => got.datum.get(&p.board.unwrap()).copied(),
            "total" => got.standing.get(&p.participant).map(|s| s.0),
            "pct" => got.standing.get(&p.participant).and_then(|s| s.1),
            "vp" => got
                .vp
                .get(&(p.participant.clone(), p.opponent.clone()))
                .copied(),
            other => panic!("{name}: unknown kind {other}"),
        };
        let c = o.counts.entry(p.kind.clone()).or_default();
        c.0 += 1;
        match have {
            Some(h) if (h - want).abs() <= tol => c.1 += 1,
            _ => o.wrong.push(format!(
                "{name}: {} board {:?} participant {:?} side {:?} vs {:?}: published {} (x{}) = {want}, frekans {}",
                p.kind,
                p.board,
                p.participant,
                p.side,
                p.opponent,
                p.value,
                scale(&p.kind),
                have.map_or("nothing".to_string(), |h| h.to_string())
            )),
        }
    }
    o
}

fn check_all(dir: &Path) -> String {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let work = std::env::temp_dir().join(format!(
        "frekans-interop-{}-{}",
        std::process::id(),
        dir.file_name().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(&work).unwrap();
    let mut report = String::new();
    let mut wrong = Vec::new();
    for entry in manifest.as_array().unwrap() {
        let o = check(dir, entry, &work);
        let _ = write!(report, "{:<32}", entry["name"].as_str().unwrap());
        for (kind, (n, ok)) in &o.counts {
            let _ = write!(report, " {kind} {ok}/{n}");
        }
        report.push('\n');
        wrong.extend(o.wrong);
    }
    let _ = std::fs::remove_dir_all(&work);
    eprintln!("{report}");
    assert!(
        wrong.is_empty(),
        "{} published values not reproduced:\n{}\n\n{report}",
        wrong.len(),
        wrong.join("\n")
    );
    report
}

#[test]
fn published_scores_of_other_programs_are_reproduced() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/interop");
    let report = check_all(&dir);
    // Every producer's file was compared, each kind of value it prints.
    for name in [
        "ruter-butler",
        "compscore-mp-howell",
        "compscore-butler-howell",
        "compscore-butler-mitchell",
        "ebuscore-two-sections",
        "realbridge-mp",
        "pianola-ximp",
        "teamsscorer-teams",
    ] {
        assert!(report.contains(name), "{name} missing from the manifest");
    }
    if let Ok(extra) = std::env::var("FREKANS_INTEROP_EXTRA") {
        check_all(Path::new(&extra));
    }
}
