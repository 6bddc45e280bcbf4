//! What-if audits (`audit --with`, `--alternatives`, `explain --with`, issue 22): a what-if is
//! the audit of the log with the proposed events appended, against the log as it is. Checked
//! against the long way round a committee would take without it: append the events to a copy
//! of the log with `append`'s own code and audit the copy (`--as-of` the log's last event, and
//! `--ruling ID` of an appended ruling), for every kind of proposal in every form; refusals are
//! `append`'s, and nothing is written to the log.

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
    let mut j = frekans::audit::to_json(a);
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
            let long = frekans::app::whatif(&log, &texts, None, None, NOW);
            let via = frekans::app::whatif(&log, &texts, None, Some(&cache), NOW);
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
                &cache,
                &frekans::audit::cache::log_key(bytes),
            )
            .expect("the log's cache");
            let mut c = c;
            let p = frekans::event::append::propose(
                bytes,
                &texts.iter().map(String::as_str).collect::<Vec<_>>(),
                NOW,
                None,
            )
            .unwrap();
            match frekans::audit::whatif::whatif_cached(bytes, &mut c, &p).unwrap() {
                frekans::audit::whatif::Cached::Answer(a) => {
                    assert_eq!(answer(&a), answer(&reference), "{what} {kind}: cached");
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
