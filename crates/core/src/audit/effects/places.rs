//! Places without re-ranking: the whole scoring's standings groups, ranked once, and a ruling's
//! changed standings placed among them by binary search (a participant's place is one more than
//! the number ranked strictly above it, C22), and the unchanged participants whose place moved
//! counted by the ranges of ranking values that the changed ones crossed.

use std::cmp::Ordering;

use super::*;
use crate::standings::{cmp_rank_keys, rank_key, Standing};

type Key = (Option<Q>, f64);

/// One standings group of the whole scoring (a session's comparison group, or overall): its
/// rows of `scored.standings`, their ranking values in ranked order, and whether they are
/// ranked by floats (a value beyond exact arithmetic in the group).
struct Group {
    start: usize,
    keys: Vec<Key>,
    inexact_keys: usize,
    exact_totals: bool,
    most: u32,
    /// How many played `most` boards.
    most_count: usize,
}

/// The whole scoring's standings, ranked, indexed for placing changed ones.
pub(super) struct Ranked<'s> {
    st: &'s State,
    scored: &'s Scored,
    rows: FxMap<(Option<usize>, PId), usize>,
    /// Each row's group.
    group: Vec<u32>,
    groups: Vec<Group>,
    /// Each participant's rows in the carried sessions, in the standings' order.
    carried: FxMap<PId, Vec<usize>>,
    all_mp: bool,
    sessions: Vec<Arc<str>>,
    /// Each row's audit group, numbered in the audit's order (sessions by id and section,
    /// overall last).
    audit_group: Vec<u32>,
}

impl<'s> Ranked<'s> {
    pub(super) fn new(st: &'s State, scored: &'s Scored) -> Ranked<'s> {
        let rows_all = &scored.standings;
        fn gkey<'a>(st: &State, s: &'a Standing) -> Option<(usize, Option<&'a str>)> {
            s.session.map(|i| {
                let section = match st.sessions[i].def.compare {
                    crate::options::Compare::Section => s.section.as_deref(),
                    crate::options::Compare::Field => None,
                };
                (i, section)
            })
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut group = Vec::with_capacity(rows_all.len());
        let mut start = 0;
        while start < rows_all.len() {
            let k = gkey(st, &rows_all[start]);
            let mut end = start + 1;
            while end < rows_all.len() && gkey(st, &rows_all[end]) == k {
                end += 1;
            }
            let members = &rows_all[start..end];
            let keys: Vec<Key> = members.par_iter().map(rank_key).collect();
            let most = members.iter().map(|m| m.boards).max().unwrap_or(0);
            groups.push(Group {
                most_count: members.iter().filter(|m| m.boards == most).count(),
                start,
                inexact_keys: keys.iter().filter(|k| k.0.is_none()).count(),
                keys,
                exact_totals: members.iter().all(|m| m.total.exact().is_some()),
                most,
            });
            group.extend(std::iter::repeat_n(groups.len() as u32 - 1, end - start));
            start = end;
        }
        let mut rows = FxMap::default();
        let mut carried: FxMap<PId, Vec<usize>> = FxMap::default();
        for (i, r) in rows_all.iter().enumerate() {
            rows.insert((r.session, r.participant), i);
            if r.session.is_some_and(|s| st.sessions[s].def.carry) {
                carried.entry(r.participant).or_default().push(i);
            }
        }
        let name = |r: &'s Standing| match r.session {
            Some(s) => (false, st.sessions[s].def.id.as_str(), r.section.as_deref()),
            None => (true, "overall", None),
        };
        let mut names: Vec<(bool, &str, Option<&str>)> = rows_all.iter().map(name).collect();
        names.sort_unstable();
        names.dedup();
        let audit_group = rows_all
            .iter()
            .map(|r| names.binary_search(&name(r)).unwrap_or(0) as u32)
            .collect();
        let carried_sessions = st.sessions.iter().filter(|s| s.def.carry);
        Ranked {
            st,
            scored,
            rows,
            group,
            groups,
            carried,
            all_mp: carried_sessions.clone().all(|s| s.def.form.has_top()),
            sessions: st
                .sessions
                .iter()
                .map(|s| Arc::from(s.def.id.as_str()))
                .collect(),
            audit_group,
        }
    }

    /// A participant's row in a session (`None`: overall).
    pub(super) fn row_of(
        &self,
        scored: &'s Scored,
        session: Option<usize>,
        p: PId,
    ) -> Option<(usize, &'s Standing)> {
        let i = *self.rows.get(&(session, p))?;
        Some((i, &scored.standings[i]))
    }

    /// The most boards anyone of the row's group played.
    pub(super) fn most(&self, row: usize) -> u32 {
        self.groups[self.group[row] as usize].most
    }

    /// Whether the most boards of the row's group stays when two of those who played it (a
    /// table's pairs) play one fewer.
    pub(super) fn most_stays(&self, row: usize) -> bool {
        self.groups[self.group[row] as usize].most_count > 2
    }

    /// A participant's overall total and maximum as `standings::finish` adds them up, one of its
    /// session rows (`replace`: row, total, max) taken as given.
    pub(super) fn overall_of(
        &self,
        scored: &Scored,
        p: PId,
        replace: Option<(usize, Total, Option<Total>)>,
    ) -> Option<(Total, Option<Total>)> {
        let rows = self.carried.get(&p)?;
        let mut total = Total::default();
        let mut max = self.all_mp.then(Total::default);
        for &i in rows {
            let r = &scored.standings[i];
            let (t, m) = match replace {
                Some((at, t, m)) if at == i => (t, m),
                _ => (r.total, r.max),
            };
            add_total(&mut total, &t);
            if let (Some(om), Some(m)) = (max.as_mut(), m.as_ref()) {
                add_total(om, m);
            }
        }
        Some((total, max))
    }

    /// The effect of the changed rows `changed` (row, total, max without the ruling).
    pub(super) fn effect(&self, changed: &Changed, per_group: usize) -> Option<Effect> {
        // Each group's changed rows: (row, the standing without the ruling).
        let mut by_group: BTreeMap<u32, Vec<(usize, Before)>> = BTreeMap::new();
        for &(row, total, max) in changed {
            by_group
                .entry(self.group[row])
                .or_default()
                .push((row, Before { total, max }));
        }
        // Exact moves throughout, or floats (as the audit sorts its movers).
        let exact_all = by_group.iter().all(|(g, c)| {
            self.groups[*g as usize].exact_totals && c.iter().all(|x| x.1.total.exact().is_some())
        });
        let mut moved = 0;
        let mut cands: Vec<Cand> = Vec::new();
        let mut sides: Vec<Sorted> = Vec::with_capacity(by_group.len());
        for (g, c) in &by_group {
            let (n, mut list, sorted) =
                self.group_movers(*g as usize, c, per_group, sides.len())?;
            moved += n;
            cands.append(&mut list);
            sides.push(sorted);
        }
        // The audit's order: sessions by id and section, overall last; the biggest move first,
        // then by id: each audit group's first `per_group` (selected, then sorted).
        // (their indexes sorted and selected: a candidate is some hundred bytes, and there are
        // as many as participants when a ruling moves the whole field)
        let group_of = |i: u32| self.audit_group[cands[i as usize].row];
        let mut order_of: Vec<u32> = (0..cands.len() as u32).collect();
        order_of.sort_unstable_by_key(|&i| group_of(i));
        let order = |x: &u32, y: &u32| {
            let (x, y) = (&cands[*x as usize], &cands[*y as usize]);
            size_cmp(&x.size, &y.size, exact_all).then_with(|| self.id(x.row).cmp(self.id(y.row)))
        };
        let mut shown = Vec::new();
        let mut start = 0;
        while start < order_of.len() {
            let g = group_of(order_of[start]);
            let end = start + order_of[start..].partition_point(|&i| group_of(i) == g);
            let run = &mut order_of[start..end];
            if run.len() > per_group && per_group > 0 {
                run.select_nth_unstable_by(per_group - 1, order);
            }
            let n = per_group.min(run.len());
            let first = &mut run[..n];
            first.sort_by(order);
            shown.extend(
                first
                    .iter()
                    .map(|&i| self.delta(&cands[i as usize], &sides)),
            );
            start = end;
        }
        Some(Effect { moved, shown })
    }

    fn id(&self, row: usize) -> &str {
        &self
            .st
            .participant(self.scored.standings[row].participant)
            .id
    }

    /// A group's movers: how many, and those that may be shown (every changed one that moved;
    /// the unchanged ones whose place moved too when fewer than `per_group` moved by a total).
    fn group_movers(
        &self,
        g: usize,
        changed: &[(usize, Before)],
        per_group: usize,
        index: usize,
    ) -> Option<(usize, Vec<Cand>, Sorted)> {
        let grp = &self.groups[g];
        let rows = &self.scored.standings;
        let keys = &grp.keys;
        let floats = grp.inexact_keys > 0;
        let c_inexact = changed
            .iter()
            .filter(|(r, _)| keys[r - grp.start].0.is_none())
            .count();
        let b_keys: Vec<Key> = changed
            .iter()
            .map(|(r, b)| rank_key(&b.standing(&rows[*r])))
            .collect();
        let b_inexact = b_keys.iter().filter(|k| k.0.is_none()).count();
        // (ranked by floats on one side only: placed by the audit)
        if floats != (grp.inexact_keys - c_inexact + b_inexact > 0) {
            return None;
        }
        let norm = |k: Key| if floats { (None, k.1) } else { k };
        let desc = |v: &mut Vec<Key>| v.sort_by(|x, y| cmp_rank_keys(y, x));
        let at_least =
            |from: usize, k: &Key| gallop(keys, from, |x| cmp_rank_keys(x, k) != Ordering::Less);
        // (the changed rows' places in the group, in ranked order: their values, ranked)
        let mut pos: Vec<usize> = changed.iter().map(|(r, _)| r - grp.start).collect();
        pos.sort_unstable();
        let a_sorted: Vec<Key> = pos.iter().map(|&p| norm(keys[p])).collect();
        let mut b_sorted: Vec<Key> = b_keys.iter().map(|k| norm(*k)).collect();
        desc(&mut b_sorted);
        let mut moved = 0;
        let mut cands = Vec::new();
        let mut by_total = 0;
        let sorted = Sorted {
            group: g,
            a: a_sorted,
            b: b_sorted,
        };
        for ((row, b), bk) in changed.iter().zip(&b_keys) {
            let bk = norm(*bk);
            let (size, mv) = move_of(&rows[*row].total, &b.total);
            // (a place without the ruling is found only where it decides: a total that moved
            // moved; the others' when shown)
            let rank_before = if mv != 0.0 {
                Place::Later(index, bk)
            } else {
                let r = self.rank_in(&sorted, &bk);
                if r == rows[*row].rank {
                    continue;
                }
                Place::Known(r)
            };
            moved += 1;
            by_total += usize::from(mv != 0.0);
            cands.push(Cand {
                row: *row,
                before: Some(*b),
                rank_before,
                size,
                moved: mv,
            });
        }
        let (a_sorted, b_sorted) = (&sorted.a, &sorted.b);
        // The unchanged whose place moved: between the values the changed ones crossed (the
        // values with the ruling, and without it, merged in ranked order).
        let points = merge_desc(a_sorted, b_sorted);
        let enumerate = by_total < per_group;
        let (mut f, mut i) = (0i64, 0);
        // (the points go down the ranking: each search starts where the last one ended)
        let (mut from, mut lo_at, mut hi_at) = (0, 0, 0);
        while i < points.len() {
            let w = points[i].0;
            let mut j = i;
            while j < points.len() && cmp_rank_keys(&points[j].0, &w) == Ordering::Equal {
                f += points[j].1;
                j += 1;
            }
            let lo = at_least(from, &w);
            let hi = points.get(j).map_or(keys.len(), |x| at_least(lo, &x.0));
            from = lo;
            if f != 0 && hi > lo {
                lo_at = gallop(&pos, lo_at, |&p| p < lo);
                hi_at = gallop(&pos, hi_at.max(lo_at), |&p| p < hi);
                let inside = hi_at - lo_at;
                moved += hi - lo - inside;
                if enumerate {
                    for p in (lo..hi).filter(|p| pos.binary_search(p).is_err()) {
                        let r = &rows[grp.start + p];
                        let (size, mv) = move_of(&r.total, &r.total);
                        cands.push(Cand {
                            row: grp.start + p,
                            before: None,
                            rank_before: Place::Known((r.rank as i64 + f) as u32),
                            size,
                            moved: mv,
                        });
                    }
                }
            }
            i = j;
        }
        Some((moved, cands, sorted))
    }

    /// The place without the ruling of a standing whose ranking value without it is `k`, in the
    /// group of `sorted`: one more than the number ranked strictly above it then (the whole
    /// scoring's values, the changed ones' taken out and their values without it put in).
    fn rank_in(&self, sorted: &Sorted, k: &Key) -> u32 {
        let above =
            |v: &[Key], k: &Key| v.partition_point(|x| cmp_rank_keys(x, k) == Ordering::Greater);
        let keys = &self.groups[sorted.group].keys;
        (1 + above(keys, k) - above(&sorted.a, k) + above(&sorted.b, k)) as u32
    }

    /// The audit's row of a mover.
    fn delta(&self, c: &Cand, sides: &[Sorted]) -> StandingDelta {
        let st = self.st;
        let rank_before = match &c.rank_before {
            Place::Known(r) => *r,
            Place::Later(i, k) => self.rank_in(&sides[*i], k),
        };
        let r = &self.scored.standings[c.row];
        let without = c.before.map(|b| b.standing(r));
        let b = without.as_ref().unwrap_or(r);
        let p = st.participant(r.participant);
        StandingDelta {
            session: r
                .session
                .map_or_else(|| Arc::from("overall"), |s| self.sessions[s].clone()),
            section: r.section.as_deref().map(Arc::from),
            participant: Arc::from(p.id.as_str()),
            players: Arc::from(p.players.join(" – ")),
            total_before: Some(b.total.to_f64()),
            total_after: Some(r.total.to_f64()),
            pct_before: b.pct(),
            pct_after: r.pct(),
            rank_before: Some(rank_before as i32),
            rank_after: Some(r.rank as i32),
            noun: crate::kind::noun(
                p.team,
                r.session.map(|s| st.sessions[s].kind),
                st.sessions.iter().map(|s| s.kind),
            ),
            moved: Some(c.moved),
        }
    }
}

/// A standing's total and maximum without the ruling.
#[derive(Clone, Copy)]
struct Before {
    total: Total,
    max: Option<Total>,
}

impl Before {
    /// The standing `r` (the whole scoring's) with these sums instead of its own.
    fn standing(&self, r: &Standing) -> Standing {
        Standing {
            session: r.session,
            section: None,
            participant: r.participant,
            rank: 0,
            rank_to: 0,
            total: self.total,
            max: self.max,
            boards: r.boards,
            penalties: r.penalties,
        }
    }
}

/// A mover's place without the ruling: known, or to be found when it is shown (the index of
/// its group's [`Sorted`], and its ranking value without the ruling).
enum Place {
    Known(u32),
    Later(usize, Key),
}

/// A group's changed ranking values in ranked order: with the ruling (`a`) and without (`b`).
struct Sorted {
    group: usize,
    a: Vec<Key>,
    b: Vec<Key>,
}

/// The first index at or after `from` where `pred` fails (`pred` true then false along `v`,
/// and true up to `from`), by doubling steps then halving: the cost grows with the distance
/// from `from`, not with the length of `v`.
fn gallop<T>(v: &[T], from: usize, pred: impl Fn(&T) -> bool) -> usize {
    let mut lo = from.min(v.len());
    let mut step = 1;
    while lo + step <= v.len() && pred(&v[lo + step - 1]) {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step).min(v.len());
    lo + v[lo..hi].partition_point(pred)
}

/// Two lists of ranking values, each in ranked order, merged in ranked order: those of `a`
/// marked -1, those of `b` +1 (equal values in any order).
fn merge_desc(a: &[Key], b: &[Key]) -> Vec<(Key, i64)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if cmp_rank_keys(&a[i], &b[j]) != Ordering::Less {
            out.push((a[i], -1));
            i += 1;
        } else {
            out.push((b[j], 1));
            j += 1;
        }
    }
    out.extend(a[i..].iter().map(|k| (*k, -1)));
    out.extend(b[j..].iter().map(|k| (*k, 1)));
    out
}

/// A mover that may be shown: its row, its standing without the ruling (`None`: unchanged),
/// its place without the ruling, and the size of its move.
struct Cand {
    row: usize,
    before: Option<Before>,
    rank_before: Place,
    size: Size,
    moved: f64,
}

/// How far a standing moved, as the audit sorts: exactly (and its float), or by floats.
#[derive(Clone, Copy)]
struct Size {
    exact: Option<Q>,
    float: f64,
    exact_float: f64,
}

fn size_cmp(x: &Size, y: &Size, exact_all: bool) -> Ordering {
    match (x.exact, y.exact) {
        (Some(a), Some(b)) if exact_all => {
            let tol = 1e-12 * x.exact_float.abs().max(y.exact_float.abs());
            if y.exact_float - x.exact_float > tol {
                Ordering::Greater
            } else if x.exact_float - y.exact_float > tol {
                Ordering::Less
            } else {
                b.cmp(&a)
            }
        }
        _ => (y.float + 0.0)
            .partial_cmp(&(x.float + 0.0))
            .unwrap_or(Ordering::Equal),
    }
}

/// A's total minus B's: the move and its size, as the audit computes them.
fn move_of(a: &Total, b: &Total) -> (Size, f64) {
    if a == b {
        let zero = a.exact().map(|_| Q::ZERO);
        return (
            Size {
                exact: zero,
                float: 0.0,
                exact_float: 0.0,
            },
            zero.map_or(0.0, Q::to_f64),
        );
    }
    let float = (a.to_f64() - b.to_f64()).abs();
    let d = (|| a.exact()?.checked_add(-b.exact()?))();
    let exact = d.map(Q::abs);
    (
        Size {
            exact,
            float,
            exact_float: exact.map_or(0.0, Q::to_f64),
        },
        d.map_or_else(|| a.to_f64() - b.to_f64(), Q::to_f64),
    )
}

/// `standings`' adding of one total to another (a float carried once beyond exact arithmetic).
fn add_total(into: &mut Total, t: &Total) {
    match t.exact() {
        Some(q) => into.add(q),
        None => {
            let f = t.to_f64();
            into.add(Q::ZERO);
            *into = Total::from_f64_sum(into.to_f64() + f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::gallop;

    #[test]
    fn gallop_finds_what_partition_point_finds_from_any_start() {
        for len in 0..40usize {
            let v: Vec<usize> = (0..len).collect();
            for cut in 0..=len {
                let want = v.partition_point(|&x| x < cut);
                for from in 0..=want {
                    assert_eq!(gallop(&v, from, |&x| x < cut), want, "{len} {cut} {from}");
                }
            }
        }
    }
}
