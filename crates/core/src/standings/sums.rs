//! Each group's sums of board scores and its participants' counts: built from scored boards, and changed in place (boards taken out, swapped or replaced) so that standings are recomputed without adding everything up again.

use super::*;

/// What standings are computed from: each participant's sums (total, maximum, boards) in each
/// comparison group, before factoring, penalties and ranking. Boards and matches can be taken
/// out again (exactly, while the sums are exact), so that standings with a few boards changed
/// are made without adding up every board again.
#[derive(Clone, Debug, Default)]
pub struct Sums {
    // (session, group) → participant → standing (put in participant order by `finish`).
    pub(super) groups: BTreeMap<(usize, Option<String>), Group>,
}

/// One comparison group's standings while they are added up: in the order their participants
/// were first seen, found through a small index. Boards come in order and list their sides in
/// about the same order, so adding up a board reads the standings nearly in sequence, and the
/// index of a field of 100,000 pairs (a few MB less than the standings themselves) stays in cache.
#[derive(Clone, Debug, Default)]
pub(super) struct Group {
    pub(super) index: FxMap<PId, u32>,
    pub(super) members: Vec<Standing>,
}

impl Group {
    pub(super) fn entry(&mut self, p: PId, make: impl FnOnce() -> Standing) -> &mut Standing {
        let i = *self.index.entry(p).or_insert_with(|| {
            self.members.push(make());
            (self.members.len() - 1) as u32
        });
        &mut self.members[i as usize]
    }

    pub(super) fn get_mut(&mut self, p: PId) -> Option<&mut Standing> {
        let i = *self.index.get(&p)?;
        Some(&mut self.members[i as usize])
    }

    pub(super) fn remove(&mut self, p: PId) {
        if let Some(i) = self.index.remove(&p) {
            let i = i as usize;
            self.members.swap_remove(i);
            if let Some(moved) = self.members.get(i) {
                self.index.insert(moved.participant, i as u32);
            }
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    pub(super) fn reserve(&mut self, n: usize) {
        self.index.reserve(n);
        self.members.reserve(n);
    }

    pub(super) fn insert(&mut self, st: Standing) {
        let fresh = self.index.insert(st.participant, self.members.len() as u32);
        // Shares are disjoint, and team matches have no pair-form boards.
        debug_assert!(fresh.is_none());
        self.members.push(st);
    }
}

impl Sums {
    /// Add the match points of team matches.
    pub fn add_matches(&mut self, matches: &[crate::score::MatchResult]) {
        // Team forms: the match points (VPs, Patton or BAM points) of each team's matches.
        for m in matches {
            let g = self.groups.entry((m.session, None)).or_default();
            for (team, pts) in [(m.home, m.vp_home), (m.away, m.vp_away)] {
                let e = g.entry(team, || Standing {
                    session: Some(m.session),
                    section: None,
                    participant: team,
                    rank: 0,
                    rank_to: 0,
                    total: Total::default(),
                    max: None,
                    boards: 0,
                    penalties: Total::default(),
                });
                e.total.add(pts);
                e.boards += m.scored;
            }
        }
    }

    /// Take out the groups of the team sessions `sessions` (to add their matches up again).
    pub fn drop_team_sessions(&mut self, sessions: &std::collections::BTreeSet<usize>) {
        self.groups
            .retain(|(s, g), _| !(g.is_none() && sessions.contains(s)));
    }

    /// Take team matches added before out again: `false` when a sum they touch is beyond exact
    /// arithmetic (taking out would then be within rounding of never adding, not equal to it) or
    /// a match was never added — nothing changed when found before taking out; the sums of those
    /// sessions are no longer to be used otherwise.
    pub fn remove_matches(&mut self, old: &[crate::score::MatchResult]) -> bool {
        let exact = old.iter().all(|m| {
            self.groups.get(&(m.session, None)).is_some_and(|g| {
                [m.home, m.away].iter().all(|&t| {
                    // (and counting the match's boards: a count below them is not a sum
                    // of ours, e.g. a cache altered)
                    g.index.get(&t).is_some_and(|&i| {
                        g.members
                            .get(i as usize)
                            .is_some_and(|e| e.total.exact().is_some() && e.boards >= m.scored)
                    })
                })
            })
        });
        if !exact {
            return false;
        }
        for m in old {
            let g = self.groups.get_mut(&(m.session, None)).expect("checked");
            for (team, pts) in [(m.home, m.vp_home), (m.away, m.vp_away)] {
                let e = g.get_mut(team).expect("checked");
                e.total.add(-pts);
                let Some(n) = e.boards.checked_sub(m.scored) else {
                    return false;
                };
                e.boards = n;
            }
        }
        true
    }

    /// Add a pair board (team boards count through their matches).
    pub fn add_board(&mut self, state: &State, b: &BoardScore) {
        self.add_board_of(state, b, |_| true);
    }

    /// Add the sides of a pair-form board whose participant `mine` accepts.
    pub(super) fn add_board_of(
        &mut self,
        state: &State,
        b: &BoardScore,
        mine: impl Fn(PId) -> bool,
    ) {
        let is_mp = state.sessions[b.session].def.form.has_top();
        let g = self
            .groups
            .entry((b.session, b.section.clone()))
            .or_default();
        for s in b.sides.iter().filter(|s| mine(s.participant)) {
            let e = g.entry(s.participant, || Standing {
                session: Some(b.session),
                section: None,
                participant: s.participant,
                rank: 0,
                rank_to: 0,
                total: Total::default(),
                max: is_mp.then(Total::default),
                boards: 0,
                penalties: Total::default(),
            });
            e.total.add(s.score);
            if let (Some(m), Some(top)) = (e.max.as_mut(), s.top) {
                m.add(top);
            }
            e.boards += 1;
        }
    }

    /// Every group's sums, groups in key order, participants in number order (for storing them:
    /// [`from_groups`](Sums::from_groups) reads them back).
    pub fn to_groups(&self) -> Vec<((usize, Option<String>), Vec<&Standing>)> {
        self.each_group().map(|(k, v)| (k.clone(), v)).collect()
    }

    /// [`to_groups`](Sums::to_groups)'s groups one at a time, each listed as it is reached.
    pub fn each_group(
        &self,
    ) -> impl ExactSizeIterator<Item = (&(usize, Option<String>), Vec<&Standing>)> {
        self.groups.iter().map(|(k, m)| {
            let mut v: Vec<&Standing> = m.members.iter().collect();
            v.sort_unstable_by_key(|s| s.participant);
            (k, v)
        })
    }

    /// A participant's sums in one comparison group (`(session, section or None)`).
    pub fn member(&self, group: &(usize, Option<String>), p: PId) -> Option<&Standing> {
        let g = self.groups.get(group)?;
        g.members.get(*g.index.get(&p)? as usize)
    }

    /// Whether every group's session is one of the first `n` sessions (a state's own).
    pub fn sessions_within(&self, n: usize) -> bool {
        self.groups.keys().all(|(s, _)| *s < n)
    }

    /// Whether every sum is exact (none beyond exact arithmetic, kept as a float).
    pub fn all_exact(&self) -> bool {
        self.groups.values().all(|g| {
            g.members.iter().all(|s| {
                s.total.exact().is_some() && s.max.as_ref().is_none_or(|m| m.exact().is_some())
            })
        })
    }

    /// Sums from [`to_groups`](Sums::to_groups)'s groups; `None` when a group is given twice or
    /// lists a participant twice (what `to_groups` never writes: a damaged or forged cache).
    pub fn from_groups(groups: Vec<((usize, Option<String>), Vec<Standing>)>) -> Option<Sums> {
        let mut out = BTreeMap::new();
        for (k, members) in groups {
            // (the list read kept as the members, not moved again one by one: a million
            // standings of 200 bytes)
            let mut index = FxMap::default();
            index.reserve(members.len());
            for (i, s) in members.iter().enumerate() {
                if index.insert(s.participant, i as u32).is_some() {
                    return None;
                }
            }
            if out.insert(k, Group { index, members }).is_some() {
                return None;
            }
        }
        Some(Sums { groups: out })
    }

    /// Take a pair-form board added before out again: exactly while a participant's sums are
    /// exact; a sum already beyond exact arithmetic (kept as a float, see `Total`) has the
    /// board's scores taken off in floats, as adding up the other boards would, within rounding.
    /// `false` when the board was never added (its group or one of its sides is not there).
    pub fn remove_board(&mut self, b: &BoardScore) -> bool {
        let Some(g) = self.groups.get_mut(&(b.session, b.section.clone())) else {
            return false;
        };
        for s in &b.sides {
            let Some(e) = g.get_mut(s.participant) else {
                return false;
            };
            e.total.add(-s.score);
            if let (Some(m), Some(top)) = (e.max.as_mut(), s.top) {
                m.add(-top);
            }
            // (a count already 0 is no sum of ours: a cache altered, refused)
            let Some(n) = e.boards.checked_sub(1) else {
                return false;
            };
            e.boards = n;
            if e.boards == 0 {
                g.remove(s.participant);
            }
        }
        if g.is_empty() {
            self.groups.remove(&(b.session, b.section.clone()));
        }
        true
    }
}
