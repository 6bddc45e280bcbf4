//! The typed events of the log (event-log.md v1). Reading produces these; replay folds them.

use crate::adjust::{AdjustedScore, SubsequentDamage};
use crate::bridge::{Bid, Seat, Vul};
use crate::num::Q;
use crate::options::{Compare, Options};
pub use crate::score::form::PenaltyUnit;
use crate::score::Form;

/// One event line with its envelope.
#[derive(Clone, Debug)]
pub struct Envelope {
    /// Physical line number in the file (1-based), for messages.
    pub line: usize,
    /// Position among event lines (1-based): what `seq`, `correction.result` and `--as-of` count.
    pub seq: usize,
    pub at: Option<String>,
    pub by: Option<String>,
    pub note: Option<String>,
    pub event: Event,
}

#[derive(Clone, Debug)]
pub enum Event {
    Championship(Championship),
    Session(SessionDef),
    Pair(PairDef),
    Team(TeamDef),
    Player(PlayerDef),
    Match(MatchDef),
    Result(ResultEv),
    Ruling(RulingEv),
    RulingWithdrawn { ruling: String },
    Correction(CorrectionEv),
    Penalty(PenaltyEv),
    Deal(DealEv),
    Fouled(FouledEv),
}

impl Event {
    /// A `pair`, `team` or `player` event: a log with one declares its participants (C2).
    pub fn declares_participant(&self) -> bool {
        matches!(self, Event::Pair(_) | Event::Team(_) | Event::Player(_))
    }

    /// The board an event belongs to: named by it (result, ruling, deal, fouled board), or
    /// through the result a correction corrects or the ruling a withdrawal withdraws (the
    /// caller looks those up); `None` for an event of no one board.
    pub fn on_board(&self) -> Option<OnBoard<'_>> {
        Some(match self {
            Event::Result(r) => OnBoard::Board(&r.session, r.board),
            Event::Ruling(r) => OnBoard::Board(&r.session, r.board),
            Event::Deal(d) => OnBoard::Board(&d.session, d.board),
            Event::Fouled(f) => OnBoard::Board(&f.session, f.board),
            Event::Correction(c) => OnBoard::OfResult(c.result),
            Event::RulingWithdrawn { ruling } => OnBoard::OfRuling(ruling),
            _ => return None,
        })
    }
}

/// Where a board event's board is (see [`Event::on_board`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnBoard<'a> {
    /// (session id, board)
    Board(&'a str, u32),
    /// That of the result of this `seq`.
    OfResult(usize),
    /// That of the ruling of this id.
    OfRuling(&'a str),
}

/// Law 87: a fouled board; each group lists the NS participants that played one version.
#[derive(Clone, Debug)]
pub struct FouledEv {
    pub session: String,
    pub board: u32,
    pub groups: Vec<Vec<String>>,
}

#[derive(Clone, Debug, Default)]
pub struct Championship {
    pub name: Option<String>,
    pub date: Option<String>,
    pub place: Option<String>,
}

#[derive(Clone, Debug)]
pub struct SessionDef {
    pub id: String,
    pub name: Option<String>,
    pub form: Form,
    pub boards: Vec<u32>,
    pub compare: Compare,
    pub carry: bool,
    pub options: Options,
    /// Its kind: as declared (`kind`), else its form's (`crate::kind::of`).
    pub kind: &'static crate::kind::Plug,
}

#[derive(Clone, Debug)]
pub struct PairDef {
    pub id: String,
    pub section: Option<String>,
    /// The players' names.
    pub players: Vec<String>,
    /// Beside each name (the same length), the player's federation member number when the log
    /// gives one (`{"name": ..., "id": ...}`).
    pub player_ids: Vec<Option<String>>,
}

/// A `player` of an individual session: a participant of its own.
#[derive(Clone, Debug)]
pub struct PlayerDef {
    pub id: String,
    pub section: Option<String>,
    pub name: Option<String>,
    /// The federation member number.
    pub member: Option<String>,
}

/// The seats of a table of an individual session besides North and East (which a result and a
/// ruling hold in `ns` and `ew`): the North player's partner and the East player's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Others {
    pub south: String,
    pub west: String,
}

#[derive(Clone, Debug)]
pub struct TeamDef {
    pub id: String,
    pub name: Option<String>,
    /// The players' names.
    pub players: Vec<String>,
    /// Beside each name, the player's federation member number when known ([`PairDef`]).
    pub player_ids: Vec<Option<String>>,
}

/// The `players` of a `pair` or `team` event as the log writes them: each player's name, or
/// `{"name": ..., "id": ...}` when the player's federation member number is known (`ids`
/// beside `names`; shorter or empty: no numbers).
pub fn players_value(names: &[String], ids: &[Option<String>]) -> serde_json::Value {
    use serde_json::Value;
    Value::Array(
        names
            .iter()
            .enumerate()
            .map(|(i, name)| match ids.get(i).and_then(Option::as_deref) {
                Some(id) => {
                    let mut m = serde_json::Map::new();
                    m.insert("name".into(), Value::from(name.as_str()));
                    m.insert("id".into(), Value::from(id));
                    Value::Object(m)
                }
                None => Value::from(name.as_str()),
            })
            .collect(),
    )
}

/// A team match (team forms): the open room has the home team NS, the closed room the away team.
#[derive(Clone, Debug)]
pub struct MatchDef {
    pub session: String,
    pub id: String,
    pub home: String,
    pub away: String,
    pub boards: Vec<u32>,
    pub knockout: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Room {
    Open,
    Closed,
}

impl Room {
    pub fn as_str(self) -> &'static str {
        match self {
            Room::Open => "open",
            Room::Closed => "closed",
        }
    }
}

/// What was played at a table: the fields a `correction` may replace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Play {
    pub contract: Option<Bid>,
    pub declarer: Option<Seat>,
    pub tricks: Option<u8>,
    /// `result` as written (`=`, `+1`, `-2`), relative to the contract.
    pub result: Option<i8>,
    /// NS points given directly.
    pub score: Option<i32>,
    pub lead: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ResultEv {
    pub session: String,
    pub section: Option<String>,
    pub board: u32,
    pub round: Option<u32>,
    pub table: Option<u32>,
    /// The NS pair, or in an individual session the North player.
    pub ns: String,
    /// The EW pair, or in an individual session the East player.
    pub ew: String,
    /// An individual session's result: South and West (the result named the four seats).
    pub others: Option<Box<Others>>,
    pub play: Play,
    /// Team forms: the match and the room.
    pub match_id: Option<String>,
    pub room: Option<Room>,
}

#[derive(Clone, Debug)]
pub struct RulingEv {
    pub id: String,
    pub session: String,
    pub board: u32,
    /// The NS pair, or the North player when `by_north`.
    pub ns: String,
    /// The EW pair, or the East player when `by_north`.
    pub ew: Option<String>,
    /// The ruling named its table by `north` (an individual session's), not by `ns`.
    pub by_north: bool,
    /// With `by_north`: South and West, when the ruling named every seat.
    pub others: Option<Box<Others>>,
    /// The score in force: the notation, or the expansion of `subsequent_damage`.
    pub score: AdjustedScore,
    /// Present when the ruling was given in the structured subsequent-damage form.
    pub sd: Option<SubsequentDamage>,
    pub law: Option<String>,
    pub supersedes: Option<String>,
}

/// The fields a correction replaces (Law 79C); `None` leaves a field as it was.
#[derive(Clone, Debug)]
pub struct CorrectionEv {
    /// `seq` of the corrected `result` event.
    pub result: usize,
    pub contract: Option<Bid>,
    pub declarer: Option<Seat>,
    pub tricks: Option<u8>,
    pub result_offset: Option<i8>,
    pub score: Option<i32>,
    pub lead: Option<String>,
}

#[derive(Clone, Debug)]
pub struct PenaltyEv {
    pub session: String,
    pub participant: String,
    pub unit: PenaltyUnit,
    /// Positive: taken off the participant's total.
    pub amount: Q,
    pub board: Option<u32>,
    pub law: Option<String>,
    /// Team forms: the match whose IMPs an `imp` penalty comes off.
    pub match_id: Option<String>,
}

#[derive(Clone, Debug)]
pub struct DealEv {
    pub session: String,
    pub board: u32,
    pub pbn: String,
    pub dealer: Option<Seat>,
    pub vul: Option<Vul>,
}
