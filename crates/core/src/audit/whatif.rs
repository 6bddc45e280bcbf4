//! What-if audits: the standings with proposed events (a ruling, a ruling's withdrawal, a
//! correction, a penalty) added at the end of a log, against the log as it is, nothing written.
//!
//! An appeals committee asks before it rules. The proposed events are sealed as `append` would
//! write them (`event::append::propose`: the same `seq`s, line numbers and errors) and the
//! question is then the audit `--as-of LAST` of the log with them: its earlier side is the log
//! as it is, its later side the log with the proposals. Answered two ways by `audit::answer`
//! (asked `Ask::WhatIf`), with the same answer:
//! - from the log's audit cache (`whatif_cached`): the cache holds the log's whole scoring,
//!   which is here the *earlier* side; the boards the proposals are on (with, in a team session,
//!   the matches they change) are read, replayed without and with them, and re-scored, and the
//!   standings with the proposals are the cached ones with those boards swapped
//!   (`audit::rescore`, as `audit::extend_cache` carries a cache across appended lines);
//! - the long way: the log with the proposals read and replayed whole and audited
//!   `--as-of LAST`.
//!
//! Validation is `append`'s: the proposals are read by the same reader, and the boards they
//! are on replayed by the same replay; should that find anything wrong, or the proposals need
//! more of the log than the boards they are on (a ruling id used elsewhere, a withdrawal of a
//! ruling the log does not have, ...), `answer` says `Outcome::Validate`: the caller validates
//! the whole log with them exactly as `append` does and reports its errors.

use std::collections::BTreeSet;

use super::engine::{compare, rescore_sides, ruling_notes, sides, Miss, Side};
use super::{cache, Answer, Audit, AuditError, Outcome, Question, Residue};
use crate::event::append::Proposed;
use crate::event::{Envelope, Event, OnBoard};
use crate::pipeline;

/// The event types a what-if takes.
pub const KINDS: [&str; 4] = ["ruling", "ruling_withdrawn", "correction", "penalty"];

/// `Err` (what is wrong, with the proposal's place) unless every proposed event is one of
/// [`KINDS`]; checked after `append`'s checks of each event's text (JSON, an object, its
/// `seq`) and before the log is validated with them.
pub fn check_kinds(p: &Proposed) -> Result<(), NotWhatIf> {
    for (i, o) in p.objects.iter().enumerate() {
        let t = o.get("type").and_then(|t| t.as_str()).unwrap_or("");
        if !KINDS.contains(&t) {
            return Err(NotWhatIf {
                event: i + 1,
                line: p.first_line + i,
                kind: t.to_string(),
            });
        }
    }
    Ok(())
}

/// A proposed event a what-if does not take ([`check_kinds`]): its place, and its `type`
/// (empty when it has none).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("proposed event {event} (line {line} if appended): a what-if adds a ruling, a ruling_withdrawn, a correction or a penalty, not {}", if .kind.is_empty() { "an event without a \"type\"".to_string() } else { format!("a \"{}\"", .kind) })]
pub struct NotWhatIf {
    pub event: usize,
    pub line: usize,
    pub kind: String,
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

/// A what-if answered from the audit cache `c` of the log `bytes` (see the module's
/// documentation). `c` is lent: its standings and sums are taken for the answer and put back,
/// so one cache answers several what-ifs (`--alternatives`).
pub(super) fn whatif_cached(
    bytes: &[u8],
    c: &mut cache::AuditCache,
    p: &Proposed,
) -> Result<Outcome, AuditError> {
    if !c.fits(bytes) || p.first_seq != c.last_seq + 1 {
        return Ok(Outcome::Cannot);
    }
    let _span = tracing::info_span!("whatif").entered();
    let missed = |m: Miss| match m {
        Miss::Cannot => Outcome::Cannot,
        Miss::Invalid => Outcome::Validate,
    };
    let proposed = match proposals(bytes, c, p) {
        Ok(v) => v,
        Err(m) => return Ok(missed(m)),
    };
    let (asked, unplayed) = match proposal_boards(c, &proposed) {
        Ok(b) => b,
        Err(m) => return Ok(missed(m)),
    };
    let s = match sides(
        bytes,
        c,
        (&c.boards, &c.matches),
        &asked,
        &unplayed,
        &proposed,
    ) {
        Ok(s) => s,
        Err(m) => return Ok(missed(m)),
    };
    let Some((r, before_boards)) = rescore_sides(c, &s, false)? else {
        return Ok(Outcome::Cannot);
    };
    // The team boards some table of which differs, as they stand in the log.
    let changed = &r.changed_team_boards;
    let before_team = if changed.is_empty() {
        Vec::new()
    } else {
        pipeline::score_team_boards(&s.before, changed)
    };
    let (boards, deltas) = {
        let _s = tracing::info_span!("compare").entered();
        let before = Side {
            state: &s.before,
            pairs: &before_boards,
            teams: &before_team,
            standings: &c.standings,
        };
        let after = Side {
            state: &s.after,
            pairs: &r.pair_boards,
            teams: &r.team_boards,
            standings: &r.standings,
        };
        compare(before, after, changed, &s.keys)
    };
    let rulings = ruling_notes(&s.after, |seq| seq >= p.first_seq);
    Ok(Outcome::Answer(Answer {
        audit: Audit {
            question: question(p),
            standings: deltas,
            boards,
            rulings,
            incremental: true,
        },
        residue: Residue::new((s, r, before_boards)),
    }))
}

/// The proposals `p` parsed after the declarations of the log `bytes` (a line knows the
/// sessions above it).
fn proposals(bytes: &[u8], c: &cache::AuditCache, p: &Proposed) -> Result<Vec<Envelope>, Miss> {
    // A proposal longer than an event line may be: the reader refuses it, which the whole log
    // read with it says (the same answer with or without the cache).
    if p.text
        .lines()
        .any(|l| l.len() > crate::event::read::MAX_LINE)
    {
        return Err(Miss::Invalid);
    }
    let new_lines = p
        .text
        .lines()
        .enumerate()
        .map(|(i, l)| (p.first_line + i, p.first_seq + i, l.as_bytes()));
    let mut decl = c.lines(bytes, &[]).ok_or(Miss::Cannot)?;
    let n_decl = decl.len();
    decl.extend(new_lines);
    let mut parsed = crate::event::read::parse_lines(&decl).map_err(|_| Miss::Invalid)?;
    Ok(parsed.split_off(n_decl))
}

/// The boards the proposals are on: indexes of `c.boards`, and boards without lines in the log.
fn proposal_boards(
    c: &cache::AuditCache,
    proposed: &[Envelope],
) -> Result<(Vec<usize>, BTreeSet<(String, u32)>), Miss> {
    let index: crate::hash::FxMap<(&str, u32), usize> = c
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| ((b.0 .0.as_str(), b.0 .1), i))
        .collect();
    let mut new_rulings: Vec<(&str, (String, u32))> = Vec::new();
    let mut asked: BTreeSet<usize> = BTreeSet::new();
    let mut unplayed: BTreeSet<(String, u32)> = BTreeSet::new();
    for e in proposed {
        let Some(key) = proposal_board(c, &new_rulings, e)? else {
            continue;
        };
        if let Event::Ruling(r) = &e.event {
            // (an id the log has on another board: the whole log says what is wrong)
            if c.rulings.iter().any(|x| x.0 == r.id) || new_rulings.iter().any(|x| x.0 == r.id) {
                return Err(Miss::Invalid);
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
    let team_unplayed = unplayed.iter().any(|(s, _)| {
        c.sessions
            .iter()
            .position(|x| x == s)
            .is_some_and(|i| c.teams[i])
    });
    if team_unplayed {
        return Err(Miss::Cannot);
    }
    Ok((asked.into_iter().collect(), unplayed))
}

/// The board of the proposal `e` (`new_rulings`: the rulings proposed before it, and their
/// boards); `None` for a pair session's penalty, which only moves the standings (recomputed
/// from the sums with every penalty of the replay).
fn proposal_board(
    c: &cache::AuditCache,
    new_rulings: &[(&str, (String, u32))],
    e: &Envelope,
) -> Result<Option<(String, u32)>, Miss> {
    Ok(Some(match e.event.on_board() {
        Some(OnBoard::Board(s, b)) => (s.to_string(), b),
        Some(OnBoard::OfRuling(id)) => match new_rulings.iter().rev().find(|r| r.0 == id) {
            Some(r) => r.1.clone(),
            None => match c.rulings.iter().find(|r| r.0 == id) {
                Some(r) => c.boards[r.1 as usize].0.clone(),
                None => return Err(Miss::Invalid),
            },
        },
        Some(OnBoard::OfResult(seq)) => c
            .boards
            .iter()
            .find(|b| b.1.binary_search_by_key(&(seq as u32), |r| r.seq).is_ok())
            .ok_or(Miss::Invalid)?
            .0
            .clone(),
        // A team session's IMP penalties come off its matches, which the cache does not
        // re-score for it.
        None => match &e.event {
            Event::Penalty(pe) => match c.sessions.iter().position(|s| *s == pe.session) {
                Some(s) if !c.teams[s] => return Ok(None),
                Some(_) => return Err(Miss::Cannot),
                None => return Err(Miss::Invalid),
            },
            _ => return Err(Miss::Cannot),
        },
    }))
}
