//! `frekans audit`: the standings with and without a ruling (and what supersedes it), and as of
//! a point of the log, against values worked by hand (tests/data/audit-small.jsonl).
//!
//! Before (no ruling, table 4 keeps −100): NS 6/4/2/0, EW 0/2/4/6 (top 6).
//! After (R2 in force: 60% +620 & 40% +420): NS line 620: 1.6, 420: 1.4, 100: 1 →
//! NS 1: 2·2.4 + 1.6 − 1 = 5.4; 2: 2·1 + 1.4 − 1 = 2.4; 3: 0; 4: 0.6·6.4 + 0.4·3.4 − 1 = 4.2;
//! EW = 6 − NS: 101 0.6, 102 3.6, 103 6, 104 1.8.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::process::Command;

mod common;

use serde_json::Value;

/// `frekans audit tests/data/audit-small.jsonl ARGS`: (exit code, the JSON when it printed
/// JSON, standard output and error).
fn audit(args: &[&str]) -> (i32, Value, String) {
    audit_of("tests/data/audit-small.jsonl", args)
}

/// `frekans audit LOG ARGS` of a log of the repository (as [`audit`]).
fn audit_of(log: &str, args: &[&str]) -> (i32, Value, String) {
    let log = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(log);
    // (the audit cache in a directory of the test's own, not the user's)
    let cache = std::env::temp_dir().join(format!("frekans-audit-cli-{}", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .env("FREKANS_AUDIT_CACHE", &cache)
        .arg("audit")
        .arg(log)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    let v = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (
        o.status.code().unwrap_or(-1),
        v,
        stdout + &String::from_utf8_lossy(&o.stderr),
    )
}

fn row<'a>(v: &'a Value, session: &str, p: &str) -> &'a Value {
    v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["session"] == session && r["participant"] == p)
        .unwrap_or_else(|| panic!("no row {session} {p}"))
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() < 1e-9
}

#[test]
fn ruling_audit_leaves_out_the_superseding_appeal_too() {
    let (code, v, text) = audit(&["--ruling", "R1", "--format", "json"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(v["audit"]["ruling"], "R1");
    let expect = [
        ("1", 6.0, 5.4, 1, 2),
        ("2", 4.0, 2.4, 3, 5),
        ("3", 2.0, 0.0, 5, 8),
        ("4", 0.0, 4.2, 7, 3),
        ("101", 0.0, 0.6, 7, 7),
        ("102", 2.0, 3.6, 5, 4),
        ("103", 4.0, 6.0, 3, 1),
        ("104", 6.0, 1.8, 1, 6),
    ];
    for (p, before, after, rb, ra) in expect {
        let r = row(&v, "S1", p);
        assert!(
            close(&r["total_before"], before) && close(&r["total_after"], after),
            "{p}: {r}"
        );
        assert!(
            close(&r["pct_before"], before / 6.0 * 100.0)
                && close(&r["pct_after"], after / 6.0 * 100.0),
            "{p}: {r}"
        );
        assert_eq!(
            (
                r["rank_before"].as_i64().unwrap(),
                r["rank_after"].as_i64().unwrap()
            ),
            (rb, ra),
            "{p}: {r}"
        );
        let o = row(&v, "overall", p);
        assert!(close(&o["total_after"], after));
    }
    // Every participant of the changed board, with its score before and after.
    let boards = v["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 8);
    let b4 = boards.iter().find(|b| b["participant"] == "4").unwrap();
    assert!(close(&b4["score_before"], 0.0) && close(&b4["score_after"], 4.2));
    // Who moved most comes first within the group.
    let first = &v["standings"][0];
    assert_eq!(first["participant"], "104", "{first}");
    let ids: Vec<&str> = v["rulings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ruling"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["R1", "R2"]);
}

#[test]
fn as_of_and_between_compare_prefixes() {
    // After event 5 (before any ruling) against today's: the same differences as the ruling audit.
    let (code, v, text) = audit(&["--as-of", "5", "--format", "json"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(v["audit"]["as_of"], 5);
    assert!(
        close(&row(&v, "S1", "4")["total_before"], 0.0)
            && close(&row(&v, "S1", "4")["total_after"], 4.2)
    );
    // Between R1 (event 6) and R2 (event 7): table 4 goes from +420 (NS 4, tied with 2) to the weighted score.
    let (code, v, text) = audit(&["--between", "6", "7", "--format", "json"]);
    assert_eq!(code, 0, "{text}");
    let r = row(&v, "S1", "4");
    assert!(
        close(&r["total_before"], 3.0) && close(&r["total_after"], 4.2),
        "{r}"
    );
    // Nothing between a point and itself.
    let (_, v, _) = audit(&["--between", "7", "7", "--format", "json"]);
    assert!(v["standings"].as_array().unwrap().is_empty());
}

#[test]
fn readable_report_and_bad_questions() {
    let (code, _, text) = audit(&["--ruling", "R1"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("ruling R2")
            && text.contains("Appeals committee")
            && text.contains("(60%+620&40%+420)"),
        "{text}"
    );
    assert!(
        text.contains("7 → 3"),
        "rank of pair 4 before and after:\n{text}"
    );
    assert!(
        text.contains("  pair ") && !text.contains("  team "),
        "{text}"
    );
    // A team championship's report heads its columns "team".
    let teams = "events/polish-teams-2026.jsonl";
    let (code, _, text) = audit_of(teams, &["--ruling", "R2", "--no-cache"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("  team ") && !text.contains("  pair "),
        "{text}"
    );
    // The delta is the exact difference of the totals (90.34 → 91.56: 1.22, not the
    // 1.2199999999999989 of subtracting their floats).
    let (code, v, text) = audit_of(teams, &["--ruling", "R2", "--no-cache", "--format", "json"]);
    assert_eq!(code, 0, "{text}");
    let t1 = &v["standings"][0];
    assert_eq!(
        (t1["participant"].as_str(), t1["total_before"].as_f64()),
        (Some("T1"), Some(90.34))
    );
    assert_eq!(t1["delta"].as_f64(), Some(1.22), "{t1}");
    let (code, _, text) = audit(&["--ruling", "R9"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no ruling \"R9\""), "{text}");
    let (code, _, text) = audit(&["--as-of", "99"]);
    assert_eq!(code, 2, "{text}");
    let out = std::env::temp_dir().join(format!("frekans-audit-{}", std::process::id()));
    let (code, _, text) = audit(&["--ruling", "R1", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    for f in ["audit_standings.parquet", "audit_boards.parquet"] {
        let bytes = std::fs::read(out.join(f)).unwrap();
        assert!(bytes.starts_with(b"PAR1"), "{f}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The incremental audit (the other replay restricted to the boards the differing events touch,
/// only those re-scored, standings recomputed from the rest) answers exactly as scoring both
/// replays whole: for every ruling of both demos and of the fixtures, and for points of the log.
#[test]
fn incremental_audit_equals_whole_replays() {
    use frekans_core::audit::Question;
    // Questions compared; answered incrementally; of which someone moved.
    let (mut compared, mut incremental, mut moved, mut team_rulings) = (0, 0, 0, 0);
    for log in common::audited_logs() {
        let bytes = std::fs::read(&log).unwrap();
        let (events, full, mut questions, last) =
            common::replayed(&bytes, &log.display().to_string());
        for k in [0, last / 3, last / 2, last - 5, last - 1] {
            questions.push(Question::AsOf(k));
            questions.push(Question::Between(k, (k + 7).min(last)));
        }
        let scored = frekans_core::pipeline::score(&full).unwrap();
        for q in questions {
            let a = common::audit_replayed(&events, &full, None, &q, true).unwrap();
            // Reusing a whole-log scoring (the bulletin's way) answers the same.
            let reused = common::audit_replayed(&events, &full, Some(&scored), &q, true).unwrap();
            assert_eq!(reused, a, "{} {q:?}: scored reused", log.display());
            let mut b = common::audit_replayed(&events, &full, None, &q, false).unwrap();
            assert!(!b.incremental);
            // A ruling (but on a fouled board) is answered incrementally, in team sessions too.
            if matches!(q, Question::Ruling(_)) && !log.ends_with("EBU-FOULED/events.jsonl") {
                assert!(a.incremental, "{} {q:?}: not incremental", log.display());
                team_rulings += usize::from(log.to_string_lossy().to_lowercase().contains("teams"));
            }
            if a.incremental {
                incremental += 1;
                moved += usize::from(!a.standings.is_empty());
            }
            b.incremental = a.incremental;
            assert_eq!(a, b, "{} {q:?}", log.display());
            // The streamed JSON is the contract's object.
            let mut streamed = Vec::new();
            frekans_core::audit::write_json(&a, &mut streamed).unwrap();
            // (compared as text: serde_json's default float parsing does not always round-trip)
            assert_eq!(
                String::from_utf8(streamed).unwrap(),
                format!("{}\n", common::audit_json(&a))
            );
            compared += 1;
        }
    }
    assert!(compared > 60, "{compared}");
    assert!(team_rulings > 5, "{team_rulings} team rulings");
    assert!(
        incremental > 20 && moved > 15,
        "{incremental} incremental, {moved} moved"
    );
}
