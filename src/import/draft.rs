//! A file's championship as a reader finds it, before it is events: pairs, sessions, and each
//! session's deals, results and artificial scores, checked as they are added (a pair never
//! declared, a board twice at one table, a score that contradicts its contract and result), then
//! turned into the log's own events (`finish`). Shared by the PBN and CSV readers; the token
//! rules producers share (contracts such as `3D*` or `PO`, artificial scores such as `^60`,
//! `A+` or `A6040`) are here too.

use std::collections::{BTreeSet, HashMap};

use serde_json::{json, Map, Value};

use super::{Ev, Parsed, Problem, Request, Row};
use crate::bridge::{ns_points, parse_contract, Bid, Seat, Vul};
use crate::num::Q;
use crate::options::{Form, Options};

/// One pair as a file declares it.
struct PairDraft {
    id: String,
    section: Option<String>,
    players: Vec<String>,
    at: String,
}

/// One session of a file.
pub(crate) struct SessionDraft {
    pub name: Option<String>,
    /// The session event's `note` (a BWS session's identity, for live scoring).
    pub note: Option<String>,
    /// The form the file declares, and where.
    pub form: Option<(String, String)>,
    /// Options the file implies.
    pub options: Map<String, Value>,
    pub compare: Option<String>,
    boards: BTreeSet<u32>,
    /// Deals, results and rulings (without `session`, rulings without `id`), with their place.
    events: Vec<(Ev, String)>,
    /// Each pair id a table names, numbered.
    seat_ids: crate::hash::FxMap<String, u32>,
    /// (board, pair number) of every table entered, NS or EW side: its event's index.
    seats: crate::hash::FxMap<(u32, u32), usize>,
    deals: HashMap<u32, (String, String)>,
}

/// What a reader found, and its problems.
pub(crate) struct Draft {
    pub file: String,
    lenient: bool,
    pub problems: Vec<Problem>,
    pub skipped: Vec<Problem>,
    pub championship: Map<String, Value>,
    pairs: Vec<PairDraft>,
    pair_index: crate::hash::FxMap<String, usize>,
    pub sessions: Vec<SessionDraft>,
}

/// A table's play as a file gives it (canonical strings, checked).
#[derive(Default, Clone)]
pub(crate) struct Play {
    pub contract: Option<String>,
    pub declarer: Option<String>,
    pub tricks: Option<u8>,
    pub result: Option<String>,
    pub score: Option<i32>,
    pub lead: Option<String>,
}

/// Where a table sits.
#[derive(Default, Clone)]
pub(crate) struct Table {
    pub section: Option<String>,
    pub board: u32,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub ns: String,
    pub ew: String,
}

impl Draft {
    pub fn new(file: &str, req: &Request) -> Draft {
        Draft {
            file: file.to_string(),
            lenient: req.lenient,
            problems: Vec::new(),
            skipped: Vec::new(),
            championship: Map::new(),
            pairs: Vec::new(),
            pair_index: Default::default(),
            sessions: Vec::new(),
        }
    }

    /// A problem that refuses the file.
    pub fn fail(&mut self, at: &str, message: impl Into<String>) {
        self.problems.push(Problem {
            file: self.file.clone(),
            at: at.to_string(),
            message: message.into(),
        });
    }

    /// A problem in one row or game: skipped (and said) with `--lenient`, else it refuses the
    /// file.
    pub fn bad(&mut self, at: &str, message: impl Into<String>) {
        let p = Problem {
            file: self.file.clone(),
            at: at.to_string(),
            message: message.into(),
        };
        if self.lenient {
            self.skipped.push(p);
        } else {
            self.problems.push(p);
        }
    }

    pub fn session(&mut self) -> usize {
        self.sessions.push(SessionDraft {
            name: None,
            note: None,
            form: None,
            options: Map::new(),
            compare: None,
            boards: BTreeSet::new(),
            events: Vec::new(),
            seat_ids: Default::default(),
            seats: Default::default(),
            deals: HashMap::new(),
        });
        self.sessions.len() - 1
    }

    pub fn session_mut(&mut self, s: usize) -> &mut SessionDraft {
        &mut self.sessions[s]
    }

    /// Boards the session plays besides those of its results (a movement's, known before
    /// they are played).
    pub fn add_boards(&mut self, s: usize, boards: impl IntoIterator<Item = u32>) {
        self.sessions[s].boards.extend(boards);
    }

    /// Declare pair `id` (or add what this place says of it: players where none were known).
    /// The same id in another section, or with other players, is a problem. Its number (one
    /// per id, for [`Draft::push_paired`]).
    pub fn pair<'p>(
        &mut self,
        id: &str,
        section: Option<&str>,
        players: impl Into<std::borrow::Cow<'p, [String]>>,
        at: &str,
    ) -> u32 {
        let players: std::borrow::Cow<'p, [String]> = players.into();
        if let Some(&i) = self.pair_index.get(id) {
            let p = &self.pairs[i];
            if section.is_some() && p.section.as_deref() != section {
                let m = format!(
                    "pair {id} is in section {} here but in {} at {}",
                    section.unwrap_or("-"),
                    p.section.as_deref().unwrap_or("no section"),
                    p.at
                );
                self.fail(at, m);
                return i as u32;
            }
            if !players.is_empty() {
                if p.players.is_empty() {
                    self.pairs[i].players = players.into_owned();
                } else if *p.players != *players {
                    let m = format!(
                        "pair {id} is {} here but {} at {}",
                        players.join(" - "),
                        p.players.join(" - "),
                        p.at
                    );
                    self.fail(at, m);
                }
            }
            return i as u32;
        }
        let n = self.pairs.len();
        self.pair_index.insert(id.to_string(), n);
        self.pairs.push(PairDraft {
            id: id.to_string(),
            section: section.map(str::to_string),
            players: players.into_owned(),
            at: at.to_string(),
        });
        n as u32
    }

    /// Checks that a table is new: neither pair has played `board` already this session, and
    /// the two pairs differ. `false` (with the problem) otherwise.
    fn seat(&mut self, s: usize, t: &Table, at: &str) -> bool {
        let ss = &mut self.sessions[s];
        let mut numbers = [0; 2];
        for (n, id) in numbers.iter_mut().zip([&t.ns, &t.ew]) {
            *n = match ss.seat_ids.get(id.as_str()) {
                Some(&n) => n,
                None => {
                    let n = ss.seat_ids.len() as u32;
                    ss.seat_ids.insert(id.clone(), n);
                    n
                }
            };
        }
        self.seat_numbered(s, t, numbers, at)
    }

    /// [`Draft::seat`] with the two pairs' numbers (any numbering of the session's pair ids,
    /// one number per id).
    fn seat_numbered(&mut self, s: usize, t: &Table, numbers: [u32; 2], at: &str) -> bool {
        if t.ns == t.ew {
            self.bad(at, format!("pair {} cannot play against itself", t.ns));
            return false;
        }
        let ss = &mut self.sessions[s];
        let keys = numbers.map(|n| (t.board, n));
        for (k, id) in keys.iter().zip([&t.ns, &t.ew]) {
            if let Some(&first) = ss.seats.get(k) {
                let first = ss.events[first].1.clone();
                let m = format!("pair {id} plays board {} twice (also at {first})", t.board);
                self.bad(at, m);
                return false;
            }
        }
        // (the event the caller adds next)
        let next = ss.events.len();
        for k in keys {
            ss.seats.insert(k, next);
        }
        true
    }

    /// A table's result.
    pub fn result(&mut self, s: usize, t: Table, play: Play, at: &str) {
        let row = result_row(&t, &play);
        self.push(s, &t, row, at.to_string());
    }

    /// An artificial score at a table (no result): a `ruling`, law 12C, noting the file's
    /// token.
    pub fn artificial(&mut self, s: usize, t: Table, score: String, token: &str, at: &str) {
        let row = artificial_row(&t, &score, token);
        self.push(s, &t, row, at.to_string());
    }

    /// A table's event made by [`result_row`] or [`artificial_row`] (beforehand, perhaps on
    /// another thread), added to session `s` if the table is new (`seat`).
    pub fn push(&mut self, s: usize, t: &Table, row: Row, at: String) {
        if !self.seat(s, t, &at) {
            return;
        }
        let ss = &mut self.sessions[s];
        ss.boards.insert(t.board);
        ss.events.push((Ev::Row(row), at));
    }

    /// [`Draft::push`] of a table whose pairs' numbers [`Draft::pair`] gave (a reader uses
    /// this or `push`, `result` and `artificial`, never both: the numberings differ).
    pub fn push_paired(&mut self, s: usize, t: &Table, pairs: [u32; 2], row: Row, at: String) {
        if !self.seat_numbered(s, t, pairs, &at) {
            return;
        }
        let ss = &mut self.sessions[s];
        ss.boards.insert(t.board);
        ss.events.push((Ev::Row(row), at));
    }

    /// A board's hand record (once a board; the same deal again is fine, another is a problem).
    pub fn deal(
        &mut self,
        s: usize,
        board: u32,
        pbn: &str,
        dealer: Option<Seat>,
        vul: Option<Vul>,
        at: &str,
    ) {
        if let Err(m) = crate::event::read::check_pbn_deal(pbn) {
            self.bad(at, format!("[Deal]: {m}"));
            return;
        }
        if let Some((first, first_at)) = self.sessions[s].deals.get(&board) {
            if first != pbn {
                let m = format!("board {board} has another deal at {first_at}");
                self.fail(at, m);
            }
            return;
        }
        let mut m = Map::new();
        m.insert("type".into(), Value::from("deal"));
        m.insert("board".into(), Value::from(board));
        m.insert("pbn".into(), Value::from(pbn));
        if let Some(d) = dealer {
            m.insert("dealer".into(), Value::from(d.letter().to_string()));
        }
        if let Some(v) = vul {
            m.insert("vul".into(), Value::from(v.as_str()));
        }
        let ss = &mut self.sessions[s];
        ss.deals.insert(board, (pbn.to_string(), at.to_string()));
        ss.events.push((Ev::Json(Value::Object(m)), at.to_string()));
    }

    /// The events: the championship (when the file names one), then each session (`S1`, `S2`,
    /// ...: its form and options resolved with the user's flags) with, for the first, every
    /// pair, then its deals, results and artificial scores (rulings `R1`, `R2`, ...).
    pub fn finish(mut self, req: &Request) -> Result<Parsed, Vec<Problem>> {
        let mut events: Vec<Ev> = Vec::new();
        let mut origins: Vec<String> = Vec::new();
        if !self.championship.is_empty() {
            let mut m = Map::new();
            m.insert("type".into(), Value::from("championship"));
            m.extend(std::mem::take(&mut self.championship));
            events.push(Ev::Json(Value::Object(m)));
            origins.push("line 1".into());
        }
        if self.sessions.iter().all(|s| s.events.is_empty()) && self.problems.is_empty() {
            self.fail(
                "file",
                "no results found (PBN: no ScoreTable; CSV: no rows; BWS: no result in ReceivedData yet)",
            );
        }
        let mut ruling = 0;
        let mut pairs_done = false;
        let sessions = std::mem::take(&mut self.sessions);
        for (i, s) in sessions.into_iter().enumerate() {
            if s.events.is_empty() {
                continue;
            }
            let id = format!("S{}", i + 1);
            let (form, options) = match resolve(&s, req) {
                Ok(x) => x,
                Err((at, m)) => {
                    self.fail(&at, m);
                    continue;
                }
            };
            let mut m = Map::new();
            m.insert("type".into(), Value::from("session"));
            m.insert("id".into(), Value::from(id.as_str()));
            if let Some(n) = &s.name {
                m.insert("name".into(), Value::from(n.as_str()));
            }
            m.insert("form".into(), Value::from(form));
            m.insert("boards".into(), boards_value(&s.boards));
            let compare = req.compare.clone().or(s.compare.clone());
            if let Some(c) = compare {
                m.insert("compare".into(), Value::from(c));
            }
            if let Some(n) = &s.note {
                m.insert("note".into(), Value::from(n.as_str()));
            }
            if !options.is_empty() {
                m.insert("options".into(), Value::Object(options));
            }
            events.push(Ev::Json(Value::Object(m)));
            origins.push(
                s.form
                    .as_ref()
                    .map(|f| f.1.clone())
                    .unwrap_or("file".into()),
            );
            if i == 0 || !pairs_done {
                pairs_done = !self.pairs.is_empty();
                for p in &self.pairs {
                    let mut m = Map::new();
                    m.insert("type".into(), Value::from("pair"));
                    m.insert("id".into(), Value::from(p.id.as_str()));
                    if let Some(sec) = &p.section {
                        m.insert("section".into(), Value::from(sec.as_str()));
                    }
                    if !p.players.is_empty() {
                        m.insert("players".into(), json!(p.players));
                    }
                    events.push(Ev::Json(Value::Object(m)));
                    origins.push(p.at.clone());
                }
            }
            events.reserve(s.events.len());
            origins.reserve(s.events.len());
            for (e, at) in s.events {
                match e {
                    Ev::Row(mut r) => {
                        if r.ruling {
                            ruling += 1;
                            r.id = Some(format!("R{ruling}"));
                        }
                        r.session = id.clone();
                        events.push(Ev::Row(r));
                    }
                    Ev::Json(Value::Object(mut m)) => {
                        // `type` first, then (a ruling's `id` and) `session`, as a hand would
                        // write it.
                        let ty = m.shift_remove("type").unwrap_or(Value::Null);
                        let mut next = 1;
                        if ty == "ruling" {
                            ruling += 1;
                            m.shift_insert(0, "id".into(), Value::from(format!("R{ruling}")));
                            next = 2;
                        }
                        m.shift_insert(0, "type".into(), ty);
                        m.shift_insert(next, "session".into(), Value::from(id.as_str()));
                        events.push(Ev::Json(Value::Object(m)));
                    }
                    e @ Ev::Json(_) => events.push(e),
                }
                origins.push(at);
            }
        }
        if !self.problems.is_empty() {
            self.problems.sort();
            return Err(self.problems);
        }
        Ok(Parsed {
            events,
            skipped: self.skipped,
            origins,
        })
    }
}

/// A table's `result` event (without its session), as [`Draft::result`] adds it.
pub(crate) fn result_row(t: &Table, play: &Play) -> Row {
    let mut r = Row::new(false);
    if let Some(sec) = &t.section {
        r.str("section", sec);
    }
    r.num("board", t.board.into());
    if let Some(x) = t.round {
        r.num("round", x.into());
    }
    if let Some(x) = t.table {
        r.num("table", x.into());
    }
    r.str("ns", &t.ns).str("ew", &t.ew);
    if let Some(c) = &play.contract {
        r.str("contract", c);
    }
    if let Some(d) = &play.declarer {
        r.str("declarer", d);
    }
    if let Some(x) = play.tricks {
        r.num("tricks", x.into());
    }
    if let Some(x) = &play.result {
        r.str("result", x);
    }
    if let Some(x) = play.score {
        r.num("score", x.into());
    }
    if let Some(l) = &play.lead {
        r.str("lead", l);
    }
    r
}

/// A table's artificial score as a `ruling` event (without its id and session), law 12C,
/// noting the file's token, as [`Draft::artificial`] adds it.
pub(crate) fn artificial_row(t: &Table, score: &str, token: &str) -> Row {
    let mut r = Row::new(true);
    r.num("board", t.board.into())
        .str("ns", &t.ns)
        .str("ew", &t.ew)
        .str("score", score)
        .str("law", "12C")
        .str("note", &format!("imported: {token}"));
    r
}

/// A session's form and options: the user's `--form` where given (the file's options are then
/// kept only if the form is the file's), else the file's; `--options` merged over them and
/// checked against the form.
fn resolve(
    s: &SessionDraft,
    req: &Request,
) -> Result<(String, Map<String, Value>), (String, String)> {
    let file_form = s.form.as_ref().map(|f| f.0.clone());
    let form = match (&req.form, &file_form) {
        (Some(f), _) => f.clone(),
        (None, Some(f)) => f.clone(),
        (None, None) => {
            return Err((
                "file".into(),
                "the file does not say how it is scored: give --form (mp, ximp, butler, ...)"
                    .into(),
            ))
        }
    };
    let Some(parsed) = Form::parse(&form) else {
        return Err((
            "--form".into(),
            format!(
                "unknown form \"{form}\" (expected one of {})",
                Form::ALL.map(|f| f.0).join(", ")
            ),
        ));
    };
    let mut options = if file_form.as_deref() == Some(form.as_str()) {
        s.options.clone()
    } else {
        Map::new()
    };
    for (k, v) in &req.options {
        options.insert(k.clone(), v.clone());
    }
    let (_, errors) = Options::from_json(parsed, &options);
    if let Some(e) = errors.first() {
        let at = if req.options.contains_key(&e.option) {
            "--options".to_string()
        } else {
            s.form
                .as_ref()
                .map(|f| f.1.clone())
                .unwrap_or("file".into())
        };
        return Err((at, format!("option \"{}\": {}", e.option, e.message)));
    }
    Ok((form, options))
}

/// Boards as the session event writes them: a range `"1-24"` when they run without a gap.
fn boards_value(b: &BTreeSet<u32>) -> Value {
    let (Some(&lo), Some(&hi)) = (b.first(), b.last()) else {
        return Value::Array(Vec::new());
    };
    if (hi - lo + 1) as usize == b.len() {
        Value::from(format!("{lo}-{hi}"))
    } else {
        Value::Array(b.iter().map(|&x| Value::from(x)).collect())
    }
}

/// Whether a file numbers its NS and EW pairs each from 1 (a Mitchell: NS pair 1 and EW pair
/// 1 are two pairs): some pair number stands on both sides of one board, which one pair
/// cannot. Such files' ids are then the number and the direction (`1NS`, `1EW`, as USEBIO
/// writes them).
pub(crate) fn per_direction<K: std::hash::Hash + Eq>(
    tables: impl Iterator<Item = (u32, K, K)>,
) -> bool {
    let mut seen: crate::hash::FxMap<(u32, K), bool> = Default::default();
    for (board, ns, ew) in tables {
        if ns == ew {
            return true;
        }
        if seen.insert((board, ns), true) == Some(false)
            || seen.insert((board, ew), false) == Some(true)
        {
            return true;
        }
    }
    false
}

/// A contract as producers write it, in the log's spelling: `PO`, `Pass`, `AP` for passed out;
/// `*`/`**` (Bridgewebs) or `x`/`xx` for doubled and redoubled; suit symbols and `NT`/`N`.
pub(crate) fn contract(token: &str) -> Result<Bid, String> {
    let t = token.trim();
    let up = t.to_uppercase().replace(' ', "");
    if matches!(
        up.as_str(),
        "PO" | "PASS" | "AP" | "P" | "ALLPASS" | "PASSED" | "0"
    ) {
        return Ok(Bid::Pass);
    }
    let stars = up.len() - up.trim_end_matches('*').len();
    let mut c = up.trim_end_matches('*').to_string();
    match stars {
        0 => {}
        1 => c.push('X'),
        2 => c.push_str("XX"),
        _ => {
            return Err(format!(
                "expected a contract such as \"4S\", \"3D*\" or \"PO\", found {t:?}"
            ))
        }
    }
    parse_contract(&c)
}

/// What a file calls the cells of a table's play, for messages (`Contract` in PBN, `contract`
/// in a spreadsheet).
pub(crate) struct PlayLabels {
    pub contract: &'static str,
    pub declarer: &'static str,
    /// What to give when a contract has no tricks (`Result`; `tricks or result`).
    pub tricks: &'static str,
}

/// A table's play from a file's cells, checked: a contract needs its declarer and the tricks
/// (`tricks` reads them for the contract from the file's own cells; `Ok(None)` when it gives
/// none), and a score given beside it must be what Law 77 gives (`vul`); a passed-out board
/// scores 0; a table needs a contract or a score. `Err`: the message.
pub(crate) fn play_at(
    mut play: Play,
    contract: Option<&str>,
    declarer: Option<&str>,
    tricks: impl FnOnce(&crate::bridge::Contract) -> Result<Option<u8>, String>,
    vul: Vul,
    labels: &PlayLabels,
) -> Result<Play, String> {
    let Some(ct) = contract else {
        if play.score.is_none() {
            return Err(
                "neither a contract nor a score: nothing says what happened at this table".into(),
            );
        }
        return Ok(play);
    };
    let bid = self::contract(ct).map_err(|m| format!("{}: {m}", labels.contract))?;
    play.contract = Some(bid.to_string());
    match bid {
        Bid::Contract(c) => {
            let by = match declarer.map(crate::bridge::parse_seat) {
                Some(Ok(x)) => x,
                Some(Err(m)) => return Err(format!("{}: {m}", labels.declarer)),
                None => {
                    return Err(format!(
                        "{}: {ct} needs a declarer (N, E, S or W)",
                        labels.declarer
                    ))
                }
            };
            play.declarer = Some(by.letter().to_string());
            let taken = tricks(&c)?
                .ok_or_else(|| format!("{}: {ct} needs the tricks taken", labels.tricks))?;
            play.tricks = Some(taken);
            if let Some(sc) = play.score {
                check_score(bid, Some(by), taken, vul, sc)?;
            }
        }
        Bid::Pass => {
            if let Some(sc) = play.score.filter(|&x| x != 0) {
                return Err(format!("the score {sc} contradicts a passed-out board (0)"));
            }
        }
    }
    Ok(play)
}

/// The NS points a file gives for a table checked against its contract, declarer and tricks:
/// `Err` naming both when they differ.
pub(crate) fn check_score(
    bid: Bid,
    declarer: Option<Seat>,
    tricks: u8,
    vul: Vul,
    score: i32,
) -> Result<(), String> {
    let by = declarer.unwrap_or(Seat::N);
    let expected = ns_points(bid, by, tricks, vul);
    if expected == score {
        return Ok(());
    }
    Err(format!(
        "the score {score} (NS) contradicts {bid}{} with {tricks} tricks, which scores {expected} for NS (vulnerable: {})",
        declarer.map(|d| format!(" by {d}")).unwrap_or_default(),
        vul.as_str()
    ))
}

/// One side's artificial score.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Art {
    /// `A+`, `A` or `A-`.
    Named(&'static str),
    /// A percentage.
    Pct(Q),
}

impl Art {
    /// The named averages files write as percentages (60, 50, 40) are the named artificial
    /// scores (interface.md); any other percentage is itself.
    pub fn from_pct(p: Q) -> Art {
        if p == Q::int(60) {
            Art::Named("A+")
        } else if p == Q::int(50) {
            Art::Named("A")
        } else if p == Q::int(40) {
            Art::Named("A-")
        } else {
            Art::Pct(p)
        }
    }

    fn notation(&self) -> String {
        match self {
            Art::Named(n) => n.to_string(),
            Art::Pct(p) => format!("{}%", decimal(*p)),
        }
    }
}

/// `NS/EW` in the adjusted-score notation.
pub(crate) fn art_score(ns: &Art, ew: &Art) -> String {
    format!("{}/{}", ns.notation(), ew.notation())
}

/// A rational as a decimal of at most 4 places (exact when it has no more).
pub(crate) fn decimal(q: Q) -> String {
    let x = q.to_f64();
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// A named artificial score as producers write it in a score or result column: `A+`, `A-`,
/// `A=`, `A` (Bridgewebs, Magic Contest), `Ave+`, `Av-`...; `None` for anything else.
pub(crate) fn named_art(token: &str) -> Option<Art> {
    let up = token.trim().to_ascii_uppercase();
    let core = up
        .strip_prefix("AVE")
        .or_else(|| up.strip_prefix("AV"))
        .or_else(|| up.strip_prefix('A'))?;
    match core {
        "+" => Some(Art::Named("A+")),
        "-" => Some(Art::Named("A-")),
        "=" | "" => Some(Art::Named("A")),
        _ => None,
    }
}

/// `A6040`: an artificial score of NS 60% and EW 40% (USEBIO's spelling, also in spreadsheets).
pub(crate) fn split_art(token: &str) -> Option<(Art, Art)> {
    let t = token.trim();
    let d = t.strip_prefix('A').or_else(|| t.strip_prefix('a'))?;
    if d.len() != 4 || !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ns: i64 = d[..2].parse().ok()?;
    let ew: i64 = d[2..].parse().ok()?;
    Some((Art::from_pct(Q::int(ns)), Art::from_pct(Q::int(ew))))
}

/// A decimal number as a file writes it (`3.6`, `-20`, `"420"` already unquoted; a decimal
/// comma is accepted).
pub(crate) fn number(token: &str) -> Option<Q> {
    let t = token.trim().replace(',', ".");
    let t = t.strip_prefix('+').unwrap_or(&t);
    if t.is_empty() || t.len() > 30 || t.contains('/') {
        return None;
    }
    Q::parse(t)
}

/// Players' names as one cell writes them: `"Anna Nowak - Jan Kowalski"`, `&`, `/` or `+`
/// between them; empty when the cell says nothing.
pub(crate) fn players(cell: &str) -> Vec<String> {
    let t = cell.trim();
    if t.is_empty() || t == "-" || t == "?" {
        return Vec::new();
    }
    for sep in [" - ", " & ", " / ", " + ", " and ", " – "] {
        if t.contains(sep) {
            return t
                .split(sep)
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
        }
    }
    vec![t.to_string()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contracts_as_producers_write_them() {
        let c = |t: &str| contract(t).map(|b| b.to_string());
        assert_eq!(c("PO").unwrap(), "PASS");
        assert_eq!(c("3D*").unwrap(), "3DX");
        assert_eq!(c("3D**").unwrap(), "3DXX");
        assert_eq!(c("4Sx").unwrap(), "4SX");
        assert_eq!(c("4sxx").unwrap(), "4SXX");
        assert_eq!(c("3NT").unwrap(), "3NT");
        assert!(c("8S").is_err());
        assert!(c("3D***").is_err());
    }

    #[test]
    fn scores_checked_by_law_77() {
        let four_s = contract("4S").unwrap();
        // 4S made with 10 tricks not vulnerable: 420 (Law 77 by hand: 120 + 300).
        assert!(check_score(four_s, Some(Seat::N), 10, Vul::None, 420).is_ok());
        assert!(check_score(four_s, Some(Seat::E), 10, Vul::None, -420).is_ok());
        let e = check_score(four_s, Some(Seat::N), 9, Vul::None, 420).unwrap_err();
        assert!(e.contains("-50"), "{e}");
    }

    #[test]
    fn artificial_tokens() {
        assert_eq!(named_art("A+"), Some(Art::Named("A+")));
        assert_eq!(named_art("A="), Some(Art::Named("A")));
        assert_eq!(named_art("A"), Some(Art::Named("A")));
        assert_eq!(named_art("Ave-"), Some(Art::Named("A-")));
        assert_eq!(named_art("420"), None);
        assert_eq!(
            split_art("A6040"),
            Some((Art::Named("A+"), Art::Named("A-")))
        );
        let (ns, ew) = split_art("A7030").unwrap();
        assert_eq!(art_score(&ns, &ew), "70%/30%");
        assert_eq!(
            art_score(&Art::from_pct(Q::int(60)), &Art::from_pct(Q::int(60))),
            "A+/A+"
        );
    }

    #[test]
    fn names_split() {
        assert_eq!(
            players("Anna Nowak - Jan Kowalski"),
            ["Anna Nowak", "Jan Kowalski"]
        );
        assert_eq!(players("A & B"), ["A", "B"]);
        assert!(players("-").is_empty());
    }
}
