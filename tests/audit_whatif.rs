//! What-if audits (`audit --with`, `--alternatives`, `explain --with`, issue 22): a what-if is
//! the audit of the log with the proposed events appended, against the log as it is. Checked
//! against the long way round a committee would take without it: append the events to a copy
//! of the log with `append`'s own code and audit the copy (`--as-of` the log's last event, and
//! `--ruling ID` of an appended ruling), for every kind of proposal in every form; refusals are
//! `append`'s, and nothing is written to the log.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::path::Path;

mod common;

use common::scratch::{run_in, show, tmp};

use frekans::audit::{Audit, Question};
use frekans::event::Event;

const NOW: &str = "2026-11-25T19:00:00Z";

/// The events of a log, each with its envelope.
fn events(bytes: &[u8]) -> Vec<frekans::event::Envelope> {
    let r = frekans::event::read_log(bytes);
    assert!(r.errors.is_empty());
    r.events
}

/// The penalty unit the form of `session` takes (event-log.md, Penalties).
fn penalty_unit(bytes: &[u8], session: &str) -> (&'static str, f64) {
    for e in events(bytes) {
        if let Event::Session(d) = &e.event {
            if d.id == session {
                return match d.form.name() {
                    "mp" => ("pct_of_top", 25.0),
                    "bam" => ("mp", 0.5),
                    "teams" | "patton" => ("vp", 1.5),
                    _ => ("imp", 2.0),
                };
            }
        }
    }
    panic!("no session {session}")
}

/// Proposals of every kind for a log, each with its kind's name: for the table of its first
/// result (and of the last one, another board), a weighted, a split, an assigned, an artificial
/// and a subsequent-damage ruling; the withdrawal of a ruling in force; a correction of the
/// result's score; a penalty of its NS in the form's unit; and two events at once.
fn proposals(bytes: &[u8]) -> Vec<(&'static str, Vec<String>)> {
    let evs = events(bytes);
    let results: Vec<_> = evs
        .iter()
        .filter_map(|e| match &e.event {
            Event::Result(r) => Some((e.seq, r)),
            _ => None,
        })
        .collect();
    let (state, _) = frekans::replay::replay(&evs, &Default::default());
    let in_force: Vec<String> = state
        .rulings
        .iter()
        .filter(|r| r.status == frekans::replay::RulingStatus::InForce)
        .map(|r| r.ev.id.clone())
        .collect();
    let mut out = Vec::new();
    for (n, (seq, r)) in [results[0], results[results.len() - 1]]
        .into_iter()
        .enumerate()
    {
        let table = format!(
            r#""session":"{}","board":{},"ns":"{}","ew":"{}""#,
            r.session, r.board, r.ns, r.ew
        );
        let ruling = |kind: &'static str, id: &str, score: &str| {
            (
                kind,
                vec![format!(
                    r#"{{"type":"ruling","id":"{id}{n}",{table},{score},"law":"12C","by":"AC"}}"#
                )],
            )
        };
        out.push(ruling("weighted", "WI", r#""score":"(60%+420&40%-50)""#));
        out.push(ruling("split", "SP", r#""score":"(+420)/(+450)""#));
        out.push(ruling("assigned", "AS", r#""score":"(-100)""#));
        out.push(ruling("artificial", "AR", r#""score":"A+/A-""#));
        out.push(ruling(
            "subsequent damage",
            "SD",
            r#""subsequent_damage":{"side":"NS","before":"+620","after_infraction":"+500","after_loss":"+150"}"#,
        ));
        out.push((
            "correction",
            vec![format!(
                r#"{{"type":"correction","result":{seq},"score":-200}}"#
            )],
        ));
        let (unit, amount) = penalty_unit(bytes, &r.session);
        out.push((
            "penalty",
            vec![format!(
                r#"{{"type":"penalty","session":"{}","participant":"{}","{unit}":{amount},"law":"90B"}}"#,
                r.session, r.ns
            )],
        ));
        // (teams: IMPs off a match too, before the VP conversion)
        let teams = evs.iter().any(|e| {
            matches!(&e.event, Event::Session(d) if d.id == r.session && d.form.name() == "teams")
        });
        if teams {
            out.push((
                "penalty",
                vec![format!(
                    r#"{{"type":"penalty","session":"{}","participant":"{}","imp":3,"board":{},"law":"90B"}}"#,
                    r.session, r.ns, r.board
                )],
            ));
        }
        // Two at once: a ruling and its withdrawal leave the log's standings as they are.
        out.push((
            "ruling withdrawn",
            vec![
                format!(r#"{{"type":"ruling","id":"TW{n}",{table},"score":"(+420)","law":"12C"}}"#),
                format!(r#"{{"type":"ruling_withdrawn","ruling":"TW{n}"}}"#),
            ],
        ));
    }
    for id in in_force.iter().take(2) {
        out.push((
            "withdrawal",
            vec![format!(
                r#"{{"type":"ruling_withdrawn","ruling":"{id}","by":"Appeals committee"}}"#
            )],
        ));
    }
    out
}

/// The events appended to a copy of `log` (in `dir`) by `append`'s own code, all or none: the
/// copy's bytes, or `append`'s errors.
fn appended(dir: &Path, log: &[u8], texts: &[String]) -> Result<Vec<u8>, Vec<String>> {
    let copy = dir.join("copy.jsonl");
    std::fs::write(&copy, log).unwrap();
    let objects: Vec<serde_json::Map<String, serde_json::Value>> = texts
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    let r = frekans::event::append::append_events(
        &frekans::world::Real,
        &copy,
        NOW,
        |_| Ok(objects),
        |all| {
            frekans::replay::replay_streamed(all, frekans::event::read::BATCH, None)
                .into_valid()
                .map(|_| ())
        },
    );
    match r {
        Ok(_) => Ok(std::fs::read(&copy).unwrap()),
        Err(frekans::event::append::AppendError::Invalid(e)) => {
            Err(e.errors.iter().map(|e| e.to_string()).collect())
        }
        Err(e) => panic!("{e:?}"),
    }
}

/// What an audit says, without its question.
fn answer(a: &Audit) -> (Vec<String>, usize, usize) {
    let mut j = common::audit_json(a);
    j.as_object_mut().unwrap().remove("audit");
    (vec![j.to_string()], a.standings.len(), a.boards.len())
}

/// Every kind of proposal, on every demo, the audit test logs (team fixtures: teams with VPs,
/// Patton, board-a-match) and synthetic logs of every pair form and teams: the what-if answered
/// from the cache, and without it, is the audit of a copy with the events appended; a
/// proposal `append` refuses is refused with `append`'s errors; the log is not changed.
#[test]
fn whatif_is_the_audit_of_the_log_with_the_events_appended() {
    use frekans::synth::{self, Spec, SynthForm};
    let mut logs: Vec<(String, Vec<u8>)> = common::audited_logs()
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    for form in [
        SynthForm::Mp,
        SynthForm::Ximp,
        SynthForm::Butler,
        SynthForm::Napki,
        SynthForm::Teams,
    ] {
        let spec = Spec {
            sessions: 2,
            sections: 2,
            boards: 4,
            tables: 4,
            form,
            rulings: 0.2,
            corrections: 0.05,
            seed: 22,
            ..Spec::default()
        };
        let mut bytes = Vec::new();
        synth::write_log(&spec, &mut bytes).unwrap();
        logs.push((format!("synth {}", form.name()), bytes));
    }
    let (mut asked, mut moved, mut cached, mut refused) = (0, 0, 0, 0);
    let mut kinds_moved = std::collections::BTreeSet::new();
    for (what, bytes) in &logs {
        let t = tmp("whatif");
        let log = t.path().join("log.jsonl");
        std::fs::write(&log, bytes).unwrap();
        let cache = t.path().join("cache");
        let last = events(bytes).last().unwrap().seq;
        for (kind, texts) in proposals(bytes) {
            asked += 1;
            let expected = appended(t.path(), bytes, &texts);
            let long = frekans::app::whatif(&log, &texts, None, None, NOW).map(|a| a.audit);
            let via =
                frekans::app::whatif(&log, &texts, None, Some(common::test_store(&cache)), NOW)
                    .map(|a| a.audit);
            let copy = match expected {
                Err(errors) => {
                    refused += 1;
                    for got in [long, via] {
                        match got {
                            Err(frekans::app::AppError::Invalid(e)) => {
                                let got: Vec<String> =
                                    e.errors.iter().map(|e| e.to_string()).collect();
                                assert_eq!(got, errors, "{what} {kind}");
                            }
                            other => panic!("{what} {kind}: {other:?}, not {errors:?}"),
                        }
                    }
                    continue;
                }
                Ok(copy) => copy,
            };
            let reference = frekans::app::audit_bytes(&copy, &Question::AsOf(last), None)
                .unwrap_or_else(|e| panic!("{what} {kind}: {e}"));
            let (long, via) = (long.unwrap(), via.unwrap());
            assert_eq!(answer(&long), answer(&reference), "{what} {kind}: long way");
            assert_eq!(
                answer(&via),
                answer(&reference),
                "{what} {kind}: with the cache"
            );
            match &via.question {
                Question::With(v) => assert_eq!(v.len(), texts.len()),
                q => panic!("{q:?}"),
            }
            // A ruling's what-if is the `--ruling` audit of it appended.
            if texts.len() == 1 && texts[0].contains(r#""type":"ruling""#) {
                let id = via.rulings[0].id.clone();
                let by_id = frekans::app::audit_bytes(&copy, &Question::Ruling(id), None).unwrap();
                assert_eq!(
                    answer(&by_id),
                    answer(&reference),
                    "{what} {kind}: --ruling"
                );
            }
            // Answered from the cache (but for what it cannot: fouled boards, penalties of a
            // team session).
            let c = frekans::audit::cache::AuditCache::load(
                common::test_store(&cache),
                &frekans::audit::cache::log_key(bytes),
            )
            .expect("the log's cache");
            let mut c = c;
            let strs: Vec<&str> = texts.iter().map(String::as_str).collect();
            let p = frekans::event::append::propose(bytes, &strs, NOW, None).unwrap();
            // (what the cache knows of the log: the same lines, seqs and hashes)
            let known = (c.last_seq, c.newlines as usize);
            let q = frekans::event::append::propose(bytes, &strs, NOW, Some(known)).unwrap();
            assert_eq!(
                (&p.text, p.first_seq, p.first_line),
                (&q.text, q.first_seq, q.first_line),
                "{what} {kind}"
            );
            let source = frekans::audit::Source::Cached {
                bytes,
                cache: frekans::audit::Held::Lent(&mut c),
            };
            match frekans::audit::answer(frekans::audit::Ask::WhatIf(&p), source).unwrap() {
                frekans::audit::Outcome::Answer(a) => {
                    assert_eq!(
                        answer(&a.audit),
                        answer(&reference),
                        "{what} {kind}: cached"
                    );
                    cached += 1;
                }
                _ => assert!(
                    what.contains("FOULED") || kind == "penalty",
                    "{what} {kind}: not answered from the cache"
                ),
            }
            if kind == "ruling withdrawn" {
                // (a ruling and its withdrawal: the log's standings as they are)
                assert!(reference.standings.is_empty(), "{what} {kind}");
            }
            if !reference.standings.is_empty() {
                moved += 1;
                kinds_moved.insert(kind);
            }
            // Nothing written to the log.
            assert_eq!(&std::fs::read(&log).unwrap(), bytes, "{what} {kind}");
        }
        // The cache directory holds the log's cache alone (and the status record).
        let audits: Vec<_> = std::fs::read_dir(&cache)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".audit"))
            .collect();
        assert_eq!(audits.len(), 1, "{what}");
    }
    eprintln!("{asked} asked, {moved} moved, {cached} from the cache, {refused} refused");
    assert!(
        asked > 300 && moved > 150 && cached > 250 && refused < asked / 4,
        "{asked} asked, {moved} moved, {cached} from the cache, {refused} refused"
    );
    assert_eq!(kinds_moved.len(), 8, "{kinds_moved:?}");
}

/// Three alternatives for the table of NS 3 on a board of four tables (`tests/data/whatif`:
/// NS +420, +420, −50 at NS 3, +450; top 6), worked by hand: assigned +420 gives NS 2, 2, 2, 6;
/// assigned +450 gives 1, 1, 5, 5; 50% of each gives NS 3 ½·2 + ½·5 = 3.5 and the others
/// 1.5, 1.5 (½ of a tie against it) and 5.5; each EW pair the top less its NS's. Each
/// alternative is added on its own; text, JSON and Parquet say the same.
#[test]
fn alternatives_side_by_side_as_worked_by_hand() {
    let t = tmp("whatif-alt");
    let data = common::root().join("tests/data/whatif");
    for f in ["four-tables.jsonl", "alternatives.jsonl"] {
        std::fs::copy(data.join(f), t.path().join(f)).unwrap();
    }
    let before = std::fs::read(t.path().join("four-tables.jsonl")).unwrap();
    let o = run_in(
        t.path(),
        &[
            "audit",
            "four-tables.jsonl",
            "--alternatives",
            "alternatives.jsonl",
            "--format",
            "json",
            "--out",
            "out",
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["audit"]["alternatives"].as_array().unwrap().len(), 3);
    // (NS pair: before, under each alternative; its EW opponents: 6 less)
    let hand: [(&str, &str, f64, [f64; 3]); 4] = [
        ("1", "11", 3.0, [2.0, 1.0, 1.5]),
        ("2", "12", 3.0, [2.0, 1.0, 1.5]),
        ("3", "13", 0.0, [2.0, 5.0, 3.5]),
        ("4", "14", 6.0, [6.0, 5.0, 5.5]),
    ];
    let rows = j["standings"].as_array().unwrap();
    let row = |p: &str| {
        rows.iter()
            .find(|r| r["session"] == "S1" && r["participant"] == p)
            .unwrap_or_else(|| panic!("no row of {p}"))
    };
    for (ns, ew, b, after) in hand {
        for (p, b, after) in [(ns, b, after), (ew, 6.0 - b, after.map(|x| 6.0 - x))] {
            let r = row(p);
            assert_eq!(r["total_before"], b, "{p}");
            let got: Vec<f64> = r["alternatives"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["total_after"].as_f64().unwrap())
                .collect();
            assert_eq!(got, after, "{p}");
        }
    }
    // Places: under +450 NS 3 shares first with 4, 11 and 12 (5 each).
    let place = |p: &str, k: usize| row(p)["alternatives"][k]["rank_after"].as_i64().unwrap();
    assert_eq!([place("3", 1), place("4", 1), place("11", 1)], [1, 1, 1]);
    assert_eq!(place("3", 0), 5);
    // The Parquet file: a row per participant per group per alternative.
    let f = std::fs::File::open(t.path().join("out/audit_alternatives.parquet")).unwrap();
    use polars::prelude::*;
    let df = ParquetReader::new(f).finish().unwrap();
    assert_eq!(df.height(), rows.len() * 3);
    let names: Vec<&str> = df.get_column_names().iter().map(|s| s.as_str()).collect();
    assert_eq!(
        names,
        [
            "alternative",
            "ruling",
            "score",
            "session",
            "section",
            "participant",
            "total_before",
            "total_after",
            "delta",
            "pct_before",
            "pct_after",
            "rank_before",
            "rank_after"
        ]
    );
    // The text: a column per alternative.
    let o = run_in(
        t.path(),
        &[
            "audit",
            "four-tables.jsonl",
            "--alternatives",
            "alternatives.jsonl",
        ],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("before               A1               A2               A3"),
        "{text}"
    );
    assert!(
        text.contains(
            "  3             7     0.00%      5    33.33%      1    83.33%      4    58.33%"
        ),
        "{text}"
    );
    // Nothing written to the log.
    assert_eq!(
        std::fs::read(t.path().join("four-tables.jsonl")).unwrap(),
        before
    );
    // Alternatives for different tables are refused.
    std::fs::write(
        t.path().join("two.jsonl"),
        concat!(
            r#"{"type":"ruling","id":"X","session":"S1","board":1,"ns":"3","score":"A"}"#,
            "\n",
            r#"{"type":"ruling","id":"X","session":"S1","board":1,"ns":"2","score":"A"}"#,
            "\n"
        ),
    )
    .unwrap();
    let o = run_in(
        t.path(),
        &["audit", "four-tables.jsonl", "--alternatives", "two.jsonl"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("two.jsonl line 2: a ruling for another table"),
        "{}",
        show(&o)
    );
}

/// A proposal `append` refuses is refused by a what-if with `append`'s own message and exit
/// status, and nothing is written: the log as it was, its audit cache the only one kept.
#[test]
fn refusals_are_appends() {
    let t = tmp("whatif-refuse");
    let demo = common::root().join("events/mazovia-pairs-2026.jsonl");
    let log = t.path().join("log.jsonl");
    std::fs::copy(&demo, &log).unwrap();
    let bytes = std::fs::read(&log).unwrap();
    for event in [
        "{not json",
        "[1, 2]",
        r#"{"type":"ruling_withdrawn","ruling":"R2","seq":3}"#,
        // R1 exists (on board 7)
        r#"{"type":"ruling","id":"R1","session":"S1","board":5,"ns":"A8","score":"A"}"#,
        r#"{"type":"ruling_withdrawn","ruling":"NOPE"}"#,
        // R2 was superseded by R8
        r#"{"type":"ruling_withdrawn","ruling":"R2"}"#,
        r#"{"type":"correction","result":1,"tricks":9}"#,
        r#"{"type":"penalty","session":"S1","participant":"A1","vp":2}"#,
        r#"{"type":"ruling","id":"Q1","session":"S1","board":5,"ns":"A8","score":"(60%+420&30%-50)"}"#,
        r#"{"type":"ruling","id":"Q1","session":"S1","board":5,"ns":"A8","ew":"A9","score":"A"}"#,
        r#"{"type":"ruling","id":"Q1","session":"S9","board":5,"ns":"A8","score":"A"}"#,
    ] {
        let whatif = run_in(t.path(), &["audit", "log.jsonl", "--with", event]);
        let explain = run_in(
            t.path(),
            &[
                "explain",
                "log.jsonl",
                "--session",
                "S1",
                "--board",
                "5",
                "--with",
                event,
            ],
        );
        let append = run_in(t.path(), &["append", "log.jsonl", event, "--no-cache"]);
        assert_eq!(append.status.code(), Some(2), "{event}: {}", show(&append));
        for o in [&whatif, &explain] {
            assert_eq!(o.status.code(), Some(2), "{event}: {}", show(o));
            assert_eq!(
                o.stderr,
                append.stderr,
                "{event}: {}\n{}",
                show(o),
                show(&append)
            );
            assert!(o.stdout.is_empty(), "{event}");
        }
        assert_eq!(std::fs::read(&log).unwrap(), bytes, "{event}");
    }
    // What a what-if does not take: a result.
    let o = run_in(
        t.path(),
        &[
            "audit",
            "log.jsonl",
            "--with",
            r#"{"type":"result","session":"S1","board":5,"ns":"A8","ew":"A26","contract":"PASS"}"#,
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("not a \"result\""),
        "{}",
        show(&o)
    );
    // Only the log's own audit cache is kept.
    let kept: Vec<String> = std::fs::read_dir(t.path().join(".cache-audit"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".audit"))
        .collect();
    assert_eq!(
        kept,
        [format!("{}.audit", frekans::audit::cache::log_key(&bytes))]
    );
}

/// `explain --with` shows the board as `explain` shows it once the event is appended, and
/// `--with-file` reads the same events as `--with`.
#[test]
fn explain_with_a_proposal_is_explain_of_the_appended_log() {
    let t = tmp("whatif-explain");
    let demo = common::root().join("events/mazovia-pairs-2026.jsonl");
    std::fs::copy(&demo, t.path().join("log.jsonl")).unwrap();
    std::fs::copy(&demo, t.path().join("copy.jsonl")).unwrap();
    let event = r#"{"type":"ruling","id":"AC9","session":"S1","board":5,"ns":"A8","score":"(70%+620&30%-100)","law":"21B3","at":"2026-11-25T19:00:00Z"}"#;
    let args = |log: &'static str| {
        vec![
            "explain",
            log,
            "--session",
            "S1",
            "--board",
            "5",
            "--section",
            "A",
        ]
    };
    let mut with = args("log.jsonl");
    with.extend(["--with", event]);
    let proposed = run_in(t.path(), &with);
    assert!(proposed.status.success(), "{}", show(&proposed));
    let a = run_in(t.path(), &["append", "copy.jsonl", event, "--no-cache"]);
    assert!(a.status.success(), "{}", show(&a));
    let appended = run_in(t.path(), &args("copy.jsonl"));
    let text = String::from_utf8_lossy(&proposed.stdout);
    let (head, body) = text.split_once("\n\n").unwrap();
    assert!(
        head.starts_with("What-if: the board with 1 proposed event"),
        "{head}"
    );
    assert_eq!(body, String::from_utf8_lossy(&appended.stdout));
    assert!(body.contains("AC9"), "{body}");
    // The same from a file (a comment and a blank line skipped), in audit and explain.
    std::fs::write(t.path().join("p.jsonl"), format!("// AC\n\n{event}\n")).unwrap();
    let mut from_file = args("log.jsonl");
    from_file.extend(["--with-file", "p.jsonl"]);
    assert_eq!(run_in(t.path(), &from_file).stdout, proposed.stdout);
    let a = run_in(
        t.path(),
        &["audit", "log.jsonl", "--with", event, "--format", "json"],
    );
    let b = run_in(
        t.path(),
        &[
            "audit",
            "log.jsonl",
            "--with-file",
            "p.jsonl",
            "--format",
            "json",
        ],
    );
    assert!(a.status.success(), "{}", show(&a));
    assert_eq!(a.stdout, b.stdout);
    let j: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(j["audit"]["with"][0]["id"], "AC9");
    assert!(!j["standings"].as_array().unwrap().is_empty());
}

/// The README's appeals-committee example runs as written (from the repository's root, on its
/// copy in /tmp) and leaves the copy as it was.
#[test]
fn the_readme_appeals_committee_example_runs() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let from = readme
        .find("An appeals committee asks before it rules")
        .expect("the README's appeals committee example");
    let rest = &readme[from..];
    let start = rest.find("```sh\n").unwrap() + "```sh\n".len();
    let block = &rest[start..start + rest[start..].find("```").unwrap()];
    let t = tmp("whatif-readme");
    // (the example's /tmp paths moved into a scratch directory of the test's own)
    let dir = t.path().display().to_string();
    let script = block.replace("/tmp/", &format!("{dir}/"));
    let o = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -e\nfrekans() {{ \"{}\" \"$@\"; }}\n{script}",
            env!("CARGO_BIN_EXE_frekans")
        ))
        .current_dir(common::root())
        .env("FREKANS_AUDIT_CACHE", t.path().join("cache"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{script}\n{}", show(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("What-if: the standings with 1 proposed event"),
        "{out}"
    );
    assert!(out.contains("Alternatives: 3 proposed rulings"), "{out}");
    assert!(
        out.contains("What-if: the board with 1 proposed event"),
        "{out}"
    );
    assert_eq!(
        std::fs::read(t.path().join("appeal.jsonl")).unwrap(),
        std::fs::read(common::root().join("events/mazovia-pairs-2026.jsonl")).unwrap()
    );
}

/// Issue 34: a proposal longer than an event line may be (1 MiB) was refused with `--no-cache`
/// but answered from the audit cache. Every hostile proposal (lines at and over the limit,
/// deep nesting, escapes of NUL and lone surrogates, raw control characters, numbers out of
/// range, unknown and repeated fields, the notation's fuzz findings, the log reader's, a
/// byte-order mark, bytes that are not UTF-8) gets the same answer, the same refusal and the
/// same exit status from the cache as without it, in `audit --with-file` and
/// `--alternatives`; the log is never changed.
#[test]
fn hostile_proposals_get_the_same_answer_with_and_without_the_cache() {
    let t = tmp("whatif-hostile");
    let demo = common::root().join("events/mazovia-pairs-2026.jsonl");
    let log = t.path().join("log.jsonl");
    std::fs::copy(&demo, &log).unwrap();
    let bytes = std::fs::read(&log).unwrap();
    let max = frekans::event::read::MAX_LINE;
    // A ruling whose note makes its line, as `append` would write it, `len` bytes long.
    let ruling = |id: &str, note: &str| {
        format!(
            r#"{{"type":"ruling","id":"{id}","session":"S1","board":5,"ns":"A8","score":"A","note":"{note}","at":"{NOW}"}}"#
        )
    };
    let sealed = |text: &str| {
        let p = frekans::event::append::propose(&bytes, &[text], NOW, None).unwrap();
        p.text.trim_end().len()
    };
    let base = sealed(&ruling("W1", ""));
    let sized = |len: usize| ruling("W1", &"x".repeat(len - base));
    assert_eq!(sealed(&sized(max)), max);
    let valid = ruling("W1", "");
    let deep = format!(
        r#"{{"type":"ruling","id":"W1","session":"S1","board":5,"ns":"A8","score":"A","note":{}{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let score = |s: &str| {
        format!(
            r#"{{"type":"ruling","id":"W1","session":"S1","board":5,"ns":"A8","score":{}}}"#,
            serde_json::Value::from(s.trim())
        )
    };
    let mut cases: Vec<(String, Vec<u8>)> = vec![
        ("valid".into(), valid.clone().into_bytes()),
        ("a line of exactly 1 MiB".into(), sized(max).into_bytes()),
        (
            "a line of 1 MiB and a byte".into(),
            sized(max + 1).into_bytes(),
        ),
        ("a line of 3 MiB".into(), sized(3 * max).into_bytes()),
        (
            "a valid proposal then one over 1 MiB".into(),
            format!("{valid}\n{}", sized(max + 10).replace("W1", "W2")).into_bytes(),
        ),
        ("deep nesting".into(), deep.into_bytes()),
        (
            "NUL and ESC escaped".into(),
            ruling("W1", "\\u0000\\u001b[2K").into_bytes(),
        ),
        (
            "a lone surrogate".into(),
            ruling("W1", "\\ud800").into_bytes(),
        ),
        (
            "a raw control character".into(),
            ruling("W1", "a\u{1}b\u{1b}").into_bytes(),
        ),
        (
            "a raw DEL and U+009B".into(),
            ruling("W1", "a\u{7f}\u{9b}").into_bytes(),
        ),
        (
            "a byte-order mark".into(),
            format!("\u{feff}{valid}").into_bytes(),
        ),
        ("not UTF-8".into(), [valid.as_bytes(), b"\xff\xfe"].concat()),
        (
            "two with one id".into(),
            format!("{valid}\n{valid}").into_bytes(),
        ),
        ("an empty object".into(), b"{}".to_vec()),
        ("an array".into(), b"[1,2]".to_vec()),
        ("null".into(), b"null".to_vec()),
        (
            "a huge board".into(),
            valid
                .replace("\"board\":5", "\"board\":4294967296")
                .into_bytes(),
        ),
        (
            "a board of 1e400".into(),
            valid.replace("\"board\":5", "\"board\":1e400").into_bytes(),
        ),
        (
            "a negative board".into(),
            valid.replace("\"board\":5", "\"board\":-1").into_bytes(),
        ),
        (
            "a board not played".into(),
            valid.replace("\"board\":5", "\"board\":999").into_bytes(),
        ),
        (
            "an unknown field".into(),
            valid.replace("{", "{\"zzz\":1,").into_bytes(),
        ),
        (
            "a repeated field".into(),
            valid.replace("{", "{\"score\":\"60%\",").into_bytes(),
        ),
        (
            "a number as an id".into(),
            valid.replace("\"W1\"", "7").into_bytes(),
        ),
        (
            "a seq given".into(),
            valid.replace("{", "{\"seq\":999,").into_bytes(),
        ),
        (
            "a hash given".into(),
            valid
                .replace("{", &format!("{{\"hash\":\"{}\",", "0".repeat(64)))
                .into_bytes(),
        ),
        (
            "an escaped type".into(),
            br#"{"\u0074ype":"ruling","id":"W1","session":"S1","board":5,"ns":"A8","score":"A"}"#
                .to_vec(),
        ),
        (
            "ESC in the type".into(),
            br#"{"type":"rul\u001bing"}"#.to_vec(),
        ),
        (
            "a correction of result 0".into(),
            br#"{"type":"correction","result":0,"tricks":9}"#.to_vec(),
        ),
        (
            "a correction of result 2^64".into(),
            br#"{"type":"correction","result":18446744073709551616,"tricks":9}"#.to_vec(),
        ),
        (
            "a penalty of 1e309".into(),
            br#"{"type":"penalty","session":"S1","participant":"A1","pct_of_top":1e309}"#.to_vec(),
        ),
        (
            "a withdrawal of no ruling".into(),
            br#"{"type":"ruling_withdrawn","ruling":"NOPE"}"#.to_vec(),
        ),
        (
            "an overflowing score".into(),
            score("(99999999999999999999999999999%+420)").into_bytes(),
        ),
    ];
    for dir in ["notation", "log_canonical", "log_reader"] {
        let d = common::root().join("fuzz/regressions").join(dir);
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut files: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files
            .into_iter()
            .filter(|f| f.file_name().is_some_and(|n| n != "README.md"))
        {
            let b = std::fs::read(&f).unwrap();
            let b = if dir == "notation" {
                score(&String::from_utf8_lossy(&b)).into_bytes()
            } else {
                b
            };
            cases.push((
                format!("{dir}/{}", f.file_name().unwrap().to_string_lossy()),
                b,
            ));
        }
    }
    // The cache made first (by the first audit of the log), then each proposal asked of it and
    // without it.
    std::fs::write(t.path().join("p.jsonl"), &valid).unwrap();
    let o = run_in(t.path(), &["audit", "log.jsonl", "--with-file", "p.jsonl"]);
    assert!(o.status.success(), "{}", show(&o));
    let mut answered = 0;
    for (what, file) in &cases {
        std::fs::write(t.path().join("p.jsonl"), file).unwrap();
        for how in ["--with-file", "--alternatives"] {
            let cached = run_in(t.path(), &["audit", "log.jsonl", how, "p.jsonl"]);
            let long = run_in(
                t.path(),
                &["audit", "log.jsonl", how, "p.jsonl", "--no-cache"],
            );
            // (a proposal of megabytes is echoed: the message shows the runs' ends)
            let brief = |o: &std::process::Output| {
                let s = show(o);
                match s.char_indices().nth(3000) {
                    Some((i, _)) => format!(
                        "{} … {}",
                        &s[..i],
                        &s[s.floor_char_boundary(s.len() - 1500)..]
                    ),
                    None => s,
                }
            };
            assert!(
                (cached.status.code(), &cached.stdout, &cached.stderr)
                    == (long.status.code(), &long.stdout, &long.stderr),
                "{what} ({how}): from the cache\n{}\nwithout it\n{}",
                brief(&cached),
                brief(&long)
            );
            assert!(
                matches!(long.status.code(), Some(0 | 2)),
                "{what} ({how}): {}",
                brief(&long)
            );
            answered += usize::from(long.status.success());
        }
        assert_eq!(std::fs::read(&log).unwrap(), bytes, "{what}");
    }
    // (the valid ones answered: the plain ruling, the 1 MiB line, the escapes, the BOM)
    assert!(answered >= 8, "{answered} answered");
}
