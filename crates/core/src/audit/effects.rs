//! Every ruling's effect at once, for the publication's rulings pages: what `audit --ruling ID`
//! says each ruling in force changed (how many participants moved, and the first movers of each
//! standings group), without an audit per ruling. A pair board's rulings are taken one at a time
//! out of that board alone: the ruled table replayed from its own events without the ruling
//! (`table_without`), the board scored again with that table swapped in (the board's inputs
//! resolved once for all its rulings), its participants' sums patched as the audit's re-scoring
//! patches them (`patch`), and their places found among the ranked standings by binary search
//! (`places`) rather than by ranking every group again. What this cannot place (a team session,
//! a fouled board, `mp_artificial: session_bounded`, a ruling that made its table or whose
//! supersessions reach another table, sums whose patch does not give back the whole scoring's)
//! is answered by the audit itself, with the same answer.

use std::collections::BTreeSet;

use rayon::prelude::*;

use super::*;
use crate::hash::FxMap;
use crate::num::Total;
use crate::replay::{PId, Table};
use crate::score::{BoardIn, TableIn};

mod places;
use places::*;

/// What one ruling changed, as the rulings pages show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    /// Participants whose total or place changed, in every standings group.
    pub moved: usize,
    /// The first `per_group` movers of each of the audit's groups, in the audit's order
    /// (groups as `audit --ruling` lists them, the biggest move first, then by id).
    pub shown: Vec<StandingDelta>,
}

impl Effect {
    /// The effect an audit's answer gives (`audit --ruling ID`).
    pub fn of_audit(a: &Audit, per_group: usize) -> Effect {
        let moved: Vec<&StandingDelta> = a.standings.iter().filter(|d| is_mover(d)).collect();
        let mut shown: Vec<StandingDelta> = Vec::new();
        let mut last: Option<(&str, Option<&str>)> = None;
        let mut n = 0;
        for d in &moved {
            let key = audit_group(d);
            if last != Some(key) {
                last = Some(key);
                n = 0;
            }
            if n < per_group {
                shown.push((*d).clone());
                n += 1;
            }
        }
        Effect {
            moved: moved.len(),
            shown,
        }
    }
}

/// Whether a row of an audit's standings moved: another place or another total.
pub fn is_mover(d: &StandingDelta) -> bool {
    d.rank_before != d.rank_after || d.delta().is_none_or(|x| x != 0.0)
}

/// The audit's group of a row: its session and section (overall is one group).
fn audit_group(d: &StandingDelta) -> (&str, Option<&str>) {
    let overall = &*d.session == "overall";
    (&d.session, d.section.as_deref().filter(|_| !overall))
}

/// The effect of each ruling of `ids` (in force, of the log whose events, replay and scoring
/// these are), as [`Effect::of_audit`] of `audit --ruling ID` gives it; `None` for a ruling the
/// audit refuses. In parallel; each answer depends on its ruling alone.
pub fn ruling_effects(
    events: &[Envelope],
    state: &State,
    scored: &Scored,
    ids: &[String],
    per_group: usize,
) -> Vec<Option<Effect>> {
    let _span = tracing::info_span!("ruling_effects", rulings = ids.len()).entered();
    let prep = Prep::new(events, state, scored, ids);
    // Each board's rulings together: its inputs are resolved once for all of them.
    let mut by_board: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut slow: Vec<usize> = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        match prep.board_of(id) {
            Some(task) => by_board.entry(task).or_default().push(i),
            None => slow.push(i),
        }
    }
    let fast: Vec<(usize, Vec<usize>)> = by_board.into_iter().collect();
    let mut out: Vec<Option<Effect>> = vec![None; ids.len()];
    let answers: Vec<Vec<(usize, Option<Option<Effect>>)>> = fast
        .par_iter()
        .map(|(task, which)| {
            let mut input = prep.tasks[*task].input(state);
            // (the whole scoring's rows of the board's sides, found once for its rulings)
            let sides = prep.sides(*task);
            which
                .iter()
                .map(|&i| {
                    let e = sides.as_ref().and_then(|sides| {
                        prep.effect(&mut input, sides, *task, &ids[i], per_group)
                    });
                    (i, e)
                })
                .collect()
        })
        .collect();
    for (i, a) in answers.into_iter().flatten() {
        match a {
            Some(e) => out[i] = e,
            None => slow.push(i),
        }
    }
    tracing::info!(
        rulings = ids.len(),
        by_audit = slow.len(),
        "ruling effects: rulings answered by a whole audit"
    );
    let audited: Vec<(usize, Option<Effect>)> = slow
        .par_iter()
        .map(|&i| {
            let q = Question::Ruling(ids[i].clone());
            let source = Source::Replayed {
                events,
                full: state,
                scored: Some(scored),
                incremental: true,
            };
            let a = answer(Ask::Question(&q), source)
                .ok()
                .and_then(Outcome::answered);
            (i, a.map(|a| Effect::of_audit(&a.audit, per_group)))
        })
        .collect();
    for (i, e) in audited {
        out[i] = e;
    }
    out
}

/// A table's key with ids: (session id, board, NS id).
type TableIds<'e> = (&'e str, u32, &'e str);

/// What every ruling's answer is made from, found once.
struct Prep<'s> {
    events: &'s [Envelope],
    state: &'s State,
    scored: &'s Scored,
    tasks: Vec<crate::pipeline::BoardTask<'s>>,
    /// (session, group, board) → index of the task and of its board in `scored.pair_boards`.
    task_of: BTreeMap<(usize, Option<String>, u32), usize>,
    board_of_task: Vec<Option<usize>>,
    /// Per task, how many boards of its comparison group have its N tables.
    full_boards: Vec<usize>,
    /// Events every table's replay needs (the championship, sessions, deals), by index.
    common: Vec<usize>,
    /// Each ruled table's events, by index, in log order.
    table_events: FxMap<TableIds<'s>, Vec<usize>>,
    /// Ruling id → its table, its seq; supersession (parent → children); withdrawals' seqs.
    rulings: FxMap<&'s str, (TableIds<'s>, usize)>,
    children: FxMap<&'s str, Vec<&'s str>>,
    withdrawals: FxMap<&'s str, Vec<usize>>,
    ranked: Ranked<'s>,
    penalties: Penalties,
}

/// Each (session, participant)'s penalties, as indexes of `State::penalties` in log order.
type Penalties = FxMap<(usize, PId), Vec<usize>>;

impl<'s> Prep<'s> {
    fn new(events: &'s [Envelope], state: &'s State, scored: &'s Scored, ids: &[String]) -> Self {
        let tasks = crate::pipeline::board_tasks(state)
            .map(|t| t.0)
            .unwrap_or_default();
        let mut task_of = BTreeMap::new();
        let mut board_of_task = Vec::with_capacity(tasks.len());
        let mut boards: BTreeMap<(usize, Option<&str>, u32), usize> = BTreeMap::new();
        for (i, b) in scored.pair_boards.iter().enumerate() {
            boards.insert((b.session, b.section.as_deref(), b.board), i);
        }
        for (i, t) in tasks.iter().enumerate() {
            task_of.insert((t.session, t.section.clone(), t.board), i);
            board_of_task.push(
                boards
                    .get(&(t.session, t.section.as_deref(), t.board))
                    .copied()
                    .filter(|&b| scored.pair_boards[b].tables() == t.tables.len()),
            );
        }
        let mut full: BTreeMap<(usize, Option<&str>), usize> = BTreeMap::new();
        for t in &tasks {
            if t.tables.len() as u32 == t.field {
                *full.entry((t.session, t.section.as_deref())).or_default() += 1;
            }
        }
        let full_boards = tasks
            .iter()
            .map(|t| {
                full.get(&(t.session, t.section.as_deref()))
                    .copied()
                    .unwrap_or(0)
            })
            .collect();
        let wanted: FxSet<&str> = ids.iter().map(String::as_str).collect();
        let mut rulings = FxMap::default();
        let mut children: FxMap<&str, Vec<&str>> = FxMap::default();
        let mut withdrawals: FxMap<&str, Vec<usize>> = FxMap::default();
        let mut common = Vec::new();
        for (i, e) in events.iter().enumerate() {
            match &e.event {
                Event::Championship(_) | Event::Session(_) | Event::Deal(_) => common.push(i),
                Event::Ruling(r) => {
                    rulings.insert(
                        r.id.as_str(),
                        ((r.session.as_str(), r.board, r.ns.as_str()), e.seq),
                    );
                    if let Some(p) = &r.supersedes {
                        children.entry(p.as_str()).or_default().push(r.id.as_str());
                    }
                }
                Event::RulingWithdrawn { ruling } => {
                    withdrawals.entry(ruling.as_str()).or_default().push(e.seq)
                }
                _ => {}
            }
        }
        // The ruled tables' events: results, their corrections, rulings, their withdrawals.
        let ruled: FxSet<TableIds> = wanted
            .iter()
            .filter_map(|id| rulings.get(id).map(|r| r.0))
            .collect();
        let mut table_events: FxMap<TableIds, Vec<usize>> = FxMap::default();
        let mut result_table: FxMap<usize, TableIds> = FxMap::default();
        for (i, e) in events.iter().enumerate() {
            let key = match &e.event {
                Event::Result(r) => {
                    let k = (r.session.as_str(), r.board, r.ns.as_str());
                    if ruled.contains(&k) {
                        result_table.insert(e.seq, k);
                    }
                    Some(k)
                }
                Event::Ruling(r) => Some((r.session.as_str(), r.board, r.ns.as_str())),
                Event::Correction(c) => result_table.get(&c.result).copied(),
                Event::RulingWithdrawn { ruling } => rulings.get(ruling.as_str()).map(|r| r.0),
                _ => None,
            };
            if let Some(k) = key.filter(|k| ruled.contains(k)) {
                table_events.entry(k).or_default().push(i);
            }
        }
        Prep {
            events,
            state,
            scored,
            tasks,
            task_of,
            board_of_task,
            full_boards,
            common,
            table_events,
            rulings,
            children,
            withdrawals,
            ranked: Ranked::new(state, scored),
            penalties: {
                let mut m: Penalties = FxMap::default();
                for (i, p) in state.penalties.iter().enumerate() {
                    m.entry((p.session, p.participant)).or_default().push(i);
                }
                m
            },
        }
    }

    /// The task of the board of ruling `id` when this way can answer it.
    fn board_of(&self, id: &str) -> Option<usize> {
        let st = self.state;
        let r = st.ruling_by_id(id)?;
        let (s, board, ns) = r.key;
        let session = &st.sessions[s];
        if session.kind.in_matches
            || session.def.options.mp_artificial == crate::options::MpArtificial::SessionBounded
            || st.fouled.contains_key(&(s, board))
        {
            return None;
        }
        let t = st.tables.get(&(s, board, ns))?;
        let task = *self
            .task_of
            .get(&(s, crate::pipeline::group_of(st, t), board))?;
        self.board_of_task[task].map(|_| task)
    }

    /// The seqs `audit --ruling id` leaves out (as `scope::ruling_scope`), when they are all
    /// events of the ruling's own table.
    fn skip(&self, id: &'s str) -> Option<BTreeSet<usize>> {
        let (table, _) = *self.rulings.get(id)?;
        let mut seqs = BTreeSet::new();
        let mut todo = vec![id];
        let mut seen: FxSet<&str> = FxSet::default();
        while let Some(x) = todo.pop() {
            if !seen.insert(x) {
                continue;
            }
            let (t, seq) = *self.rulings.get(x)?;
            if t != table {
                return None;
            }
            seqs.insert(seq);
            todo.extend(self.children.get(x).into_iter().flatten().copied());
        }
        for x in &seen {
            seqs.extend(self.withdrawals.get(x).into_iter().flatten().copied());
        }
        Some(seqs)
    }

    /// The table of ruling `id` replayed from its own events, without `skip` (or whole);
    /// `Some(None)` when there is no such table then (a ruling on a board not played made it).
    fn table_in(&self, table: TableIds<'s>, skip: BTreeSet<usize>) -> Option<Option<TableIn>> {
        let own = self.table_events.get(&table)?;
        let mut idx: Vec<usize> = self.common.iter().chain(own).copied().collect();
        idx.sort_unstable();
        let sub: Vec<Envelope> = idx.iter().map(|&i| self.events[i].clone()).collect();
        let scope = ReplayScope {
            skip,
            boards: Some([(table.0.to_string(), table.1)].into_iter().collect()),
            ..Default::default()
        };
        let (st, errors) = crate::replay::replay_seeded(&sub, &scope, self.state);
        if !errors.is_empty() {
            return None;
        }
        let s = st.session_index(table.0)?;
        let t = st.tables.get(&(s, table.1, st.pid(table.2)?));
        Some(t.map(|t| crate::pipeline::table_in(&st, t)))
    }

    /// The effect of ruling `id` on the board of task `task` (`input`: its inputs, given back as
    /// they were); `None` when this way cannot answer it.
    fn effect(
        &self,
        input: &mut BoardIn<'s>,
        sides: &Sides<'s>,
        task: usize,
        id: &'s str,
        per_group: usize,
    ) -> Option<Option<Effect>> {
        let skip = self.skip(id)?;
        let (table, _) = *self.rulings.get(id)?;
        let st = self.state;
        let r = st.ruling_by_id(id)?;
        let full: &Table = st.tables.get(&r.key)?;
        let pos = self.tasks[task]
            .tables
            .iter()
            .position(|t| std::ptr::eq(*t, full))?;
        // (the table's own replay must give the whole replay's table back)
        if self.table_in(table, BTreeSet::new())?.as_ref() != Some(&input.tables[pos]) {
            return None;
        }
        let (before, dropped) = match self.table_in(table, skip)? {
            Some(without) => {
                let with = std::mem::replace(&mut input.tables[pos], without);
                let before = crate::pipeline::score_board(input);
                input.tables[pos] = with;
                (before, None)
            }
            None => {
                // (the board one table short: its group's N must stay, as the audit's must)
                if input.tables.len() as u32 == input.field && self.full_boards[task] < 2 {
                    return None;
                }
                let with = input.tables.remove(pos);
                let before = crate::pipeline::score_board(input);
                input.tables.insert(pos, with);
                (before, Some(pos))
            }
        };
        let after = &self.scored.pair_boards[self.board_of_task[task]?];
        let changed = patch(
            (st, self.scored, &self.ranked),
            &self.penalties,
            sides,
            (after, &before),
            dropped,
        )?;
        self.ranked.effect(&changed, per_group).map(Some)
    }

    /// The whole scoring's rows of the sides of task `task`'s board ([`Sides`]); `None` when
    /// some side's sums, finished as `standings::finish` finishes them, do not give its
    /// standings back (then the audit answers each ruling of the board).
    fn sides(&self, task: usize) -> Option<Sides<'s>> {
        let (st, scored, ranked) = (self.state, self.scored, &self.ranked);
        let after = &scored.pair_boards[self.board_of_task[task]?];
        let s = after.session;
        let group = (s, after.section.clone());
        let field = scored.fields.get(&group).copied().unwrap_or(1);
        let carry = st.sessions[s].def.carry;
        let mut rows = Vec::with_capacity(after.sides.len());
        for a in &after.sides {
            let p = a.participant;
            let sums = scored.sums.member(&group, p)?;
            let (at, row) = ranked.row_of(scored, Some(s), p)?;
            let most = ranked.most(at);
            let (t0, m0) = finish_one(
                st,
                &self.penalties,
                s,
                p,
                sums.total,
                sums.max,
                sums.boards,
                most,
                field,
            );
            if t0 != row.total || m0 != row.max {
                return None;
            }
            let overall = if carry {
                let (o_at, o_row) = ranked.row_of(scored, None, p)?;
                let (ot0, om0) = ranked.overall_of(scored, p, None)?;
                if ot0 != o_row.total || om0 != o_row.max {
                    return None;
                }
                Some(o_at)
            } else {
                None
            };
            rows.push(SideRow {
                sums,
                at,
                row,
                most,
                most_stays: ranked.most_stays(at),
                overall,
            });
        }
        Some(Sides { field, rows })
    }
}

/// The whole scoring's rows of a board's sides, in the order of its `sides`: what every ruling
/// of the board patches ([`patch`]), found and checked once for all of them.
struct Sides<'s> {
    field: u32,
    rows: Vec<SideRow<'s>>,
}

/// One side's sums in its comparison group, its standing (`at`: its row in
/// `scored.standings`), the most boards of its group and whether that stays when a table's
/// pairs play one fewer, and its overall row when its session is carried.
struct SideRow<'s> {
    sums: &'s crate::standings::Standing,
    at: usize,
    row: &'s crate::standings::Standing,
    most: u32,
    most_stays: bool,
    overall: Option<usize>,
}

type FxSet<T> = crate::hash::FxSet<T>;

/// A participant's standings without the ruling where they differ from the whole scoring's:
/// (index in `scored.standings`, total, max) of its session's group and of overall.
pub(super) type Changed = Vec<(usize, Total, Option<Total>)>;

/// The standings the audit's re-scoring gives without the ruling (`rescore`: the board's sums
/// taken out and its new scores put in, then `standings::finish`), for each participant of the
/// board: its session standing and its overall one, the rows that differ from the whole
/// scoring's. A side whose sums come back the same is passed over (its standing, checked once
/// in [`Sides`], stays). `None` where the audit must answer.
fn patch(
    (st, scored, ranked): (&State, &Scored, &Ranked),
    penalties: &Penalties,
    sides: &Sides,
    (after, before): (&crate::score::BoardScore, &crate::score::BoardScore),
    dropped: Option<usize>,
) -> Option<Changed> {
    let short = usize::from(dropped.is_some());
    if after.tables() != before.tables() + short || sides.rows.len() != after.sides.len() {
        return None;
    }
    let s = after.session;
    let is_mp = st.sessions[s].def.form.has_top();
    let mut out = Changed::new();
    // (the rows of one table: its sides' participants)
    let rows = 2 * after.per_side as usize;
    for ((k, a), side) in after.sides.iter().enumerate().zip(&sides.rows) {
        // (the side's score without the ruling; none at a table it made)
        let b = match dropped {
            Some(pos) if k / rows == pos => None,
            Some(pos) if k / rows > pos => Some(&before.sides[k - rows]),
            _ => Some(&before.sides[k]),
        };
        if b.is_some_and(|b| a.participant != b.participant) {
            return None;
        }
        let p = a.participant;
        let sums = side.sums;
        let (mut total, mut max, mut boards) = (sums.total, sums.max, sums.boards);
        if b.is_none() && (boards == 1 || (boards == side.most && !side.most_stays)) {
            return None;
        }
        if boards == 1 {
            // (the board taken out leaves no sums: they start again from its new score)
            total = Total::default();
            max = is_mp.then(Total::default);
        } else {
            total.add(-a.score);
            if let (Some(m), Some(top)) = (max.as_mut(), a.top) {
                m.add(-top);
            }
        }
        match b {
            Some(b) => {
                total.add(b.score);
                if let (Some(m), Some(top)) = (max.as_mut(), b.top) {
                    m.add(top);
                }
            }
            None => boards -= 1,
        }
        if boards == sums.boards && total == sums.total && max == sums.max {
            continue;
        }
        let (t1, m1) = finish_one(
            st,
            penalties,
            s,
            p,
            total,
            max,
            boards,
            side.most,
            sides.field,
        );
        if t1 == side.row.total && m1 == side.row.max {
            continue;
        }
        out.push((side.at, t1, m1));
        if let Some(o_at) = side.overall {
            let (ot, om) = ranked.overall_of(scored, p, Some((side.at, t1, m1)))?;
            out.push((o_at, ot, om));
        }
    }
    Some(out)
}

/// A participant's sums in session `s` finished as `standings::finish` finishes them: an IMP
/// pair form's total factored to the most boards of its group (C36), its penalties taken off.
#[allow(clippy::too_many_arguments)]
fn finish_one(
    st: &State,
    penalties: &Penalties,
    s: usize,
    p: PId,
    mut total: Total,
    max: Option<Total>,
    boards: u32,
    most: u32,
    field: u32,
) -> (Total, Option<Total>) {
    let session = &st.sessions[s];
    (session.kind.finish.member)(session.def.form, boards, most, &mut total);
    let none = Vec::new();
    let pens = penalties.get(&(s, p)).unwrap_or(&none);
    for pen in pens.iter().map(|&i| &st.penalties[i]) {
        let amount = match pen.ev.unit {
            crate::event::PenaltyUnit::PctOfTop => {
                pen.ev.amount / Q::int(100) * crate::score::mp::field_top(field)
            }
            _ => pen.ev.amount,
        };
        total.add(-amount);
    }
    (total, max)
}
