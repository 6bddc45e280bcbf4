//! Team sessions scored: each match's boards and their totals, IMP penalties taken off, the match finished by its form (`score::form::TeamRules::finish`), and which matches a change touches.

use super::*;
use crate::replay::Kind;

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
    if state.matches.is_empty() && !state.sessions.iter().any(|s| s.kind == Kind::Teams) {
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
    // Every team table with its match and room, in the tables' order.
    let team: Vec<(usize, &str, u32, crate::event::Room, &Table)> = state
        .tables
        .values_vec()
        .into_iter()
        .filter(|t| state.sessions[t.session].kind == Kind::Teams)
        .filter_map(|t| Some((t.session, t.match_id.as_deref()?, t.board, t.room?, t)))
        .filter(|&(s, m, b, _, _)| in_scope(s, m, b))
        .collect();
    // Each match by id (`state.matches` is keyed by an owned id).
    let by_id: BTreeMap<(usize, &str), &crate::replay::Match> = state
        .matches
        .iter()
        .map(|((s, m), mt)| ((*s, m.as_str()), mt))
        .collect();
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
    by_match.par_sort_by_key(|&i| (team[i].0, team[i].1, team[i].2));
    let runs: Vec<&[usize]> = by_match
        .chunk_by(|&x, &y| (team[x].0, team[x].1, team[x].2) == (team[y].0, team[y].1, team[y].2))
        .collect();
    // Each board of each match scored with its two sides (in parallel), or the notice of a
    // board played in one room; with the board's part of its match's totals.
    type Made = Result<(TeamBoardScore, [Q; 4]), Notice>;
    let mut made: Vec<Made> = runs
        .par_iter()
        .map(|run| {
            let (s, m, b, _, _) = team[run[0]];
            let (mut open, mut closed) = (None, None);
            for &i in run.iter() {
                match team[i].3 {
                    crate::event::Room::Open => open = Some(team[i].4),
                    crate::event::Room::Closed => closed = Some(team[i].4),
                }
            }
            let def = &state.sessions[s].def;
            let mt = by_id[&(s, m)];
            let input = TeamBoardIn {
                board: b,
                knockout: mt.def.knockout,
                form: def.form,
                options: &def.options,
                open: open.map(|t| table_in(state, t)),
                closed: closed.map(|t| table_in(state, t)),
            };
            let Some(tb) = rooms::score_board(&input) else {
                return Err(Notice {
                    line: None,
                    message: format!(
                        "session \"{}\" match \"{m}\" board {b} was played in one room only and has no ruling for the other: not scored (C17)",
                        def.id
                    ),
                });
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
            let part = [
                tb.home,
                tb.away,
                tb.home_calc.aggregate,
                tb.away_calc.aggregate,
            ];
            Ok((
                TeamBoardScore {
                    score: BoardScore {
                        session: s,
                        section: None,
                        board: b,
                        field: 2,
                        sides: vec![
                            side(home, away, tb.home, true),
                            side(away, home, tb.away, false),
                        ],
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
                },
                part,
            ))
        })
        .collect();
    // Each match's totals over its scored boards, in board order (the boards come match by
    // match): (boards, home, away, home aggregate, away aggregate). The first scored board of
    // each (session, board) carries its statistics to the export.
    let mut per_match: BTreeMap<(usize, &str), (u32, [Q; 4])> = BTreeMap::new();
    let mut stats_given: std::collections::BTreeSet<(usize, u32)> = Default::default();
    for (run, b) in runs.iter().zip(made.iter_mut()) {
        match b {
            Err(n) => notices.push(n.clone()),
            Ok((b, part)) => {
                b.export_stats = stats_given.insert((b.score.session, b.score.board));
                let (s, m, ..) = team[run[0]];
                let e = per_match.entry((s, m)).or_insert((0, [Q::ZERO; 4]));
                e.0 += 1;
                for (acc, x) in e.1.iter_mut().zip(part.iter()) {
                    *acc += *x;
                }
            }
        }
    }
    drop(runs);
    // (the boards taken out of `made` in its own allocation)
    let boards: Vec<TeamBoardScore> = made
        .into_iter()
        .filter_map(|r| r.ok())
        .map(|r| r.0)
        .collect();
    if let TeamScope::Boards(_) = scope {
        return (boards, Vec::new(), notices);
    }
    let mut matches = Vec::new();
    for ((s, m), mt) in state
        .matches
        .iter()
        .filter(|((s, m), _)| in_scope(*s, m, 0))
    {
        let def = &state.sessions[*s].def;
        let o = &def.options;
        let (scored, [mut home, mut away, agg_h, agg_a]) = per_match
            .remove(&(*s, m.as_str()))
            .unwrap_or((0, [Q::ZERO; 4]));
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
            &mut notices,
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
    (boards, matches, notices)
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
