//! Cross-IMPs (scoring-methods.md §3, conventions C12–C13): every result against every other
//! table's result, each comparison in IMPs, the board score their sum — formula (1),
//! K = Σ_{t'≠t} Σ_i Σ_j P_i·q_{t',j}·IMP(own_i − other_j), so weighted and split scores on any
//! number of tables are exact.
//!
//! A board with n results costs O(d log d) for d distinct scores: the other tables form a
//! frequency table with prefix sums, and Σ_y F(y)·IMP(x − y) = Σ_k [F(y ≤ x − T_k) − F(y ≥ x + T_k)]
//! over the 24 steps T_k of the IMP scale.

use std::collections::HashMap;

use crate::adjust::Side;
use crate::bridge::imp::STEPS;
use crate::num::Q;
use crate::options::{XimpAdjustedMethod, XimpArtificial, XimpNormalize};

use super::form::PenaltyUnit;
use super::form::{PairRules, Pbn, Rules, Spec, Usebio, UsebioRead};
use super::stats::board_stats;
use super::*;

pub static FORM: Spec = Spec {
    name: "ximp",
    title: "cross-IMPs",
    matchpoints: false,
    options: &[
        "sd_method",
        "split_check",
        "ximp_adjusted_method",
        "ximp_artificial",
        "ximp_normalize",
        "imp_lookup",
    ],
    penalty_units: &[PenaltyUnit::Imp],
    rules: Rules::Pairs(PairRules {
        score: Some(score_board),
        unit: "IMP",
        options_text: |o| {
            format!(
                "ximp_adjusted_method={}, ximp_artificial={}, ximp_normalize={}",
                o.ximp_adjusted_method.name(),
                o.ximp_artificial.name(),
                o.ximp_normalize.name()
            )
        },
        component: "Σ IMPs against the others",
        comparisons: true,
    }),
    pbn: Some(Pbn {
        scoring: "IMP;Cross",
        unit: "IMP",
        total: "TotalScoreIMP",
        datum: false,
        read: super::form::PbnRead {
            words: &[
                ("CROSS", Some(("ximp_normalize", r#""sum""#))),
                ("CROSS1", Some(("ximp_normalize", r#""results""#))),
                ("CROSS2", Some(("ximp_normalize", r#""comparisons""#))),
            ],
            yields: false,
            options: &[],
        },
    }),
    usebio: Some(Usebio {
        event_type: "PAIRS",
        knockout_event_type: "PAIRS",
        board_scoring_method: "CROSS_IMPS",
        match_scoring_method: None,
        team_points: false,
        line_points: Some(("NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS")),
        read: UsebioRead {
            board: &["CROSS_IMPS", "CROSS_IMP", "XIMPS"],
            matches: &[],
            scoring: &[],
            event_types: &["CROSS_IMP", "CROSS_IMP_PAIRS"],
            knockout: &[],
            unnamed: &[],
        },
    }),
    bws: Some(3),
};

/// A frequency table with prefix sums, for sums of IMPs against every entry.
#[derive(Clone, Debug, Default)]
pub struct ImpTable {
    pub xs: Vec<i32>,
    pub counts: Vec<Q>,
    prefix: Vec<Q>,
    pub n: Q,
}

impl ImpTable {
    pub fn build(mut entries: Vec<(i32, Q)>) -> ImpTable {
        entries.sort_unstable_by_key(|e| e.0);
        let mut t = ImpTable::default();
        for (x, c) in entries {
            if t.xs.last() == Some(&x) {
                *t.counts.last_mut().unwrap() += c;
            } else {
                t.xs.push(x);
                t.counts.push(c);
            }
        }
        t.prefix.push(Q::ZERO);
        let mut acc = Q::ZERO;
        for c in &t.counts {
            acc += *c;
            t.prefix.push(acc);
        }
        t.n = acc;
        t
    }

    /// Σ of counts of entries ≤ v.
    fn at_most(&self, v: i64) -> Q {
        let i = self.xs.partition_point(|&x| (x as i64) <= v);
        self.prefix[i]
    }

    /// Σ of counts of entries ≥ v.
    fn at_least(&self, v: i64) -> Q {
        let i = self.xs.partition_point(|&x| (x as i64) < v);
        self.n - self.prefix[i]
    }

    /// Σ_y F(y)·IMP(x − y), NS view. Differences that are not multiples of 10 are rounded to
    /// the nearest ten, half up (the `nearest_ten` lookup), by stepping at T_k − 5.
    pub fn imps_against(&self, x: i32) -> Q {
        let mut s = Q::ZERO;
        let x = x as i64;
        for &t in &STEPS {
            let t = t as i64 - 5;
            s += self.at_most(x - t) - self.at_least(x + t);
        }
        s
    }
}

/// IMPs of `d` points: the same rounding as `ImpTable::imps_against`.
fn imp_of(d: i64) -> i64 {
    let a = d.abs();
    let n = STEPS.iter().filter(|&&t| a >= t as i64 - 5).count() as i64;
    if d < 0 {
        -n
    } else {
        n
    }
}

/// IMPs for an artificial percentage at IMP forms (C13): A+ = +3, A = 0, A− = −3, P% = (P − 50%) × 30.
pub fn artificial_imps(pct: Q) -> Q {
    (pct - Q::int(50)) * Q::new(30, 100)
}

fn contribution(d: &Dist, half: bool) -> Vec<(i32, Q)> {
    let mut v = Vec::new();
    d.for_each(|w, x| v.push((x, if half { w * Q::new(1, 2) } else { w })));
    v
}

/// Σ_{(w,x)∈score} w·Σ_{(v,y)∈own} v·IMP(x − y): the comparisons with the side's own table.
fn self_term(score: &Dist, own: &[(i32, Q)]) -> Q {
    let mut s = Q::ZERO;
    score.for_each(|w, x| {
        for &(y, v) in own {
            s += w * v * Q::int(imp_of(x as i64 - y as i64));
        }
    });
    s
}

/// Score one board of one comparison group at cross-IMPs.
pub fn score_board(b: &BoardIn) -> BoardScore {
    let o = b.options;
    let pooled = o.ximp_adjusted_method == XimpAdjustedMethod::Fractional;
    let (ns_tab, ew_tab) = line_tables(b, pooled);
    // Each distinct plain score's sum, computed once.
    let mut cache: [HashMap<i32, Q>; 2] = [HashMap::new(), HashMap::new()];
    let mut sides = Vec::with_capacity(b.tables.len() * 2);
    for t in &b.tables {
        let own: Vec<(i32, Q)> = if pooled {
            let mut v = contribution(&t.ns_freq, true);
            v.extend(contribution(&t.ew_freq, true));
            v
        } else {
            Vec::new()
        };
        for side in [Side::NS, Side::EW] {
            let (score_d, freq_d) = t.parts(side);
            let (tab, k) = match side {
                Side::NS => (&ns_tab, 0),
                Side::EW => (&ew_tab, 1),
            };
            // What this side's table put into its line (only adjusted sides and
            // `ximp_normalize: comparisons` need it).
            let own_line = || -> Vec<(i32, Q)> {
                if pooled {
                    own.clone()
                } else {
                    contribution(freq_d, false)
                }
            };
            let sign = if side == Side::NS { Q::ONE } else { -Q::ONE };
            let (raw, artificial, detail) = match score_d {
                Dist::Artificial(pct, _) => {
                    let a = artificial_imps(*pct);
                    let raw = match o.ximp_artificial {
                        XimpArtificial::PerComparison => {
                            let c = (tab.n - Q::ONE).max(Q::ZERO);
                            a * c
                        }
                        XimpArtificial::Flat => a,
                    };
                    (raw, Some(*pct), None)
                }
                Dist::Plain(x) if !t.adjusted => {
                    let s = *cache[k].entry(*x).or_insert_with(|| tab.imps_against(*x));
                    (sign * s, None, None)
                }
                _ => {
                    let (raw, detail) = adjusted_raw(tab, score_d, sign, &own_line());
                    (raw, None, Some(detail))
                }
            };
            let flat_art = artificial.is_some() && o.ximp_artificial == XimpArtificial::Flat;
            let score = if flat_art {
                raw
            } else {
                normalised(o, tab, raw, artificial.is_some(), own_line)
            };
            sides.push(SideScore::imp_form(t, side, score, artificial, detail));
        }
    }
    let mut out = BoardScore::new(b, sides, board_stats(&b.tables, b.field, b.options, false));
    out.facts = vec![
        ("results in the NS line", ns_tab.n),
        ("results in the EW line", ew_tab.n),
    ];
    out
}

/// The NS and EW line tables of a board (one pooled table, twice, when `pooled`).
fn line_tables(b: &BoardIn, pooled: bool) -> (ImpTable, ImpTable) {
    if pooled {
        let mut all = Vec::new();
        for t in &b.tables {
            all.extend(contribution(&t.ns_freq, true));
            all.extend(contribution(&t.ew_freq, true));
        }
        let p = ImpTable::build(all);
        (p.clone(), p)
    } else {
        let (mut ns, mut ew) = (Vec::new(), Vec::new());
        for t in &b.tables {
            ns.extend(contribution(&t.ns_freq, false));
            ew.extend(contribution(&t.ew_freq, false));
        }
        (ImpTable::build(ns), ImpTable::build(ew))
    }
}

/// The raw cross-IMPs of an adjusted side (in its own view, `sign`): each component against
/// its line, less the comparisons with its own table (`own`).
fn adjusted_raw(tab: &ImpTable, score_d: &Dist, sign: Q, own: &[(i32, Q)]) -> (Q, Detail) {
    let mut comps = Vec::new();
    let mut sum = Q::ZERO;
    score_d.for_each(|w, x| {
        let r = tab.imps_against(x);
        sum += w * r;
        comps.push(ComponentScore {
            weight: w,
            points: x,
            raw: sign * r,
        });
    });
    let st = self_term(score_d, own);
    let raw = sign * (sum - st);
    (
        raw,
        Detail {
            components: comps,
            raw,
            self_term: sign * st,
            factoring: Factoring::None,
        },
    )
}

/// A side's raw cross-IMPs brought to `ximp_normalize`'s scale (`own_line`: what the side's
/// table put into its line).
fn normalised(
    o: &Options,
    tab: &ImpTable,
    raw: Q,
    artificial: bool,
    own_line: impl Fn() -> Vec<(i32, Q)>,
) -> Q {
    match o.ximp_normalize {
        XimpNormalize::Sum => raw,
        XimpNormalize::Comparisons => {
            let c = if artificial {
                tab.n - Q::ONE
            } else {
                // Results this side is compared with: the line's, less its own
                // table.
                tab.n - own_line().iter().map(|e| e.1).sum::<Q>()
            };
            if c > Q::ZERO {
                raw / c
            } else {
                Q::ZERO
            }
        }
        XimpNormalize::Results => {
            if tab.n > Q::ZERO {
                raw / tab.n
            } else {
                Q::ZERO
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::imp;

    #[test]
    fn table_sums_equal_pairwise_sums() {
        let xs = [
            -1100, -500, -430, -100, 0, 50, 110, 140, 420, 450, 620, 650, 1430, 2210, 4000, -4000,
        ];
        let t = ImpTable::build(xs.iter().map(|&x| (x, Q::ONE)).collect());
        for &x in &xs {
            let want: i32 = xs.iter().map(|&y| imp(x - y)).sum();
            assert_eq!(t.imps_against(x), Q::int(want as i64), "x = {x}");
        }
        for d in -5000i32..5000 {
            assert_eq!(imp_of(d as i64) as i32, imp(d), "d = {d}");
        }
    }
}
