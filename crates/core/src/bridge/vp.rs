//! Victory points: IMP margin → VPs (laws-and-formats.md §2, conventions C18).
//!
//! * `WbfContinuous` — the WBF 2013 continuous 20-VP scale: the formula
//!   `VPw(M) = min(20, 10 + 10·(1 − τ^(3M/B)) / (1 − τ³))`, `B = 15·√boards`, `τ = (√5 − 1)/2`,
//!   tabulated for integer margins, rounded half up to 0.01, made concave by the convexity
//!   adjustment and cut at the first 20.00 (§2.1). This reproduces the published WBF tables.
//! * `WbfDiscrete` — the WBF 2013 discrete (integer) 20-VP scale (§2.3).
//! * `Custom` — a user table of the winner's VPs by whole IMP margin.
//!
//! Fractional margins (C18, §2.2 option (b)): linear interpolation between the VPs of the two
//! neighbouring whole margins, rounded half up to 0.01, on every scale. Each team's own margin
//! is converted separately; a loser gets `20 − vp(−margin)` (custom: `2·table[0] − …`).

use crate::num::Q;
use serde_json::Value;

/// A VP scale (session option `vp_scale`).
#[derive(Clone, Debug, PartialEq, Default)]
pub enum VpScale {
    /// WBF 2013 continuous 20-VP scale, rounded to 0.01 with the convexity adjustment (default).
    #[default]
    WbfContinuous,
    /// WBF 2013 discrete (integer) 20-VP scale.
    WbfDiscrete,
    /// A custom table: the winner's VPs for margins 0, 1, 2, ... (last entry = the maximum, used
    /// for every larger margin); the loser gets 2·table[0] − winner.
    Custom(Vec<Q>),
}

/// The `vp_scale` values taken (every [`BadVpScale`] begins with it).
const EXPECTED_SCALE: &str = "expected \"wbf_continuous\", \"wbf_discrete\" or \
     {\"custom\": [10, 10.5, ...]} (winner's VPs for margins 0, 1, 2, ...; non-decreasing)";

/// What is wrong with a `vp_scale` value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BadVpScale {
    #[error("{e}, found {0}", e = EXPECTED_SCALE)]
    Found(Value),
    #[error("{e}: \"custom\" stands alone, found {0}", e = EXPECTED_SCALE)]
    Alone(Value),
    #[error("{e}: \"custom\" must be an array, found {0}", e = EXPECTED_SCALE)]
    NotArray(Value),
    #[error("{e}: the custom table needs at least one entry", e = EXPECTED_SCALE)]
    Empty,
    #[error("{e}: custom entry {0} (margin {0}) is not a number: {1}", e = EXPECTED_SCALE)]
    NotNumber(usize, Value),
    #[error("{e}: custom entry 0 (the draw) must be ≥ 0, found {0}", e = EXPECTED_SCALE)]
    Draw(Q),
    /// An entry below the one before it (the entry, and the two values).
    #[error("{e}: custom table must be non-decreasing, entry {entry} ({}) is below entry {} ({})", .values[0], .entry - 1, .values[1], e = EXPECTED_SCALE)]
    Decreasing { entry: usize, values: Box<[Q; 2]> },
}

impl VpScale {
    /// Parse the session option value: "wbf_continuous" | "wbf_discrete" |
    /// {"custom":[10, 10.5, ...]} (non-decreasing, ≥ 1 entry, each ≥ table[0], table[0] ≥ 0;
    /// entries are JSON numbers or decimal/fraction strings such as "100/3").
    /// Error: a message saying what was expected.
    pub fn from_json(v: &Value) -> Result<VpScale, BadVpScale> {
        match v {
            Value::String(s) => match s.as_str() {
                "wbf_continuous" => Ok(VpScale::WbfContinuous),
                "wbf_discrete" => Ok(VpScale::WbfDiscrete),
                _ => Err(BadVpScale::Found(v.clone())),
            },
            Value::Object(o) => {
                let Some(t) = o.get("custom") else {
                    return Err(BadVpScale::Found(v.clone()));
                };
                if o.len() != 1 {
                    return Err(BadVpScale::Alone(v.clone()));
                }
                let Value::Array(items) = t else {
                    return Err(BadVpScale::NotArray(t.clone()));
                };
                if items.is_empty() {
                    return Err(BadVpScale::Empty);
                }
                let mut table = Vec::with_capacity(items.len());
                for (i, it) in items.iter().enumerate() {
                    let q = match it {
                        Value::Number(n) => Q::parse(&n.to_string()),
                        Value::String(s) => Q::parse(s),
                        _ => None,
                    };
                    let Some(q) = q else {
                        return Err(BadVpScale::NotNumber(i, it.clone()));
                    };
                    if i == 0 && q < Q::ZERO {
                        return Err(BadVpScale::Draw(q));
                    }
                    if let Some(&prev) = table.last() {
                        if q < prev {
                            return Err(BadVpScale::Decreasing {
                                entry: i,
                                values: Box::new([q, prev]),
                            });
                        }
                    }
                    table.push(q);
                }
                Ok(VpScale::Custom(table))
            }
            _ => Err(BadVpScale::Found(v.clone())),
        }
    }

    /// The option value's name: `wbf_continuous`, `wbf_discrete`, or `custom[10, 10.5, ...]`.
    pub fn name(&self) -> String {
        match self {
            VpScale::WbfContinuous => "wbf_continuous".to_string(),
            VpScale::WbfDiscrete => "wbf_discrete".to_string(),
            VpScale::Custom(t) => {
                let items: Vec<String> = t.iter().map(|q| q.to_string()).collect();
                format!("custom[{}]", items.join(", "))
            }
        }
    }
}

/// τ = (√5 − 1)/2, the golden-ratio conjugate.
fn tau() -> f64 {
    (5f64.sqrt() - 1.0) / 2.0
}

/// B = 15·√boards (the blitz margin: 20 VP at M ≥ B). `boards` 0 is treated as 1.
fn blitz(boards: u32) -> f64 {
    15.0 * f64::from(boards.max(1)).sqrt()
}

/// Winner's VPs by the continuous formula, unrounded.
fn formula(m: f64, b: f64) -> f64 {
    let t3 = tau().powi(3);
    let v = 10.0 + 10.0 * (1.0 - t3.powf(m / b)) / (1.0 - t3);
    v.min(20.0)
}

/// Step 1 of §2.1: `x` rounded half up to hundredths (as an integer count of 0.01).
/// The tiny epsilon keeps exact .xx5 cases from falling below the half by binary representation.
fn hundredths_half_up(x: f64) -> i64 {
    (x * 100.0 + 0.5 + 1e-9).floor() as i64
}

/// Step 2 of §2.1: while some k ≥ 2 has v[k] − 2·v[k−1] + v[k−2] > 0, add one unit to v[k−1]
/// (the first such k, then rescan).
fn convexity_adjust(v: &mut [i64]) {
    loop {
        let k = (2..v.len()).find(|&k| v[k] - 2 * v[k - 1] + v[k - 2] > 0);
        match k {
            Some(k) => v[k - 1] += 1,
            None => break,
        }
    }
}

/// The table in hundredths; `adjust` = false skips step 2 (for the reference tests only).
fn wbf_hundredths(boards: u32, adjust: bool) -> Vec<i64> {
    let b = blitz(boards);
    let top = b.ceil() as u32;
    let mut v: Vec<i64> = (0..=top)
        .map(|m| hundredths_half_up(formula(f64::from(m), b)).min(2000))
        .collect();
    if adjust {
        convexity_adjust(&mut v);
    }
    // Step 3: the table ends at the first 20.00.
    if let Some(end) = v.iter().position(|&x| x >= 2000) {
        v.truncate(end + 1);
    }
    v
}

/// The WBF 2013 adjusted table for `boards` (1..=100; 0 is treated as 1): winner's VPs for
/// M = 0..=ceil(B) (B = 15·√boards), exact 2-decimal values: step 1 round half up, step 2
/// convexity adjustment exactly as laws-and-formats.md §2.1 says, step 3 the table ends at the
/// first 20.00.
pub fn wbf_table(boards: u32) -> Vec<Q> {
    wbf_hundredths(boards, true)
        .into_iter()
        .map(|h| Q::new(i128::from(h), 100))
        .collect()
}

/// The table with steps 1 and 3 only (no convexity adjustment). Exposed so that the reference
/// tests can show the adjustment is needed to match the published tables; not for scoring.
#[doc(hidden)]
pub fn wbf_table_unadjusted(boards: u32) -> Vec<Q> {
    wbf_hundredths(boards, false)
        .into_iter()
        .map(|h| Q::new(i128::from(h), 100))
        .collect()
}

/// WBF 2013 discrete: the upper IMP bound of each VP result 10..=19 for `boards`
/// (laws-and-formats.md §2.3, ImportUsebio `discreteVp`), as (max_margin, winner_vp) ascending.
/// A margin above the last bound wins 20.
///
/// Raw bound of VP k: `int(B · ln(1 − (1 − τ³)·((k + 0.5)/10 − 1)) / ln τ³)`. Then, with the
/// mirrored bound −bound(10) in front, repeatedly lower one bound until the bands widen
/// monotonically: first, while the 11 band is narrower than the whole 10–10 band
/// (−b10..=b10), lower b10; otherwise lower bound[k−1] at the first k whose second difference
/// is negative.
pub fn wbf_discrete_bands(boards: u32) -> Vec<(u32, u32)> {
    let b = blitz(boards);
    let t3 = tau().powi(3);
    let raw: Vec<i64> = (10..20)
        .map(|k| {
            let vp = f64::from(k) + 0.5;
            let x = b * ((1.0 - (1.0 - t3) * (vp / 10.0 - 1.0)).ln() / t3.ln());
            x.trunc() as i64
        })
        .collect();
    let mut bounds = Vec::with_capacity(11);
    bounds.push(-raw[0]);
    bounds.extend_from_slice(&raw);
    // Each step lowers one bound; the bounds are bounded below, so this terminates — but keep
    // a generous guard against a pathological loop anyway.
    for _ in 0..100_000 {
        let idx = if bounds[2] - bounds[1] < 2 * bounds[1] + 1 {
            Some(2)
        } else {
            (2..bounds.len()).find(|&k| bounds[k] - 2 * bounds[k - 1] + bounds[k - 2] < 0)
        };
        match idx {
            Some(k) => bounds[k - 1] -= 1,
            None => break,
        }
    }
    bounds[1..]
        .iter()
        .zip(10u32..)
        .map(|(&ub, vp)| (ub.max(0) as u32, vp))
        .collect()
}

/// Discrete winner's VP for a whole margin `m` ≥ 0.
fn discrete_at(bands: &[(u32, u32)], m: i128) -> Q {
    let vp = bands
        .iter()
        .find(|&&(ub, _)| m <= i128::from(ub))
        .map_or(20, |&(_, vp)| vp);
    Q::int(i64::from(vp))
}

/// `x` rounded half up to 0.01 (exact).
fn round_cents(x: Q) -> Q {
    let c = (x * Q::int(100) + Q::new(1, 2)).floor();
    Q::new(c, 100)
}

/// Winner's side (margin ≥ 0) on a table indexed by whole margins, the last entry repeated for
/// larger margins; fractional margins interpolate and round half up to 0.01.
fn on_table(at: impl Fn(i128) -> Q, margin: Q) -> Q {
    let lo = margin.floor();
    let frac = margin - Q::new(lo, 1);
    if frac.is_zero() {
        return at(lo);
    }
    let a = at(lo);
    let b = at(lo + 1);
    round_cents(a + (b - a) * frac)
}

/// VPs of a team whose own net margin is `margin` IMPs (negative when it lost) in a match of
/// `boards` boards.
///
/// Whole margins: the table. Fractional margins (C18): linear interpolation between the
/// neighbouring whole-margin entries of the (adjusted) table, rounded half up to 0.01. On the
/// discrete scale the same is done with the integer VPs of the two neighbouring whole margins
/// (e.g. 20 boards, 1.5 IMPs: between 10 and 11 → 10.50), so a fractional margin can give a
/// non-integer VP there too; on a custom table likewise. A negative margin gets
/// 20 − vp(−margin) (custom: 2·table[0] − vp(−margin)), so the rounding is symmetric. The result
/// is never above the scale's maximum nor below 0.
pub fn vp(scale: &VpScale, boards: u32, margin: Q) -> Q {
    let pos = margin.abs();
    let (win, draw2, max) = match scale {
        VpScale::WbfContinuous => {
            let t = wbf_table(boards);
            let last = *t.last().expect("table has at least one entry");
            let at = |m: i128| {
                usize::try_from(m)
                    .ok()
                    .and_then(|i| t.get(i).copied())
                    .unwrap_or(last)
            };
            (on_table(at, pos), Q::int(20), Q::int(20))
        }
        VpScale::WbfDiscrete => {
            let bands = wbf_discrete_bands(boards);
            (
                on_table(|m| discrete_at(&bands, m), pos),
                Q::int(20),
                Q::int(20),
            )
        }
        VpScale::Custom(t) => {
            if t.is_empty() {
                return Q::ZERO;
            }
            let last = *t.last().unwrap();
            let at = |m: i128| {
                usize::try_from(m)
                    .ok()
                    .and_then(|i| t.get(i).copied())
                    .unwrap_or(last)
            };
            (on_table(at, pos), t[0] + t[0], last)
        }
    };
    let win = win.min(max).max(Q::ZERO);
    let v = if margin < Q::ZERO { draw2 - win } else { win };
    v.min(max).max(Q::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Q {
        Q::parse(s).unwrap()
    }

    #[test]
    fn vp_spot_values() {
        let s = VpScale::WbfContinuous;
        assert_eq!(vp(&s, 20, Q::int(0)), q("10"));
        assert_eq!(vp(&s, 20, Q::int(1)), q("10.28"));
        assert_eq!(vp(&s, 20, Q::int(-1)), q("9.72"));
        assert_eq!(vp(&s, 20, q("1.5")), q("10.42"));
        assert_eq!(vp(&s, 20, q("-1.5")), q("9.58"));
        assert_eq!(vp(&s, 20, Q::int(500)), q("20"));
        assert_eq!(vp(&s, 20, Q::int(-500)), q("0"));
    }

    #[test]
    fn vp_discrete_20_boards() {
        assert_eq!(
            wbf_discrete_bands(20),
            vec![
                (1, 10),
                (5, 11),
                (9, 12),
                (14, 13),
                (19, 14),
                (25, 15),
                (31, 16),
                (39, 17),
                (48, 18),
                (60, 19)
            ]
        );
    }

    #[test]
    fn vp_scale_json() {
        use serde_json::json;
        assert_eq!(
            VpScale::from_json(&json!("wbf_continuous")),
            Ok(VpScale::WbfContinuous)
        );
        assert_eq!(
            VpScale::from_json(&json!("wbf_discrete")),
            Ok(VpScale::WbfDiscrete)
        );
        assert_eq!(
            VpScale::from_json(&json!({"custom": [10, 10.5, "12"]})),
            Ok(VpScale::Custom(vec![q("10"), q("10.5"), q("12")]))
        );
        assert!(VpScale::from_json(&json!({"custom": []})).is_err());
        assert!(VpScale::from_json(&json!({"custom": [10, 9]})).is_err());
        assert!(VpScale::from_json(&json!("wbf")).is_err());
        assert!(VpScale::from_json(&json!(20)).is_err());
    }
}
