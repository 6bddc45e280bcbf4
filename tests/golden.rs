//! Golden fixtures: every worked example of the spec, one directory each under `fixtures/`
//! (`events.jsonl` + `expected.json`, values from the spec checked by hand; see fixtures/README.md).
//! One data-driven test walks them all and reports every mismatch.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};

use frekans::app::{load_bytes, AppError};
use frekans::export::rows::{build, Tables};
use frekans::pipeline;
use frekans::replay::ReplayScope;
use serde_json::{Map, Value};

fn fixture_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("events.jsonl").exists())
        .collect();
    dirs.sort();
    dirs
}

fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let (a, b) = s.split_once('/')?;
            Some(a.trim().parse::<f64>().ok()? / b.trim().parse::<f64>().ok()?)
        }
        _ => None,
    }
}

/// Output rows of one table as JSON objects, for matching.
fn rows(t: &Tables, which: &str) -> Vec<Map<String, Value>> {
    use serde_json::json;
    let v: Vec<Value> = match which {
        "scores" => t.scores.iter().map(|r| json!({"session": r.session, "section": r.section, "board": r.board, "participant": r.participant, "side": r.side, "opponent": r.opponent, "score": r.score, "top": r.top, "pct": r.pct, "adjusted": r.adjusted, "ns_points": r.ns_points})).collect(),
        "frequencies" => t.frequencies.iter().map(|r| json!({"session": r.session, "section": r.section, "board": r.board, "line": r.line, "ns_points": r.ns_points, "count": r.count, "mp_ns": r.mp_ns, "mp_ew": r.mp_ew})).collect(),
        "boards" => t.boards.iter().map(|r| json!({"session": r.session, "section": r.section, "board": r.board, "results": r.results, "mean": r.mean, "dispersion": r.dispersion, "dispersion_imp": r.dispersion_imp, "dispersion_mp": r.dispersion_mp, "datum": r.datum})).collect(),
        "standings" => t.standings.iter().map(|r| json!({"session": r.session, "section": r.section, "participant": r.participant, "rank": r.rank, "rank_to": r.rank_to, "total": r.total, "max": r.max, "pct": r.pct, "boards": r.boards})).collect(),
        "matches" => t.matches.iter().flatten().map(|r| json!({"session": r.session, "match": r.match_id, "home": r.home, "away": r.away, "imp_home": r.imp_home, "imp_away": r.imp_away, "vp_home": r.vp_home, "vp_away": r.vp_away})).collect(),
        "rulings" => t.rulings.iter().map(|r| json!({"ruling": r.ruling, "session": r.session, "board": r.board, "ns": r.ns, "ew": r.ew, "score": r.score, "law": r.law, "seq": r.seq})).collect(),
        _ => panic!("unknown table {which}"),
    };
    v.into_iter()
        .map(|x| x.as_object().unwrap().clone())
        .collect()
}

const KEYS: &[&str] = &[
    "session",
    "section",
    "board",
    "participant",
    "side",
    "line",
    "ns_points",
    "ruling",
];

/// Keys identify a row; `line` "NS"/"EW" also matches a "both" row.
fn key_matches(exp: &Map<String, Value>, got: &Map<String, Value>, which: &str) -> bool {
    for k in KEYS {
        if *k == "ns_points" && which != "frequencies" {
            continue;
        }
        let Some(e) = exp.get(*k) else { continue };
        let g = got.get(*k).unwrap_or(&Value::Null);
        if *k == "line" && g == "both" && (e == "NS" || e == "EW") {
            continue;
        }
        let same = match (num(e), num(g)) {
            (Some(a), Some(b)) => a == b,
            _ => e == g,
        };
        if !same {
            return false;
        }
    }
    true
}

fn check_fixture(dir: &Path) -> Vec<String> {
    let name = dir.file_name().unwrap().to_string_lossy().to_string();
    let mut problems = Vec::new();
    let bytes = std::fs::read(dir.join("events.jsonl")).unwrap();
    let exp: Value = serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap())
        .unwrap_or_else(|e| panic!("{name}: expected.json: {e}"));
    let tol_default = exp.get("tol").and_then(num).unwrap_or(1e-9);
    let loaded = load_bytes(&bytes, &ReplayScope::default());
    if let Some(err) = exp.get("error") {
        match loaded {
            Err(AppError::Invalid(e)) => {
                let text = e.to_string();
                for want in err["contains"].as_array().unwrap() {
                    if !text.contains(want.as_str().unwrap()) {
                        problems.push(format!("{name}: error text lacks {want}: {text}"));
                    }
                }
            }
            Err(e) => problems.push(format!("{name}: expected an invalid-log error, got: {e:#}")),
            Ok(_) => problems.push(format!("{name}: the log was accepted but must be refused")),
        }
        return problems;
    }
    let loaded = match loaded {
        Ok(l) => l,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let scored = pipeline::score(&loaded.state).unwrap();
    let tables = build(&loaded.state, &scored);
    let mut checked = 0;
    for which in [
        "scores",
        "frequencies",
        "boards",
        "standings",
        "rulings",
        "matches",
    ] {
        let Some(expected) = exp.get(which).and_then(Value::as_array) else {
            continue;
        };
        let got = rows(&tables, which);
        for e in expected {
            let e = e.as_object().unwrap();
            let tol = e.get("tol").and_then(num).unwrap_or(tol_default);
            let matching: Vec<&Map<String, Value>> =
                got.iter().filter(|g| key_matches(e, g, which)).collect();
            if matching.len() != 1 {
                problems.push(format!(
                    "{name}: {which}: {} rows match {}",
                    matching.len(),
                    Value::Object(e.clone())
                ));
                continue;
            }
            let g = matching[0];
            for (k, v) in e {
                if KEYS.contains(&k.as_str()) || k == "tol" {
                    continue;
                }
                let gv = g.get(k).unwrap_or(&Value::Null);
                let ok = match (num(v), num(gv)) {
                    (Some(a), Some(b)) => (a - b).abs() <= tol * a.abs().max(1.0),
                    _ => v == gv,
                };
                checked += 1;
                if !ok {
                    problems.push(format!(
                        "{name}: {which} {}: {k} expected {v}, got {gv}",
                        KEYS.iter()
                            .filter_map(|x| e.get(*x).map(|v| format!("{x}={v}")))
                            .collect::<Vec<_>>()
                            .join(" ")
                    ));
                }
            }
        }
    }
    if checked == 0 {
        problems.push(format!("{name}: expected.json checks nothing"));
    }
    problems
}

#[test]
fn golden_fixtures() {
    let dirs = fixture_dirs();
    assert!(dirs.len() >= 40, "only {} fixtures found", dirs.len());
    let mut problems = Vec::new();
    for d in &dirs {
        problems.extend(check_fixture(d));
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// C38: `boards.parquet`'s `dispersion_mp` is given at matchpoints and null in every other form
/// (a Butler, cross-IMP, napki or team board has no matchpoints to disperse), over every fixture
/// and demo championship.
#[test]
fn dispersion_mp_only_at_matchpoints() {
    use frekans::score::Form;
    let mut logs: Vec<PathBuf> = fixture_dirs()
        .into_iter()
        .map(|d| d.join("events.jsonl"))
        .collect();
    let events = Path::new(env!("CARGO_MANIFEST_DIR")).join("events");
    logs.extend(
        std::fs::read_dir(events)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl")),
    );
    let (mut mp, mut other) = (0, 0);
    for log in logs {
        let Ok(loaded) = load_bytes(&std::fs::read(&log).unwrap(), &ReplayScope::default()) else {
            continue; // the fixtures of invalid logs
        };
        let scored = pipeline::score(&loaded.state).unwrap();
        let tables = build(&loaded.state, &scored);
        for b in &tables.boards {
            let form = loaded
                .state
                .sessions
                .iter()
                .find(|s| s.def.id == b.session)
                .unwrap()
                .def
                .form;
            if form == Form::Mp {
                mp += 1;
                assert!(b.dispersion_mp.is_some(), "{}: {b:?}", log.display());
            } else {
                other += 1;
                assert_eq!(b.dispersion_mp, None, "{} ({form:?}): {b:?}", log.display());
            }
        }
    }
    assert!(
        mp > 100 && other > 100,
        "{mp} matchpoint and {other} other boards"
    );
}
