//! The normalised notation of adjusted scores (adjusted-scores.md §2, N1–N8, A10; conventions C23).
//!
//! ```text
//! entry := part | part "/" part          NS part "/" EW part; one part applies to both sides
//! part  := PCT "%" | "A+" | "A" | "A-"   artificial (each side's own percentage)
//!        | "(" comp ("&" comp)* ")"      weighted; a single comp needs no weight
//!        | SCORE                         a bare score, read as "(" SCORE ")"
//! comp  := [WEIGHT "%"] SCORE            WEIGHT may be negative or a fraction (100/3%)
//! ```
//!
//! Scores are NS points in NS's view (N1). On input, whitespace between tokens is insignificant,
//! `;` separates components like `&`, `–` (U+2013) and `−` (U+2212) read as `-`, and the labels
//! `AV+`, `AV`, `AV-` (any case) read as `A+`, `A`, `A-`. Weights are kept exact ([`Q`]): a
//! decimal is exact as written (33.33% is not a third), `100/3%` is a third.
//!
//! The parser never panics and does bounded work: entries longer than [`MAX_ENTRY_CHARS`]
//! characters are refused, and weights are limited ([`MAX_WEIGHT_PCT`], [`MAX_WEIGHT_DENOM`],
//! [`MAX_PART_DENOM`]) so that scoring code multiplying them by fractional matchpoints cannot
//! overflow `i128`. Every accepted entry prints back ([`AdjustedScore::normalised`]) to text that
//! parses to the same value.

mod parser;

use parser::*;

use crate::num::Q;
use std::fmt;
use std::str::FromStr;

/// Longest entry accepted, in characters (bounded work for fuzzed or corrupt logs).
pub const MAX_ENTRY_CHARS: usize = 1000;
/// Largest score accepted, either way, in NS points.
pub const MAX_SCORE: i32 = 10_000;
/// Largest weight accepted, either way, in percent.
pub const MAX_WEIGHT_PCT: i64 = 1000;
/// Largest denominator of one weight (or artificial percentage), written in percent.
pub const MAX_WEIGHT_DENOM: i128 = 1_000_000;
/// Largest common denominator of the weights of one part, written in percent.
pub const MAX_PART_DENOM: i128 = 1_000_000_000_000;
/// Longest run of digits in one number (keeps the arithmetic inside `i128`).
const MAX_DIGITS: usize = 18;

/// One outcome of a weighted part: `weight` as a fraction of 1 (60% → 3/5, −100% → −1,
/// 100/3% → 1/3) and the NS points of the outcome, in NS's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Component {
    pub weight: Q,
    pub points: i32,
}

/// How an artificial part was written: `A+`, `A`, `A-`, or a percentage such as `55%`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArtLabel {
    Plus,
    Avg,
    Minus,
    Pct,
}

impl ArtLabel {
    /// The percentage a labelled artificial score stands for (A+ 60, A 50, A- 40); `None` for
    /// [`ArtLabel::Pct`].
    pub fn standard_pct(self) -> Option<Q> {
        match self {
            ArtLabel::Plus => Some(Q::int(60)),
            ArtLabel::Avg => Some(Q::int(50)),
            ArtLabel::Minus => Some(Q::int(40)),
            ArtLabel::Pct => None,
        }
    }
}

/// One side's part of an adjusted score.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// Artificial adjusted score: `pct` in percent units of that side's own score (A+ = 60,
    /// A = 50, A- = 40, "55%" = 55, "100/3%" = 100/3).
    Artificial { pct: Q, label: ArtLabel },
    /// Weighted (one or more components). Components kept in the order written; weights sum to
    /// exactly 1.
    Weighted(Vec<Component>),
}

impl Part {
    /// A plain assigned score: `Weighted([(1, points)])`.
    pub fn plain(points: i32) -> Part {
        Part::Weighted(vec![Component {
            weight: Q::ONE,
            points,
        }])
    }

    /// An artificial part written as a label (`A+`, `A`, `A-`) or, for [`ArtLabel::Pct`], as 50%.
    pub fn artificial(label: ArtLabel) -> Part {
        Part::Artificial {
            pct: label.standard_pct().unwrap_or(Q::int(50)),
            label,
        }
    }

    /// An artificial part written as a percentage, e.g. `Part::artificial_pct(Q::int(55))`.
    pub fn artificial_pct(pct: Q) -> Part {
        Part::Artificial {
            pct,
            label: ArtLabel::Pct,
        }
    }

    pub fn is_artificial(&self) -> bool {
        matches!(self, Part::Artificial { .. })
    }

    /// The components as written; empty for an artificial part.
    pub fn components(&self) -> &[Component] {
        match self {
            Part::Artificial { .. } => &[],
            Part::Weighted(c) => c,
        }
    }

    /// Components merged by equal points (weights added, zero-weight entries dropped), sorted by
    /// points descending (best for NS first). This is what scoring uses.
    pub fn merged(&self) -> Vec<Component> {
        merge_components(self.components(), |a, b| a + b).unwrap_or_default()
    }
}

/// Merges `comps` by points with the given addition (checked in the parser, plain elsewhere).
fn merge_components(comps: &[Component], add: impl Fn(Q, Q) -> Q) -> Option<Vec<Component>> {
    let mut out: Vec<Component> = Vec::with_capacity(comps.len());
    for c in comps {
        match out.iter_mut().find(|m| m.points == c.points) {
            Some(m) => m.weight = add(m.weight, c.weight),
            None => out.push(*c),
        }
    }
    out.retain(|c| !c.weight.is_zero());
    out.sort_by_key(|c| std::cmp::Reverse(c.points));
    Some(out)
}

/// An adjusted score: the NS part and the EW part (equal when one part was written for both).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AdjustedScore {
    pub ns: Part,
    pub ew: Part,
}

impl AdjustedScore {
    /// One part for both sides.
    pub fn single(part: Part) -> AdjustedScore {
        AdjustedScore {
            ns: part.clone(),
            ew: part,
        }
    }

    /// A split score `NS/EW`.
    pub fn split(ns: Part, ew: Part) -> AdjustedScore {
        AdjustedScore { ns, ew }
    }

    /// True when the two sides have different parts (`NS/EW` notation).
    pub fn is_split(&self) -> bool {
        self.ns != self.ew
    }

    /// The part of the given side.
    pub fn part(&self, side: crate::adjust::Side) -> &Part {
        match side {
            crate::adjust::Side::NS => &self.ns,
            crate::adjust::Side::EW => &self.ew,
        }
    }

    /// Canonical notation: `&` between components; weights printed when a part has more than one
    /// component (or a weight other than 100%), as decimals when exact (`60%`, `12.5%`), otherwise
    /// as a fraction of a percent (`100/3%`); scores signed (`+620`, `-100`, `0`); one part when
    /// both sides have the same part, else `NS/EW`; artificial parts as `A+`, `A`, `A-` or `55%`.
    pub fn normalised(&self) -> String {
        let mut s = String::new();
        write_part(&mut s, &self.ns);
        if self.is_split() {
            s.push('/');
            write_part(&mut s, &self.ew);
        }
        s
    }
}

impl fmt::Display for AdjustedScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.normalised())
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_part(&mut s, self);
        f.write_str(&s)
    }
}

impl FromStr for AdjustedScore {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<AdjustedScore, NotationError> {
        parse_adjusted(s)
    }
}

/// A score in notation: `+620`, `-100`, `0`.
pub fn format_points(points: i32) -> String {
    if points > 0 {
        format!("+{points}")
    } else {
        points.to_string()
    }
}

fn write_part(s: &mut String, p: &Part) {
    match p {
        Part::Artificial { pct, label } => match label.standard_pct() {
            Some(std) if std == *pct => s.push_str(match label {
                ArtLabel::Plus => "A+",
                ArtLabel::Avg => "A",
                _ => "A-",
            }),
            _ => s.push_str(&format!("{pct}%")),
        },
        Part::Weighted(comps) => {
            s.push('(');
            if let [only] = comps.as_slice() {
                if only.weight == Q::ONE {
                    s.push_str(&format_points(only.points));
                    s.push(')');
                    return;
                }
            }
            for (i, c) in comps.iter().enumerate() {
                if i > 0 {
                    s.push('&');
                }
                let pct = c
                    .weight
                    .checked_mul(Q::int(100))
                    .map(|q| q.to_string())
                    .unwrap_or_else(|| "?".into());
                s.push_str(&format!("{pct}%{}", format_points(c.points)));
            }
            s.push(')');
        }
    }
}

/// A refused entry. `message` is a lowercase fragment for a director: what was expected, where
/// (1-based character position in the entry as typed), what was found, and the entry itself.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct NotationError {
    pub message: String,
}

/// Parses an adjusted score in the notation of adjusted-scores.md §2 (see the module docs).
///
/// Refused, with a message naming what was expected, where and what was found: weights of a part
/// not summing to exactly 100% (the message gives the actual sum), a 0% weight, a weight on some
/// but not all components of a part, several components without weights, an artificial
/// percentage outside 0–100, a score that is not a whole number or exceeds ±10000, empty parts,
/// a missing `)`, more than one `/`, trailing text, and entries over 1000 characters.
pub fn parse_adjusted(s: &str) -> Result<AdjustedScore, NotationError> {
    if s.len() > 4 * MAX_ENTRY_CHARS || s.chars().count() > MAX_ENTRY_CHARS {
        return Err(NotationError {
            message: format!(
                "adjusted score is longer than {MAX_ENTRY_CHARS} characters ({} bytes) in {}",
                s.len(),
                quote(s)
            ),
        });
    }
    let a = parse_adjusted_unchecked(s)?;
    // The entry is printed back in full (explain, Parquet, the bulletin), every score with its
    // sign: that text must parse too, so the limit applies to it as well.
    let printed = a.normalised().chars().count();
    if printed > MAX_ENTRY_CHARS {
        return Err(NotationError {
            message: format!(
                "adjusted score is longer than {MAX_ENTRY_CHARS} characters once written out in \
                 full ({printed} characters, every score with its sign): write it with fewer \
                 components; in {}",
                quote(s)
            ),
        });
    }
    Ok(a)
}

fn parse_adjusted_unchecked(s: &str) -> Result<AdjustedScore, NotationError> {
    let mut p = Parser::new(s);
    if p.chars.is_empty() {
        return Err(p.fail(
            "empty adjusted score: expected a score such as (+620), (60%+620&40%-100)/(+620), \
             50% or A+"
                .into(),
        ));
    }
    let ns = p.part("the NS part")?;
    let ew = match p.peek() {
        None => None,
        Some('/') => {
            p.i += 1;
            let ew = p.part("the EW part")?;
            match p.peek() {
                None => {}
                Some('/') => {
                    return Err(p.fail(format!(
                        "a second '/' at character {}: an entry has at most two parts, NS/EW",
                        p.pos()
                    )))
                }
                Some(_) => return Err(p.unexpected("'/' or the end of the entry", None)),
            }
            Some(ew)
        }
        Some(c) => {
            let hint = match (&ns, c) {
                (
                    Raw::Art {
                        label: ArtLabel::Pct,
                        ..
                    },
                    '+' | '-' | '0'..='9',
                ) => Some("weighted components must be in parentheses, e.g. (60%+620&40%-100)"),
                (_, '(' | 'A' | 'a') | (Raw::Weighted { .. }, '+' | '-' | '0'..='9') => {
                    Some("put '/' between the NS part and the EW part, e.g. 50%/(+630)")
                }
                _ => None,
            };
            return Err(p.unexpected("'/' or the end of the entry", hint));
        }
    };
    let split = ew.is_some();
    let mut sum_errors = Vec::new();
    let ns_part = p.finish(ns, if split { Some("NS") } else { None }, &mut sum_errors)?;
    let ew_part = match ew {
        Some(ew) => Some(p.finish(ew, Some("EW"), &mut sum_errors)?),
        None => None,
    };
    if !sum_errors.is_empty() {
        return Err(p.fail(sum_errors.join("; ")));
    }
    Ok(match ew_part {
        Some(ew) => AdjustedScore { ns: ns_part, ew },
        None => AdjustedScore::single(ns_part),
    })
}

/// Parses one score as the event log writes them (`"+620"`, `"-100"`, `"620"`, `"–100"`):
/// a whole number of NS points, at most ±10000.
pub fn parse_score(s: &str) -> Result<i32, NotationError> {
    if s.len() > 4 * MAX_ENTRY_CHARS || s.chars().count() > MAX_ENTRY_CHARS {
        return Err(NotationError {
            message: format!("score is longer than {MAX_ENTRY_CHARS} characters"),
        });
    }
    let mut p = Parser::new(s);
    if p.chars.is_empty() {
        return Err(p.fail("empty score: expected NS points such as +620 or -100".into()));
    }
    let start = p.pos();
    let lit = p.literal(false)?;
    let Some(lit) = lit else {
        return Err(p.unexpected("a score such as +620 or -100", None));
    };
    let points = p.score_of(&lit, start)?;
    if p.peek().is_some() {
        return Err(p.unexpected("the end of the score", None));
    }
    Ok(points)
}

fn quote(s: &str) -> String {
    const SHOWN: usize = 60;
    if s.chars().count() > SHOWN {
        let head: String = s.chars().take(SHOWN - 3).collect();
        format!("{:?}", head + "...")
    } else {
        format!("{s:?}")
    }
}

#[cfg(test)]
mod tests;
