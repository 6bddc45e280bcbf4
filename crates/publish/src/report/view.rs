//! The view model's types: what the bulletin (Typst, through `bulletin.json`) and the results
//! website (HTML templates, `crate::site`) show, as `Serialize` structs. Every number is already
//! formatted as it is printed (`model::fmt`), so the templates do no arithmetic; every name,
//! note and ruling is a string the templates print as text, never as code or markup.
//!
//! Built by `model::build` (and `cards::build` for the scorecards) from the scored data.

use std::collections::BTreeMap;

use serde::Serialize;

/// The whole bulletin (the site adds its scorecards, `cards::Scorecard`).
#[derive(Clone, Debug, Serialize)]
pub struct Bulletin {
    pub lang: String,
    pub labels: BTreeMap<&'static str, &'static str>,
    pub championship: Championship,
    pub sessions: Vec<SessionView>,
    pub overall: Vec<StandingRow>,
    /// What the overall standings' participants are when every session seats four players
    /// (`"player"`, `seated::noun`); otherwise pairs or teams as the sessions say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overall_noun: Option<&'static str>,
    /// When the overall standings are cut (`model::Limits`): what is shown of how many, and where
    /// the rest is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overall_note: Option<String>,
    pub rulings: Vec<RulingView>,
    /// When the rulings appendix is cut: how many are listed and where the rest are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rulings_note: Option<String>,
    pub notices: Vec<String>,
    /// The log's head the bulletin was made from (`frekans bulletin` sets it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<Head>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Championship {
    pub name: Option<String>,
    pub date: Option<String>,
    pub place: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Head {
    pub events: usize,
    pub hash: String,
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SessionView {
    pub id: String,
    pub name: Option<String>,
    pub form: &'static str,
    /// Team forms (IMPs and VPs, no percentages).
    pub teams: bool,
    /// What its participants are when its kind seats four players (`"player"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noun: Option<&'static str>,
    /// The site's unit of a team board's scores when it is not board points (`IMP` at teams).
    #[serde(skip)]
    pub board_unit: Option<&'static str>,
    pub charts: Vec<Chart>,
    pub standings: Vec<StandingGroup>,
    pub boards: Vec<BoardView>,
    pub matches: Vec<MatchView>,
    /// When the match sheets are cut (`Limits::sheets`): how many are shown, of how many, and
    /// where the rest are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sheets_note: Option<String>,
}

/// The standings of one comparison group of a session (`section` when compared by section).
#[derive(Clone, Debug, Serialize)]
pub struct StandingGroup {
    pub section: Option<String>,
    pub rows: Vec<StandingRow>,
    /// When the group is cut (`model::Limits`): how many places it has, and the note saying so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct StandingRow {
    /// `3` or `3–4` (a tie).
    pub place: String,
    pub id: String,
    pub players: String,
    /// A player's member number (a seated session's player), when the log gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<String>,
    pub total: String,
    pub pct: Option<String>,
    pub boards: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    pub board: u32,
    pub section: Option<String>,
    #[serde(rename = "match")]
    pub match_id: Option<String>,
    pub dealer: String,
    pub vul: &'static str,
    /// The four hands (`N`, `E`, `S`, `W`), each as four suits ♠ ♥ ♦ ♣.
    pub deal: Option<BTreeMap<String, Vec<String>>>,
    pub dd: Option<DdView>,
    /// Tables on the traveller (all of them, when `traveller` shows only the top and bottom).
    pub tables: usize,
    pub traveller_cut: bool,
    pub traveller: Vec<TravellerLine>,
    /// When the traveller is cut: how many tables are shown and not, and where the rest are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traveller_note: Option<String>,
    pub frequency: Vec<FreqLine>,
    pub results: String,
    pub mean: Option<String>,
    pub dispersion: Option<String>,
    pub dispersion_imp: Option<String>,
    pub dispersion_mp: Option<String>,
    pub datum: Option<String>,
    pub dist: Option<Distribution>,
    /// The adjusted scores of the board (all of them, or the first `Limits::adjusted`): the
    /// ruling and each side's arithmetic.
    pub adjusted: Vec<AdjustedView>,
    /// When `adjusted` is cut: how many the board has, and the note saying so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjusted_total: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjusted_note: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TravellerLine {
    /// NS's id (a seated table's North).
    pub ns: String,
    /// EW's id (a seated table's East).
    pub ew: String,
    /// A seated table's South and West.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub south: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub west: Option<String>,
    pub contract: String,
    /// NS points of the table result (signed), none when not played.
    pub points: Option<String>,
    pub score_ns: String,
    pub score_ew: String,
    /// `R7 (60%+620&40%-100)`: the ruling that applies and its notation.
    pub ruling: Option<String>,
    pub room: Option<&'static str>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FreqLine {
    /// `NS`, `EW`, or empty when both lines share the table.
    pub line: &'static str,
    pub group: Option<u32>,
    pub points: String,
    pub count: String,
    pub mp_ns: String,
    pub mp_ew: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Distribution {
    pub max: f64,
    pub bars: Vec<Bar>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Bar {
    pub label: String,
    pub count: f64,
}

/// A board's double-dummy table (rows N, S, E, W; columns NT ♠ ♥ ♦ ♣) and par.
#[derive(Clone, Debug, Serialize)]
pub struct DdView {
    pub rows: Vec<DdRow>,
    pub par_score: String,
    pub par_contracts: Vec<ParView>,
    pub par_text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct DdRow {
    pub seat: String,
    pub tricks: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ParView {
    pub level: String,
    pub strain: &'static str,
    pub doubled: bool,
    pub declarer: String,
    pub result: String,
}

/// An adjusted score on a board: the table, the ruling, and each side's components.
#[derive(Clone, Debug, Serialize)]
pub struct AdjustedView {
    pub ns: String,
    pub ew: String,
    /// A seated table's South and West.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub south: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub west: Option<String>,
    pub ruling: String,
    /// The normalised notation in force.
    pub score: String,
    pub law: Option<String>,
    pub note: Option<String>,
    pub by: Option<String>,
    pub sides: Vec<AdjustedSide>,
}

#[derive(Clone, Debug, Serialize)]
pub struct AdjustedSide {
    pub side: &'static str,
    pub participant: String,
    /// An artificial score's percentage (`60%`), when it is one.
    pub artificial: Option<String>,
    /// The weighted results: weight, NS points, the component's score in the side's table.
    pub components: Vec<ComponentView>,
    pub score: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ComponentView {
    pub weight: String,
    pub points: String,
    /// The component's score in the side's table (none at teams, where a room's components
    /// are scored against the other room's: the side's score is the team's on the board).
    pub raw: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct MatchView {
    #[serde(rename = "match")]
    pub match_id: String,
    pub home: String,
    pub away: String,
    pub home_id: String,
    pub away_id: String,
    pub imp_home: Option<String>,
    pub imp_away: Option<String>,
    pub vp_home: String,
    pub vp_away: String,
    /// The match sheet: every board of the match, in board order (`sheets`).
    pub sheet: Vec<SheetRow>,
    /// Teams form: IMPs a penalty took off each team's board total, when one did.
    pub penalty_home: Option<String>,
    pub penalty_away: Option<String>,
    /// The sheet is not shown (`Limits::sheets`): `sheet` is empty.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sheet_cut: bool,
}

/// A board of a match sheet: both rooms, each team's board score (IMPs, or board points at BAM
/// and Patton; signed, none when the board was not scored) and each team's running total.
#[derive(Clone, Debug, Serialize)]
pub struct SheetRow {
    pub board: u32,
    /// Home sits NS in the open room, away in the closed room.
    pub open: Option<RoomLine>,
    pub closed: Option<RoomLine>,
    pub home: Option<String>,
    pub away: Option<String>,
    pub running_home: String,
    pub running_away: String,
}

/// One room of a team board: the pairs seated, the contract and result, NS points, any ruling.
#[derive(Clone, Debug, Serialize)]
pub struct RoomLine {
    pub ns: String,
    pub ew: String,
    pub contract: String,
    pub points: Option<String>,
    /// `R7 (60%+620&40%-100)`: the ruling that applies and its notation.
    pub ruling: Option<String>,
}

/// The leaders' running score across a session's boards (one comparison group).
#[derive(Clone, Debug, Serialize)]
pub struct Chart {
    pub section: Option<String>,
    pub unit: &'static str,
    pub boards: Vec<u32>,
    pub min: f64,
    pub max: f64,
    pub series: Vec<Series>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Series {
    pub label: String,
    pub values: Vec<Option<f64>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RulingView {
    pub id: String,
    pub session: String,
    pub board: u32,
    pub ns: String,
    pub ew: String,
    /// A seated table's South and West.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub south: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub west: Option<String>,
    pub score: String,
    pub law: Option<String>,
    pub by: Option<String>,
    pub at: Option<String>,
    pub note: Option<String>,
    /// `in_force`, `withdrawn` or `superseded:ID`.
    pub status: String,
    /// What its session's participants are when its kind seats four players (`"player"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noun: Option<&'static str>,
    pub supersedes: Option<String>,
    /// What it changed in the standings (`model::add_ruling_effects`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Changes>,
}

/// What a ruling changed: `skipped` (not audited: too many rulings), or how many participants
/// moved and the biggest movers of each group.
#[derive(Clone, Debug, Serialize)]
pub struct Changes {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown: Option<Vec<Mover>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Mover {
    pub group: String,
    pub id: String,
    pub players: String,
    pub before: String,
    pub after: String,
    pub place_before: String,
    pub place_after: String,
}

/// A participant's scorecard in one session: every board it played, in board order.
#[derive(Clone, Debug, Serialize)]
pub struct Scorecard {
    pub session: String,
    pub section: Option<String>,
    pub rows: Vec<CardRow>,
    pub total: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct CardRow {
    pub board: u32,
    /// The board's section (its page's address), when compared by section.
    pub section: Option<String>,
    pub side: &'static str,
    pub opponent: String,
    /// A seated table: the player's seat (`N`...), partner and two opponents (left, right).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partner: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opponents: Option<Vec<String>>,
    pub room: Option<&'static str>,
    pub contract: String,
    /// The table result's points from this side's seat (NS's negated for EW), signed.
    pub points: Option<String>,
    pub score: String,
    pub pct: Option<String>,
    pub running: String,
    pub ruling: Option<String>,
    /// A team board: the match's other room, where the team sat the other way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other: Option<OtherRoom>,
}

/// The other room of a team board on a team's scorecard.
#[derive(Clone, Debug, Serialize)]
pub struct OtherRoom {
    pub room: &'static str,
    pub contract: String,
    /// The result's points from the team's seat there, signed.
    pub points: Option<String>,
}

/// A participant: id, whether a team, names, and its scorecards (one per session played).
#[derive(Clone, Debug, Serialize)]
pub struct ParticipantView {
    pub id: String,
    pub team: bool,
    /// What it is when every session it played seats four players (`"player"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noun: Option<&'static str>,
    /// A player's member number, when the log gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<String>,
    pub name: Option<String>,
    pub players: Vec<String>,
    pub section: Option<String>,
    pub cards: Vec<Scorecard>,
}
