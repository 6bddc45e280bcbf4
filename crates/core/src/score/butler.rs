//! Butler: IMPs against a datum (scoring-methods.md §4, conventions C14).
//!
//! Each table gives one value, its normalised result Σ V·x / Σ V (R5: V = ½(p_NS + p_EW), an
//! artificial part contributing nothing), with weight Σ V. `butler_trim` removes weight from
//! each end; the datum is the weighted mean of the rest (the untrimmed mean when trimming would
//! leave nothing), rounded per `datum_round` / `datum_tie`. Each side scores
//! Σ p·IMP(x − datum) in its own view; artificial scores are ±3 IMPs (Law 86A, C13), never
//! scaled. Under `sd_method: simplified`, a structured subsequent-damage ruling puts A in the
//! datum and scores each NOS component against the datum of its own traveller "others + x".

use crate::adjust::Side;
use crate::bridge::imp_of_q;
use crate::num::Q;
use crate::options::{ButlerTrim, DatumRound, DatumTie, Options, SdMethod};

use super::form::PenaltyUnit;
use super::form::{PairRules, Pbn, Rules, Spec, Usebio, UsebioRead};
use super::stats::board_stats;
use super::ximp::artificial_imps;
use super::*;

pub static FORM: Spec = Spec {
    name: "butler",
    title: "Butler",
    matchpoints: false,
    options: &[
        "sd_method",
        "split_check",
        "butler_trim",
        "datum_round",
        "datum_tie",
        "imp_lookup",
    ],
    penalty_units: &[PenaltyUnit::Imp],
    rules: Rules::Pairs(PairRules {
        score: Some(score_board),
        unit: "IMP",
        options_text: |o| {
            format!(
                "butler_trim={}, datum_round={}, datum_tie={}, imp_lookup={}, sd_method={}",
                o.butler_trim,
                o.datum_round.name(),
                o.datum_tie.name(),
                o.imp_lookup.name(),
                o.sd_method.name()
            )
        },
        component: "IMPs against the datum",
        comparisons: false,
    }),
    pbn: Some(Pbn {
        scoring: "IMP;Butler",
        unit: "IMP",
        total: "TotalScoreIMP",
        datum: true,
        read: super::form::PbnRead {
            words: &[
                ("BUTLER", Some(("butler_trim", r#"{"count": 0}"#))),
                ("BUTLER-2", Some(("butler_trim", r#"{"count": 1}"#))),
                ("BUTLER2", Some(("butler_trim", r#"{"count": 1}"#))),
            ],
            yields: false,
            options: &[],
        },
    }),
    usebio: Some(Usebio {
        event_type: "BUTLER_PAIRS",
        knockout_event_type: "BUTLER_PAIRS",
        board_scoring_method: "IMPS",
        match_scoring_method: None,
        team_points: false,
        line_points: Some(("NS_BUTLER_POINTS", "EW_BUTLER_POINTS")),
        read: UsebioRead {
            board: &["BUTLER", "BUTLER_IMPS", "IMPS"],
            matches: &[],
            scoring: &[],
            event_types: &["BUTLER_PAIRS"],
            knockout: &[],
            unnamed: &[],
        },
    }),
    bws: Some(2),
};

/// One table's (normalised value, weight), or nothing when both sides are artificial.
fn table_value(t: &TableIn) -> Option<(Q, Q)> {
    if let (Dist::Plain(x), Dist::Plain(y)) = (&t.ns_freq, &t.ew_freq) {
        // Weights ½ + ½: the value is the mean of the two, with weight 1.
        return Some((Q::new(*x as i128 + *y as i128, 2), Q::ONE));
    }
    let half = Q::new(1, 2);
    let (mut w, mut s) = (Q::ZERO, Q::ZERO);
    for d in [&t.ns_freq, &t.ew_freq] {
        d.for_each(|p, x| {
            w += p * half;
            s += p * half * Q::int(x as i64);
        });
    }
    (!w.is_zero()).then(|| (s / w, w))
}

/// What trimming removed: weight from the bottom and from the top.
#[derive(Clone, Debug, PartialEq)]
pub struct Datum {
    pub mean: Q,
    pub datum: Q,
    pub total_weight: Q,
    pub trimmed_each_end: Q,
    /// (value, weight removed) from the bottom and from the top.
    pub removed_low: Vec<(Q, Q)>,
    pub removed_high: Vec<(Q, Q)>,
}

/// The datum of a set of (value, weight).
pub fn datum(mut values: Vec<(Q, Q)>, o: &Options) -> Option<Datum> {
    values.sort_by_key(|v| v.0);
    let total: Q = values.iter().map(|v| v.1).sum();
    if total <= Q::ZERO {
        return None;
    }
    let cut = match o.butler_trim {
        ButlerTrim::Fractional(p) => p * total,
        ButlerTrim::WholeFloor(p) => Q::int((p * total).floor() as i64),
        ButlerTrim::Count(k) => Q::int(k as i64),
    };
    let untrimmed = values.iter().map(|&(x, w)| x * w).sum::<Q>() / total;
    let (mut removed_low, mut removed_high) = (Vec::new(), Vec::new());
    // Trimming that would leave nothing gives the untrimmed mean (C14).
    let mean = if cut + cut >= total || cut <= Q::ZERO {
        untrimmed
    } else {
        let trim_end =
            |vals: &mut dyn Iterator<Item = (Q, Q)>, removed: &mut Vec<(Q, Q)>| -> Vec<(Q, Q)> {
                let mut left = cut;
                let mut out = Vec::new();
                for (x, w) in vals {
                    if left >= w {
                        left -= w;
                        removed.push((x, w));
                    } else if left > Q::ZERO {
                        out.push((x, w - left));
                        removed.push((x, left));
                        left = Q::ZERO;
                    } else {
                        out.push((x, w));
                    }
                }
                out
            };
        let low_trimmed = trim_end(&mut values.iter().copied(), &mut removed_low);
        let both = trim_end(&mut low_trimmed.into_iter().rev(), &mut removed_high);
        let w: Q = both.iter().map(|v| v.1).sum();
        if w <= Q::ZERO {
            untrimmed
        } else {
            both.iter().map(|&(x, w)| x * w).sum::<Q>() / w
        }
    };
    let datum = match o.datum_round {
        DatumRound::None => mean,
        DatumRound::Nearest10 => round10(mean, o.datum_tie),
    };
    Some(Datum {
        mean,
        datum,
        total_weight: total,
        trimmed_each_end: cut,
        removed_low,
        removed_high,
    })
}

/// Round to the nearest multiple of 10, ties (…5) per `tie`.
pub fn round10(m: Q, tie: DatumTie) -> Q {
    let tens = m / Q::int(10);
    let fl = tens.floor();
    let frac = tens - Q::new(fl, 1);
    let half = Q::new(1, 2);
    let r = if frac < half {
        fl
    } else if frac > half {
        fl + 1
    } else {
        match tie {
            DatumTie::HalfEven => {
                if fl % 2 == 0 {
                    fl
                } else {
                    fl + 1
                }
            }
            DatumTie::HalfAwayFromZero => {
                if m >= Q::ZERO {
                    fl + 1
                } else {
                    fl
                }
            }
        }
    };
    Q::new(r * 10, 1)
}

/// Score one board of one comparison group at Butler.
pub fn score_board(b: &BoardIn) -> BoardScore {
    let o = b.options;
    let values: Vec<Option<(Q, Q)>> = b.tables.iter().map(table_value).collect();
    let d = datum(values.iter().flatten().copied().collect(), o);
    let mut sides = Vec::with_capacity(b.tables.len() * 2);
    for (ti, t) in b.tables.iter().enumerate() {
        for side in [Side::NS, Side::EW] {
            let (score_d, freq_d) = t.parts(side);
            let sign = if side == Side::NS { Q::ONE } else { -Q::ONE };
            let simplified = o.sd_method == SdMethod::Simplified && score_d != freq_d;
            let (score, artificial, detail) = match (score_d, &d) {
                (Dist::Artificial(pct, _), _) => (artificial_imps(*pct), Some(*pct), None),
                (_, None) => (Q::ZERO, None, None),
                (_, Some(d)) => {
                    let mut comps = Vec::new();
                    let mut sum = Q::ZERO;
                    score_d.for_each(|w, x| {
                        // The datum this component is IMPed against.
                        let dat = if simplified {
                            let mut vals: Vec<(Q, Q)> = values
                                .iter()
                                .enumerate()
                                .filter(|(i, _)| *i != ti)
                                .filter_map(|(_, v)| *v)
                                .collect();
                            vals.push((Q::int(x as i64), Q::ONE));
                            datum(vals, o).map(|d| d.datum).unwrap_or(d.datum)
                        } else {
                            d.datum
                        };
                        let imps = Q::int(imp_of_q(Q::int(x as i64) - dat, o.imp_lookup) as i64);
                        sum += w * imps;
                        if t.adjusted {
                            comps.push(ComponentScore {
                                weight: w,
                                points: x,
                                raw: sign * imps,
                            });
                        }
                    });
                    let detail = t.adjusted.then(|| Detail {
                        components: comps,
                        raw: sign * sum,
                        self_term: Q::ZERO,
                        factoring: Factoring::None,
                    });
                    (sign * sum, None, detail)
                }
            };
            sides.push(SideScore::imp_form(t, side, score, artificial, detail));
        }
    }
    let mut out = BoardScore::new(b, sides, board_stats(&b.tables, b.field, o, false));
    if let Some(d) = &d {
        let list = |v: &[(Q, Q)]| -> String {
            if v.is_empty() {
                return "nothing".to_string();
            }
            v.iter()
                .map(|(x, w)| format!("{x} (weight {w})"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.facts = vec![
            ("total weight of the tables", d.total_weight),
            ("trimmed from each end (weight)", d.trimmed_each_end),
            ("mean after trimming", d.mean),
            ("datum", d.datum),
        ];
        out.text = vec![
            format!("trimmed from the bottom: {}", list(&d.removed_low)),
            format!("trimmed from the top: {}", list(&d.removed_high)),
        ];
        out.datum = Some(d.datum);
    } else {
        out.text = vec!["no real result: no datum".to_string()];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain table's shortcut gives what the weighted sum gives.
    #[test]
    fn plain_table_value_is_the_weighted_one() {
        for (x, y) in [(420, 420), (-100, 620), (0, 0), (-1430, -1430), (90, 110)] {
            let mut t = TableIn::plain(1, 2, x);
            t.ew_freq = Dist::Plain(y);
            let mut w = t.clone();
            w.ns_freq = Dist::Weighted(vec![crate::adjust::Component {
                weight: Q::ONE,
                points: x,
            }]);
            assert_eq!(table_value(&t), table_value(&w), "{x} {y}");
        }
    }

    #[test]
    fn rounds_datums() {
        assert_eq!(round10(Q::new(53218, 100), DatumTie::HalfEven), Q::int(530));
        assert_eq!(round10(Q::new(-2625, 100), DatumTie::HalfEven), Q::int(-30));
        assert_eq!(round10(Q::int(535), DatumTie::HalfEven), Q::int(540));
        assert_eq!(round10(Q::int(525), DatumTie::HalfEven), Q::int(520));
        assert_eq!(
            round10(Q::int(525), DatumTie::HalfAwayFromZero),
            Q::int(530)
        );
        assert_eq!(
            round10(Q::int(-525), DatumTie::HalfAwayFromZero),
            Q::int(-530)
        );
        assert_eq!(round10(Q::int(-535), DatumTie::HalfEven), Q::int(-540));
    }

    #[test]
    fn he_butler_datum() {
        let xs = [590, 100, -400, -100, 500, 690, -100, -550, -400, -400];
        let d = datum(
            xs.iter().map(|&x| (Q::int(x), Q::ONE)).collect(),
            &Options::default(),
        )
        .unwrap();
        assert_eq!(d.mean, Q::new(-2625, 100));
        assert_eq!(d.datum, Q::int(-30));
    }
}
