//! What-if audits: the standings with proposed events (a ruling, a ruling's withdrawal, a
//! correction, a penalty) added at the end of a log, against the log as it is, nothing written.
//!
//! An appeals committee asks before it rules. The proposed events are sealed as `append` would
//! write them (`event::append::propose`: the same `seq`s, line numbers and errors) and the
//! question is then the audit `--as-of LAST` of the log with them: its earlier side is the log
//! as it is, its later side the log with the proposals. Answered two ways, with the same answer:
//! - from the log's audit cache ([`whatif_cached`]): the cache holds the log's whole scoring,
//!   which is here the *earlier* side; the boards the proposals are on (with, in a team session,
//!   the matches they change) are read, replayed without and with them, and re-scored, and the
//!   standings with the proposals are the cached ones with those boards swapped
//!   (`audit::rescore`, as `audit::extend_cache` carries a cache across appended lines);
//! - the long way ([`whatif_events`]): the log with the proposals read and replayed whole and
//!   audited `--as-of LAST` (`audit::audit`).
//!
//! Validation is `append`'s: the proposals are read by the same reader, and the boards they
//! are on replayed by the same replay; should that find anything wrong, or the proposals need
//! more of the log than the boards they are on (a ruling id used elsewhere, a withdrawal of a
//! ruling the log does not have, ...), the caller validates the whole log with them exactly as
//! `append` does and reports its errors.

use std::collections::BTreeSet;

use super::{
    board_deltas, cache, match_tags, replay_boards, rescoped, rescore, score_with_fields,
    session_defs, standing_deltas, team_sessions_of, whole_team_sessions, with_team_boards, Answer,
    Audit, AuditError, Question, Residue, RulingNote,
};
use crate::event::append::Proposed;
use crate::event::{Envelope, Event, OnBoard};
use crate::pipeline::{self, Scored};
use crate::replay::{ReplayScope, State};

/// The event types a what-if takes.
pub const KINDS: [&str; 4] = ["ruling", "ruling_withdrawn", "correction", "penalty"];

/// `Err` (what is wrong, with the proposal's place) unless every proposed event is one of
/// [`KINDS`]; checked after `append`'s checks of each event's text (JSON, an object, its
/// `seq`) and before the log is validated with them.
pub fn check_kinds(p: &Proposed) -> Result<(), String> {
    for (i, o) in p.objects.iter().enumerate() {
        let t = o.get("type").and_then(|t| t.as_str()).unwrap_or("");
        if !KINDS.contains(&t) {
            return Err(format!(
                "proposed event {} (line {} if appended): a what-if adds a ruling, a ruling_withdrawn, a correction or a penalty, not {}",
                i + 1,
                p.first_line + i,
                if t.is_empty() {
                    "an event without a \"type\"".to_string()
                } else {
                    format!("a \"{t}\"")
                }
            ));
        }
    }
    Ok(())
}

/// The question of a what-if: the proposed events as given.
pub fn question(p: &Proposed) -> Question {
    Question::With(
        p.objects
            .iter()
            .map(|o| serde_json::Value::Object(o.clone()))
            .collect(),
    )
}

/// The log's bytes followed by the proposed events' lines: the log `append` would leave.
pub fn with_lines(bytes: &[u8], p: &Proposed) -> Vec<u8> {
    let mut all = Vec::with_capacity(bytes.len() + p.text.len());
    all.extend_from_slice(bytes);
    all.extend_from_slice(p.text.as_bytes());
    all
}

/// A what-if answered the long way: `events` and `full` are the log with the proposals `p`
/// (read and replayed whole, validated as `append` validates them).
pub fn whatif_events(events: &[Envelope], full: &State, p: &Proposed) -> Result<Audit, AuditError> {
    let mut a = super::audit(events, full, &Question::AsOf(p.first_seq - 1))?;
    a.question = question(p);
    Ok(a)
}

/// What [`whatif_cached`] made of a what-if.
pub enum Cached {
    Answer(Answer),
    /// The proposals' boards replayed with them found something wrong, or the proposals name
    /// something beyond them: the caller validates the whole log with them as `append` does.
    Validate,
    /// The cache cannot answer it (a fouled board, `session_bounded`, a comparison group whose
    /// N changes, a team session's penalty, ...): the caller answers the long way.
    Cannot,
}

/// A what-if answered from the audit cache `c` of the log `bytes` (see the module's
/// documentation). `c` is lent: its standings and sums are taken for the answer and put back,
/// so one cache answers several what-ifs (`--alternatives`).
pub fn whatif_cached(
    bytes: &[u8],
    c: &mut cache::AuditCache,
    p: &Proposed,
) -> Result<Cached, AuditError> {
    if !c.fits(bytes) || p.first_seq != c.last_seq + 1 {
        return Ok(Cached::Cannot);
    }
    let _span = tracing::info_span!("whatif").entered();
    // A proposal longer than an event line may be: the reader refuses it, which the whole log
    // read with it says (the same answer with or without the cache).
    if p.text
        .lines()
        .any(|l| l.len() > crate::event::read::MAX_LINE)
    {
        return Ok(Cached::Validate);
    }
    // The proposals' lines, parsed after the declarations (a line knows the sessions above it).
    let new_lines: Vec<(usize, usize, &[u8])> = p
        .text
        .lines()
        .enumerate()
        .map(|(i, l)| (p.first_line + i, p.first_seq + i, l.as_bytes()))
        .collect();
    let Some(mut decl) = c.lines(bytes, &[]) else {
        return Ok(Cached::Cannot);
    };
    let n_decl = decl.len();
    decl.extend(new_lines.iter().copied());
    let Ok(mut parsed) = crate::event::read::parse_lines(&decl) else {
        return Ok(Cached::Validate);
    };
    let proposed: Vec<Envelope> = parsed.split_off(n_decl);
    // Each proposal's board: an index of `c.boards`, or a board without lines in the log.
    let index: crate::hash::FxMap<(&str, u32), usize> = c
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| ((b.0 .0.as_str(), b.0 .1), i))
        .collect();
    let mut new_rulings: Vec<(&str, (String, u32))> = Vec::new();
    let mut asked: BTreeSet<usize> = BTreeSet::new();
    let mut unplayed: BTreeSet<(String, u32)> = BTreeSet::new();
    for e in &proposed {
        let key: (String, u32) = match e.event.on_board() {
            Some(OnBoard::Board(s, b)) => (s.to_string(), b),
            Some(OnBoard::OfRuling(id)) => match new_rulings.iter().rev().find(|r| r.0 == id) {
                Some(r) => r.1.clone(),
                None => match c.rulings.iter().find(|r| r.0 == id) {
                    Some(r) => c.boards[r.1 as usize].0.clone(),
                    None => return Ok(Cached::Validate),
                },
            },
            Some(OnBoard::OfResult(seq)) => {
                let on = c
                    .boards
                    .iter()
                    .find(|b| b.1.binary_search_by_key(&(seq as u32), |r| r.seq).is_ok());
                match on {
                    Some(b) => b.0.clone(),
                    None => return Ok(Cached::Validate),
                }
            }
            None => {
                // A penalty: in a pair session it only moves the standings (recomputed from the
                // sums with every penalty of the replay); a team session's IMP penalties come
                // off its matches, which the cache does not re-score for it.
                match &e.event {
                    Event::Penalty(pe) => match c.sessions.iter().position(|s| *s == pe.session) {
                        Some(s) if !c.teams[s] => continue,
                        Some(_) => return Ok(Cached::Cannot),
                        None => return Ok(Cached::Validate),
                    },
                    _ => return Ok(Cached::Cannot),
                }
            }
        };
        if let Event::Ruling(r) = &e.event {
            // (an id the log has on another board: the whole log says what is wrong)
            if c.rulings.iter().any(|x| x.0 == r.id) || new_rulings.iter().any(|x| x.0 == r.id) {
                return Ok(Cached::Validate);
            }
            new_rulings.push((r.id.as_str(), key.clone()));
        }
        match index.get(&(key.0.as_str(), key.1)) {
            Some(&i) => {
                asked.insert(i);
            }
            None => {
                unplayed.insert(key);
            }
        }
    }
    let asked: Vec<usize> = asked.into_iter().collect();
    let seed = State::with_participants(c.participants.clone());
    let asked_keys: BTreeSet<(String, u32)> = asked
        .iter()
        .map(|&i| c.boards[i].0.clone())
        .chain(unplayed.iter().cloned())
        .collect();
    let team = team_sessions_of(&c.boards, &c.sessions, &c.teams, &asked);
    let team_unplayed = unplayed.iter().any(|(s, _)| {
        c.sessions
            .iter()
            .position(|x| x == s)
            .is_some_and(|i| c.teams[i])
    });
    if team_unplayed {
        return Ok(Cached::Cannot);
    }
    // In a team session, the matches some table of which the proposals change: found by
    // replaying the boards they are on without and with them (`audit::extend_cache` does the
    // same for appended lines); of the session's other boards only those matches' lines (and
    // the lines of no known match) are read.
    let changed = if team.is_empty() {
        None
    } else {
        let Some(lines) = c.lines(bytes, &asked) else {
            return Ok(Cached::Cannot);
        };
        let Ok(mut events) = crate::event::read::parse_lines(&lines) else {
            return Ok(Cached::Cannot);
        };
        let Some(before) = replay_boards(&events, asked_keys.clone(), &seed, c) else {
            return Ok(Cached::Cannot);
        };
        events.extend(proposed.iter().cloned());
        let Some(after) = replay_boards(&events, asked_keys.clone(), &seed, c) else {
            return Ok(Cached::Validate);
        };
        match_tags(&before, &after, &c.matches)
    };
    let which = with_team_boards(&c.boards, &c.sessions, &c.teams, asked.clone());
    let mut is_asked = vec![false; c.boards.len()];
    for &i in &asked {
        is_asked[i] = true;
    }
    let keep = |i: usize, tag: u32| {
        is_asked[i] || tag == cache::NO_MATCH || changed.as_ref().is_none_or(|m| m.contains(&tag))
    };
    let (events, state_pair) = {
        let _s = tracing::info_span!("replay", boards = which.len()).entered();
        let Some(lines) = c.lines_with(bytes, &which, keep) else {
            return Ok(Cached::Cannot);
        };
        let Ok(mut events) = crate::event::read::parse_lines(&lines) else {
            return Ok(Cached::Cannot);
        };
        events.extend(proposed);
        let mut keys: BTreeSet<(String, u32)> = which
            .iter()
            .map(|&i| c.boards[i].0.clone())
            .chain(unplayed.iter().cloned())
            .collect();
        whole_team_sessions(&mut keys, session_defs(&events));
        // The boards without the proposals (the log as it is) and with them, side by side.
        let before_scope = ReplayScope {
            upto: Some(c.last_seq),
            boards: Some(keys.clone()),
            ..Default::default()
        };
        let (before, after) = rayon::join(
            || crate::replay::replay_seeded(&events, &before_scope, &seed),
            || {
                let scope = ReplayScope {
                    boards: Some(keys.clone()),
                    ..Default::default()
                };
                crate::replay::replay_seeded(&events, &scope, &seed)
            },
        );
        (events, (before, after, keys))
    };
    let ((before_state, before_errors), (after_state, after_errors), keys) = state_pair;
    if !before_errors.is_empty() || !cache::same_numbering(c, &before_state) {
        return Ok(Cached::Cannot);
    }
    if !after_errors.is_empty() {
        return Ok(Cached::Validate);
    }
    if !cache::same_numbering(c, &after_state) {
        return Ok(Cached::Cannot);
    }
    // The log's boards as it is, scored with its comparison groups' N; the cached standings and
    // sums are theirs (lent to the base and given back below).
    let before_scores = {
        let _s = tracing::info_span!("score", boards = keys.len()).entered();
        match score_with_fields(&before_state, &c.fields)? {
            Some(s) => s,
            None => return Ok(Cached::Cannot),
        }
    };
    let base = Scored {
        pair_boards: before_scores,
        team_boards: Vec::new(),
        matches: Vec::new(),
        standings: std::mem::take(&mut c.standings),
        fields: std::mem::take(&mut c.fields),
        notices: Vec::new(),
        sums: std::mem::take(&mut c.sums),
    };
    let r = rescore(
        &before_state,
        &base,
        Some(&c.board_ns),
        &after_state,
        &keys,
        false,
        None,
    );
    let Scored {
        pair_boards: before_boards,
        standings,
        fields,
        sums,
        ..
    } = base;
    let give_back = |c: &mut cache::AuditCache, standings, fields, sums| {
        c.standings = standings;
        c.fields = fields;
        c.sums = sums;
    };
    let r = match r {
        Ok(Some(r)) => r,
        Ok(None) => {
            give_back(c, standings, fields, sums);
            return Ok(Cached::Cannot);
        }
        Err(e) => {
            give_back(c, standings, fields, sums);
            return Err(AuditError::Score(e));
        }
    };
    // The team boards some table of which differs, as they stand in the log.
    let changed = &r.changed_team_boards;
    let before_team = if changed.is_empty() {
        Vec::new()
    } else {
        pipeline::score_team_boards(&before_state, changed)
    };
    let earlier = rescoped(&before_state, &before_boards, &before_team, changed, &keys);
    let later = rescoped(&after_state, &r.pair_boards, &r.team_boards, changed, &keys);
    let (boards, deltas) = {
        let _s = tracing::info_span!("compare").entered();
        rayon::join(
            || board_deltas(&before_state, &earlier, &after_state, &later),
            || standing_deltas(&before_state, &standings, &after_state, &r.standings),
        )
    };
    give_back(c, standings, fields, sums);
    let rulings = proposed_rulings(&after_state, p.first_seq);
    Ok(Cached::Answer(Answer {
        audit: Audit {
            question: question(p),
            standings: deltas,
            boards,
            rulings,
            incremental: true,
        },
        residue: Residue::new((before_state, after_state, r, before_boards, events)),
    }))
}

/// The rulings of `state` recorded from `first` on (the proposed ones), as an audit lists the
/// rulings it is about.
fn proposed_rulings(state: &State, first: usize) -> Vec<RulingNote> {
    state
        .rulings
        .iter()
        .filter(|r| r.seq >= first)
        .map(|r| RulingNote {
            id: r.ev.id.clone(),
            session: state.sessions[r.key.0].def.id.clone(),
            board: r.key.1,
            score: r.ev.score.normalised(),
            law: r.ev.law.clone(),
            by: r.by.clone(),
            note: r.note.clone(),
            seq: r.seq,
        })
        .collect()
}
