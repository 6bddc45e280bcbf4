//! Standings: boards added up per session and overall, penalties applied, ranks with shared places.
//!
//! Matchpoint sessions rank by percentage (total / max, the max counting only the boards a pair
//! played, so a pair that missed boards is factored pro rata, C22); other forms by total. Each
//! comparison group (a section with `compare: section`) is ranked alone, NS and EW pairs in one
//! list. `overall` ranks everybody in the carried sessions together.

mod sums;

pub use sums::Sums;

use std::cmp::Ordering;
use std::collections::BTreeMap;

use crate::error::Notice;
use crate::event::PenaltyUnit;
use crate::hash::FxMap;
use crate::num::{Total, Q};
use crate::options::Compare;
use crate::replay::{PId, State};
use crate::score::mp::field_top;
use crate::score::BoardScore;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Standing {
    /// Session index, or `None` for `overall`.
    pub session: Option<usize>,
    pub section: Option<String>,
    pub participant: PId,
    pub rank: u32,
    pub rank_to: u32,
    pub total: Total,
    pub max: Option<Total>,
    pub boards: u32,
    /// Penalties taken off `total`, in the form's unit.
    pub penalties: Total,
}

impl Standing {
    pub fn pct(&self) -> Option<f64> {
        let m = self.max.as_ref()?;
        if m.to_f64() <= 0.0 {
            return None;
        }
        // Exact when the rationals allow it (long factored sums can outgrow i128: then floats).
        match (self.total.exact(), m.exact()) {
            (Some(t), Some(m)) => match t
                .checked_mul(Q::int(100))
                .and_then(|x| x.checked_mul(m.recip()))
            {
                Some(p) => Some(p.to_f64()),
                None => Some(self.total.to_f64() / m.to_f64() * 100.0),
            },
            _ => Some(self.total.to_f64() / m.to_f64() * 100.0),
        }
    }

    /// The ranking value: percentage for MP, total otherwise; exact when it can be.
    fn key(&self) -> (Option<Q>, f64) {
        match &self.max {
            Some(m) => match (self.total.exact(), m.exact()) {
                (Some(t), Some(mx)) if !mx.is_zero() => {
                    (t.checked_mul(mx.recip()), self.total.to_f64() / m.to_f64())
                }
                _ if m.to_f64() > 0.0 => (None, self.total.to_f64() / m.to_f64()),
                _ => (None, f64::NEG_INFINITY),
            },
            None => (self.total.exact(), self.total.to_f64()),
        }
    }
}

/// [`Standing`]'s ranking value (as the ranking computes it), for code that places a standing
/// among ranked ones without ranking them again (`audit::effects`).
pub fn rank_key(s: &Standing) -> (Option<Q>, f64) {
    s.key()
}

/// The ranking's order of two ranking values ([`rank_key`]): `Greater` ranks higher. A group
/// with any value beyond exact arithmetic is ranked by the floats alone (both `None`).
pub fn cmp_rank_keys(a: &(Option<Q>, f64), b: &(Option<Q>, f64)) -> Ordering {
    cmp_key(a, b)
}

fn cmp_key(a: &(Option<Q>, f64), b: &(Option<Q>, f64)) -> Ordering {
    match (a.0, b.0) {
        // Each float is its exact value rounded (a few units in the last place, well within a
        // part in 10^12): floats further apart than that order as the exact values do, and only
        // close ones need the exact comparison (slow for the long denominators of factored
        // sums: 128-bit products overflow and it goes by continued fractions).
        (Some(x), Some(y)) => {
            let tol = 1e-12 * a.1.abs().max(b.1.abs());
            if a.1 - b.1 > tol {
                Ordering::Greater
            } else if b.1 - a.1 > tol {
                Ordering::Less
            } else {
                x.cmp(&y)
            }
        }
        // (+ 0.0 makes −0.0 equal 0.0; the values are finite)
        _ => (a.1 + 0.0)
            .partial_cmp(&(b.1 + 0.0))
            .unwrap_or(Ordering::Equal),
    }
}

/// Sort a group best first and give shared places.
///
/// The keys are computed and the group sorted in parallel; two standings of a group never
/// compare equal (ties are broken by the participant's id, unique in a group), so the order is
/// the one a sequential sort gives, whatever the number of threads.
fn rank(group: Vec<Standing>, state: &State) -> Vec<Standing> {
    use rayon::prelude::*;
    let mut keys: Vec<_> = group.par_iter().map(Standing::key).collect();
    // One order for the whole group: exact when every key is, floats otherwise (a sort needs a
    // consistent order).
    if keys.iter().any(|k| k.0.is_none()) {
        for k in &mut keys {
            k.0 = None;
        }
    }
    // Sorted as (float key, index) pairs, side by side in memory: the exact keys and the ids
    // are looked up only for close floats and for ties (`cmp_key`'s order, best first).
    let exact = keys.first().is_some_and(|k| k.0.is_some());
    let mut order: Vec<(f64, u32)> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (k.1, i as u32))
        .collect();
    order.par_sort_by(|&(fa, a), &(fb, b)| {
        let (a, b) = (a as usize, b as usize);
        let by_key = if exact {
            let tol = 1e-12 * fa.abs().max(fb.abs());
            if fb - fa > tol {
                Ordering::Greater
            } else if fa - fb > tol {
                Ordering::Less
            } else {
                keys[b].0.cmp(&keys[a].0)
            }
        } else {
            (fb + 0.0)
                .partial_cmp(&(fa + 0.0))
                .unwrap_or(Ordering::Equal)
        };
        by_key.then_with(|| {
            state
                .participant(group[a].participant)
                .id
                .cmp(&state.participant(group[b].participant).id)
        })
    });
    let idx: Vec<u32> = order.into_iter().map(|(_, i)| i).collect();
    let skeys: Vec<_> = idx.par_iter().map(|&i| keys[i as usize]).collect();
    // The standings moved (not copied) into their places.
    let mut slots: Vec<Option<Standing>> = group.into_iter().map(Some).collect();
    let mut out: Vec<Standing> = idx
        .iter()
        .map(|&i| slots[i as usize].take().expect("each index once"))
        .collect();
    give_places(&mut out, |i, j| {
        cmp_key(&skeys[i], &skeys[j]) == Ordering::Equal
    });
    out
}

/// Places for a list sorted best first: a run of standings that `tie(i, j)` (positions in the
/// list) says are equal shares the places it spans (C22).
fn give_places(out: &mut [Standing], tie: impl Fn(usize, usize) -> bool) {
    let mut i = 0;
    while i < out.len() {
        let mut j = i + 1;
        while j < out.len() && tie(i, j) {
            j += 1;
        }
        for s in &mut out[i..j] {
            s.rank = i as u32 + 1;
            s.rank_to = j as u32;
        }
        i = j;
    }
}

/// The overall standings' sums: each participant's standings of the carried groups added up in
/// group order, in participant order. `groups` are in (session, group) order, each sorted by
/// participant. In parallel over ranges of participants: a participant's additions are the same
/// and in the same order whatever the number of threads.
fn overall_sums(
    state: &State,
    groups: &[((usize, Option<String>), Vec<Standing>)],
    all_mp: bool,
) -> Vec<Standing> {
    use rayon::prelude::*;
    let carried: Vec<&[Standing]> = groups
        .iter()
        .filter(|((s, _), _)| state.sessions[*s].def.carry)
        .map(|(_, members)| members.as_slice())
        .collect();
    if carried.is_empty() {
        return Vec::new();
    }
    let n = state.participants.len();
    let chunk = n
        .div_ceil(rayon::current_num_threads().max(1) * 8)
        .max(1024);
    let ranges: Vec<(PId, PId)> = (0..n)
        .step_by(chunk)
        .map(|lo| (lo as PId, (lo + chunk).min(n) as PId))
        .collect();
    let parts: Vec<Vec<Standing>> = ranges
        .into_par_iter()
        .map(|(lo, hi)| {
            let mut acc: Vec<Option<Standing>> = Vec::new();
            acc.resize_with((hi - lo) as usize, || None);
            for members in &carried {
                let start = members.partition_point(|m| m.participant < lo);
                for st in members[start..].iter().take_while(|m| m.participant < hi) {
                    let o = acc[(st.participant - lo) as usize].get_or_insert_with(|| Standing {
                        session: None,
                        section: state
                            .participant(st.participant)
                            .section
                            .clone()
                            .or_else(|| st.section.clone()),
                        participant: st.participant,
                        rank: 0,
                        rank_to: 0,
                        total: Total::default(),
                        max: all_mp.then(Total::default),
                        boards: 0,
                        penalties: Total::default(),
                    });
                    add_total(&mut o.total, &st.total);
                    add_total(&mut o.penalties, &st.penalties);
                    if let (Some(om), Some(m)) = (o.max.as_mut(), st.max.as_ref()) {
                        add_total(om, m);
                    }
                    o.boards += st.boards;
                }
            }
            acc.into_iter().flatten().collect()
        })
        .collect();
    concat(parts)
}

/// The lists one after the other, moved into place in parallel (a field of 100,000 pairs is
/// 20 MB of standings).
fn concat(parts: Vec<Vec<Standing>>) -> Vec<Standing> {
    use rayon::prelude::*;
    let mut out = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for part in parts {
        out.par_extend(part);
    }
    out
}

/// The sums of the scored pair boards and team matches.
///
/// In parallel over participants: each worker adds up the sides of its share of the participants
/// over every board in board order. A participant's sum is then the same additions in the same
/// order as one thread makes (the same exact value, or the same float once beyond exact
/// arithmetic), whatever the number of threads.
pub fn sums<'b>(
    state: &State,
    boards: impl IntoIterator<Item = &'b BoardScore>,
    matches: &[crate::score::MatchResult],
) -> Sums {
    use rayon::prelude::*;
    let mut s = Sums::default();
    s.add_matches(matches);
    let boards: Vec<&BoardScore> = boards.into_iter().collect();
    let shares = rayon::current_num_threads().max(1);
    if shares == 1 {
        for b in boards {
            s.add_board(state, b);
        }
        return s;
    }
    let parts: Vec<Sums> = (0..shares)
        .into_par_iter()
        .map(|share| {
            let mut part = Sums::default();
            for b in &boards {
                part.add_board_of(state, b, |p| p as usize % shares == share);
            }
            part
        })
        .collect();
    for part in parts {
        for (key, members) in part.groups {
            let g = s.groups.entry(key).or_default();
            g.reserve(members.members.len());
            for st in members.members {
                g.insert(st);
            }
        }
    }
    s
}

/// Standings of every session and overall, from the scored pair boards and team matches.
pub fn standings<'b>(
    state: &State,
    boards: impl IntoIterator<Item = &'b BoardScore>,
    matches: &[crate::score::MatchResult],
    fields: &BTreeMap<(usize, Option<String>), u32>,
    notices: &mut Vec<Notice>,
) -> Vec<Standing> {
    finish(state, sums(state, boards, matches), fields, notices)
}

/// Standings from their sums: IMP-form factoring for missed boards, penalties, the overall
/// standings, ranks.
pub fn finish(
    state: &State,
    sums: Sums,
    fields: &BTreeMap<(usize, Option<String>), u32>,
    notices: &mut Vec<Notice>,
) -> Vec<Standing> {
    use rayon::prelude::*;
    let hashed = sums.groups;
    let mut groups: BTreeMap<(usize, Option<String>), Vec<Standing>> = hashed
        .into_iter()
        .filter(|(_, m)| !m.is_empty())
        .map(|(k, m)| {
            let mut v: Vec<Standing> = m.members;
            v.par_sort_unstable_by_key(|s| s.participant);
            (k, v)
        })
        .collect();
    // The session finish of each member's kind, before penalties (below): pairs, the personal
    // average (C36).
    for ((s, section), members) in groups.iter_mut() {
        let session = &state.sessions[*s];
        let (member, form) = (session.kind.finish.member, session.def.form);
        let most = members.iter().map(|m| m.boards).max().unwrap_or(0);
        for m in members.iter_mut() {
            if member(form, m.boards, most, &mut m.total) {
                notices.push(Notice {
                    line: None,
                    message: format!(
                        "session \"{}\"{}: \"{}\" played {} of {} boards; its total is factored by {}/{} (personal average for the boards it missed)",
                        state.sessions[*s].def.id,
                        section.as_ref().map(|x| format!(" section {x}")).unwrap_or_default(),
                        state.participant(m.participant).id,
                        m.boards,
                        most,
                        most,
                        m.boards
                    ),
                });
            }
        }
    }
    for p in &state.penalties {
        let session = &state.sessions[p.session];
        if session.kind.match_penalty == Some(p.ev.unit) {
            // Taken off the match IMPs before the VP conversion (C18, C20).
            continue;
        }
        let session = &session.def;
        let group = groups.iter_mut().find(|((s, _), members)| {
            *s == p.session
                && members
                    .binary_search_by_key(&p.participant, |m| m.participant)
                    .is_ok()
        });
        let Some(((_, section), members)) = group else {
            notices.push(Notice {
                line: None,
                message: format!(
                    "penalty (seq {}) on \"{}\" in session \"{}\" is not applied: the participant played no board there",
                    p.seq,
                    state.participant(p.participant).id,
                    session.id
                ),
            });
            continue;
        };
        let field = fields
            .get(&(p.session, section.clone()))
            .copied()
            .unwrap_or(1);
        let amount = match p.ev.unit {
            PenaltyUnit::PctOfTop => p.ev.amount / Q::int(100) * field_top(field),
            _ => p.ev.amount,
        };
        let i = members
            .binary_search_by_key(&p.participant, |m| m.participant)
            .expect("found above");
        let s = &mut members[i];
        s.total.add(-amount);
        s.penalties.add(amount);
    }
    // Overall: every carried session.
    let carried: Vec<usize> = (0..state.sessions.len())
        .filter(|&i| state.sessions[i].def.carry)
        .collect();
    let all_mp = carried
        .iter()
        .all(|&i| state.sessions[i].def.form.has_top());
    let mut groups: Vec<((usize, Option<String>), Vec<Standing>)> = groups.into_iter().collect();
    groups.par_iter_mut().for_each(|((s, section), members)| {
        let compare = state.sessions[*s].def.compare;
        members.par_iter_mut().for_each(|st| {
            st.section = match compare {
                Compare::Section => section.clone(),
                Compare::Field => state.participant(st.participant).section.clone(),
            };
        });
    });
    // The overall sums need no ranks: taken from the groups while they are still in
    // participant order, then every group and the overall ranked, in parallel.
    let overall = overall_sums(state, &groups, all_mp);
    let (ranked, overall) = rayon::join(
        || {
            groups
                .into_par_iter()
                .map(|(_, members)| rank(members, state))
                .collect::<Vec<_>>()
        },
        || rank(overall, state),
    );
    let mut parts = ranked;
    parts.push(overall);
    concat(parts)
}

fn add_total(into: &mut Total, t: &Total) {
    match t.exact() {
        Some(q) => into.add(q),
        None => {
            // Already approximate: carry the float.
            let f = t.to_f64();
            into.add(Q::ZERO);
            *into = Total::from_f64_sum(into.to_f64() + f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Groups as a cache file gives them: a participant listed twice in a group, or a group
    /// given twice, is refused (found by the audit_cache fuzz target: a forged cache whose sums
    /// listed a pair twice decoded, and its audit added the pair up twice).
    #[test]
    fn groups_from_a_file_are_refused_when_they_repeat() {
        let st = |p: PId| Standing {
            participant: p,
            ..standing(Q::from(1), Q::from(2))
        };
        let k = (0usize, None::<String>);
        assert!(Sums::from_groups(vec![(k.clone(), vec![st(1), st(2)])]).is_some());
        assert!(Sums::from_groups(vec![(k.clone(), vec![st(1), st(1)])]).is_none());
        assert!(Sums::from_groups(vec![(k.clone(), vec![st(1)]), (k, vec![st(2)])]).is_none());
    }

    fn standing(total: Q, max: Q) -> Standing {
        let mut t = Total::default();
        t.add(total);
        let mut m = Total::default();
        m.add(max);
        Standing {
            session: Some(0),
            section: None,
            participant: 0,
            rank: 0,
            rank_to: 0,
            total: t,
            max: Some(m),
            boards: 24,
            penalties: Total::default(),
        }
    }

    /// A percentage whose exact value outgrows i128 (a big field, 24 boards each factored with
    /// its own denominator: found by `frekans synth` at 100,000 results) falls back to floats
    /// instead of panicking, and a group mixing such keys with exact ones still sorts.
    #[test]
    fn percentages_beyond_i128_fall_back_to_floats() {
        // 2^120 / (3^70 / 5^50): the exact quotient's numerator 2^120·5^50 is past i128.
        let (t, m) = (Q::new(1 << 120, 1), Q::new(3i128.pow(70), 5i128.pow(50)));
        let huge = standing(t, m);
        let p = huge.pct().unwrap();
        let want = t.to_f64() / m.to_f64() * 100.0;
        assert!((p - want).abs() < 1e-9 * want, "{p} vs {want}");
        assert!(huge.key().0.is_none());
        let small = standing(Q::int(30), Q::int(60));
        assert_eq!(small.key().0, Some(Q::new(1, 2)));
        let mut group = [small.clone(), huge.clone(), small];
        for (i, s) in group.iter_mut().enumerate() {
            s.participant = i as PId;
        }
        let mut keys: Vec<_> = group.iter().map(Standing::key).collect();
        for k in &mut keys {
            k.0 = None;
        }
        keys.sort_by(cmp_key);
        assert!(keys[0].1 <= keys[2].1);
    }
}

#[cfg(test)]
mod rank_tests {
    use super::*;
    use crate::replay::Participant;

    /// Ranks as a plain sequential sort gives them (the order and shared places before the
    /// ranking was made parallel).
    fn rank_sequential(group: &[Standing], state: &State) -> Vec<Standing> {
        let mut keys: Vec<_> = group.iter().map(Standing::key).collect();
        if keys.iter().any(|k| k.0.is_none()) {
            for k in &mut keys {
                k.0 = None;
            }
        }
        let mut idx: Vec<usize> = (0..group.len()).collect();
        idx.sort_by(|&a, &b| {
            cmp_key(&keys[b], &keys[a]).then_with(|| {
                state
                    .participant(group[a].participant)
                    .id
                    .cmp(&state.participant(group[b].participant).id)
            })
        });
        let mut out: Vec<Standing> = idx.iter().map(|&i| group[i].clone()).collect();
        give_places(&mut out, |i, j| {
            cmp_key(&keys[idx[i]], &keys[idx[j]]) == Ordering::Equal
        });
        out
    }

    /// 6,000 standings (the parallel sort splits them) with many shared places, ids in another
    /// order than the participants' numbers: the same ranks as the sequential sort for 1 to 4
    /// threads, with exact keys and with float keys (one percentage beyond i128).
    #[test]
    fn parallel_ranking_equals_the_sequential_sort() {
        let n = 6_000u32;
        let state = State::with_participants(std::sync::Arc::new(
            (0..n)
                .map(|p| Participant {
                    id: format!("P{:05}", (p * 7_919) % n),
                    section: None,
                    name: None,
                    players: Vec::new(),
                    player_ids: Vec::new(),
                    team: false,
                })
                .collect(),
        ));
        let mut rng = crate::synth::Rng::new(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.next_u64();
        let mut group: Vec<Standing> = (0..n)
            .map(|p| {
                let boards = 20 + (next() % 5) as i128;
                let mut total = Total::default();
                total.add(Q::new((next() % 300) as i128, 2));
                let mut max = Total::default();
                max.add(Q::int((boards * 10) as i64));
                Standing {
                    session: Some(0),
                    section: None,
                    participant: p,
                    rank: 0,
                    rank_to: 0,
                    total,
                    max: Some(max),
                    boards: boards as u32,
                    penalties: Total::default(),
                }
            })
            .collect();
        for floats in [false, true] {
            if floats {
                let mut huge = Total::default();
                huge.add(Q::new(1 << 120, 1));
                let mut m = Total::default();
                m.add(Q::new(3i128.pow(70), 5i128.pow(50)));
                group[17].total = huge;
                group[17].max = Some(m);
            }
            let want = rank_sequential(&group, &state);
            assert!(want.windows(2).any(|w| w[0].rank == w[1].rank), "ties");
            for threads in [1, 2, 3, 4] {
                let got = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| rank(group.clone(), &state));
                assert!(got == want, "floats {floats}, {threads} threads");
            }
        }
    }
}

#[cfg(test)]
mod swap_tests {
    use super::*;
    use crate::score::MatchResult;

    fn m(id: &str, home: PId, away: PId, vp_home: Q, vp_away: Q, scored: u32) -> MatchResult {
        MatchResult {
            session: 0,
            match_id: id.to_string(),
            home,
            away,
            boards: 16,
            scored,
            imp_home: None,
            imp_away: None,
            vp_home,
            vp_away,
        }
    }

    fn groups(s: &Sums) -> Vec<((usize, Option<String>), Vec<Standing>)> {
        s.to_groups()
            .into_iter()
            .map(|(k, v)| (k, v.into_iter().cloned().collect()))
            .collect()
    }

    /// A match taken out and scored again put in gives the sums of adding every match up afresh.
    #[test]
    fn a_swapped_match_equals_adding_up_afresh() {
        let first = m("M1", 0, 1, Q::new(1234, 100), Q::new(766, 100), 16);
        let other = m("M2", 0, 2, Q::new(1000, 100), Q::new(1000, 100), 16);
        let again = m("M1", 0, 1, Q::new(1471, 100), Q::new(529, 100), 15);
        let mut s = Sums::default();
        s.add_matches(&[first.clone(), other.clone()]);
        assert!(s.remove_matches(&[first]));
        s.add_matches(std::slice::from_ref(&again));
        let mut fresh = Sums::default();
        fresh.add_matches(&[again, other]);
        assert_eq!(groups(&s), groups(&fresh));
    }

    /// A team whose sum is beyond exact arithmetic (a float) is not taken out (taking out and
    /// putting back would differ from adding up afresh in the last bits): nothing changes.
    #[test]
    fn a_sum_beyond_exact_arithmetic_is_not_swapped() {
        // (denominators 2^61 − 1, 2^61 + 1 and 2^59 − 1 are coprime: their sum's denominator
        // is beyond i128)
        let parts = [(1i128 << 61) - 1, (1i128 << 61) + 1, (1i128 << 59) - 1];
        let ms: Vec<MatchResult> = parts
            .iter()
            .enumerate()
            .map(|(i, &d)| m(&format!("M{i}"), 0, 1 + i as PId, Q::new(1, d), Q::ZERO, 16))
            .collect();
        let mut s = Sums::default();
        s.add_matches(&ms);
        assert!(!s.all_exact());
        let before = groups(&s);
        assert!(!s.remove_matches(&ms[..1]));
        assert_eq!(groups(&s), before);
    }
}
