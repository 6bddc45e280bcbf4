//! PBN 2.x results files (interop-formats.md): each game's `ScoreTable` (one row per table, or
//! one row per distinct result with `Multiplicity`) becomes the session's results and
//! artificial scores, `[Deal]`/`[Dealer]`/`[Vulnerable]` its `deal` events, `[Scoring]` its form
//! and options, `[Event]`/`[Date]`/`[Site]` the championship; `TotalScoreTable`s are read for
//! the pairs' names (their totals are the producer's, for comparison, not events). The text
//! itself (games, tags, tables, inheritance) is `lex`, read one game at a time, twice (`first`,
//! then the rows).

mod first;
mod lex;

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::draft::{self, Art, Draft, Play, Table};
use super::{decode_text, Parsed, Problem, Read, Request};
use crate::bridge::{parse_seat, vul_of, Vul};
use crate::num::Q;

/// Read a PBN file: the log's events of its one session.
pub fn read(bytes: &[u8], file: &str, req: &Request) -> Result<Read, Vec<Problem>> {
    read_parsed(bytes, file, req).map(Parsed::into_read)
}

/// [`read`], with each event's line. The file is read twice, one game at a time (nothing of
/// its million rows held whole): first what the whole file says (`first`: the championship,
/// names, how numbers become ids; every lexical problem), then each game's rows.
pub(crate) fn read_parsed(bytes: &[u8], file: &str, req: &Request) -> Result<Parsed, Vec<Problem>> {
    let (text, _latin1) = decode_text(bytes);
    let problem = |line: usize, message: String| Problem {
        file: file.to_string(),
        at: format!("line {line}"),
        message,
    };
    let mut d = Draft::new(file, req);
    let s = d.session();
    let mut first = first::First::default();
    let span = tracing::info_span!("pbn_first").entered();
    lex::each(&text, |g| first.game(&g, &mut d)).map_err(|errors| {
        errors
            .into_iter()
            .map(|(l, m)| problem(l, m))
            .collect::<Vec<_>>()
    })?;
    drop(span);
    first.championship(&mut d, s);
    let ids = Ids {
        prefix: first.prefix(),
        per_direction: first.per_direction(),
    };
    let mut st = Games {
        s,
        ids,
        names: first.names,
        scoring: None,
        mp_columns: None,
    };
    let span = tracing::info_span!("pbn_rows").entered();
    lex::each(&text, |g| st.game(&mut d, req, g)).expect("the file was read once already");
    drop(span);
    // No [Scoring] anywhere, but matchpoint columns: a matchpoint session.
    if let (None, Some(line)) = (st.scoring, st.mp_columns) {
        let ss = d.session_mut(s);
        ss.form = Some(("mp".into(), format!("line {line}")));
        ss.options
            .insert("neuberg_small_field".into(), Value::from("off"));
    }
    let _span = tracing::info_span!("pbn_finish").entered();
    d.finish(req)
}

/// The second reading: what the games read so far said, and how ids are made.
struct Games {
    s: usize,
    ids: Ids,
    names: std::collections::HashMap<String, Vec<String>>,
    /// The first `[Scoring]` and its line.
    scoring: Option<(String, usize)>,
    /// The line of the first ScoreTable with matchpoint or percentage columns.
    mp_columns: Option<usize>,
}

impl Games {
    /// One game: its form, board, deal and ScoreTable rows.
    fn game(&mut self, d: &mut Draft, req: &Request, g: lex::Game) {
        let s = self.s;
        let Some(table) = g
            .tables
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case("ScoreTable"))
        else {
            return;
        };
        let at = |l: usize| format!("line {l}");
        // The form: every game's [Scoring] the same.
        if let Some(tag) = g.tag("Scoring").filter(|t| !t.value.trim().is_empty()) {
            match &self.scoring {
                None => {
                    match scoring_tag(&tag.value) {
                        Ok((form, options)) => {
                            let ss = d.session_mut(s);
                            ss.form = Some((form.to_string(), at(tag.line)));
                            ss.options = options;
                            if form == "mp" {
                                // PBN's producers factor a line of any size by Neuberg's
                                // formula (interop-formats.md), not the small-field table.
                                ss.options
                                    .insert("neuberg_small_field".into(), Value::from("off"));
                            }
                        }
                        Err(m) => {
                            if req.form.is_none() {
                                d.fail(&at(tag.line), m);
                            }
                        }
                    }
                    self.scoring = Some((tag.value.clone(), tag.line));
                }
                Some((v, l)) if !v.trim().eq_ignore_ascii_case(tag.value.trim()) => {
                    let m = format!("[Scoring \"{}\"] differs from [Scoring \"{v}\"] at line {l}: one file is one session, scored one way", tag.value);
                    d.fail(&at(tag.line), m);
                }
                _ => {}
            }
        }
        let Some(board) = g.value("Board") else {
            d.fail(&at(table.line), "a ScoreTable in a game without [Board]");
            return;
        };
        let board = match board.parse::<u32>() {
            Ok(b) if (1..=10_000).contains(&b) => b,
            _ => {
                let line = g.tag("Board").map(|t| t.line).unwrap_or(g.line);
                d.fail(
                    &at(line),
                    format!("[Board]: expected a board number, found {board:?}"),
                );
                return;
            }
        };
        let vul = match g.value("Vulnerable") {
            None => vul_of(board),
            Some(v) => match Vul::parse(v) {
                Ok(v) => v,
                Err(m) => {
                    d.fail(
                        &at(g.tag("Vulnerable").unwrap().line),
                        format!("[Vulnerable]: {m}"),
                    );
                    return;
                }
            },
        };
        let dealer = match g.value("Dealer").map(parse_seat) {
            Some(Err(m)) => {
                d.fail(&at(g.tag("Dealer").unwrap().line), format!("[Dealer]: {m}"));
                None
            }
            Some(Ok(x)) => Some(x),
            None => None,
        };
        if let Some(deal) = g.value("Deal") {
            let line = g.tag("Deal").unwrap().line;
            let vul_given = g.value("Vulnerable").map(|_| vul);
            d.deal(s, board, deal, dealer, vul_given, &at(line));
        }
        if self.mp_columns.is_none()
            && (table.col("MP_NS").is_some() || table.col("Percentage_NS").is_some())
        {
            self.mp_columns = Some(table.line);
        }
        rows(d, s, table, board, vul, &self.ids, &self.names);
    }
}

/// How a file's pair numbers become ids.
struct Ids {
    /// Numbers repeat across sections: the section goes before the number (`A12`).
    prefix: bool,
    /// NS and EW pairs are numbered each from 1: the direction goes after it (`1NS`).
    per_direction: bool,
}

impl Ids {
    fn id(&self, section: Option<&str>, raw: &str, dir: &str) -> String {
        let mut id = match (section, self.prefix) {
            (Some(sec), true) => format!("{sec}{raw}"),
            _ => raw.to_string(),
        };
        if self.per_direction {
            id.push_str(dir);
        }
        id
    }
}

/// `[Scoring]`: a base (`MP`, `MatchPoints`, `IMP`...) and modifiers (PBN 2.1 §3.4.12) → the
/// form and the options that say what the file says. `MP1`/`MP2` differ only in the scale
/// (2/1/0 or 1/½/0 a comparison), not in the ranking: both are `mp`.
pub fn scoring_tag(value: &str) -> Result<(&'static str, Map<String, Value>), String> {
    let mut form: Option<&'static str> = None;
    let mut imp = false;
    let mut options = Map::new();
    let mut median = false;
    for f in value
        .split([';', ','])
        .map(str::trim)
        .filter(|f| !f.is_empty())
    {
        match f.to_ascii_uppercase().as_str() {
            "MP" | "MATCHPOINTS" | "MATCHPOINT" | "MP1" | "MP2" | "NEUBERG" => {
                form.get_or_insert("mp");
            }
            "IMP" | "IMPS" => imp = true,
            "BUTLER" => {
                form = Some("butler");
                options.insert("butler_trim".into(), serde_json::json!({"count": 0}));
            }
            "BUTLER-2" | "BUTLER2" => {
                form = Some("butler");
                options.insert("butler_trim".into(), serde_json::json!({"count": 1}));
            }
            "CROSS" => {
                form = Some("ximp");
                options.insert("ximp_normalize".into(), Value::from("sum"));
            }
            "CROSS1" => {
                form = Some("ximp");
                options.insert("ximp_normalize".into(), Value::from("results"));
            }
            "CROSS2" => {
                form = Some("ximp");
                options.insert("ximp_normalize".into(), Value::from("comparisons"));
            }
            "MEAN" => {}
            "MEDIAN" => median = true,
            other => {
                return Err(format!(
                    "[Scoring \"{value}\"]: \"{other}\" is not a scoring frekans reads (MP, MatchPoints, MP1, MP2, IMP with Butler, Butler-2, Cross, Cross1 or Cross2, Mean, Median); give --form"
                ))
            }
        }
    }
    if median {
        if form != Some("butler") {
            return Err(format!(
                "[Scoring \"{value}\"]: Median is a Butler datum; give --form"
            ));
        }
        // The datum of the middle result(s): all but a sliver of weight trimmed from each end
        // leaves the median of any board of fewer than 500,000 results (exact rationals).
        options.insert(
            "butler_trim".into(),
            serde_json::json!({"per_side": 0.499999, "mode": "fractional"}),
        );
    }
    match form {
        Some(f) => Ok((f, options)),
        None if imp => Err(format!(
            "[Scoring \"{value}\"]: IMPs without Butler or Cross do not say how pairs are compared; give --form butler or --form ximp"
        )),
        None => Err(format!("[Scoring \"{value}\"]: no scoring base (MP or IMP); give --form")),
    }
}

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
enum Op<'r> {
    /// A problem with the row (at, message): the row is skipped.
    Bad(String, String),
    /// A table: its pairs declared, then its event added or refused.
    Table(Seated<'r>),
}

/// One table of a row: the pairs it declares and its event, or why the event is refused.
struct Seated<'r> {
    at: String,
    section: Option<&'r str>,
    players: [Cow<'r, [String]>; 2],
    table: Table,
    event: Result<super::Row, String>,
}

/// Rows read apart, in chunks of this many (a chunk's ops are added in order).
const CHUNK: usize = 2048;

/// A ScoreTable's rows as the session's results and artificial scores.
fn rows<'t>(
    d: &mut Draft,
    s: usize,
    t: &'t lex::TableTag<'t>,
    board: u32,
    vul: Vul,
    ids: &Ids,
    names: &'t std::collections::HashMap<String, Vec<String>>,
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
    let all: Vec<(usize, &'t [Cow<'t, str>])> = t.rows().collect();
    // A frequency table numbers its made-up pairs from its first row on: read in one piece.
    let chunk = if c.ns.is_none() && c.ew.is_none() {
        all.len().max(1)
    } else {
        CHUNK
    };
    let read = |rows: &[(usize, &'t [Cow<'t, str>])]| -> Vec<Op<'t>> {
        let mut ops = Vec::with_capacity(rows.len());
        let mut synthetic = 0;
        for &(line, row) in rows {
            row_ops(
                &mut ops,
                &mut synthetic,
                (line, row),
                t,
                &c,
                (board, vul),
                ids,
                names,
            );
        }
        ops
    };
    let chunks: Vec<Vec<Op>> = if all.len() > chunk {
        all.par_chunks(chunk).map(read).collect()
    } else {
        vec![read(&all)]
    };
    for op in chunks.into_iter().flatten() {
        match op {
            Op::Bad(at, m) => d.bad(&at, m),
            Op::Table(x) => {
                let [pn, pe] = x.players;
                let pairs = [
                    d.pair(&x.table.ns, x.section, pn, &x.at),
                    d.pair(&x.table.ew, x.section, pe, &x.at),
                ];
                match x.event {
                    Ok(row) => d.push_paired(s, &x.table, pairs, row, x.at),
                    Err(m) => d.bad(&x.at, m),
                }
            }
        }
    }
}

/// One row's ops (`synthetic`: the frequency table's made-up tables so far).
#[allow(clippy::too_many_arguments)]
fn row_ops<'r>(
    ops: &mut Vec<Op<'r>>,
    synthetic: &mut u32,
    (line, row): (usize, &'r [Cow<'r, str>]),
    t: &lex::TableTag,
    c: &Cols,
    (board, vul): (u32, Vul),
    ids: &Ids,
    names: &'r std::collections::HashMap<String, Vec<String>>,
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
    let section = cell(c.section);
    let mut key = String::new();
    for _ in 0..times {
        let (ns, ew) = match (c.ns, c.ew) {
            (None, None) => {
                // A frequency table: each result is its own table of pairs made up for it.
                *synthetic += 1;
                (
                    format!("{board}-{synthetic}NS"),
                    format!("{board}-{synthetic}EW"),
                )
            }
            _ => match (cell(c.ns), cell(c.ew)) {
                (Some(a), Some(b)) => (ids.id(section, a, "NS"), ids.id(section, b, "EW")),
                _ => {
                    ops.push(Op::Bad(
                        at,
                        "PairId_NS and PairId_EW must both be given".into(),
                    ));
                    break;
                }
            },
        };
        let players = [
            players_of(cell(c.ns), cell(c.names_ns), "NS", ids, names, &mut key),
            players_of(cell(c.ew), cell(c.names_ew), "EW", ids, names, &mut key),
        ];
        let table = Table {
            section: section.map(str::to_string),
            board,
            round: cell(c.round).and_then(|r| r.parse().ok()),
            table: cell(c.table).and_then(|r| r.parse().ok()),
            ns,
            ew,
        };
        let event = row_event(c, row, &table, vul);
        ops.push(Op::Table(Seated {
            at: at.clone(),
            section,
            players,
            table,
            event,
        }));
    }
}

/// A pair's players: its names cell's, else the TotalScoreTable's by number and direction, or
/// by number when the number alone names one pair (`raw`: its number as written).
fn players_of<'r>(
    raw: Option<&str>,
    names_cell: Option<&str>,
    dir: &str,
    ids: &Ids,
    names: &'r std::collections::HashMap<String, Vec<String>>,
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
    let with_dir = raw.and_then(|r| {
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
fn row_event(c: &Cols, row: &[Cow<str>], t: &Table, vul: Vul) -> Result<super::Row, String> {
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
    use super::*;

    #[test]
    fn scoring_tags() {
        assert_eq!(scoring_tag("MatchPoints;MP1").unwrap().0, "mp");
        assert_eq!(scoring_tag("MP").unwrap().0, "mp");
        let (f, o) = scoring_tag("IMP;Butler-2;Mean").unwrap();
        assert_eq!(f, "butler");
        assert_eq!(o["butler_trim"], serde_json::json!({"count": 1}));
        let (f, o) = scoring_tag("IMP;Cross1").unwrap();
        assert_eq!(f, "ximp");
        assert_eq!(o["ximp_normalize"], "results");
        assert_eq!(
            scoring_tag("IMP;Cross2").unwrap().1["ximp_normalize"],
            "comparisons"
        );
        assert_eq!(scoring_tag("IMP;Cross").unwrap().1["ximp_normalize"], "sum");
        assert_eq!(
            scoring_tag("IMP;Butler").unwrap().1["butler_trim"],
            serde_json::json!({"count": 0})
        );
        assert!(scoring_tag("IMP").is_err());
        assert!(scoring_tag("Rubber").is_err());
    }

    /// A passed-out board's score written as `PASS` in Score_NS (BridgeComposer) is 0 points;
    /// beside a contract that made, it is refused as any contradicting score is.
    #[test]
    fn pass_as_a_score_is_zero() {
        let file = |c2: &str| {
            format!(
                "% PBN 2.1\n[Event \"E\"]\n[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Scoring \"MP;MP1\"]\n\
                 [ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW\"]\n\
                 1 1 4S N 10 420 -\n2 2 {c2} PASS -\n"
            )
        };
        let req = crate::import::Request::default();
        let got =
            read(file("Pass - -").as_bytes(), "t.pbn", &req).expect("a passed-out board reads");
        let results: Vec<_> = got
            .events
            .iter()
            .filter(|e| e["type"] == "result")
            .collect();
        assert_eq!(results.len(), 2, "{:?}", got.events);
        assert!(
            results[1]["contract"] == "PASS" || results[1]["score"] == 0,
            "{:?}",
            results[1]
        );
        let bad = read(file("3NT N 9").as_bytes(), "t.pbn", &req);
        assert!(
            bad.is_err(),
            "3NT= (400) with a score of PASS must be refused"
        );
    }
}
