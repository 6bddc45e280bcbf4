//! A file's championship as a reader finds it, before it is events: pairs, sessions, and each
//! session's deals, results and artificial scores, checked as they are added (a pair never
//! declared, a board twice at one table, a score that contradicts its contract and result), then
//! turned into the log's own events (`finish`). Shared by the PBN and CSV readers; the token
//! rules producers share (contracts such as `3D*` or `PO`, artificial scores such as `^60`,
//! `A+` or `A6040`) are here too.

use std::collections::{BTreeSet, HashMap};

use serde_json::{json, Map, Value};

use super::{Ev, Parsed, Problem, Request, Row};

mod finish;
mod ids;
mod teams;
mod tokens;
use crate::bridge::{Seat, Vul};
use crate::score::Form;
pub(crate) use tokens::*;

/// One pair (or team) as a file declares it.
struct PairDraft {
    id: String,
    section: Option<String>,
    players: Vec<String>,
    /// Beside `players`, their federation member numbers (`ids`; empty: none known).
    ids: Vec<Option<String>>,
    /// A team ([`Draft::team`]): its name, when the file gives one.
    team: Option<Option<String>>,
    /// The names its players were copied from ([`Draft::pair_named`]; 0: none).
    from: usize,
    at: String,
    /// A player of an individual session ([`Draft::player`]): its `player` event.
    player: bool,
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
    /// Each board's tables entered (teams: each board's and room's, [`seat_key`]): pair number
    /// (NS or EW side) → its event's index.
    seats: crate::hash::FxMap<u32, crate::hash::FxMap<u32, u32>>,
    deals: HashMap<u32, (String, String)>,
    /// A team session's matches, in the order declared ([`Draft::team_match`]).
    matches: Vec<MatchDraft>,
    /// Events a file's session note gives (`export::notes`): before the tables (a team
    /// session's matches) and after them (penalties, fouled boards), with their places.
    pub head: Vec<(Ev, String)>,
    pub tail: Vec<(Ev, String)>,
    /// Fields of the session event the note gives beyond those above (`carry`).
    pub extra: Map<String, Value>,
    /// The session's kind when it seats four players (its tables' `others`), written as the
    /// session's `kind` when it is not its form's.
    pub kind: Option<&'static crate::kind::Plug>,
}

/// One match of a team session: its id, home and away teams, boards, and where it is first
/// met.
struct MatchDraft {
    id: String,
    home: String,
    away: String,
    boards: BTreeSet<u32>,
    at: String,
}

/// The key of a board's seats in one room (0: a pairs table, 1: the open room, 2: the closed
/// room): a team plays a board once in each room.
fn seat_key(board: u32, room: u32) -> u32 {
    board | (room << 16)
}

/// What a reader found, and its problems.
pub(crate) struct Draft {
    pub file: String,
    lenient: bool,
    pub problems: Vec<Problem>,
    pub skipped: Vec<Problem>,
    /// What was taken with a notice (`notice`).
    pub notices: Vec<Problem>,
    /// `--strict`: what would be taken with a notice is refused.
    pub strict: bool,
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
    /// An individual session's South and West (`ns` is North, `ew` East).
    pub others: Option<[String; 2]>,
}

/// A [`Table`] borrowed: where a table sits, its text wherever the reader keeps it.
#[derive(Clone, Copy)]
pub(crate) struct TableView<'a> {
    pub section: Option<&'a str>,
    pub board: u32,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub ns: &'a str,
    pub ew: &'a str,
    pub others: Option<[&'a str; 2]>,
}

impl Table {
    pub fn view(&self) -> TableView<'_> {
        TableView {
            section: self.section.as_deref(),
            board: self.board,
            round: self.round,
            table: self.table,
            ns: &self.ns,
            ew: &self.ew,
            others: self.others.as_ref().map(|[s, w]| [s.as_str(), w.as_str()]),
        }
    }
}

impl Draft {
    pub fn new(file: &str, req: &Request) -> Draft {
        Draft {
            file: file.to_string(),
            lenient: req.lenient,
            problems: Vec::new(),
            skipped: Vec::new(),
            notices: Vec::new(),
            strict: req.strict,
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

    /// Something the director should know of, that does not refuse the file.
    pub fn notice(&mut self, at: &str, message: impl Into<String>) {
        self.notices.push(Problem {
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
            matches: Vec::new(),
            head: Vec::new(),
            tail: Vec::new(),
            extra: Map::new(),
            kind: None,
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
        self.pair_named(id, section, players.into(), 0, at)
    }

    /// [`Draft::pair`] of players that are, when `from` is not 0, the names kept at address
    /// `from` by the reader for the whole of its reading and never changed (a pair declared
    /// again with the very same names needs no comparison of them).
    pub fn pair_named(
        &mut self,
        id: &str,
        section: Option<&str>,
        players: std::borrow::Cow<'_, [String]>,
        from: usize,
        at: &str,
    ) -> u32 {
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
                    self.pairs[i].from = from;
                } else if from != 0 && p.from == from {
                    // (the same names)
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
            ids: Vec::new(),
            team: None,
            from,
            at: at.to_string(),
            player: false,
        });
        n as u32
    }

    /// Declare player `id` of an individual session, with its name and member number when
    /// the file gives them (as [`Draft::pair`] declares a pair of one player).
    pub fn player(
        &mut self,
        id: &str,
        section: Option<&str>,
        (name, member): (Option<String>, Option<String>),
        at: &str,
    ) {
        let names: Vec<String> = name.into_iter().collect();
        let i = self.pair(id, section, names, at) as usize;
        self.pairs[i].player = true;
        if let Some(m) = member {
            self.player_ids(id, vec![Some(m)], at);
        }
    }

    /// Checks that a table is new: neither pair has played `board` already this session, and
    /// the two pairs differ. `false` (with the problem) otherwise.
    fn seat(&mut self, s: usize, t: &Table, at: &str) -> bool {
        if let Some([south, west]) = &t.others {
            return self.seat_four(s, t.board, [&t.ns, south, &t.ew, west], at);
        }
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
        self.seat_numbered(s, t.board, [&t.ns, &t.ew], numbers, at)
    }

    /// [`Draft::seat`] of the pairs `ids` (NS, EW) at `board` with their numbers (any
    /// numbering of the session's pair ids, one number per id).
    fn seat_numbered(
        &mut self,
        s: usize,
        board: u32,
        ids: [&str; 2],
        numbers: [u32; 2],
        at: &str,
    ) -> bool {
        self.seat_in(s, (board, 0), ids, numbers, at)
    }

    /// [`Draft::seat_numbered`] in room `room` (0: a pairs table; 1, 2: a team match's open
    /// and closed rooms, where each team plays the board once).
    fn seat_in(
        &mut self,
        s: usize,
        (board, room): (u32, u32),
        ids: [&str; 2],
        numbers: [u32; 2],
        at: &str,
    ) -> bool {
        let who = if room == 0 { "pair" } else { "team" };
        if ids[0] == ids[1] {
            self.bad(at, format!("{who} {} cannot play against itself", ids[0]));
            return false;
        }
        let ss = &mut self.sessions[s];
        // (the event the caller adds next) Both seats taken at once; a seat found taken is
        // given back, with the other's when it was taken here.
        let next = ss.events.len() as u32;
        let seats = ss.seats.entry(seat_key(board, room)).or_default();
        let mut taken = None;
        for (j, &k) in numbers.iter().enumerate() {
            if let Some(first) = seats.insert(k, next) {
                seats.insert(k, first);
                if j == 1 {
                    seats.remove(&numbers[0]);
                }
                taken = Some((j, first));
                break;
            }
        }
        if let Some((j, first)) = taken {
            let first = ss.events[first as usize].1.clone();
            let in_room = ["", " in the open room", " in the closed room"][room as usize];
            let m = format!(
                "{who} {} plays board {board} twice{in_room} (also at {first})",
                ids[j]
            );
            self.bad(at, m);
            return false;
        }
        true
    }

    /// A table's result.
    pub fn result(&mut self, s: usize, t: Table, play: Play, at: &str) {
        let row = result_row(t.view(), &play);
        self.push(s, &t, row, at.to_string());
    }

    /// An artificial score at a table (no result): a `ruling`, law 12C, noting the file's
    /// token.
    pub fn artificial(&mut self, s: usize, t: Table, score: String, token: &str, at: &str) {
        let row = artificial_row(t.view(), &score, token);
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

    /// [`Draft::push`] of a table of the pairs `ids` (NS, EW) at `board` whose numbers
    /// [`Draft::pair`] gave (a reader uses this or `push`, `result` and `artificial`, never
    /// both: the numberings differ).
    pub fn push_paired(
        &mut self,
        s: usize,
        (board, ids): (u32, [&str; 2]),
        pairs: [u32; 2],
        row: Row,
        at: String,
    ) {
        if !self.seat_numbered(s, board, ids, pairs, &at) {
            return;
        }
        let ss = &mut self.sessions[s];
        ss.boards.insert(board);
        ss.events.push((Ev::Row(row), at));
    }

    /// [`Draft::push_paired`] of a table and the ruling in force there (`ruling`, after the
    /// table's result): both added if the table is new.
    pub fn push_ruled(
        &mut self,
        s: usize,
        (board, ids): (u32, [&str; 2]),
        pairs: [u32; 2],
        (row, ruling): (Row, Row),
        at: String,
    ) {
        if !self.seat_numbered(s, board, ids, pairs, &at) {
            return;
        }
        let ss = &mut self.sessions[s];
        ss.boards.insert(board);
        ss.events.push((Ev::Row(row), at.clone()));
        ss.events.push((Ev::Row(ruling), at));
    }

    /// An event of session `s` that seats no table (a team table its reader has checked, a
    /// ruling), at board `board`.
    pub fn push_event(&mut self, s: usize, board: u32, e: Ev, at: String) {
        let ss = &mut self.sessions[s];
        ss.boards.insert(board);
        ss.events.push((e, at));
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
            let resolved = match resolve(&s, req) {
                Ok(x) => x,
                Err((at, m)) => {
                    self.fail(&at, m);
                    continue;
                }
            };
            events.push(Ev::Json(finish::session_event(&s, &id, resolved, req)));
            origins.push(
                s.form
                    .as_ref()
                    .map(|f| f.1.clone())
                    .unwrap_or("file".into()),
            );
            if i == 0 || !pairs_done {
                pairs_done = !self.pairs.is_empty();
                for p in &self.pairs {
                    events.push(Ev::Json(finish::pair_event(p)));
                    origins.push(p.at.clone());
                }
            }
            for mt in &s.matches {
                events.push(Ev::Json(json!({
                    "type": "match", "session": id, "id": mt.id, "home": mt.home,
                    "away": mt.away, "boards": boards_value(&mt.boards),
                })));
                origins.push(mt.at.clone());
            }
            finish::session_tables(s, &id, &mut ruling, (&mut events, &mut origins));
        }
        if !self.problems.is_empty() {
            self.problems.sort();
            return Err(self.problems);
        }
        Ok(Parsed {
            events,
            skipped: self.skipped,
            notices: self.notices,
            origins,
        })
    }
}

impl Draft {
    /// A file of hand records alone (deals, no result anywhere): its `deal` events as they
    /// are, with no `session` field and no session event (whoever adds them to a log gives
    /// them their session), each at its place. Refused as [`Draft::finish`] refuses, and when
    /// there is no deal either.
    pub fn finish_deals(mut self) -> Result<Parsed, Vec<Problem>> {
        let mut events = Vec::new();
        let mut origins = Vec::new();
        for s in std::mem::take(&mut self.sessions) {
            for (e, at) in s.events {
                events.push(e);
                origins.push(at);
            }
        }
        if events.is_empty() && self.problems.is_empty() {
            self.fail(
                "file",
                "no results and no hand records found (PBN: no ScoreTable, no game with [Contract] or [Score], no [Deal])",
            );
        }
        if !self.problems.is_empty() {
            self.problems.sort();
            return Err(self.problems);
        }
        Ok(Parsed {
            events,
            skipped: self.skipped,
            notices: self.notices,
            origins,
        })
    }
}

/// A table's `result` event (without its session), as [`Draft::result`] adds it.
pub(crate) fn result_row(t: TableView, play: &Play) -> Row {
    let texts = [
        t.section,
        Some(t.ns),
        Some(t.ew),
        play.contract.as_deref(),
        play.declarer.as_deref(),
        play.result.as_deref(),
        play.lead.as_deref(),
    ];
    let numbers = 1 // (the board)
        + usize::from(t.round.is_some())
        + usize::from(t.table.is_some())
        + usize::from(play.tricks.is_some())
        + usize::from(play.score.is_some());
    // The members' text in one piece of the size it needs (a key's punctuation and name take
    // at most 13 bytes, a number 11; a text its bytes and quotes, unless escaped).
    let size = texts.iter().flatten().map(|s| 15 + s.len()).sum::<usize>() + numbers * 24;
    let mut r = Row::with_capacity(false, size);
    if let Some(sec) = t.section {
        r.str("section", sec);
    }
    r.num("board", t.board.into());
    if let Some(x) = t.round {
        r.num("round", x.into());
    }
    if let Some(x) = t.table {
        r.num("table", x.into());
    }
    r.sides(t.ns, t.ew, t.others);
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
pub(crate) fn artificial_row(t: TableView, score: &str, token: &str) -> Row {
    let mut r = Row::new(true);
    r.num("board", t.board.into());
    r.sides(t.ns, t.ew, t.others);
    r.str("score", score)
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
                format!(
                    "the file does not say how it is scored: give --form ({})",
                    Form::listed(|_| true, Form::name, "or")
                ),
            ))
        }
    };
    let Some(parsed) = Form::parse(&form) else {
        return Err((
            "--form".into(),
            format!(
                "unknown form \"{form}\" (expected one of {})",
                Form::ALL
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    };
    if let Some(k) = s.kind.filter(|k| !(k.takes)(parsed)) {
        return Err((
            "--form".into(),
            format!(
                "{form}: an {} session is scored at {}",
                k.declared,
                Form::listed(|f| (k.takes)(f), Form::name, "or")
            ),
        ));
    }
    let mut options = if file_form.as_deref() == Some(form.as_str()) {
        s.options.clone()
    } else {
        Map::new()
    };
    for (k, v) in &req.options {
        options.insert(k.clone(), v.clone());
    }
    let (_, errors) = parsed.read_options(&options);
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

#[cfg(test)]
mod tests;
