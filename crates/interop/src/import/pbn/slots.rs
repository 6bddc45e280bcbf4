//! The pair cells of a file's ScoreTables — a section and a pair number, as written — each
//! numbered once, as met (a "slot"), so that what a pair's cells say (whether numbers repeat
//! across sections, whether NS and EW are numbered apart, then each side's id and players) is
//! worked out once a slot, not once a row. Short cells (nearly all of them) are keyed in place,
//! without a pointer to follow: the maps of a million rows are read without a cache miss more
//! than the table's own.

use crate::hash::FxMap;

/// No slot.
pub(super) const NONE: u32 = u32::MAX;

/// A section and a pair number as one key: in place when both fit in 15 bytes, else spelled
/// out (the section's length first, so that no two pairs share a key).
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    /// Byte 0: the section's length × 16 + the number's; then the section, then the number.
    Short(u128),
    Long(Box<str>),
}

impl Key {
    fn new(section: &str, number: &str) -> Key {
        let (s, n) = (section.as_bytes(), number.as_bytes());
        if s.len() + n.len() <= 15 {
            let mut b = [0u8; 16];
            b[0] = ((s.len() << 4) | n.len()) as u8;
            b[1..1 + s.len()].copy_from_slice(s);
            b[1 + s.len()..1 + s.len() + n.len()].copy_from_slice(n);
            Key::Short(u128::from_le_bytes(b))
        } else {
            Key::Long(format!("{}:{section}{number}", s.len()).into_boxed_str())
        }
    }
}

/// Pair cells numbered as met.
#[derive(Default)]
pub(super) struct Slots {
    map: FxMap<Key, u32>,
    /// Each slot's section (`""`: none) and number.
    cells: Vec<(Box<str>, Box<str>)>,
}

impl Slots {
    /// The slot of a section (`""` for none) and a pair number, numbered now if new.
    pub fn intern(&mut self, section: &str, number: &str) -> u32 {
        let n = self.cells.len() as u32;
        let slot = *self.map.entry(Key::new(section, number)).or_insert(n);
        if slot == n {
            self.cells.push((section.into(), number.into()));
        }
        slot
    }

    /// The slot of a section and a pair number, if met.
    pub fn get(&self, section: &str, number: &str) -> Option<u32> {
        self.map.get(&Key::new(section, number)).copied()
    }

    /// Each slot's section (`""`: none) and number, in slot order.
    pub fn cells(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.cells.iter().map(|(s, n)| (&**s, &**n))
    }
}

/// What each slot's cells say of its pair on either side (NS, EW): its id and its players
/// (a TotalScoreTable's, or none), worked out once a slot.
pub(super) struct Known<'n> {
    slots: Slots,
    /// Each slot's, NS then EW.
    sides: Vec<[(Box<str>, &'n [String]); 2]>,
}

impl<'n> Known<'n> {
    /// `players(number, side)`: the players a row without names gives the pair of that number.
    pub fn new(
        slots: Slots,
        id: impl Fn(Option<&str>, &str, &str) -> String,
        mut players: impl FnMut(&str, &str) -> &'n [String],
    ) -> Known<'n> {
        let sides = slots
            .cells()
            .map(|(sec, number)| {
                let section = Some(sec).filter(|s| !s.is_empty());
                ["NS", "EW"].map(|dir| (id(section, number, dir).into(), players(number, dir)))
            })
            .collect();
        Known { slots, sides }
    }

    /// The slot of a row's section (if given) and pair number (given), if the first reading
    /// met them.
    pub fn get(&self, section: Option<&str>, number: &str) -> Option<u32> {
        self.slots.get(section.unwrap_or(""), number)
    }

    /// Slot `slot`'s pair on side `side` (0: NS, 1: EW): its id and players.
    pub fn side(&self, slot: u32, side: usize) -> (&str, &'n [String]) {
        let (id, players) = &self.sides[slot as usize][side];
        (id, players)
    }

    /// How many slots there are.
    pub fn len(&self) -> usize {
        self.sides.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Two cells share a slot exactly when both their section and their number are the
        /// same, whatever their lengths (in place or spelled out) and bytes (NUL, `:`, digits
        /// that could be read as a length).
        #[test]
        fn one_slot_per_cell(cells in proptest::collection::vec(
            ("[A:1\u{0}ż]{0,9}", "[1:A\u{0}ż]{0,12}"), 1..40)) {
            let mut slots = Slots::default();
            let got: Vec<u32> = cells.iter().map(|(s, n)| slots.intern(s, n)).collect();
            for (i, a) in cells.iter().enumerate() {
                for (j, b) in cells.iter().enumerate() {
                    proptest::prop_assert_eq!(got[i] == got[j], a == b, "{:?} {:?}", a, b);
                }
                proptest::prop_assert_eq!(slots.get(&a.0, &a.1), Some(got[i]));
                let (s, n) = slots.cells().nth(got[i] as usize).unwrap();
                proptest::prop_assert_eq!((s, n), (a.0.as_str(), a.1.as_str()));
            }
            proptest::prop_assert_eq!(slots.get("never", "met"), None);
        }
    }
}
