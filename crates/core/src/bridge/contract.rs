//! Contracts: seats, strains, doubling, parsing of the contract / declarer / result fields of
//! a `result` event (event-log.md), and the Law 77 scoring table (laws-and-formats.md §1.1).

use std::fmt;

pub use super::board::Seat;
use super::board::Vul;

/// A denomination; `N` is notrump.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strain {
    C,
    D,
    H,
    S,
    N,
}

impl Strain {
    /// Canonical spelling: `"C"`, `"D"`, `"H"`, `"S"`, `"NT"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Strain::C => "C",
            Strain::D => "D",
            Strain::H => "H",
            Strain::S => "S",
            Strain::N => "NT",
        }
    }

    /// True for clubs and diamonds.
    pub fn is_minor(self) -> bool {
        matches!(self, Strain::C | Strain::D)
    }
}

impl fmt::Display for Strain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Undoubled, doubled (`X`) or redoubled (`XX`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Doubling {
    Undoubled,
    Doubled,
    Redoubled,
}

impl Doubling {
    /// `""`, `"X"` or `"XX"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Doubling::Undoubled => "",
            Doubling::Doubled => "X",
            Doubling::Redoubled => "XX",
        }
    }

    /// 1, 2 or 4: the factor applied to the trick score.
    fn factor(self) -> i32 {
        match self {
            Doubling::Undoubled => 1,
            Doubling::Doubled => 2,
            Doubling::Redoubled => 4,
        }
    }
}

/// A final contract (not passed out). `level` is 1..=7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Contract {
    pub level: u8,
    pub strain: Strain,
    pub doubling: Doubling,
}

impl Contract {
    /// Tricks declarer needs to make the contract: book (6) + level.
    pub fn tricks_needed(self) -> u8 {
        6 + self.level
    }

    /// Tricks taken for a result relative to the contract (`0` for "=", `+1`, `-2`, ...), or
    /// `None` when that would be outside 0..=13 (e.g. 4H+4).
    pub fn tricks_for_offset(self, offset: i8) -> Option<u8> {
        let t = i16::from(self.tricks_needed()) + i16::from(offset);
        if (0..=13).contains(&t) {
            u8::try_from(t).ok()
        } else {
            None
        }
    }

    /// Result relative to the contract for `tricks` taken (inverse of `tricks_for_offset`).
    pub fn offset_of_tricks(self, tricks: u8) -> i8 {
        (i16::from(tricks) - i16::from(self.tricks_needed())) as i8
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}",
            self.level,
            self.strain.as_str(),
            self.doubling.as_str()
        )
    }
}

/// What a table finally played: a contract, or passed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bid {
    Pass,
    Contract(Contract),
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Pass => f.write_str("PASS"),
            Bid::Contract(c) => c.fmt(f),
        }
    }
}

impl Bid {
    /// Its text as `Display` writes it (`4HX`, `PASS`), in `buf`, without the formatting
    /// machinery or an allocation: importers write it for each of a million results.
    pub fn text<'a>(&self, buf: &'a mut [u8; 8]) -> &'a str {
        let n = match self {
            Bid::Pass => {
                buf[..4].copy_from_slice(b"PASS");
                4
            }
            Bid::Contract(c) => {
                buf[0] = b'0' + c.level % 10;
                let mut n = 1;
                for part in [c.strain.as_str(), c.doubling.as_str()] {
                    buf[n..n + part.len()].copy_from_slice(part.as_bytes());
                    n += part.len();
                }
                n
            }
        };
        std::str::from_utf8(&buf[..n]).expect("a bid's text is ASCII")
    }
}

fn contract_error(found: &str) -> Unreadable {
    Unreadable::Contract(found.to_string())
}

/// A contract, seat or result that cannot be read: what was found (trimmed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    #[error("expected a contract such as \"4HX\", \"3NT\" or \"PASS\", found {0:?}")]
    Contract(String),
    #[error("expected a seat \"N\", \"E\", \"S\" or \"W\", found {0:?}")]
    Seat(String),
    #[error("expected a result such as \"=\", \"+1\" or \"-2\", found {0:?}")]
    Offset(String),
}

/// (for callers that still say their errors as text)
impl From<Unreadable> for String {
    fn from(e: Unreadable) -> String {
        e.to_string()
    }
}

/// Splits a leading strain off `rest` (already ASCII-uppercased). Longer spellings first, so
/// that "SA" (Polish/Italian notrump) wins over "S" (spades).
fn split_strain(rest: &str) -> Option<(Strain, &str)> {
    const WORDS: [(&str, Strain); 4] = [
        ("NT", Strain::N),
        ("SA", Strain::N),
        ("BA", Strain::N),
        ("N", Strain::N),
    ];
    for (w, st) in WORDS {
        if let Some(r) = rest.strip_prefix(w) {
            return Some((st, r));
        }
    }
    let mut chars = rest.chars();
    let st = match chars.next()? {
        'C' | '♣' | '♧' => Strain::C,
        'D' | '♦' | '♢' => Strain::D,
        'H' | '♥' | '♡' => Strain::H,
        'S' | '♠' | '♤' => Strain::S,
        _ => return None,
    };
    let r = chars.as_str();
    // Emoji / text presentation selectors after a suit symbol ("♥️").
    let r = r
        .strip_prefix('\u{FE0F}')
        .or_else(|| r.strip_prefix('\u{FE0E}'))
        .unwrap_or(r);
    Some((st, r))
}

/// Parses a contract as users type it.
///
/// Level 1-7, then the strain `C D H S N` or `NT` (suit symbols ♣♦♥♠ ♧♢♡♤, with or without
/// an emoji variation selector; notrump also `BA` (French) or `SA` (Polish/Italian): "3SA" is
/// 3 notrump, "3S" 3 spades), then optionally `X` or `XX`. `PASS`, `AP` or `P` mean passed out.
/// Case-insensitive; surrounding whitespace is ignored, inner whitespace is an error.
pub fn parse_contract(s: &str) -> Result<Bid, Unreadable> {
    let t = s.trim();
    // (uppercased on the stack: a contract is a few letters, read a million times an import)
    let mut buf = [0u8; 8];
    let owned;
    let up: &str = match buf.get_mut(..t.len()) {
        Some(b) => {
            b.copy_from_slice(t.as_bytes());
            b.make_ascii_uppercase();
            std::str::from_utf8(b).expect("ASCII uppercasing keeps UTF-8")
        }
        None => {
            owned = t.to_ascii_uppercase();
            &owned
        }
    };
    if matches!(up, "PASS" | "AP" | "P") {
        return Ok(Bid::Pass);
    }
    let level = match up.as_bytes().first() {
        Some(&b @ b'1'..=b'7') => b - b'0',
        _ => return Err(contract_error(t)),
    };
    // The first byte is an ASCII digit, so index 1 is a char boundary.
    let (strain, rest) = split_strain(&up[1..]).ok_or_else(|| contract_error(t))?;
    let doubling = match rest {
        "" => Doubling::Undoubled,
        "X" => Doubling::Doubled,
        "XX" => Doubling::Redoubled,
        _ => return Err(contract_error(t)),
    };
    Ok(Bid::Contract(Contract {
        level,
        strain,
        doubling,
    }))
}

/// Parses a declarer seat: `N`, `E`, `S` or `W` (case-insensitive, surrounding space ignored).
pub fn parse_seat(s: &str) -> Result<Seat, Unreadable> {
    let t = s.trim();
    match t.as_bytes() {
        [b'N' | b'n'] => Ok(Seat::N),
        [b'E' | b'e'] => Ok(Seat::E),
        [b'S' | b's'] => Ok(Seat::S),
        [b'W' | b'w'] => Ok(Seat::W),
        _ => Err(Unreadable::Seat(t.to_string())),
    }
}

/// Parses a result relative to the contract: `=` → 0, `+1`..`+6`, `-1`..`-13` (the minus may
/// also be a Unicode minus `−` or an en dash `–`). Whether the offset fits the contract's level
/// is checked by `Contract::tricks_for_offset`.
pub fn parse_result_offset(s: &str) -> Result<i8, Unreadable> {
    let t = s.trim();
    let err = || Unreadable::Offset(t.to_string());
    if t == "=" {
        return Ok(0);
    }
    let mut chars = t.chars();
    let (negative, max) = match chars.next() {
        Some('+') => (false, 6),
        Some('-' | '\u{2212}' | '\u{2013}') => (true, 13),
        _ => return Err(err()),
    };
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err());
    }
    let n: i8 = digits.parse().map_err(|_| err())?;
    if !(1..=max).contains(&n) {
        return Err(err());
    }
    Ok(if negative { -n } else { n })
}

/// Declarer's side score by Law 77 for contract `c` when declarer takes `tricks` tricks:
/// positive when made, negative (the defenders' score, negated) when down. `tricks` above 13
/// is treated as 13 (callers validate input).
pub fn declarer_score(c: Contract, vulnerable: bool, tricks: u8) -> i32 {
    let tricks = i32::from(tricks.min(13));
    let level = i32::from(c.level);
    let needed = 6 + level;
    let factor = c.doubling.factor();
    if tricks >= needed {
        let per_trick = if c.strain.is_minor() { 20 } else { 30 };
        let first_extra = if c.strain == Strain::N { 10 } else { 0 };
        let trick_score = (per_trick * level + first_extra) * factor;
        let game_or_part = if trick_score >= 100 {
            if vulnerable {
                500
            } else {
                300
            }
        } else {
            50
        };
        let slam = match (c.level, vulnerable) {
            (6, false) => 500,
            (6, true) => 750,
            (7, false) => 1000,
            (7, true) => 1500,
            _ => 0,
        };
        let insult = match c.doubling {
            Doubling::Undoubled => 0,
            Doubling::Doubled => 50,
            Doubling::Redoubled => 100,
        };
        let over = tricks - needed;
        let per_over = match (c.doubling, vulnerable) {
            (Doubling::Undoubled, _) => per_trick,
            (_, false) => 50 * factor,
            (_, true) => 100 * factor,
        };
        trick_score + game_or_part + slam + insult + over * per_over
    } else {
        let down = needed - tricks;
        let penalty = match (c.doubling, vulnerable) {
            (Doubling::Undoubled, false) => 50 * down,
            (Doubling::Undoubled, true) => 100 * down,
            // 100, 200, 200, then 300 each (the 2nd and 3rd at 200).
            (_, false) => {
                let base = 100 + 200 * (down - 1).min(2) + 300 * (down - 3).max(0);
                base * factor / 2
            }
            // 200, then 300 each.
            (_, true) => (200 + 300 * (down - 1)) * factor / 2,
        };
        -penalty
    }
}

/// NS points for what a table played: passed out scores 0; otherwise the declarer side's
/// Law 77 score (with that side's vulnerability), negated when declarer is East or West.
pub fn ns_points(bid: Bid, declarer: Seat, tricks: u8, vul: Vul) -> i32 {
    match bid {
        Bid::Pass => 0,
        Bid::Contract(c) => {
            let s = declarer_score(c, vul.is_vul(declarer), tricks);
            if declarer.is_ns() {
                s
            } else {
                -s
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(level: u8, strain: Strain, doubling: Doubling) -> Contract {
        Contract {
            level,
            strain,
            doubling,
        }
    }

    #[test]
    fn well_known_scores() {
        use Doubling::*;
        use Strain::*;
        assert_eq!(declarer_score(c(4, H, Undoubled), false, 10), 420);
        assert_eq!(declarer_score(c(4, H, Undoubled), true, 11), 650);
        assert_eq!(declarer_score(c(3, N, Undoubled), true, 9), 600);
        assert_eq!(declarer_score(c(1, N, Undoubled), false, 7), 90);
        assert_eq!(declarer_score(c(6, S, Undoubled), true, 12), 1430);
        assert_eq!(declarer_score(c(7, N, Undoubled), true, 13), 2220);
        assert_eq!(declarer_score(c(5, D, Undoubled), false, 11), 400);
        assert_eq!(declarer_score(c(3, C, Doubled), false, 5), -800);
        assert_eq!(declarer_score(c(4, S, Doubled), true, 8), -500);
        assert_eq!(declarer_score(c(1, C, Doubled), true, 9), 540);
        assert_eq!(declarer_score(c(2, D, Undoubled), false, 6), -100);
    }

    #[test]
    fn contract_display_round_trips() {
        for s in ["1C", "4HX", "3NT", "7NTXX", "2D", "5SXX", "PASS"] {
            assert_eq!(parse_contract(s).map(|b| b.to_string()), Ok(s.to_string()));
        }
    }

    #[test]
    fn contract_spellings() {
        let four_hx = Ok(Bid::Contract(c(4, Strain::H, Doubling::Doubled)));
        for s in ["4hx", " 4HX ", "4♥X", "4♥️x", "4♡X"] {
            assert_eq!(parse_contract(s), four_hx, "{s}");
        }
        assert_eq!(
            parse_contract("2saxx"),
            Ok(Bid::Contract(c(2, Strain::N, Doubling::Redoubled)))
        );
        assert_eq!(
            parse_contract("2sx"),
            Ok(Bid::Contract(c(2, Strain::S, Doubling::Doubled)))
        );
        for s in ["AP", "p", "Pass"] {
            assert_eq!(parse_contract(s), Ok(Bid::Pass), "{s}");
        }
        for s in [
            "4",
            "H",
            "4HD",
            "4HR",
            "4H X",
            "10H",
            "4NTT",
            "PASSX",
            "4♥️♥️",
            "४H",
        ] {
            assert!(parse_contract(s).is_err(), "{s}");
        }
        assert_eq!(
            parse_contract("8H").unwrap_err().to_string(),
            "expected a contract such as \"4HX\", \"3NT\" or \"PASS\", found \"8H\""
        );
    }

    #[test]
    fn seats_and_offsets() {
        assert_eq!(parse_seat("n"), Ok(Seat::N));
        assert_eq!(parse_seat(" W "), Ok(Seat::W));
        assert!(parse_seat("NS").is_err());
        assert!(parse_seat("").is_err());
        assert_eq!(parse_result_offset("="), Ok(0));
        assert_eq!(parse_result_offset("+1"), Ok(1));
        assert_eq!(parse_result_offset("+6"), Ok(6));
        assert_eq!(parse_result_offset("-2"), Ok(-2));
        assert_eq!(parse_result_offset("−13"), Ok(-13));
        assert_eq!(parse_result_offset("–3"), Ok(-3));
        for s in [
            "", "0", "+0", "-0", "+7", "-14", "2", "+-1", "+ 1", "==", "+1a", "-100",
        ] {
            assert!(parse_result_offset(s).is_err(), "{s:?}");
        }
        let k = c(4, Strain::H, Doubling::Undoubled);
        assert_eq!(k.tricks_for_offset(0), Some(10));
        assert_eq!(k.tricks_for_offset(3), Some(13));
        assert_eq!(k.tricks_for_offset(4), None);
        assert_eq!(k.tricks_for_offset(-10), Some(0));
        assert_eq!(k.tricks_for_offset(-11), None);
        assert_eq!(k.offset_of_tricks(8), -2);
    }
}
