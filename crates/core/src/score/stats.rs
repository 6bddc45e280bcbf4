//! Board statistics for every form (conventions C10, C16; scoring-methods.md §7).
//!
//! The pooled table: each side of a table weighs ½ of its own part (components keep their
//! sign), an artificial part contributes nothing. `results` is the sum of these weights; `mean`
//! the weighted mean of NS points; `dispersion` the mean absolute deviation about it ('±');
//! `dispersion_imp` the mean |IMP(x − mean)|; `dispersion_mp` the mean absolute deviation of
//! the factored NS matchpoints of the pooled table.

use crate::adjust::Side;
use crate::bridge::imp_of_q;
use crate::num::Q;
use crate::options::Options;

use super::mp::table::{apply, factoring, FreqTable};
use super::{BoardStats, Dist, TableIn};

pub fn pooled(tables: &[TableIn]) -> FreqTable {
    let half = Q::new(1, 2);
    let mut v = Vec::with_capacity(tables.len() * 2);
    for t in tables {
        for d in [&t.ns_freq, &t.ew_freq] {
            match d {
                Dist::Plain(x) => v.push((*x, half)),
                _ => d.for_each(|w, x| v.push((x, w * half))),
            }
        }
    }
    FreqTable::build(v)
}

pub fn board_stats(tables: &[TableIn], field: u32, opts: &Options, with_mp: bool) -> BoardStats {
    board_stats_of(&pooled(tables), field, opts, with_mp)
}

/// [`board_stats`] of a board's pooled table.
pub fn board_stats_of(p: &FreqTable, field: u32, opts: &Options, with_mp: bool) -> BoardStats {
    let n = p.n;
    if n <= Q::ZERO {
        return BoardStats {
            results: n,
            ..BoardStats::default()
        };
    }
    let rows = || p.xs.iter().copied().zip(p.counts.iter().copied());
    let mean = rows().map(|(x, c)| c * Q::int(x as i64)).sum::<Q>() / n;
    let dispersion = rows()
        .map(|(x, c)| c * (Q::int(x as i64) - mean).abs())
        .sum::<Q>()
        / n;
    let dispersion_imp = rows()
        .map(|(x, c)| c * Q::int(imp_of_q(Q::int(x as i64) - mean, opts.imp_lookup).abs() as i64))
        .sum::<Q>()
        / n;
    let dispersion_mp = with_mp.then(|| {
        let f = factoring(n, field, opts);
        let mps: Vec<(Q, Q)> = rows()
            .map(|(x, c)| (c, apply(&f, p.beats(x, Side::NS) - Q::ONE)))
            .collect();
        let mean_mp = mps.iter().map(|&(c, m)| c * m).sum::<Q>() / n;
        mps.iter().map(|&(c, m)| c * (m - mean_mp).abs()).sum::<Q>() / n
    });
    BoardStats {
        results: n,
        mean: Some(mean),
        dispersion: Some(dispersion),
        dispersion_imp: Some(dispersion_imp),
        dispersion_mp,
    }
}
