//! Properties of the IMP pair forms, against brute force.
//!
//! Cross-IMPs: the kernel (prefix sums over the IMP scale's steps) equals formula (1) of
//! scoring-methods.md §3 summed pair by pair, for random boards with weighted, split,
//! negative-weight and artificial tables, under both `ximp_adjusted_method`s. Butler: a ruling
//! with one 100% component scores exactly as the plain result; boards of plain results are
//! zero-sum at cross-IMPs.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use frekans_core::adjust::{ArtLabel, Component};
use frekans_core::bridge::imp;
use frekans_core::num::Q;
use frekans_core::options::{Options, XimpAdjustedMethod};
use frekans_core::score::Form;
use frekans_core::score::{score_board, BoardIn, Dist, TableIn};
use proptest::prelude::*;

fn dist(comps: &[(i64, i32)]) -> Dist {
    // Weights given in percent; merge equal points like the notation parser does.
    let mut m: Vec<Component> = Vec::new();
    for &(w, x) in comps {
        let w = Q::new(w as i128, 100);
        match m.iter_mut().find(|c| c.points == x) {
            Some(c) => c.weight += w,
            None => m.push(Component {
                weight: w,
                points: x,
            }),
        }
    }
    m.retain(|c| !c.weight.is_zero());
    if m.len() == 1 && m[0].weight == Q::ONE {
        Dist::Plain(m[0].points)
    } else {
        Dist::Weighted(m)
    }
}

/// A random side: plain, weighted with weights summing to 100% (negative allowed) or artificial.
fn side() -> impl Strategy<Value = Dist> {
    let pts = (-150i32..=150).prop_map(|k| k * 10);
    prop_oneof![
        4 => pts.clone().prop_map(Dist::Plain),
        2 => (prop::collection::vec((-100i64..=150, pts.clone()), 1..4), pts.clone()).prop_map(|(mut v, last)| {
            let s: i64 = v.iter().map(|e| e.0).sum();
            v.push((100 - s, last));
            dist(&v)
        }),
        1 => prop_oneof![Just(60i64), Just(50), Just(40), Just(55)].prop_map(|p| Dist::Artificial(Q::int(p), ArtLabel::Pct)),
    ]
}

fn comps(d: &Dist) -> Vec<(Q, i32)> {
    d.components()
}

/// Formula (1): K = Σ_{t'≠t} Σ_i Σ_j P_i·q_{t',j}·IMP(own_i − other_j), in the pair's own view.
fn brute(tables: &[TableIn], t: usize, ns: bool, pooled: bool) -> Q {
    let own = if ns {
        &tables[t].ns_score
    } else {
        &tables[t].ew_score
    };
    let mut k = Q::ZERO;
    for (u, other) in tables.iter().enumerate() {
        if u == t {
            continue;
        }
        let q: Vec<(Q, i32)> = if pooled {
            let mut v: Vec<(Q, i32)> = comps(&other.ns_freq)
                .into_iter()
                .map(|(w, x)| (w * Q::new(1, 2), x))
                .collect();
            v.extend(
                comps(&other.ew_freq)
                    .into_iter()
                    .map(|(w, x)| (w * Q::new(1, 2), x)),
            );
            v
        } else if ns {
            comps(&other.ns_freq)
        } else {
            comps(&other.ew_freq)
        };
        for (p, x) in comps(own) {
            for &(w, y) in &q {
                let d = imp(x - y) as i64;
                k += p * w * Q::int(if ns { d } else { -d });
            }
        }
    }
    k
}

fn board(sides: Vec<(Dist, Dist)>) -> Vec<TableIn> {
    sides
        .into_iter()
        .enumerate()
        .map(|(i, (ns, ew))| {
            let mut t = TableIn::plain(2 * i as u32, 2 * i as u32 + 1, 0);
            t.adjusted = !matches!((&ns, &ew), (Dist::Plain(a), Dist::Plain(b)) if a == b);
            t.played = None;
            t.ns_freq = ns.clone();
            t.ew_freq = ew.clone();
            t.ns_score = ns;
            t.ew_score = ew;
            t
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn cross_imps_equal_formula_1(sides in prop::collection::vec((side(), side()), 2..9), pooled in any::<bool>()) {
        let tables = board(sides);
        let mut o = Options::default();
        if pooled {
            o.ximp_adjusted_method = XimpAdjustedMethod::Fractional;
        }
        let b = BoardIn { session: 0, section: None, board: 1, field: tables.len() as u32, form: Form::Ximp, options: &o, tables: tables.clone(), part: 0 };
        let s = score_board(&b);
        for (i, t) in tables.iter().enumerate() {
            for (k, ns) in [(0usize, true), (1, false)] {
                let own = if ns { &t.ns_score } else { &t.ew_score };
                if own.is_artificial() {
                    continue;
                }
                let got = s.sides[2 * i + k].score;
                prop_assert_eq!(got, brute(&tables, i, ns, pooled), "table {} {}", i, if ns { "NS" } else { "EW" });
            }
        }
    }

    #[test]
    fn plain_cross_imp_boards_are_zero_sum(xs in prop::collection::vec((-150i32..=150).prop_map(|k| k * 10), 2..12)) {
        let tables = board(xs.iter().map(|&x| (Dist::Plain(x), Dist::Plain(x))).collect());
        let o = Options::default();
        let b = BoardIn { session: 0, section: None, board: 1, field: tables.len() as u32, form: Form::Ximp, options: &o, tables, part: 0 };
        let s = score_board(&b);
        let ns: Q = s.sides.iter().step_by(2).map(|x| x.score).sum();
        prop_assert_eq!(ns, Q::ZERO);
        for pair in s.sides.chunks(2) {
            prop_assert_eq!(pair[0].score, -pair[1].score);
        }
    }

    #[test]
    fn butler_single_component_equals_plain(xs in prop::collection::vec((-150i32..=150).prop_map(|k| k * 10), 2..12), pick in any::<prop::sample::Index>()) {
        let plain = board(xs.iter().map(|&x| (Dist::Plain(x), Dist::Plain(x))).collect());
        let mut ruled = plain.clone();
        let i = pick.index(ruled.len());
        let x = xs[i];
        // (50%+x&50%+x) merges to a single 100% component; score it as a ruling.
        ruled[i].adjusted = true;
        ruled[i].ns_score = dist(&[(50, x), (50, x)]);
        ruled[i].ew_score = dist(&[(50, x), (50, x)]);
        let o = Options::default();
        for form in [Form::Butler, Form::Ximp, Form::Napki] {
            let a = score_board(&BoardIn { session: 0, section: None, board: 1, field: xs.len() as u32, form, options: &o, tables: plain.clone(), part: 0 });
            let b = score_board(&BoardIn { session: 0, section: None, board: 1, field: xs.len() as u32, form, options: &o, tables: ruled.clone(), part: 0 });
            let sa: Vec<Q> = a.sides.iter().map(|s| s.score).collect();
            let sb: Vec<Q> = b.sides.iter().map(|s| s.score).collect();
            prop_assert_eq!(sa, sb, "{:?}", form);
        }
    }
}
