//! The pipeline: replayed state → boards scored in parallel → standings.
//!
//! The scoring's rayon user (the standings' sums are the other).
//! Each board of each comparison group is one task; results are collected
//! in board order, so the output is the same bytes whatever the thread count.

mod matches;

pub use matches::{score_matches, score_team_boards, team_board_calc, TeamScope};

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::adjust::Side;
use crate::error::Notice;
use crate::num::Q;
use crate::options::{Compare, SdMethod};
use crate::replay::{PId, State, Table};
use crate::score::rooms::{self, TeamBoardIn};
use crate::score::{
    stats::board_stats, BoardIn, BoardScore, BoardStats, Dist, MatchResult, SideScore, TableIn,
    TeamBoardScore,
};
use crate::standings::{finish, Standing, Sums};

/// Everything scored from one state: each kind of session's boards in their own type.
#[derive(Clone, Debug)]
pub struct Scored {
    /// The boards of the pair sessions, in (session, comparison group, board) order.
    pub pair_boards: Vec<BoardScore>,
    /// The boards of the team matches, in (session, match, board) order.
    pub team_boards: Vec<TeamBoardScore>,
    pub matches: Vec<MatchResult>,
    pub standings: Vec<Standing>,
    /// N of each comparison group: (session, section or None) → tables.
    pub fields: BTreeMap<(usize, Option<String>), u32>,
    pub notices: Vec<Notice>,
    /// What the standings were computed from (boards can be taken out of them again).
    pub sums: Sums,
}

impl Scored {
    /// Every board's scores, whatever its kind: the pair boards, then the team boards' (the
    /// order of every table of rows).
    pub fn boards(&self) -> impl Iterator<Item = &BoardScore> + Clone + '_ {
        self.pair_boards
            .iter()
            .chain(self.team_boards.iter().map(|t| &t.score))
    }

    /// How many boards [`Scored::boards`] gives.
    pub fn board_count(&self) -> usize {
        self.pair_boards.len() + self.team_boards.len()
    }
}

/// Scoring could not be done (a form not implemented yet).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ScoreError(pub String);

/// The comparison group a table belongs to.
pub fn group_of(state: &State, t: &Table) -> Option<String> {
    match state.sessions[t.session].def.compare {
        Compare::Section => t.section.as_deref().map(str::to_string),
        Compare::Field => None,
    }
}

/// Whether two tables of one session are in the same comparison group (no string made).
fn same_group(state: &State, a: &Table, b: &Table) -> bool {
    match state.sessions[a.session].def.compare {
        Compare::Section => a.section == b.section,
        Compare::Field => true,
    }
}

/// How a table enters scoring: the ruling in force resolved into each side's distribution.
pub fn table_in(state: &State, t: &Table) -> TableIn {
    let played = t.played.as_ref().map(|p| p.ns_points);
    let Some(r) = t.ruling(state) else {
        return TableIn {
            others: t.others.as_deref().copied(),
            ..TableIn::plain(
                t.ns,
                t.ew,
                played.expect("a table without a ruling was played"),
            )
        };
    };
    let opts = &state.sessions[t.session].def.options;
    let ns_score = Dist::from_part(&r.ev.score.ns);
    let ew_score = Dist::from_part(&r.ev.score.ew);
    let (mut ns_freq, mut ew_freq) = (ns_score.clone(), ew_score.clone());
    if let Some(sd) = &r.ev.sd {
        if opts.sd_method == SdMethod::Simplified {
            // C11: everybody else compares with the before-infraction result on the NOS's line.
            match sd.nos {
                Side::NS => ns_freq = Dist::Plain(sd.before),
                Side::EW => ew_freq = Dist::Plain(sd.before),
            }
        }
    }
    TableIn {
        ns: t.ns,
        ew: t.ew,
        ns_score,
        ew_score,
        ns_freq,
        ew_freq,
        adjusted: true,
        played,
        ruling: Some((r.ev.id.clone(), r.line)),
        nos: r.ev.sd.map(|sd| sd.nos),
        others: t.others.as_deref().copied(),
    }
}

/// One board of one comparison group to score: its tables as references into the state, resolved
/// into `TableIn`s only when the board is scored ([`BoardTask::input`]), so that a scoring run
/// holds the `TableIn`s of the boards being scored, not of every board at once.
pub struct BoardTask<'s> {
    pub session: usize,
    pub section: Option<String>,
    pub board: u32,
    pub field: u32,
    pub part: u32,
    pub tables: Vec<&'s Table>,
}

impl<'s> BoardTask<'s> {
    /// The board ready to score.
    pub fn input(&self, state: &'s State) -> BoardIn<'s> {
        let def = &state.sessions[self.session].def;
        BoardIn {
            session: self.session,
            field: self.field,
            form: def.form,
            section: self.section.clone(),
            board: self.board,
            options: &def.options,
            tables: self.tables.iter().map(|t| table_in(state, t)).collect(),
            part: self.part,
        }
    }
}

/// The pair-form boards of `state` to score, in (session, group, board) order, and each
/// comparison group's N.
pub fn board_tasks<'s>(
    state: &'s State,
) -> Result<(Vec<BoardTask<'s>>, BTreeMap<(usize, Option<String>), u32>), ScoreError> {
    let mut fields: BTreeMap<(usize, Option<String>), u32> = BTreeMap::new();
    let all = state.tables.values_vec();
    // Runs of consecutive tables (in key order) of one pair-form board of one comparison group,
    // found in parallel; the first table of an aggregate session (in key order) is an error.
    // Each session's form, asked once: a pairs form is scorable, unless this version does not
    // score it.
    let rules: Vec<Option<&crate::score::form::PairRules>> =
        state.sessions.iter().map(|s| s.def.form.pairs()).collect();
    let scorable = |t: &Table| rules[t.session].is_some();
    let unscored = |t: &Table| rules[t.session].is_some_and(|p| p.score.is_none());
    const CHUNK: usize = 1 << 14;
    let found: Vec<(Vec<(usize, usize)>, Option<usize>)> = all
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, ts)| {
            let base = c * CHUNK;
            let mut runs: Vec<(usize, usize)> = Vec::new();
            let mut open: Option<usize> = None;
            for (k, t) in ts.iter().enumerate() {
                if unscored(t) {
                    return (runs, Some(base + k));
                }
                // (A run is open only after a scorable table of this chunk.)
                let continues = open.is_some() && {
                    let prev = ts[k - 1];
                    prev.session == t.session && prev.board == t.board && same_group(state, prev, t)
                };
                if !continues {
                    if let Some(s) = open.take() {
                        runs.push((s, base + k));
                    }
                    if scorable(t) {
                        open = Some(base + k);
                    }
                }
            }
            if let Some(s) = open {
                runs.push((s, base + ts.len()));
            }
            (runs, None)
        })
        .collect();
    if let Some(i) = found.iter().find_map(|(_, a)| *a) {
        return Err(ScoreError(format!(
            "session \"{}\" has form \"{}\", which this version of frekans does not score yet",
            state.sessions[all[i].session].def.id,
            state.sessions[all[i].session].def.form.name(),
        )));
    }
    let grouped = group_runs(state, &all, &found);
    for ((s, g, _), tables) in &grouped {
        let n = fields.entry((*s, g.clone())).or_insert(0);
        *n = (*n).max(tables.len() as u32);
    }
    let mut tasks = Vec::with_capacity(grouped.len());
    for ((session, section, board), tables) in grouped {
        let field = fields[&(session, section.clone())];
        let make = |tables: Vec<&'s Table>, part: u32| BoardTask {
            session,
            section: section.clone(),
            board,
            field,
            part,
            tables,
        };
        match state.fouled.get(&(session, board)) {
            // C31–C33: each group of the fouled board is its own field, within the comparison
            // group; the pairs no group lists form one more group.
            Some((_, groups)) => {
                let mut parts: BTreeMap<usize, Vec<&'s Table>> = BTreeMap::new();
                for t in tables {
                    let g = groups
                        .iter()
                        .position(|g| g.contains(&t.ns))
                        .unwrap_or(groups.len());
                    parts.entry(g).or_default().push(t);
                }
                if parts.len() == 1 {
                    tasks.push(make(parts.into_values().next().unwrap(), 0));
                } else {
                    for (g, ts) in parts {
                        tasks.push(make(ts, g as u32 + 1));
                    }
                }
            }
            None => tasks.push(make(tables, 0)),
        }
    }
    Ok((tasks, fields))
}

/// The tables of the runs `found` grouped by (session, group, board), in table-key order.
#[allow(clippy::type_complexity)]
fn group_runs<'s>(
    state: &State,
    all: &[&'s Table],
    found: &[(Vec<(usize, usize)>, Option<usize>)],
) -> BTreeMap<(usize, Option<String>, u32), Vec<&'s Table>> {
    // (session, group, board) → tables, in table-key order. Runs come board by board, so a run
    // is most often in the same group as the one before it: no map look-up then.
    let mut index: BTreeMap<(usize, Option<String>, u32), usize> = BTreeMap::new();
    let mut lists: Vec<Vec<&'s Table>> = Vec::new();
    let mut last: Option<(&Table, usize)> = None;
    for &(start, end) in found.iter().flat_map(|(runs, _)| runs) {
        let t = all[start];
        let i = match last {
            Some((prev, i))
                if prev.session == t.session
                    && prev.board == t.board
                    && same_group(state, prev, t) =>
            {
                i
            }
            _ => *index
                .entry((t.session, group_of(state, t), t.board))
                .or_insert_with(|| {
                    lists.push(Vec::new());
                    lists.len() - 1
                }),
        };
        lists[i].extend_from_slice(&all[start..end]);
        last = Some((all[end - 1], i));
    }
    index
        .into_iter()
        .map(|(k, i)| (k, std::mem::take(&mut lists[i])))
        .collect()
}

/// The boards of `state` ready to score, in (session, group, board) order, and each comparison
/// group's N (every board's `TableIn`s at once: for a few boards, as `rescore` scores).
pub fn board_inputs(
    state: &State,
) -> Result<(Vec<BoardIn<'_>>, BTreeMap<(usize, Option<String>), u32>), ScoreError> {
    let (tasks, fields) = board_tasks(state)?;
    Ok((tasks.iter().map(|t| t.input(state)).collect(), fields))
}

/// Score one board of one comparison group in its session's form.
pub fn score_board(b: &BoardIn) -> BoardScore {
    crate::score::score_board(b)
}

/// A memo of a scoring run's pair-form boards, keyed by each board's input (its place, its
/// field and its tables): a scoring of another replay of the same log takes from it every board
/// whose input is unchanged.
#[derive(Clone, Debug, Default)]
pub struct BoardMemo {
    boards: BTreeMap<(usize, Option<String>, u32, u32), (u32, Vec<TableIn>, BoardScore)>,
}

impl BoardMemo {
    /// How many boards this run scored.
    pub fn len(&self) -> usize {
        self.boards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }
}

/// Score every board of every session of `state`.
pub fn score(state: &State) -> Result<Scored, ScoreError> {
    score_reusing(state, None, false).map(|(s, _, _)| s)
}

/// Score `state`, reusing from `base` (a run on another replay of the same log) every board whose
/// tables and field are unchanged. Returns the scores, what to reuse next time (when `keep`),
/// and how many boards were scored afresh.
pub fn score_reusing(
    state: &State,
    base: Option<&BoardMemo>,
    keep: bool,
) -> Result<(Scored, Option<BoardMemo>, usize), ScoreError> {
    let _span = tracing::info_span!("score").entered();
    // The parts of the stage as spans at -vv.
    let (tasks, fields) = tracing::debug_span!("tasks").in_scope(|| board_tasks(state))?;
    let _boards = tracing::debug_span!("boards").entered();
    let bar = crate::progress::bar("scoring boards", tasks.len() as u64);
    // Each board's tables are resolved inside its task and dropped once it is scored, unless a
    // later re-scoring is to reuse them (`keep`).
    let done: Vec<(BoardScore, Option<Vec<TableIn>>, bool)> = tasks
        .par_iter()
        .map(|task| {
            let t = task.input(state);
            let reused = base
                .and_then(|p| {
                    p.boards
                        .get(&(t.session, t.section.clone(), t.board, t.part))
                })
                .filter(|(f, tables, _)| *f == t.field && *tables == t.tables)
                .map(|(_, _, b)| b.clone());
            let fresh = reused.is_none();
            let b = reused.unwrap_or_else(|| score_board(&t));
            bar.inc(1);
            (b, keep.then_some(t.tables), fresh)
        })
        .collect();
    drop(bar);
    drop(_boards);
    let fresh = done.iter().filter(|d| d.2).count();
    // A copy of every board (for a later re-scoring to reuse) only when asked: it doubles the
    // memory of a scoring run.
    let mut boards = Vec::with_capacity(done.len());
    let mut kept = BTreeMap::new();
    for (task, (b, tables, _)) in tasks.into_iter().zip(done) {
        if let Some(tables) = tables {
            kept.insert(
                (task.session, task.section, task.board, task.part),
                (task.field, tables, b.clone()),
            );
        }
        boards.push(b);
    }
    let prepared = keep.then_some(BoardMemo { boards: kept });
    let mut boards = merge_fouled(boards);
    // Each kind's session finish (pairs: `mp_artificial: session_bounded`, C9).
    let kinds: Vec<&crate::kind::Plug> = state.sessions.iter().map(|s| s.kind).collect();
    let options: Vec<&crate::options::Options> =
        state.sessions.iter().map(|s| &s.def.options).collect();
    crate::kind::finish_boards(&kinds, &options, &mut boards);
    let (team_boards, matches, team_notices) = score_matches(state, TeamScope::All);
    let mut notices = state.notices.clone();
    notices.extend(team_notices);
    for b in &boards {
        let tables = b.tables();
        if (tables as u32) < b.field && state.sessions[b.session].def.form.factors_to_field() {
            let s = &state.sessions[b.session].def;
            notices.push(Notice {
                line: None,
                message: format!(
                    "session \"{}\"{} board {} was played at {tables} of {} tables: its lines are factored to the field (Neuberg, C7)",
                    s.id,
                    b.section.as_ref().map(|x| format!(" section {x}")).unwrap_or_default(),
                    b.board,
                    b.field
                ),
            });
        }
        notices.extend(b.notices.iter().cloned());
    }
    let sums =
        tracing::debug_span!("sums").in_scope(|| crate::standings::sums(state, &boards, &matches));
    let standings = tracing::debug_span!("standings")
        .in_scope(|| finish(state, sums.clone(), &fields, &mut notices));
    Ok((
        Scored {
            pair_boards: boards,
            team_boards,
            matches,
            standings,
            fields,
            notices,
            sums,
        },
        prepared,
        fresh,
    ))
}

/// One `BoardScore` per board of a comparison group: the groups of a fouled board merged (C34:
/// statistics averaged with the groups' results as weights, so `mean` is the pooled mean; no
/// single datum).
fn merge_fouled(boards: Vec<BoardScore>) -> Vec<BoardScore> {
    let mut out: Vec<BoardScore> = Vec::with_capacity(boards.len());
    let mut pending: Vec<BoardScore> = Vec::new();
    let flush = |pending: &mut Vec<BoardScore>, out: &mut Vec<BoardScore>| {
        if pending.len() <= 1 {
            out.append(pending);
            return;
        }
        let parts = std::mem::take(pending);
        let total: Q = parts.iter().map(|b| b.stats.results).sum();
        let avg = |get: &dyn Fn(&BoardScore) -> Option<Q>| -> Option<Q> {
            if total.is_zero() {
                return None;
            }
            let mut acc = Q::ZERO;
            for b in &parts {
                acc += b.stats.results * get(b)?;
            }
            Some(acc / total)
        };
        let stats = BoardStats {
            results: total,
            mean: avg(&|b| b.stats.mean),
            dispersion: avg(&|b| b.stats.dispersion),
            dispersion_imp: avg(&|b| b.stats.dispersion_imp),
            dispersion_mp: avg(&|b| b.stats.dispersion_mp),
        };
        let mut merged = parts[0].clone();
        merged.sides.clear();
        merged.freq.clear();
        merged.facts.clear();
        merged.text.clear();
        merged.notices.clear();
        merged.datum = None;
        for (i, p) in parts.into_iter().enumerate() {
            merged.sides.extend(p.sides);
            merged.freq.extend(p.freq);
            merged.notices.extend(p.notices);
            merged.text.push(format!(
                "fouled board, group {} (its own field, C32):",
                i + 1
            ));
            for (k, v) in p.facts {
                merged.text.push(format!("  {k}: {}", crate::num::show(v)));
            }
            merged
                .text
                .extend(p.text.into_iter().map(|t| format!("  {t}")));
        }
        merged.stats = std::sync::Arc::new(stats);
        out.push(merged);
    };
    for b in boards {
        if let Some(last) = pending.last() {
            if (last.session, &last.section, last.board) != (b.session, &b.section, b.board) {
                flush(&mut pending, &mut out);
            }
        }
        pending.push(b);
    }
    flush(&mut pending, &mut out);
    out
}
