//! Another replay of a log scored from a scoring of it: only the boards that differ re-scored, the standings' sums taken out and put back, the team matches that differ swapped.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;

use super::cache;
use crate::options::MpArtificial;
use crate::pipeline::{board_inputs, score_board, score_matches, score_team_boards, table_in};
use crate::pipeline::{ScoreError, Scored, TeamScope};
use crate::replay::{State, Table};
use crate::score::{BoardScore, TeamBoardScore};
use crate::standings::{finish, Standing};

/// What another replay of the log changes, when only some boards differ: the boards re-scored
/// and the standings recomputed from them and every other board of `base`.
#[derive(Clone, Debug)]
pub struct Rescored {
    /// The re-scored pair boards: those of `keys` that still have tables, in board order.
    pub pair_boards: Vec<BoardScore>,
    /// The re-scored team boards: those of `changed_team_boards`, match by match.
    pub team_boards: Vec<TeamBoardScore>,
    /// The team boards (`(session, board)`) some table of which differs between the replays:
    /// every other team board scores the same in both.
    pub changed_team_boards: BTreeSet<(usize, u32)>,
    pub standings: Vec<Standing>,
    /// The standings' sums they were computed from, when asked for (the audit cache carries
    /// them on).
    pub sums: Option<crate::standings::Sums>,
}

/// Re-score only the boards `keys` (`(session id, board)`) of `partial`, a replay of the same
/// log as `base_state` restricted to those boards (`ReplayScope::boards`), and recompute the
/// standings with every other board taken from `base`. For a team session, `keys` must hold
/// every board of it (`partial` and `base_state` replay all of them): the matches some table of
/// which differs are scored in both and their points swapped in the session's standings. `None`
/// when that would not give what a whole scoring gives: a team session not whole in `keys`, a
/// fouled board, `mp_artificial: session_bounded` or a comparison group whose N changes among
/// the boards; the caller then scores the replay whole.
///
/// `base`'s `boards` may hold only the boards of `keys` (its `sums`, `standings` and `fields`
/// being the whole scoring's) when `board_ns` gives every pair-form board's number of tables in
/// the base (the audit cache keeps them); `keep_sums`: also the new sums; `scored`: `partial`'s
/// boards already scored with the base's N (taken when they are those boards, in order; scored
/// here otherwise).
pub fn rescore(
    base_state: &State,
    base: &Scored,
    board_ns: Option<&[cache::BoardN]>,
    partial: &State,
    keys: &BTreeSet<(String, u32)>,
    keep_sums: bool,
    scored: Option<&[BoardScore]>,
) -> Result<Option<Rescored>, ScoreError> {
    let _span = tracing::info_span!("rescore", boards = keys.len()).entered();
    let sid = |st: &State, s: usize| st.sessions[s].def.id.clone();
    let Some(team) = team_sessions(base_state, partial, keys) else {
        return Ok(None);
    };
    let in_keys = |st: &State, b: &BoardScore| keys.contains(&(sid(st, b.session), b.board));
    // Sessions are declared in the same order in both replays (a prefix of the log at most).
    if partial.sessions.len() > base_state.sessions.len()
        || partial
            .sessions
            .iter()
            .zip(&base_state.sessions)
            .any(|(a, b)| a.def.id != b.def.id)
    {
        return Ok(None);
    }
    let (mut tasks, _) = board_inputs(partial)?;
    let fields = group_ns((base_state, base, board_ns), partial, keys, &tasks);
    if fields.iter().any(|(g, n)| base.fields.get(g) != Some(n)) {
        return Ok(None);
    }
    for t in &mut tasks {
        t.field = fields[&(t.session, t.section.clone())];
    }
    let pair_boards: Vec<BoardScore> = match scored.filter(|s| {
        s.len() == tasks.len()
            && s.iter().zip(&tasks).all(|(b, t)| {
                (b.session, &b.section, b.board, b.field)
                    == (t.session, &t.section, t.board, t.field)
            })
    }) {
        Some(s) => s.to_vec(),
        None => {
            let _s = tracing::debug_span!("score").entered();
            tasks.par_iter().map(score_board).collect()
        }
    };
    // The standings' sums: the boards of `keys` taken out, their new versions put in.
    let _s = tracing::debug_span!("sums").entered();
    // (sums of sessions the replay does not have: a cache that is not this log's — forged,
    // found by the audit_cache fuzz target — answered the long way)
    if !base
        .sums
        .sessions_within(partial.sessions.len().min(base_state.sessions.len()))
    {
        return Ok(None);
    }
    let mut sums = base.sums.clone();
    for b in base.pair_boards.iter().filter(|b| in_keys(base_state, b)) {
        if !sums.remove_board(b) {
            // (a board of `base` is always in its sums)
            return Ok(None);
        }
    }
    for b in &pair_boards {
        sums.add_board(partial, b);
    }
    let (team_boards, changed_team_boards) = if team.is_empty() {
        (Vec::new(), BTreeSet::new())
    } else {
        swap_matches(base_state, partial, &team, &mut sums)
    };
    let mut notices = Vec::new();
    let _f = tracing::debug_span!("finish").entered();
    let kept = keep_sums.then(|| sums.clone());
    let standings = finish(partial, sums, &fields, &mut notices);
    Ok(Some(Rescored {
        pair_boards,
        team_boards,
        changed_team_boards,
        standings,
        sums: kept,
    }))
}

/// The team sessions among `keys` (numbered alike in both replays, checked by the caller);
/// `None` when a team session is not whole in `keys`, or a pair board of them is fouled or of
/// `session_bounded`: not re-scored in part.
fn team_sessions(
    base_state: &State,
    partial: &State,
    keys: &BTreeSet<(String, u32)>,
) -> Option<BTreeSet<usize>> {
    let mut team: BTreeSet<usize> = Default::default();
    for (session, board) in keys {
        for st in [base_state, partial] {
            let Some(s) = st.session_index(session) else {
                continue;
            };
            let def = &st.sessions[s].def;
            let whole = if st.sessions[s].kind.in_matches {
                // (a match's points depend on every board of it)
                !team.insert(s)
                    || def
                        .boards
                        .iter()
                        .all(|b| keys.contains(&(session.clone(), *b)))
            } else {
                def.options.mp_artificial != MpArtificial::SessionBounded
                    && !st.fouled.contains_key(&(s, *board))
            };
            if !whole {
                return None;
            }
        }
    }
    Some(team)
}

/// Each comparison group's N over every board: the boards kept from `base` (or, with
/// `board_ns`, the base's every pair-form board) and the new ones, `tasks`.
fn group_ns(
    (base_state, base, board_ns): (&State, &Scored, Option<&[cache::BoardN]>),
    partial: &State,
    keys: &BTreeSet<(String, u32)>,
    tasks: &[crate::score::BoardIn],
) -> BTreeMap<(usize, Option<String>), u32> {
    let sid = |st: &State, s: usize| st.sessions[s].def.id.clone();
    let in_keys = |st: &State, b: &BoardScore| keys.contains(&(sid(st, b.session), b.board));
    let mut fields: BTreeMap<(usize, Option<String>), u32> = BTreeMap::new();
    match board_ns {
        None => {
            for b in &base.pair_boards {
                if !in_keys(base_state, b) && b.session < partial.sessions.len() {
                    let n = fields.entry((b.session, b.section.clone())).or_insert(0);
                    *n = (*n).max(b.tables() as u32);
                }
            }
        }
        Some(ns) => {
            for ((s, g, board), tables) in ns {
                if *s < partial.sessions.len() && !keys.contains(&(sid(base_state, *s), *board)) {
                    let n = fields.entry((*s, g.clone())).or_insert(0);
                    *n = (*n).max(*tables);
                }
            }
        }
    }
    for t in tasks {
        let n = fields.entry((t.session, t.section.clone())).or_insert(0);
        *n = (*n).max(t.tables.len() as u32);
    }
    fields
}

/// The matches of the team sessions `team` some table of which differs, swapped in `sums`
/// (their points taken out, `partial`'s put in); with the team boards re-scored and which.
fn swap_matches(
    base_state: &State,
    partial: &State,
    team: &BTreeSet<usize>,
    sums: &mut crate::standings::Sums,
) -> (Vec<TeamBoardScore>, BTreeSet<(usize, u32)>) {
    let _t = tracing::debug_span!("teams", sessions = team.len()).entered();
    let (changed_boards, changed_matches) = changed_team_tables(base_state, partial, team);
    let changed = TeamScope::Matches(&changed_matches);
    let (_, new, _) = score_matches(partial, changed);
    let (_, old, _) = score_matches(base_state, changed);
    if sums.remove_matches(&old) {
        sums.add_matches(&new);
    } else {
        // (sums beyond exact arithmetic: the sessions' groups made again from every match)
        let (_, all, _) = score_matches(partial, TeamScope::Sessions(team));
        sums.drop_team_sessions(team);
        sums.add_matches(&all);
    }
    (score_team_boards(partial, &changed_boards), changed_boards)
}

/// The team tables of the sessions `team` that differ between two replays of a log (numbered
/// alike): their boards and their matches.
pub fn changed_team_tables(
    a: &State,
    b: &State,
    team: &BTreeSet<usize>,
) -> (BTreeSet<(usize, u32)>, BTreeSet<(usize, String)>) {
    let (mut boards, mut matches) = (BTreeSet::new(), BTreeSet::new());
    let mut mark = |t: &Table| {
        boards.insert((t.session, t.board));
        if let Some(m) = &t.match_id {
            matches.insert((t.session, m.clone()));
        }
    };
    fn of<'s>(
        st: &'s State,
        team: &BTreeSet<usize>,
    ) -> Vec<(&'s crate::replay::TableKey, &'s Table)> {
        st.tables
            .iter()
            .filter(|(k, _)| team.contains(&k.0))
            .collect()
    }
    let (x, y) = (of(a, team), of(b, team));
    // (both in key order: merged)
    let (mut i, mut j) = (0, 0);
    while i < x.len() || j < y.len() {
        match (x.get(i), y.get(j)) {
            (Some((ka, ta)), Some((kb, tb))) if ka == kb => {
                if ta.match_id != tb.match_id || ta.room != tb.room {
                    mark(ta);
                    mark(tb);
                } else if table_in(a, ta) != table_in(b, tb) {
                    mark(ta);
                }
                i += 1;
                j += 1;
            }
            (Some((ka, ta)), Some((kb, _))) if ka < kb => {
                mark(ta);
                i += 1;
            }
            (Some((_, ta)), None) => {
                mark(ta);
                i += 1;
            }
            (_, Some((_, tb))) => {
                mark(tb);
                j += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    (boards, matches)
}
