//! Audits: how a ruling (or the events after a point of the log) changed the standings.
//!
//! Two replays of the same log are scored and compared: `--ruling ID` leaves out the ruling,
//! every ruling that supersedes it (directly or through others) and their withdrawals;
//! `--as-of SEQ` compares the first SEQ events with the whole log; `--between A B` two prefixes.
//! The comparison is made on the export rows, so it covers every form.

pub mod alternatives;
pub mod cache;
mod cached;
mod deltas;
pub mod effects;
mod engine;
mod output;
mod rescore;
mod scope;
pub mod whatif;

pub use crate::export::audit_rows::{BoardDelta, StandingDelta};
use cached::*;
pub use cached::{audit_cached, extend_cache};
use deltas::*;
pub use effects::{ruling_effects, Effect};
use engine::*;
pub use output::{to_text, write_json};
pub use rescore::{changed_team_tables, rescore, Rescored};
pub use scope::ruling_scope;
use scope::*;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::event::{Envelope, Event, OnBoard};
use crate::num::Q;
use crate::pipeline::{self, ScoreError, Scored};
use crate::replay::{replay, ReplayScope, State};
use crate::score::{BoardScore, TeamBoardScore};
use crate::standings::Standing;

/// What an audit compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    Ruling(String),
    AsOf(usize),
    Between(usize, usize),
    /// A what-if (`audit::whatif`): the log with these proposed events (as given) added at its
    /// end, against the log as it is.
    With(Vec<serde_json::Value>),
}

/// The rulings an audit is about, for the readable report.
#[derive(Clone, Debug, PartialEq)]
pub struct RulingNote {
    pub id: String,
    pub session: String,
    pub board: u32,
    pub score: String,
    pub law: Option<String>,
    pub by: Option<String>,
    pub note: Option<String>,
    pub seq: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Audit {
    pub question: Question,
    pub standings: Vec<StandingDelta>,
    pub boards: Vec<BoardDelta>,
    pub rulings: Vec<RulingNote>,
    /// How it was answered: only the touched boards re-scored (`true`), or both replays
    /// scored whole.
    pub incremental: bool,
}

/// An audit answered from the audit cache, with what it was made from: at a million results
/// the cached standings and the replayed boards are hundreds of megabytes. They are freed with
/// the answer, not while it is made; the command line, whose process ends after printing the
/// answer, forgets it instead (`main`).
pub struct Answer {
    pub audit: Audit,
    pub residue: Residue,
}

/// What an [`Answer`] was made from (not part of the answer).
pub struct Residue {
    /// Held only to be freed (or forgotten) with the answer.
    _held: Box<dyn std::any::Any + Send + Sync>,
}

impl Residue {
    pub(crate) fn new(made_from: impl std::any::Any + Send + Sync) -> Residue {
        Residue {
            _held: Box::new(made_from),
        }
    }

    /// Nothing kept.
    pub fn none() -> Residue {
        Residue::new(())
    }
}

impl Answer {
    /// An answer made from nothing worth keeping.
    pub fn of(audit: Audit) -> Answer {
        Answer {
            audit,
            residue: Residue::none(),
        }
    }
}

/// Why an audit cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// The question names something the log does not have (exit 2).
    #[error("{0}")]
    BadQuestion(String),
    #[error("{0}")]
    Score(ScoreError),
}

/// Answer an audit question on a log already validated whole; `full` is its whole replay.
///
/// The later replay is scored whole (as `score` would); the earlier one is replayed only for
/// the boards the differing events touch, and only those boards are re-scored, the standings
/// being recomputed with every other board reused (`pipeline::rescore`). When that cannot be
/// done (see `touched_boards` and `rescore`), the earlier replay is scored whole, reusing every
/// board whose tables are unchanged.
pub fn audit(events: &[Envelope], full: &State, question: &Question) -> Result<Audit, AuditError> {
    audit_with(events, full, question, true)
}

/// [`audit`] of a log already scored whole (`scored` is `pipeline::score(full)`): for a
/// question whose later side is the whole log (`--ruling`, `--as-of`), that scoring is reused
/// instead of done again (the bulletin audits every ruling this way).
pub fn audit_scored(
    events: &[Envelope],
    full: &State,
    scored: &Scored,
    question: &Question,
) -> Result<Audit, AuditError> {
    audit_inner(events, full, question, true, Base::Whole(scored))
        .map(|a| a.expect("a whole base always answers"))
}

/// [`audit`], with the incremental path on or off (off: both replays scored whole, the
/// reference the incremental path is tested against).
pub fn audit_with(
    events: &[Envelope],
    full: &State,
    question: &Question,
    incremental: bool,
) -> Result<Audit, AuditError> {
    audit_inner(events, full, question, incremental, Base::None)
        .map(|a| a.expect("a whole base always answers"))
}

/// Answer `question` from the audit cache of the log whose bytes are `bytes`: only the
/// declarations and the boards the question touches are parsed, replayed and scored; the
/// standings of every other board come from the cache. `Ok(None)` when the question cannot be
/// answered that way (`--between`, a team session, a fouled board, a question that changes
/// declarations, ...): the caller answers it the long way, with the same result.
/// Whether a question that touches `touched` of a log's `all` board lines (an early
/// `--as-of`) is answered faster the long way than through the cache: more than half of a big
/// log's. Measured at 1.2 M results, the cache's way costs about 0.7 s plus 12 s times the
/// share touched, the long way about 8 s; in a small log either way is quick.
pub fn touches_most(touched: usize, all: usize) -> bool {
    2 * touched > all && touched > 100_000
}

fn no_ruling(id: &str) -> String {
    format!("no ruling \"{id}\" in the log")
}

fn as_of_past(seq: usize, last: usize) -> String {
    format!("--as-of {seq}: the log has only {last} events")
}

/// The earlier replay of some boards made beside the later one: the boards, the replay, and
/// its boards scored with the whole log's N (when they could be).
type Earlier = (BTreeSet<(String, u32)>, State, Option<Vec<BoardScore>>);

/// What an audit starts from besides the log.
#[derive(Clone, Copy)]
enum Base<'a> {
    /// Nothing: each side is scored as needed.
    None,
    /// The whole log scored.
    Whole(&'a Scored),
    /// The audit cache's: the events and the replay are the log's declarations and a few
    /// boards; `scored` holds those boards' scores with the whole log's sums, standings and
    /// fields, `board_ns` every board's number of tables, `last` the log's last seq.
    Partial {
        scored: &'a Scored,
        board_ns: &'a [cache::BoardN],
        last: usize,
        /// The earlier replay of some boards, made and scored beside the later one.
        earlier: Option<&'a Earlier>,
        /// The boards the events and the replay have.
        replayed: &'a BTreeSet<(String, u32)>,
    },
}

/// A base's parts: the scoring, every board's N, whether it is partial, the earlier replay
/// made beside the later one, the boards replayed.
type BaseParts<'a> = (
    Option<&'a Scored>,
    Option<&'a [cache::BoardN]>,
    bool,
    Option<&'a Earlier>,
    Option<&'a BTreeSet<(String, u32)>>,
);

impl<'a> Base<'a> {
    fn parts(self) -> BaseParts<'a> {
        match self {
            Base::None => (None, None, false, None, None),
            Base::Whole(s) => (Some(s), None, false, None, None),
            Base::Partial {
                scored,
                board_ns,
                earlier,
                replayed,
                ..
            } => (Some(scored), Some(board_ns), true, earlier, Some(replayed)),
        }
    }
}

/// The audit; `None` only for a `Base::Partial` that cannot answer it.
fn audit_inner(
    events: &[Envelope],
    full: &State,
    question: &Question,
    incremental: bool,
    base: Base,
) -> Result<Option<Audit>, AuditError> {
    let (scored_full, board_ns, partial_base, earlier, replayed) = base.parts();
    let last = match base {
        Base::Partial { last, .. } => last,
        _ => events.last().map_or(0, |e| e.seq),
    };
    let Some((before_scope, after_scope)) = scopes(events, question, last, partial_base)? else {
        return Ok(None);
    };
    let owned;
    let after_state: &State = if after_scope.upto.is_none() && after_scope.skip.is_empty() {
        full
    } else {
        let _span = tracing::info_span!("replay").entered();
        owned = replay(events, &after_scope).0;
        &owned
    };
    let touched = incremental
        .then(|| touched_keys(events, (&before_scope, &after_scope), after_state))
        .flatten();
    // (a partial base answers only for boards it replayed)
    if partial_base
        && touched
            .as_ref()
            .is_none_or(|k| replayed.is_some_and(|r| !k.is_subset(r)))
    {
        return Ok(None);
    }
    // The later side scored whole: the given scoring when it is the whole log's (the earlier
    // side is then scored whole without reusing it when it cannot be re-scored in part: that
    // costs no more than scoring the whole log again to keep what to reuse); otherwise scored
    // now, keeping what a whole re-scoring of the earlier side would reuse when one is expected.
    let whole_log = after_scope.upto.is_none() && after_scope.skip.is_empty();
    let mut owned_after = None;
    let (after, prepared): (&Scored, _) = match scored_full {
        Some(sc) if whole_log => (sc, None),
        _ => {
            let (sc, prepared, _) = pipeline::score_reusing(after_state, None, touched.is_none())
                .map_err(AuditError::Score)?;
            (&*owned_after.insert(sc), prepared)
        }
    };
    let mut owned_partial = None;
    let incremental = match touched {
        Some(keys) => {
            let (partial, scored) = earlier_side(
                (events, &before_scope, after_state),
                earlier,
                &keys,
                &mut owned_partial,
            );
            rescore(after_state, after, board_ns, partial, &keys, false, scored)
                .map_err(AuditError::Score)?
                .map(|r| (partial, r, keys))
        }
        None => None,
    };
    if partial_base && incremental.is_none() {
        return Ok(None);
    }
    let answered_incrementally = incremental.is_some();
    let _span = tracing::info_span!("compare").entered();
    let (boards, standings) = match incremental {
        Some((partial, r, keys)) => {
            tracing::info!(
                rescored = r.pair_boards.len() + r.team_boards.len(),
                of = after.board_count(),
                "audit: boards re-scored for the other replay"
            );
            let before = Side {
                state: partial,
                pairs: &r.pair_boards,
                teams: &r.team_boards,
                standings: &r.standings,
            };
            let later = Side {
                state: after_state,
                pairs: &after.pair_boards,
                teams: &after.team_boards,
                standings: &after.standings,
            };
            compare(before, later, &r.changed_team_boards, &keys)
        }
        None => compare_whole(events, &before_scope, after_state, after, prepared.as_ref())?,
    };
    let wanted = asked_seqs(question, &before_scope, last);
    let rulings = ruling_notes(after_state, |seq| wanted.contains(&seq));
    Ok(Some(Audit {
        question: question.clone(),
        standings,
        boards,
        rulings,
        incremental: answered_incrementally,
    }))
}

/// The deltas between the earlier side of `before_scope`, replayed and scored whole (reusing
/// `prepared`: the later side's boards whose tables are unchanged), and the later side.
fn compare_whole(
    events: &[Envelope],
    before_scope: &ReplayScope,
    after_state: &State,
    after: &Scored,
    prepared: Option<&pipeline::BoardMemo>,
) -> Result<(Vec<BoardDelta>, Vec<StandingDelta>), AuditError> {
    let before_state = {
        let _span = tracing::info_span!("replay").entered();
        replay(events, before_scope).0
    };
    let (before, _, fresh) =
        pipeline::score_reusing(&before_state, prepared, false).map_err(AuditError::Score)?;
    tracing::info!(
        rescored = fresh,
        of = after.board_count(),
        "audit: boards re-scored for the other replay (whole replay)"
    );
    Ok(rayon::join(
        || {
            board_deltas(
                &before_state,
                &Boards::all(&before),
                after_state,
                &Boards::all(after),
            )
        },
        || {
            standing_deltas(
                &before_state,
                &before.standings,
                after_state,
                &after.standings,
            )
        },
    ))
}

/// The boards to re-score: those the events differing between the scopes are on, with every
/// board of a team session among them (its matches' points depend on all its boards).
fn touched_keys(
    events: &[Envelope],
    (before_scope, after_scope): (&ReplayScope, &ReplayScope),
    after_state: &State,
) -> Option<BTreeSet<BoardKey>> {
    let seqs = differing(events, before_scope, after_scope);
    touched_boards(events, &seqs, after_state).map(|mut keys| {
        whole_team_sessions(&mut keys, after_state.sessions.iter().map(|s| &s.def));
        keys
    })
}

/// The earlier side's replay of the boards `keys` (seeded with the later side's, `after_state`)
/// and its boards when scored already: `earlier`'s when it was made beside the later replay,
/// of the same boards and scope; otherwise replayed now into `slot`.
fn earlier_side<'s>(
    (events, before_scope, after_state): (&[Envelope], &ReplayScope, &State),
    earlier: Option<&'s Earlier>,
    keys: &BTreeSet<BoardKey>,
    slot: &'s mut Option<State>,
) -> (&'s State, Option<&'s [BoardScore]>) {
    match earlier {
        Some((k, st, scored)) if k == keys => (st, scored.as_deref()),
        _ => {
            let scope = ReplayScope {
                boards: Some(keys.clone()),
                ..before_scope.clone()
            };
            let _span = tracing::info_span!("replay", boards = keys.len()).entered();
            let st = crate::replay::replay_seeded(events, &scope, after_state).0;
            (slot.insert(st), None)
        }
    }
}

/// The seqs of the events a question is about (of the log whose last seq is `last`).
fn asked_seqs(question: &Question, before_scope: &ReplayScope, last: usize) -> BTreeSet<usize> {
    match question {
        // The ruling, what supersedes it and their withdrawals: the events left out.
        Question::Ruling(_) => before_scope.skip.clone(),
        Question::AsOf(a) => (a + 1..=last).collect(),
        Question::Between(a, b) => (a + 1..=*b).collect(),
        Question::With(_) => BTreeSet::new(),
    }
}
