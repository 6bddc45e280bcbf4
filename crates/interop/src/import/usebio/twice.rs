//! "Played twice": a board twice at one table, or a participant at two tables of one board,
//! in a session's traveller lines. The first line of each table is kept and each later one is
//! refused (skipped under `--lenient`) with the place of the first; a line naming one
//! participant on both sides is refused too.
//!
//! A championship's session has a million lines and none of them twice: the lines' keys are
//! first hashed and sorted (in parallel), and only when two hashes are equal — a line twice,
//! or a hash collision — or a line names one participant twice are the lines walked one by one
//! through a map, which is the rule itself. When every key's hash differs, every key differs,
//! so that walk would find no key seen before and keep every line: the fast answer is the
//! walk's own.

use super::tree::TlPath;
use super::{Cx, Line};

/// Which table of a board a participant sits at: a pair at any table, a team in one room of a
/// match, or a team sitting NS or EW.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Seat {
    Pair,
    Room(usize, &'static str),
    Ns,
    Ew,
    /// An individual event's player, in any seat.
    Player,
}

type Key<'t> = (u32, &'t str, Seat);

/// A line's keys: pairs, each pair once per board whichever side; teams, each room once (and a
/// team sits NS once a board, and EW once: the log's table is its NS).
/// An individual event's four players, each once per board whichever seat.
fn keys<'t>(l: &Line<'t>) -> [Option<Key<'t>>; 4] {
    if let Some([s, w]) = l.others {
        return [l.ns, s, l.ew, w].map(|p| Some((l.board, p, Seat::Player)));
    }
    match &l.team {
        Some((m, r)) => [
            Some((l.board, "", Seat::Room(*m, r))),
            Some((l.board, l.ns, Seat::Ns)),
            Some((l.board, l.ew, Seat::Ew)),
            None,
        ],
        None => [
            Some((l.board, l.ns, Seat::Pair)),
            Some((l.board, l.ew, Seat::Pair)),
            None,
            None,
        ],
    }
}

/// A participant named twice on one line (`None`: each once).
fn twice_on<'t>(l: &Line<'t>) -> Option<&'t str> {
    match l.others {
        Some([s, w]) => {
            let p = [l.ns, s, l.ew, w];
            (0..4).find_map(|i| p[i + 1..].contains(&p[i]).then_some(p[i]))
        }
        None => (l.ns == l.ew).then_some(l.ns),
    }
}

/// A key's 64-bit hash (xxh3 of the participant, seeded by the board and the seat).
fn hash((board, who, seat): &Key) -> u64 {
    let seat: u64 = match seat {
        Seat::Pair => 0,
        Seat::Ns => 1,
        Seat::Ew => 2,
        Seat::Player => 3,
        Seat::Room(m, r) => 4 + 2 * (*m as u64) + u64::from(*r != "open"),
    };
    xxhash_rust::xxh3::xxh3_64_with_seed(who.as_bytes(), (u64::from(*board) << 40) ^ seat)
}

/// Whether every line names two participants and no two keys' hashes are equal: then no line
/// is refused.
fn all_distinct(lines: &[Line]) -> bool {
    use rayon::prelude::*;
    if lines.par_iter().any(|l| twice_on(l).is_some()) {
        return false;
    }
    let mut hashes: Vec<u64> = lines
        .par_iter()
        .flat_map_iter(|l| keys(l).into_iter().flatten().map(|k| hash(&k)))
        .collect();
    hashes.par_sort_unstable();
    !hashes.par_windows(2).any(|w| w[0] == w[1])
}

impl Cx<'_> {
    /// The session's `lines` without those played twice (see the module's documentation).
    pub(super) fn played_once<'t>(&mut self, lines: Vec<Line<'t>>) -> Vec<Line<'t>> {
        if all_distinct(&lines) {
            return lines;
        }
        let mut tables: crate::hash::FxMap<Key, TlPath> = Default::default();
        tables.reserve(lines.len() * 2);
        let mut keep = Vec::with_capacity(lines.len());
        for l in lines {
            if let Some(p) = twice_on(&l) {
                let m = match l.others {
                    Some(_) => format!("player {p} in two seats; expected four different players"),
                    None => format!("{p} on both sides; expected two different participants"),
                };
                self.line_problem(l.path.to_string(), m);
                continue;
            }
            let keys = keys(&l);
            if let Some((k, first)) = keys
                .iter()
                .flatten()
                .find_map(|k| tables.get(k).map(|f| (k, *f)))
            {
                let msg = match k.2 {
                    Seat::Ns | Seat::Ew => {
                        format!(
                            "board {} played twice by team {} sitting {} (first at {first})",
                            l.board,
                            k.1,
                            if k.2 == Seat::Ns { "NS" } else { "EW" }
                        )
                    }
                    Seat::Room(m, r) => format!(
                        "board {} twice in the {r} room of match M{m} (first at {first})",
                        l.board
                    ),
                    Seat::Player => format!(
                        "board {} played twice by player {} (first at {first})",
                        l.board, k.1
                    ),
                    Seat::Pair => format!(
                        "board {} played twice by pair {} (first at {first})",
                        l.board, k.1
                    ),
                };
                self.line_problem(l.path.to_string(), msg);
                continue;
            }
            for k in keys.into_iter().flatten() {
                tables.insert(k, l.path);
            }
            keep.push(l);
        }
        keep
    }
}
