use super::*;

/// [`result_row`] as `Row`'s own pushes write it: the reference it is compared with.
fn result_row_by_pushes(t: TableView, play: &Play) -> Row {
    let mut r = Row::new(false);
    if let Some(sec) = t.section {
        r.str("section", sec);
    }
    r.num("board", t.board.into());
    if let Some(x) = t.round {
        r.num("round", x.into());
    }
    if let Some(x) = t.table {
        r.num("table", x.into());
    }
    r.str("ns", t.ns).str("ew", t.ew);
    for (k, v) in [("contract", &play.contract), ("declarer", &play.declarer)] {
        if let Some(v) = v {
            r.str(k, v);
        }
    }
    if let Some(x) = play.tricks {
        r.num("tricks", x.into());
    }
    if let Some(x) = &play.result {
        r.str("result", x);
    }
    if let Some(x) = play.score {
        r.num("score", x.into());
    }
    if let Some(l) = &play.lead {
        r.str("lead", l);
    }
    r
}

proptest::proptest! {
    /// A result's text made in one piece is the one `Row`'s pushes make: every member, in
    /// order, strings escaped (quotes, backslashes, control characters, other scripts).
    #[test]
    fn result_rows_as_by_pushes(
        texts in proptest::collection::vec(
            proptest::option::of("[A1\"\\\\\u{1}\u{1f}ż ]{0,5}"), 7),
        numbers in proptest::collection::vec(proptest::option::of(-10_000i32..10_000), 4),
        board in 0u32..10_001,
    ) {
        let t = TableView {
            section: texts[0].as_deref(),
            board,
            round: numbers[0].map(|x| x.unsigned_abs()),
            table: numbers[1].map(|x| x.unsigned_abs()),
            ns: texts[1].as_deref().unwrap_or(""),
            ew: texts[2].as_deref().unwrap_or("1"),
            others: None,
        };
        let play = Play {
            contract: texts[3].clone(),
            declarer: texts[4].clone(),
            tricks: numbers[2].map(|x| (x.unsigned_abs() % 14) as u8),
            result: texts[5].clone(),
            score: numbers[3],
            lead: texts[6].clone(),
        };
        let (a, b) = (result_row(t, &play), result_row_by_pushes(t, &play));
        proptest::prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
}
