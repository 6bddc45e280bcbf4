//! Command-line and bad-input tests of the `frekans` binary (interface.md, event-log.md,
//! conventions.md C2–C4, C20): every error path of the reader and the replay names the line, the
//! field and what was expected; exit statuses 0/1/2; output directories written whole or not at
//! all; the same bytes whatever the thread count; `explain` and `--help`; replaying a prefix.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use frekans::app::{load_bytes, AppError, Loaded};
use frekans::replay::{ReplayScope, RulingStatus};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh, empty directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let p = std::env::temp_dir().join(format!(
            "frekans-cli-{}-{tag}-{n}-{nanos}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn demo_log() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("events/mazovia-pairs-2026.jsonl")
}

fn frekans(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .env_remove("FREKANS_LOG")
        .output()
        .expect("run frekans")
}

fn frekans_os(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .env_remove("FREKANS_LOG")
        .output()
        .expect("run frekans")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn show(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        o.status.code(),
        text(&o.stdout),
        text(&o.stderr)
    )
}

/// One error as printed: `line N: field "F": message` (or `line N: message`).
#[derive(Debug, Clone, PartialEq)]
struct Printed {
    line: usize,
    field: Option<String>,
    message: String,
}

/// Every `line N: ...` error line of stderr, in the order printed.
fn printed_errors(stderr: &str) -> Vec<Printed> {
    let mut out = Vec::new();
    for l in stderr.lines() {
        let l = l.trim_start();
        let Some(rest) = l.strip_prefix("line ") else {
            continue;
        };
        let Some((n, rest)) = rest.split_once(": ") else {
            continue;
        };
        let Ok(line) = n.parse::<usize>() else {
            continue;
        };
        let (field, message) = match rest.strip_prefix("field \"") {
            Some(r) => match r.split_once("\": ") {
                Some((f, m)) => (Some(f.to_string()), m.to_string()),
                None => (None, rest.to_string()),
            },
            None => (None, rest.to_string()),
        };
        out.push(Printed {
            line,
            field,
            message,
        });
    }
    out
}

/// Run `frekans check` on `bytes`; it must exit 2, print nothing on stdout, and list the errors.
fn check_invalid(bytes: &[u8]) -> (Vec<Printed>, String) {
    let dir = TempDir::new("inv");
    let log = dir.write("log.jsonl", bytes);
    let o = frekans_os(&["check".as_ref(), log.as_os_str()]);
    assert_eq!(o.status.code(), Some(2), "expected exit 2\n{}", show(&o));
    assert!(o.stdout.is_empty(), "nothing on stdout\n{}", show(&o));
    let stderr = text(&o.stderr);
    let errs = printed_errors(&stderr);
    assert!(!errs.is_empty(), "no `line N:` error printed\n{stderr}");
    // The header counts them.
    let n = errs.len();
    let header = format!("({n} error{})", if n == 1 { "" } else { "s" });
    assert!(
        stderr.contains(&header),
        "header should say {header}\n{stderr}"
    );
    (errs, stderr)
}

/// A small valid MP log that declares its pairs: session S1 (boards 1-4), pairs 1-4 (no section),
/// and two results on board 1 (1 v 2: 4H by N, 10 tricks = +420; 3 v 4: 3NT by S, 9 tricks = +400).
const BASE: &[&str] = &[
    r#"{"type":"championship","name":"Test"}"#,
    r#"{"type":"session","id":"S1","form":"mp","boards":"1-4"}"#,
    r#"{"type":"pair","id":"1","players":["Ann","Bob"]}"#,
    r#"{"type":"pair","id":"2","players":["Cid","Dot"]}"#,
    r#"{"type":"pair","id":"3","players":["Eve","Fay"]}"#,
    r#"{"type":"pair","id":"4","players":["Gus","Hal"]}"#,
    r#"{"type":"result","session":"S1","board":1,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10}"#,
    r#"{"type":"result","session":"S1","board":1,"ns":"3","ew":"4","contract":"3NT","declarer":"S","tricks":9}"#,
];

/// The base log followed by `extra`; returns the text and the line number of `extra[0]`.
fn with(extra: &[&str]) -> (String, usize) {
    let mut s = String::new();
    for l in BASE.iter().chain(extra) {
        s.push_str(l);
        s.push('\n');
    }
    (s, BASE.len() + 1)
}

/// The log `BASE + extra` must be invalid with exactly one error, on line `BASE.len() + 1 +
/// offset`, naming `field` (None: a line-level error with no field), whose message contains
/// every phrase of `phrases`.
fn one_error(extra: &[&str], offset: usize, field: Option<&str>, phrases: &[&str]) {
    let (log, first) = with(extra);
    expect_errors(log.as_bytes(), &[(first + offset, field, phrases)]);
}

/// The log must be invalid with exactly the `expected` errors (line, field, phrases), in this
/// order.
fn expect_errors(bytes: &[u8], expected: &[(usize, Option<&str>, &[&str])]) {
    let (errs, stderr) = check_invalid(bytes);
    assert_eq!(
        errs.len(),
        expected.len(),
        "expected {} error(s), got {}:\n{stderr}",
        expected.len(),
        errs.len()
    );
    for (e, (line, field, phrases)) in errs.iter().zip(expected) {
        assert_eq!(e.line, *line, "line number\n{stderr}");
        assert_eq!(e.field.as_deref(), *field, "field\n{stderr}");
        for p in *phrases {
            assert!(
                e.message.contains(p),
                "message of line {line} should contain {p:?}: {:?}\n{stderr}",
                e.message
            );
        }
        // The printed form is exactly `line N: field "F": ...`.
        let head = match field {
            Some(f) => format!("line {line}: field \"{f}\": "),
            None => format!("line {line}: "),
        };
        assert!(stderr.contains(&head), "{head:?} not in\n{stderr}");
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Every error path of the reader and the replay
// ---------------------------------------------------------------------------------------------

#[test]
fn base_log_is_valid() {
    let (log, _) = with(&[]);
    let dir = TempDir::new("base");
    let p = dir.write("log.jsonl", log.as_bytes());
    let o = frekans_os(&["check".as_ref(), p.as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(text(&o.stdout).contains("valid"), "{}", show(&o));
}

#[test]
fn err_invalid_json() {
    one_error(
        &[r#"{"type":"pair","id":"9","players":["X","Y"]"#],
        0,
        None,
        &["invalid JSON", "column"],
    );
}

#[test]
fn err_invalid_json_last_line_cut_off() {
    // The last line has no newline: a torn write gets a hint.
    let (mut log, first) = with(&[]);
    log.push_str(r#"{"type":"pair","id":"9","pla"#);
    expect_errors(
        log.as_bytes(),
        &[(first, None, &["invalid JSON", "cut off"])],
    );
}

#[test]
fn err_invalid_utf8() {
    let (log, first) = with(&[]);
    let mut bytes = log.into_bytes();
    bytes.extend_from_slice(b"{\"type\":\"pair\",\"id\":\"9\",\"players\":[\"J\xff\xfez\"]}\n");
    expect_errors(&bytes, &[(first, None, &["invalid UTF-8", "byte"])]);
}

#[test]
fn err_not_an_object() {
    one_error(
        &[r#"["type","pair"]"#],
        0,
        None,
        &["expected a JSON object", "found a list"],
    );
}

#[test]
fn err_missing_type() {
    one_error(
        &[r#"{"id":"9","players":["X","Y"]}"#],
        0,
        Some("type"),
        &["missing", "expected a string"],
    );
}

#[test]
fn err_unknown_type() {
    one_error(
        &[r#"{"type":"board_result","session":"S1"}"#],
        0,
        Some("type"),
        &["unknown event type \"board_result\"", "expected", "result"],
    );
}

#[test]
fn err_unknown_field() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10,"tricks_taken":10}"#,
        ],
        0,
        Some("tricks_taken"),
        &["unknown field", "\"result\"", "expected one of", "tricks"],
    );
}

#[test]
fn err_missing_board() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10}"#,
        ],
        0,
        Some("board"),
        &["missing", "expected an integer 1..="],
    );
}

#[test]
fn err_tricks_out_of_range() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":14}"#,
        ],
        0,
        Some("tricks"),
        &["expected an integer 0..=13", "found 14"],
    );
}

#[test]
fn err_board_zero() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":0,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10}"#,
        ],
        0,
        Some("board"),
        &["expected an integer 1..=", "found 0"],
    );
}

#[test]
fn err_contract_level_8() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"2","contract":"8H","declarer":"N","tricks":10}"#,
        ],
        0,
        Some("contract"),
        &["expected a contract", "\"8H\""],
    );
}

#[test]
fn err_contract_bad_text() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"2","contract":"four hearts","declarer":"N","tricks":10}"#,
        ],
        0,
        Some("contract"),
        &["expected a contract such as \"4HX\"", "\"four hearts\""],
    );
}

#[test]
fn err_tricks_and_result_disagree() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10,"result":"-1"}"#,
        ],
        0,
        Some("result"),
        &[
            "disagrees with \"tricks\"",
            "4H with 10 tricks is =",
            "not -1",
        ],
    );
}

#[test]
fn err_score_disagrees_with_contract() {
    // Board 1: nobody vulnerable; 4H by N making 10 tricks is +420.
    one_error(
        &[
            r#"{"type":"pair","id":"5"}"#,
            r#"{"type":"pair","id":"6"}"#,
            r#"{"type":"result","session":"S1","board":1,"ns":"5","ew":"6","contract":"4H","declarer":"N","tricks":10,"score":450}"#,
        ],
        2,
        Some("score"),
        &["450 disagrees with the contract", "420"],
    );
}

#[test]
fn err_id_as_number() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":2,"ns":1,"ew":"2","contract":"4H","declarer":"N","tricks":10}"#,
        ],
        0,
        Some("ns"),
        &[
            "expected an id as a JSON string",
            "found the number 1",
            "\"1\"",
        ],
    );
}

#[test]
fn err_seq_wrong() {
    // BASE has 8 event lines: the next event is seq 9.
    one_error(
        &[r#"{"type":"pair","id":"9","seq":12,"players":["X","Y"]}"#],
        0,
        Some("seq"),
        &["expected 9", "found 12"],
    );
}

#[test]
fn seq_counts_event_lines_not_comments() {
    // A comment and a blank line do not count: the line after them is still seq 9.
    let (log, _) = with(&[
        "// a comment",
        "",
        r#"{"type":"pair","id":"9","seq":9,"players":["X","Y"]}"#,
    ]);
    let dir = TempDir::new("seqok");
    let p = dir.write("log.jsonl", log.as_bytes());
    let o = frekans_os(&["check".as_ref(), p.as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
}

#[test]
fn err_unknown_session() {
    one_error(
        &[
            r#"{"type":"result","session":"S9","board":2,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10}"#,
        ],
        0,
        Some("session"),
        &["unknown session \"S9\"", "\"S1\""],
    );
}

#[test]
fn err_board_not_in_session() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":5,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10}"#,
        ],
        0,
        Some("board"),
        &["board 5 is not in session \"S1\"", "1-4"],
    );
}

#[test]
fn err_undeclared_participant() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"77","contract":"4H","declarer":"N","tricks":10}"#,
        ],
        0,
        Some("ew"),
        &["\"77\" is not declared", "C2"],
    );
}

#[test]
fn err_undeclared_participant_in_ruling_and_penalty() {
    let (log, first) = with(&[
        r#"{"type":"ruling","id":"R1","session":"S1","board":3,"ns":"88","ew":"2","score":"A"}"#,
        r#"{"type":"penalty","session":"S1","participant":"99","pct_of_top":25}"#,
    ]);
    expect_errors(
        log.as_bytes(),
        &[
            (first, Some("ns"), &["\"88\" is not declared"]),
            (first + 1, Some("participant"), &["\"99\""]),
        ],
    );
}

#[test]
fn err_same_pair_both_sides() {
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"1","contract":"4H","declarer":"N","tricks":10}"#,
        ],
        0,
        Some("ew"),
        &["the same pair \"1\" on both sides"],
    );
}

#[test]
fn err_pair_plays_board_twice() {
    // Pair 1 plays board 2 as NS against 2, then as EW against 3.
    one_error(
        &[
            r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10}"#,
            r#"{"type":"result","session":"S1","board":2,"ns":"3","ew":"1","contract":"4H","declarer":"N","tricks":10}"#,
        ],
        1,
        Some("ew"),
        &[
            "pair \"1\" already played board 2",
            "NS \"1\"",
            "at most once",
        ],
    );
}

#[test]
fn err_ruling_names_no_score() {
    one_error(
        &[
            r#"{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"2","law":"12C1(c)"}"#,
        ],
        0,
        Some("score"),
        &["missing", "subsequent_damage"],
    );
}

#[test]
fn err_ruling_weights_do_not_sum_to_100() {
    one_error(
        &[
            r#"{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"2","score":"(60%+620&30%-100)"}"#,
        ],
        0,
        Some("score"),
        &["90%", "100%"],
    );
}

#[test]
fn err_subsequent_damage_trap() {
    // NOS NS: +620 before, +800 after the infraction, +200 after the loss: p(A) ≥ p(B) fails;
    // the §5.6 fallback is NS keep the table result, EW get offenders: (+200)/(+620).
    one_error(
        &[
            r#"{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"2","subsequent_damage":{"side":"NS","before":"+620","after_infraction":"+800","after_loss":"+200"}}"#,
        ],
        0,
        Some("subsequent_damage"),
        &["refused", "p(A) ≥ p(B) fails", "(+200)/(+620)"],
    );
}

#[test]
fn err_ruling_for_missing_table_without_ew() {
    one_error(
        &[r#"{"type":"ruling","id":"R1","session":"S1","board":3,"ns":"1","score":"A"}"#],
        0,
        Some("ew"),
        &[
            "missing",
            "no result was recorded",
            "board 3",
            "name the EW pair",
        ],
    );
}

#[test]
fn err_ruling_wrong_ew() {
    one_error(
        &[
            r#"{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"3","score":"(+620)"}"#,
        ],
        0,
        Some("ew"),
        &["had EW \"2\"", "not \"3\""],
    );
}

#[test]
fn err_supersedes_unknown_ruling() {
    one_error(
        &[
            r#"{"type":"ruling","id":"R2","session":"S1","board":1,"ns":"1","ew":"2","score":"(+620)","supersedes":"R1"}"#,
        ],
        0,
        Some("supersedes"),
        &["no ruling \"R1\""],
    );
}

#[test]
fn err_withdraw_unknown_ruling() {
    one_error(
        &[r#"{"type":"ruling_withdrawn","ruling":"R5"}"#],
        0,
        Some("ruling"),
        &["no ruling \"R5\""],
    );
}

#[test]
fn err_withdraw_withdrawn_ruling() {
    one_error(
        &[
            r#"{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"2","score":"(+620)"}"#,
            r#"{"type":"ruling_withdrawn","ruling":"R1"}"#,
            r#"{"type":"ruling_withdrawn","ruling":"R1"}"#,
        ],
        2,
        Some("ruling"),
        &["\"R1\" was already withdrawn"],
    );
}

#[test]
fn err_withdraw_superseded_ruling() {
    one_error(
        &[
            r#"{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"2","score":"(+620)"}"#,
            r#"{"type":"ruling","id":"R2","session":"S1","board":1,"ns":"1","ew":"2","score":"(+170)","supersedes":"R1"}"#,
            r#"{"type":"ruling_withdrawn","ruling":"R1"}"#,
        ],
        2,
        Some("ruling"),
        &["superseded by \"R2\"", "withdraw \"R2\""],
    );
}

#[test]
fn err_correction_names_nothing() {
    // Seq 7 is the first result of BASE.
    one_error(
        &[r#"{"type":"correction","result":7}"#],
        0,
        Some("result"),
        &["at least one field"],
    );
}

#[test]
fn err_correction_of_a_non_result() {
    // Seq 3 is a `pair` event.
    one_error(
        &[r#"{"type":"correction","result":3,"tricks":9}"#],
        0,
        Some("result"),
        &["expected the seq of an earlier \"result\" event", "found 3"],
    );
}

#[test]
fn err_correction_of_a_later_result() {
    // Seq 10 is a result, but after the correction.
    one_error(
        &[
            r#"{"type":"correction","result":10,"tricks":9}"#,
            r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10}"#,
        ],
        0,
        Some("result"),
        &[
            "expected the seq of an earlier \"result\" event",
            "found 10",
        ],
    );
}

#[test]
fn err_correction_score_disagrees_with_its_contract() {
    // The correction gives 10 tricks and a score of +450 to seq 7 (4H by N, board 1: +420):
    // the error is the correction's, and is reported on its line.
    one_error(
        &[r#"{"type":"correction","result":7,"tricks":10,"score":450}"#],
        0,
        Some("score"),
        &["450 disagrees with the contract", "420"],
    );
}

#[test]
fn err_correction_leaves_an_incomplete_result() {
    // Seq 9 is a result given as a score only; a correction giving a declarer alone drops the
    // score (C3) and leaves no contract.
    let (log, first) = with(&[
        r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"2","score":-100}"#,
        r#"{"type":"correction","result":9,"declarer":"N"}"#,
    ]);
    expect_errors(
        log.as_bytes(),
        &[
            (
                first + 1,
                Some("contract"),
                &["after this correction the result of seq 9", "missing"],
            ),
            (
                first + 1,
                Some("declarer"),
                &["after this correction", "without a contract"],
            ),
        ],
    );
}

#[test]
fn err_penalty_unit_not_for_form() {
    one_error(
        &[r#"{"type":"penalty","session":"S1","participant":"1","imp":3,"law":"90B"}"#],
        0,
        Some("imp"),
        &["\"mp\" session takes penalties in", "\"pct_of_top\"", "C20"],
    );
}

#[test]
fn err_unknown_option() {
    one_error(
        &[
            r#"{"type":"session","id":"S2","form":"mp","boards":"1-4","options":{"neuberg_smallfield":"off"}}"#,
        ],
        0,
        Some("options"),
        &["unknown option \"neuberg_smallfield\""],
    );
}

#[test]
fn err_option_bad_value() {
    one_error(
        &[
            r#"{"type":"session","id":"S2","form":"mp","boards":"1-4","options":{"neuberg_small_field":"sometimes"}}"#,
        ],
        0,
        Some("options"),
        &[
            "\"neuberg_small_field\"",
            "expected one of",
            "\"he_table\"",
            "\"sometimes\"",
        ],
    );
}

#[test]
fn err_option_of_another_form() {
    one_error(
        &[
            r#"{"type":"session","id":"S2","form":"mp","boards":"1-4","options":{"butler_trim":{"count":1}}}"#,
        ],
        0,
        Some("options"),
        &["\"butler_trim\""],
    );
}

#[test]
fn err_deal_with_51_cards() {
    // West has 12 cards (the ♣2 is missing).
    one_error(
        &[
            r#"{"type":"deal","session":"S1","board":1,"pbn":"N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.543"}"#,
        ],
        0,
        Some("pbn"),
        &["expected a PBN deal", "12 cards"],
    );
}

#[test]
fn err_duplicate_pair_id() {
    one_error(
        &[r#"{"type":"pair","id":"3","players":["Ivy","Jim"]}"#],
        0,
        Some("id"),
        &["\"3\" is already declared", "unique"],
    );
}

#[test]
fn err_duplicate_ruling_id() {
    one_error(
        &[
            r#"{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"2","score":"(+620)"}"#,
            r#"{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"3","ew":"4","score":"(+600)"}"#,
        ],
        1,
        Some("id"),
        &["ruling \"R1\" already exists", "unique"],
    );
}

#[test]
fn three_errors_on_three_lines_all_reported_in_order() {
    // Errors from the reader (line 3 of extra) and from the replay (lines 1 and 5 of extra),
    // interleaved with valid lines: all three are printed, in line order.
    let (log, first) = with(&[
        r#"{"type":"result","session":"S9","board":2,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10}"#,
        r#"{"type":"result","session":"S1","board":2,"ns":"3","ew":"4","contract":"4H","declarer":"N","tricks":10}"#,
        r#"{"type":"result","session":"S1","board":3,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":14}"#,
        r#"{"type":"result","session":"S1","board":3,"ns":"3","ew":"4","contract":"4H","declarer":"N","tricks":10}"#,
        r#"{"type":"pair","id":"2","players":["Again","Twice"]}"#,
    ]);
    expect_errors(
        log.as_bytes(),
        &[
            (first, Some("session"), &["unknown session \"S9\""]),
            (first + 2, Some("tricks"), &["found 14"]),
            (first + 4, Some("id"), &["already declared"]),
        ],
    );
}

#[test]
fn several_errors_on_one_line_all_reported() {
    // One line, three problems: all named.
    let (log, first) = with(&[
        r#"{"type":"result","session":"S1","board":0,"ns":"1","ew":"2","contract":"4H","declarer":"Q","tricks":14}"#,
    ]);
    let (errs, stderr) = check_invalid(log.as_bytes());
    let fields: Vec<_> = errs.iter().map(|e| (e.line, e.field.clone())).collect();
    for f in ["board", "declarer", "tricks"] {
        assert!(
            fields.contains(&(first, Some(f.to_string()))),
            "field {f} on line {first}:\n{stderr}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 2. The demo: check and score
// ---------------------------------------------------------------------------------------------

const TABLES: [&str; 5] = [
    "scores.parquet",
    "frequencies.parquet",
    "boards.parquet",
    "standings.parquet",
    "rulings.parquet",
];

fn list_dir(p: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(p)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `at` is an RFC 3339 time read by a time library (issue 17): what the calendar does not have is
/// refused on the line and field where it is, a leap second is taken where one can fall (the
/// last second of a UTC day, whatever the offset it is written in), and offsets are read.
#[test]
fn at_times_are_read_by_the_calendar() {
    let valid = [
        "2026-11-21T14:05:00+01:00",
        "2026-11-21T13:05:00Z",
        "2026-11-21T14:05:00.123+05:45",
        "2026-11-21T08:35:00-04:30",
        "2024-02-29T00:00:00Z",
        "2016-12-31T23:59:60Z",
        "2016-12-31T18:59:60-05:00",
    ];
    let invalid = [
        "2026-13-01T00:00:00Z",
        "2026-00-10T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "2025-02-29T00:00:00Z",
        "2026-04-31T12:00:00Z",
        "2026-11-21T24:00:00Z",
        "2026-11-21T14:60:00Z",
        "2026-11-21T12:00:60Z",
        "2016-12-31T23:59:60+01:00",
        "2026-11-21T14:05:00",
        "2026-11-21T14:05:00+25:00",
        "2026-11-21",
        "21/11/2026 14:05",
        "2026-11-21T14:05:00Zjunk",
    ];
    let mut lines = vec![
        r#"{"type":"championship","name":"C","at":"2026-02-30T10:00:00Z"}"#.to_string(),
        r#"{"type":"session","id":"S1","form":"mp","boards":"1-30","at":"2026-11-21T09:00:00+01:00"}"#.to_string(),
    ];
    let mut bad_lines = vec![1];
    for (k, at) in valid.iter().chain(invalid.iter()).enumerate() {
        lines.push(format!(
            r#"{{"type":"result","session":"S1","board":{},"ns":"1","ew":"2","score":420,"at":"{at}"}}"#,
            k + 1
        ));
        if k >= valid.len() {
            bad_lines.push(lines.len());
        }
    }
    // The full reader too (a ruling is not read by the fast result scanner).
    lines.push(
        r#"{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"2","score":"A","at":"2026-11-31T10:00:00Z"}"#
            .to_string(),
    );
    bad_lines.push(lines.len());
    let (errs, stderr) = check_invalid(lines.join("\n").as_bytes());
    let at_lines: Vec<usize> = errs
        .iter()
        .filter(|e| e.field.as_deref() == Some("at"))
        .map(|e| e.line)
        .collect();
    assert_eq!(at_lines, bad_lines, "{stderr}");
    assert_eq!(
        errs.len(),
        bad_lines.len(),
        "only the times are wrong\n{stderr}"
    );
    assert!(
        stderr.contains("expected an RFC 3339 time") && stderr.contains("\"2026-13-01T00:00:00Z\""),
        "{stderr}"
    );
}

#[test]
fn check_demo_exits_0() {
    let o = frekans_os(&["check".as_ref(), demo_log().as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(text(&o.stdout).contains("valid"), "{}", show(&o));
}

#[test]
fn score_demo_writes_the_five_tables() {
    let dir = TempDir::new("demo");
    let out = dir.path().join("out");
    let o = frekans_os(&[
        "score".as_ref(),
        demo_log().as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let mut want: Vec<String> = TABLES.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(list_dir(&out), want);
    for t in TABLES {
        let b = std::fs::read(out.join(t)).unwrap();
        assert!(b.len() > 8, "{t} is empty");
        assert_eq!(&b[..4], b"PAR1", "{t} does not start with PAR1");
        assert_eq!(&b[b.len() - 4..], b"PAR1", "{t} does not end with PAR1");
    }
    let stdout = text(&o.stdout);
    assert!(stdout.contains("overall"), "{}", show(&o));
    // Nothing else left beside it.
    assert_eq!(list_dir(dir.path()), vec!["out".to_string()]);
}

#[test]
fn score_quiet_prints_nothing() {
    let dir = TempDir::new("quiet");
    let out = dir.path().join("out");
    let o = frekans_os(&[
        "-q".as_ref(),
        "score".as_ref(),
        demo_log().as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(o.stdout.is_empty(), "{}", show(&o));
    assert!(out.join("scores.parquet").exists());
}

// ---------------------------------------------------------------------------------------------
// 3. Nothing half-written
// ---------------------------------------------------------------------------------------------

/// A valid copy of BASE, and an invalid one (a bad contract on the last line).
fn small_logs(dir: &TempDir) -> (PathBuf, PathBuf) {
    let (good, _) = with(&[]);
    let (bad, _) = with(&[
        r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"2","contract":"9Q","declarer":"N","tricks":10}"#,
    ]);
    (
        dir.write("good.jsonl", good.as_bytes()),
        dir.write("bad.jsonl", bad.as_bytes()),
    )
}

fn no_temporaries(parent: &Path, name: &str) {
    for f in list_dir(parent) {
        assert!(
            !f.starts_with(&format!(".{name}.tmp-")) && !f.starts_with(&format!(".{name}.old-")),
            "leftover {f} in {}",
            parent.display()
        );
    }
}

#[test]
fn invalid_log_does_not_create_out() {
    let dir = TempDir::new("nocreate");
    let (_, bad) = small_logs(&dir);
    let out = dir.path().join("out");
    let o = frekans_os(&[
        "score".as_ref(),
        bad.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        text(&o.stderr).contains("field \"contract\""),
        "{}",
        show(&o)
    );
    assert!(!out.exists(), "{} was created", out.display());
    no_temporaries(dir.path(), "out");
}

#[test]
fn invalid_log_leaves_existing_out_untouched_and_valid_log_replaces_it() {
    let dir = TempDir::new("keep");
    let (good, bad) = small_logs(&dir);
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let old_scores = b"old scores, not parquet".to_vec();
    let notes = "notes kept by the director\n".as_bytes().to_vec();
    std::fs::write(out.join("scores.parquet"), &old_scores).unwrap();
    std::fs::write(out.join("notes.txt"), &notes).unwrap();

    let o = frekans_os(&[
        "score".as_ref(),
        bad.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert_eq!(
        std::fs::read(out.join("scores.parquet")).unwrap(),
        old_scores
    );
    assert_eq!(std::fs::read(out.join("notes.txt")).unwrap(), notes);
    assert_eq!(
        list_dir(&out),
        vec!["notes.txt".to_string(), "scores.parquet".to_string()]
    );
    no_temporaries(dir.path(), "out");

    let o = frekans_os(&[
        "score".as_ref(),
        good.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let scores = std::fs::read(out.join("scores.parquet")).unwrap();
    assert_ne!(scores, old_scores);
    assert_eq!(&scores[..4], b"PAR1");
    assert_eq!(std::fs::read(out.join("notes.txt")).unwrap(), notes);
    let mut want: Vec<String> = TABLES.iter().map(|s| s.to_string()).collect();
    want.push("notes.txt".to_string());
    want.sort();
    assert_eq!(list_dir(&out), want);
    no_temporaries(dir.path(), "out");
}

#[test]
fn out_that_is_a_file_is_refused_and_left_alone() {
    let dir = TempDir::new("outfile");
    let (good, _) = small_logs(&dir);
    let out = dir.write("out", b"precious\n");
    let o = frekans_os(&[
        "score".as_ref(),
        good.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(
        text(&o.stderr).contains(&out.display().to_string()),
        "the message names the path\n{}",
        show(&o)
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        b"precious\n",
        "the file is left as it was"
    );
    no_temporaries(dir.path(), "out");
}

// ---------------------------------------------------------------------------------------------
// 4. Exit 1
// ---------------------------------------------------------------------------------------------

#[test]
fn missing_log_exits_1_naming_the_path() {
    let dir = TempDir::new("missing");
    let log = dir.path().join("no-such-log.jsonl");
    let out = dir.path().join("out");
    for args in [
        vec!["check".as_ref(), log.as_os_str()],
        vec![
            "score".as_ref(),
            log.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ],
    ] {
        let o = frekans_os(&args);
        assert_eq!(o.status.code(), Some(1), "{}", show(&o));
        assert!(
            text(&o.stderr).contains(&log.display().to_string()),
            "stderr should name {}\n{}",
            log.display(),
            show(&o)
        );
    }
    assert!(!dir.path().join("out").exists());
}

#[test]
fn explain_board_without_results_exits_2() {
    // (a bad request: exit 2, as everywhere; issue 19)
    // Board 4 of S1 is in the session but nobody played it.
    let dir = TempDir::new("explain1");
    let (log, _) = with(&[]);
    let p = dir.write("log.jsonl", log.as_bytes());
    let o = frekans_os(&[
        "explain".as_ref(),
        p.as_os_str(),
        "--session".as_ref(),
        "S1".as_ref(),
        "--board".as_ref(),
        "4".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(text(&o.stderr).contains("board 4"), "{}", show(&o));
    assert!(text(&o.stderr).contains("no results"), "{}", show(&o));
}

#[test]
fn explain_unknown_session_exits_2() {
    let o = frekans_os(&[
        "explain".as_ref(),
        demo_log().as_os_str(),
        "--session".as_ref(),
        "S7".as_ref(),
        "--board".as_ref(),
        "1".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(text(&o.stderr).contains("S7"), "{}", show(&o));
}

#[test]
fn explain_section_that_did_not_play_exits_2() {
    let o = frekans_os(&[
        "explain".as_ref(),
        demo_log().as_os_str(),
        "--session".as_ref(),
        "S1".as_ref(),
        "--board".as_ref(),
        "5".as_ref(),
        "--section".as_ref(),
        "Z".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(text(&o.stderr).contains("\"Z\""), "{}", show(&o));
    assert!(o.stdout.is_empty(), "{}", show(&o));
}

#[test]
fn explain_invalid_log_exits_2() {
    let dir = TempDir::new("explain2");
    let (_, bad) = small_logs(&dir);
    let o = frekans_os(&[
        "explain".as_ref(),
        bad.as_os_str(),
        "--session".as_ref(),
        "S1".as_ref(),
        "--board".as_ref(),
        "1".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(o.stdout.is_empty(), "{}", show(&o));
}

// ---------------------------------------------------------------------------------------------
// 5. Same bytes whatever the thread count
// ---------------------------------------------------------------------------------------------

#[test]
fn same_bytes_with_one_or_two_threads() {
    let dir = TempDir::new("threads");
    let mut outputs: Vec<BTreeMap<&str, Vec<u8>>> = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("out{threads}"));
        let o = frekans_os(&[
            "--threads".as_ref(),
            threads.as_ref(),
            "score".as_ref(),
            demo_log().as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", show(&o));
        outputs.push(
            TABLES
                .iter()
                .map(|t| (*t, std::fs::read(out.join(t)).unwrap()))
                .collect(),
        );
    }
    for t in TABLES {
        assert!(
            outputs[0][t] == outputs[1][t],
            "{t} differs between --threads 1 and --threads 2"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 6. explain and --help
// ---------------------------------------------------------------------------------------------

#[test]
fn explain_ruled_board_of_the_demo() {
    // R3: S1 board 5, section A, A8 v A26, (60%+620&40%-100) (events/README.md).
    let o = frekans_os(&[
        "explain".as_ref(),
        demo_log().as_os_str(),
        "--session".as_ref(),
        "S1".as_ref(),
        "--board".as_ref(),
        "5".as_ref(),
        "--section".as_ref(),
        "A".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let s = text(&o.stdout);
    assert!(s.contains("R3"), "ruling id\n{s}");
    assert!(s.contains("(60%+620&40%-100)"), "notation\n{s}");
    assert!(s.to_lowercase().contains("frequency table"), "{s}");
    // Each component's matchpoints, weighted, and their sum.
    assert!(s.contains("60% ×   +620"), "component 60% × +620\n{s}");
    assert!(s.contains("40% ×   -100"), "component 40% × -100\n{s}");
    assert!(s.contains("Σ ="), "the sum of the components\n{s}");
    assert!(s.contains("A8") && s.contains("A26"), "{s}");
}

#[test]
fn explain_superseded_ruling_shows_the_appeal() {
    // R8 supersedes R2 on S1 board 14, section A.
    let o = frekans_os(&[
        "explain".as_ref(),
        demo_log().as_os_str(),
        "--session".as_ref(),
        "S1".as_ref(),
        "--board".as_ref(),
        "14".as_ref(),
        "--section".as_ref(),
        "A".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let s = text(&o.stdout);
    assert!(s.contains("R8"), "{s}");
    assert!(s.contains("(60%+420&30%+450&10%-50)"), "{s}");
    assert!(s.contains("supersedes R2"), "{s}");
    assert!(
        !s.contains("(50%+420&30%+450&20%-50)"),
        "R2's score is not in force\n{s}"
    );
}

#[test]
fn help_shows_examples() {
    for args in [
        vec!["--help"],
        vec!["score", "--help"],
        vec!["check", "--help"],
        vec!["explain", "--help"],
        vec!["help", "score"],
    ] {
        let o = frekans(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}\n{}", show(&o));
        assert!(
            text(&o.stdout).contains("Example"),
            "{args:?} shows no example\n{}",
            show(&o)
        );
    }
}

#[test]
fn usage_errors_exit_nonzero_not_0() {
    // clap's own usage errors: a missing --out, an unknown command.
    for args in [vec!["score", "x.jsonl"], vec!["frobnicate"], vec![]] {
        let o = frekans(&args);
        assert_ne!(o.status.code(), Some(0), "{args:?}\n{}", show(&o));
        assert!(!o.stderr.is_empty(), "{args:?}\n{}", show(&o));
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Replaying a prefix (library level)
// ---------------------------------------------------------------------------------------------

/// seq 1 session; 2-5 pairs; 6: 1 v 2 board 1, 4H= (+420); 7: 3 v 4 board 1, 4H+1 (+450);
/// 8: ruling R1 (+500) on 1 v 2; 9: correction of seq 7 to 9 tricks (−50);
/// 10: R2 (−100) supersedes R1; 11: R2 withdrawn.
const PREFIX_LOG: &str = r#"{"type":"session","id":"S1","form":"mp","boards":"1-2"}
{"type":"pair","id":"1"}
{"type":"pair","id":"2"}
// a comment does not count as an event
{"type":"pair","id":"3"}
{"type":"pair","id":"4"}
{"type":"result","session":"S1","board":1,"ns":"1","ew":"2","contract":"4H","declarer":"N","tricks":10}
{"type":"result","session":"S1","board":1,"ns":"3","ew":"4","contract":"4H","declarer":"N","tricks":11}
{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"2","score":"(+500)"}
{"type":"correction","result":7,"tricks":9}
{"type":"ruling","id":"R2","session":"S1","board":1,"ns":"1","ew":"2","score":"(-100)","supersedes":"R1"}
{"type":"ruling_withdrawn","ruling":"R2"}
"#;

fn as_of(k: Option<usize>) -> Loaded {
    match load_bytes(
        PREFIX_LOG.as_bytes(),
        &ReplayScope {
            upto: k,
            ..Default::default()
        },
    ) {
        Ok(l) => l,
        Err(AppError::Invalid(e)) => panic!("invalid: {e}"),
        Err(e) => panic!("{e}"),
    }
}

/// (score, adjusted, ns_points) of participant `p` on board 1.
fn board1(l: &Loaded, p: &str) -> (f64, bool, Option<f64>) {
    let scored = frekans::pipeline::score(&l.state).expect("score");
    let t = frekans::export::rows::build(&l.state, &scored);
    let r = t
        .scores
        .iter()
        .find(|r| r.board == 1 && r.participant == p)
        .unwrap_or_else(|| panic!("no score row for {p}"));
    (r.score, r.adjusted, r.ns_points)
}

fn ruling_in_force(l: &Loaded, ns: &str) -> Option<String> {
    let s = l.state.session_index("S1").unwrap();
    let pid = l.state.pid(ns).unwrap();
    let t = &l.state.tables[&(s, 1, pid)];
    t.ruling(&l.state).map(|r| r.ev.id.clone())
}

fn status(l: &Loaded, id: &str) -> RulingStatus {
    l.state.ruling_by_id(id).unwrap().status.clone()
}

#[test]
fn prefix_before_the_ruling_scores_the_table_result() {
    let l = as_of(Some(7));
    assert_eq!(l.state.applied, 7);
    assert_eq!(ruling_in_force(&l, "1"), None);
    assert!(l.state.rulings.is_empty());
    // 420 against 450: pair 1 gets 0 of top 2, unadjusted.
    assert_eq!(board1(&l, "1"), (0.0, false, Some(420.0)));
    assert_eq!(board1(&l, "2"), (2.0, false, Some(420.0)));
}

#[test]
fn prefix_with_the_ruling_scores_the_ruling() {
    let l = as_of(Some(8));
    assert_eq!(ruling_in_force(&l, "1").as_deref(), Some("R1"));
    assert_eq!(status(&l, "R1"), RulingStatus::InForce);
    // +500 against +450: pair 1 gets 2; the table result stays on record (C21).
    assert_eq!(board1(&l, "1"), (2.0, true, Some(420.0)));
    assert_eq!(board1(&l, "2"), (0.0, true, Some(420.0)));
}

#[test]
fn prefix_with_the_correction() {
    let before = as_of(Some(8));
    let after = as_of(Some(9));
    let s = after.state.session_index("S1").unwrap();
    let p3 = after.state.pid("3").unwrap();
    let t_before = &before.state.tables[&(s, 1, p3)];
    let t_after = &after.state.tables[&(s, 1, p3)];
    assert_eq!(t_before.played.as_ref().unwrap().ns_points, 450);
    let played = t_after.played.as_ref().unwrap();
    assert_eq!(played.ns_points, -50);
    assert_eq!(played.corrections, vec![9]);
    assert_eq!(played.play.tricks, Some(9));
    // Pair 3 (NS, -50) now loses to the ruling's +500 at the other table.
    assert_eq!(board1(&after, "3"), (0.0, false, Some(-50.0)));
}

#[test]
fn prefix_with_the_superseding_ruling() {
    let l = as_of(Some(10));
    assert_eq!(ruling_in_force(&l, "1").as_deref(), Some("R2"));
    assert_eq!(
        status(&l, "R1"),
        RulingStatus::Superseded {
            by: "R2".to_string()
        }
    );
    // −100 against −50: pair 1 gets 0.
    assert_eq!(board1(&l, "1"), (0.0, true, Some(420.0)));
}

#[test]
fn withdrawing_the_superseding_ruling_does_not_revive_the_superseded_one() {
    // C4: R2 superseded R1 for good; withdrawing R2 leaves the table result.
    for l in [as_of(Some(11)), as_of(None)] {
        assert_eq!(ruling_in_force(&l, "1"), None);
        assert_eq!(
            status(&l, "R1"),
            RulingStatus::Superseded {
                by: "R2".to_string()
            }
        );
        assert!(matches!(
            status(&l, "R2"),
            RulingStatus::Withdrawn { seq: 11 }
        ));
        // The table result +420 against -50: pair 1 gets 2, unadjusted.
        assert_eq!(board1(&l, "1"), (2.0, false, Some(420.0)));
        let scored = frekans::pipeline::score(&l.state).unwrap();
        let t = frekans::export::rows::build(&l.state, &scored);
        assert!(
            t.rulings.is_empty(),
            "no ruling in force: {:?}",
            t.rulings.len()
        );
    }
}

#[test]
fn a_prefix_is_validated_against_the_whole_log() {
    // An error after the prefix still makes the log invalid (a log with any error scores
    // nothing), whatever the scope.
    let mut log = PREFIX_LOG.to_string();
    log.push_str(r#"{"type":"ruling_withdrawn","ruling":"R2"}"#);
    log.push('\n');
    let r = load_bytes(
        log.as_bytes(),
        &ReplayScope {
            upto: Some(3),
            ..Default::default()
        },
    );
    match r {
        Err(AppError::Invalid(e)) => {
            assert_eq!(e.errors.len(), 1, "{e}");
            assert_eq!(e.errors[0].line, 13, "{e}");
            assert_eq!(e.errors[0].field.as_deref(), Some("ruling"), "{e}");
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("accepted"),
    }
}

/// Progress bars are for terminals only: scoring with stderr piped (CI, cron, a file) writes
/// nothing to it, and `-v` reports each stage's time through tracing instead.
#[test]
fn no_progress_bars_when_stderr_is_not_a_terminal() {
    let dir = TempDir::new("progress");
    let out = dir.path().join("out");
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/events/mazovia-pairs-2026.jsonl"
    );
    let o = frekans(&["score", log, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        o.stderr.is_empty(),
        "stderr: {:?}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = frekans(&["-v", "score", log, "--out", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    for stage in ["read", "replay", "score", "parquet"] {
        assert!(
            err.contains(stage) && err.contains("time.busy"),
            "{stage} not in {err}"
        );
    }
    assert!(!err.contains('\r'), "a progress bar was drawn: {err:?}");
}

/// CI (`.ci/run`) runs the README's test command, the second line of its first `sh` block, and
/// after it the habits' checks (clippy with warnings as errors, rustfmt).
#[test]
fn ci_runs_the_readme_test_command() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let block: Vec<&str> = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap()
        .lines()
        .collect();
    let test_command = block[1].trim();
    assert_eq!(test_command, "bash scripts/test.sh");
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    let commands: Vec<&str> = ci
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("echo"))
        .collect();
    let at = |c: &str| commands.iter().position(|l| *l == c);
    let tests = at(test_command).expect(".ci/run must run the README's test command");
    let clippy = at("cargo clippy --release --all-targets --locked -- -D warnings")
        .expect(".ci/run must run clippy with warnings as errors");
    let fmt = at("cargo fmt --all --check").expect(".ci/run must check the formatting");
    assert!(
        tests < clippy && tests < fmt,
        "the habits are checked after the tests"
    );
}
