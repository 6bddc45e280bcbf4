//! Boards: the seats, vulnerability and the Law 2 board-number → dealer / vulnerability cycle
//! (laws-and-formats.md §1.3).

use std::fmt;

/// A compass seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    N,
    E,
    S,
    W,
}

impl Seat {
    /// All four seats in dealing order.
    pub const ALL: [Seat; 4] = [Seat::N, Seat::E, Seat::S, Seat::W];

    /// True for North and South.
    pub fn is_ns(self) -> bool {
        matches!(self, Seat::N | Seat::S)
    }

    /// `'N'`, `'E'`, `'S'` or `'W'`.
    pub fn letter(self) -> char {
        match self {
            Seat::N => 'N',
            Seat::E => 'E',
            Seat::S => 'S',
            Seat::W => 'W',
        }
    }

    /// The seat opposite.
    pub fn partner(self) -> Seat {
        match self {
            Seat::N => Seat::S,
            Seat::E => Seat::W,
            Seat::S => Seat::N,
            Seat::W => Seat::E,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Which sides are vulnerable on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vul {
    None,
    NS,
    EW,
    All,
}

/// A vulnerability that cannot be read, as found (trimmed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a vulnerability \"None\", \"NS\", \"EW\" or \"All\", found {0:?}")]
pub struct NotAVul(pub String);

impl Vul {
    /// True when the side of `declarer` is vulnerable.
    pub fn is_vul(self, declarer: Seat) -> bool {
        match self {
            Vul::None => false,
            Vul::All => true,
            Vul::NS => declarer.is_ns(),
            Vul::EW => !declarer.is_ns(),
        }
    }

    /// Parses `None`, `NS`, `EW`, `All`, also `Both` (= All) and `Love` or `-` (= None), as in
    /// PBN's `Vulnerable` tag. Case-insensitive; surrounding whitespace is ignored.
    pub fn parse(s: &str) -> Result<Vul, NotAVul> {
        let t = s.trim();
        match t.to_ascii_uppercase().as_str() {
            "NONE" | "LOVE" | "-" => Ok(Vul::None),
            "NS" => Ok(Vul::NS),
            "EW" => Ok(Vul::EW),
            "ALL" | "BOTH" => Ok(Vul::All),
            _ => Err(NotAVul(t.to_string())),
        }
    }

    /// Canonical name: `"None"`, `"NS"`, `"EW"` or `"All"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Vul::None => "None",
            Vul::NS => "NS",
            Vul::EW => "EW",
            Vul::All => "All",
        }
    }
}

impl fmt::Display for Vul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Position of `board` in the 16-board cycle, 0..16 (board 1 → 0, board 16 → 15, board 17 → 0).
/// Board 0 is treated like board 16, the board before board 1 in the cycle.
fn cycle_index(board: u32) -> u32 {
    (board % 16 + 15) % 16
}

/// Dealer of `board` by Law 2: N, E, S, W in turn.
pub fn dealer_of(board: u32) -> Seat {
    Seat::ALL[(cycle_index(board) % 4) as usize]
}

/// Vulnerability of `board` by Law 2: with b0 = board − 1, `[None, NS, EW, All][(b0 + ⌊b0/4⌋) mod 4]`.
pub fn vul_of(board: u32) -> Vul {
    const VULS: [Vul; 4] = [Vul::None, Vul::NS, Vul::EW, Vul::All];
    let b0 = cycle_index(board);
    VULS[((b0 + b0 / 4) % 4) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn law2_first_cycle() {
        // laws-and-formats.md §1.3 table.
        let vul = "None NS EW All NS EW All None EW All None NS All None NS EW";
        let dealer = "NESWNESWNESWNESW";
        for (i, (v, d)) in vul.split(' ').zip(dealer.chars()).enumerate() {
            let b = i as u32 + 1;
            assert_eq!(vul_of(b).as_str(), v, "board {b}");
            assert_eq!(dealer_of(b).letter(), d, "board {b}");
            assert_eq!(vul_of(b + 16 * 7), vul_of(b));
            assert_eq!(dealer_of(b + 16 * 7), dealer_of(b));
        }
        assert_eq!(vul_of(0), vul_of(16));
        assert_eq!(dealer_of(u32::MAX), dealer_of(u32::MAX % 16));
    }

    #[test]
    fn vul_parse_and_sides() {
        assert_eq!(Vul::parse("both"), Ok(Vul::All));
        assert_eq!(Vul::parse(" Love "), Ok(Vul::None));
        assert_eq!(Vul::parse("-"), Ok(Vul::None));
        assert_eq!(Vul::parse("ns"), Ok(Vul::NS));
        assert!(Vul::parse("N-S").is_err());
        assert!(Vul::parse("").is_err());
        for v in [Vul::None, Vul::NS, Vul::EW, Vul::All] {
            assert_eq!(Vul::parse(v.as_str()), Ok(v));
        }
        assert!(Vul::NS.is_vul(Seat::S) && !Vul::NS.is_vul(Seat::E));
        assert!(Vul::EW.is_vul(Seat::W) && !Vul::EW.is_vul(Seat::N));
        assert!(Vul::All.is_vul(Seat::E) && !Vul::None.is_vul(Seat::N));
    }
}
