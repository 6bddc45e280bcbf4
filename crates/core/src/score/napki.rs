//! Napki ('napoleonki'): dispersion-normalised scoring (scoring-methods.md §8, conventions C15,
//! C29). Each result's deviation from the board's mean ("saldo") is multiplied by
//! M = (w/s)^u (or the primitive (s + w)/(2s)), capped at `nap_max_multiplier`, where s is the
//! board's dispersion, then put through `nap_output` (`napki`: as is; `netto`:
//! v/(1 + |v|/1000); `impy`: IMP(v)). The 2013 pairwise readings (`nap_variant`) compare each
//! result with every other table instead of the mean.
//!
//! M is irrational in general, so this form computes in f64 (in a fixed order: deterministic),
//! and each side's board score is then taken as an exact rational rounded to 2^-32, so that
//! standings add boards exactly and equal scores tie.

use crate::adjust::Side;
use crate::bridge::imp_of_q;
use crate::num::Q;
use crate::options::{NapFormula, NapOutput, NapVariant, Options};

use super::form::PenaltyUnit;
use super::form::{PairRules, Rules, Spec};
use super::stats::{board_stats_of, pooled};
use super::*;

pub static FORM: Spec = Spec {
    name: "napki",
    title: "napki",
    matchpoints: false,
    options: &[
        "sd_method",
        "split_check",
        "nap_standard_dispersion",
        "nap_u",
        "nap_max_multiplier",
        "nap_output",
        "nap_variant",
        "nap_formula",
        "imp_lookup",
    ],
    penalty_units: &[PenaltyUnit::Imp],
    rules: Rules::Pairs(PairRules {
        score: Some(score_board),
        unit: "napki",
        options_text: |o| {
            format!(
                "nap_standard_dispersion={}, nap_u={}, nap_max_multiplier={}, nap_output={}, nap_variant={}, nap_formula={}, imp_lookup={}",
                o.nap_standard_dispersion,
                o.nap_u,
                o.nap_max_multiplier,
                o.nap_output.name(),
                o.nap_variant.name(),
                o.nap_formula.name(),
                o.imp_lookup.name()
            )
        },
        component: "napki of the component",
        comparisons: false,
    }),
    // (neither format has a name for napki: the session note says it, `export::notes`)
    pbn: Some(super::form::Pbn {
        scoring: "Napki",
        unit: "Napki",
        total: "TotalScore",
        datum: false,
        read: super::form::PbnRead {
            // (frekans's own name: PBN has none for napki)
            words: &[("NAPKI", None)],
            yields: false,
            options: &[],
        },
    }),
    usebio: Some(super::form::Usebio {
        event_type: "PAIRS",
        knockout_event_type: "PAIRS",
        board_scoring_method: "NAPKI",
        match_scoring_method: None,
        team_points: false,
        line_points: None,
        // (frekans's own name: USEBIO has none for napki)
        read: super::form::UsebioRead {
            board: &["NAPKI"],
            matches: &[],
            scoring: &[],
            event_types: &[],
            knockout: &[],
            unnamed: &[],
        },
    }),
    bws: None,
};

/// The multiplier for dispersion `s` (> 0).
pub fn multiplier(s: f64, o: &Options) -> f64 {
    let w = o.nap_standard_dispersion.to_f64();
    let m = match o.nap_formula {
        NapFormula::Power => (w / s).powf(o.nap_u.to_f64()),
        NapFormula::Primitive => (s + w) / (2.0 * s),
    };
    m.min(o.nap_max_multiplier.to_f64())
}

/// `nap_output` applied to a scaled deviation.
pub fn output(v: f64, o: &Options) -> f64 {
    match o.nap_output {
        NapOutput::Napki => v,
        NapOutput::Netto => v / (1.0 + v.abs() / 1000.0),
        NapOutput::Impy => imp_of_q(Q::from_f64(v), o.imp_lookup) as f64,
    }
}

/// Mean |x − y| over ordered pairs of entries of different tables (C29).
fn pairwise_dispersion(tables: &[TableIn]) -> Q {
    let p = pooled(tables);
    // Σ over ordered pairs of all entries: 2 Σ_{a<b} c_a c_b (x_b − x_a).
    let (mut c_acc, mut s_acc, mut all) = (Q::ZERO, Q::ZERO, Q::ZERO);
    for (&x, &c) in p.xs.iter().zip(&p.counts) {
        let xq = Q::int(x as i64);
        all += c * (xq * c_acc - s_acc);
        c_acc += c;
        s_acc += c * xq;
    }
    all = all + all;
    // Less the pairs within one table.
    let half = Q::new(1, 2);
    let mut within = Q::ZERO;
    let mut w2 = Q::ZERO;
    for t in tables {
        let mut e = Vec::new();
        t.ns_freq.for_each(|w, x| e.push((x, w * half)));
        t.ew_freq.for_each(|w, x| e.push((x, w * half)));
        let wt: Q = e.iter().map(|v| v.1).sum();
        w2 += wt * wt;
        for a in &e {
            for b in &e {
                within += a.1 * b.1 * Q::int((a.0 as i64 - b.0 as i64).abs());
            }
        }
    }
    let den = p.n * p.n - w2;
    if den <= Q::ZERO {
        Q::ZERO
    } else {
        (all - within) / den
    }
}

/// Score one board of one comparison group at napki.
pub fn score_board(b: &BoardIn) -> BoardScore {
    let o = b.options;
    let p = pooled(&b.tables);
    let stats = board_stats_of(&p, b.field, o, false);
    let n = p.n;
    let mean = stats.mean.unwrap_or(Q::ZERO);
    let s = match o.nap_variant {
        NapVariant::MeanDeviation => stats.dispersion.unwrap_or(Q::ZERO),
        _ => pairwise_dispersion(&b.tables),
    };
    // C15, C29: a board whose real results are all equal (s = 0) scores 0.
    let m = if s > Q::ZERO {
        multiplier(s.to_f64(), o)
    } else {
        0.0
    };
    let mean_f = mean.to_f64();
    let total_sum =
        p.xs.iter()
            .zip(&p.counts)
            .map(|(&x, &c)| c * Q::int(x as i64))
            .sum::<Q>();
    let half = Q::new(1, 2);
    let mut sides = Vec::with_capacity(b.tables.len() * 2);
    for t in &b.tables {
        // The other tables, for the pairwise variants: pooled minus this table (not needed
        // against the mean).
        let mut own = Vec::new();
        let (mut others_w, mut others_sum) = (0.0, 0.0);
        if o.nap_variant != NapVariant::MeanDeviation {
            t.ns_freq.for_each(|w, x| own.push((x, w * half)));
            t.ew_freq.for_each(|w, x| own.push((x, w * half)));
            let own_w: Q = own.iter().map(|e| e.1).sum();
            others_w = (n - own_w).to_f64();
            others_sum =
                (total_sum - own.iter().map(|&(x, c)| c * Q::int(x as i64)).sum::<Q>()).to_f64();
        }
        let value_of = |x: i32| -> f64 {
            let xf = x as f64;
            if m == 0.0 {
                return 0.0;
            }
            match o.nap_variant {
                NapVariant::MeanDeviation => output(m * (xf - mean_f), o),
                NapVariant::Pairwise if others_w > 0.0 => {
                    output(m * (xf - others_sum / others_w), o)
                }
                NapVariant::PairwiseTransformed if others_w > 0.0 => {
                    let mut acc = 0.0;
                    for (&y, &c) in p.xs.iter().zip(&p.counts) {
                        acc += c.to_f64() * output(m * (xf - y as f64), o);
                    }
                    for &(y, c) in &own {
                        acc -= c.to_f64() * output(m * (xf - y as f64), o);
                    }
                    acc / others_w
                }
                _ => 0.0,
            }
        };
        for side in [Side::NS, Side::EW] {
            let (score_d, _) = t.parts(side);
            let sign = if side == Side::NS { Q::ONE } else { -Q::ONE };
            let (score, artificial, detail) = match score_d {
                Dist::Artificial(pct, _) => {
                    // C15: (P − 50%)/10% × w before the output transform (A+ = +w).
                    let v = ((*pct - Q::int(50)) / Q::int(10) * o.nap_standard_dispersion).to_f64();
                    (Q::from_f64_rounded(output(v, o)), Some(*pct), None)
                }
                _ => {
                    let mut comps = Vec::new();
                    let mut sum = 0.0;
                    score_d.for_each(|w, x| {
                        let v = value_of(x);
                        sum += w.to_f64() * v;
                        if t.adjusted {
                            comps.push(ComponentScore {
                                weight: w,
                                points: x,
                                raw: sign * Q::from_f64_rounded(v),
                            });
                        }
                    });
                    let sum = sign * Q::from_f64_rounded(sum);
                    let detail = t.adjusted.then_some(Detail {
                        components: comps,
                        raw: sum,
                        self_term: Q::ZERO,
                        factoring: Factoring::None,
                    });
                    (sum, None, detail)
                }
            };
            sides.push(SideScore::imp_form(t, side, score, artificial, detail));
        }
    }
    let facts = vec![
        ("mean", mean),
        ("dispersion s", s),
        ("multiplier M", Q::from_f64_rounded(m)),
        ("standard dispersion w", o.nap_standard_dispersion),
    ];
    let mut out = BoardScore::new(b, sides, stats);
    out.facts = facts;
    out
}
