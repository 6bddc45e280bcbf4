//! Replay: fold the events, in log order, into the championship state as of any `seq`.
//!
//! Replay knows nothing of scoring: it keeps each table's played result (corrected, Law 79C)
//! and the rulings in force (superseded and withdrawn ones kept on record), and checks
//! everything that needs the log's history (declared ids, a pair playing a board twice, a
//! ruling naming a table that does not exist, ...). Every error names the line it is on.

mod index;
mod rulings;
pub mod store;
mod streamed;
mod tables;

use index::*;
pub use streamed::{replay_checked, replay_sealed, replay_streamed, Streamed};

use std::collections::BTreeMap;

use crate::hash::{FxMap, FxSet};

use crate::adjust::AdjustedScore;
use crate::bridge::{dealer_of, ns_points, vul_of, Bid, Seat, Vul};
use crate::error::{LogError, Notice};
use crate::event::read::{check_play, offset_text};
use crate::event::*;
use crate::options::Compare;

pub use crate::score::PId;

/// A table of a board: `(session index, board, NS participant)` (event-log.md).
pub type TableKey = (usize, u32, PId);

#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Participant {
    pub id: String,
    pub section: Option<String>,
    pub name: Option<String>,
    /// The players' names.
    pub players: Vec<String>,
    /// Beside each name, the player's federation member number when the log gives one (as long
    /// as `players`).
    pub player_ids: Vec<Option<String>>,
    /// `true` for a team.
    pub team: bool,
}

#[derive(Clone, Debug)]
pub struct Session {
    pub def: SessionDef,
    pub line: usize,
    /// Its kind (played by pairs, in team matches...): its form's, chosen once when the session
    /// is declared; what differs by kind is asked of it.
    pub kind: &'static crate::kind::Plug,
}

/// The result played at a table, after corrections.
#[derive(Clone, Debug)]
pub struct Played {
    pub seq: usize,
    pub line: usize,
    pub play: Play,
    /// NS points, filled in when the replay finishes (vulnerability may come from a later deal).
    pub ns_points: i32,
    /// `seq`s of the corrections applied.
    pub corrections: Vec<usize>,
}

/// A team match as replayed.
#[derive(Clone, Debug)]
pub struct Match {
    pub def: MatchDef,
    pub session: usize,
    pub home: PId,
    pub away: PId,
    pub line: usize,
}

#[derive(Clone, Debug)]
pub struct Table {
    pub session: usize,
    pub board: u32,
    /// Shared by every table of the section (one allocation per section name, not per table).
    pub section: Option<std::sync::Arc<str>>,
    /// The NS pair (team), or in an individual session the North player.
    pub ns: PId,
    /// The EW pair (team), or in an individual session the East player.
    pub ew: PId,
    /// An individual session's table: South and West (the partners of `ns` and `ew`).
    pub others: Option<Box<[PId; 2]>>,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub played: Option<Played>,
    /// Indexes into `State::rulings` of the rulings in force, oldest first; the last one applies.
    pub rulings: Vec<usize>,
    /// Team forms: the match and the room.
    pub match_id: Option<String>,
    pub room: Option<Room>,
}

impl Table {
    /// The table of `session`'s `board` where `ns` met `ew`, with nothing played, ruled or
    /// numbered yet (the result or the ruling that makes it fills in the rest).
    pub fn seated(
        session: usize,
        board: u32,
        section: Option<std::sync::Arc<str>>,
        ns: PId,
        ew: PId,
    ) -> Table {
        Table {
            session,
            board,
            section,
            ns,
            ew,
            others: None,
            round: None,
            table: None,
            played: None,
            rulings: Vec::new(),
            match_id: None,
            room: None,
        }
    }

    /// The participants of one side at this table: the pair (team), or an individual
    /// session's two players (North and South, or East and West).
    pub fn side(&self, side: crate::adjust::Side) -> impl Iterator<Item = PId> + '_ {
        let (me, other) = match side {
            crate::adjust::Side::NS => (self.ns, 0),
            crate::adjust::Side::EW => (self.ew, 1),
        };
        std::iter::once(me).chain(self.others.as_ref().map(|o| o[other]))
    }

    /// The seat `p` sat at this table ("North", ...; "NS" or "EW" for a pair or team).
    pub fn seat_of(&self, p: PId) -> Option<&'static str> {
        match &self.others {
            Some(o) => [self.ns, self.ew, o[0], o[1]]
                .iter()
                .position(|&x| x == p)
                .map(|i| ["North", "East", "South", "West"][i]),
            None => [self.ns, self.ew]
                .iter()
                .position(|&x| x == p)
                .map(|i| ["NS", "EW"][i]),
        }
    }

    /// The ruling that applies to this table, if any.
    pub fn ruling<'s>(&self, state: &'s State) -> Option<&'s RulingRecord> {
        self.rulings.last().map(|&i| &state.rulings[i])
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulingStatus {
    InForce,
    /// Replaced by a later ruling's `supersedes` (C4: for good).
    Superseded {
        by: String,
    },
    /// Removed by a `ruling_withdrawn` event at `seq`.
    Withdrawn {
        seq: usize,
    },
    /// Overridden by a later ruling on the same table given without `supersedes` (C4).
    Overridden {
        by: String,
    },
}

#[derive(Clone, Debug)]
pub struct RulingRecord {
    pub ev: RulingEv,
    pub seq: usize,
    pub line: usize,
    pub at: Option<String>,
    pub by: Option<String>,
    pub note: Option<String>,
    pub key: TableKey,
    pub status: RulingStatus,
}

#[derive(Clone, Debug)]
pub struct Penalty {
    pub ev: PenaltyEv,
    pub session: usize,
    pub participant: PId,
    pub seq: usize,
    pub note: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Deal {
    pub ev: DealEv,
    pub seq: usize,
}

/// The championship as of some event.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub championship: Championship,
    pub sessions: Vec<Session>,
    /// Shared (replays of a few boards are seeded with another replay's).
    pub participants: std::sync::Arc<Vec<Participant>>,
    pub tables: store::Tables,
    pub rulings: Vec<RulingRecord>,
    pub penalties: Vec<Penalty>,
    pub deals: BTreeMap<(usize, u32), Deal>,
    /// Team matches: (session, match id) → match.
    pub matches: BTreeMap<(usize, String), Match>,
    /// Fouled boards (Law 87, C30–C31): (session, board) → (line, groups of NS participants).
    pub fouled: BTreeMap<(usize, u32), (usize, Vec<Vec<PId>>)>,
    pub notices: Vec<Notice>,
    /// How many events were applied (the `seq` of the last one).
    pub applied: usize,
    pids: std::sync::Arc<FxMap<String, PId>>,
    session_ids: FxMap<String, usize>,
    /// Ruling id → index in `rulings`.
    ruling_ids: FxMap<String, usize>,
}

impl State {
    /// A state knowing only these participants, numbered in order: the base of a replay of a
    /// few boards of a log that names its participants only in its results, when they are known
    /// from elsewhere (see [`replay_seeded`]).
    pub fn with_participants(participants: std::sync::Arc<Vec<Participant>>) -> State {
        let pids = participants
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i as PId))
            .collect::<FxMap<String, PId>>();
        State {
            participants,
            pids: std::sync::Arc::new(pids),
            ..Default::default()
        }
    }

    pub fn pid(&self, id: &str) -> Option<PId> {
        self.pids.get(id).copied()
    }

    pub fn session_index(&self, id: &str) -> Option<usize> {
        self.session_ids.get(id).copied()
    }

    pub fn participant(&self, p: PId) -> &Participant {
        &self.participants[p as usize]
    }

    /// Dealer and vulnerability of a board: the `deal` event's when it gives them (C5).
    pub fn dealer_vul(&self, session: usize, board: u32) -> (Seat, Vul) {
        let deal = self.deals.get(&(session, board));
        (
            deal.and_then(|d| d.ev.dealer)
                .unwrap_or_else(|| dealer_of(board)),
            deal.and_then(|d| d.ev.vul).unwrap_or_else(|| vul_of(board)),
        )
    }

    /// A ruling by id (any status).
    pub fn ruling_by_id(&self, id: &str) -> Option<&RulingRecord> {
        self.ruling_ids.get(id).map(|&i| &self.rulings[i])
    }
}

/// Replay options: how much of the log, which events to leave out, which boards to replay.
#[derive(Clone, Debug, Default)]
pub struct ReplayScope {
    /// Apply only events with `seq <= upto`.
    pub upto: Option<usize>,
    /// `seq`s of events to leave out as if they had never been recorded.
    pub skip: std::collections::BTreeSet<usize>,
    /// Replay only these boards, `(session id, board)`: results, rulings, corrections,
    /// withdrawals and fouled-board events of other boards are left out, but every
    /// participant is still registered in the same order, so the `PId`s are those of a whole
    /// replay. Meant for a log already
    /// replayed whole without errors.
    pub boards: Option<std::collections::BTreeSet<(String, u32)>>,
}

/// Something that sees every event of a log streamed by [`replay_streamed`], in log order.
pub trait Witness: Send {
    /// Forget every event seen so far (the reader starting over in strict line order).
    fn restart(&mut self);
    fn event(&mut self, e: &Envelope);
}

/// Replay every event in `events` (as read from one log) within `scope`.
/// Returns the state and every error found; a log with errors must not be scored.
pub fn replay(events: &[Envelope], scope: &ReplayScope) -> (State, Vec<LogError>) {
    replay_with(events, scope, None)
}

/// [`replay`] of some boards (`scope.boards`) of a log already replayed whole into `base`: in a
/// log that declares no participants, `base`'s participants are taken as they are rather than
/// registered again from every result of the boards left out (a replay of fewer events may
/// then know participants it never met; they have no boards, so no standing).
pub fn replay_seeded(
    events: &[Envelope],
    scope: &ReplayScope,
    base: &State,
) -> (State, Vec<LogError>) {
    replay_with(events, scope, Some(base))
}

fn replay_with(
    events: &[Envelope],
    scope: &ReplayScope,
    base: Option<&State>,
) -> (State, Vec<LogError>) {
    let declared_mode = events.iter().any(|e| e.event.declares_participant());
    let mut r = Replay::new(scope, declared_mode, base);
    if scope.boards.is_none() {
        r.reserve(events.len());
    }
    for env in events {
        if scope.upto.is_some_and(|u| env.seq > u) {
            break;
        }
        r.apply(env);
    }
    r.finish()
}

/// A replay fed one event at a time, in log order (the streaming reader's sink: `check` and
/// `score` never hold every event of a big log at once). [`replay`] is this over a slice.
pub struct Replay<'s> {
    r: Replayer,
    scope: &'s ReplayScope,
}

impl<'s> Replay<'s> {
    /// `declared_mode`: whether the log declares its participants (any `pair` or `team`
    /// event, C2); `base`: as [`replay_seeded`].
    pub fn new(scope: &'s ReplayScope, declared_mode: bool, base: Option<&State>) -> Replay<'s> {
        let mut r = Replayer {
            st: State::default(),
            errors: Vec::new(),
            declared_mode,
            plays: Plays::default(),
            by_seq: if scope.boards.is_some() {
                SeqMap::Sparse(FxMap::default())
            } else {
                SeqMap::Dense(Vec::new())
            },
            corrected_at: FxMap::default(),
            pair_matches: FxMap::default(),
            only: scope.boards.as_ref().map(|keys| {
                let mut m: FxMap<String, FxSet<u32>> = FxMap::default();
                for (s, b) in keys {
                    m.entry(s.clone()).or_default().insert(*b);
                }
                m
            }),
            left_out_rulings: FxSet::default(),
            seeded: false,
            section_names: FxSet::default(),
            last_session: None,
            recent: [PId::MAX; 2],
            last_section: None,
        };
        if let (Some(base), false, Some(_)) = (base, declared_mode, &scope.boards) {
            r.st.participants = base.participants.clone();
            r.st.pids = base.pids.clone();
            r.seeded = true;
        }
        Replay { r, scope }
    }

    /// Make room for about `events` events (the reader knows how many lines it has).
    pub fn reserve(&mut self, events: usize) {
        if let SeqMap::Dense(v) = &mut self.r.by_seq {
            v.reserve(events + 1);
        }
        self.r.st.tables.reserve(events);
    }

    /// Apply one event (in log order), unless the scope leaves it out.
    pub fn apply(&mut self, env: &Envelope) {
        if self.scope.upto.is_some_and(|u| env.seq > u) || self.scope.skip.contains(&env.seq) {
            return;
        }
        self.r.apply(env);
        self.r.st.applied = env.seq;
    }

    /// The state, and every error found (sorted, once each).
    pub fn finish(mut self) -> (State, Vec<LogError>) {
        self.r.finish();
        let mut errors = self.r.errors;
        errors.sort();
        errors.dedup();
        (self.r.st, errors)
    }
}

struct Replayer {
    st: State,
    errors: Vec<LogError>,
    declared_mode: bool,
    /// (session, board, participant, seat) → the table where it played that board; the seat is
    /// 0 at pairs (a pair plays a board once), 1 (NS) or 2 (EW) at teams (a team plays each
    /// board once in each room).
    plays: Plays,
    /// `seq` of a `result` event → its table.
    by_seq: SeqMap,
    /// (session, the two teams, lower id first) → the ids of their matches there (a ruling
    /// that makes its own table finds its match through it).
    pair_matches: FxMap<(usize, PId, PId), Vec<String>>,
    /// Table → line of the last correction that replaced its contract, play or score: a score
    /// that disagrees with the contract is that line's error.
    corrected_at: FxMap<TableKey, usize>,
    /// `ReplayScope::boards` (session id → boards), and the ids of the rulings it left out.
    only: Option<FxMap<String, FxSet<u32>>>,
    left_out_rulings: FxSet<String>,
    /// Participants taken from a whole replay (`replay_seeded`): nothing to register.
    seeded: bool,
    /// Section names, shared by the tables of each section.
    section_names: FxSet<std::sync::Arc<str>>,
    /// The session found last (id, index).
    last_session: Option<(String, usize)>,
    /// The participants found last as NS and as EW ([`Replayer::participant`]).
    recent: [PId; 2],
    /// The section name found last ([`Replayer::table_section`]).
    last_section: Option<std::sync::Arc<str>>,
}

impl Replayer {
    fn err(&mut self, line: usize, field: &str, msg: impl Into<String>) {
        self.errors.push(LogError::new(line, Some(field), msg));
    }

    fn notice(&mut self, line: usize, msg: impl Into<String>) {
        self.st.notices.push(Notice {
            line: Some(line),
            // Notices echo ids and values a user typed: cut as errors are.
            message: crate::error::clip(&msg.into()),
        });
    }

    fn session(&mut self, line: usize, id: &str) -> Option<usize> {
        // Results come session by session: the last one found is nearly always the one.
        if let Some(&(ref last, s)) = self.last_session.as_ref() {
            if last.as_str() == id {
                return Some(s);
            }
        }
        let s = self.st.session_index(id);
        if let Some(s) = s {
            self.last_session = Some((id.to_string(), s));
        }
        if s.is_none() {
            let known: Vec<_> = self
                .st
                .sessions
                .iter()
                .map(|s| format!("\"{}\"", s.def.id))
                .collect();
            let hint = if known.is_empty() {
                "no session has been declared yet (a \"session\" event must come first)".to_string()
            } else {
                format!("declared sessions: {}", known.join(", "))
            };
            self.err(line, "session", format!("unknown session \"{id}\"; {hint}"));
        }
        s
    }

    fn board_in_session(&mut self, line: usize, s: usize, board: u32) -> bool {
        let def = &self.st.sessions[s].def;
        if def.boards.binary_search(&board).is_ok() {
            return true;
        }
        let (lo, hi) = (def.boards[0], *def.boards.last().unwrap());
        let id = def.id.clone();
        self.err(
            line,
            "board",
            format!("board {board} is not in session \"{id}\" (boards {lo}-{hi})"),
        );
        false
    }

    /// The participant named `id`, creating it when the log declares none (C2).
    fn participant(
        &mut self,
        line: usize,
        field: &str,
        id: &str,
        section: Option<&str>,
    ) -> Option<PId> {
        // Consecutive results mostly name the pairs of the one before (a round's boards at a
        // table): those are checked first, without hashing the id.
        let slot = usize::from(field == "ew" || field == "east");
        let last = self.recent[slot];
        if self
            .st
            .participants
            .get(last as usize)
            .is_some_and(|p| p.id == id)
        {
            return Some(last);
        }
        if let Some(p) = self.st.pid(id) {
            self.recent[slot] = p;
            return Some(p);
        }
        if self.declared_mode {
            let msg = if crate::event::read::SEATS.contains(&field) {
                format!("player \"{id}\" is not declared; this log declares its players, so add a \"player\" event for \"{id}\" before this line (conventions C2)")
            } else {
                format!("participant \"{id}\" is not declared; this log declares its pairs, so add a \"pair\" event for \"{id}\" before this line (conventions C2)")
            };
            self.err(line, field, msg);
            return None;
        }
        Some(self.add_participant(Participant {
            id: id.to_string(),
            section: section.map(str::to_string),
            name: None,
            players: Vec::new(),
            player_ids: Vec::new(),
            team: false,
        }))
    }

    fn add_participant(&mut self, p: Participant) -> PId {
        let pid = self.st.participants.len() as PId;
        std::sync::Arc::make_mut(&mut self.st.pids).insert(p.id.clone(), pid);
        std::sync::Arc::make_mut(&mut self.st.participants).push(p);
        pid
    }

    /// Whether `ReplayScope::boards` leaves this board out.
    fn left_out(&self, session: &str, board: u32) -> bool {
        self.only
            .as_ref()
            .is_some_and(|k| !k.get(session).is_some_and(|b| b.contains(&board)))
    }

    /// A board event of a board left out: only its participants are registered (in a log that
    /// declares none, C2), as a whole replay would, so that `PId`s agree.
    fn register_only(
        &mut self,
        line: usize,
        session: &str,
        ids: [Option<&str>; 4],
        section: Option<&str>,
    ) {
        if self.declared_mode || self.seeded || self.st.session_index(session).is_none() {
            return;
        }
        for (field, id) in ["ns", "ew", "south", "west"].into_iter().zip(ids) {
            if let Some(id) = id {
                self.participant(line, field, id, section);
            }
        }
    }

    /// `ReplayScope::boards`: leave out the events of other boards. Returns `true` when `env`
    /// is left out.
    fn leave_out(&mut self, env: &Envelope) -> bool {
        if self.only.is_none() {
            return false;
        }
        match &env.event {
            Event::Result(r) if self.left_out(&r.session, r.board) => {
                self.register_only(
                    env.line,
                    &r.session,
                    [
                        Some(&r.ns),
                        Some(&r.ew),
                        r.others.as_ref().map(|o| o.south.as_str()),
                        r.others.as_ref().map(|o| o.west.as_str()),
                    ],
                    r.section.as_deref(),
                );
                true
            }
            Event::Ruling(r) if self.left_out(&r.session, r.board) => {
                let others = r.others.as_deref();
                let ids = [
                    Some(r.ns.as_str()),
                    r.ew.as_deref(),
                    others.map(|o| o.south.as_str()),
                    others.map(|o| o.west.as_str()),
                ];
                self.register_only(env.line, &r.session, ids, None);
                self.left_out_rulings.insert(r.id.clone());
                true
            }
            Event::RulingWithdrawn { ruling } => self.left_out_rulings.contains(ruling),
            // A correction of a result left out (in a log replayed whole without errors, every
            // correction names an earlier result).
            Event::Correction(c) => !self.by_seq.contains_key(&c.result),
            Event::Fouled(f) => self.left_out(&f.session, f.board),
            _ => false,
        }
    }

    fn apply(&mut self, env: &Envelope) {
        let line = env.line;
        if self.leave_out(env) {
            return;
        }
        match &env.event {
            Event::Championship(c) => self.st.championship = c.clone(),
            Event::Fouled(fe) => self.fouled(line, fe),
            Event::Match(m) => self.match_event(line, m),
            Event::Session(def) => {
                let idx = self.st.sessions.len();
                self.st.session_ids.insert(def.id.clone(), idx);
                self.st.sessions.push(Session {
                    def: def.clone(),
                    line,
                    kind: def.kind,
                });
            }
            Event::Pair(p) => self.declare(
                line,
                &p.id,
                p.section.clone(),
                None,
                (p.players.clone(), p.player_ids.clone()),
                false,
            ),
            Event::Player(p) => {
                // A player is a participant of their own: their name and member number as
                // a pair's one player.
                let named = p.name.is_some() || p.member.is_some();
                let players = if named {
                    (
                        vec![p.name.clone().unwrap_or_else(|| p.id.clone())],
                        vec![p.member.clone()],
                    )
                } else {
                    (Vec::new(), Vec::new())
                };
                self.declare(line, &p.id, p.section.clone(), None, players, false)
            }
            Event::Team(t) => self.declare(
                line,
                &t.id,
                None,
                t.name.clone(),
                (t.players.clone(), t.player_ids.clone()),
                true,
            ),
            Event::Result(r) => self.result(env, r),
            Event::Ruling(r) => self.ruling(env, r),
            Event::RulingWithdrawn { ruling } => self.withdraw(env, ruling),
            Event::Correction(c) => self.correction(env, c),
            Event::Penalty(p) => self.penalty(env, p),
            Event::Deal(d) => {
                let Some(s) = self.session(line, &d.session) else {
                    return;
                };
                if !self.board_in_session(line, s, d.board) {
                    return;
                }
                if self.st.deals.contains_key(&(s, d.board)) {
                    self.notice(
                        line,
                        format!(
                            "a second deal for board {} of session \"{}\" replaces the first",
                            d.board, d.session
                        ),
                    );
                }
                self.st.deals.insert(
                    (s, d.board),
                    Deal {
                        ev: d.clone(),
                        seq: env.seq,
                    },
                );
            }
        }
    }

    fn declare(
        &mut self,
        line: usize,
        id: &str,
        section: Option<String>,
        name: Option<String>,
        (players, player_ids): (Vec<String>, Vec<Option<String>>),
        team: bool,
    ) {
        if self.st.pid(id).is_some() {
            self.err(
                line,
                "id",
                format!("\"{id}\" is already declared; ids are unique in the championship"),
            );
            return;
        }
        self.add_participant(Participant {
            id: id.to_string(),
            section,
            name,
            players,
            player_ids,
            team,
        });
    }

    /// Compute NS points now that every deal (vulnerability) is known; check given scores agree.
    fn finish(&mut self) {
        let mut errs = Vec::new();
        // C30: a listed table that a later withdrawal removed is an error at the fouled line.
        for ((s, b), (line, groups)) in &self.st.fouled {
            for p in groups.iter().flatten() {
                if !self.st.tables.contains_key(&(*s, *b, *p)) {
                    errs.push(LogError::new(*line, Some("groups"), format!("\"{}\" no longer has a table on board {b} (a later withdrawal removed it)", self.st.participant(*p).id)));
                }
            }
        }
        // One pass over the tables (the deals and the tables are separate fields of the state).
        let State { tables, deals, .. } = &mut self.st;
        for (&key, t) in tables.values_mut_unordered() {
            let Some(played) = t.played.as_mut() else {
                continue;
            };
            let vul = deals
                .get(&(t.session, t.board))
                .and_then(|d| d.ev.vul)
                .unwrap_or_else(|| vul_of(t.board));
            let p = &played.play;
            let from_contract = match p.contract {
                Some(Bid::Pass) => Some(0),
                Some(bid @ Bid::Contract(c)) => {
                    let tricks = p
                        .tricks
                        .map(|t| t as i32)
                        .or_else(|| p.result.map(|r| 6 + c.level as i32 + r as i32));
                    match (p.declarer, tricks) {
                        (Some(d), Some(tr)) if (0..=13).contains(&tr) => {
                            Some(ns_points(bid, d, tr as u8, vul))
                        }
                        _ => None,
                    }
                }
                None => None,
            };
            match (from_contract, p.score) {
                (Some(a), Some(b)) if a != b => {
                    // The line that gave the disagreeing fields: the last correction that
                    // replaced them, else the result itself.
                    let corrected = self.corrected_at.get(&key).copied();
                    let line = corrected.unwrap_or(played.line);
                    let prefix = match corrected {
                        Some(_) => {
                            format!("after this correction the result of seq {}: ", played.seq)
                        }
                        None => String::new(),
                    };
                    let c = p.contract.unwrap();
                    let how = match (p.declarer, p.tricks) {
                        (Some(d), Some(tr)) => format!(
                            "{c} by {} with {tr} tricks ({}), vulnerability {}",
                            d.letter(),
                            offset_text(
                                tr as i32
                                    - 6
                                    - match c {
                                        Bid::Contract(k) => k.level as i32,
                                        Bid::Pass => 0,
                                    }
                            ),
                            vul.as_str()
                        ),
                        _ => format!("{c}, vulnerability {}", vul.as_str()),
                    };
                    errs.push(LogError::new(
                        line,
                        Some("score"),
                        format!("{prefix}{b} disagrees with the contract: {how} scores {a} for NS"),
                    ));
                    played.ns_points = b;
                }
                (Some(a), _) => played.ns_points = a,
                (None, Some(b)) => played.ns_points = b,
                (None, None) => {}
            }
        }
        self.errors.extend(errs);
        // The replay's own indexes are done with: freed before the tables are sorted, the
        // replay's peak of memory.
        self.plays = Plays::default();
        self.by_seq = SeqMap::Sparse(FxMap::default());
        self.corrected_at = FxMap::default();
        // Key order for scoring and output; look-ups by binary search from now on.
        self.st.tables.seal();
    }
}

/// The adjusted score in force at a table, if any.
pub fn adjusted_of<'s>(state: &'s State, t: &Table) -> Option<&'s AdjustedScore> {
    t.ruling(state).map(|r| &r.ev.score)
}

/// A correction applied to a table's play (docs/event-log.md, "Corrections"; C3): a score alone
/// drops contract, declarer, tricks and result; any part of the play given without a score drops
/// the score; tricks and a result offset replace each other. The one rule of both the replay and
/// the BWS live import (`import::bws::live`).
pub fn correct(p: &mut Play, c: &CorrectionEv) {
    let score_only = c.score.is_some()
        && c.contract.is_none()
        && c.declarer.is_none()
        && c.tricks.is_none()
        && c.result_offset.is_none();
    if score_only {
        // C3: a score alone drops contract, declarer, tricks and result.
        p.contract = None;
        p.declarer = None;
        p.tricks = None;
        p.result = None;
    } else if (c.contract.is_some()
        || c.declarer.is_some()
        || c.tricks.is_some()
        || c.result_offset.is_some())
        && c.score.is_none()
    {
        p.score = None;
    }
    if let Some(b) = c.contract {
        p.contract = Some(b);
        if b == Bid::Pass {
            p.declarer = None;
            p.tricks = None;
            p.result = None;
        }
    }
    if let Some(d) = c.declarer {
        p.declarer = Some(d);
    }
    if let Some(tr) = c.tricks {
        p.tricks = Some(tr);
        if c.result_offset.is_none() {
            p.result = None;
        }
    }
    if let Some(r) = c.result_offset {
        p.result = Some(r);
        if c.tricks.is_none() {
            p.tricks = None;
        }
    }
    if let Some(s) = c.score {
        p.score = Some(s);
    }
    if let Some(l) = &c.lead {
        p.lead = Some(l.clone());
    }
}
