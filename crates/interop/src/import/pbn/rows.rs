//! A PBN `ScoreTable`'s rows as a session's results and artificial scores: each row read
//! apart from the draft (its tokens, its pairs' ids and names, its contract, score and
//! artificial tokens checked, its event written), in parallel chunks, then added to the draft
//! in the file's order, so that the events, their places and every problem are those of one
//! reading. A pair's id and players come from its slot (`slots::Known`, worked out once a
//! pair) where the first reading met its cells, and the draft's number for it is kept once
//! the draft has taken it without a problem.

use std::borrow::Cow;

use super::super::draft::{self, Draft, Slip, TableView};
use super::play::{given, row_event, Cols};
use super::slots::{Known, NONE};
use super::{lex, Ids};
use crate::bridge::Vul;
use crate::hash::FxMap;

/// What one row of a ScoreTable gives, made apart from the draft (rows are read in parallel,
/// then added to the draft in the file's order, as one reading would add them).
// Nearly every op is a table: boxing them would allocate once more per row.
#[allow(clippy::large_enum_variant)]
enum Op<'r> {
    /// A problem with the row (at, message): the row is skipped.
    Bad(String, String),
    /// A table: its pairs declared, then its event added or refused.
    Table(Seated<'r>),
}

/// One side of a table: the pair's id and players, and its slot's side (`slot × 2 + side`)
/// when they are the slot's.
struct Side<'r> {
    id: Cow<'r, str>,
    players: Cow<'r, [String]>,
    known: Option<usize>,
}

/// One table of a row: the pairs it declares and its event, or why the event is refused.
struct Seated<'r> {
    at: String,
    section: Option<Cow<'r, str>>,
    sides: [Side<'r>; 2],
    /// The event, with the slip when the table is taken by its score alone.
    event: Result<(super::super::Row, Option<Slip>), String>,
    /// The ruling in force after the table's result (its `Ruling` cell, `note`).
    ruling: Option<super::super::Row>,
}

/// Rows read apart, in chunks of this many (a chunk's ops are added in order).
pub(super) const CHUNK: usize = 2048;

/// What the rows are read with: how ids are made, the TotalScoreTables' names, the pairs
/// of the slots the first reading met.
pub(super) struct Pairs<'p> {
    pub ids: &'p Ids,
    pub names: &'p FxMap<String, Vec<String>>,
    pub known: &'p Known<'p>,
    /// Whether slots are used at all (without them, each row's pairs are made from its
    /// cells and declared to the draft: the plain reading the tests compare with).
    pub slots: bool,
}

/// The draft's number of each slot's pair on each side (`slot × 2 + side`), once the draft
/// has taken it without a problem (`u32::MAX` until then): the draft is not asked again.
pub(super) struct Numbers(Vec<u32>);

impl Numbers {
    pub fn new(known: &Known) -> Numbers {
        Numbers(vec![u32::MAX; known.len() * 2])
    }
}

/// A ScoreTable's rows as the session's results and artificial scores.
///
/// `recorded`: the slots the first reading gave each row's pairs (NS, EW; [`NONE`]: none).
pub(super) fn rows<'t>(
    (d, numbers): (&mut Draft, &mut Numbers),
    s: usize,
    (t, recorded): (&lex::TableTag<'t>, &[[u32; 2]]),
    (board, vul): (u32, Vul),
    pairs: &Pairs<'t>,
    chunk: usize,
) {
    use rayon::prelude::*;
    let c = Cols {
        section: t.col("Section"),
        table: t.col("Table"),
        round: t.col("Round"),
        ns: t.col("PairId_NS"),
        ew: t.col("PairId_EW"),
        names_ns: t.col("Names_NS"),
        names_ew: t.col("Names_EW"),
        contract: t.col("Contract"),
        declarer: t.col("Declarer"),
        result: t.col("Result"),
        score_ns: t.col("Score_NS"),
        score_ew: t.col("Score_EW"),
        score: t.col("Score"),
        mp: (t.col("MP_NS"), t.col("MP_EW")),
        pct: (t.col("Percentage_NS"), t.col("Percentage_EW")),
        imp: (t.col("IMP_NS"), t.col("IMP_EW")),
        mult: t.col("Multiplicity"),
        lead: t.col("Lead"),
    };
    if c.contract.is_none() && c.score_ns.is_none() && c.score_ew.is_none() && c.score.is_none() {
        d.fail(
            &format!("line {}", t.line),
            "this ScoreTable has neither a Contract nor a Score_NS/Score_EW column",
        );
        return;
    }
    let all = t.rows();
    // The ruling in force at each table, frekans's note (`note`).
    let ruling = t.col(crate::export::pbn::RULING_COLUMN);
    // A frequency table numbers its made-up pairs from its first row on: read in one piece.
    let chunk = if c.ns.is_none() && c.ew.is_none() {
        all.len().max(1)
    } else {
        chunk.max(1)
    };
    let read = |(rows, recorded): (&[(usize, &'t str)], &[[u32; 2]])| -> Vec<Op<'t>> {
        let mut ops = Vec::with_capacity(rows.len());
        let mut synthetic = 0;
        let mut tokens = Vec::with_capacity(t.columns.len());
        for (&(line, text), &slots) in rows.iter().zip(recorded) {
            tokens.clear();
            // (a row `lex::each` has read)
            let _ = lex::tokens_into(text, &mut tokens);
            // A slot the first reading gave is the pair's where the row's section and number
            // are what it keyed: given, and with no space around them.
            let clean = |i: usize| {
                tokens
                    .get(i)
                    .is_some_and(|t| given(t).map(str::len) == Some(t.len()))
            };
            let section_clean = c.section.is_none_or(clean);
            let known = [(c.ns, slots[0]), (c.ew, slots[1])].map(|(i, k)| {
                (pairs.slots && k != NONE && section_clean && i.is_some_and(clean)).then_some(k)
            });
            for t in tokens.iter_mut() {
                match t {
                    Cow::Borrowed(b) => *b = b.trim(),
                    Cow::Owned(o) if o.trim().len() != o.len() => *o = o.trim().to_string(),
                    Cow::Owned(_) => {}
                }
            }
            row_ops(
                &mut ops,
                &mut synthetic,
                (line, &tokens, known),
                t,
                (&c, ruling),
                (board, vul),
                pairs,
            );
        }
        ops
    };
    let read_window = |(rows, recorded): (&[(usize, &'t str)], &[[u32; 2]])| {
        if rows.len() > chunk {
            rows.par_chunks(chunk)
                .zip(recorded.par_chunks(chunk))
                .map(read)
                .collect()
        } else {
            vec![read((rows, recorded))]
        }
    };
    // A window's ops are added to the draft (in order) while the next window's rows are read.
    let window = chunk.saturating_mul(WINDOW);
    let mut windows = all.chunks(window).zip(recorded.chunks(window));
    let mut pending = windows.next().map(read_window);
    while let Some(ops) = pending {
        let next = windows.next();
        let ((), read_next) = rayon::join(
            || {
                for op in ops.into_iter().flatten() {
                    add((d, numbers), s, board, op);
                }
            },
            || next.map(read_window),
        );
        pending = read_next;
    }
}

/// Chunks of a window: read in parallel, the window's ops added to the draft while the next
/// window is read.
const WINDOW: usize = 4;

/// One row's op added to the draft: its pairs declared, then its table seated.
fn add<'r>((d, numbers): (&mut Draft, &mut Numbers), s: usize, board: u32, op: Op<'r>) {
    match op {
        Op::Bad(at, m) => d.bad(&at, m),
        Op::Table(x) => {
            let section = x.section.as_deref();
            let [ns, ew] = x.sides;
            let mut pair = |p: Side<'r>| -> (u32, Cow<'r, str>) {
                if let Some(n) = p.known.map(|k| numbers.0[k]).filter(|&n| n != u32::MAX) {
                    return (n, p.id);
                }
                let from = match &p.players {
                    // (names of the TotalScoreTables, kept for the whole reading)
                    Cow::Borrowed(n) if !n.is_empty() => n.as_ptr() as usize,
                    _ => 0,
                };
                let problems = d.problems.len() + d.skipped.len();
                let n = d.pair_named(&p.id, section, p.players, from, &x.at);
                // Taken without a problem: the same id, section and players (the slot's) are
                // taken again without one, and the same number given.
                if let Some(k) = p.known {
                    if d.problems.len() + d.skipped.len() == problems {
                        numbers.0[k] = n;
                    }
                }
                (n, p.id)
            };
            let (a, b) = (pair(ns), pair(ew));
            match x.event {
                Ok((row, slip)) => {
                    let at = x.at.clone();
                    d.take(&at, slip, |d| {
                        let tables = (board, [&*a.1, &*b.1]);
                        match x.ruling {
                            Some(r) => d.push_ruled(s, tables, [a.0, b.0], (row, r), x.at),
                            None => d.push_paired(s, tables, [a.0, b.0], row, x.at),
                        }
                    })
                }
                Err(m) => d.bad(&x.at, m),
            }
        }
    }
}

/// One row's ops (`synthetic`: the frequency table's made-up tables so far; `row`: its tokens,
/// each trimmed; `known`: its pairs' slots, NS and EW, where the first reading's are theirs).
#[allow(clippy::too_many_arguments)]
fn row_ops<'r>(
    ops: &mut Vec<Op<'r>>,
    synthetic: &mut u32,
    (line, row, known): (usize, &[Cow<'r, str>], [Option<u32>; 2]),
    t: &lex::TableTag,
    (c, ruling): (&Cols, Option<usize>),
    (board, vul): (u32, Vul),
    pairs: &Pairs<'r>,
) {
    let at = format!("line {line}");
    if row.len() != t.columns.len() {
        let m = format!(
            "this ScoreTable row has {} tokens for the {} columns of line {} (a name with spaces must be quoted)",
            row.len(),
            t.columns.len(),
            t.line
        );
        ops.push(Op::Bad(at, m));
        return;
    }
    let cell = |i: Option<usize>| i.map(|i| &*row[i]).and_then(given);
    // A cell as the row's own text, borrowed from the file where the token is.
    let owned_cell = |i: Option<usize>| -> Option<Cow<'r, str>> {
        let t = &row[i?];
        let g = given(t)?;
        Some(match t {
            Cow::Borrowed(b) => Cow::Borrowed(given(b).expect("given")),
            Cow::Owned(_) => Cow::Owned(g.to_string()),
        })
    };
    let times = match multiplicity(cell(c.mult), c.ns.is_some() || c.ew.is_some()) {
        Ok(n) => n,
        Err(m) => {
            ops.push(Op::Bad(at, m.to_string()));
            return;
        }
    };
    let section = owned_cell(c.section);
    // The pairs' slots: their ids and players are the slot's when no names cell says who
    // they are.
    let slot = |number: &str, names: Option<usize>, j: usize| {
        if names.is_some() || !pairs.slots {
            return None;
        }
        known[j].or_else(|| pairs.known.get(section.as_deref(), number))
    };
    let mut key = String::new();
    for _ in 0..times {
        let sides = match (c.ns, c.ew) {
            (None, None) => {
                // A frequency table: each result is its own table of pairs made up for it.
                *synthetic += 1;
                let n = (board, *synthetic);
                [
                    made_side(n, "NS", cell(c.names_ns), pairs),
                    made_side(n, "EW", cell(c.names_ew), pairs),
                ]
            }
            _ => match (cell(c.ns), cell(c.ew)) {
                (Some(a), Some(b)) => {
                    let sec = section.as_deref();
                    let (ns, ew) = (cell(c.names_ns), cell(c.names_ew));
                    [
                        numbered_side(a, ns, (0, slot(a, c.names_ns, 0)), sec, pairs, &mut key),
                        numbered_side(b, ew, (1, slot(b, c.names_ew, 1)), sec, pairs, &mut key),
                    ]
                }
                _ => {
                    ops.push(Op::Bad(
                        at,
                        "PairId_NS and PairId_EW must both be given".into(),
                    ));
                    break;
                }
            },
        };
        let table = TableView {
            section: section.as_deref(),
            board,
            round: cell(c.round).and_then(|r| r.parse().ok()),
            table: cell(c.table).and_then(|r| r.parse().ok()),
            ns: &sides[0].id,
            ew: &sides[1].id,
            others: None,
        };
        let event = row_event(c, row, table, vul);
        let ruling = super::note::ruling_row(ruling, row, table);
        let (event, ruling) = super::note::with_ruling(event, ruling);
        ops.push(Op::Table(Seated {
            at: at.clone(),
            section: section.clone(),
            sides,
            event,
            ruling,
        }));
    }
}

/// A row's Multiplicity that cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum BadMultiplicity {
    /// Not a whole number (the cell quoted).
    #[error("Multiplicity: expected a whole number, found {0}")]
    Number(String),
    #[error("a row with pair numbers and a Multiplicity above 1 would seat the same pairs twice")]
    Numbered,
}

/// A row's Multiplicity: how many tables played it (1 when the row does not say); more than
/// one is refused for a row with pair numbers (`numbered`).
fn multiplicity(cell: Option<&str>, numbered: bool) -> Result<u32, BadMultiplicity> {
    let times = match cell {
        None => 1,
        Some(m) => match m.parse::<u32>() {
            Ok(n) if n <= 10_000 => n,
            _ => return Err(BadMultiplicity::Number(crate::import::quote(m))),
        },
    };
    if times > 1 && numbered {
        return Err(BadMultiplicity::Numbered);
    }
    Ok(times)
}

/// One side (`dir`) of a frequency table's result: a pair made up for it, numbered by its
/// board and the result's number (`n`), with the players of its names cell.
fn made_side<'r>(
    (board, n): (u32, u32),
    dir: &str,
    names_cell: Option<&str>,
    pairs: &Pairs<'r>,
) -> Side<'r> {
    Side {
        id: format!("{board}-{n}{dir}").into(),
        players: players_of(
            None,
            names_cell,
            dir,
            (pairs.ids, pairs.names),
            &mut String::new(),
        ),
        known: None,
    }
}

/// One side (`j`: 0 NS, 1 EW) of a row's table with pair numbers: its `slot`'s pair where the
/// first reading has one, else the pair of number `n` and the row's names cell.
fn numbered_side<'r>(
    n: &str,
    names_cell: Option<&str>,
    (j, slot): (usize, Option<u32>),
    section: Option<&str>,
    pairs: &Pairs<'r>,
    key: &mut String,
) -> Side<'r> {
    match slot {
        Some(k) => {
            let (id, players) = pairs.known.side(k, j);
            Side {
                id: id.into(),
                players: players.into(),
                known: Some(k as usize * 2 + j),
            }
        }
        None => {
            let dir = ["NS", "EW"][j];
            Side {
                id: pairs.ids.id(section, n, dir).into(),
                players: players_of(Some(n), names_cell, dir, (pairs.ids, pairs.names), key),
                known: None,
            }
        }
    }
}

/// A pair's players: its names cell's, else the TotalScoreTable's by number and direction, or
/// by number when the number alone names one pair (`raw`: its number as written).
pub(super) fn players_of<'r>(
    raw: Option<&str>,
    names_cell: Option<&str>,
    dir: &str,
    (ids, names): (&Ids, &'r FxMap<String, Vec<String>>),
    key: &mut String,
) -> Cow<'r, [String]> {
    let players = names_cell.map(draft::players).unwrap_or_default();
    if !players.is_empty() || names.is_empty() {
        return players.into();
    }
    let by_number = if ids.per_direction {
        None
    } else {
        raw.and_then(|r| names.get(r))
    };
    let with_dir = raw.filter(|_| ids.names_by_direction).and_then(|r| {
        key.clear();
        key.push_str(r);
        key.push_str(dir);
        names.get(key.as_str())
    });
    match with_dir.or(by_number) {
        Some(n) => Cow::Borrowed(n.as_slice()),
        None => players.into(),
    }
}

#[cfg(test)]
mod tests {
    use crate::import::Request;

    /// A ScoreTable of 300 rows in two sections, names from a TotalScoreTable, artificial
    /// scores, scores that contradict their contracts and pairs that play the board twice.
    fn file() -> String {
        let mut t = String::from(
            "% PBN 2.1\n[Event \"E\"]\n[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Scoring \"MP\"]\n\
             [ScoreTable \"Section;PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW\"]\n",
        );
        for i in 1..=300 {
            let sec = if i % 2 == 0 { "A" } else { "B" };
            // A pair that sat NS two rows before (same section) plays the board again.
            let ns = if i % 53 == 0 { i - 2 } else { i };
            let play = match i {
                _ if i % 41 == 0 => "A - - A+ A-",
                _ if i % 37 == 0 => "1NT N 8 150 -",
                _ if i % 3 == 0 => "2H S 7 - 50",
                _ => "1NT N 8 120 -",
            };
            t.push_str(&format!("{sec} {ns} {} {play}\n", 1000 + i));
        }
        t.push_str("\n[Event \"E\"]\n[Board \"1\"]\n[TotalScoreTable \"PairId;Names\"]\n");
        for i in (1..=300).step_by(7) {
            t.push_str(&format!("{i} \"Anna {i} - Jan {i}\"\n"));
        }
        t
    }

    /// Rows read apart in chunks (of 7 rows, so that a pair's second table is in another
    /// chunk than its first) give the very events, places, skipped rows and problems of one
    /// reading of the whole table, with and without `--lenient`.
    #[test]
    fn chunks_read_as_one_reading() {
        let text = file();
        for lenient in [false, true] {
            let req = Request {
                lenient,
                ..Request::default()
            };
            let one =
                super::super::read_chunked(text.as_bytes(), "t.pbn", &req, (usize::MAX, false));
            let chunked = super::super::read_chunked(text.as_bytes(), "t.pbn", &req, (7, true));
            match (&one, lenient) {
                (Ok(p), true) => {
                    // The championship, the session and 300 rows less 8 contradicting (the
                    // multiples of 37) and 5 played twice (of 53).
                    let tables = p.events.iter().filter(|e| e.kind() != "pair").count();
                    assert_eq!(tables, 1 + 1 + 300 - 8 - 5, "{:?}", p.skipped);
                    assert_eq!(p.skipped.len(), 13, "{:?}", p.skipped);
                    assert!(p.skipped[0].message.contains("150"), "{:?}", p.skipped);
                }
                (Err(problems), false) => assert_eq!(problems.len(), 13, "{problems:?}"),
                _ => panic!("{one:?}"),
            }
            assert_eq!(format!("{one:?}"), format!("{chunked:?}"));
        }
    }
}
