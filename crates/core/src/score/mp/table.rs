//! A line's frequency table and the factoring of its matchpoints to the field (C7–C8): what
//! matchpoints and the board statistics (`super::super::stats`) both read.

use crate::adjust::Side;
use crate::num::Q;
use crate::options::{NeubergSmallField, Options};
use crate::score::Factoring;

/// A frequency table: distinct NS scores ascending, their counts, and the count below each.
#[derive(Clone, Debug, Default)]
pub struct FreqTable {
    pub xs: Vec<i32>,
    pub counts: Vec<Q>,
    below: Vec<Q>,
    pub n: Q,
}

impl FreqTable {
    pub fn build(mut entries: Vec<(i32, Q)>) -> FreqTable {
        entries.sort_unstable_by_key(|e| e.0);
        let mut t = FreqTable::default();
        for (x, c) in entries {
            if t.xs.last() == Some(&x) {
                let last = t.counts.last_mut().unwrap();
                *last += c;
            } else {
                t.xs.push(x);
                t.counts.push(c);
            }
        }
        // Rows whose counts cancelled out (a −100% component on a score the field also has)
        // stay: a plain result there still looks its row up, and a director sees the 0.
        let mut acc = Q::ZERO;
        for c in &t.counts {
            t.below.push(acc);
            acc += *c;
        }
        t.n = acc;
        t
    }

    /// (count below x, count at x).
    pub fn at(&self, x: i32) -> (Q, Q) {
        match self.xs.binary_search(&x) {
            Ok(i) => (self.below[i], self.counts[i]),
            Err(i) => (
                if i < self.xs.len() {
                    self.below[i]
                } else {
                    self.n
                },
                Q::ZERO,
            ),
        }
    }

    /// Raw matchpoints, before the self term: 2·beaten + tied, in `side`'s view.
    pub fn beats(&self, x: i32, side: Side) -> Q {
        let (below, eq) = self.at(x);
        let beaten = match side {
            Side::NS => below,
            Side::EW => self.n - below - eq,
        };
        beaten + beaten + eq
    }
}

/// How to bring raw matchpoints on `n` results to the field of `field` results.
pub fn factoring(n: Q, field: u32, opts: &Options) -> Factoring {
    let big_n = Q::int(field as i64);
    if n >= big_n || n <= Q::ZERO {
        Factoring::None
    } else if opts.neuberg_small_field == NeubergSmallField::HeTable && n < Q::int(4) {
        Factoring::SmallField { n, field }
    } else {
        Factoring::Neuberg { n, field }
    }
}

/// Apply a factoring to raw matchpoints (affine, so it may be applied to a weighted sum).
pub fn apply(f: &Factoring, raw: Q) -> Q {
    match *f {
        Factoring::None => raw,
        Factoring::Neuberg { n, field } => (raw + Q::ONE) * Q::int(field as i64) / n - Q::ONE,
        Factoring::SmallField { n, field } => {
            let pct = Q::int(65) - Q::int(5) * n + Q::int(5) * raw;
            pct / Q::int(100) * field_top(field)
        }
    }
}

/// 2(N − 1).
pub fn field_top(field: u32) -> Q {
    Q::int(2 * (field as i64 - 1).max(0))
}
