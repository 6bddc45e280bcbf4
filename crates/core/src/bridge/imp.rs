//! The Law 78B IMP scale (scoring-methods.md §0, laws-and-formats.md §1.2) and the
//! `imp_lookup` option for points differences that are not a multiple of 10.

use crate::num::Q;

/// Upper bounds of the IMP bands 0..=23; 24 IMPs above the last.
const UPPER: [u32; 24] = [
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290, 1490, 1740,
    1990, 2240, 2490, 2990, 3490, 3990,
];

/// Number of tens from which every difference is worth the maximum (4000 → 24 IMPs).
const TENS: usize = 400;

/// `BY_TENS[k]` = IMPs for a difference of exactly `10·k` (k < 400): the number of upper
/// bounds strictly below `10·k`.
const BY_TENS: [u8; TENS] = {
    let mut t = [0u8; TENS];
    let mut k = 0;
    while k < TENS {
        let d = (k as u32) * 10;
        let mut n = 0u8;
        let mut i = 0;
        while i < UPPER.len() {
            if UPPER[i] < d {
                n += 1;
            }
            i += 1;
        }
        t[k] = n;
        k += 1;
    }
    t
};

/// IMPs for `k` tens of points (any k ≥ 0).
fn imps_of_tens(k: u128) -> i32 {
    if k >= TENS as u128 {
        24
    } else {
        i32::from(BY_TENS[k as usize])
    }
}

/// IMPs for a points difference by Law 78B, with the sign of `diff`.
///
/// A difference that is not a multiple of 10 (never from real bridge scores) is first rounded
/// to the nearest 10, half up (`ImpLookup::NearestTen`): 14 → 0, 15 → 1.
pub fn imp(diff: i32) -> i32 {
    let a = diff.unsigned_abs();
    let k = a / 10 + u32::from(a % 10 >= 5);
    let n = if (k as usize) < TENS {
        i32::from(BY_TENS[k as usize])
    } else {
        24
    };
    if diff < 0 {
        -n
    } else {
        n
    }
}

/// How to read the IMP table for a difference that is not a multiple of 10 (option
/// `imp_lookup`, scoring-methods.md §0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ImpLookup {
    /// Round |d| to the nearest multiple of 10, half up, then look up (18 → 20 → 1 IMP).
    #[default]
    NearestTen,
    /// The band whose lower bound is the largest ≤ |d| (18 → 0, 25 → 1).
    BandFloor,
}

impl ImpLookup {
    /// `"nearest_ten"` or `"band_floor"`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "nearest_ten" => Some(ImpLookup::NearestTen),
            "band_floor" => Some(ImpLookup::BandFloor),
            _ => None,
        }
    }

    /// The option value: `"nearest_ten"` or `"band_floor"`.
    pub fn name(self) -> &'static str {
        match self {
            ImpLookup::NearestTen => "nearest_ten",
            ImpLookup::BandFloor => "band_floor",
        }
    }
}

/// IMPs for an exact rational points difference (an unrounded datum, napki), with the sign of
/// `diff`, reading the table as `how` says.
pub fn imp_of_q(diff: Q, how: ImpLookup) -> i32 {
    // Every band bound is a multiple of 10, so only ⌊|d|⌋ matters:
    // nearest ten of |d| = 10·⌊(⌊|d|⌋ + 5) / 10⌋, and the band of |d| under band_floor is the
    // band of 10·⌊⌊|d|⌋ / 10⌋.
    let f = diff.abs().floor().max(0) as u128;
    let k = match how {
        ImpLookup::NearestTen => f.saturating_add(5) / 10,
        ImpLookup::BandFloor => f / 10,
    };
    let n = imps_of_tens(k);
    if diff.signum() < 0 {
        -n
    } else {
        n
    }
}

/// The differences at which the IMP scale steps up by one: |d| ≥ `STEPS[k]` is worth at least
/// k + 1 IMPs (20 → 1, 50 → 2, …, 4000 → 24). Used by the cross-IMP kernel to sum IMPs over a
/// frequency table with prefix sums instead of pairs.
pub const STEPS: [i32; 24] = {
    let mut s = [0i32; 24];
    let mut i = 0;
    while i < 24 {
        s[i] = UPPER[i] as i32 + 10;
        i += 1;
    }
    s
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_edges() {
        assert_eq!(BY_TENS[0], 0);
        assert_eq!(BY_TENS[1], 0);
        assert_eq!(BY_TENS[2], 1);
        assert_eq!(BY_TENS[399], 23);
        assert_eq!(imp(4000), 24);
        assert_eq!(imp(-3990), -23);
        assert_eq!(imp(i32::MIN), -24);
        assert_eq!(imp(i32::MAX), 24);
    }

    #[test]
    fn imp_agrees_with_nearest_ten_on_q() {
        for d in -4600..=4600 {
            assert_eq!(imp(d), imp_of_q(Q::from(d), ImpLookup::NearestTen), "{d}");
        }
    }

    #[test]
    fn off_ten_differences() {
        // scoring-methods.md §0 and §8: a saldo of 18 is 1 IMP (nearest_ten), 0 by band_floor.
        let q = |n: i128, d: i128| Q::new(n, d);
        assert_eq!(imp_of_q(q(18, 1), ImpLookup::NearestTen), 1);
        assert_eq!(imp_of_q(q(18, 1), ImpLookup::BandFloor), 0);
        assert_eq!(imp_of_q(q(-18, 1), ImpLookup::NearestTen), -1);
        assert_eq!(imp_of_q(q(15, 1), ImpLookup::NearestTen), 1);
        assert_eq!(imp_of_q(q(29, 2), ImpLookup::NearestTen), 0); // 14.5 → 10
        assert_eq!(imp_of_q(q(15, 1), ImpLookup::BandFloor), 0);
        assert_eq!(imp_of_q(q(25, 1), ImpLookup::BandFloor), 1);
        assert_eq!(imp_of_q(q(399_999, 100), ImpLookup::BandFloor), 23);
        assert_eq!(imp_of_q(q(399_999, 100), ImpLookup::NearestTen), 24);
        assert_eq!(imp_of_q(q(i128::MAX, 1), ImpLookup::NearestTen), 24);
        assert_eq!(imp_of_q(Q::ZERO, ImpLookup::BandFloor), 0);
        assert_eq!(imp(15), 1);
        assert_eq!(imp(14), 0);
        assert_eq!(imp(-45), -2);
    }

    #[test]
    fn option_names() {
        for h in [ImpLookup::NearestTen, ImpLookup::BandFloor] {
            assert_eq!(ImpLookup::parse(h.name()), Some(h));
        }
        assert_eq!(ImpLookup::parse("nearest"), None);
        assert_eq!(ImpLookup::default(), ImpLookup::NearestTen);
    }
}
