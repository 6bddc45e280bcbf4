//! Scoring: one module per form over the same replayed board state ([`form`] lists them).
//!
//! Scoring knows nothing of files, Parquet or Typst. Its input is a `BoardIn` (the tables of one
//! board in one comparison group, each side's distribution already resolved from the rulings in
//! force) and its output a `BoardScore` (each side's score, the frequency tables, the board's
//! statistics); a board of a team match is scored from its two rooms (`rooms`) into a
//! `TeamBoardScore`. All arithmetic is exact (`Q`).

pub mod aggregate;
pub mod bam;
pub mod butler;
pub mod form;
pub mod mp;
pub mod napki;
pub mod patton;
pub mod rooms;
pub mod seats;
pub mod stats;
pub mod teams;
pub mod ximp;

pub use form::Form;

use crate::adjust::{ArtLabel, Component, Part, Side};
use crate::error::Notice;
use crate::num::Q;
use crate::options::Options;

/// One side's part at a table, as scoring sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dist {
    /// A played (or assigned) score, weight 1.
    Plain(i32),
    /// An artificial score: percent (A+ = 60).
    Artificial(Q, ArtLabel),
    /// Weighted components, merged by points (weights sum to 1; may be negative).
    Weighted(Vec<Component>),
}

impl Dist {
    pub fn from_part(p: &Part) -> Dist {
        match p {
            Part::Artificial { pct, label } => Dist::Artificial(*pct, *label),
            Part::Weighted(_) => {
                let m = p.merged();
                if m.len() == 1 && m[0].weight == Q::ONE {
                    Dist::Plain(m[0].points)
                } else {
                    Dist::Weighted(m)
                }
            }
        }
    }

    pub fn is_artificial(&self) -> bool {
        matches!(self, Dist::Artificial(..))
    }

    /// `(weight, points)` of each component; nothing for an artificial score.
    pub fn for_each(&self, mut f: impl FnMut(Q, i32)) {
        match self {
            Dist::Plain(p) => f(Q::ONE, *p),
            Dist::Artificial(..) => {}
            Dist::Weighted(cs) => cs.iter().for_each(|c| f(c.weight, c.points)),
        }
    }

    pub fn components(&self) -> Vec<(Q, i32)> {
        let mut v = Vec::new();
        self.for_each(|w, p| v.push((w, p)));
        v
    }
}

/// One table of a board, ready to score.
#[derive(Clone, Debug, PartialEq)]
pub struct TableIn {
    pub ns: PId,
    pub ew: PId,
    /// What each side is scored with.
    pub ns_score: Dist,
    pub ew_score: Dist,
    /// What the table contributes to each line's frequency table (differs from the score only
    /// for a structured subsequent-damage ruling under `sd_method: simplified`, C11).
    pub ns_freq: Dist,
    pub ew_freq: Dist,
    /// A ruling is in force (C21).
    pub adjusted: bool,
    /// The played result's NS points, if the board was played here.
    pub played: Option<i32>,
    /// The ruling's id and line, for notices.
    pub ruling: Option<(String, usize)>,
    /// The non-offending side when the ruling has one (structured subsequent damage).
    pub nos: Option<Side>,
    /// An individual session's table: South and West, credited with their side's score
    /// ([`seats`]).
    pub others: Option<[PId; 2]>,
}

impl TableIn {
    /// What `side` is scored with, and what it contributes to its line's table.
    pub fn parts(&self, side: Side) -> (&Dist, &Dist) {
        match side {
            Side::NS => (&self.ns_score, &self.ns_freq),
            Side::EW => (&self.ew_score, &self.ew_freq),
        }
    }

    pub fn plain(ns: PId, ew: PId, points: i32) -> TableIn {
        TableIn {
            ns,
            ew,
            ns_score: Dist::Plain(points),
            ew_score: Dist::Plain(points),
            ns_freq: Dist::Plain(points),
            ew_freq: Dist::Plain(points),
            adjusted: false,
            played: Some(points),
            ruling: None,
            nos: None,
            others: None,
        }
    }
}

/// One board of one comparison group.
#[derive(Clone, Debug)]
pub struct BoardIn<'a> {
    pub session: usize,
    pub section: Option<String>,
    pub board: u32,
    /// N: the largest number of tables on any board of the comparison group (C7).
    pub field: u32,
    pub form: Form,
    pub options: &'a Options,
    pub tables: Vec<TableIn>,
    /// A fouled board's group (1-based, C31), scored as its own field; 0 when not fouled.
    pub part: u32,
}

/// A line of the frequency tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Line {
    NS,
    EW,
    Both,
}

impl Line {
    pub fn as_str(self) -> &'static str {
        match self {
            Line::NS => "NS",
            Line::EW => "EW",
            Line::Both => "both",
        }
    }
}

/// One row of a frequency table.
#[derive(Clone, Debug, PartialEq)]
pub struct FreqRow {
    pub line: Line,
    pub ns_points: i32,
    pub count: Q,
    /// Matchpoints an NS pair with this score earns (factored).
    pub mp_ns: Q,
    /// Matchpoints an EW pair with this score earns (factored): top − mp_ns.
    pub mp_ew: Q,
    /// A fouled board's group (C32) whose table this row belongs to.
    pub group: Option<u32>,
}

/// How a line's raw matchpoints were brought to the field's top.
#[derive(Clone, Debug, PartialEq)]
pub enum Factoring {
    None,
    /// Neuberg: (raw + 1)·N/n − 1.
    Neuberg {
        n: Q,
        field: u32,
    },
    /// The small-field table (C8): pct = 65 − 5n + 5·raw.
    SmallField {
        n: Q,
        field: u32,
    },
}

/// One component of a side's score, for `explain`.
#[derive(Clone, Debug, PartialEq)]
pub struct ComponentScore {
    pub weight: Q,
    pub points: i32,
    /// Raw matchpoints of this component in the side's line table (before factoring).
    pub raw: Q,
}

/// The arithmetic of one side's score, kept for adjusted sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Detail {
    pub components: Vec<ComponentScore>,
    /// Σ weight·raw minus the self term.
    pub raw: Q,
    pub self_term: Q,
    pub factoring: Factoring,
}

/// One participant's score on a board.
#[derive(Clone, Debug, PartialEq)]
pub struct SideScore {
    pub participant: PId,
    pub side: Side,
    pub opponent: PId,
    pub score: Q,
    /// Matchpoint top after factoring (MP forms).
    pub top: Option<Q>,
    pub adjusted: bool,
    /// The played result's NS points; `None` when not played here or artificial (C21).
    pub ns_points: Option<i32>,
    /// Percent of an artificial score (re-valued by `mp_artificial: session_bounded`); boxed,
    /// as few sides have one.
    pub artificial: Option<Box<Q>>,
    /// Boxed: most sides have none, and a board can have 100,000 sides.
    pub detail: Option<Box<Detail>>,
}

/// Statistics of a board (C10, C16).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardStats {
    pub results: Q,
    pub mean: Option<Q>,
    pub dispersion: Option<Q>,
    pub dispersion_imp: Option<Q>,
    pub dispersion_mp: Option<Q>,
}

/// A participant (pair or team) by its number: its index in the replay's
/// `State::participants`.
pub type PId = u32;

/// A team match, scored (matches.parquet).
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    pub session: usize,
    pub match_id: String,
    pub home: PId,
    pub away: PId,
    /// Boards of the match as declared (B = 15·√boards), and boards scored.
    pub boards: u32,
    pub scored: u32,
    /// Teams: each team's net signed IMPs (IMP penalties included); Patton: each team's signed
    /// aggregate in points; BAM: none.
    pub imp_home: Option<Q>,
    pub imp_away: Option<Q>,
    /// Teams: VPs; Patton: board points + aggregate points; BAM: board points.
    pub vp_home: Q,
    pub vp_away: Q,
}

/// A board of one comparison group, scored.
#[derive(Clone, Debug)]
pub struct BoardScore {
    pub session: usize,
    pub section: Option<String>,
    pub board: u32,
    pub field: u32,
    /// Each table's sides: per table, its NS then its EW participants (one each, or an
    /// individual session's two players each, [`seats`]).
    pub sides: Vec<SideScore>,
    /// Participants on one side of a table: 1, or 2 in an individual session.
    pub per_side: u8,
    pub freq: Vec<FreqRow>,
    /// Shared: a team board's statistics are pooled over the session (C16), one for every
    /// match that played it.
    pub stats: std::sync::Arc<BoardStats>,
    pub datum: Option<Q>,
    pub notices: Vec<Notice>,
    /// Figures of the form's arithmetic for `explain` (datum, multiplier, ...).
    pub facts: Vec<(&'static str, Q)>,
    /// Lines of the form's arithmetic for `explain` (what trimming removed, ...).
    pub text: Vec<String>,
}

/// A board of a team match, scored: what every scored board has (`score`: the two teams'
/// sides, home NS and away EW, and the board's statistics pooled over the session, C16), its
/// match, and each team's arithmetic.
#[derive(Clone, Debug)]
pub struct TeamBoardScore {
    pub score: BoardScore,
    pub match_id: String,
    pub rooms: rooms::TeamBoard,
    /// Whether `score.stats` is this board's row of boards.parquet (the team boards of one
    /// number share one row, pooled over the session, C16: the first match's carries it).
    pub export_stats: bool,
}

impl SideScore {
    /// A side of an IMP-form table (no top): its score, and what C21 says of `ns_points`.
    pub fn imp_form(
        t: &TableIn,
        side: Side,
        score: Q,
        artificial: Option<Q>,
        detail: Option<Detail>,
    ) -> SideScore {
        let (me, opp, score_d) = match side {
            Side::NS => (t.ns, t.ew, &t.ns_score),
            Side::EW => (t.ew, t.ns, &t.ew_score),
        };
        SideScore {
            participant: me,
            side,
            opponent: opp,
            score,
            top: None,
            adjusted: t.adjusted,
            ns_points: if score_d.is_artificial() {
                None
            } else {
                t.played
            },
            artificial: artificial.map(Box::new),
            detail: detail.map(Box::new),
        }
    }
}

impl BoardScore {
    /// The number of tables scored.
    pub fn tables(&self) -> usize {
        self.sides.len() / (2 * self.per_side as usize)
    }

    /// A scored board of `b` with these sides and statistics; the rest empty.
    pub fn new(b: &BoardIn, sides: Vec<SideScore>, stats: BoardStats) -> BoardScore {
        BoardScore {
            session: b.session,
            section: b.section.clone(),
            board: b.board,
            field: b.field,
            sides,
            per_side: 1,
            freq: Vec::new(),
            stats: std::sync::Arc::new(stats),
            datum: None,
            notices: Vec::new(),
            facts: Vec::new(),
            text: Vec::new(),
        }
    }
}

/// Score one board of one comparison group in its session's form (a pairs form this version
/// scores: the pipeline refuses the others before scoring).
pub fn score_board(b: &BoardIn) -> BoardScore {
    let score = b
        .form
        .pairs()
        .and_then(|p| p.score)
        .expect("a board of a comparison group is of a pairs form this version scores");
    let mut out = score(b);
    seats::credit(b, &mut out);
    out
}
