//! The notation's parser: characters with their positions, raw tokens, literals, and the grammar that makes parts of them.

use super::*;

/// A character of the entry with whitespace removed: its 1-based position in the input and
/// whether whitespace preceded it (numbers may not contain whitespace).
#[derive(Clone, Copy)]
pub(super) struct Ch {
    pub(super) c: char,
    pub(super) pos: usize,
    pub(super) gap: bool,
}

/// A part as read, before the weights are checked.
pub(super) enum Raw {
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
pub(super) struct Lit {
    pub(super) value: Q,
    pub(super) integer: bool,
    pub(super) pct: bool,
    pub(super) text: String,
}

pub(super) struct Parser<'a> {
    pub(super) input: &'a str,
    pub(super) chars: Vec<Ch>,
    pub(super) i: usize,
    pub(super) end_pos: usize,
}

impl<'a> Parser<'a> {
    pub(super) fn new(input: &'a str) -> Parser<'a> {
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

    pub(super) fn peek(&self) -> Option<char> {
        self.chars.get(self.i).map(|c| c.c)
    }

    pub(super) fn peek_ch(&self) -> Option<Ch> {
        self.chars.get(self.i).copied()
    }

    /// 1-based position of the current character (one past the end at the end).
    pub(super) fn pos(&self) -> usize {
        self.pos_at(self.i)
    }

    pub(super) fn pos_at(&self, i: usize) -> usize {
        self.chars.get(i).map(|c| c.pos).unwrap_or(self.end_pos)
    }

    pub(super) fn fail(&self, msg: String) -> NotationError {
        NotationError {
            message: format!("{msg} in {}", quote(self.input)),
        }
    }

    pub(super) fn found(&self) -> String {
        match self.peek() {
            None => "the end of the entry".into(),
            Some(c) => format!("{c:?}"),
        }
    }

    pub(super) fn unexpected(&self, expected: &str, hint: Option<&str>) -> NotationError {
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
    pub(super) fn digits(&mut self) -> Result<(i128, usize), NotationError> {
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
    pub(super) fn literal(&mut self, allow_fraction: bool) -> Result<Option<Lit>, NotationError> {
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
    pub(super) fn score_of(&self, lit: &Lit, at: usize) -> Result<i32, NotationError> {
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
    pub(super) fn check_weight(&self, w: Q, text: &str, at: usize) -> Result<(), NotationError> {
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

    pub(super) fn part(&mut self, which: &str) -> Result<Raw, NotationError> {
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
    pub(super) fn label(&mut self) -> Result<Raw, NotationError> {
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

    pub(super) fn weighted(&mut self) -> Result<Raw, NotationError> {
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

    pub(super) fn component(&mut self) -> Result<(Option<Q>, i32, usize), NotationError> {
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
    pub(super) fn finish(
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

pub(super) fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a.abs().max(1)
}
