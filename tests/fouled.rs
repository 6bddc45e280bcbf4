//! Fouled boards (Law 87, conventions C30–C35): what the log refuses, and a group scored alone.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use frekans::app::{load_bytes, AppError};
use frekans::replay::ReplayScope;

const HEAD: &str = r#"{"type":"session","id":"S1","form":"mp","boards":"1-2"}
{"type":"result","session":"S1","board":1,"ns":"1","ew":"101","score":620}
{"type":"result","session":"S1","board":1,"ns":"2","ew":"102","score":420}
{"type":"result","session":"S1","board":1,"ns":"3","ew":"103","score":100}
{"type":"result","session":"S1","board":1,"ns":"4","ew":"104","score":100}
"#;

fn errors(extra: &str) -> String {
    match load_bytes(
        format!("{HEAD}{extra}\n").as_bytes(),
        &ReplayScope::default(),
    ) {
        Err(AppError::Invalid(e)) => e.to_string(),
        Err(e) => panic!("{e}"),
        Ok(_) => String::new(),
    }
}

#[test]
fn refusals_name_the_fouled_line() {
    let e = errors(r#"{"type":"fouled","session":"S1","board":1,"groups":[["1","101"]]}"#);
    assert!(
        e.contains("line 6: field \"groups\"") && e.contains("sat EW"),
        "{e}"
    );
    let e = errors(r#"{"type":"fouled","session":"S1","board":1,"groups":[["1","2"],["2"]]}"#);
    assert!(e.contains("listed twice"), "{e}");
    let e = errors(r#"{"type":"fouled","session":"S1","board":2,"groups":[["1"]]}"#);
    assert!(e.contains("no table on board 2"), "{e}");
    let e = errors(r#"{"type":"fouled","session":"S1","board":1,"groups":[]}"#);
    assert!(e.contains("non-empty list"), "{e}");
    let e = errors(r#"{"type":"fouled","session":"S1","board":1,"groups":[[1]]}"#);
    assert!(e.contains("ids are JSON strings"), "{e}");
}

#[test]
fn team_sessions_refuse_fouled_boards() {
    let log = r#"{"type":"session","id":"T","form":"teams","boards":"1-1"}
{"type":"match","session":"T","id":"M","home":"A","away":"B","boards":"1-1"}
{"type":"result","session":"T","match":"M","room":"open","board":1,"ns":"A","ew":"B","score":100}
{"type":"fouled","session":"T","board":1,"groups":[["A"]]}
"#;
    match load_bytes(log.as_bytes(), &ReplayScope::default()) {
        Err(AppError::Invalid(e)) => assert!(
            e.to_string().contains("Law 86B2") && e.to_string().contains("C35"),
            "{e}"
        ),
        _ => panic!("accepted"),
    }
}

#[test]
fn each_group_is_its_own_field_and_one_group_is_no_fouling() {
    let score = |extra: &str| {
        let l = load_bytes(
            format!("{HEAD}{extra}\n").as_bytes(),
            &ReplayScope::default(),
        )
        .unwrap();
        let s = frekans::pipeline::score(&l.state).unwrap();
        frekans::export::rows::build(&l.state, &s)
            .scores
            .iter()
            .map(|r| (r.participant.clone(), r.score))
            .collect::<Vec<_>>()
    };
    let plain = score("");
    // Every table listed in one group: exactly the unfouled scores (C31).
    assert_eq!(
        score(r#"{"type":"fouled","session":"S1","board":1,"groups":[["1","2","3","4"]]}"#),
        plain
    );
    // Tables 1 and 2 played another version: {620, 420} and {100, 100}, each factored to N = 4
    // (small field: 2 results -> 55% / 65% of top 6 = 3.3 / 3.9; a tie -> 60% each = 3.6).
    let fouled = score(r#"{"type":"fouled","session":"S1","board":1,"groups":[["1","2"]]}"#);
    let get = |p: &str| fouled.iter().find(|x| x.0 == p).unwrap().1;
    assert!(
        (get("1") - 3.9).abs() < 1e-9 && (get("2") - 3.3).abs() < 1e-9,
        "{fouled:?}"
    );
    assert!(
        (get("3") - 3.6).abs() < 1e-9 && (get("104") - 3.6).abs() < 1e-9,
        "{fouled:?}"
    );
}
