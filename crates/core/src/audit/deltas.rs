//! What moved between two scored replays: each board's changed rows and each standing's change of total and place.

use super::*;

/// Each participant's score on every board whose scores differ between two replays (a board of
/// one replay only, or one where any side's score differs), in (session, section, board,
/// participant) order. Boards are matched by (session id, section, board, match), participants
/// by id: the two replays may number them apart. A board's rows are those of scores.parquet
/// (`export::rows::score_view`: the section is the participant's own in a field comparison).
pub(super) fn board_deltas(
    before_state: &State,
    before: &Boards,
    after_state: &State,
    after: &Boards,
) -> Vec<BoardDelta> {
    use rayon::prelude::*;
    let _span = tracing::debug_span!("board_deltas").entered();
    let (before, after) = (before.each(), after.each());
    let (bi, ai) = (index(before_state, &before), index(after_state, &after));
    // Each replay's rows of the changed boards: ((session, section, board), participant) →
    // (side, score), the later row winning for a participant listed twice.
    let (mut rb, mut ra): (Vec<Row>, Vec<Row>) = (Vec::new(), Vec::new());
    let keys: BTreeSet<&BoardOf> = bi.keys().chain(ai.keys()).collect();
    let _r = tracing::debug_span!("rows").entered();
    for k in keys {
        let (b, a) = (bi.get(k), ai.get(k));
        if let (Some(b), Some(a)) = (b, a) {
            if board_sides(before_state, &before, b) == board_sides(after_state, &after, a) {
                continue;
            }
        }
        for (st, boards, ix, out) in [
            (before_state, &before, b, &mut rb),
            (after_state, &after, a, &mut ra),
        ] {
            for &i in ix.into_iter().flatten() {
                crate::export::rows::each_score(st, boards[i].0, |v| {
                    let (n, v) = (v.names, v.values);
                    out.push((
                        ((n.session, n.section, n.board), n.participant),
                        (n.side, v.score),
                    ));
                });
            }
        }
    }
    drop(_r);
    let _s = tracing::debug_span!("sort").entered();
    let (rb, ra) = rayon::join(|| sorted(rb), || sorted(ra));
    drop(_s);
    let _m = tracing::debug_span!("merge").entered();
    let merged = merge(&rb, &ra);
    let listed = listed(&merged);
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

/// A board of a replay as the deltas match it: (session id, section, board, match).
type BoardOf<'a> = (&'a str, Option<&'a str>, u32, Option<&'a str>);

/// A row of a board: ((session, section, board), participant) → (side, score).
type Row<'a> = (
    ((&'a str, Option<&'a str>, i32), &'a str),
    (&'static str, f64),
);

/// A row's key with its value on either side.
type Pair<'a> = (
    &'a ((&'a str, Option<&'a str>, i32), &'a str),
    Option<(&'static str, f64)>,
    Option<(&'static str, f64)>,
);

/// The boards of a replay by [`BoardOf`]: their indexes in `boards`.
fn index<'a>(
    st: &'a State,
    boards: &[(&'a BoardScore, Option<&'a str>)],
) -> BTreeMap<BoardOf<'a>, Vec<usize>> {
    let mut m: BTreeMap<BoardOf<'a>, Vec<usize>> = BTreeMap::new();
    for (i, (b, match_id)) in boards.iter().enumerate() {
        let key = (
            st.sessions[b.session].def.id.as_str(),
            b.section.as_deref(),
            b.board,
            *match_id,
        );
        m.entry(key).or_default().push(i);
    }
    m
}

/// The sides (participant id, score) of the boards `ix`, sorted.
fn board_sides<'a>(
    st: &'a State,
    boards: &[(&'a BoardScore, Option<&'a str>)],
    ix: &[usize],
) -> Vec<(&'a str, Q)> {
    use rayon::prelude::*;
    let mut v: Vec<(&str, Q)> = ix
        .iter()
        .flat_map(|&i| boards[i].0.sides.iter())
        .map(|s| (st.participant(s.participant).id.as_str(), s.score))
        .collect();
    v.par_sort_unstable();
    v
}

/// Sorted by key, the last row of a key kept (a stable sort keeps the rows' order).
fn sorted(mut rows: Vec<Row<'_>>) -> Vec<Row<'_>> {
    use rayon::prelude::*;
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

/// The union of the keys of `rb` and `ra` (each sorted) in order, each with its row of either
/// side.
fn merge<'a>(rb: &'a [Row<'a>], ra: &'a [Row<'a>]) -> Vec<Pair<'a>> {
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
    merged
}

/// Whether each row of `merged` is listed: a (session, section, board) is listed whole when
/// any of its scores changed (each one's rows are a run of `merged`, sorted by it first).
fn listed(merged: &[Pair]) -> Vec<bool> {
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
    listed
}

pub(super) fn standing_deltas(
    before_state: &State,
    before: &[Standing],
    after_state: &State,
    after: &[Standing],
) -> Vec<StandingDelta> {
    use rayon::prelude::*;
    let _span = tracing::debug_span!("standing_deltas").entered();
    let (ai, bi, bi_keys) = indexes(before_state, before, after_state, after);
    // The standings of the earlier replay only (their keys not in the later one's).
    let before_only: Vec<usize> = (0..before.len())
        .into_par_iter()
        .filter(|&i| bi.get(&bi_keys[i]) == Some(i) && ai.get(&bi_keys[i]).is_none())
        .collect();
    let _g = tracing::debug_span!("groups").entered();
    let sides = (before_state, before, after_state, after);
    let groups = Groups::of(sides, &before_only);
    let changed = groups.changed(sides, (&ai, &bi));
    if !changed.contains(&true) {
        return Vec::new();
    }
    drop(_g);
    let names = Names::of(before_state, after_state, &groups.groups);
    // Each standing of a changed group, before and after: (group, (after, before)).
    let _d = tracing::debug_span!("deltas").entered();
    let (group_after, group_before_only) = (&groups.after, &groups.before_only);
    let pairs: Vec<(u32, StandingPair)> = after
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
    keyed.par_sort_unstable_by(|x, y| by_move(x, y, exact));
    drop(_s);
    let _b = tracing::debug_span!("build").entered();
    keyed
        .par_iter()
        .map(|&(g, _, _, _, (a, b), d)| names.delta(g, b, a, d))
        .collect()
}

/// A standing's key: participants and sessions are matched by id (the two replays may number
/// them apart): each standing is keyed by the later replay's numbers, or, for one the later
/// replay does not have, by a number past them.
type SKey = (Option<usize>, u32);

/// A standings group: a session's section (`compare: section`) or the session, or overall; in
/// order: sessions by id, then section, overall last.
type Group<'s> = (bool, &'s str, Option<&'s str>);

fn group_of<'s>(st: &'s State, s: &'s Standing) -> Group<'s> {
    match s.session {
        Some(i) => (false, st.sessions[i].def.id.as_str(), s.section.as_deref()),
        None => (true, "overall", None),
    }
}

/// A standing before and after (either may be missing).
type StandingPair<'s> = (Option<&'s Standing>, Option<&'s Standing>);

/// (group, how far it moved: exactly and as a float, the exact move as a float, participant,
/// the pair, the exact signed move)
type Keyed<'s> = (
    u32,
    (Option<Q>, f64),
    f64,
    &'s str,
    StandingPair<'s>,
    Option<Q>,
);

/// Whether two replays number participants and sessions alike (an audit's replay of a few
/// boards is seeded with the other's participants): no look-up by id is needed.
fn same_numbers(before_state: &State, after_state: &State) -> bool {
    use rayon::prelude::*;
    before_state.participants.len() == after_state.participants.len()
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
                .all(|(b, a)| b.id == a.id))
}

/// A replay's standings by key (the last one of a key); a table indexed by session and
/// participant when the replays number alike (an audit from the cache: 200,000 standings).
enum Index {
    Dense { table: Vec<u32>, width: usize },
    Map(crate::hash::FxMap<SKey, usize>),
}

impl Index {
    fn slot(table: &[u32], width: usize, k: &SKey) -> Option<usize> {
        let p = k.1 as usize;
        let at = (k.0.map_or(0, |s| s + 1))
            .checked_mul(width)?
            .checked_add(p)?;
        (p < width && at < table.len()).then_some(at)
    }
    fn dense(width: usize, sessions: usize, keys: impl Iterator<Item = SKey>) -> Index {
        let mut table = vec![u32::MAX; (sessions + 1) * width];
        for (i, k) in keys.enumerate() {
            if let Some(at) = Index::slot(&table, width, &k) {
                table[at] = i as u32;
            }
        }
        Index::Dense { table, width }
    }
    fn get(&self, k: &SKey) -> Option<usize> {
        match self {
            Index::Dense { table, width } => {
                let v = table[Index::slot(table, *width, k)?];
                (v != u32::MAX).then_some(v as usize)
            }
            Index::Map(m) => m.get(k).copied(),
        }
    }
}

/// The later standings' index, the earlier's, and each earlier standing's key.
fn indexes(
    before_state: &State,
    before: &[Standing],
    after_state: &State,
    after: &[Standing],
) -> (Index, Index, Vec<SKey>) {
    let same_numbers = same_numbers(before_state, after_state);
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
    let bi_keys: Vec<SKey> = before
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
    (ai, bi, bi_keys)
}

/// Both sides of a comparison of standings: (earlier replay, its standings, later, its).
type StandingSides<'s> = (&'s State, &'s [Standing], &'s State, &'s [Standing]);

/// The standings groups, numbered in their order (sessions by id, then section; overall
/// last), and each standing's group number: of the later standings, and of the earlier ones
/// only (`before_only`).
struct Groups<'s> {
    groups: Vec<Group<'s>>,
    after: Vec<u32>,
    before_only: Vec<u32>,
}

impl<'s> Groups<'s> {
    fn of(
        (before_state, before, after_state, after): StandingSides<'s>,
        before_only: &[usize],
    ) -> Groups<'s> {
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
        let mut groups: Vec<Group> = runs
            .iter()
            .map(|r| r.0)
            .chain(before_groups.iter().copied())
            .collect();
        groups.sort_unstable();
        groups.dedup();
        let number = |g: &Group| groups.binary_search(g).expect("a group of the standings") as u32;
        let after: Vec<u32> = runs
            .iter()
            .flat_map(|(g, n)| std::iter::repeat_n(number(g), *n))
            .collect();
        let before_only: Vec<u32> = before_groups.iter().map(number).collect();
        Groups {
            groups,
            after,
            before_only,
        }
    }

    /// Whether anything changed in each group (total, percentage or place).
    fn changed(
        &self,
        (_, before, _, after): StandingSides,
        (ai, bi): (&Index, &Index),
    ) -> Vec<bool> {
        use rayon::prelude::*;
        let same = |b: &Standing, a: &Standing| {
            b.total == a.total && b.max == a.max && b.rank == a.rank && b.rank_to == a.rank_to
        };
        let changed: Vec<std::sync::atomic::AtomicBool> =
            self.groups.iter().map(|_| Default::default()).collect();
        let mark = |g: u32| changed[g as usize].store(true, std::sync::atomic::Ordering::Relaxed);
        after.par_iter().enumerate().for_each(|(j, a)| {
            let k = (a.session, a.participant);
            if ai.get(&k) != Some(j) {
                return;
            }
            match bi.get(&k) {
                Some(i) if same(&before[i], a) => {}
                _ => mark(self.after[j]),
            }
        });
        self.before_only.iter().for_each(|&g| mark(g));
        changed.into_iter().map(|c| c.into_inner()).collect()
    }
}

/// A participant's names: id, players, own section.
type PNames = (Arc<str>, Arc<str>, Option<Arc<str>>);

fn names_of(p: &crate::replay::Participant) -> PNames {
    (
        Arc::from(p.id.as_str()),
        Arc::from(p.players.join(" – ")),
        p.section.as_deref().map(Arc::from),
    )
}

/// The names, each made once: the sessions' and the groups' sections, and the later replay's
/// participants' (those of the earlier replay only are named row by row).
struct Names<'s> {
    before_state: &'s State,
    after_state: &'s State,
    overall: Arc<str>,
    after_sessions: Vec<Arc<str>>,
    before_sessions: Vec<Arc<str>>,
    group_sections: Vec<Option<Arc<str>>>,
    after_names: Vec<PNames>,
}

impl<'s> Names<'s> {
    fn of(before_state: &'s State, after_state: &'s State, groups: &[Group]) -> Names<'s> {
        use rayon::prelude::*;
        let session_names = |st: &State| -> Vec<Arc<str>> {
            st.sessions
                .iter()
                .map(|s| Arc::from(s.def.id.as_str()))
                .collect()
        };
        Names {
            before_state,
            after_state,
            overall: Arc::from("overall"),
            after_sessions: session_names(after_state),
            before_sessions: session_names(before_state),
            group_sections: groups.iter().map(|g| g.2.map(Arc::from)).collect(),
            after_names: after_state.participants.par_iter().map(names_of).collect(),
        }
    }

    /// The delta of a standing of group `g`, before and after, moved by `d` (exactly).
    fn delta(
        &self,
        g: u32,
        b: Option<&Standing>,
        a: Option<&Standing>,
        d: Option<Q>,
    ) -> StandingDelta {
        let (st, r, sessions) = match a {
            Some(a) => (self.after_state, a, &self.after_sessions),
            None => (self.before_state, b.unwrap(), &self.before_sessions),
        };
        let owned;
        let (id, players, own_section) = match a {
            Some(_) => &self.after_names[r.participant as usize],
            None => {
                owned = names_of(st.participant(r.participant));
                &owned
            }
        };
        let group_section = &self.group_sections[g as usize];
        // (a session's standing names its group's section; overall, the participant's own)
        let section = match (r.session, r.section.as_deref()) {
            (_, None) => None,
            (Some(_), Some(_)) if group_section.as_deref() == r.section.as_deref() => {
                group_section.clone()
            }
            (_, Some(x)) if own_section.as_deref() == Some(x) => own_section.clone(),
            (_, Some(x)) => Some(Arc::from(x)),
        };
        StandingDelta {
            session: r
                .session
                .map_or_else(|| self.overall.clone(), |i| sessions[i].clone()),
            section,
            participant: id.clone(),
            players: players.clone(),
            total_before: b.map(|x| x.total.to_f64()),
            total_after: a.map(|x| x.total.to_f64()),
            pct_before: b.and_then(Standing::pct),
            pct_after: a.and_then(Standing::pct),
            rank_before: b.map(|x| x.rank as i32),
            rank_after: a.map(|x| x.rank as i32),
            noun: crate::kind::noun(
                st.participant(r.participant).team,
                r.session.map(|i| st.sessions[i].kind),
                st.sessions.iter().map(|s| s.kind),
            ),
            moved: match (b, a) {
                (Some(b), Some(a)) => {
                    Some(d.map_or_else(|| a.total.to_f64() - b.total.to_f64(), Q::to_f64))
                }
                _ => None,
            },
        }
    }
}

/// How far a standing moved: exactly (the totals are exact rationals, so equal moves tie
/// whatever their floats say), `None` for a participant in one replay only; and the exact
/// signed move.
fn moved(b: Option<&Standing>, a: Option<&Standing>) -> ((Option<Q>, f64), Option<Q>) {
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
}

/// The deltas' order: each group together, who moved most first (`exact`: by the exact moves).
fn by_move(x: &Keyed, y: &Keyed, exact: bool) -> std::cmp::Ordering {
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
}

/// The scored boards of one replay an audit compares, each kind in its own type.
#[derive(Default)]
pub(super) struct Boards<'b> {
    pub pairs: Vec<&'b BoardScore>,
    pub teams: Vec<&'b TeamBoardScore>,
}

impl<'b> Boards<'b> {
    /// Every board of a scoring.
    pub fn all(s: &'b Scored) -> Boards<'b> {
        Boards {
            pairs: s.pair_boards.iter().collect(),
            teams: s.team_boards.iter().collect(),
        }
    }

    /// Each board with its match (a pair board has none), the pair boards first: a board of
    /// one replay is the same board of the other when its session id, section, number and
    /// match are.
    fn each(&self) -> Vec<(&'b BoardScore, Option<&'b str>)> {
        let teams = self
            .teams
            .iter()
            .map(|t| (&t.score, Some(t.match_id.as_str())));
        self.pairs.iter().map(|&b| (b, None)).chain(teams).collect()
    }
}

/// The boards of one replay (`st`) that re-scoring the boards `keys` (session id, board) may
/// have changed: the pair boards of `keys`, and the team boards `team_boards` (a team board's
/// scores depend on its own tables alone).
pub(super) fn rescoped<'b>(
    st: &State,
    pairs: impl IntoIterator<Item = &'b BoardScore>,
    teams: impl IntoIterator<Item = &'b TeamBoardScore>,
    team_boards: &BTreeSet<(usize, u32)>,
    keys: &BTreeSet<(String, u32)>,
) -> Boards<'b> {
    Boards {
        pairs: pairs
            .into_iter()
            .filter(|b| keys.contains(&(st.sessions[b.session].def.id.clone(), b.board)))
            .collect(),
        teams: teams
            .into_iter()
            .filter(|t| team_boards.contains(&(t.score.session, t.score.board)))
            .collect(),
    }
}
