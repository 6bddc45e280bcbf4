//! Audits: how a ruling (or the events after a point of the log) changed the standings.
//!
//! Two replays of the same log are scored and compared: `--ruling ID` leaves out the ruling,
//! every ruling that supersedes it (directly or through others) and their withdrawals;
//! `--as-of SEQ` compares the first SEQ events with the whole log; `--between A B` two prefixes.
//! The comparison is made on the export rows, so it covers every form.

pub mod alternatives;
pub mod cache;
pub mod whatif;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::event::{Envelope, Event, OnBoard};
use crate::num::Q;
use crate::pipeline::{self, ScoreError, Scored};
use crate::replay::{replay, ReplayScope, State};
use crate::score::BoardScore;
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

/// One participant of a standings group that changed. (Its names are shared: a big field's
/// audit lists 200,000 of them, each participant twice, each session's name thousands of times.)
#[derive(Clone, Debug, PartialEq)]
pub struct StandingDelta {
    pub session: Arc<str>,
    pub section: Option<Arc<str>>,
    pub participant: Arc<str>,
    pub players: Arc<str>,
    pub total_before: Option<f64>,
    pub total_after: Option<f64>,
    pub pct_before: Option<f64>,
    pub pct_after: Option<f64>,
    pub rank_before: Option<i32>,
    pub rank_after: Option<i32>,
    /// A team (a team session, or a team's overall standing), not a pair: for the readable
    /// report's heading (not part of the JSON or Parquet).
    pub team: bool,
    /// `total_after − total_before`: the exact difference as a float when both totals are exact
    /// (1.22, not the 1.2199999999999989 of subtracting their floats), else the floats'.
    pub moved: Option<f64>,
}

impl StandingDelta {
    pub fn delta(&self) -> Option<f64> {
        self.moved
    }
}

/// One participant's score on a board where a score changed.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardDelta {
    pub session: String,
    pub section: Option<String>,
    pub board: i32,
    pub participant: String,
    pub side: String,
    pub score_before: Option<f64>,
    pub score_after: Option<f64>,
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
    /// What the answer was made from, when that is big (an audit from the cache: the cached
    /// standings and the replayed boards of a million-result log). Freed with the answer, not
    /// while it is made: the command line, whose process ends after printing it, never frees
    /// it. Not part of the answer: clones and comparisons ignore it.
    pub residue: Residue,
}

/// See [`Audit::residue`].
#[derive(Default)]
pub struct Residue(Option<Box<dyn std::any::Any + Send + Sync>>);

impl Clone for Residue {
    fn clone(&self) -> Self {
        Residue(None)
    }
}

impl PartialEq for Residue {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Residue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Residue(..)"
        } else {
            "Residue"
        })
    }
}

/// Why an audit cannot be answered.
#[derive(Debug)]
pub enum AuditError {
    /// The question names something the log does not have (exit 2).
    BadQuestion(String),
    Score(ScoreError),
}

impl std::fmt::Display for AuditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuditError::BadQuestion(m) => f.write_str(m),
            AuditError::Score(e) => write!(f, "{e}"),
        }
    }
}

/// The `seq`s left out by `--ruling ID`: the ruling, every ruling superseding it (directly or
/// through others), and the withdrawals of any of them.
pub fn ruling_scope(events: &[Envelope], id: &str) -> Option<BTreeSet<usize>> {
    let mut ids: BTreeSet<String> = BTreeSet::new();
    let mut seqs = BTreeSet::new();
    let first = events
        .iter()
        .find(|e| matches!(&e.event, Event::Ruling(r) if r.id == id))?;
    ids.insert(id.to_string());
    seqs.insert(first.seq);
    // Supersession only points backwards, so one pass in log order finds every descendant.
    for e in events {
        match &e.event {
            Event::Ruling(r) if r.supersedes.as_ref().is_some_and(|s| ids.contains(s)) => {
                ids.insert(r.id.clone());
                seqs.insert(e.seq);
            }
            _ => {}
        }
    }
    for e in events {
        if let Event::RulingWithdrawn { ruling } = &e.event {
            if ids.contains(ruling) {
                seqs.insert(e.seq);
            }
        }
    }
    Some(seqs)
}

/// The boards (`(session id, board)`) whose tables the events of `seqs` touch, or `None` when
/// they do more than that (declare a session, a participant or a match, change a team
/// session's penalties, ...): such a question is answered by scoring both replays whole.
fn touched_boards(
    events: &[Envelope],
    seqs: &BTreeSet<usize>,
    full: &State,
) -> Option<BTreeSet<(String, u32)>> {
    let event_at = |seq: usize| {
        events
            .binary_search_by_key(&seq, |e| e.seq)
            .ok()
            .map(|i| &events[i])
    };
    let ruling_board = |id: &str| {
        events.iter().find_map(|e| match &e.event {
            Event::Ruling(r) if r.id == id => Some((r.session.clone(), r.board)),
            _ => None,
        })
    };
    let mut keys = BTreeSet::new();
    for &seq in seqs {
        let e = event_at(seq)?;
        let key = match (e.event.on_board(), &e.event) {
            (Some(OnBoard::Board(s, b)), _) => (s.to_string(), b),
            (Some(OnBoard::OfRuling(id)), _) => ruling_board(id)?,
            (Some(OnBoard::OfResult(seq)), _) => match &event_at(seq)?.event {
                Event::Result(r) => (r.session.clone(), r.board),
                _ => return None,
            },
            (None, Event::Penalty(p)) => {
                // Penalties only move standings, which are recomputed whole; but a team
                // session's IMP penalties come off its matches.
                let s = full.session_index(&p.session)?;
                if full.sessions[s].def.form.is_team() {
                    return None;
                }
                continue;
            }
            _ => return None,
        };
        keys.insert(key);
    }
    Some(keys)
}

/// The seqs in which two replay scopes of a log differ.
fn differing(events: &[Envelope], a: &ReplayScope, b: &ReplayScope) -> BTreeSet<usize> {
    let within =
        |s: &ReplayScope, seq: usize| s.upto.is_none_or(|u| seq <= u) && !s.skip.contains(&seq);
    events
        .iter()
        .map(|e| e.seq)
        .filter(|&q| within(a, q) != within(b, q))
        .collect()
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

pub fn audit_cached(
    bytes: &[u8],
    c: cache::AuditCache,
    question: &Question,
) -> Result<Option<Audit>, AuditError> {
    // (a cache of another length is not this log's: answered the long way)
    if !c.fits(bytes) {
        return Ok(None);
    }
    let which: Vec<usize> = match question {
        Question::Between(..) | Question::With(_) => return Ok(None),
        Question::Ruling(id) => match c.rulings.iter().find(|r| r.0 == *id) {
            Some(r) => vec![r.1 as usize],
            None => return Err(AuditError::BadQuestion(no_ruling(id))),
        },
        Question::AsOf(seq) => {
            if *seq > c.last_seq {
                return Err(AuditError::BadQuestion(as_of_past(*seq, c.last_seq)));
            }
            (0..c.boards.len())
                .filter(|&i| c.boards[i].1.last().is_some_and(|l| l.seq as usize > *seq))
                .collect()
        }
    };
    // A team session's matches some table of which the question changes are re-scored whole:
    // every board of the session is replayed, of the boards not asked about only the lines of
    // those matches (and of no known match). (`changed` None: every line.)
    let which_asked = which.clone();
    let team = team_sessions_of(&c.boards, &c.sessions, &c.teams, &which);
    let mut seed = None;
    // (`first`: the declarations and the asked boards' events, parsed to find them)
    let (changed, first) = if team.is_empty() {
        (None, None)
    } else {
        let st = seed.insert(State::with_participants(c.participants.clone()));
        changed_matches(bytes, &c, &which_asked, question, st)
    };
    let which = with_team_boards(&c.boards, &c.sessions, &c.teams, which);
    let mut asked = vec![false; c.boards.len()];
    for &i in &which_asked {
        asked[i] = true;
    }
    let keep = |i: usize, tag: u32| {
        asked[i] || tag == cache::NO_MATCH || changed.as_ref().is_none_or(|m| m.contains(&tag))
    };
    let touched: usize = which
        .iter()
        .map(|&i| {
            (0..c.boards[i].1.len())
                .filter(|&j| keep(i, c.matches.get(i, j)))
                .count()
        })
        .sum();
    let all: usize = c.boards.iter().map(|b| b.1.len()).sum();
    if touches_most(touched, all) {
        tracing::info!(
            touched,
            all,
            "audit: the question touches most of the log's board lines"
        );
        return Ok(None);
    }
    let (sub, state, earlier, keys) = {
        let _span = tracing::info_span!("replay", boards = which.len()).entered();
        // The events: those parsed already, and the other lines read and parsed (beside the
        // participants' look-up, one thread's work).
        let parse = || -> Option<Vec<Envelope>> {
            let _s = tracing::debug_span!("parse").entered();
            let parse = |l: &[_]| crate::event::read::parse_lines(l).ok();
            match first {
                None => parse(&c.lines_with(bytes, &which, keep)?),
                Some(mut events) => {
                    let rest: Vec<usize> = which.iter().copied().filter(|&i| !asked[i]).collect();
                    events.extend(parse(&c.board_lines_with(bytes, &rest, keep)?)?);
                    // (two runs in log order: merged)
                    events.sort_by_key(|e| e.seq);
                    Some(events)
                }
            }
        };
        let (parsed, seed) = rayon::join(parse, || {
            seed.take()
                .unwrap_or_else(|| State::with_participants(c.participants.clone()))
        });
        let Some(sub) = parsed else {
            return Ok(None);
        };
        let mut keys: BTreeSet<(String, u32)> =
            which.iter().map(|&i| c.boards[i].0.clone()).collect();
        // (and every board the team sessions among them declare: as `audit_inner` asks)
        pipeline::whole_team_sessions(&mut keys, session_defs(&sub));
        // The earlier replay of the same boards made beside the later one (each is one thread's
        // work), seeded alike: `audit_inner` takes it when it touches these boards.
        let earlier_scope = match scopes(&sub, question, c.last_seq, true) {
            Ok(Some((b, _))) => Some(ReplayScope {
                boards: Some(keys.clone()),
                ..b
            }),
            _ => None,
        };
        let (state, earlier) = rayon::join(
            || {
                tracing::debug_span!("replay_boards")
                    .in_scope(|| replay_boards(&sub, keys.clone(), &seed, &c))
            },
            || {
                earlier_scope.map(|scope| {
                    let _s = tracing::debug_span!("earlier").entered();
                    (
                        keys.clone(),
                        crate::replay::replay_seeded(&sub, &scope, &seed).0,
                    )
                })
            },
        );
        let Some(state) = state else {
            return Ok(None);
        };
        (sub, state, earlier, keys)
    };
    // The team boards the question is on (the other boards of their sessions, replayed for
    // their matches, have the same scores both ways): scored for the comparison.
    let team: BTreeSet<(usize, u32)> = which_asked
        .iter()
        .filter_map(|&i| {
            let (id, b) = &c.boards[i].0;
            let s = state.session_index(id)?;
            state.sessions[s].def.form.is_team().then_some((s, *b))
        })
        .collect();
    // The boards' scores in the whole log: each scored with its comparison group's N there.
    // (and the earlier replay's boards beside them: each board is one thread's work)
    let (boards, earlier) = {
        let _span = tracing::info_span!("score", boards = which.len()).entered();
        let (later, earlier_scored) = rayon::join(
            || {
                let pairs = score_with_fields(&state, &c.fields);
                if team.is_empty() {
                    return pairs;
                }
                let teams = pipeline::score_team_boards(&state, &team);
                pairs.map(|p| {
                    p.map(|mut p| {
                        p.extend(teams);
                        p
                    })
                })
            },
            || {
                earlier
                    .as_ref()
                    .map(|(_, st)| score_with_fields(st, &c.fields))
            },
        );
        let earlier = earlier.map(|(k, st)| {
            let scored = earlier_scored.and_then(|r| r.ok().flatten());
            (k, st, scored)
        });
        match later? {
            Some(b) => (b, earlier),
            None => return Ok(None),
        }
    };
    let cache::AuditCache {
        last_seq,
        fields,
        board_ns,
        sums,
        standings,
        ..
    } = c;
    let scored = Scored {
        boards,
        matches: Vec::new(),
        standings,
        fields,
        notices: Vec::new(),
        sums,
    };
    let answer = audit_inner(
        &sub,
        &state,
        question,
        true,
        Base::Partial {
            scored: &scored,
            board_ns: &board_ns,
            last: last_seq,
            earlier: earlier.as_ref(),
            replayed: &keys,
        },
    );
    // What a million-result log's audit was made from (the cached standings, the replayed
    // boards) goes with the answer: its holder frees it when the answer is done with.
    answer.map(|a| {
        a.map(|mut a| {
            a.residue = Residue(Some(Box::new((scored, state, sub, board_ns, earlier))));
            a
        })
    })
}

/// A replay of the boards `keys` of a cached log from `events` (the declarations and those
/// boards' lines), seeded with the cache's participants (`seed`: their lines are not among the
/// events); `None` when it finds an error or numbers things otherwise than the cache.
fn replay_boards(
    events: &[Envelope],
    keys: BTreeSet<(String, u32)>,
    seed: &State,
    c: &cache::AuditCache,
) -> Option<State> {
    let scope = ReplayScope {
        boards: Some(keys),
        ..Default::default()
    };
    let (state, errors) = crate::replay::replay_seeded(events, &scope, seed);
    (errors.is_empty() && cache::same_numbering(c, &state)).then_some(state)
}

/// The pair-form boards of `state` (a replay of a few boards) scored each with its comparison
/// group's N in the whole log (`fields`); `None` for a fouled board, `session_bounded` or a
/// group the whole log does not have.
fn score_with_fields(
    state: &State,
    fields: &BTreeMap<(usize, Option<String>), u32>,
) -> Result<Option<Vec<BoardScore>>, AuditError> {
    use rayon::prelude::*;
    let (mut tasks, _) = pipeline::board_tasks(state).map_err(AuditError::Score)?;
    for t in &mut tasks {
        let s = &state.sessions[t.session];
        if t.part != 0
            || s.def.options.mp_artificial == crate::options::MpArtificial::SessionBounded
        {
            return Ok(None);
        }
        match fields.get(&(t.session, t.section.clone())) {
            Some(&n) => t.field = n,
            None => return Ok(None),
        }
    }
    Ok(Some(
        tasks
            .par_iter()
            .map(|t| pipeline::score_board(&t.input(state)))
            .collect(),
    ))
}

/// The audit cache of a log made of `old`'s log and lines appended to it (`bytes`: the whole
/// log; the caller has checked that `old`'s bytes are its beginning): only the boards the
/// appended lines touch are replayed and re-scored, and the standings' sums carried on, as the
/// audit re-scores a ruling's board. `None` when the appended lines do more than add to boards
/// (declare something, name a participant the log does not have, change a comparison group's
/// N, a fouled board, sums beyond exact arithmetic, ...) or do not read or replay cleanly: the caller goes the long way, which
/// also says what is wrong with them.
pub fn extend_cache(bytes: &[u8], old: cache::AuditCache) -> Option<cache::AuditCache> {
    let body = cache::body(bytes);
    let start = usize::try_from(old.len).ok()?;
    if start == 0 || start >= body.len() || body[start - 1] != b'\n' || !old.sums.all_exact() {
        return None;
    }
    // The appended event lines: (line, seq, bytes, offset in the body).
    let mut lines: Vec<(usize, usize, &[u8], usize)> = Vec::new();
    let (mut line, mut seq, mut at) = (old.newlines as usize + 1, old.last_seq, start);
    let mut newlines = 0u64;
    for raw in body[start..].split(|&b| b == b'\n') {
        let text = std::str::from_utf8(raw.strip_suffix(b"\r").unwrap_or(raw)).map(str::trim);
        if raw.len() > crate::event::read::MAX_LINE {
            return None;
        }
        if !matches!(text, Ok(t) if t.is_empty() || t.starts_with("//")) {
            seq += 1;
            lines.push((line, seq, raw, at));
        }
        at += raw.len() + 1;
        if at <= body.len() {
            newlines += 1;
        }
        line += 1;
    }
    let parsed =
        crate::event::read::parse_lines(&lines.iter().map(|l| (l.0, l.1, l.2)).collect::<Vec<_>>())
            .ok()?;
    // Each appended event's board: its index in `boards` (new boards at the end).
    let mut boards = old.boards.clone();
    let mut index: crate::hash::FxMap<(String, u32), usize> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| (b.0.clone(), i))
        .collect();
    let mut rulings = old.rulings.clone();
    let mut matches = old.matches.clone();
    let mut match_index = matches.index();
    let seed = State::with_participants(old.participants.clone());
    let known = |id: &str| seed.pid(id).is_some();
    let result_board = |boards: &[((String, u32), Vec<cache::LineRef>)], seq: usize| {
        boards
            .iter()
            .position(|b| b.1.binary_search_by_key(&(seq as u32), |r| r.seq).is_ok())
    };
    let mut touched: BTreeSet<usize> = BTreeSet::new();
    for (env, &(line, seq, raw, at)) in parsed.iter().zip(&lines) {
        // (participants the log does not have, and fouled boards, are not carried)
        let named = match &env.event {
            Event::Result(r) => known(&r.ns) && known(&r.ew),
            Event::Ruling(r) => known(&r.ns) && r.ew.as_deref().is_none_or(known),
            Event::Fouled(_) => false,
            _ => true,
        };
        let key = match env.event.on_board().filter(|_| named)? {
            OnBoard::Board(s, b) => (s.to_string(), b),
            OnBoard::OfResult(seq) => boards[result_board(&boards, seq)?].0.clone(),
            OnBoard::OfRuling(id) => boards[rulings.iter().find(|r| r.0 == id)?.1 as usize]
                .0
                .clone(),
        };
        let i = *index.entry(key.clone()).or_insert_with(|| {
            boards.push((key, Vec::new()));
            boards.len() - 1
        });
        // (a result's match, and a correction's: its result's; any other line is read with
        // any match)
        let tag = match &env.event {
            Event::Result(r) => r.match_id.as_ref().map_or(cache::NO_MATCH, |m| {
                matches.intern(&mut match_index, &r.session, m)
            }),
            Event::Correction(c) => boards[i]
                .1
                .binary_search_by_key(&(c.result as u32), |r| r.seq)
                .map_or(cache::NO_MATCH, |j| matches.get(i, j)),
            _ => cache::NO_MATCH,
        };
        boards[i].1.push(cache::LineRef {
            offset: at as u64,
            len: u32::try_from(raw.len()).ok()?,
            line: u32::try_from(line).ok()?,
            seq: u32::try_from(seq).ok()?,
        });
        matches.set(i, boards[i].1.len() - 1, tag);
        if let Event::Ruling(r) = &env.event {
            rulings.push((r.id.clone(), i as u32));
        }
        touched.insert(i);
    }
    // Every board of a team session touched (its changed matches are re-scored), of the boards
    // not touched only the lines of those matches (and of no known match), as an audit reads
    // them (`changed_matches`): found by replaying the touched boards before and after.
    let asked: Vec<usize> = touched.into_iter().collect();
    let in_old = |v: &[usize]| -> Vec<usize> {
        v.iter()
            .copied()
            .filter(|&i| i < old.boards.len())
            .collect()
    };
    let changed = if team_sessions_of(&boards, &old.sessions, &old.teams, &asked).is_empty() {
        None
    } else {
        let keys: BTreeSet<(String, u32)> = asked.iter().map(|&i| boards[i].0.clone()).collect();
        let mut events =
            crate::event::read::parse_lines(&old.lines(bytes, &in_old(&asked))?).ok()?;
        let before = replay_boards(&events, keys.clone(), &seed, &old)?;
        events.extend(parsed.iter().cloned());
        let after = replay_boards(&events, keys, &seed, &old)?;
        match_tags(&before, &after, &matches)
    };
    let which = with_team_boards(&boards, &old.sessions, &old.teams, asked.clone());
    let mut keys: BTreeSet<(String, u32)> = which.iter().map(|&i| boards[i].0.clone()).collect();
    // The touched boards before and after the appended lines.
    let old_which = in_old(&which);
    let mut is_asked = vec![false; boards.len()];
    for &i in &asked {
        is_asked[i] = true;
    }
    let before_lines = old.lines_with(bytes, &old_which, |i, tag| {
        is_asked[i] || tag == cache::NO_MATCH || changed.as_ref().is_none_or(|m| m.contains(&tag))
    })?;
    let mut before = crate::event::read::parse_lines(&before_lines).ok()?;
    pipeline::whole_team_sessions(&mut keys, session_defs(&before));
    let before_state = replay_boards(&before, keys.clone(), &seed, &old)?;
    before.extend(parsed);
    let after_state = replay_boards(&before, keys.clone(), &seed, &old)?;
    let old_scores = score_with_fields(&before_state, &old.fields).ok()??;
    let base = Scored {
        boards: old_scores,
        matches: Vec::new(),
        standings: old.standings,
        fields: old.fields,
        notices: Vec::new(),
        sums: old.sums,
    };
    let r = pipeline::rescore_with(
        &before_state,
        &base,
        Some(&old.board_ns),
        &after_state,
        &keys,
        true,
        None,
    )
    .ok()??;
    let sums = r.sums?;
    // Carried only when exact: sums beyond exact arithmetic (floats, in a field of tens of
    // thousands of tables) would come out of a board taken out and put back within rounding of
    // adding every board up afresh, not equal to it, and the whole log's standings must be
    // those `score` gives.
    if !sums.all_exact() {
        return None;
    }
    let in_keys = |s: usize, b: u32| keys.contains(&(old.sessions[s].clone(), b));
    let mut board_ns: Vec<cache::BoardN> = old
        .board_ns
        .into_iter()
        .filter(|((s, _, b), _)| !in_keys(*s, *b))
        .collect();
    board_ns.extend(r.boards.iter().filter(|b| b.team.is_none()).map(|b| {
        (
            (b.session, b.section.clone(), b.board),
            (b.sides.len() / 2) as u32,
        )
    }));
    Some(cache::AuditCache {
        last_seq: seq,
        newlines: old.newlines + newlines,
        len: body.len() as u64,
        declares: old.declares,
        participants: old.participants,
        sessions: old.sessions,
        teams: old.teams,
        fields: base.fields,
        board_ns,
        sums,
        standings: r.standings,
        rulings,
        boards,
        decl: old.decl,
        matches,
    })
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

/// The team matches (as tags of `c.matches`) some table of which differs between the two
/// replays `question` compares, found by replaying the boards `asked` (indexes of `c.boards`,
/// the boards the question is on) both ways; `None` when they cannot be named that way (a
/// match whose lines are not tagged, a replay that fails): then every match is read. And the
/// events parsed for it (the declarations and those boards'), when they could be.
fn changed_matches(
    bytes: &[u8],
    c: &cache::AuditCache,
    asked: &[usize],
    question: &Question,
    seed: &State,
) -> (Option<BTreeSet<u32>>, Option<Vec<Envelope>>) {
    let _span = tracing::debug_span!("changed_matches").entered();
    let Some(sub) = c
        .lines(bytes, asked)
        .and_then(|l| crate::event::read::parse_lines(&l).ok())
    else {
        return (None, None);
    };
    let keys: BTreeSet<(String, u32)> = asked.iter().map(|&i| c.boards[i].0.clone()).collect();
    let Ok(Some((before, _))) = scopes(&sub, question, c.last_seq, true) else {
        return (None, Some(sub));
    };
    let scope = ReplayScope {
        boards: Some(keys.clone()),
        ..before
    };
    let (later, earlier) = rayon::join(
        || replay_boards(&sub, keys.clone(), seed, c),
        || crate::replay::replay_seeded(&sub, &scope, seed).0,
    );
    let tags = later.and_then(|later| match_tags(&later, &earlier, &c.matches));
    (tags, Some(sub))
}

/// The team matches some table of which differs between two replays of the same boards, as
/// tags of `tags`; `None` when one of them has no tag (no line names it).
fn match_tags(a: &State, b: &State, tags: &cache::MatchTags) -> Option<BTreeSet<u32>> {
    let team: BTreeSet<usize> = (0..a.sessions.len())
        .filter(|&s| a.sessions[s].def.form.is_team())
        .collect();
    let (_, matches) = pipeline::changed_team_tables(a, b, &team);
    matches
        .iter()
        .map(|(s, m)| tags.find(&a.sessions[*s].def.id, m))
        .collect()
}

/// The sessions the events `events` declare.
fn session_defs(events: &[Envelope]) -> impl Iterator<Item = &crate::event::SessionDef> {
    events.iter().filter_map(|e| match &e.event {
        Event::Session(d) => Some(d),
        _ => None,
    })
}

/// The team sessions (ids) of the boards `which` (indexes of `boards`), given the log's
/// `sessions` and which of them are team sessions (`teams`).
fn team_sessions_of<'b>(
    boards: &'b [((String, u32), Vec<cache::LineRef>)],
    sessions: &[String],
    teams: &[bool],
    which: &[usize],
) -> BTreeSet<&'b str> {
    which
        .iter()
        .map(|&i| boards[i].0 .0.as_str())
        .filter(|id| {
            sessions
                .iter()
                .position(|s| s == id)
                .is_some_and(|s| teams[s])
        })
        .collect()
}

/// `which` (indexes of `boards`) with every board of the team sessions among them.
fn with_team_boards(
    boards: &[((String, u32), Vec<cache::LineRef>)],
    sessions: &[String],
    teams: &[bool],
    which: Vec<usize>,
) -> Vec<usize> {
    let team = team_sessions_of(boards, sessions, teams, &which);
    if team.is_empty() {
        return which;
    }
    let mut chosen = vec![false; boards.len()];
    for &i in &which {
        chosen[i] = true;
    }
    (0..boards.len())
        .filter(|&i| chosen[i] || team.contains(boards[i].0 .0.as_str()))
        .collect()
}

/// The earlier and the later replay's scopes of `question` on a log whose last seq is `last`
/// (`events`: its events, or, for an audit from the cache, its declarations and some boards);
/// `None` for what an audit from the cache (`partial`) cannot answer.
fn scopes(
    events: &[Envelope],
    question: &Question,
    last: usize,
    partial: bool,
) -> Result<Option<(ReplayScope, ReplayScope)>, AuditError> {
    Ok(Some(match question {
        Question::Ruling(id) => {
            let skip =
                ruling_scope(events, id).ok_or_else(|| AuditError::BadQuestion(no_ruling(id)))?;
            (
                ReplayScope {
                    skip,
                    ..Default::default()
                },
                ReplayScope::default(),
            )
        }
        Question::AsOf(seq) => {
            if *seq > last {
                return Err(AuditError::BadQuestion(as_of_past(*seq, last)));
            }
            (
                ReplayScope {
                    upto: Some(*seq),
                    ..Default::default()
                },
                ReplayScope::default(),
            )
        }
        Question::Between(..) | Question::With(_) if partial => return Ok(None),
        Question::With(_) => {
            return Err(AuditError::BadQuestion(
                "a what-if is answered by audit::whatif".into(),
            ))
        }
        Question::Between(a, b) => {
            if *a > last || *b > last || a > b {
                return Err(AuditError::BadQuestion(format!("--between {a} {b}: expected two seqs with {a} ≤ {b} ≤ {last} (the log's events)")));
            }
            (
                ReplayScope {
                    upto: Some(*a),
                    ..Default::default()
                },
                ReplayScope {
                    upto: Some(*b),
                    ..Default::default()
                },
            )
        }
    }))
}

/// The audit; `None` only for a `Base::Partial` that cannot answer it.
fn audit_inner(
    events: &[Envelope],
    full: &State,
    question: &Question,
    incremental: bool,
    base: Base,
) -> Result<Option<Audit>, AuditError> {
    let (scored_full, board_ns, partial_base, earlier, replayed) = match base {
        Base::None => (None, None, false, None, None),
        Base::Whole(s) => (Some(s), None, false, None, None),
        Base::Partial {
            scored,
            board_ns,
            earlier,
            replayed,
            ..
        } => (Some(scored), Some(board_ns), true, earlier, Some(replayed)),
    };
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
    let seqs = differing(events, &before_scope, &after_scope);
    // The boards to re-score: those the differing events are on, with every board of a team
    // session among them (its matches' points depend on all its boards).
    let touched = if incremental {
        touched_boards(events, &seqs, after_state).map(|mut keys| {
            pipeline::whole_team_sessions(&mut keys, after_state.sessions.iter().map(|s| &s.def));
            keys
        })
    } else {
        None
    };
    // (a partial base answers only for boards it replayed)
    if partial_base
        && touched
            .as_ref()
            .is_none_or(|k| replayed.is_some_and(|r| !k.is_subset(r)))
    {
        return Ok(None);
    }
    // What a whole re-scoring would reuse is kept only when one is expected.
    let whole_log = after_scope.upto.is_none() && after_scope.skip.is_empty();
    let owned_after;
    let (after, prepared): (&Scored, _) = match scored_full {
        Some(sc) if whole_log && touched.is_some() => (sc, None),
        _ => {
            let (sc, prepared, _) = pipeline::score_reusing(after_state, None, touched.is_none())
                .map_err(AuditError::Score)?;
            owned_after = sc;
            (&owned_after, prepared)
        }
    };
    let owned_partial;
    let incremental = match touched {
        Some(keys) => {
            let (partial, scored): (&State, Option<&[BoardScore]>) = match earlier {
                // (made beside the later replay, of the same boards and scope)
                Some((k, st, scored)) if *k == keys => (st, scored.as_deref()),
                _ => {
                    let scope = ReplayScope {
                        boards: Some(keys.clone()),
                        ..before_scope.clone()
                    };
                    let _span = tracing::info_span!("replay", boards = keys.len()).entered();
                    owned_partial = crate::replay::replay_seeded(events, &scope, after_state).0;
                    (&owned_partial, None)
                }
            };
            pipeline::rescore_with(after_state, after, board_ns, partial, &keys, false, scored)
                .map_err(AuditError::Score)?
                .map(|r| (partial, r, keys))
        }
        None => None,
    };
    if partial_base && incremental.is_none() {
        return Ok(None);
    }
    let sid = |st: &State, b: &BoardScore| st.sessions[b.session].def.id.clone();
    let answered_incrementally = incremental.is_some();
    let _span = tracing::info_span!("compare").entered();
    let (boards, standings) = match incremental {
        Some((partial, r, keys)) => {
            tracing::info!(
                rescored = r.boards.len(),
                of = after.boards.len(),
                "audit: boards re-scored for the other replay"
            );
            // (a team board's scores depend on its tables alone: only those of the boards some
            // table of which differs can differ)
            let compared = |st: &State, b: &BoardScore| {
                if b.team.is_some() {
                    r.team_boards.contains(&(b.session, b.board))
                } else {
                    keys.contains(&(sid(st, b), b.board))
                }
            };
            let after_boards: Vec<&BoardScore> = after
                .boards
                .iter()
                .filter(|b| compared(after_state, b))
                .collect();
            let before_boards: Vec<&BoardScore> =
                r.boards.iter().filter(|b| compared(partial, b)).collect();
            // (each has long sequential stretches: the two run side by side)
            rayon::join(
                || board_deltas(partial, &before_boards, after_state, &after_boards),
                || standing_deltas(partial, &r.standings, after_state, &after.standings),
            )
        }
        None => {
            let before_state = {
                let _span = tracing::info_span!("replay").entered();
                replay(events, &before_scope).0
            };
            let (before, _, fresh) =
                pipeline::score_reusing(&before_state, prepared.as_ref(), false)
                    .map_err(AuditError::Score)?;
            tracing::info!(
                rescored = fresh,
                of = after.boards.len(),
                "audit: boards re-scored for the other replay (whole replay)"
            );
            rayon::join(
                || {
                    board_deltas(
                        &before_state,
                        &before.boards.iter().collect::<Vec<_>>(),
                        after_state,
                        &after.boards.iter().collect::<Vec<_>>(),
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
            )
        }
    };
    let mut rulings = Vec::new();
    let wanted: BTreeSet<usize> = match question {
        // The ruling, what supersedes it and their withdrawals: the events left out.
        Question::Ruling(_) => before_scope.skip.clone(),
        Question::AsOf(a) => (a + 1..=last).collect(),
        Question::Between(a, b) => (a + 1..=*b).collect(),
        Question::With(_) => BTreeSet::new(),
    };
    for r in &after_state.rulings {
        if wanted.contains(&r.seq) {
            rulings.push(RulingNote {
                id: r.ev.id.clone(),
                session: after_state.sessions[r.key.0].def.id.clone(),
                board: r.key.1,
                score: r.ev.score.normalised(),
                law: r.ev.law.clone(),
                by: r.by.clone(),
                note: r.note.clone(),
                seq: r.seq,
            });
        }
    }
    Ok(Some(Audit {
        question: question.clone(),
        standings,
        boards,
        rulings,
        incremental: answered_incrementally,
        residue: Residue::default(),
    }))
}

/// Each participant's score on every board whose scores differ between two replays (a board of
/// one replay only, or one where any side's score differs), in (session, section, board,
/// participant) order. Boards are matched by (session id, section, board, match), participants
/// by id: the two replays may number them apart. A board's rows are those of scores.parquet
/// (`export::rows::score_view`: the section is the participant's own in a field comparison).
fn board_deltas(
    before_state: &State,
    before: &[&BoardScore],
    after_state: &State,
    after: &[&BoardScore],
) -> Vec<BoardDelta> {
    use rayon::prelude::*;
    let _span = tracing::debug_span!("board_deltas").entered();
    type Key<'a> = (&'a str, Option<&'a str>, u32, Option<&'a str>);
    fn index<'a>(st: &'a State, boards: &[&'a BoardScore]) -> BTreeMap<Key<'a>, Vec<usize>> {
        let mut m: BTreeMap<Key<'a>, Vec<usize>> = BTreeMap::new();
        for (i, b) in boards.iter().enumerate() {
            let key = (
                st.sessions[b.session].def.id.as_str(),
                b.section.as_deref(),
                b.board,
                b.team.as_ref().map(|t| t.0.as_str()),
            );
            m.entry(key).or_default().push(i);
        }
        m
    }
    let (bi, ai) = (index(before_state, before), index(after_state, after));
    fn sides<'a>(st: &'a State, boards: &[&'a BoardScore], ix: &[usize]) -> Vec<(&'a str, Q)> {
        let mut v: Vec<(&str, Q)> = ix
            .iter()
            .flat_map(|&i| boards[i].sides.iter())
            .map(|s| (st.participant(s.participant).id.as_str(), s.score))
            .collect();
        v.par_sort_unstable();
        v
    }
    // Each replay's rows of the changed boards: ((session, section, board), participant) →
    // (side, score), the later row winning for a participant listed twice.
    type Row<'a> = (
        ((&'a str, Option<&'a str>, i32), &'a str),
        (&'static str, f64),
    );
    let (mut rb, mut ra): (Vec<Row>, Vec<Row>) = (Vec::new(), Vec::new());
    let keys: BTreeSet<&Key> = bi.keys().chain(ai.keys()).collect();
    let _r = tracing::debug_span!("rows").entered();
    for k in keys {
        let (b, a) = (bi.get(k), ai.get(k));
        if let (Some(b), Some(a)) = (b, a) {
            if sides(before_state, before, b) == sides(after_state, after, a) {
                continue;
            }
        }
        for (st, boards, ix, out) in [
            (before_state, before, b, &mut rb),
            (after_state, after, a, &mut ra),
        ] {
            for &i in ix.into_iter().flatten() {
                crate::export::rows::each_score(st, boards[i], |v| {
                    let (n, v) = (v.names, v.values);
                    out.push((
                        ((n.session, n.section, n.board), n.participant),
                        (n.side, v.score),
                    ));
                });
            }
        }
    }
    // Sorted by key, the last row of a key kept (a stable sort keeps the rows' order).
    fn sorted(mut rows: Vec<Row<'_>>) -> Vec<Row<'_>> {
        rows.par_sort_by(|x, y| x.0.cmp(&y.0));
        let mut out: Vec<Row> = Vec::with_capacity(rows.len());
        for r in rows {
            match out.last_mut() {
                Some(last) if last.0 == r.0 => *last = r,
                _ => out.push(r),
            }
        }
        out
    }
    drop(_r);
    let _s = tracing::debug_span!("sort").entered();
    let (rb, ra) = rayon::join(|| sorted(rb), || sorted(ra));
    drop(_s);
    let _m = tracing::debug_span!("merge").entered();
    // The union of the keys in order, each with its row of either side.
    type Pair<'a> = (
        &'a ((&'a str, Option<&'a str>, i32), &'a str),
        Option<(&'static str, f64)>,
        Option<(&'static str, f64)>,
    );
    let mut merged: Vec<Pair> = Vec::with_capacity(ra.len().max(rb.len()));
    let (mut i, mut j) = (0, 0);
    while i < rb.len() || j < ra.len() {
        let ord = match (rb.get(i), ra.get(j)) {
            (Some(x), Some(y)) => x.0.cmp(&y.0),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match ord {
            std::cmp::Ordering::Less => {
                merged.push((&rb[i].0, Some(rb[i].1), None));
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                merged.push((&ra[j].0, None, Some(ra[j].1)));
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                merged.push((&rb[i].0, Some(rb[i].1), Some(ra[j].1)));
                i += 1;
                j += 1;
            }
        }
    }
    // A (session, section, board) is listed whole when any of its scores changed: each one's
    // rows are a run of `merged` (sorted by it first).
    let mut listed = vec![false; merged.len()];
    let mut start = 0;
    while start < merged.len() {
        let board = &merged[start].0 .0;
        let end = start + merged[start..].partition_point(|(k, _, _)| &k.0 == board);
        let changed = merged[start..end]
            .iter()
            .any(|(_, b, a)| b.map(|x| x.1) != a.map(|x| x.1));
        listed[start..end].fill(changed);
        start = end;
    }
    drop(_m);
    let _b = tracing::debug_span!("build").entered();
    merged
        .par_iter()
        .zip(listed.par_iter())
        .filter(|(_, &l)| l)
        .map(|(m, _)| m)
        .map(|(k, b, a)| BoardDelta {
            session: k.0 .0.to_string(),
            section: k.0 .1.map(str::to_string),
            board: k.0 .2,
            participant: k.1.to_string(),
            side: a.or(*b).map(|x| x.0.to_string()).unwrap_or_default(),
            score_before: b.map(|x| x.1),
            score_after: a.map(|x| x.1),
        })
        .collect()
}

fn standing_deltas(
    before_state: &State,
    before: &[Standing],
    after_state: &State,
    after: &[Standing],
) -> Vec<StandingDelta> {
    use crate::hash::FxMap;
    use rayon::prelude::*;
    let _span = tracing::debug_span!("standing_deltas").entered();
    // Participants and sessions are matched by id (the two replays may number them apart):
    // each standing is keyed by the later replay's numbers, or, for one the later replay does
    // not have, by a number past them.
    type Key = (Option<usize>, u32);
    // Standings groups: a session's section (`compare: section`) or the session, or overall;
    // in order: sessions by id, then section, overall last.
    type Group<'s> = (bool, &'s str, Option<&'s str>);
    fn group_of<'s>(st: &'s State, s: &'s Standing) -> Group<'s> {
        match s.session {
            Some(i) => (false, st.sessions[i].def.id.as_str(), s.section.as_deref()),
            None => (true, "overall", None),
        }
    }
    // Replays that number participants and sessions alike (an audit's replay of a few boards
    // is seeded with the other's participants) need no look-up by id.
    let same_numbers = before_state.participants.len() == after_state.participants.len()
        && before_state.sessions.len() == after_state.sessions.len()
        && before_state
            .sessions
            .iter()
            .zip(&after_state.sessions)
            .all(|(b, a)| b.def.id == a.def.id)
        && (std::sync::Arc::ptr_eq(&before_state.participants, &after_state.participants)
            || before_state
                .participants
                .par_iter()
                .zip(after_state.participants.par_iter())
                .all(|(b, a)| b.id == a.id));
    // Each replay's standings by key (the last one of a key); a table indexed by session and
    // participant when the replays number alike (an audit from the cache: 200,000 standings).
    enum Index {
        Dense { table: Vec<u32>, width: usize },
        Map(FxMap<Key, usize>),
    }
    impl Index {
        fn slot(table: &[u32], width: usize, k: &Key) -> Option<usize> {
            let p = k.1 as usize;
            let at = (k.0.map_or(0, |s| s + 1))
                .checked_mul(width)?
                .checked_add(p)?;
            (p < width && at < table.len()).then_some(at)
        }
        fn dense(width: usize, sessions: usize, keys: impl Iterator<Item = Key>) -> Index {
            let mut table = vec![u32::MAX; (sessions + 1) * width];
            for (i, k) in keys.enumerate() {
                if let Some(at) = Index::slot(&table, width, &k) {
                    table[at] = i as u32;
                }
            }
            Index::Dense { table, width }
        }
        fn get(&self, k: &Key) -> Option<usize> {
            match self {
                Index::Dense { table, width } => {
                    let v = table[Index::slot(table, *width, k)?];
                    (v != u32::MAX).then_some(v as usize)
                }
                Index::Map(m) => m.get(k).copied(),
            }
        }
    }
    let dense = |v: &[Standing]| {
        let (width, sessions) = (after_state.participants.len(), after_state.sessions.len());
        // (every key of the standings has its slot, or the map is used)
        v.iter()
            .all(|s| s.session.is_none_or(|x| x < sessions) && (s.participant as usize) < width)
            .then(|| {
                Index::dense(
                    width,
                    sessions,
                    v.iter().map(|s| (s.session, s.participant)),
                )
            })
    };
    let ai: Index = match dense(after).filter(|_| same_numbers) {
        Some(ix) => ix,
        None => Index::Map(
            after
                .iter()
                .enumerate()
                .map(|(j, s)| ((s.session, s.participant), j))
                .collect(),
        ),
    };
    let mut missing = u32::MAX;
    let dense_before = dense(before).filter(|_| same_numbers && matches!(ai, Index::Dense { .. }));
    let bi_keys: Vec<Key> = before
        .iter()
        .map(|s| {
            if same_numbers {
                return (s.session, s.participant);
            }
            let session = s
                .session
                .map(|x| after_state.session_index(&before_state.sessions[x].def.id));
            let pid = after_state.pid(&before_state.participant(s.participant).id);
            match (session, pid) {
                (None, Some(p)) => (None, p),
                (Some(Some(x)), Some(p)) => (Some(x), p),
                _ => {
                    missing -= 1;
                    (None, missing)
                }
            }
        })
        .collect();
    let bi: Index = match dense_before {
        Some(ix) => ix,
        None => Index::Map(bi_keys.iter().enumerate().map(|(i, &k)| (k, i)).collect()),
    };
    // The standings of the earlier replay only (their keys not in the later one's).
    let before_only: Vec<usize> = (0..before.len())
        .into_par_iter()
        .filter(|&i| bi.get(&bi_keys[i]) == Some(i) && ai.get(&bi_keys[i]).is_none())
        .collect();
    let _g = tracing::debug_span!("groups").entered();
    let same = |b: &Standing, a: &Standing| {
        b.total == a.total && b.max == a.max && b.rank == a.rank && b.rank_to == a.rank_to
    };
    // The later standings' runs of one group, each standing's group worked out once
    // (standings come group by group): (group, how many).
    let mut runs: Vec<(Group, usize)> = Vec::new();
    for a in after {
        let g = group_of(after_state, a);
        match runs.last_mut() {
            Some((k, n)) if *k == g => *n += 1,
            _ => runs.push((g, 1)),
        }
    }
    let before_groups: Vec<Group> = before_only
        .iter()
        .map(|&i| group_of(before_state, &before[i]))
        .collect();
    // The standings groups, numbered in their order (sessions by id, then section; overall
    // last), and each standing's group number.
    let mut groups: Vec<Group> = runs
        .iter()
        .map(|r| r.0)
        .chain(before_groups.iter().copied())
        .collect();
    groups.sort_unstable();
    groups.dedup();
    let groups = &groups;
    let number = |g: &Group| groups.binary_search(g).expect("a group of the standings") as u32;
    let group_after: Vec<u32> = runs
        .iter()
        .flat_map(|(g, n)| std::iter::repeat_n(number(g), *n))
        .collect();
    let group_before_only: Vec<u32> = before_groups.iter().map(number).collect();
    // Groups where anything changed (total, percentage or place).
    let changed: Vec<std::sync::atomic::AtomicBool> =
        groups.iter().map(|_| Default::default()).collect();
    let mark = |g: u32| changed[g as usize].store(true, std::sync::atomic::Ordering::Relaxed);
    after.par_iter().enumerate().for_each(|(j, a)| {
        let k = (a.session, a.participant);
        if ai.get(&k) != Some(j) {
            return;
        }
        match bi.get(&k) {
            Some(i) if same(&before[i], a) => {}
            _ => mark(group_after[j]),
        }
    });
    group_before_only.iter().for_each(|&g| mark(g));
    let changed: Vec<bool> = changed.into_iter().map(|c| c.into_inner()).collect();
    if !changed.contains(&true) {
        return Vec::new();
    }
    drop(_g);
    // The names, each made once: the sessions' and the groups' sections, and the later
    // replay's participants' (those of the earlier replay only are named row by row).
    let overall: Arc<str> = Arc::from("overall");
    let session_names = |st: &State| -> Vec<Arc<str>> {
        st.sessions
            .iter()
            .map(|s| Arc::from(s.def.id.as_str()))
            .collect()
    };
    let (after_sessions, before_sessions) =
        (session_names(after_state), session_names(before_state));
    let group_sections: Vec<Option<Arc<str>>> = groups.iter().map(|g| g.2.map(Arc::from)).collect();
    type Names = (Arc<str>, Arc<str>, Option<Arc<str>>);
    let names_of = |p: &crate::replay::Participant| -> Names {
        (
            Arc::from(p.id.as_str()),
            Arc::from(p.players.join(" – ")),
            p.section.as_deref().map(Arc::from),
        )
    };
    let after_names: Vec<Names> = after_state.participants.par_iter().map(names_of).collect();
    let delta =
        |g: u32, b: Option<&Standing>, a: Option<&Standing>, d: Option<Q>| -> StandingDelta {
            let (st, r, sessions) = match a {
                Some(a) => (after_state, a, &after_sessions),
                None => (before_state, b.unwrap(), &before_sessions),
            };
            let owned;
            let (id, players, own_section) = match a {
                Some(_) => &after_names[r.participant as usize],
                None => {
                    owned = names_of(st.participant(r.participant));
                    &owned
                }
            };
            // (a session's standing names its group's section; overall, the participant's own)
            let section = match (r.session, r.section.as_deref()) {
                (_, None) => None,
                (Some(_), Some(_))
                    if group_sections[g as usize].as_deref() == r.section.as_deref() =>
                {
                    group_sections[g as usize].clone()
                }
                (_, Some(x)) if own_section.as_deref() == Some(x) => own_section.clone(),
                (_, Some(x)) => Some(Arc::from(x)),
            };
            StandingDelta {
                session: r
                    .session
                    .map_or_else(|| overall.clone(), |i| sessions[i].clone()),
                section,
                participant: id.clone(),
                players: players.clone(),
                total_before: b.map(|x| x.total.to_f64()),
                total_after: a.map(|x| x.total.to_f64()),
                pct_before: b.and_then(Standing::pct),
                pct_after: a.and_then(Standing::pct),
                rank_before: b.map(|x| x.rank as i32),
                rank_after: a.map(|x| x.rank as i32),
                team: st.participant(r.participant).team
                    || r.session.is_some_and(|i| st.sessions[i].def.form.is_team()),
                moved: match (b, a) {
                    (Some(b), Some(a)) => {
                        Some(d.map_or_else(|| a.total.to_f64() - b.total.to_f64(), Q::to_f64))
                    }
                    _ => None,
                },
            }
        };
    // Each delta with how far it moved: exactly (the totals are exact rationals, so equal moves
    // tie whatever their floats say), `None` for a participant in one replay only; and the
    // exact signed move.
    let moved = |b: Option<&Standing>, a: Option<&Standing>| -> ((Option<Q>, f64), Option<Q>) {
        // (most of a big group did not move: no arithmetic for them)
        if let (Some(b), Some(a)) = (b, a) {
            if b.total == a.total {
                let zero = a.total.exact().map(|_| Q::ZERO);
                return ((zero, 0.0), zero);
            }
        }
        let f = match (b, a) {
            (Some(b), Some(a)) => (a.total.to_f64() - b.total.to_f64()).abs(),
            _ => f64::INFINITY,
        };
        let d = (|| a?.total.exact()?.checked_add(-b?.total.exact()?))();
        ((d.map(|d| if d < Q::ZERO { -d } else { d }), f), d)
    };
    // Each standing of a changed group, before and after: (group, (after, before)).
    let _d = tracing::debug_span!("deltas").entered();
    type Pair<'s> = (Option<&'s Standing>, Option<&'s Standing>);
    let pairs: Vec<(u32, Pair)> = after
        .par_iter()
        .enumerate()
        // (one standing a key: should a key come twice, the last one, as `ai` keeps)
        .filter(|(j, a)| {
            changed[group_after[*j] as usize] && ai.get(&(a.session, a.participant)) == Some(*j)
        })
        .map(|(j, a)| {
            let b = bi.get(&(a.session, a.participant)).map(|i| &before[i]);
            (group_after[j], (Some(a), b))
        })
        .chain(
            before_only
                .par_iter()
                .zip(group_before_only.par_iter())
                .filter(|(_, g)| changed[**g as usize])
                .map(|(&i, &g)| (g, (None, Some(&before[i])))),
        )
        .collect();
    // (group, how far it moved: exactly and as a float, the exact move as a float, participant,
    // the pair, the exact signed move)
    type Keyed<'s> = (u32, (Option<Q>, f64), f64, &'s str, Pair<'s>, Option<Q>);
    let mut keyed: Vec<Keyed> = pairs
        .par_iter()
        .map(|&(g, (a, b))| {
            let id = match a {
                Some(a) => after_state.participant(a.participant).id.as_str(),
                None => before_state.participant(b.unwrap().participant).id.as_str(),
            };
            let (m, d) = moved(b, a);
            (g, m, m.0.map_or(0.0, Q::to_f64), id, (a, b), d)
        })
        .collect();
    drop(_d);
    let _s = tracing::debug_span!("sort").entered();
    // Each group together (sessions by id, overall last), who moved most first.
    // Exact when every move is (a consistent order for the sort), by floats otherwise.
    let exact = keyed.iter().all(|k| (k.1).0.is_some());
    keyed.par_sort_unstable_by(|x, y| {
        let most = match ((x.1).0, (y.1).0) {
            // The exact moves' floats first (as `standings::cmp_key`): only moves within a part
            // in 10^12 of each other are compared exactly (slow for long denominators).
            (Some(a), Some(b)) if exact => {
                let tol = 1e-12 * x.2.abs().max(y.2.abs());
                if y.2 - x.2 > tol {
                    std::cmp::Ordering::Greater
                } else if x.2 - y.2 > tol {
                    std::cmp::Ordering::Less
                } else {
                    b.cmp(&a)
                }
            }
            _ => ((y.1).1 + 0.0)
                .partial_cmp(&((x.1).1 + 0.0))
                .unwrap_or(std::cmp::Ordering::Equal),
        };
        // (a participant is once in a group: the order is total)
        x.0.cmp(&y.0).then(most).then_with(|| x.3.cmp(y.3))
    });
    drop(_s);
    let _b = tracing::debug_span!("build").entered();
    keyed
        .par_iter()
        .map(|&(g, _, _, _, (a, b), d)| delta(g, b, a, d))
        .collect()
}

/// Write the audit as the JSON object of interface.md (the same as [`to_json`], streamed: an
/// audit of a big field lists every pair of the groups it touches).
pub fn write_json(a: &Audit, w: impl std::io::Write) -> std::io::Result<()> {
    use serde::Serialize;
    use std::io::Write as _;
    #[derive(Serialize)]
    struct Standing<'a> {
        session: &'a str,
        section: Option<&'a str>,
        participant: &'a str,
        total_before: Option<f64>,
        total_after: Option<f64>,
        pct_before: Option<f64>,
        pct_after: Option<f64>,
        rank_before: Option<i32>,
        rank_after: Option<i32>,
        delta: Option<f64>,
    }
    #[derive(Serialize)]
    struct Board<'a> {
        session: &'a str,
        section: &'a Option<String>,
        board: i32,
        participant: &'a str,
        side: &'a str,
        score_before: Option<f64>,
        score_after: Option<f64>,
    }
    #[derive(Serialize)]
    struct Ruling<'a> {
        ruling: &'a str,
        session: &'a str,
        board: u32,
        score: &'a str,
        law: &'a Option<String>,
        by: &'a Option<String>,
        note: &'a Option<String>,
        seq: usize,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Asked<'a> {
        Ruling(&'a str),
        AsOf(usize),
        Between([usize; 2]),
        With(&'a [serde_json::Value]),
    }
    // The object written piece by piece, the long arrays serialized in parallel (a big field's
    // audit is tens of megabytes): the same bytes as serializing it whole.
    let asked = match &a.question {
        Question::Ruling(id) => Asked::Ruling(id),
        Question::AsOf(s) => Asked::AsOf(*s),
        Question::Between(x, y) => Asked::Between([*x, *y]),
        Question::With(v) => Asked::With(v),
    };
    let standing = |s: &'_ StandingDelta, out: &mut Vec<u8>| {
        let x = Standing {
            session: &s.session,
            section: s.section.as_deref(),
            participant: &s.participant,
            total_before: s.total_before,
            total_after: s.total_after,
            pct_before: s.pct_before,
            pct_after: s.pct_after,
            rank_before: s.rank_before,
            rank_after: s.rank_after,
            delta: s.delta(),
        };
        serde_json::to_writer(out, &x)
    };
    let board = |b: &'_ BoardDelta, out: &mut Vec<u8>| {
        let x = Board {
            session: &b.session,
            section: &b.section,
            board: b.board,
            participant: &b.participant,
            side: &b.side,
            score_before: b.score_before,
            score_after: b.score_after,
        };
        serde_json::to_writer(out, &x)
    };
    let rulings: Vec<Ruling> = a
        .rulings
        .iter()
        .map(|r| Ruling {
            ruling: &r.id,
            session: &r.session,
            board: r.board,
            score: &r.score,
            law: &r.law,
            by: &r.by,
            note: &r.note,
            seq: r.seq,
        })
        .collect();
    let (standings, boards) = rayon::join(
        || json_array(&a.standings, standing),
        || json_array(&a.boards, board),
    );
    let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
    w.write_all(b"{\"audit\":")?;
    serde_json::to_writer(&mut w, &asked)?;
    w.write_all(b",\"standings\":")?;
    for chunk in standings? {
        w.write_all(&chunk)?;
    }
    w.write_all(b",\"boards\":")?;
    for chunk in boards? {
        w.write_all(&chunk)?;
    }
    w.write_all(b",\"rulings\":")?;
    serde_json::to_writer(&mut w, &rulings)?;
    w.write_all(b"}\n")?;
    w.flush()
}

/// A JSON array of `items`, each serialized by `one`, as chunks of text serialized in
/// parallel (in order: the brackets and commas included).
fn json_array<T: Sync>(
    items: &[T],
    one: impl Fn(&T, &mut Vec<u8>) -> serde_json::Result<()> + Sync,
) -> std::io::Result<Vec<Vec<u8>>> {
    use rayon::prelude::*;
    const CHUNK: usize = 4096;
    let last = items.len().div_ceil(CHUNK).max(1) - 1;
    let mut chunks: Vec<Vec<u8>> = items
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(i, c)| {
            // (a row of the standings is about 250 bytes of JSON, of the boards 150)
            let mut out = Vec::with_capacity(c.len() * 320 + 2);
            if i == 0 {
                out.push(b'[');
            }
            for (j, x) in c.iter().enumerate() {
                if i > 0 || j > 0 {
                    out.push(b',');
                }
                one(x, &mut out)?;
            }
            if i == last {
                out.push(b']');
            }
            Ok(out)
        })
        .collect::<serde_json::Result<_>>()
        .map_err(std::io::Error::from)?;
    if chunks.is_empty() {
        chunks.push(b"[]".to_vec());
    }
    Ok(chunks)
}

/// The audit as the JSON object of interface.md.
pub fn to_json(a: &Audit) -> serde_json::Value {
    use serde_json::json;
    let question = match &a.question {
        Question::Ruling(id) => json!({"ruling": id}),
        Question::AsOf(s) => json!({"as_of": s}),
        Question::Between(x, y) => json!({"between": [x, y]}),
        Question::With(v) => json!({ "with": v }),
    };
    let standings: Vec<_> = a
        .standings
        .iter()
        .map(|s| {
            json!({"session": &*s.session, "section": s.section.as_deref(), "participant": &*s.participant,
                   "total_before": s.total_before, "total_after": s.total_after,
                   "pct_before": s.pct_before, "pct_after": s.pct_after,
                   "rank_before": s.rank_before, "rank_after": s.rank_after,
                   "delta": s.delta()})
        })
        .collect();
    let boards: Vec<_> = a
        .boards
        .iter()
        .map(|b| {
            json!({"session": b.session, "section": b.section, "board": b.board, "participant": b.participant,
                   "side": b.side, "score_before": b.score_before, "score_after": b.score_after})
        })
        .collect();
    let rulings: Vec<_> = a
        .rulings
        .iter()
        .map(|r| json!({"ruling": r.id, "session": r.session, "board": r.board, "score": r.score, "law": r.law, "by": r.by, "note": r.note, "seq": r.seq}))
        .collect();
    json!({"audit": question, "standings": standings, "boards": boards, "rulings": rulings})
}

fn num(x: Option<f64>, pct: bool) -> String {
    match x {
        Some(v) if pct => format!("{v:.2}%"),
        Some(v) => format!("{v:.2}"),
        None => "-".to_string(),
    }
}

/// The text of `items`' lines, each written by `line(the item before it, the item, out)`: runs
/// of items formatted in parallel, put together in order (the same text as one pass).
fn par_lines<T: Sync>(items: &[T], line: impl Fn(Option<&T>, &T, &mut String) + Sync) -> String {
    use rayon::prelude::*;
    const RUN: usize = 4096;
    let runs: Vec<String> = items
        .par_chunks(RUN)
        .enumerate()
        .map(|(k, run)| {
            let mut out = String::with_capacity(run.len() * 80);
            for (i, item) in run.iter().enumerate() {
                let at = k * RUN + i;
                line(at.checked_sub(1).map(|p| &items[p]), item, &mut out);
            }
            out
        })
        .collect();
    runs.concat()
}

/// The audit as a readable report: who moved, by how much, and why.
pub fn to_text(a: &Audit) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = match &a.question {
        Question::Ruling(id) => writeln!(out, "Audit of ruling {id}: the standings without it (and anything superseding it) against the standings with it."),
        Question::AsOf(s) => writeln!(out, "Audit: the standings as they stood after event {s} against today's."),
        Question::Between(x, y) => writeln!(out, "Audit: the standings after event {x} against those after event {y}."),
        Question::With(v) => {
            let _ = writeln!(out, "What-if: the standings with {} proposed event{} added at the end of the log (nothing written) against the log as it is.", v.len(), if v.len() == 1 { "" } else { "s" });
            v.iter().try_for_each(|e| writeln!(out, "  proposed: {e}"))
        }
    };
    for r in &a.rulings {
        let _ = writeln!(
            out,
            "  ruling {} (seq {}): session {} board {}: {}{}{}{}",
            r.id,
            r.seq,
            r.session,
            r.board,
            r.score,
            r.law
                .as_ref()
                .map(|l| format!(", law {l}"))
                .unwrap_or_default(),
            r.by.as_ref()
                .map(|l| format!(", by {l}"))
                .unwrap_or_default(),
            r.note
                .as_ref()
                .map(|l| format!(" — {l}"))
                .unwrap_or_default()
        );
    }
    if a.standings.is_empty() {
        let _ = writeln!(out, "\nNo standings changed.");
    }
    // Each run of rows formatted in parallel (a big field's audit lists 200,000), headings
    // where the group changes, the runs put together in order.
    fn group(s: &StandingDelta) -> (&str, Option<&str>) {
        (
            &s.session,
            if &*s.session == "overall" {
                None
            } else {
                s.section.as_deref()
            },
        )
    }
    out.push_str(&par_lines(&a.standings, |prev, s, out| {
        let g = group(s);
        if prev.map(group) != Some(g) {
            let sec =
                g.1.as_ref()
                    .map(|x| format!(", section {x}"))
                    .unwrap_or_default();
            let _ = writeln!(
                out,
                "\n{}{sec}:",
                if g.0 == "overall" {
                    "overall".to_string()
                } else {
                    format!("session {}", g.0)
                }
            );
            let _ = writeln!(
                out,
                "  {:<8} {:>10} {:>10} {:>9}  {:>11}  players",
                if s.team { "team" } else { "pair" },
                "before",
                "after",
                "delta",
                "place"
            );
        }
        if s.delta().is_some_and(|d| d == 0.0) && s.rank_before == s.rank_after {
            return;
        }
        let pct = s.pct_after.is_some() || s.pct_before.is_some();
        let place = format!(
            "{} → {}",
            s.rank_before.map_or("-".into(), |r| r.to_string()),
            s.rank_after.map_or("-".into(), |r| r.to_string())
        );
        let (b, af) = if pct {
            (num(s.pct_before, true), num(s.pct_after, true))
        } else {
            (num(s.total_before, false), num(s.total_after, false))
        };
        let delta = s
            .delta()
            .map(|d| format!("{d:+.2}"))
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            out,
            "  {:<8} {:>10} {:>10} {:>9}  {:>11}  {}",
            s.participant, b, af, delta, place, s.players
        );
    }));
    if !a.boards.is_empty() {
        let _ = writeln!(
            out,
            "\nBoards whose scores changed (each participant, before → after):"
        );
        fn key(b: &BoardDelta) -> (&str, Option<&str>, i32) {
            (b.session.as_str(), b.section.as_deref(), b.board)
        }
        out.push_str(&par_lines(&a.boards, |prev, b, out| {
            let k = key(b);
            if prev.map(key) != Some(k) {
                let sec =
                    k.1.as_ref()
                        .map(|x| format!(" section {x}"))
                        .unwrap_or_default();
                let _ = writeln!(out, "  session {}{sec} board {}:", k.0, k.2);
            }
            if b.score_before != b.score_after {
                let _ = writeln!(
                    out,
                    "    {:<8} {:<2} {} → {}",
                    b.participant,
                    b.side,
                    num(b.score_before, false),
                    num(b.score_after, false)
                );
            }
        }));
        let _ = writeln!(out, "  (participants whose score did not change are in --format json; `frekans explain` shows each board's arithmetic)");
    }
    out
}
