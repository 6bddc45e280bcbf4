//! The structured subsequent-damage form of a ruling (adjusted-scores.md §5, event-log.md
//! `ruling.subsequent_damage`, conventions C6).
//!
//! The director enters three NS-view results for the non-offending side (NOS): A *before* the
//! infraction, B *after the infraction* (without the NOS's own later error) and C *after the
//! additional loss* (usually the table result), plus the offenders' score (default A).
//!
//! - If the NOS's points do not increase, `p(A) ≥ p(B) ≥ p(C)` in its own view (checked on raw
//!   points, non-strict, C6), the entry expands to the weighted-split form of N7:
//!   NOS = NS → `(100%A&-100%B&100%C)/(offenders)`, NOS = EW → `(offenders)/(100%A&-100%B&100%C)`.
//! - Otherwise (000's "trap", §5.6) the entry is refused with a message naming the NOS, p(A),
//!   p(B), p(C) and the failing inequality, and the fallback of §5.6 item 2 / §10 A1 as notation
//!   ready to enter: NOS = `p(C) + max(0, min(p(A)−p(B), p(A)−p(C)))`, OS = offenders, always a
//!   plain split.

use crate::adjust::notation::{format_points, AdjustedScore, Component, Part, MAX_SCORE};
use crate::num::Q;
use std::fmt;
use std::str::FromStr;

/// A line of the table: North-South or East-West.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    NS,
    EW,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::NS => Side::EW,
            Side::EW => Side::NS,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Side::NS => "NS",
            Side::EW => "EW",
        }
    }

    /// NS points seen from this side: unchanged for NS, negated for EW.
    pub fn view(self, ns_points: i64) -> i64 {
        match self {
            Side::NS => ns_points,
            Side::EW => -ns_points,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Side {
    type Err = NotASide;
    /// `NS` or `EW` (any case), as the event log's `subsequent_damage.side`.
    fn from_str(s: &str) -> Result<Side, NotASide> {
        match s.trim().to_ascii_uppercase().as_str() {
            "NS" => Ok(Side::NS),
            "EW" => Ok(Side::EW),
            _ => Err(NotASide(s.to_string())),
        }
    }
}

/// A side that is neither `NS` nor `EW`, as found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected \"NS\" or \"EW\", found {0:?}")]
pub struct NotASide(pub String);

/// The members of a subsequent-damage ruling as the event log (`subsequent_damage`) and the
/// USEBIO notes write them.
pub const FIELDS: [&str; 5] = [
    "side",
    "before",
    "after_infraction",
    "after_loss",
    "offenders",
];

/// A subsequent-damage ruling. All scores are NS points in NS's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SubsequentDamage {
    /// The non-offending side.
    pub nos: Side,
    /// A: the result had there been no infraction.
    pub before: i32,
    /// B: what the NOS would have got after the infraction without its own further error.
    pub after_infraction: i32,
    /// C: the result after the additional loss (usually the table result).
    pub after_loss: i32,
    /// The offending side's score; the caller passes `before` when the log omits it.
    pub offenders: i32,
}

/// A refused subsequent-damage entry: why, and the §5.6 fallback to enter instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SdError {
    pub message: String,
    pub fallback: AdjustedScore,
}

impl SubsequentDamage {
    /// `offenders` defaults to `before` (event-log.md, C6).
    pub fn new(
        nos: Side,
        before: i32,
        after_infraction: i32,
        after_loss: i32,
        offenders: Option<i32>,
    ) -> SubsequentDamage {
        SubsequentDamage {
            nos,
            before,
            after_infraction,
            after_loss,
            offenders: offenders.unwrap_or(before),
        }
    }

    /// p(A), p(B), p(C): raw points in the NOS's own view.
    fn nos_view(&self) -> (i64, i64, i64) {
        (
            self.nos.view(self.before as i64),
            self.nos.view(self.after_infraction as i64),
            self.nos.view(self.after_loss as i64),
        )
    }

    /// Checks C6 (`p(A) ≥ p(B) ≥ p(C)` on raw points in the NOS's own view) and expands to
    /// `(100%A&-100%B&100%C)` for the NOS and `(offenders)` for the other side, keeping the three
    /// components in that order even when two are equal ([`Part::merged`] combines them).
    /// Scores beyond ±10000 points are refused too.
    #[allow(clippy::result_large_err)] // the error carries the fallback score by design
    pub fn expand(&self) -> Result<AdjustedScore, SdError> {
        let fallback = self.fallback();
        for (name, v) in [
            ("before", self.before),
            ("after_infraction", self.after_infraction),
            ("after_loss", self.after_loss),
            ("offenders", self.offenders),
        ] {
            if (v as i64).abs() > MAX_SCORE as i64 {
                return Err(SdError {
                    message: format!(
                        "subsequent damage refused: {name} ({}) is out of range (at most \
                         {MAX_SCORE} points either way)",
                        format_points(v)
                    ),
                    fallback,
                });
            }
        }
        let (a, b, c) = self.nos_view();
        let ab = a >= b;
        let bc = b >= c;
        if ab && bc {
            let one = Q::ONE;
            let sd = Part::Weighted(vec![
                Component {
                    weight: one,
                    points: self.before,
                },
                Component {
                    weight: -one,
                    points: self.after_infraction,
                },
                Component {
                    weight: one,
                    points: self.after_loss,
                },
            ]);
            let os = Part::plain(self.offenders);
            return Ok(match self.nos {
                Side::NS => AdjustedScore { ns: sd, ew: os },
                Side::EW => AdjustedScore { ns: os, ew: sd },
            });
        }

        let nos = self.nos;
        // A score as the NOS sees it; for EW also the NS view that was entered.
        let show = |ns_points: i32| match nos {
            Side::NS => format_points(ns_points),
            Side::EW => format!(
                "{} for EW, {} NS view",
                format_points(-ns_points),
                format_points(ns_points)
            ),
        };
        let mut fails = Vec::new();
        if !ab {
            fails.push(format!(
                "after_infraction ({}) is better for {nos} than before ({}): p(A) ≥ p(B) fails",
                show(self.after_infraction),
                show(self.before)
            ));
        }
        if !bc {
            fails.push(format!(
                "after_loss ({}) is better for {nos} than after_infraction ({}): p(B) ≥ p(C) fails",
                show(self.after_loss),
                show(self.after_infraction)
            ));
        }
        let nos_gets = if !ab {
            format!(
                "the infraction gave {nos} the chance of a better result, so {nos} keep the \
                 table result (after_loss)"
            )
        } else if a > c {
            format!(
                "the additional loss is not a loss, so {nos} get the score before the infraction"
            )
        } else {
            format!(
                "the additional loss is not a loss, so {nos} keep the table result (after_loss)"
            )
        };
        let p = |x: i64| {
            if x > 0 {
                format!("+{x}")
            } else {
                x.to_string()
            }
        };
        let ns_view = match nos {
            Side::NS => String::new(),
            Side::EW => format!(
                " (entered in NS view: {}, {}, {})",
                format_points(self.before),
                format_points(self.after_infraction),
                format_points(self.after_loss)
            ),
        };
        let message = format!(
            "subsequent damage refused: with {nos} as the non-offending side the method needs \
             p(A) ≥ p(B) ≥ p(C) in {nos}'s view, but p(A) = {} (before), p(B) = {} \
             (after_infraction), p(C) = {} (after_loss){ns_view}; {}; {nos_gets}, and the \
             offending side {} gets offenders ({}) (the trap, docs/event-log.md, C6): enter \"{}\" \
             instead",
            p(a),
            p(b),
            p(c),
            fails.join("; and "),
            nos.other(),
            format_points(self.offenders),
            fallback.normalised()
        );
        Err(SdError { message, fallback })
    }

    /// The §5.6 fallback (item 2, §10 A1), always a plain split: the NOS gets
    /// `p(C) + max(0, min(p(A)−p(B), p(A)−p(C)))` computed on raw points in its own view — the
    /// table result C when `p(B) > p(A)`, otherwise A if `p(A) > p(C)` else C — and the offending
    /// side gets `offenders`. Meant for refused entries; for an accepted one it is the
    /// raw-points value `C + A − B`, which lies between C and A (not what is scored: use
    /// [`SubsequentDamage::expand`]).
    pub fn fallback(&self) -> AdjustedScore {
        let (a, b, c) = self.nos_view();
        let nos_value = c + 0i64.max((a - b).min(a - c));
        // nos_value lies between p(C) and p(A) (inclusive), so it fits i32 in NS view.
        let nos_points = self.nos.view(nos_value) as i32;
        let nos = Part::plain(nos_points);
        let os = Part::plain(self.offenders);
        match self.nos {
            Side::NS => AdjustedScore { ns: nos, ew: os },
            Side::EW => AdjustedScore { ns: os, ew: nos },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adjust::notation::parse_adjusted;

    fn sd(nos: Side, a: i32, b: i32, c: i32, offenders: Option<i32>) -> SubsequentDamage {
        SubsequentDamage::new(nos, a, b, c, offenders)
    }

    fn expands(d: SubsequentDamage, expected: &str) -> AdjustedScore {
        let e = d.expand().unwrap_or_else(|e| panic!("{d:?} refused: {e}"));
        assert_eq!(e.normalised(), expected);
        assert_eq!(parse_adjusted(expected).unwrap(), e, "round trip");
        e
    }

    fn refused(d: SubsequentDamage, fallback: &str) -> String {
        let e = d.expand().expect_err("must be refused");
        assert_eq!(e.fallback.normalised(), fallback);
        assert_eq!(d.fallback(), e.fallback);
        assert!(!e.fallback.ns.components().is_empty() && e.fallback.ns.components().len() == 1);
        assert!(e.fallback.ew.components().len() == 1);
        assert_eq!(parse_adjusted(fallback).unwrap(), e.fallback);
        assert!(
            e.message.contains(&format!("enter \"{fallback}\" instead")),
            "{}",
            e.message
        );
        assert_eq!(e.to_string(), e.message);
        e.message
    }

    #[test]
    fn pl_sd_teams_1() {
        expands(
            sd(Side::NS, 2300, 500, -950, None),
            "(100%+2300&-100%+500&100%-950)/(+2300)",
        );
    }

    #[test]
    fn pl_sd_teams_2() {
        let e = expands(
            sd(Side::NS, 620, 500, 150, Some(620)),
            "(100%+620&-100%+500&100%+150)/(+620)",
        );
        assert_eq!(
            e.ns.components(),
            &[
                Component {
                    weight: Q::ONE,
                    points: 620
                },
                Component {
                    weight: -Q::ONE,
                    points: 500
                },
                Component {
                    weight: Q::ONE,
                    points: 150
                },
            ]
        );
        assert!(e.is_split());
        // Same as the notation of PL-NOT-9.
        assert_eq!(
            e,
            parse_adjusted("(100%+620&-100%+500&100%+150)/(+620)").unwrap()
        );
    }

    #[test]
    fn pl_sd_trap_1() {
        let m = refused(sd(Side::NS, 620, 800, 200, None), "(+200)/(+620)");
        assert!(
            m.contains(
                "after_infraction (+800) is better for NS than before (+620): p(A) ≥ p(B) fails"
            ),
            "{m}"
        );
        assert!(m.contains("p(A) = +620"), "{m}");
        assert!(m.contains("p(B) = +800"), "{m}");
        assert!(m.contains("p(C) = +200"), "{m}");
        assert!(m.contains("with NS as the non-offending side"), "{m}");
        assert!(m.contains("offending side EW gets offenders (+620)"), "{m}");
        assert!(!m.contains("p(B) ≥ p(C) fails"), "{m}");
    }

    #[test]
    fn pl_sd_butler_1() {
        expands(
            sd(Side::EW, -140, 130, 510, Some(-140)),
            "(-140)/(100%-140&-100%+130&100%+510)",
        );
    }

    #[test]
    fn nos_ew_trap_pl17_se_1() {
        // 000's labels for Example 13: before 5♣+1 (+620), after the infraction 6♣−1 if E
        // ruffs (−100), after the loss 6♣= (+1370, table). EW keep the table result (A4).
        let d = sd(Side::EW, 620, -100, 1370, None);
        let m = refused(d, "(+620)/(+1370)");
        assert!(
            m.contains(
                "after_infraction (+100 for EW, -100 NS view) is better for EW than before \
                 (-620 for EW, +620 NS view): p(A) ≥ p(B) fails"
            ),
            "{m}"
        );
        assert!(m.contains("p(A) = -620"), "{m}");
        assert!(m.contains("p(B) = +100"), "{m}");
        assert!(m.contains("p(C) = -1370"), "{m}");
        assert!(m.contains("with EW as the non-offending side"), "{m}");
        assert!(m.contains("offending side NS gets offenders (+620)"), "{m}");
    }

    #[test]
    fn nos_ew_trap_mirror_of_pl_sd_trap_1() {
        let m = refused(sd(Side::EW, -620, -800, -200, None), "(-620)/(-200)");
        assert!(m.contains("p(A) ≥ p(B) fails"), "{m}");
        assert!(
            m.contains("p(A) = +620") && m.contains("p(B) = +800"),
            "{m}"
        );
    }

    #[test]
    fn after_loss_better_than_after_infraction() {
        // p(C) > p(B), p(A) > p(C): ordinary adjusted score, NOS gets A.
        let m = refused(sd(Side::NS, 620, 150, 500, None), "(+620)");
        assert!(
            m.contains("after_loss (+500) is better for NS than after_infraction (+150): p(B) ≥ p(C) fails"),
            "{m}"
        );
        assert!(!m.contains("p(A) ≥ p(B) fails"), "{m}");
        assert!(m.contains("get the score before the infraction"), "{m}");
        // p(C) > p(B), p(C) ≥ p(A): NOS keeps C.
        let m = refused(sd(Side::NS, 420, 150, 500, Some(420)), "(+500)/(+420)");
        assert!(m.contains("keep the table result"), "{m}");
        // With an offenders' score different from A.
        refused(sd(Side::NS, 620, 150, 500, Some(600)), "(+620)/(+600)");
        // NOS = EW, p(C) > p(B): EW view A = +620, B = +150, C = +500.
        refused(sd(Side::EW, -620, -150, -500, None), "(-620)");
        refused(sd(Side::EW, -420, -150, -500, None), "(-420)/(-500)");
    }

    #[test]
    fn both_inequalities_fail() {
        // p(A) < p(B) < p(C): the table result stands for the NOS.
        let m = refused(sd(Side::NS, 100, 200, 300, None), "(+300)/(+100)");
        assert!(m.contains("p(A) ≥ p(B) fails; and "), "{m}");
        assert!(m.contains("p(B) ≥ p(C) fails"), "{m}");
    }

    #[test]
    fn equal_values_accepted() {
        // A = B: the expansion gives C (merged), as §5.6 says.
        let e = expands(
            sd(Side::NS, 620, 620, 150, None),
            "(100%+620&-100%+620&100%+150)/(+620)",
        );
        assert_eq!(
            e.ns.merged(),
            vec![Component {
                weight: Q::ONE,
                points: 150
            }]
        );
        // B = C: gives A.
        let e = expands(
            sd(Side::NS, 620, 150, 150, None),
            "(100%+620&-100%+150&100%+150)/(+620)",
        );
        assert_eq!(
            e.ns.merged(),
            vec![Component {
                weight: Q::ONE,
                points: 620
            }]
        );
        // All equal, NOS EW.
        let e = expands(
            sd(Side::EW, -100, -100, -100, None),
            "(-100)/(100%-100&-100%-100&100%-100)",
        );
        assert_eq!(
            e.ew.merged(),
            vec![Component {
                weight: Q::ONE,
                points: -100
            }]
        );
    }

    #[test]
    fn fallback_formula() {
        // For an accepted entry the fallback is the raw C + A − B, between C and A.
        assert_eq!(
            sd(Side::NS, 620, 500, 150, None).fallback().normalised(),
            "(+270)/(+620)"
        );
        assert_eq!(
            sd(Side::EW, -140, 130, 510, None).fallback().normalised(),
            "(-140)/(+240)"
        );
        // Extreme values never overflow.
        let d = sd(Side::EW, i32::MIN, i32::MAX, i32::MIN, Some(i32::MAX));
        let _ = d.fallback();
        assert!(d.expand().is_err());
        let d = sd(Side::NS, i32::MAX, i32::MIN, i32::MAX, None);
        let _ = d.fallback();
        assert!(d.expand().unwrap_err().message.contains("out of range"));
    }

    #[test]
    fn out_of_range_refused() {
        let e = sd(Side::NS, 20000, 500, 150, None).expand().unwrap_err();
        assert!(
            e.message.contains("before (+20000) is out of range"),
            "{}",
            e.message
        );
        let e = sd(Side::NS, 620, 500, 150, Some(-10010))
            .expand()
            .unwrap_err();
        assert!(e.message.contains("offenders (-10010)"), "{}", e.message);
    }

    #[test]
    fn side_parse() {
        assert_eq!("NS".parse::<Side>(), Ok(Side::NS));
        assert_eq!("ew".parse::<Side>(), Ok(Side::EW));
        assert!("N".parse::<Side>().is_err());
        assert_eq!(Side::NS.other(), Side::EW);
        assert_eq!(Side::EW.to_string(), "EW");
    }

    #[test]
    fn property_expansion_round_trips_and_brackets() {
        // Random A/B/C: accepted iff non-increasing in the NOS's view; accepted expansions
        // round-trip through the notation; the fallback lies between C and A.
        let mut x: u64 = 0x1234_5678_9ABC_DEF1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 41) as i32 * 50 - 1000
        };
        for i in 0..5000 {
            let nos = if i % 2 == 0 { Side::NS } else { Side::EW };
            let d = sd(nos, next(), next(), next(), Some(next()));
            let (a, b, c) = d.nos_view();
            match d.expand() {
                Ok(e) => {
                    assert!(a >= b && b >= c);
                    assert_eq!(parse_adjusted(&e.normalised()).unwrap(), e);
                }
                Err(err) => {
                    assert!(a < b || b < c);
                    let fb = err.fallback;
                    let nos_pts = match nos {
                        Side::NS => &fb.ns,
                        Side::EW => &fb.ew,
                    }
                    .components()[0]
                        .points;
                    let v = nos.view(nos_pts as i64);
                    assert!(v == a || v == c, "{d:?}");
                    assert!(v >= c, "never below the table result");
                    assert_eq!(parse_adjusted(&fb.normalised()).unwrap(), fb);
                }
            }
        }
    }
}
