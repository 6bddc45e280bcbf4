//! Individual events (issue 38), what the log reader and replay refuse: each hostile individual
//! log of `tests/data/individual/hostile/` (a player seated twice on a board, a player partnering
//! themself, a result naming three players, seats in a pairs session, pairs in an individual one,
//! a kind a form cannot take, a ruling naming its table as pairs do...) is refused by `frekans
//! check` with exit status 2 and an error at the line and field `expected.json` gives, whose text
//! says what is wrong. (The scoring of individual events is checked by the golden fixtures
//! `fixtures/IND-*`.)
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::process::Command;

use serde_json::Value;

fn check(path: &std::path::Path) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .arg("check")
        .arg(path)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn hostile_individual_logs_are_refused_at_their_line_and_field() {
    let dir = common::root().join("tests/data/individual/hostile");
    let expected: Value =
        serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap();
    let cases = expected["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 14);
    let mut wrong = Vec::new();
    for c in cases {
        let file = c["file"].as_str().unwrap();
        let (code, err) = check(&dir.join(file));
        let at = format!(
            "line {}: field \"{}\"",
            c["line"].as_u64().unwrap(),
            c["field"].as_str().unwrap()
        );
        let first = err.lines().find(|l| l.contains("line ")).unwrap_or("");
        let says = c["contains"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| first.contains(s.as_str().unwrap()));
        if code != 2 || !first.contains(&at) || !says {
            wrong.push(format!("{file}: exit {code}, first error: {first}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The valid counterparts: every golden individual log checks clean.
#[test]
fn the_individual_fixtures_check_clean() {
    for id in ["IND-MP-1", "IND-RULINGS", "IND-NEUBERG", "IND-MISSED"] {
        let (code, err) = check(
            &common::root()
                .join("fixtures")
                .join(id)
                .join("events.jsonl"),
        );
        assert_eq!(code, 0, "{id}: {err}");
    }
}

/// A ruling that made a table (board not played there) and is then withdrawn frees the four
/// players it seated: each may then play the board at another table, as a pair may.
#[test]
fn a_withdrawn_ruling_unseats_all_four_players() {
    let log = r#"{"type":"session","id":"S1","form":"mp","boards":"1-2","kind":"individual"}
{"type":"result","session":"S1","board":1,"north":"1","south":"2","east":"3","west":"4","score":420}
{"type":"ruling","id":"R1","session":"S1","board":1,"north":"5","south":"6","east":"7","west":"8","score":"A+/A-"}
{"type":"ruling_withdrawn","ruling":"R1"}
{"type":"result","session":"S1","board":1,"north":"9","south":"6","east":"10","west":"8","score":450}
"#;
    let dir = std::env::temp_dir().join(format!("frekans-ind-withdrawn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("log.jsonl");
    std::fs::write(&path, log).unwrap();
    let (code, err) = check(&path);
    assert_eq!(code, 0, "{err}");
    // (and without the withdrawal, South 6 and West 8 are seated twice)
    let twice: String = log
        .lines()
        .filter(|l| !l.contains("ruling_withdrawn"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, twice).unwrap();
    let (code, err) = check(&path);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("line 4: field \"south\": player \"6\" already played board 1"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The golden individual fixtures' expected values and the hostile logs' lines and fields,
/// recomputed by another route than frekans (`tools/individual_fixtures/check.py`: its own
/// reader, exact fractions): the fixtures are not the program's own output.
#[test]
fn the_fixtures_are_checked_by_another_route() {
    let python = std::env::var_os("FREKANS_PYTHON").unwrap_or_else(|| "python3".into());
    let o = Command::new(python)
        .arg(common::root().join("tools/individual_fixtures/check.py"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("hostile: 14 logs, 0 problem(s)"), "{out}");
    assert_eq!(out.matches(", 0 problem(s)").count(), 7, "{out}");
}
