//! Team sessions scored: each match's boards and their totals, IMP penalties taken off, the match finished by its form (`score::form::TeamRules::finish`), and which matches a change touches.

use super::*;

/// The team boards `boards` (`(session, board)`) of `state` scored, in every match, as
/// [`score`] scores them (a team board's score depends on its two tables alone; the matches'
/// totals are not made).
pub fn score_team_boards(
    state: &State,
    boards: &std::collections::BTreeSet<(usize, u32)>,
) -> Vec<TeamBoardScore> {
    score_matches(state, TeamScope::Boards(boards)).0
}

/// Which team matches [`score_matches`] scores.
#[derive(Clone, Copy)]
pub enum TeamScope<'a> {
    /// Every match of every team session.
    All,
    /// Every match of these sessions.
    Sessions(&'a std::collections::BTreeSet<usize>),
    /// These matches (`(session, match id)`).
    Matches(&'a std::collections::BTreeSet<(usize, String)>),
    /// These boards (`(session, board)`) in every match, without the matches' totals.
    Boards(&'a std::collections::BTreeSet<(usize, u32)>),
}

/// Score the team matches of `scope`: their boards in parallel, then the match totals and VPs.
pub fn score_matches(
    state: &State,
    scope: TeamScope,
) -> (Vec<TeamBoardScore>, Vec<MatchResult>, Vec<Notice>) {
    let mut notices = Vec::new();
    // No team session and no match: nothing below would find anything (and a pairs log of a
    // million tables is not walked for it).
    if state.matches.is_empty() && !state.sessions.iter().any(|s| s.kind.in_matches) {
        return (Vec::new(), Vec::new(), notices);
    }
    // (a map of the matches asked for by borrowed ids: no id copied per table)
    let asked: Option<std::collections::BTreeSet<(usize, &str)>> = match scope {
        TeamScope::Matches(m) => Some(m.iter().map(|(s, id)| (*s, id.as_str())).collect()),
        _ => None,
    };
    let in_scope = |s: usize, m: &str, b: u32| match scope {
        TeamScope::All => true,
        TeamScope::Sessions(o) => o.contains(&s),
        TeamScope::Matches(_) => asked.as_ref().is_some_and(|a| a.contains(&(s, m))),
        TeamScope::Boards(o) => o.contains(&(s, b)),
    };
    use rayon::prelude::*;
    // Each match by its place in (session, id) order, `state.matches`'s: the tables are sorted
    // and their matches found by it, ids not compared.
    let in_order: Vec<&crate::replay::Match> = state.matches.values().collect();
    let place: std::collections::HashMap<(usize, &str), u32> = (state.matches.keys())
        .enumerate()
        .map(|(i, (s, m))| ((*s, m.as_str()), i as u32))
        .collect();
    // Every team table with its match (and its place) and room, in the tables' order.
    let team: Vec<TeamTable> = state
        .tables
        .values_vec()
        .into_iter()
        .filter(|t| state.sessions[t.session].kind.in_matches)
        .filter_map(|t| {
            let m = t.match_id.as_deref()?;
            let at = *place.get(&(t.session, m))?;
            Some((t.session, m, t.board, t.room?, t, at))
        })
        .filter(|&(s, m, b, ..)| in_scope(s, m, b))
        .collect();
    drop(place);
    // (session, board) → every table of that board in the session, in the tables' order (C16:
    // pooled statistics), each board's statistics in parallel. (A table's `TableIn` is made
    // where it is needed, here and for its match, not kept for every table at once.)
    let mut by_board: Vec<usize> = (0..team.len()).collect();
    by_board.par_sort_by_key(|&i| (team[i].0, team[i].2));
    let stats: BTreeMap<(usize, u32), std::sync::Arc<BoardStats>> = by_board
        .chunk_by(|&x, &y| (team[x].0, team[x].2) == (team[y].0, team[y].2))
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|run| {
            let tables: Vec<TableIn> = run.iter().map(|&i| table_in(state, team[i].4)).collect();
            let k = (team[run[0]].0, team[run[0]].2);
            let st = board_stats(
                &tables,
                tables.len() as u32,
                &state.sessions[k.0].def.options,
                false,
            );
            (k, std::sync::Arc::new(st))
        })
        .collect();
    drop(by_board);
    // (session, match, board) → (open, closed): of two tables in one room, the later one.
    let mut by_match: Vec<usize> = (0..team.len()).collect();
    by_match.par_sort_by_key(|&i| (team[i].5, team[i].2));
    let runs: Vec<&[usize]> = by_match
        .chunk_by(|&x, &y| (team[x].5, team[x].2) == (team[y].5, team[y].2))
        .collect();
    // Each board of each match scored with its two sides (in parallel), or the notice of a
    // board played in one room; beside it, the teams' Patton aggregates on the board (the rest
    // of its part of the match's totals is its score). Both lists are written in place by
    // rayon, and the boards are then taken out of `made` in its own allocation: no second
    // copy of half a million boards.
    let (mut made, mut aggregates): (Vec<Result<TeamBoardScore, Notice>>, Vec<[Q; 2]>) =
        (Vec::new(), Vec::new());
    runs.par_iter()
        .map(|run| score_run(state, &team, run, &in_order, &stats))
        .unzip_into_vecs(&mut made, &mut aggregates);
    // Each match's totals over its scored boards, in board order (the boards come match by
    // match): (boards, home, away, home aggregate, away aggregate). The first scored board of
    // each (session, board) carries its statistics to the export.
    let mut per_match: Vec<Option<(u32, [Q; 4])>> = vec![None; in_order.len()];
    let mut stats_given: std::collections::BTreeSet<(usize, u32)> = Default::default();
    for ((run, b), agg) in runs.iter().zip(made.iter_mut()).zip(&aggregates) {
        match b {
            Err(n) => notices.push(n.clone()),
            Ok(b) => {
                let part = [b.rooms.home, b.rooms.away, agg[0], agg[1]];
                b.export_stats = stats_given.insert((b.score.session, b.score.board));
                let e = per_match[team[run[0]].5 as usize].get_or_insert((0, [Q::ZERO; 4]));
                e.0 += 1;
                for (acc, x) in e.1.iter_mut().zip(part.iter()) {
                    *acc += *x;
                }
            }
        }
    }
    drop(runs);
    drop(aggregates);
    drop(by_match);
    drop(team);
    // (the boards taken out of `made` in its own allocation)
    let boards: Vec<TeamBoardScore> = made.into_iter().filter_map(Result::ok).collect();
    if let TeamScope::Boards(_) = scope {
        return (boards, Vec::new(), notices);
    }
    let matches = finish_matches(state, &in_scope, per_match, &mut notices);
    (boards, matches, notices)
}

/// Each match of `in_scope` finished: its boards' totals (`per_match`, by its place in
/// `state.matches`), its IMP penalties taken off, and its form's VPs or points.
fn finish_matches(
    state: &State,
    in_scope: &dyn Fn(usize, &str, u32) -> bool,
    mut per_match: Vec<Option<(u32, [Q; 4])>>,
    notices: &mut Vec<Notice>,
) -> Vec<MatchResult> {
    let mut matches = Vec::new();
    for (at, ((s, m), mt)) in
        (state.matches.iter().enumerate()).filter(|(_, ((s, m), _))| in_scope(*s, m, 0))
    {
        let def = &state.sessions[*s].def;
        let o = &def.options;
        let (scored, [mut home, mut away, agg_h, agg_a]) =
            per_match[at].take().unwrap_or((0, [Q::ZERO; 4]));
        let declared = mt.def.boards.len() as u32;
        // IMP penalties come off the match IMPs before the VP conversion (C18, C20).
        for p in state
            .penalties
            .iter()
            .filter(|p| p.session == *s && p.ev.unit == crate::event::PenaltyUnit::Imp)
        {
            let in_match = match (&p.ev.match_id, p.ev.board) {
                (Some(pm), _) => pm == m,
                (None, Some(b)) => mt.def.boards.binary_search(&b).is_ok(),
                (None, None) => {
                    state
                        .matches
                        .values()
                        .filter(|x| {
                            x.session == *s && (x.home == p.participant || x.away == p.participant)
                        })
                        .count()
                        == 1
                }
            };
            if !in_match {
                continue;
            }
            if p.participant == mt.home {
                home -= p.ev.amount;
            } else if p.participant == mt.away {
                away -= p.ev.amount;
            }
        }
        let rules = def
            .form
            .teams()
            .expect("a match is of a team session (replay checks it)");
        let nos_teams = || nos_teams(state, *s, m);
        let out = (rules.finish)(
            &crate::score::form::MatchIn {
                id: m,
                line: mt.line,
                home: mt.home,
                away: mt.away,
                boards: declared,
                points: [home, away],
                aggregate: [agg_h, agg_a],
                options: o,
                nos_teams: &nos_teams,
            },
            notices,
        );
        let [vp_home, vp_away] = out.vps;
        matches.push(MatchResult {
            session: *s,
            match_id: m.clone(),
            home: mt.home,
            away: mt.away,
            boards: declared,
            scored,
            imp_home: out.imps.map(|i| i[0]),
            imp_away: out.imps.map(|i| i[1]),
            vp_home,
            vp_away,
        });
    }
    matches
}

/// A team table: (session, match, board, room, table, the match's place in `state.matches`).
type TeamTable<'a> = (usize, &'a str, u32, crate::event::Room, &'a Table, u32);

/// One board of one match (`run`: its tables in `team`) scored with its two sides, or the
/// notice of a board played in one room; beside it, the teams' Patton aggregates on it.
fn score_run(
    state: &State,
    team: &[TeamTable],
    run: &[usize],
    in_order: &[&crate::replay::Match],
    stats: &BTreeMap<(usize, u32), std::sync::Arc<BoardStats>>,
) -> (Result<TeamBoardScore, Notice>, [Q; 2]) {
    let (s, m, b, ..) = team[run[0]];
    let (mut open, mut closed) = (None, None);
    for &i in run.iter() {
        match team[i].3 {
            crate::event::Room::Open => open = Some(team[i].4),
            crate::event::Room::Closed => closed = Some(team[i].4),
        }
    }
    let def = &state.sessions[s].def;
    let mt = in_order[team[run[0]].5 as usize];
    let input = TeamBoardIn {
        board: b,
        knockout: mt.def.knockout,
        form: def.form,
        options: &def.options,
        open: open.map(|t| table_in(state, t)),
        closed: closed.map(|t| table_in(state, t)),
    };
    let Some((tb, aggregate)) = rooms::score_board(&input) else {
        let n = Notice {
            line: None,
            message: format!(
                "session \"{}\" match \"{m}\" board {b} was played in one room only and has no ruling for the other: not scored (C17)",
                def.id
            ),
        };
        return (Err(n), [Q::ZERO; 2]);
    };
    let (home, away) = (mt.home, mt.away);
    let open = input.open.as_ref().unwrap();
    let closed = input.closed.as_ref().unwrap();
    let adjusted = open.adjusted || closed.adjusted;
    let side = |me: PId, opp: PId, score: Q, ns: bool| SideScore {
        participant: me,
        side: if ns {
            crate::adjust::Side::NS
        } else {
            crate::adjust::Side::EW
        },
        opponent: opp,
        score,
        top: None,
        adjusted,
        ns_points: if open.ns_score.is_artificial() && open.ew_score.is_artificial() {
            None
        } else {
            open.played
        },
        artificial: None,
        detail: None,
    };
    (
        Ok(TeamBoardScore {
            score: BoardScore {
                session: s,
                section: None,
                board: b,
                field: 2,
                sides: vec![
                    side(home, away, tb.home, true),
                    side(away, home, tb.away, false),
                ],
                per_side: 1,
                freq: Vec::new(),
                stats: stats[&(s, b)].clone(),
                datum: None,
                notices: Vec::new(),
                facts: Vec::new(),
                text: Vec::new(),
            },
            match_id: m.to_string(),
            rooms: tb,
            export_stats: false,
        }),
        aggregate,
    )
}

/// The teams named non-offending by a structured subsequent-damage ruling of match `m` of
/// session `s` (for `vp_imp_rounding: nos`, C18).
fn nos_teams(state: &State, s: usize, m: &str) -> std::collections::BTreeSet<PId> {
    let mut nos_teams = std::collections::BTreeSet::new();
    for t in state
        .tables
        .values()
        .filter(|t| t.session == s && t.match_id.as_deref() == Some(m))
    {
        if let Some(sd) = t.ruling(state).and_then(|r| r.ev.sd) {
            nos_teams.insert(match sd.nos {
                crate::adjust::Side::NS => t.ns,
                crate::adjust::Side::EW => t.ew,
            });
        }
    }
    nos_teams
}

/// Each team's arithmetic on a scored team board (home, away), for `explain`: its two rooms
/// read again from `state` (the tables its scoring read: the open room's NS is the home team,
/// the closed room's the away team) and scored again with their parts listed
/// (`rooms::calculate`); `None` when a room has no table.
pub fn team_board_calc(state: &State, team: &TeamBoardScore) -> Option<[rooms::TeamCalc; 2]> {
    use crate::event::Room;
    let (s, b, m) = (team.score.session, team.score.board, team.match_id.as_str());
    let mt = state.matches.get(&(s, team.match_id.clone()))?;
    let room = |ns: PId, r: Room| {
        state
            .tables
            .get(&(s, b, ns))
            .filter(|t| t.match_id.as_deref() == Some(m) && t.room == Some(r))
            .map(|t| table_in(state, t))
    };
    let def = &state.sessions[s].def;
    let input = TeamBoardIn {
        board: b,
        knockout: mt.def.knockout,
        form: def.form,
        options: &def.options,
        open: room(mt.home, Room::Open),
        closed: room(mt.away, Room::Closed),
    };
    rooms::calculate(&input).map(|(_, calc)| calc)
}
