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
pub use cached::extend_cache;
use cached::*;
use deltas::*;
pub use effects::{ruling_effects, Effect};
use engine::*;
pub use output::{to_text, write_json};
pub use rescore::{changed_team_tables, rescore, Rescored};
pub use scope::ruling_scope;
use scope::*;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::event::append::Proposed;
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

/// What an audit is asked: a question, or a what-if (the proposed events, sealed as `append`
/// would write them: `audit::whatif`).
#[derive(Clone, Copy)]
pub enum Ask<'a> {
    Question(&'a Question),
    WhatIf(&'a Proposed),
}

/// The log an audit is asked of, and what is known of it already: each way gives the same
/// answer.
pub enum Source<'a> {
    /// The log read and replayed whole (for a what-if, with the proposals, validated as `append`
    /// validates them): its events, its replay, and its whole scoring when made already (then
    /// reused as the later side of a question whose later side is the whole log, as the
    /// bulletin audits every ruling). `incremental` off: both sides scored whole, the reference
    /// the rest is tested against.
    Replayed {
        events: &'a [Envelope],
        full: &'a State,
        scored: Option<&'a Scored>,
        incremental: bool,
    },
    /// The log's bytes and its audit cache, which holds one side's whole scoring (the later
    /// side of `--ruling` and `--as-of`, the earlier of a what-if): only the boards the question
    /// is on are read, replayed and scored.
    Cached { bytes: &'a [u8], cache: Held<'a> },
}

/// An audit cache given to [`answer`]: owned (then freed, or forgotten, with the answer: at a
/// million results it is hundreds of megabytes) or lent (its standings and sums are taken for
/// the answer and put back, so one cache answers several questions: `--alternatives`).
pub enum Held<'a> {
    Owned(Box<cache::AuditCache>),
    Lent(&'a mut cache::AuditCache),
}

/// What [`answer`] made of a question.
pub enum Outcome {
    Answer(Answer),
    /// The cache cannot answer it (`--between`, a fouled board, `session_bounded`, a comparison
    /// group whose N changes, a question touching most of the log, ...): the caller answers
    /// the long way, with the same answer.
    Cannot,
    /// A what-if's proposals replayed on their boards found something wrong, or name something
    /// beyond them: the caller validates the whole log with them as `append` does.
    Validate,
}

impl Outcome {
    /// The answer, when there is one (always, from a [`Source::Replayed`]).
    pub fn answered(self) -> Option<Answer> {
        match self {
            Outcome::Answer(a) => Some(a),
            Outcome::Cannot | Outcome::Validate => None,
        }
    }
}

/// The audit's one entry point: `ask` answered from `source`. Every answer is the difference
/// of two memoised runs, an earlier and a later side: the side whose whole scoring is known
/// (the given scoring, or the cache's) is reused, the other re-scored only for the boards the
/// differing events touch, its standings those sums with the touched boards swapped
/// (`audit::rescore`); where that cannot be done, the other side is scored whole, reusing
/// every board whose tables are unchanged. From a cache, `Outcome::Cannot` or
/// `Outcome::Validate` when it cannot answer (see [`Outcome`]).
pub fn answer(ask: Ask, source: Source) -> Result<Outcome, AuditError> {
    match source {
        Source::Replayed {
            events,
            full,
            scored,
            incremental,
        } => {
            let base = scored.map_or(Base::None, Base::Whole);
            // A what-if the long way: the audit `--as-of LAST` of the log with the proposals.
            let (question, asked) = match ask {
                Ask::Question(q) => (q.clone(), None),
                Ask::WhatIf(p) => (Question::AsOf(p.first_seq - 1), Some(whatif::question(p))),
            };
            let mut a = audit_inner(events, full, &question, incremental, base)?
                .expect("a whole base always answers");
            if let Some(q) = asked {
                a.question = q;
            }
            Ok(Outcome::Answer(Answer::of(a)))
        }
        Source::Cached { bytes, cache } => {
            let (mut owned, lent) = match cache {
                Held::Owned(c) => (Some(c), None),
                Held::Lent(c) => (None, Some(c)),
            };
            let c = match lent {
                Some(c) => c,
                None => owned.as_deref_mut().expect("owned when not lent"),
            };
            let outcome = match ask {
                Ask::Question(q) => audit_cached(bytes, c, q)?,
                Ask::WhatIf(p) => whatif::whatif_cached(bytes, c, p)?,
            };
            // (an owned cache goes with the answer: its holder frees or forgets it)
            Ok(match (outcome, owned) {
                (Outcome::Answer(a), Some(c)) => Outcome::Answer(Answer {
                    audit: a.audit,
                    residue: Residue::new((a.residue, c)),
                }),
                (o, _) => o,
            })
        }
    }
}

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
