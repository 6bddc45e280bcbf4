//! Which boards and team matches an audit question touches, and the two replays' scopes that answer it.

use super::*;

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
pub(super) fn touched_boards(
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
                if full.sessions[s].kind.in_matches {
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
pub(super) fn differing(events: &[Envelope], a: &ReplayScope, b: &ReplayScope) -> BTreeSet<usize> {
    let within =
        |s: &ReplayScope, seq: usize| s.upto.is_none_or(|u| seq <= u) && !s.skip.contains(&seq);
    events
        .iter()
        .map(|e| e.seq)
        .filter(|&q| within(a, q) != within(b, q))
        .collect()
}

/// The team matches (as tags of `c.matches`) some table of which differs between the two
/// replays `question` compares, found by replaying the boards `asked` (indexes of `c.boards`,
/// the boards the question is on) both ways; `None` when they cannot be named that way (a
/// match whose lines are not tagged, a replay that fails): then every match is read. And the
/// events parsed for it (the declarations and those boards'), when they could be.
pub(super) fn changed_matches(
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
pub(super) fn match_tags(a: &State, b: &State, tags: &cache::MatchTags) -> Option<BTreeSet<u32>> {
    let team: BTreeSet<usize> = (0..a.sessions.len())
        .filter(|&s| a.sessions[s].kind.in_matches)
        .collect();
    let (_, matches) = changed_team_tables(a, b, &team);
    matches
        .iter()
        .map(|(s, m)| tags.find(&a.sessions[*s].def.id, m))
        .collect()
}

/// The sessions the events `events` declare.
pub(super) fn session_defs(events: &[Envelope]) -> impl Iterator<Item = &crate::event::SessionDef> {
    events.iter().filter_map(|e| match &e.event {
        Event::Session(d) => Some(d),
        _ => None,
    })
}

/// The team sessions (ids) of the boards `which` (indexes of `boards`), given the log's
/// `sessions` and which of them are team sessions (`teams`).
pub(super) fn team_sessions_of<'b>(
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
pub(super) fn with_team_boards(
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
pub(super) fn scopes(
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
/// Every board of each team session among `keys` (`(session id, board)`) added to them, as
/// `sessions` (the log's) declare them: a match's points depend on all its boards, so a team
/// session is re-scored whole or not at all.
pub fn whole_team_sessions<'d>(
    keys: &mut std::collections::BTreeSet<(String, u32)>,
    sessions: impl IntoIterator<Item = &'d crate::event::SessionDef>,
) {
    for def in sessions {
        if crate::kind::of(def.form).in_matches && keys.iter().any(|(s, _)| *s == def.id) {
            keys.extend(def.boards.iter().map(|&b| (def.id.clone(), b)));
        }
    }
}
