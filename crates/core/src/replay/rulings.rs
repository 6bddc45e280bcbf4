//! Replaying the director's events: rulings (and their withdrawals), corrections and penalties.

use super::*;

impl Replayer {
    /// A `ruling`: its table (created when no result was recorded), the ruling it supersedes
    /// or overrides, and its record.
    pub(super) fn ruling(&mut self, env: &Envelope, r: &RulingEv) {
        let line = env.line;
        if self.st.ruling_by_id(&r.id).is_some() {
            self.err(
                line,
                "id",
                format!("ruling \"{}\" already exists; ruling ids are unique", r.id),
            );
            return;
        }
        let Some(s) = self.session(line, &r.session) else {
            return;
        };
        if !self.board_in_session(line, s, r.board) {
            return;
        }
        if !self.seating_as_kind(line, s, r.by_north, "a ruling names its table by \"north\" (and, when the board was not played there, \"south\", \"east\" and \"west\")") {
            return;
        }
        let [f_ns, f_ew] = self.side_fields(s);
        let Some(ns) = self.participant(line, f_ns, &r.ns, None) else {
            return;
        };
        let key = (s, r.board, ns);
        let ew_given = match &r.ew {
            Some(ew) => match self.participant(line, f_ew, ew, None) {
                Some(p) => Some(p),
                None => return,
            },
            None => None,
        };
        let others = match r.others.as_deref() {
            Some(o) => {
                let south = self.participant(line, "south", &o.south, None);
                let west = self.participant(line, "west", &o.west, None);
                let (Some(a), Some(b)) = (south, west) else {
                    return;
                };
                Some([a, b])
            }
            None => None,
        };
        if self.ruling_table(line, r, key, ew_given, others).is_none() {
            return;
        }
        let idx = self.st.rulings.len();
        if let Some(old) = &r.supersedes {
            if self.supersede(line, r, old, key).is_none() {
                return;
            }
        }
        let t = self.st.tables.get_mut(&key).expect("table exists");
        if let Some(&prev) = t.rulings.last() {
            let prev_id = self.st.rulings[prev].ev.id.clone();
            self.st.rulings[prev].status = RulingStatus::Overridden { by: r.id.clone() };
            self.notice(line, format!("ruling \"{}\" is a second ruling for the table of NS \"{}\" on board {} without \"supersedes\": it replaces \"{prev_id}\" (conventions C4)", r.id, r.ns, r.board));
        }
        let t = self.st.tables.get_mut(&key).expect("table exists");
        t.rulings.push(idx);
        self.st.ruling_ids.insert(r.id.clone(), idx);
        self.st.rulings.push(RulingRecord {
            ev: r.clone(),
            seq: env.seq,
            line,
            at: env.at.clone(),
            by: env.by.clone(),
            note: env.note.clone(),
            key,
            status: RulingStatus::InForce,
        });
    }

    /// The table a ruling is for: checked against its EW pair when it exists, created when it
    /// does not (board not played, C2); `None` after an error.
    fn ruling_table(
        &mut self,
        line: usize,
        r: &RulingEv,
        key: TableKey,
        ew_given: Option<PId>,
        others: Option<[PId; 2]>,
    ) -> Option<()> {
        let (s, _, ns) = key;
        match self.st.tables.get(&key) {
            Some(t) => {
                if let (Some(o), Some(at)) = (others, t.others.as_deref()) {
                    // A ruling that names every seat of a table that exists: they must be its.
                    let want = [t.ew, at[0], at[1]];
                    let got = [ew_given.unwrap_or(t.ew), o[0], o[1]];
                    if let Some(i) = (0..3).find(|&i| want[i] != got[i]) {
                        let (w, g) = (
                            self.st.participant(want[i]).id.clone(),
                            self.st.participant(got[i]).id.clone(),
                        );
                        let seat = ["East", "South", "West"][i];
                        self.err(line, &seat.to_lowercase(), format!("the table of North \"{}\" on board {} had {seat} \"{w}\", not \"{g}\"", r.ns, r.board));
                        return None;
                    }
                }
                if let Some(ew) = ew_given {
                    if ew != t.ew {
                        let (want, got) = (
                            self.st.participant(t.ew).id.clone(),
                            r.ew.clone().unwrap_or_default(),
                        );
                        self.err(line, "ew", format!("the table of NS \"{}\" on board {} had EW \"{want}\", not \"{got}\"", r.ns, r.board));
                        return None;
                    }
                }
            }
            None => {
                self.ruled_table(line, r, s, ns, ew_given, others)?;
            }
        }
        Some(())
    }

    /// The table of a ruling with no result, created (board not played, C2); `None` after an
    /// error.
    fn ruled_table(
        &mut self,
        line: usize,
        r: &RulingEv,
        s: usize,
        ns: PId,
        ew_given: Option<PId>,
        others: Option<[PId; 2]>,
    ) -> Option<()> {
        let key = (s, r.board, ns);
        // A ruling with no result creates the table (board not played, C2).
        if r.by_north && others.is_none() {
            self.err(line, "south", format!("missing; no result was recorded for North \"{}\" on board {} of session \"{}\", so the ruling must name \"south\", \"east\" and \"west\" to create the table", r.ns, r.board, r.session));
            return None;
        }
        let Some(ew) = ew_given else {
            self.err(line, "ew", format!("missing; no result was recorded for NS \"{}\" on board {} of session \"{}\", so the ruling must name the EW pair to create the table", r.ns, r.board, r.session));
            return None;
        };
        let section = self.table_section(line, s, ns, ew, None)?;
        if !self.others_in_section(line, s, others, section.as_deref()) {
            return None;
        }
        // C2: in team forms the table is in the match between the two teams.
        let (match_id, room) = if self.st.sessions[s].kind.in_matches {
            self.ruled_match(line, r, s, ns, ew)?
        } else {
            (None, None)
        };
        if !self.seat_pairs(line, s, r.board, [ns, ew], others, key) {
            return None;
        }
        self.st.tables.insert(
            key,
            Table {
                match_id,
                room,
                others: others.map(Box::new),
                ..Table::seated(s, r.board, section, ns, ew)
            },
        );
        Some(())
    }

    /// The match (and room) of a team session a ruled table with no result is in: the match
    /// between the two teams that has the board; `None` after an error.
    fn ruled_match(
        &mut self,
        line: usize,
        r: &RulingEv,
        s: usize,
        ns: PId,
        ew: PId,
    ) -> Option<(Option<String>, Option<Room>)> {
        let found = self
            .pair_matches
            .get(&(s, ns.min(ew), ns.max(ew)))
            .into_iter()
            .flatten()
            .filter_map(|id| self.st.matches.get(&(s, id.clone())))
            .filter(|m| m.def.boards.binary_search(&r.board).is_ok())
            .min_by(|a, b| a.def.id.cmp(&b.def.id));
        match found {
            Some(m) => Some((
                Some(m.def.id.clone()),
                Some(if m.home == ns {
                    Room::Open
                } else {
                    Room::Closed
                }),
            )),
            None => {
                let ew_id = r.ew.clone().unwrap_or_default();
                self.err(
                    line,
                    "ns",
                    format!(
                        "no match of session \"{}\" between \"{}\" and \"{ew_id}\" has board {}",
                        r.session, r.ns, r.board
                    ),
                );
                None
            }
        }
    }

    /// A superseding ruling: the ruling `old` it supersedes, checked and marked; `None` after
    /// an error.
    fn supersede(&mut self, line: usize, r: &RulingEv, old: &str, key: TableKey) -> Option<()> {
        let Some(oi) = self.st.ruling_ids.get(old).copied() else {
            self.err(
                line,
                "supersedes",
                format!("no ruling \"{old}\" was recorded before this line"),
            );
            return None;
        };
        if self.st.rulings[oi].key != key {
            self.err(line, "supersedes", format!("ruling \"{old}\" is for another table (a superseding ruling must be for the same session, board and NS pair)"));
            return None;
        }
        match self.st.rulings[oi].status.clone() {
            RulingStatus::Superseded { by } => {
                self.err(line, "supersedes", format!("ruling \"{old}\" was already superseded by \"{by}\"; supersede \"{by}\" instead"));
                return None;
            }
            _ => {
                self.st.rulings[oi].status = RulingStatus::Superseded { by: r.id.clone() };
                if let Some(t) = self.st.tables.get_mut(&key) {
                    t.rulings.retain(|&x| x != oi);
                }
            }
        }
        Some(())
    }

    pub(super) fn withdraw(&mut self, env: &Envelope, id: &str) {
        let line = env.line;
        let Some(i) = self.st.ruling_ids.get(id).copied() else {
            self.err(
                line,
                "ruling",
                format!("no ruling \"{id}\" was recorded before this line"),
            );
            return;
        };
        match self.st.rulings[i].status.clone() {
            RulingStatus::Withdrawn { .. } => {
                self.err(
                    line,
                    "ruling",
                    format!("ruling \"{id}\" was already withdrawn"),
                );
                return;
            }
            RulingStatus::Superseded { by } => {
                self.err(line, "ruling", format!("ruling \"{id}\" was superseded by \"{by}\"; withdraw \"{by}\" instead (a superseded ruling does not come back, C4)"));
                return;
            }
            _ => {}
        }
        self.st.rulings[i].status = RulingStatus::Withdrawn { seq: env.seq };
        let key = self.st.rulings[i].key;
        let t = self.st.tables.get_mut(&key).expect("ruled table exists");
        t.rulings.retain(|&x| x != i);
        // An overridden ruling under it applies again.
        if let Some(&prev) = t.rulings.last() {
            self.st.rulings[prev].status = RulingStatus::InForce;
        }
        if t.rulings.is_empty() && t.played.is_none() {
            // The board was never played there and no ruling is left: the table goes.
            let (ns, ew, others) = (t.ns, t.ew, t.others.as_deref().copied());
            self.st.tables.remove(&key);
            let (sn, se) = self.seats(key.0);
            self.plays.remove(key.0, key.1, ns, sn);
            self.plays.remove(key.0, key.1, ew, se);
            if let Some([south, west]) = others {
                self.plays.remove(key.0, key.1, south, sn);
                self.plays.remove(key.0, key.1, west, se);
            }
            self.notice(line, format!("withdrawing \"{id}\" leaves board {} unplayed at the table of NS \"{}\": it is not scored there", key.1, self.st.participant(ns).id));
        }
    }

    pub(super) fn correction(&mut self, env: &Envelope, c: &CorrectionEv) {
        let line = env.line;
        let Some(&key) = self.by_seq.get(&c.result) else {
            self.err(line, "result", format!("expected the seq of an earlier \"result\" event, found {} (seq counts event lines from 1, skipping blank and // lines)", c.result));
            return;
        };
        let t = self
            .st
            .tables
            .get_mut(&key)
            .expect("table of a result exists");
        let played = t.played.as_mut().expect("result exists");
        correct(&mut played.play, c);
        played.corrections.push(env.seq);
        if c.contract.is_some()
            || c.declarer.is_some()
            || c.tricks.is_some()
            || c.result_offset.is_some()
            || c.score.is_some()
        {
            self.corrected_at.insert(key, line);
        }
        let problems = check_play(&played.play);
        let ruled = !t.rulings.is_empty();
        for (field, msg) in problems {
            self.err(
                line,
                field,
                format!(
                    "after this correction the result of seq {}: {msg}",
                    c.result
                ),
            );
        }
        if ruled {
            self.notice(line, format!("correction of seq {} on a table with a ruling in force: the ruling still applies; the corrected result is kept on record", c.result));
        }
    }

    pub(super) fn penalty(&mut self, env: &Envelope, p: &PenaltyEv) {
        let line = env.line;
        let Some(s) = self.session(line, &p.session) else {
            return;
        };
        if let Some(b) = p.board {
            if !self.board_in_session(line, s, b) {
                return;
            }
        }
        if let Some(mid) = &p.match_id {
            if !self.st.matches.contains_key(&(s, mid.clone())) {
                self.err(
                    line,
                    "match",
                    format!("no match \"{mid}\" in session \"{}\"", p.session),
                );
                return;
            }
        }
        let Some(pid) = self.st.pid(&p.participant) else {
            self.err(
                line,
                "participant",
                format!(
                    "participant \"{}\" is not known (declare it, or name a pair that has played)",
                    p.participant
                ),
            );
            return;
        };
        self.st.penalties.push(Penalty {
            ev: p.clone(),
            session: s,
            participant: pid,
            seq: env.seq,
            note: env.note.clone(),
        });
    }
}
