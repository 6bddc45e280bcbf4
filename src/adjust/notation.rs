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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub message: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NotationError {}

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

/// A character of the entry with whitespace removed: its 1-based position in the input and
/// whether whitespace preceded it (numbers may not contain whitespace).
#[derive(Clone, Copy)]
struct Ch {
    c: char,
    pos: usize,
    gap: bool,
}

/// A part as read, before the weights are checked.
enum Raw {
    Art {
        pct: Q,
        label: ArtLabel,
    },
    Weighted {
        /// (weight in percent if written, points, position of the component)
        comps: Vec<(Option<Q>, i32, usize)>,
        pos: usize,
    },
}

/// A number as read: `value` (signed), whether it was a plain integer, whether `%` followed.
struct Lit {
    value: Q,
    integer: bool,
    pct: bool,
    text: String,
}

struct Parser<'a> {
    input: &'a str,
    chars: Vec<Ch>,
    i: usize,
    end_pos: usize,
}

impl<'a> Parser<'a> {
    fn new(input: &'a str) -> Parser<'a> {
        let mut chars = Vec::new();
        let mut gap = false;
        let mut n = 0;
        for (k, c) in input.chars().enumerate() {
            n = k + 1;
            if c.is_whitespace() {
                gap = true;
                continue;
            }
            let c = match c {
                // en dash, minus sign, hyphen, non-breaking hyphen, figure dash
                '\u{2013}' | '\u{2212}' | '\u{2010}' | '\u{2011}' | '\u{2012}' => '-',
                _ => c,
            };
            chars.push(Ch { c, pos: k + 1, gap });
            gap = false;
        }
        Parser {
            input,
            chars,
            i: 0,
            end_pos: n + 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).map(|c| c.c)
    }

    fn peek_ch(&self) -> Option<Ch> {
        self.chars.get(self.i).copied()
    }

    /// 1-based position of the current character (one past the end at the end).
    fn pos(&self) -> usize {
        self.pos_at(self.i)
    }

    fn pos_at(&self, i: usize) -> usize {
        self.chars.get(i).map(|c| c.pos).unwrap_or(self.end_pos)
    }

    fn fail(&self, msg: String) -> NotationError {
        NotationError {
            message: format!("{msg} in {}", quote(self.input)),
        }
    }

    fn found(&self) -> String {
        match self.peek() {
            None => "the end of the entry".into(),
            Some(c) => format!("{c:?}"),
        }
    }

    fn unexpected(&self, expected: &str, hint: Option<&str>) -> NotationError {
        let mut msg = format!(
            "expected {expected} at character {}, found {}",
            self.pos(),
            self.found()
        );
        if self.peek() == Some(',') {
            msg.push_str(" (use '&' between components and '.' as the decimal point)");
        }
        if let Some(h) = hint {
            msg.push_str(" (");
            msg.push_str(h);
            msg.push(')');
        }
        self.fail(msg)
    }

    /// A run of digits with no whitespace inside: (value, digit count).
    fn digits(&mut self) -> Result<(i128, usize), NotationError> {
        let start = self.i;
        let (mut v, mut n) = (0i128, 0usize);
        while let Some(ch) = self.peek_ch() {
            if !ch.c.is_ascii_digit() || (n > 0 && ch.gap) {
                break;
            }
            if n == MAX_DIGITS {
                return Err(self.fail(format!(
                    "number at character {} has more than {MAX_DIGITS} digits",
                    self.pos_at(start)
                )));
            }
            v = v * 10 + (ch.c as u8 - b'0') as i128;
            n += 1;
            self.i += 1;
        }
        Ok((v, n))
    }

    /// Reads `[+|-] DIGITS [. DIGITS] [/ DIGITS] [%]`. The fraction form (`100/3`) is taken only
    /// when `allow_fraction` and a `%` follows it, so `620/630` stays a split of two scores.
    /// Returns `None` (consuming nothing) when no number starts here.
    fn literal(&mut self, allow_fraction: bool) -> Result<Option<Lit>, NotationError> {
        let start = self.i;
        let neg = match self.peek() {
            Some('-') => {
                self.i += 1;
                true
            }
            Some('+') => {
                self.i += 1;
                false
            }
            _ => false,
        };
        let digits_start = self.i;
        let (int, n_int) = self.digits()?;
        let mut value = Q::new(int, 1);
        let mut integer = true;
        if self.peek() == Some('.') && self.peek_ch().is_some_and(|c| !(c.gap && n_int > 0)) {
            self.i += 1;
            let frac_start = self.i;
            let (frac, n_frac) = if self.peek_ch().is_some_and(|c| !c.gap) {
                self.digits()?
            } else {
                (0, 0)
            };
            if n_int + n_frac == 0 {
                self.i = frac_start;
                return Err(self.unexpected("a digit after '.'", None));
            }
            let scale = 10i128.pow(n_frac as u32);
            value = Q::new(int * scale + frac, scale);
            integer = false;
        } else if n_int == 0 {
            if self.i == start {
                return Ok(None);
            }
            return Err(self.unexpected("a number after the sign", None));
        }
        if allow_fraction && !integer && self.peek() == Some('/') {
            return Err(self.unexpected(
                "'%' (write fractions with whole numbers, e.g. 100/3%)",
                None,
            ));
        }
        if allow_fraction && integer && self.peek() == Some('/') {
            let save = self.i;
            self.i += 1;
            let (den, n_den) = self.digits()?;
            if n_den > 0 && self.peek() == Some('.') {
                return Err(self.unexpected(
                    "'%' after the fraction (write fractions with whole numbers, e.g. 100/3%)",
                    None,
                ));
            }
            if n_den > 0 && self.peek() == Some('%') {
                if den == 0 {
                    return Err(self.fail(format!(
                        "division by zero in the percentage at character {}",
                        self.pos_at(start)
                    )));
                }
                value = Q::new(int, den);
                integer = false;
            } else {
                self.i = save;
            }
        }
        if neg {
            value = -value;
        }
        let text: String = self.chars[digits_start.min(self.i)..self.i]
            .iter()
            .map(|c| c.c)
            .collect();
        let text = format!("{}{text}", if neg { "-" } else { "" });
        let pct = self.peek() == Some('%');
        if pct {
            self.i += 1;
        }
        Ok(Some(Lit {
            value,
            integer,
            pct,
            text,
        }))
    }

    /// The points of a literal read where a score is expected.
    fn score_of(&self, lit: &Lit, at: usize) -> Result<i32, NotationError> {
        if lit.pct {
            return Err(self.fail(format!(
                "expected a score at character {at}, found the percentage {}%",
                lit.text
            )));
        }
        if !lit.integer {
            return Err(self.fail(format!(
                "a score must be a whole number of points, found {} at character {at}",
                lit.text
            )));
        }
        let v = lit.value.numer();
        if v.abs() > MAX_SCORE as i128 {
            return Err(self.fail(format!(
                "score {} at character {at} is out of range (at most {MAX_SCORE} points either way)",
                lit.text
            )));
        }
        Ok(v as i32)
    }

    /// Checks one weight (in percent) read at `at`.
    fn check_weight(&self, w: Q, text: &str, at: usize) -> Result<(), NotationError> {
        if w.is_zero() {
            return Err(self.fail(format!(
                "weight {text}% at character {at} is zero: leave that component out"
            )));
        }
        if w.abs() > Q::int(MAX_WEIGHT_PCT) {
            return Err(self.fail(format!(
                "weight {text}% at character {at} is out of range (at most {MAX_WEIGHT_PCT}% \
                 either way)"
            )));
        }
        if w.denom() > MAX_WEIGHT_DENOM {
            return Err(self.fail(format!(
                "weight {text}% at character {at} is too fine (its denominator may be at most \
                 {MAX_WEIGHT_DENOM})"
            )));
        }
        Ok(())
    }

    fn part(&mut self, which: &str) -> Result<Raw, NotationError> {
        let start = self.pos();
        match self.peek() {
            None => Err(self.unexpected(&format!("{which} (e.g. (+620), 60% or A+)"), None)),
            Some('(') => self.weighted(),
            Some('A' | 'a') => self.label(),
            Some('+' | '-' | '.' | '0'..='9') => {
                let lit = self
                    .literal(true)?
                    .ok_or_else(|| self.unexpected(which, None))?;
                if lit.pct {
                    let pct = lit.value;
                    if pct < Q::ZERO || pct > Q::int(100) {
                        return Err(self.fail(format!(
                            "artificial score {}% at character {start} is outside 0% to 100%",
                            lit.text
                        )));
                    }
                    if pct.denom() > MAX_WEIGHT_DENOM {
                        return Err(self.fail(format!(
                            "artificial score {}% at character {start} is too fine (its \
                             denominator may be at most {MAX_WEIGHT_DENOM})",
                            lit.text
                        )));
                    }
                    Ok(Raw::Art {
                        pct,
                        label: ArtLabel::Pct,
                    })
                } else {
                    let points = self.score_of(&lit, start)?;
                    Ok(Raw::Weighted {
                        comps: vec![(None, points, start)],
                        pos: start,
                    })
                }
            }
            Some(_) => Err(self.unexpected(
                &format!(
                    "{which}: a weighted part in parentheses, a score, a percentage or A+/A/A-"
                ),
                None,
            )),
        }
    }

    /// `A+`, `A`, `A-`, `AV+`, `AV`, `AV-` in any case, with no spaces inside.
    fn label(&mut self) -> Result<Raw, NotationError> {
        self.i += 1; // 'A'
        if matches!(
            self.peek_ch(),
            Some(Ch {
                c: 'V' | 'v',
                gap: false,
                ..
            })
        ) {
            self.i += 1;
        }
        let label = match self.peek_ch() {
            Some(Ch {
                c: '+', gap: false, ..
            }) => {
                self.i += 1;
                ArtLabel::Plus
            }
            Some(Ch {
                c: '-', gap: false, ..
            }) => {
                self.i += 1;
                ArtLabel::Minus
            }
            _ => ArtLabel::Avg,
        };
        Ok(Raw::Art {
            pct: label.standard_pct().unwrap_or(Q::int(50)),
            label,
        })
    }

    fn weighted(&mut self) -> Result<Raw, NotationError> {
        let open = self.pos();
        self.i += 1; // '('
        let mut comps = Vec::new();
        loop {
            comps.push(self.component()?);
            match self.peek() {
                Some('&' | ';') => self.i += 1,
                Some(')') => {
                    self.i += 1;
                    break;
                }
                None => {
                    return Err(self.unexpected(
                        "'&' or ')'",
                        Some(&format!("the '(' at character {open} is not closed")),
                    ))
                }
                Some(_) => return Err(self.unexpected("'&' or ')'", None)),
            }
        }
        Ok(Raw::Weighted { comps, pos: open })
    }

    fn component(&mut self) -> Result<(Option<Q>, i32, usize), NotationError> {
        const WHAT: &str = "a component (a score such as +620, or a weight and a score such as \
                            60%+620)";
        let start = self.pos();
        let Some(lit) = self.literal(true)? else {
            return Err(self.unexpected(WHAT, None));
        };
        if !lit.pct {
            return Ok((None, self.score_of(&lit, start)?, start));
        }
        self.check_weight(lit.value, &lit.text, start)?;
        let at = self.pos();
        let Some(score) = self.literal(false)? else {
            return Err(self.unexpected(&format!("a score after the weight {}%", lit.text), None));
        };
        Ok((Some(lit.value), self.score_of(&score, at)?, start))
    }

    /// Checks the weights of a part and converts it. Sums that are not 100% are collected in
    /// `sum_errors` so that both sides of a split are reported together.
    fn finish(
        &self,
        raw: Raw,
        side: Option<&str>,
        sum_errors: &mut Vec<String>,
    ) -> Result<Part, NotationError> {
        let (comps, open) = match raw {
            Raw::Art { pct, label } => return Ok(Part::Artificial { pct, label }),
            Raw::Weighted { comps, pos } => (comps, pos),
        };
        let of_part = match side {
            Some(s) => format!("of the {s} part "),
            None => String::new(),
        };
        let weighted = comps.iter().filter(|c| c.0.is_some()).count();
        if comps.len() > 1 && weighted == 0 {
            return Err(self.fail(format!(
                "the part {of_part}at character {open} has {} components but no weights: give \
                 each a weight, e.g. (60%+620&40%-100)",
                comps.len()
            )));
        }
        if weighted > 0 && weighted < comps.len() {
            let (_, pts, at) = comps
                .iter()
                .find(|c| c.0.is_none())
                .copied()
                .unwrap_or_default();
            return Err(self.fail(format!(
                "component {} at character {at} has no weight: when a part has several \
                 components each needs a weight, e.g. (60%+620&40%-100)",
                format_points(pts)
            )));
        }
        let too_fine = || {
            self.fail(format!(
                "the weights {of_part}at character {open} are too fine to add up exactly \
                 (their common denominator may be at most {MAX_PART_DENOM})"
            ))
        };
        let mut sum = Q::ZERO;
        let mut den: i128 = 1;
        for (w, _, _) in &comps {
            let w = w.unwrap_or(Q::int(100));
            sum = sum.checked_add(w).ok_or_else(too_fine)?;
            let d = w.denom();
            den = (den / gcd(den, d))
                .checked_mul(d)
                .filter(|l| *l <= MAX_PART_DENOM)
                .ok_or_else(too_fine)?;
        }
        if sum != Q::int(100) {
            sum_errors.push(format!("weights {of_part}sum to {sum}%, expected 100%"));
        }
        let hundredth = Q::new(1, 100);
        let mut out = Vec::with_capacity(comps.len());
        for (w, points, _) in comps {
            let weight = match w {
                Some(w) => w.checked_mul(hundredth).ok_or_else(too_fine)?,
                None => Q::ONE,
            };
            out.push(Component { weight, points });
        }
        // Scoring merges equal points; make sure that cannot overflow either.
        let checked = std::cell::Cell::new(true);
        merge_components(&out, |a, b| {
            a.checked_add(b).unwrap_or_else(|| {
                checked.set(false);
                a
            })
        });
        if !checked.get() {
            return Err(too_fine());
        }
        Ok(Part::Weighted(out))
    }
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a.abs().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(w: Q, points: i32) -> Component {
        Component { weight: w, points }
    }

    fn q(n: i128, d: i128) -> Q {
        Q::new(n, d)
    }

    fn w(comps: &[(Q, i32)]) -> Part {
        Part::Weighted(comps.iter().map(|&(wt, p)| c(wt, p)).collect())
    }

    fn ok(s: &str) -> AdjustedScore {
        match parse_adjusted(s) {
            Ok(a) => a,
            Err(e) => panic!("{s:?} refused: {e}"),
        }
    }

    fn err(s: &str) -> String {
        match parse_adjusted(s) {
            Ok(a) => panic!("{s:?} accepted as {a}"),
            Err(e) => e.message,
        }
    }

    /// Parses, checks the parts and the canonical text, and checks the round trip.
    fn check(s: &str, ns: Part, ew: Part, canonical: &str) {
        let a = ok(s);
        assert_eq!(a.ns, ns, "NS part of {s:?}");
        assert_eq!(a.ew, ew, "EW part of {s:?}");
        assert_eq!(a.normalised(), canonical, "normalised {s:?}");
        assert_eq!(a.to_string(), canonical);
        assert_eq!(ok(canonical), a, "round trip of {s:?}");
    }

    // §8.1, PL-NOT-1 … PL-NOT-9.
    #[test]
    fn pl_not_1_split_plain() {
        let s = "(-100)/(+600)";
        check(s, Part::plain(-100), Part::plain(600), s);
        assert!(ok(s).is_split());
    }

    #[test]
    fn pl_not_2_split_plain() {
        let s = "(+600)/(+630)";
        check(s, Part::plain(600), Part::plain(630), s);
    }

    #[test]
    fn pl_not_3_weighted_split() {
        let s = "(60%+620&40%-100)/(+620)";
        check(
            s,
            w(&[(q(3, 5), 620), (q(2, 5), -100)]),
            Part::plain(620),
            s,
        );
    }

    #[test]
    fn pl_not_4_weighted_both_sides() {
        let s = "(30%+620&70%-100)/(70%+620&30%-100)";
        check(
            s,
            w(&[(q(3, 10), 620), (q(7, 10), -100)]),
            w(&[(q(7, 10), 620), (q(3, 10), -100)]),
            s,
        );
    }

    #[test]
    fn pl_not_5_artificial_split() {
        let s = "50%/(+630)";
        let art = Part::Artificial {
            pct: Q::int(50),
            label: ArtLabel::Pct,
        };
        check(s, art.clone(), Part::plain(630), s);
        // E3: the source's form without the slash does not parse.
        assert!(parse_adjusted("50%(+630)").is_err());
    }

    #[test]
    fn pl_not_6_artificial_and_weighted() {
        let s = "50%/(60%+620&40%-100)";
        check(
            s,
            Part::artificial_pct(Q::int(50)),
            w(&[(q(3, 5), 620), (q(2, 5), -100)]),
            s,
        );
        assert!(parse_adjusted("50%(60%+620 & 40%-100)").is_err());
    }

    #[test]
    fn pl_not_7_en_dash() {
        let p = w(&[(q(3, 5), 620), (q(2, 5), -100)]);
        check(
            "(60%+620&40%–100)",
            p.clone(),
            p.clone(),
            "(60%+620&40%-100)",
        );
        check(
            "(60%+620&40%−100)",
            p.clone(),
            p.clone(),
            "(60%+620&40%-100)",
        );
        assert!(!ok("(60%+620&40%–100)").is_split());
    }

    #[test]
    fn pl_not_8_semicolon() {
        let p = w(&[(q(2, 5), 500), (q(3, 5), -790)]);
        check("(40%+500;60%-790)", p.clone(), p, "(40%+500&60%-790)");
    }

    #[test]
    fn pl_not_9_sd_expansion() {
        let s = "(100%+620&-100%+500&100%+150)/(+620)";
        let a = ok(s);
        check(
            s,
            w(&[(Q::ONE, 620), (-Q::ONE, 500), (Q::ONE, 150)]),
            Part::plain(620),
            s,
        );
        assert_eq!(
            a.ns.merged(),
            vec![c(Q::ONE, 620), c(-Q::ONE, 500), c(Q::ONE, 150)]
        );
    }

    // §8.5, the 2017 slides.
    #[test]
    fn pl17_rev_2_exact_thirds() {
        let s = "(100/3%-100&200/3%-200)";
        let p = w(&[(q(1, 3), -100), (q(2, 3), -200)]);
        check(s, p.clone(), p, s);
        let a = ok(s);
        let sum: Q = a.ns.components().iter().map(|c| c.weight).sum();
        assert_eq!(sum, Q::ONE);
        // Decimals are exact as written, not thirds (A10), and then do not sum to 100%.
        let dec = ok("(33.33%-100&66.67%-200)");
        assert_eq!(dec.ns.components()[0].weight, q(3333, 10000));
        assert_eq!(dec.normalised(), "(33.33%-100&66.67%-200)");
    }

    #[test]
    fn pl17_miui_1() {
        let s = "(25%-90&75%-110)";
        let p = w(&[(q(1, 4), -90), (q(3, 4), -110)]);
        check(s, p.clone(), p, s);
    }

    #[test]
    fn pl17_table_entries() {
        for s in [
            "(+100)",
            "(50%+460&50%+170)",
            "(-100)",
            "(60%-300&40%-500)",
            "(+620)/(+1370)",
        ] {
            assert_eq!(ok(s).normalised(), s);
        }
    }

    #[test]
    fn pl17_se_1_slides_intent() {
        let s = "(+620)/(100%+620&-100%-100&100%+1370)";
        check(
            s,
            Part::plain(620),
            w(&[(Q::ONE, 620), (-Q::ONE, -100), (Q::ONE, 1370)]),
            s,
        );
    }

    #[test]
    fn artificial_labels() {
        let a = ok("A+/A-");
        assert_eq!(a.ns, Part::artificial(ArtLabel::Plus));
        assert_eq!(
            a.ew,
            Part::Artificial {
                pct: Q::int(40),
                label: ArtLabel::Minus
            }
        );
        assert_eq!(
            a.ns,
            Part::Artificial {
                pct: Q::int(60),
                label: ArtLabel::Plus
            }
        );
        assert_eq!(
            ok("A").ns,
            Part::Artificial {
                pct: Q::int(50),
                label: ArtLabel::Avg
            }
        );
        assert_eq!(a.normalised(), "A+/A-");
        assert_eq!(ok("av+ / Av–").normalised(), "A+/A-");
        assert_eq!(ok("AV").normalised(), "A");
        assert_eq!(ok("A").ns, Part::artificial(ArtLabel::Avg));
        assert!(ok("A").ns.is_artificial());
        assert!(ok("A").ns.components().is_empty());
        assert_eq!(ok("A/A-").normalised(), "A/A-");
        // A written 60% stays a percentage (mp_artificial options treat A+ differently).
        assert_eq!(ok("60%/40%").normalised(), "60%/40%");
        assert_ne!(ok("60%"), ok("A+"));
        assert_eq!(ok("100/3%").ns.clone(), Part::artificial_pct(q(100, 3)));
        assert_eq!(ok("100/3%/(+620)").normalised(), "100/3%/(+620)");
        assert_eq!(ok("12.5%").normalised(), "12.5%");
        assert_eq!(ok("0%/100%").normalised(), "0%/100%");
    }

    #[test]
    fn bare_scores_and_spaces() {
        assert_eq!(ok("+620").normalised(), "(+620)");
        assert_eq!(ok("620").normalised(), "(+620)");
        assert_eq!(ok(" -100 ").normalised(), "(-100)");
        assert_eq!(ok("620/630").normalised(), "(+620)/(+630)");
        assert_eq!(ok("+620/-100").normalised(), "(+620)/(-100)");
        assert_eq!(ok("(0)").normalised(), "(0)");
        assert_eq!(ok("(-0)").normalised(), "(0)");
        assert_eq!(ok("(50%0&50%+100)").normalised(), "(50%0&50%+100)");
        assert_eq!(
            ok(" ( 60 % + 620 & 40% - 100 ) / ( + 620 ) ").normalised(),
            "(60%+620&40%-100)/(+620)"
        );
        assert_eq!(
            ok("(100 / 3 % -100 & 200/3% -200)").normalised(),
            "(100/3%-100&200/3%-200)"
        );
        assert_eq!(ok("(100%+620)").normalised(), "(+620)");
        assert_eq!(ok("(+620)/(+620)").normalised(), "(+620)");
        assert!(!ok("(+620)/(+620)").is_split());
        // A no-break space (Polish typesetting) is whitespace too.
        assert_eq!(
            ok("(60%\u{a0}+620&40%\u{a0}-100)").normalised(),
            "(60%+620&40%-100)"
        );
        // Digits split by a space are not one number.
        assert!(parse_adjusted("(+6 20)").is_err());
        assert!(parse_adjusted("+6 20").is_err());
        // Any integer score within range.
        assert_eq!(ok("(+625)").ns, Part::plain(625));
        assert_eq!(ok("(+10000)/(-10000)").normalised(), "(+10000)/(-10000)");
    }

    #[test]
    fn negative_and_decimal_weights() {
        let a = ok("(12.5%+100&87.5%-50)");
        assert_eq!(a.ns.components()[0].weight, q(1, 8));
        assert_eq!(a.normalised(), "(12.5%+100&87.5%-50)");
        let b = ok("(-100/3%+100&400/3%-50)");
        assert_eq!(b.ns.components()[0].weight, q(-1, 3));
        assert_eq!(b.normalised(), "(-100/3%+100&400/3%-50)");
        assert_eq!(
            ok("(+100%+620&-100%+500&+100%+150)").normalised(),
            "(100%+620&-100%+500&100%+150)"
        );
    }

    #[test]
    fn merged_adds_equal_points_and_drops_zero() {
        let a = ok("(100%+620&-100%+620&100%+150)");
        assert_eq!(a.ns.merged(), vec![c(Q::ONE, 150)]);
        assert_eq!(a.ns.components().len(), 3);
        let b = ok("(30%-100&20%+620&50%-100)");
        assert_eq!(b.ns.merged(), vec![c(q(1, 5), 620), c(q(4, 5), -100)]);
        assert_eq!(b.normalised(), "(30%-100&20%+620&50%-100)");
        assert!(ok("A+").ns.merged().is_empty());
        assert_eq!(Part::plain(-50).merged(), vec![c(Q::ONE, -50)]);
    }

    // Errors.
    #[test]
    fn a9_weights_not_100_on_both_sides() {
        let m = err("(40%-500)/(60%-790)");
        assert!(
            m.contains("weights of the NS part sum to 40%, expected 100%"),
            "{m}"
        );
        assert!(
            m.contains("weights of the EW part sum to 60%, expected 100%"),
            "{m}"
        );
    }

    #[test]
    fn weights_sum_reported() {
        let m = err("(50%+620&40%-100)");
        assert!(m.contains("weights sum to 90%, expected 100%"), "{m}");
        assert!(m.contains("in \"(50%+620&40%-100)\""), "{m}");
        let m = err("(60%+620&40%-100)/(50%+620&40%-100)");
        assert!(
            m.contains("weights of the EW part sum to 90%, expected 100%"),
            "{m}"
        );
        assert!(!m.contains("NS part"), "{m}");
        let m = err("(100/3%-100&100/3%-200)");
        assert!(m.contains("sum to 200/3%"), "{m}");
        let m = err("(33.33%-100&66.66%-200)");
        assert!(m.contains("sum to 99.99%"), "{m}");
    }

    #[test]
    fn structural_errors() {
        let m = err("(60%+620&-100)");
        assert!(
            m.contains("component -100 at character 10 has no weight"),
            "{m}"
        );
        let m = err("(+620&-100)");
        assert!(m.contains("no weights"), "{m}");
        let m = err("(+620");
        assert!(m.contains("expected '&' or ')'"), "{m}");
        assert!(m.contains("found the end of the entry"), "{m}");
        assert!(m.contains("the '(' at character 1 is not closed"), "{m}");
        assert!(err("50%(+630)").contains("put '/' between"));
        let m = err("110%");
        assert!(m.contains("outside 0% to 100%"), "{m}");
        let m = err("-5%");
        assert!(m.contains("outside 0% to 100%"), "{m}");
        let m = err("(+620)/(+100)/(+3)");
        assert!(m.contains("second '/'"), "{m}");
        let m = err(")");
        assert!(m.contains("found ')'"), "{m}");
        let m = err("");
        assert!(m.contains("empty"), "{m}");
        assert!(err("   ").contains("empty"));
        let m = err("%");
        assert!(m.contains("found '%'"), "{m}");
        let m = err("(%+620)");
        assert!(
            m.contains("expected a component") && m.contains("found '%'"),
            "{m}"
        );
        let long = "(".to_string() + &"+620&".repeat(399) + "+62)";
        assert!(long.chars().count() == 2000);
        assert!(err(&long).contains("longer than 1000"));
        assert!(err(&"x".repeat(2000)).contains("longer than 1000"));
        let m = err("()");
        assert!(
            m.contains("expected a component") && m.contains("character 2"),
            "{m}"
        );
        let m = err("(+620&)");
        assert!(m.contains("expected a component"), "{m}");
        let m = err("(0%+620&100%-100)");
        assert!(m.contains("weight 0%"), "{m}");
        let m = err("(60%&40%-100)");
        assert!(m.contains("a score after the weight 60%"), "{m}");
        let m = err("(60%40%+620)");
        assert!(m.contains("expected a score") && m.contains("40%"), "{m}");
        let m = err("(+620.5)");
        assert!(m.contains("whole number"), "{m}");
        let m = err("(+10010)");
        assert!(m.contains("out of range"), "{m}");
        let m = err("60%+620&40%-100");
        assert!(m.contains("parentheses"), "{m}");
        let m = err("(60,5%+620&39,5%-100)");
        assert!(m.contains("decimal point"), "{m}");
        let m = err("(+620))");
        assert!(
            m.contains("expected '/' or the end of the entry at character 7"),
            "{m}"
        );
        let m = err("(+620)/");
        assert!(m.contains("the EW part"), "{m}");
        let m = err("/(+620)");
        assert!(m.contains("the NS part"), "{m}");
        assert!(err("B+").contains("found 'B'"));
        assert!(err("A++").contains("found '+'"));
        assert!(err("A +").contains("found '+'"));
        assert!(err("(1/0%+620&100%-100)").contains("division by zero"));
        assert!(err("(+-620)").contains("expected a number after the sign"));
        assert!(err("(1e3%+620)").contains("expected"));
        assert!(err("(1.5/3%+620)").contains("whole numbers"));
        assert!(err("(1/3.5%+620)").contains("whole numbers"));
        assert!(err("(2000%+620&-1900%+100)").contains("out of range"));
        assert!(err("(1/3000007%+620&100%+10&-1/3000007%+0)").contains("too fine"));
        assert!(err("(99999999999999999999%+620)").contains("more than 18 digits"));
        assert!(err("(+99999999999999999999)").contains("more than 18 digits"));
        assert!(err("(.%+620)").contains("digit after '.'"));
    }

    #[test]
    fn too_fine_sum_does_not_overflow() {
        // Many coprime denominators: refused cleanly, never an overflow panic.
        let primes = [
            999_983i128,
            999_979,
            999_961,
            999_959,
            999_953,
            999_931,
            999_917,
            999_907,
        ];
        let mut s = String::from("(");
        for p in primes {
            s.push_str(&format!("1/{p}%+10&"));
        }
        s.push_str("100%0)");
        assert!(err(&s).contains("too fine"));
    }

    #[test]
    fn parse_score_forms() {
        assert_eq!(parse_score("+620"), Ok(620));
        assert_eq!(parse_score("620"), Ok(620));
        assert_eq!(parse_score("–100"), Ok(-100));
        assert_eq!(parse_score(" -950 "), Ok(-950));
        assert_eq!(parse_score("0"), Ok(0));
        assert!(parse_score("").is_err());
        assert!(parse_score("60%").is_err());
        assert!(parse_score("+620x").is_err());
        assert!(parse_score("620/630").is_err());
        assert!(parse_score("+20000").is_err());
        assert!(parse_score("1.5").is_err());
    }

    #[test]
    fn errors_are_lowercase_fragments() {
        for s in ["(+620", "110%", ")", "", "(50%+620&40%-100)", "x"] {
            let m = err(s);
            assert!(m.chars().next().unwrap().is_lowercase(), "{m}");
            let e = parse_adjusted(s).unwrap_err();
            assert_eq!(e.to_string(), m);
        }
    }

    // Property tests (no extra crates): no panics, and accepted entries round-trip.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n.max(1)
        }
        fn range(&mut self, lo: i64, hi: i64) -> i64 {
            lo + self.below((hi - lo + 1) as u64) as i64
        }
    }

    fn round_trips(s: &str) -> bool {
        match parse_adjusted(s) {
            Ok(a) => {
                let text = a.normalised();
                let back = parse_adjusted(&text)
                    .unwrap_or_else(|e| panic!("{s:?} → {text:?} does not reparse: {e}"));
                assert_eq!(back, a, "{s:?} → {text:?}");
                assert_eq!(back.normalised(), text);
                for p in [&a.ns, &a.ew] {
                    if let Part::Weighted(c) = p {
                        assert!(!c.is_empty());
                        assert_eq!(c.iter().map(|c| c.weight).sum::<Q>(), Q::ONE, "{s:?}");
                        let _ = p.merged();
                    }
                }
                true
            }
            Err(e) => {
                assert!(!e.message.is_empty());
                false
            }
        }
    }

    fn gen_part(r: &mut Rng) -> String {
        match r.below(6) {
            0 => ["A+", "A", "A-", "av+", "AV", "Av-"][r.below(6) as usize].to_string(),
            1 => format!("{}%", r.range(-5, 105)),
            2 => format!("{}/{}%", r.range(0, 300), r.range(0, 7)),
            3 => format!("{:+}", r.range(-10_050, 10_050)),
            _ => {
                let k = r.range(1, 5) as usize;
                let mut pcts: Vec<String> = Vec::new();
                let mut left = Q::int(100);
                for i in 0..k {
                    let p = if i + 1 == k && r.below(8) != 0 {
                        left
                    } else {
                        match r.below(4) {
                            0 => Q::new(r.range(-300, 300) as i128, r.range(1, 7) as i128),
                            1 => Q::new(r.range(-10000, 10000) as i128, 100),
                            _ => Q::int(r.range(-100, 100)),
                        }
                    };
                    left -= p;
                    pcts.push(p.to_string());
                }
                let sep = if r.below(4) == 0 { ";" } else { "&" };
                let comps: Vec<String> = pcts
                    .iter()
                    .map(|p| {
                        let pts = r.range(-1000, 1000) * if r.below(2) == 0 { 10 } else { 1 };
                        if k == 1 && r.below(2) == 0 {
                            format!("{pts:+}")
                        } else {
                            format!("{p}%{pts:+}")
                        }
                    })
                    .collect();
                format!("({})", comps.join(sep))
            }
        }
    }

    #[test]
    fn property_grammar_entries_round_trip() {
        let mut r = Rng(0x9E37_79B9_7F4A_7C15);
        let mut accepted = 0;
        for _ in 0..20_000 {
            let mut s = gen_part(&mut r);
            if r.below(2) == 0 {
                s = format!("{s}/{}", gen_part(&mut r));
            }
            if round_trips(&s) {
                accepted += 1;
            }
            // Mutations: delete, duplicate or replace one character.
            let chars: Vec<char> = s.chars().collect();
            let at = r.below(chars.len() as u64) as usize;
            let alphabet: Vec<char> = "()%&;/+-–−0123456789.Aav /".chars().collect();
            let mut m = chars.clone();
            match r.below(3) {
                0 => {
                    m.remove(at);
                }
                1 => m.insert(at, chars[at]),
                _ => m[at] = alphabet[r.below(alphabet.len() as u64) as usize],
            }
            round_trips(&m.into_iter().collect::<String>());
        }
        assert!(accepted > 5_000, "only {accepted} accepted");
    }

    #[test]
    fn property_random_text_never_panics() {
        let mut r = Rng(0x2545_F491_4F6C_DD1D);
        let alphabet: Vec<char> = "()%&;/+-–−0123456789.AaVv ,e\u{a0}x".chars().collect();
        let mut accepted = 0;
        for i in 0..30_000 {
            let len = r.below(if i % 10 == 0 { 1200 } else { 24 }) as usize;
            let s: String = if i % 3 == 0 {
                let bytes: Vec<u8> = (0..len).map(|_| r.next() as u8).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            } else {
                (0..len)
                    .map(|_| alphabet[r.below(alphabet.len() as u64) as usize])
                    .collect()
            };
            if round_trips(&s) {
                accepted += 1;
            }
            let _ = parse_score(&s);
        }
        assert!(accepted > 0);
    }
}
