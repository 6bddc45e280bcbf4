//! A PBN `ScoreTable`'s rows as a session's results and artificial scores: each row read
//! apart from the draft (its tokens, its pairs' ids and names, its contract, score and
//! artificial tokens checked, its event written), in parallel chunks, then added to the draft
//! in the file's order, so that the events, their places and every problem are those of one
//! reading. A pair's id and players come from its slot (`slots::Known`, worked out once a
//! pair) where the first reading met its cells, and the draft's number for it is kept once
//! the draft has taken it without a problem.

use std::borrow::Cow;

use super::super::draft::{self, Art, Draft, Play, TableView};
use super::slots::Known;
use super::{lex, Ids};
use crate::bridge::Vul;
use crate::hash::FxMap;
use crate::num::Q;

/// The columns a ScoreTable row is read by.
struct Cols {
    section: Option<usize>,
    table: Option<usize>,
    round: Option<usize>,
    ns: Option<usize>,
    ew: Option<usize>,
    names_ns: Option<usize>,
    names_ew: Option<usize>,
    contract: Option<usize>,
    declarer: Option<usize>,
    result: Option<usize>,
    score_ns: Option<usize>,
    score_ew: Option<usize>,
    score: Option<usize>,
    mp: (Option<usize>, Option<usize>),
    pct: (Option<usize>, Option<usize>),
    imp: (Option<usize>, Option<usize>),
    mult: Option<usize>,
    lead: Option<usize>,
}

/// Whether a token says something: not empty, `-` (irrelevant) or `?` (unknown).
fn given(t: &str) -> Option<&str> {
    let t = t.trim();
    (!t.is_empty() && t != "-" && t != "?").then_some(t)
}

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
    event: Result<super::super::Row, String>,
}

/// Rows read apart, in chunks of this many (a chunk's ops are added in order).
pub(super) const CHUNK: usize = 2048;

/// What the rows are read with: how ids are made, the TotalScoreTables' names, the pairs
/// of the slots the first reading met.
pub(super) struct Pairs<'p> {
    pub ids: &'p Ids,
    pub names: &'p FxMap<String, Vec<String>>,
    pub known: &'p Known<'p>,
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
pub(super) fn rows<'t>(
    (d, numbers): (&mut Draft, &mut Numbers),
    s: usize,
    t: &lex::TableTag<'t>,
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
    // A frequency table numbers its made-up pairs from its first row on: read in one piece.
    let chunk = if c.ns.is_none() && c.ew.is_none() {
        all.len().max(1)
    } else {
        chunk.max(1)
    };
    let read = |rows: &[(usize, &'t str)]| -> Vec<Op<'t>> {
        let mut ops = Vec::with_capacity(rows.len());
        let mut synthetic = 0;
        let mut tokens = Vec::with_capacity(t.columns.len());
        for &(line, text) in rows {
            tokens.clear();
            // (a row `lex::each` has read)
            let _ = lex::tokens_into(text, &mut tokens);
            row_ops(
                &mut ops,
                &mut synthetic,
                (line, &tokens),
                t,
                &c,
                (board, vul),
                pairs,
            );
        }
        ops
    };
    let read_window = |rows: &[(usize, &'t str)]| -> Vec<Vec<Op<'t>>> {
        if rows.len() > chunk {
            rows.par_chunks(chunk).map(read).collect()
        } else {
            vec![read(rows)]
        }
    };
    // A window's ops are added to the draft (in order) while the next window's rows are read.
    let mut windows = all.chunks(chunk.saturating_mul(WINDOW));
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
                Ok(row) => d.push_paired(s, (board, [&a.1, &b.1]), [a.0, b.0], row, x.at),
                Err(m) => d.bad(&x.at, m),
            }
        }
    }
}

/// One row's ops (`synthetic`: the frequency table's made-up tables so far).
#[allow(clippy::too_many_arguments)]
fn row_ops<'r>(
    ops: &mut Vec<Op<'r>>,
    synthetic: &mut u32,
    (line, row): (usize, &[Cow<'r, str>]),
    t: &lex::TableTag,
    c: &Cols,
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
    let times = match cell(c.mult) {
        None => 1,
        Some(m) => match m.parse::<u32>() {
            Ok(n) if n <= 10_000 => n,
            _ => {
                let m = format!("Multiplicity: expected a whole number, found {m:?}");
                ops.push(Op::Bad(at, m));
                return;
            }
        },
    };
    if times > 1 && (c.ns.is_some() || c.ew.is_some()) {
        ops.push(Op::Bad(
            at,
            "a row with pair numbers and a Multiplicity above 1 would seat the same pairs twice"
                .into(),
        ));
        return;
    }
    let section = owned_cell(c.section);
    // The pairs' slots: their ids and players are the slot's when no names cell says who
    // they are.
    let slot = |number: Option<&str>, names: Option<usize>| {
        let number = number.filter(|_| names.is_none())?;
        pairs.known.get(section.as_deref(), number)
    };
    let mut key = String::new();
    for _ in 0..times {
        let sides = match (c.ns, c.ew) {
            (None, None) => {
                // A frequency table: each result is its own table of pairs made up for it.
                *synthetic += 1;
                let made = |dir: &str, names: Option<usize>| Side {
                    id: format!("{board}-{synthetic}{dir}").into(),
                    players: players_of(
                        None,
                        cell(names),
                        dir,
                        (pairs.ids, pairs.names),
                        &mut String::new(),
                    ),
                    known: None,
                };
                [made("NS", c.names_ns), made("EW", c.names_ew)]
            }
            _ => match (cell(c.ns), cell(c.ew)) {
                (Some(a), Some(b)) => {
                    let side =
                        |n: &str, names: Option<usize>, j: usize, key: &mut String| match slot(
                            Some(n),
                            names,
                        ) {
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
                                    id: pairs.ids.id(section.as_deref(), n, dir).into(),
                                    players: players_of(
                                        Some(n),
                                        cell(names),
                                        dir,
                                        (pairs.ids, pairs.names),
                                        key,
                                    ),
                                    known: None,
                                }
                            }
                        };
                    [
                        side(a, c.names_ns, 0, &mut key),
                        side(b, c.names_ew, 1, &mut key),
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
        };
        let event = row_event(c, row, table, vul);
        ops.push(Op::Table(Seated {
            at: at.clone(),
            section: section.clone(),
            sides,
            event,
        }));
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

/// One row's event: an artificial score (`^60`, `A+`, `A A A`...) as a ruling, else a result
/// with its score checked against its contract; `Err`: why the row is refused.
fn row_event(
    c: &Cols,
    row: &[Cow<str>],
    t: TableView,
    vul: Vul,
) -> Result<super::super::Row, String> {
    let raw = |i: Option<usize>| i.map(|i| row[i].trim()).unwrap_or("-");
    let cell = |i: Option<usize>| given(raw(i));
    if let Some((ns, ew, token)) = artificial(c, row) {
        return Ok(draft::artificial_row(
            t,
            &draft::art_score(&ns, &ew),
            &token,
        ));
    }
    let score_ns = match (cell(c.score_ns), cell(c.score_ew), cell(c.score)) {
        (Some(a), None, _) => Some(a.to_string()),
        (None, Some(b), _) => Some(format!("-{}", b.trim_start_matches('+'))),
        (None, None, Some(x)) => Some(x.to_string()),
        (None, None, None) => None,
        (Some(a), Some(b), _) => {
            // Some producers fill both; they must agree.
            let (x, y) = (draft::number(a), draft::number(b));
            if x.is_some() && x.map(|v| -v) == y {
                Some(a.to_string())
            } else {
                return Err(format!("Score_NS {a} and Score_EW {b} disagree"));
            }
        }
    };
    // A passed-out board's score written as the pass itself (BridgeComposer writes `PASS` in
    // Score_NS): 0 points, which the contract column, when given, must agree with.
    let score_ns = score_ns.map(|x| {
        if ["PASS", "PO", "AP", "P"].contains(&x.to_ascii_uppercase().as_str()) {
            "0".to_string()
        } else {
            x
        }
    });
    let score = match score_ns
        .as_deref()
        .map(|x| draft::number(x).filter(|q| q.is_integer()))
    {
        None => None,
        Some(Some(q)) => match i32::try_from(q.numer()) {
            Ok(v) if v.abs() <= 10_000 => Some(v),
            _ => {
                return Err(format!(
                    "a score of {} points is not a bridge score",
                    q.numer()
                ))
            }
        },
        Some(None) => {
            return Err(format!(
                "Score: expected NS points such as 420 or -50, found {:?}",
                score_ns.unwrap()
            ))
        }
    };
    let play = Play {
        score,
        lead: cell(c.lead).map(str::to_string),
        ..Play::default()
    };
    // The Result column holds the tricks declarer took, or (some producers) `=`, `+1`, `-2`.
    let result = cell(c.result);
    let tricks = |contract: &crate::bridge::Contract| match result {
        None => Ok(None),
        Some(r) => match r.parse::<u8>() {
            Ok(n) if n <= 13 => Ok(Some(n)),
            _ => crate::bridge::parse_result_offset(r)
                .ok()
                .and_then(|o| contract.tricks_for_offset(o))
                .map(Some)
                .ok_or_else(|| {
                    format!("Result: expected the tricks declarer took (0-13), found {r:?}")
                }),
        },
    };
    const LABELS: draft::PlayLabels = draft::PlayLabels {
        contract: "Contract",
        declarer: "Declarer",
        tricks: "Result",
    };
    let play = draft::play_at(
        play,
        cell(c.contract),
        cell(c.declarer),
        tricks,
        vul,
        &LABELS,
    )?;
    Ok(draft::result_row(t, &play))
}

/// The artificial score of a row, if it has one: each side's, and the file's tokens.
/// `A+`/`A-`/`A=` or `^60` in the score columns (Magic Contest, the PBN spec), `A` in the
/// contract (Bridgewebs' `A A A`), or a `^` in the percentage or matchpoint columns (the
/// side's percentage; matchpoints are taken as a share of the two sides' sum, the board's top).
fn artificial(c: &Cols, row: &[Cow<str>]) -> Option<(Art, Art, String)> {
    let raw = |i: Option<usize>| i.map(|i| row[i].trim()).unwrap_or("-");
    let caret = |i: Option<usize>| raw(i).strip_prefix('^').and_then(draft::number);
    let art_in = |i: Option<usize>| {
        let t = raw(i);
        draft::named_art(t).or_else(|| {
            t.strip_prefix('^')
                .and_then(draft::number)
                .map(Art::from_pct)
        })
    };
    let contract_a = draft::named_art(raw(c.contract)).is_some();
    let score_art = (art_in(c.score_ns), art_in(c.score_ew));
    let pct = (caret(c.pct.0), caret(c.pct.1));
    let mp = (caret(c.mp.0), caret(c.mp.1));
    let any = contract_a
        || score_art.0.is_some()
        || score_art.1.is_some()
        || pct.0.is_some()
        || pct.1.is_some()
        || mp.0.is_some()
        || mp.1.is_some()
        || raw(c.imp.0).starts_with('^')
        || raw(c.imp.1).starts_with('^');
    if !any {
        return None;
    }
    let mut tokens: Vec<&str> = Vec::new();
    for i in [
        c.contract, c.declarer, c.result, c.score_ns, c.score_ew, c.mp.0, c.mp.1, c.pct.0, c.pct.1,
        c.imp.0, c.imp.1,
    ] {
        let t = raw(i);
        if i.is_some()
            && t != "-"
            && t != "?"
            && (t.starts_with('^') || t.starts_with('A') || t.starts_with('a'))
        {
            tokens.push(t);
        }
    }
    let token = tokens.join(" ");
    // Each side from the first column that says: named or ^ score, then ^ percentage, then ^
    // matchpoints over the two sides' sum.
    let by_mp = |x: Option<Q>, other: Option<Q>| -> Option<Art> {
        let (x, y) = (x?, other?);
        let top = x + y;
        (top > Q::ZERO).then(|| Art::from_pct(x * Q::int(100) / top))
    };
    let ns = score_art
        .0
        .clone()
        .or(pct.0.map(Art::from_pct))
        .or_else(|| by_mp(mp.0, mp.1));
    let ew = score_art
        .1
        .clone()
        .or(pct.1.map(Art::from_pct))
        .or_else(|| by_mp(mp.1, mp.0));
    // One side said, the other not: average-minus... no: the other side's own; unknown means
    // average (Bridgewebs' `A A A` with nothing else is an average to both).
    let ns = ns.unwrap_or(Art::Named("A"));
    let ew = ew.unwrap_or(Art::Named("A"));
    Some((ns, ew, token))
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
            let one = super::super::read_chunked(text.as_bytes(), "t.pbn", &req, usize::MAX);
            let chunked = super::super::read_chunked(text.as_bytes(), "t.pbn", &req, 7);
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
