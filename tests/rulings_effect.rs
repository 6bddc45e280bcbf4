//! Every ruling's effect as the publication shows it (the rulings pages and the bulletin's
//! appendix, `report::model::add_ruling_effects`, answered by `audit::ruling_effects` without an
//! audit per ruling) equals what `frekans audit LOG --ruling ID` says it changed: for synthetic
//! championships of every form with a ruling at a fifth of the tables (every kind of ruling:
//! artificial, not played, assigned, weighted, split, mixed, subsequent damage, withdrawn,
//! appealed), every ruling in force through the library and a sample of every kind through the
//! command line's JSON.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod common;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_frekans")
}

fn synth(dir: &Path, name: &str, args: &[&str]) -> std::path::PathBuf {
    let out = dir.join(format!("{name}.jsonl"));
    let st = Command::new(bin())
        .args(["synth", "--rulings", "0.2", "--corrections", "0.01"])
        .args(args)
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success(), "synth {args:?}");
    out
}

/// A mover as the publication shows it: (group, id, before, after, place before, after).
type Shown = (String, String, String, String, String, String);

fn shown(c: &frekans::report::view::Changes) -> (usize, Vec<Shown>) {
    let v = c.shown.as_ref().map_or_else(Vec::new, |s| {
        s.iter()
            .map(|m| {
                (
                    m.group.clone(),
                    m.id.clone(),
                    m.before.clone(),
                    m.after.clone(),
                    m.place_before.clone(),
                    m.place_after.clone(),
                )
            })
            .collect()
    });
    (c.moved.expect("answered"), v)
}

/// What `audit --ruling ID --format json` says the ruling changed, cut as the publication cuts.
fn from_cli(
    log: &Path,
    cache: &Path,
    id: &str,
    by_section: &dyn Fn(&str) -> bool,
) -> (usize, Vec<Shown>) {
    let out = Command::new(bin())
        .args(["audit", "--format", "json", "--ruling", id])
        .arg(log)
        .env("FREKANS_AUDIT_CACHE", cache)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = |r: &Value, k: &str| r[k].as_f64();
    let rows: Vec<frekans::audit::StandingDelta> = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| frekans::audit::StandingDelta {
            session: r["session"].as_str().unwrap().into(),
            section: r["section"].as_str().map(Into::into),
            participant: r["participant"].as_str().unwrap().into(),
            players: "".into(),
            total_before: f(r, "total_before"),
            total_after: f(r, "total_after"),
            pct_before: f(r, "pct_before"),
            pct_after: f(r, "pct_after"),
            rank_before: r["rank_before"].as_i64().map(|x| x as i32),
            rank_after: r["rank_after"].as_i64().map(|x| x as i32),
            noun: "pair",
            moved: f(r, "delta"),
        })
        .collect();
    let a = frekans::audit::Audit {
        question: frekans::audit::Question::Ruling(id.to_string()),
        standings: rows,
        boards: Vec::new(),
        rulings: Vec::new(),
        incremental: true,
    };
    let e = frekans::audit::Effect::of_audit(&a, frekans::report::cut::MOVERS_PER_GROUP);
    shown(&frekans::report::effects::changes_of(&e, &|s: &str| {
        by_section(s)
    }))
}

fn check(log: &Path, cache: &Path, cli_sample: usize) -> usize {
    let l = frekans::app::load(log, &Default::default()).unwrap();
    let scored = frekans::pipeline::score(&l.state).unwrap();
    let mut model = frekans::report::model::build(&l.state, &scored, &[], "en");
    frekans::report::model::add_ruling_effects(
        &mut model,
        &l.events,
        &l.state,
        &scored,
        frekans::report::cut::AuditBudget::VIEW,
    );
    let by_section = |id: &str| {
        l.state
            .sessions
            .iter()
            .any(|s| s.def.id == id && s.def.compare == frekans::options::Compare::Section)
    };
    // A sample of every kind of ruling for the command line: the first few of each notation.
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut checked = 0;
    for r in model.rulings.iter().filter(|r| r.status == "in_force") {
        let c = r.changes.as_ref().expect("every ruling in force answered");
        let got = shown(c);
        let a = common::audit_replayed(
            &l.events,
            &l.state,
            Some(&scored),
            &frekans::audit::Question::Ruling(r.id.clone()),
            true,
        )
        .unwrap();
        let e = frekans::audit::Effect::of_audit(&a, frekans::report::cut::MOVERS_PER_GROUP);
        let want = shown(&frekans::report::effects::changes_of(&e, &by_section));
        assert_eq!(
            got,
            want,
            "{}: ruling {} ({})",
            log.display(),
            r.id,
            r.score
        );
        let kind: String = r.score.chars().filter(|c| !c.is_ascii_digit()).collect();
        let n = kinds.entry(kind).or_default();
        if *n < cli_sample {
            *n += 1;
            let cli = from_cli(log, cache, &r.id, &by_section);
            assert_eq!(
                got,
                cli,
                "{}: ruling {} ({}) against the command line",
                log.display(),
                r.id,
                r.score
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn every_rulings_effect_equals_its_audit() {
    let dir = common::scratch::tmp("rulings-effect");
    let cache = dir.path().join("cache");
    let logs: &[(&str, &[&str])] = &[
        (
            "mp-field",
            &[
                "--form",
                "mp",
                "--compare",
                "field",
                "--sessions",
                "2",
                "--sections",
                "3",
                "--tables",
                "6",
                "--boards",
                "8",
            ],
        ),
        (
            "mp-section",
            &[
                "--form",
                "mp",
                "--sections",
                "2",
                "--tables",
                "7",
                "--boards",
                "10",
                "--seed",
                "3",
            ],
        ),
        (
            "ximp",
            &[
                "--form",
                "ximp",
                "--sessions",
                "2",
                "--sections",
                "2",
                "--tables",
                "6",
                "--boards",
                "8",
                "--seed",
                "5",
            ],
        ),
        (
            "butler",
            &[
                "--form",
                "butler",
                "--compare",
                "field",
                "--sections",
                "2",
                "--tables",
                "7",
                "--boards",
                "10",
                "--seed",
                "7",
            ],
        ),
        (
            "napki",
            &[
                "--form",
                "napki",
                "--sections",
                "2",
                "--tables",
                "6",
                "--boards",
                "10",
                "--seed",
                "9",
            ],
        ),
        (
            "teams",
            &[
                "--form",
                "teams",
                "--sections",
                "1",
                "--tables",
                "4",
                "--boards",
                "8",
                "--seed",
                "11",
            ],
        ),
    ];
    for (name, args) in logs {
        let log = synth(dir.path(), name, args);
        let n = check(&log, &cache, 2);
        assert!(n >= 5, "{name}: {n} rulings in force checked");
    }
}
