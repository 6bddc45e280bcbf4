//! A spreadsheet of travellers (`--format csv`): one row per table, read with the `csv` crate.
//! The first row names the columns; by default they are the log's own field names
//! (case-insensitive): `session`, `section`, `board`, `ns`, `ew`, `contract`, `declarer`,
//! `tricks` or `result` (`=`, `+1`, `-2`) or `score` (NS points), and optionally `table`,
//! `round`, `lead`, `ns_players`, `ew_players` (`"Anna Nowak - Jan Kowalski"`) and
//! `ns_player_ids`, `ew_player_ids` (their federation member numbers, `"12345 - 67890"`, as
//! many as names; `0` or `-` for none). Other layouts are
//! mapped with `--columns board=Board,ns=NS Pair,...`. Comma, semicolon or tab separated (the
//! header row decides), UTF-8 or Latin-1. An artificial score goes in `score`: `A6040`,
//! `A+/A-`, `60%/40%` or `A` (average to both). Each distinct `session` value is a session, in
//! the order first met.
//!
//! An individual session (docs/interop.md "Individual events") names its four players by seat
//! in `north`, `south`, `east`, `west` in place of `ns` and `ew`, with `north_player` ...
//! (names) and `north_player_id` ... (member numbers) in place of the pairs' (`seats`).

mod seats;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::draft::{self, Art, Draft, Play, Table};
use super::{decode_text, Parsed, Problem, Read, Request};
use crate::bridge::{parse_result_offset, vul_of, Bid};

/// The fields a row is read by, in the default layout's order.
pub const FIELDS: [&str; 29] = [
    "session",
    "section",
    "board",
    "ns",
    "ew",
    "contract",
    "declarer",
    "tricks",
    "result",
    "score",
    "table",
    "round",
    "lead",
    "ns_players",
    "ew_players",
    "ns_player_ids",
    "ew_player_ids",
    "north",
    "south",
    "east",
    "west",
    "north_player",
    "south_player",
    "east_player",
    "west_player",
    "north_player_id",
    "south_player_id",
    "east_player_id",
    "west_player_id",
];

/// `--columns`: the header each field is read from, where it is not the field's own name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Columns {
    pub map: BTreeMap<String, String>,
}

impl Columns {
    /// `board=Board,ns=NS Pair,tricks=Tricks`: field=header pairs separated by commas.
    pub fn parse(s: &str) -> Result<Columns, BadColumns> {
        let mut map = BTreeMap::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((field, header)) = part.split_once('=') else {
                return Err(BadColumns::Pair(part.to_string()));
            };
            let field = field.trim().to_ascii_lowercase();
            if !FIELDS.contains(&field.as_str()) {
                return Err(BadColumns::Field(field));
            }
            map.insert(field, header.trim().to_string());
        }
        Ok(Columns { map })
    }
}

/// A `--columns` that cannot be read: the part or field found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadColumns {
    #[error("--columns: expected field=Header pairs such as board=Board,ns=NS, found {0:?}")]
    Pair(String),
    #[error("--columns: unknown field {0:?} (the fields are {fields})", fields = FIELDS.join(", "))]
    Field(String),
}

/// Read a spreadsheet in the default layout.
pub fn read(bytes: &[u8], file: &str, req: &Request) -> Result<Read, Vec<Problem>> {
    read_parsed(bytes, file, req, &Columns::default()).map(Parsed::into_read)
}

/// [`read`] with a column mapping, each event with its line.
pub(crate) fn read_parsed(
    bytes: &[u8],
    file: &str,
    req: &Request,
    columns: &Columns,
) -> Result<Parsed, Vec<Problem>> {
    let (text, mixed) = decode_text(bytes);
    let fail = |at: String, message: String| {
        vec![Problem {
            file: file.to_string(),
            at,
            message,
        }]
    };
    let header_line = text.lines().next().unwrap_or("");
    let delimiter = [b',', b';', b'\t']
        .into_iter()
        .max_by_key(|d| header_line.bytes().filter(|b| b == d).count())
        .unwrap_or(b',');
    let shape = checked_shape(&text, delimiter, file)?;
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = match rdr.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            return Err(fail(
                "line 1".into(),
                format!("cannot read the header row: {e}"),
            ))
        }
    };
    let col = field_columns(&headers, columns, file)?;
    let rows = records(&mut rdr, file)?;
    let cell = |r: &csv::StringRecord, f: &str| -> Option<String> {
        col.get(f)
            .and_then(|&i| r.get(i))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let (prefix, per_direction) = id_layout(&rows, &cell);
    let mut d = Draft::new(file, req);
    if let Some(m) = mixed {
        d.slip(&m.at(), m.slip());
    }
    // (a quoted cell of the header row over several lines)
    if let Some(span) = shape.spans.iter().find(|s| s.row == 1) {
        d.slip("line 1", span.slip());
    }
    let mut sessions: Vec<(String, usize)> = Vec::new();
    let seated = seats::kind(&col);
    for r in &rows {
        let line = r.position().map(|p| p.line()).unwrap_or(0);
        let at = format!("line {line}");
        if r.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        // A row a quoted cell carried over several lines: taken as CSV's rule reads it, and
        // the lines taken into the cell said (refused under --strict).
        let span = shape
            .spans
            .binary_search_by_key(&(line as usize), |s| s.row)
            .ok()
            .map(|i| shape.spans[i].slip());
        let key = cell(r, "session").unwrap_or_default();
        let s = match sessions.iter().find(|(k, _)| *k == key) {
            Some(&(_, s)) => s,
            None => {
                let s = d.session();
                d.session_mut(s).kind = seated;
                if !key.is_empty() {
                    d.session_mut(s).name = Some(key.clone());
                }
                sessions.push((key, s));
                s
            }
        };
        d.take(&at, span, |d| match seated {
            Some(_) => seats::row(d, s, r, &cell, &at),
            None => row(d, s, r, &cell, (prefix, per_direction), &at),
        });
    }
    d.finish(req)
}

/// The text's shape (`shape`) checked before the rows are read: an unbalanced quote would take
/// the rest of the file into one cell (the rows after it lost without a word), and no row may
/// hold more than a row's limit.
fn checked_shape(text: &str, delimiter: u8, file: &str) -> Result<Shape, Vec<Problem>> {
    let fail = |at: String, message: String| {
        vec![Problem {
            file: file.to_string(),
            at,
            message,
        }]
    };
    let shape = shape(text.as_bytes(), delimiter);
    if let Some((line, rest)) = shape.unclosed {
        return Err(fail(
            format!("line {line}"),
            format!("a quote (\") opened on this line is never closed: the rest of the file ({rest} more line{}) would be one cell, its rows lost; close the quote or remove it", if rest == 1 { "" } else { "s" }),
        ));
    }
    if let Some((line, len)) = shape.long {
        return Err(fail(
            format!("line {line}"),
            format!(
                "a row of {len} bytes, more than the {} a spreadsheet's row may have (one table's traveller line{})",
                crate::limits::human(crate::limits::MAX_CSV_ROW_BYTES as u64),
                if shape.spans.iter().any(|s| s.row == line) {
                    ", its lines together inside a quoted cell"
                } else {
                    ""
                }
            ),
        ));
    }
    Ok(shape)
}

/// Each field's column in the header row (`--columns` mapping fields to other names); the
/// header row lacking a column a table's result needs is a problem.
fn field_columns(
    headers: &csv::StringRecord,
    columns: &Columns,
    file: &str,
) -> Result<HashMap<&'static str, usize>, Vec<Problem>> {
    let mut col: HashMap<&'static str, usize> = HashMap::new();
    let mut problems = Vec::new();
    for f in FIELDS {
        let want = columns.map.get(f).map(String::as_str).unwrap_or(f);
        match headers.iter().position(|h| h.trim().eq_ignore_ascii_case(want)) {
            Some(i) => {
                col.insert(f, i);
            }
            None if columns.map.contains_key(f) => problems.push(Problem {
                file: file.to_string(),
                at: "line 1".into(),
                message: format!("--columns maps {f} to {want:?}, which the header row does not have (it has {})", headers.iter().collect::<Vec<_>>().join(", ")),
            }),
            None => {}
        }
    }
    let needed = match seats::kind(&col) {
        Some(_) => seats::needed(&col, headers, file, &mut problems),
        None => ["board", "ns", "ew"].as_slice(),
    };
    for &f in needed {
        if !col.contains_key(f) {
            problems.push(Problem {
                file: file.to_string(),
                at: "line 1".into(),
                message: format!("no {f} column: the header row must name session, section, board, ns, ew, contract, declarer, tricks (or result, or score), or map its own names with --columns {f}=Header"),
            });
        }
    }
    if !col.contains_key("contract") && !col.contains_key("score") {
        problems.push(Problem {
            file: file.to_string(),
            at: "line 1".into(),
            message:
                "neither a contract nor a score column: nothing says what happened at each table"
                    .into(),
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(col)
}

/// The rows after the header row; one that cannot be read is a problem.
fn records(
    rdr: &mut csv::Reader<&[u8]>,
    file: &str,
) -> Result<Vec<csv::StringRecord>, Vec<Problem>> {
    let mut rows = Vec::new();
    for rec in rdr.records() {
        match rec {
            Ok(r) => rows.push(r),
            Err(e) => {
                let at = e
                    .position()
                    .map(|p| format!("line {}", p.line()))
                    .unwrap_or("file".into());
                return Err(vec![Problem {
                    file: file.to_string(),
                    at,
                    message: format!("cannot read this row: {e}"),
                }]);
            }
        }
    }
    Ok(rows)
}

/// How rows' pair numbers become ids: where a pair number stands in two sections, the section
/// is put before it; where NS and EW are numbered each from 1, the direction after it.
fn id_layout(
    rows: &[csv::StringRecord],
    cell: &dyn Fn(&csv::StringRecord, &str) -> Option<String>,
) -> (bool, bool) {
    let mut sections: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in rows {
        if let Some(sec) = cell(r, "section") {
            for f in ["ns", "ew"] {
                if let Some(p) = cell(r, f) {
                    sections.entry(p).or_default().insert(sec.clone());
                }
            }
        }
    }
    let prefix = sections.values().any(|s| s.len() > 1);
    let seats: Vec<(u32, String, String)> = rows
        .iter()
        .filter_map(|r| {
            let b = super::board_number(&cell(r, "board")?)?;
            let sec = cell(r, "session").unwrap_or_default()
                + "\u{0}"
                + &cell(r, "section").unwrap_or_default();
            Some((
                b,
                format!("{sec}\u{0}{}", cell(r, "ns")?),
                format!("{sec}\u{0}{}", cell(r, "ew")?),
            ))
        })
        .collect();
    let per_direction =
        draft::per_direction(seats.iter().map(|(b, n, e)| (*b, n.as_str(), e.as_str())));
    (prefix, per_direction)
}

/// A quoted cell over several lines: the row it is in (its first line), the line its quote
/// opened on and the line it closed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    row: usize,
    open: usize,
    close: usize,
}

impl Span {
    fn slip(&self) -> draft::Slip {
        let (from, to) = (self.open + 1, self.close);
        let lines = if from == to {
            format!("line {to} is")
        } else {
            format!("lines {from}-{to} are")
        };
        draft::Slip {
            notice: format!("a quoted cell opened on line {} closes on line {}: {lines} inside it, not rows of their own (read as CSV's rule reads them); if they are rows, the quote on line {} is a slip", self.open, self.close, self.open),
            refusal: format!("a quoted cell opened on line {} runs to line {}, taking {} into it (--strict)", self.open, self.close, if from == to { format!("line {to}") } else { format!("lines {from}-{to}") }),
        }
    }
}

/// What [`shape`] found.
#[derive(Debug, Default, PartialEq, Eq)]
struct Shape {
    /// A quote never closed: the line it opened on, and how many lines follow it.
    unclosed: Option<(usize, usize)>,
    /// The first row longer than [`crate::limits::MAX_CSV_ROW_BYTES`]: its line and length.
    long: Option<(usize, usize)>,
    /// The quoted cells over several lines, in order.
    spans: Vec<Span>,
}

/// The rows of `text` as the `csv` crate reads them (its rules: a quote opens a quoted cell
/// only at a cell's start, `""` inside is a quote, a line break inside is the cell's; blank
/// lines are no rows), looked at for what would lose rows without a word or take too much
/// memory: a quote never closed, a cell over several lines, a row too long.
fn shape(text: &[u8], delimiter: u8) -> Shape {
    #[derive(Clone, Copy, PartialEq)]
    enum S {
        Row,
        CellStart,
        Cell,
        Quoted,
        QuoteInQuoted,
    }
    let mut out = Shape::default();
    let (mut st, mut line, mut i) = (S::Row, 1usize, 0usize);
    // (the row's first byte and line; the line the open quote opened on)
    let (mut row, mut row_line, mut open) = (0usize, 1usize, 0usize);
    let end_row = |at: usize, row: usize, row_line: usize, out: &mut Shape| {
        if at - row > crate::limits::MAX_CSV_ROW_BYTES && out.long.is_none() {
            out.long = Some((row_line, at - row));
        }
    };
    while i < text.len() {
        let b = text[i];
        let newline = b == b'\n' || b == b'\r';
        match st {
            S::Row => {
                if !newline {
                    (row, row_line, st) = (i, line, S::CellStart);
                    continue;
                }
            }
            S::CellStart if b == b'"' => (st, open) = (S::Quoted, line),
            S::CellStart | S::Cell => {
                if newline {
                    end_row(i, row, row_line, &mut out);
                    st = S::Row;
                    continue;
                }
                st = if b == delimiter {
                    S::CellStart
                } else {
                    S::Cell
                };
            }
            S::Quoted => {
                if b == b'"' {
                    st = S::QuoteInQuoted;
                }
            }
            S::QuoteInQuoted => {
                if b == b'"' {
                    st = S::Quoted;
                } else {
                    if line > open {
                        out.spans.push(Span {
                            row: row_line,
                            open,
                            close: line,
                        });
                    }
                    st = S::Cell;
                    continue;
                }
            }
        }
        if b == b'\n' {
            line += 1;
        }
        i += 1;
    }
    match st {
        S::Quoted => {
            let last = line - usize::from(text.last() == Some(&b'\n'));
            out.unclosed = Some((open, last - open));
        }
        S::QuoteInQuoted if line > open => out.spans.push(Span {
            row: row_line,
            open,
            close: line,
        }),
        _ => {}
    }
    if st != S::Row {
        end_row(text.len(), row, row_line, &mut out);
    }
    out
}

/// One row of the spreadsheet: a table's result or artificial score in session `s`.
fn row(
    d: &mut Draft,
    s: usize,
    r: &csv::StringRecord,
    cell: &dyn Fn(&csv::StringRecord, &str) -> Option<String>,
    (prefix, per_direction): (bool, bool),
    at: &str,
) {
    let Some(board) = row_board(d, r, cell, at) else {
        return;
    };
    let Some(t) = row_table(d, r, cell, (prefix, per_direction), at, board) else {
        return;
    };
    row_play(d, s, r, cell, t, at);
}

/// A row's board number; `None` (a problem) when it cannot be read.
fn row_board(
    d: &mut Draft,
    r: &csv::StringRecord,
    cell: &dyn Fn(&csv::StringRecord, &str) -> Option<String>,
    at: &str,
) -> Option<u32> {
    let b = cell(r, "board").as_deref().and_then(super::board_number);
    if b.is_none() {
        let found = cell(r, "board").unwrap_or_default();
        d.bad(
            at,
            format!(
                "board: expected a board number 1-{}, found {}",
                super::MAX_BOARD,
                crate::import::quote(&found)
            ),
        );
    }
    b
}

/// A row's table: its board, round and table, its pairs (declared, with their players);
/// `None` (a problem) when they cannot be read.
fn row_table(
    d: &mut Draft,
    r: &csv::StringRecord,
    cell: &dyn Fn(&csv::StringRecord, &str) -> Option<String>,
    (prefix, per_direction): (bool, bool),
    at: &str,
    board: u32,
) -> Option<Table> {
    let section = cell(r, "section");
    let (Some(ns_raw), Some(ew_raw)) = (cell(r, "ns"), cell(r, "ew")) else {
        d.bad(at, "ns and ew: both pairs must be given");
        return None;
    };
    let id = |raw: &str, dir: &str| {
        let mut id = match (&section, prefix) {
            (Some(sec), true) => format!("{sec}{raw}"),
            _ => raw.to_string(),
        };
        if per_direction {
            id.push_str(dir);
        }
        id
    };
    let (ns, ew) = (id(&ns_raw, "NS"), id(&ew_raw, "EW"));
    for (pid, f, n) in [
        (&ns, "ns_players", "ns_player_ids"),
        (&ew, "ew_players", "ew_player_ids"),
    ] {
        let players = cell(r, f).map(|c| draft::players(&c)).unwrap_or_default();
        d.pair(pid, section.as_deref(), players, at);
        if let Some(ids) = cell(r, n) {
            d.player_ids(pid, draft::member_ids(&ids), at);
        }
    }
    let (round, table) = round_table(d, r, cell, at)?;
    Some(Table {
        section: section.clone(),
        board,
        round,
        table,
        ns,
        ew,
        others: None,
    })
}

/// A row's round and table numbers (each `None` when not given); `None` (a problem) when one
/// cannot be read.
fn round_table(
    d: &mut Draft,
    r: &csv::StringRecord,
    cell: &dyn Fn(&csv::StringRecord, &str) -> Option<String>,
    at: &str,
) -> Option<(Option<u32>, Option<u32>)> {
    let num = |f: &str| -> Result<Option<u32>, String> {
        match cell(r, f) {
            None => Ok(None),
            Some(x) => x.parse::<u32>().map(Some).map_err(|_| {
                format!(
                    "{f}: expected a whole number, found {}",
                    crate::import::quote(&x)
                )
            }),
        }
    };
    match (num("round"), num("table")) {
        (Ok(a), Ok(b)) => Some((a, b)),
        (Err(m), _) | (_, Err(m)) => {
            d.bad(at, m);
            None
        }
    }
}

/// A row's play or score at table `t`: a result, an artificial score, or a problem.
fn row_play(
    d: &mut Draft,
    s: usize,
    r: &csv::StringRecord,
    cell: &dyn Fn(&csv::StringRecord, &str) -> Option<String>,
    t: Table,
    at: &str,
) {
    let board = t.board;
    let score_cell = cell(r, "score");
    // An artificial score.
    if let Some(sc) = &score_cell {
        if let Some((a, b)) = artificial(sc) {
            d.artificial(s, t, draft::art_score(&a, &b), sc, at);
            return;
        }
    }
    let score = match &score_cell {
        None => None,
        Some(x) => match x.parse::<i32>() {
            Ok(v) if v.abs() <= 10_000 => Some(v),
            _ => {
                d.bad(at, format!("score: expected NS points such as 420 or -50, or an artificial score such as A6040 or A+/A-, found {}", crate::import::quote(x)));
                return;
            }
        },
    };
    let play = Play {
        score,
        lead: cell(r, "lead"),
        ..Play::default()
    };
    let (tricks_cell, result_cell) = (cell(r, "tricks"), cell(r, "result"));
    let tricks = |c: &crate::bridge::Contract| match (&tricks_cell, &result_cell) {
        (Some(x), _) => match x.parse::<u8>() {
            Ok(n) if n <= 13 => Ok(Some(n)),
            _ => Err(format!(
                "tricks: expected 0-13, found {}",
                crate::import::quote(x)
            )),
        },
        (None, Some(x)) => parse_result_offset(x)
            .map_err(|m| format!("result: {m}"))
            .and_then(|o| {
                c.tricks_for_offset(o)
                    .map(Some)
                    .ok_or_else(|| format!("result: {x} is not possible in {}", Bid::Contract(*c)))
            }),
        (None, None) => Ok(None),
    };
    const LABELS: draft::PlayLabels = draft::PlayLabels {
        contract: "contract",
        declarer: "declarer",
        tricks: "tricks or result",
    };
    // (vulnerability by the board number: a spreadsheet carries no hand record)
    let declarer = cell(r, "declarer");
    match draft::play_or_score(
        play,
        cell(r, "contract").as_deref(),
        declarer.as_deref(),
        tricks,
        vul_of(board),
        &LABELS,
    ) {
        Ok(taken) => {
            // (a play that cannot be read beside a score that can: the score, with a notice)
            let (play, slip) = taken.split();
            d.take(at, slip, |d| d.result(s, t, play, at));
        }
        Err(m) => d.bad(at, m.to_string()),
    }
}

/// An artificial score as a spreadsheet writes it: `A6040`, `A+/A-`, `60%/40%`, or `A`/`A=`
/// (average to both sides).
fn artificial(token: &str) -> Option<(Art, Art)> {
    if let Some(x) = draft::split_art(token) {
        return Some(x);
    }
    let side = |t: &str| -> Option<Art> {
        let t = t.trim();
        draft::named_art(t).or_else(|| {
            t.strip_suffix('%')
                .and_then(draft::number)
                .map(Art::from_pct)
        })
    };
    if let Some((a, b)) = token.split_once('/') {
        return Some((side(a)?, side(b)?));
    }
    match draft::named_art(token) {
        Some(Art::Named("A")) => Some((Art::Named("A"), Art::Named("A"))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req() -> Request {
        Request {
            form: Some("mp".into()),
            ..Request::default()
        }
    }

    #[test]
    fn default_layout() {
        let text = "session,section,board,ns,ew,contract,declarer,tricks,score\n\
                    Day 1,A,1,1,2,4S,N,10,420\n\
                    Day 1,A,1,3,4,PO,,,\n\
                    Day 1,A,2,1,2,,,,A6040\n";
        let p = read_parsed(text.as_bytes(), "t.csv", &req(), &Columns::default()).unwrap();
        let events = p.values();
        let kinds: Vec<_> = events
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            kinds,
            ["session", "pair", "pair", "pair", "pair", "result", "result", "ruling"]
        );
        assert_eq!(events[7]["score"], "A+/A-");
        assert_eq!(p.origins[5], "line 2");
    }

    #[test]
    fn mapped_layout_semicolons() {
        let text = "Rnd;Brd;NS Pair;EW Pair;Contract;By;Res\n1;3;5;6;3NTx;S;-2\n";
        let cols =
            Columns::parse("board=Brd, ns=NS Pair, ew=EW Pair, declarer=By, result=Res, round=Rnd")
                .unwrap();
        let p = read_parsed(text.as_bytes(), "t.csv", &req(), &cols).unwrap();
        let events = p.values();
        let r = events.iter().find(|e| e["type"] == "result").unwrap();
        assert_eq!(r["contract"], "3NTX");
        assert_eq!(r["tricks"], 7);
        assert_eq!(r["round"], 1);
    }

    #[test]
    fn quotes_and_rows_are_looked_at() {
        let sh = |t: &str| shape(t.as_bytes(), b',');
        assert_eq!(
            sh("a,b\n1,\"x, y\"\n2,\"say \"\"hi\"\"\"\n"),
            Shape::default()
        );
        // (a quote inside a cell is a character: only at a cell's start does one open)
        assert_eq!(sh("a,b\n1,x\"y\n2,3\n"), Shape::default());
        assert_eq!(
            sh("a,b\n1,\"Anna\n2,3\n4,5\n").unclosed,
            Some((2, 2)),
            "opened on line 2, lines 3 and 4 after it"
        );
        assert_eq!(sh("a\n\"x").unclosed, Some((2, 0)));
        let s = sh("a,b\n1,\"Anna\n2,3\n4,5\"\n6,7\n");
        assert_eq!(s.unclosed, None);
        assert_eq!(
            s.spans,
            [Span {
                row: 2,
                open: 2,
                close: 4
            }]
        );
        let s = sh("a,b\r\n\r\n1,\"x\r\ny\"");
        assert_eq!(
            s.spans,
            [Span {
                row: 3,
                open: 3,
                close: 4
            }]
        );
        let long = format!("a,b\n1,{}\n", "x".repeat(crate::limits::MAX_CSV_ROW_BYTES));
        assert_eq!(
            sh(&long).long,
            Some((2, crate::limits::MAX_CSV_ROW_BYTES + 2))
        );
        assert_eq!(shape(b"a;b\n1;\"x;y\n", b';').unclosed, Some((2, 0)));
    }

    #[test]
    fn errors_name_their_line() {
        let text =
            "board,ns,ew,contract,declarer,tricks,score\n1,1,2,4S,N,10,420\n1,3,4,4S,N,9,420\n";
        let e = read_parsed(text.as_bytes(), "t.csv", &req(), &Columns::default()).unwrap_err();
        assert_eq!(e[0].at, "line 3");
        assert!(e[0].message.contains("contradicts"), "{}", e[0].message);
        assert!(Columns::parse("boards=B").is_err());
    }
}
