//! Reference checks for the victory-point scales (laws-and-formats.md §2, conventions C18):
//! the WBF 2013 continuous 20-VP tables against the published tables
//! (fixtures/reference/wbf_vp20_published.csv, copied from spec/samples/), the spot values and
//! table sizes of §2.1, the need for the convexity adjustment, concavity for 1..=64 boards,
//! fractional and negative margins (C18), the WBF discrete bands (§2.3) and custom tables.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use frekans_core::bridge::vp::{vp, wbf_discrete_bands, wbf_table, wbf_table_unadjusted, VpScale};
use frekans_core::num::Q;
use serde_json::json;
use std::collections::BTreeMap;

fn q(s: &str) -> Q {
    Q::parse(s).unwrap_or_else(|| panic!("bad number {s}"))
}

/// boards → (margin → (winner, loser)) from the published tables, rows in file order.
fn published() -> BTreeMap<u32, Vec<(u32, Q, Q)>> {
    let path = format!(
        "{}/fixtures/reference/wbf_vp20_published.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    assert_eq!(
        lines.next().map(str::trim),
        Some("boards,imp_margin,vp_winner,vp_loser")
    );
    let mut out: BTreeMap<u32, Vec<(u32, Q, Q)>> = BTreeMap::new();
    for l in lines {
        let f: Vec<&str> = l.split(',').map(str::trim).collect();
        assert_eq!(f.len(), 4, "{l}");
        out.entry(f[0].parse().unwrap()).or_default().push((
            f[1].parse().unwrap(),
            q(f[2]),
            q(f[3]),
        ));
    }
    out
}

/// §2.1's table: boards → number of entries (M = 0..=⌈B⌉).
const ENTRIES: [(u32, usize); 10] = [
    (6, 38),
    (7, 41),
    (8, 44),
    (9, 46),
    (10, 49),
    (12, 53),
    (14, 58),
    (16, 61),
    (20, 69),
    (32, 86),
];

#[test]
fn published_tables_match_exactly() {
    let pubd = published();
    assert_eq!(
        pubd.keys().copied().collect::<Vec<_>>(),
        ENTRIES.iter().map(|e| e.0).collect::<Vec<_>>()
    );
    let mut checked = 0;
    for (boards, n) in ENTRIES {
        let rows = &pubd[&boards];
        assert_eq!(rows.len(), n, "{boards} boards: published entries");
        let t = wbf_table(boards);
        assert_eq!(t.len(), n, "{boards} boards: wbf_table entries");
        for (i, &(m, w, l)) in rows.iter().enumerate() {
            assert_eq!(m as usize, i, "{boards} boards: margins in order");
            assert_eq!(w + l, Q::int(20), "{boards} boards, M={m}: published sum");
            assert_eq!(t[i], w, "{boards} boards, M={m}");
            // vp() gives the same for both sides, whole margins.
            let s = VpScale::WbfContinuous;
            assert_eq!(vp(&s, boards, Q::int(i64::from(m))), w, "{boards}/{m}");
            assert_eq!(vp(&s, boards, Q::int(-i64::from(m))), l, "{boards}/-{m}");
            checked += 1;
        }
        // Beyond the table: the maximum.
        let s = VpScale::WbfContinuous;
        assert_eq!(vp(&s, boards, Q::int(n as i64)), Q::int(20));
        assert_eq!(vp(&s, boards, Q::int(1000)), Q::int(20));
        assert_eq!(vp(&s, boards, Q::int(-1000)), Q::ZERO);
    }
    assert_eq!(checked, 545);
}

#[test]
fn spot_values_of_section_2_1() {
    let cases: &[(u32, u32, &str)] = &[
        (6, 5, "12.33"),
        (8, 10, "13.78"),
        (8, 20, "16.46"),
        (10, 10, "13.43"),
        (12, 10, "13.18"),
        (14, 2, "10.66"),
        (14, 10, "12.97"),
        (14, 20, "15.26"),
        (16, 10, "12.80"),
        (16, 14, "13.75"),
        (20, 0, "10.00"),
        (20, 1, "10.28"),
        (20, 2, "10.55"),
        (20, 10, "12.53"),
        (32, 20, "13.78"),
    ];
    for &(boards, m, want) in cases {
        assert_eq!(
            wbf_table(boards)[m as usize],
            q(want),
            "{boards} boards, M={m}"
        );
        assert_eq!(
            vp(&VpScale::WbfContinuous, boards, Q::int(i64::from(m))),
            q(want),
            "{boards} boards, M={m}"
        );
    }
    // 16 boards, 14 IMPs: plain rounding gives 13.74; the convexity step makes it 13.75.
    assert_eq!(wbf_table_unadjusted(16)[14], q("13.74"));
}

#[test]
fn convexity_step_is_needed() {
    // §2.1: differences between the published table and steps 1+3 alone (no step 2).
    let expected: &[(u32, usize, &[u32])] = &[
        (6, 0, &[]),
        (7, 0, &[]),
        (8, 1, &[40]),
        (9, 0, &[]),
        (10, 3, &[27, 29, 31]),
        (12, 3, &[42, 44, 49]),
        (14, 3, &[8, 36, 38]),
        (16, 7, &[14, 27, 38, 46, 49, 55, 59]),
        (20, 9, &[]),
        (32, 22, &[]),
    ];
    let pubd = published();
    let mut total = 0;
    for &(boards, n, at) in expected {
        let raw = wbf_table_unadjusted(boards);
        let rows = &pubd[&boards];
        assert_eq!(raw.len(), rows.len(), "{boards} boards");
        let diffs: Vec<u32> = rows
            .iter()
            .filter(|&&(m, w, _)| raw[m as usize] != w)
            .map(|&(m, _, _)| m)
            .collect();
        assert_eq!(diffs.len(), n, "{boards} boards: {diffs:?}");
        if !at.is_empty() {
            assert_eq!(diffs, at, "{boards} boards");
        }
        // The adjustment only ever raises entries, by a cent or so.
        for &(m, w, _) in rows {
            let d = w - raw[m as usize];
            assert!(d >= Q::ZERO && d <= q("0.02"), "{boards}/{m}: {d}");
        }
        total += n;
    }
    assert_eq!(total, 48);
}

#[test]
fn tables_are_concave_and_non_decreasing_1_to_64() {
    for boards in 1..=64u32 {
        let t = wbf_table(boards);
        let b = 15.0 * f64::from(boards).sqrt();
        assert_eq!(t[0], Q::int(10), "{boards}");
        assert_eq!(*t.last().unwrap(), Q::int(20), "{boards}");
        assert!(t.len() <= b.ceil() as usize + 1, "{boards}");
        assert!(t.len() >= b.floor() as usize, "{boards}");
        for (m, v) in t.iter().enumerate() {
            assert_eq!((*v * Q::int(100)).denom(), 1, "{boards}/{m}: two decimals");
            if m + 1 < t.len() {
                assert!(*v < Q::int(20), "{boards}/{m}: only the last entry is 20");
            }
        }
        for k in 1..t.len() {
            assert!(t[k] >= t[k - 1], "{boards} boards: decreasing at M={k}");
        }
        for k in 2..t.len() {
            assert!(
                t[k] - t[k - 1] <= t[k - 1] - t[k - 2],
                "{boards} boards: not concave at M={k}"
            );
        }
    }
    // The algorithm also runs up to 100 boards.
    for boards in 65..=100u32 {
        let t = wbf_table(boards);
        assert_eq!(*t.last().unwrap(), Q::int(20), "{boards}");
        for k in 2..t.len() {
            assert!(t[k] - t[k - 1] <= t[k - 1] - t[k - 2], "{boards}/{k}");
        }
    }
}

#[test]
fn fractional_margins_interpolate_and_round_half_up() {
    let s = VpScale::WbfContinuous;
    // (10.28 + 10.55)/2 = 10.415 → 10.42 half up; the loser gets 20 − 10.42.
    assert_eq!(vp(&s, 20, q("1.5")), q("10.42"));
    assert_eq!(vp(&s, 20, q("-1.5")), q("9.58"));
    // 0.5: (10 + 10.28)/2 = 10.14 exactly.
    assert_eq!(vp(&s, 20, q("0.5")), q("10.14"));
    assert_eq!(vp(&s, 20, q("-0.5")), q("9.86"));
    // 1/3 of the way from 10.28 to 10.55: 10.37.
    assert_eq!(vp(&s, 20, q("4/3")), q("10.37"));
    // 0.25 from 10.28: 10.3475 → 10.35; 0.75: 10.4825 → 10.48.
    assert_eq!(vp(&s, 20, q("1.25")), q("10.35"));
    assert_eq!(vp(&s, 20, q("1.75")), q("10.48"));
    // Between the last two entries and beyond.
    let t = wbf_table(20);
    let n = t.len() as i64;
    let mid = vp(&s, 20, Q::int(n - 2) + q("0.5"));
    assert!(mid > t[t.len() - 2] && mid <= Q::int(20));
    assert_eq!(vp(&s, 20, Q::int(n) + q("0.5")), Q::int(20));
    // Monotone and equal to the table at whole margins, for every quarter IMP.
    for boards in [6, 14, 20, 32] {
        let mut prev = Q::ZERO;
        for k in 0..=(4 * 90) {
            let m = Q::new(k, 4);
            let v = vp(&s, boards, m);
            assert!(v >= prev, "{boards}/{m}");
            assert_eq!(v + vp(&s, boards, -m), Q::int(20), "{boards}/{m}");
            assert_eq!((v * Q::int(100)).denom(), 1);
            prev = v;
        }
    }
}

#[test]
fn negative_margins() {
    let s = VpScale::WbfContinuous;
    assert_eq!(vp(&s, 20, Q::int(-1)), q("9.72"));
    assert_eq!(vp(&s, 20, Q::int(-2)), q("9.45"));
    assert_eq!(vp(&s, 20, Q::int(-10)), q("7.47"));
    assert_eq!(vp(&s, 14, Q::int(-20)), q("4.74"));
    assert_eq!(vp(&s, 20, Q::ZERO), Q::int(10));
    assert_eq!(vp(&s, 20, Q::int(-68)), Q::ZERO);
    assert_eq!(vp(&s, 20, Q::int(-69)), Q::ZERO);
}

#[test]
fn discrete_20_boards() {
    let bands = wbf_discrete_bands(20);
    assert_eq!(bands.len(), 10);
    assert_eq!(bands[0], (1, 10));
    assert_eq!(bands[1], (5, 11));
    assert_eq!(bands[2], (9, 12));
    assert_eq!(bands[8].1, 18);
    assert_eq!(bands[8].0, 48);
    assert_eq!(bands[9], (60, 19));
    for (i, &(_, vpw)) in bands.iter().enumerate() {
        assert_eq!(vpw, 10 + i as u32);
    }
    // Bands widen (non-decreasing widths) after the 10–10 band.
    for i in 2..bands.len() {
        assert!(bands[i].0 - bands[i - 1].0 >= bands[i - 1].0 - bands[i - 2].0);
    }
    let s = VpScale::WbfDiscrete;
    let expect = |m: i64| -> i64 {
        match m {
            0..=1 => 10,
            2..=5 => 11,
            6..=9 => 12,
            49..=60 => 19,
            61.. => 20,
            _ => unreachable!(),
        }
    };
    for m in (0..=9).chain(49..=80) {
        let w = vp(&s, 20, Q::int(m));
        assert_eq!(w, Q::int(expect(m)), "margin {m}");
        assert_eq!(
            vp(&s, 20, Q::int(-m)),
            Q::int(20 - expect(m)),
            "margin -{m}"
        );
    }
    // Fractional: between the integer VPs of the neighbouring whole margins, to 0.01.
    assert_eq!(vp(&s, 20, q("1.5")), q("10.5"));
    assert_eq!(vp(&s, 20, q("-1.5")), q("9.5"));
    assert_eq!(vp(&s, 20, q("2.5")), Q::int(11));
    assert_eq!(vp(&s, 20, q("5/3")), q("10.67"));
    assert_eq!(vp(&s, 20, q("60.25")), q("19.25"));
    // Every size has ten ascending bands, 10..=19.
    for boards in 1..=64 {
        let b = wbf_discrete_bands(boards);
        assert_eq!(b.len(), 10, "{boards}");
        for i in 1..10 {
            assert!(b[i].0 > b[i - 1].0, "{boards}: {b:?}");
        }
    }
}

#[test]
fn custom_tables() {
    let table: Vec<Q> = ["10", "10.5", "11", "12", "15"]
        .iter()
        .map(|s| q(s))
        .collect();
    let s = VpScale::Custom(table.clone());
    for (m, w) in table.iter().enumerate() {
        assert_eq!(vp(&s, 8, Q::int(m as i64)), *w);
        assert_eq!(vp(&s, 8, -Q::int(m as i64)), Q::int(20) - *w);
    }
    assert_eq!(vp(&s, 8, Q::int(99)), Q::int(15));
    assert_eq!(vp(&s, 8, Q::int(-99)), Q::int(5));
    assert_eq!(vp(&s, 8, q("2.5")), q("11.5"));
    assert_eq!(vp(&s, 8, q("-3.5")), q("6.5"));
    assert_eq!(vp(&s, 8, q("1/3")), q("10.17"));
    // Draw 15 (a 30-point scale): loser = 30 − winner; the board count does not matter.
    let s30 = VpScale::Custom(vec![Q::int(15), Q::int(18), Q::int(25)]);
    assert_eq!(vp(&s30, 99, Q::int(1)), Q::int(18));
    assert_eq!(vp(&s30, 99, Q::int(-1)), Q::int(12));
    assert_eq!(vp(&s30, 99, Q::int(-7)), Q::int(5));
    // A table whose maximum exceeds 2·draw: the loser is floored at 0.
    let s_odd = VpScale::Custom(vec![Q::int(2), Q::int(10)]);
    assert_eq!(vp(&s_odd, 8, Q::int(1)), Q::int(10));
    assert_eq!(vp(&s_odd, 8, Q::int(-1)), Q::ZERO);
    // A one-entry table: every match is a draw.
    let flat = VpScale::Custom(vec![Q::int(3)]);
    assert_eq!(vp(&flat, 8, Q::int(40)), Q::int(3));
    assert_eq!(vp(&flat, 8, Q::int(-40)), Q::int(3));
}

#[test]
fn scale_option_parsing() {
    assert_eq!(
        VpScale::from_json(&json!("wbf_continuous")),
        Ok(VpScale::WbfContinuous)
    );
    assert_eq!(
        VpScale::from_json(&json!("wbf_discrete")),
        Ok(VpScale::WbfDiscrete)
    );
    let c = VpScale::from_json(&json!({"custom": [10, 10.5, 11.25, "100/3"]})).unwrap();
    assert_eq!(
        c,
        VpScale::Custom(vec![q("10"), q("10.5"), q("11.25"), q("100/3")])
    );
    assert_eq!(VpScale::WbfContinuous.name(), "wbf_continuous");
    assert_eq!(VpScale::WbfDiscrete.name(), "wbf_discrete");
    assert!(c.name().starts_with("custom"));
    for bad in [
        json!("wbf"),
        json!(20),
        json!(null),
        json!({"custom": []}),
        json!({"custom": [10, 9.5]}),
        json!({"custom": [10, "x"]}),
        json!({"custom": [-1, 0]}),
        json!({"custom": 10}),
        json!({"custom": [10], "extra": 1}),
        json!({"table": [10]}),
    ] {
        let e = VpScale::from_json(&bad).unwrap_err().to_string();
        assert!(e.contains("expected"), "{bad}: {e}");
    }
}
