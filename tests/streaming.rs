//! The streaming reader of `check` and `score` (each parsed batch replayed and dropped, the next
//! batch parsed meanwhile) gives exactly what reading every event first and replaying them gives:
//! the same state, the same event count, the same errors, whatever the batch size.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use frekans::app::{load_bytes, AppError, LoadLog};

fn load_streamed_batched(bytes: &[u8], batch: usize) -> Result<frekans::app::Loaded, AppError> {
    Ok(LoadLog {
        batch,
        ..LoadLog::default()
    }
    .bytes(bytes)?)
}
use frekans::replay::ReplayScope;

fn same(bytes: &[u8], what: &str) -> bool {
    let whole = load_bytes(bytes, &ReplayScope::default());
    for batch in [1, 2, 3, 7, 64, frekans::event::read::BATCH] {
        let streamed = load_streamed_batched(bytes, batch);
        match (&whole, &streamed) {
            (Ok(w), Ok(s)) => {
                assert_eq!(
                    w.events.len(),
                    s.count,
                    "{what}, batch {batch}: event count"
                );
                assert_eq!(
                    format!("{:?}", w.state),
                    format!("{:?}", s.state),
                    "{what}, batch {batch}: state"
                );
            }
            (Err(AppError::Invalid(a)), Err(AppError::Invalid(b))) => {
                assert_eq!(a.errors, b.errors, "{what}, batch {batch}: errors");
            }
            _ => panic!("{what}, batch {batch}: one path accepts the log and the other does not"),
        }
    }
    whole.is_ok()
}

#[test]
fn streamed_equals_whole_on_demos_and_fixtures() {
    let mut valid = 0;
    let logs: Vec<_> = common::demo_logs()
        .into_iter()
        .chain(common::fixture_logs())
        .collect();
    for log in &logs {
        let bytes = std::fs::read(log).unwrap();
        valid += same(&bytes, &log.display().to_string()) as usize;
    }
    // Most fixtures are valid logs; a few are refused on purpose (the C6 trap).
    assert!(valid > logs.len() / 2, "{valid} of {} valid", logs.len());
}

/// Invalid logs: errors found by the reader and by the replay, on lines in different batches.
#[test]
fn streamed_equals_whole_on_invalid_logs() {
    let demo =
        std::fs::read_to_string(common::root().join("events/mazovia-pairs-2026.jsonl")).unwrap();
    let lines: Vec<&str> = demo.lines().collect();
    let results: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("\"type\":\"result\""))
        .collect();
    assert!(results.len() > 100);
    // The demo with some lines replaced: (line index, the new text made from the old).
    let edit = |changes: &[(usize, &dyn Fn(&str) -> String)]| -> String {
        let mut out = String::new();
        for (i, l) in lines.iter().enumerate() {
            match changes.iter().find(|(k, _)| *k == i) {
                Some((_, f)) => out.push_str(&f(l)),
                None => out.push_str(l),
            }
            out.push('\n');
        }
        out
    };
    let (a, b, c) = (
        results[3],
        results[results.len() / 2],
        results[results.len() - 1],
    );
    let not_json = |l: &str| format!("{l}}}");
    let cases = [
        // Not JSON, in three places.
        edit(&[(a, &not_json), (b, &not_json), (c, &not_json)]),
        // A board outside the session (a replay error) and a field of the wrong type.
        edit(&[
            (a, &|l| l.replace("\"board\":", "\"board\":9000, \"x\":")),
            (c, &|l| l.replace("\"board\":", "\"board\":\"one\", \"y\":")),
        ]),
        // A result recorded twice (the pair played the board twice).
        edit(&[(b, &|l| format!("{l}\n{l}"))]),
        // An undeclared pair in a log that declares its pairs.
        edit(&[(b, &|l| l.replace("\"ns\":\"", "\"ns\":\"ZZ"))]),
        // The first lines only (a torn last line without its newline).
        demo[..demo.len() / 3].to_string(),
    ];
    for (k, log) in cases.iter().enumerate() {
        assert!(
            !same(log.as_bytes(), &format!("case {k}")),
            "case {k} should be invalid"
        );
    }
}

/// A log that declares no pairs (participants come from the results, C2), read in batches that
/// split its sessions, pairs and results differently.
#[test]
fn streamed_equals_whole_without_declared_pairs() {
    let log = "{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\",\"boards\":\"1-2\"}\n\
{\"type\":\"result\",\"session\":\"S1\",\"board\":1,\"ns\":\"1\",\"ew\":\"2\",\"contract\":\"4S\",\"declarer\":\"N\",\"result\":\"=\"}\n\
{\"type\":\"result\",\"session\":\"S1\",\"board\":1,\"ns\":\"3\",\"ew\":\"4\",\"contract\":\"3NT\",\"declarer\":\"S\",\"result\":\"+1\"}\n\
{\"type\":\"session\",\"id\":\"S2\",\"form\":\"ximp\",\"boards\":\"1-2\"}\n\
{\"type\":\"result\",\"session\":\"S2\",\"board\":2,\"ns\":\"1\",\"ew\":\"3\",\"contract\":\"2H\",\"declarer\":\"E\",\"result\":\"-1\"}\n\
{\"type\":\"ruling\",\"id\":\"R1\",\"session\":\"S1\",\"board\":1,\"ns\":\"3\",\"score\":\"(60% +630 & 40% +600)\"}\n\
{\"type\":\"penalty\",\"session\":\"S2\",\"participant\":\"1\",\"imp\":3}\n";
    assert!(same(log.as_bytes(), "undeclared"));
}

/// `plain` lines, each given its link of a hash chain starting at the genesis.
fn hashed<S: AsRef<str>>(plain: &[S]) -> Vec<String> {
    use frekans::event::chain::{canonical, link, GENESIS};
    let mut lines = Vec::new();
    let mut prev = GENESIS.to_string();
    for l in plain {
        let serde_json::Value::Object(mut map) = serde_json::from_str(l.as_ref()).unwrap() else {
            unreachable!()
        };
        let h = link(&prev, &canonical(&map));
        map.insert("hash".into(), serde_json::Value::String(h.clone()));
        lines.push(serde_json::to_string(&map).unwrap());
        prev = h;
    }
    lines
}

/// A chained log longer than one batch: the chain (verified in parallel a batch at a time, each
/// link against the hash written on the line before it) names exactly the first line altered,
/// removed or inserted, wherever it falls among the batches.
#[test]
fn the_hash_chain_is_verified_across_batches() {
    let n = frekans::event::read::BATCH * 2 + 1000;
    let mut plain = vec![
        "{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\",\"boards\":\"1-9999\"}".to_string(),
    ];
    for k in 0..n {
        plain.push(format!(
            "{{\"type\":\"result\",\"session\":\"S1\",\"board\":{},\"ns\":\"N{}\",\"ew\":\"E{}\",\"contract\":\"3NT\",\"declarer\":\"N\",\"result\":\"=\"}}",
            1 + k % 9999,
            k / 9999,
            k / 9999
        ));
    }
    // A hand-written head of two lines, then every line hashed.
    let mut lines = plain[..2].to_vec();
    lines.extend(hashed(&plain[2..]));
    let text = |ls: &[String]| ls.join("\n") + "\n";
    let errors = |log: &str| -> Vec<String> {
        match load_streamed_batched(log.as_bytes(), frekans::event::read::BATCH) {
            Ok(_) => Vec::new(),
            Err(AppError::Invalid(e)) => e.errors.iter().map(|e| e.to_string()).collect(),
            Err(e) => panic!("{e}"),
        }
    };
    assert_eq!(errors(&text(&lines)), Vec::<String>::new());
    // One error, the chain breaking at line `line` (1-based).
    let breaks_at = |log: &[String], line: usize| {
        let e = errors(&text(log));
        assert_eq!(e.len(), 1, "{e:?}");
        let want = format!("line {line}: field \"hash\": the hash chain breaks here");
        assert!(e[0].starts_with(&want), "{e:?}");
    };
    // Altered in the second batch: that line.
    let k = frekans::event::read::BATCH + 77;
    let mut altered = lines.clone();
    altered[k] = altered[k].replace("\"result\":\"=\"", "\"result\":\"+1\"");
    breaks_at(&altered, k + 1);
    // Removed at the end of the first batch: the next line breaks.
    let k = frekans::event::read::BATCH - 1;
    let mut removed = lines.clone();
    removed.remove(k);
    breaks_at(&removed, k + 1);
    // An unhashed line inserted in the third batch.
    let k = 2 * frekans::event::read::BATCH + 5;
    let mut inserted = lines.clone();
    inserted.insert(
        k,
        plain[1]
            .replace("\"board\":1,", "\"board\":9999,\"table\":1,")
            .replace("N0", "X")
            .replace("E0", "Y"),
    );
    let e = errors(&text(&inserted));
    assert!(
        e.iter()
            .any(|m| m.starts_with(&format!("line {}: field \"hash\": missing", k + 1))),
        "{e:?}"
    );
    assert_eq!(
        e.iter().filter(|m| m.contains("field \"hash\"")).count(),
        1,
        "{e:?}"
    );
}

/// The reading of a log `import` has just sealed itself (`replay_sealed`) skips only the hash
/// chain: on a log with its chain broken and a result of a pair never declared, the sealed
/// reading reports the pair (as `check` does, same words) and not the chain, and replays the
/// same state as the full reading.
#[test]
fn a_sealed_reading_skips_the_chain_only() {
    let plain = [
        "{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\",\"boards\":\"1-2\"}",
        "{\"type\":\"pair\",\"id\":\"1\",\"players\":[\"A\",\"B\"]}",
        "{\"type\":\"pair\",\"id\":\"2\",\"players\":[\"C\",\"D\"]}",
        "{\"type\":\"result\",\"session\":\"S1\",\"board\":1,\"ns\":\"1\",\"ew\":\"2\",\"contract\":\"4S\",\"declarer\":\"N\",\"result\":\"=\"}",
        "{\"type\":\"result\",\"session\":\"S1\",\"board\":2,\"ns\":\"1\",\"ew\":\"9\",\"contract\":\"3NT\",\"declarer\":\"S\",\"result\":\"+1\"}",
    ];
    let mut lines = hashed(&plain);
    // The chain broken at line 4 (its result altered after it was hashed).
    lines[3] = lines[3].replace("\"result\":\"=\"", "\"result\":\"+1\"");
    let log = lines.join("\n") + "\n";
    let msgs = |r: &frekans::replay::Streamed| -> Vec<String> {
        r.errors.iter().map(|e| e.to_string()).collect()
    };
    let full = frekans::replay::replay_streamed(log.as_bytes(), 2, None);
    let sealed = frekans::replay::replay_sealed(log.as_bytes(), 2);
    let (full_msgs, sealed_msgs) = (msgs(&full), msgs(&sealed));
    assert_eq!(full_msgs.len(), 2, "{full_msgs:?}");
    assert!(
        full_msgs[0].starts_with("line 4: field \"hash\""),
        "{full_msgs:?}"
    );
    assert!(full_msgs[1].starts_with("line 5:"), "{full_msgs:?}");
    assert_eq!(sealed_msgs, full_msgs[1..].to_vec());
    assert_eq!(sealed.events, full.events);
    assert_eq!(format!("{:?}", sealed.state), format!("{:?}", full.state));
    assert_eq!(sealed.head, None);
}
