//! Replaying what happens at the tables: results (seats, sections, matches, a board played once), team matches declared, fouled boards.

use super::*;

/// A result as the replay reads it, from an event or straight from the line.
pub(super) struct ResultView<'r> {
    pub(super) line: usize,
    pub(super) seq: usize,
    pub(super) session: &'r str,
    pub(super) section: Option<&'r str>,
    pub(super) board: u32,
    pub(super) round: Option<u32>,
    pub(super) table: Option<u32>,
    pub(super) ns: &'r str,
    pub(super) ew: &'r str,
    /// An individual session's South and West.
    pub(super) others: Option<&'r Others>,
    pub(super) play: &'r Play,
    /// The lead, when `play` leaves it out (a line read by the fast path).
    pub(super) lead: Option<&'r str>,
    pub(super) match_id: Option<&'r str>,
    pub(super) room: Option<Room>,
}

impl ResultView<'_> {
    fn play(&self) -> Play {
        let mut p = self.play.clone();
        if let Some(l) = self.lead {
            p.lead = Some(l.to_string());
        }
        p
    }

    /// The table's play as this result records it (scored later: no points yet).
    fn played(&self) -> Played {
        Played {
            seq: self.seq,
            line: self.line,
            play: self.play(),
            ns_points: 0,
            corrections: Vec::new(),
        }
    }
}

impl Replayer {
    /// C30: every id a declared pair, listed once, the NS pair of a table of that board already
    /// recorded; not in team forms (C35). A later event for the board replaces the earlier (C31).
    pub(super) fn fouled(&mut self, line: usize, fe: &FouledEv) {
        let Some(s) = self.session(line, &fe.session) else {
            return;
        };
        if let Some(why) = self.st.sessions[s].kind.fouled_refused {
            self.err(line, "session", why);
            return;
        }
        if !self.board_in_session(line, s, fe.board) {
            return;
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut groups = Vec::new();
        for g in &fe.groups {
            let mut grp = Vec::new();
            for id in g {
                let Some(p) = self.participant(line, "groups", id, None) else {
                    return;
                };
                if !seen.insert(p) {
                    self.err(line, "groups", format!("\"{id}\" is listed twice"));
                    return;
                }
                if !self.st.tables.contains_key(&(s, fe.board, p)) {
                    let sat = self
                        .st
                        .tables
                        .values()
                        .filter(|t| t.session == s && t.board == fe.board)
                        .find_map(|t| t.seat_of(p));
                    let why = if let Some(sat) = sat {
                        if self.st.sessions[s].kind.seated {
                            format!("\"{id}\" sat {sat} on board {}: in an individual session groups list the North players", fe.board)
                        } else {
                            format!(
                                "\"{id}\" sat {sat} on board {}: groups list the NS pairs",
                                fe.board
                            )
                        }
                    } else {
                        format!("\"{id}\" has no table on board {} of session \"{}\" recorded before this line", fe.board, fe.session)
                    };
                    self.err(line, "groups", why);
                    return;
                }
                grp.push(p);
            }
            groups.push(grp);
        }
        if self.st.fouled.contains_key(&(s, fe.board)) {
            self.notice(line, format!("a second fouled event for board {} of session \"{}\" replaces the first (conventions C31)", fe.board, fe.session));
        }
        self.st.fouled.insert((s, fe.board), (line, groups));
    }

    pub(super) fn match_event(&mut self, line: usize, m: &MatchDef) {
        let Some(s) = self.session(line, &m.session) else {
            return;
        };
        let Session { def, kind, .. } = &self.st.sessions[s];
        if !kind.in_matches {
            let (id, form) = (def.id.clone(), def.form.name());
            let teams: Vec<&str> = crate::score::Form::ALL
                .iter()
                .filter(|&&f| crate::kind::of(f).in_matches)
                .map(|f| f.name())
                .collect();
            self.err(
                line,
                "session",
                format!(
                    "session \"{id}\" has form \"{form}\"; matches belong to team forms ({})",
                    teams.join(", ")
                ),
            );
            return;
        }
        if self.st.matches.contains_key(&(s, m.id.clone())) {
            self.err(
                line,
                "id",
                format!(
                    "match \"{}\" is already declared in session \"{}\"",
                    m.id, m.session
                ),
            );
            return;
        }
        for b in &m.boards {
            if !self.board_in_session(line, s, *b) {
                return;
            }
        }
        let home = self.participant(line, "home", &m.home, None);
        let away = self.participant(line, "away", &m.away, None);
        let (Some(home), Some(away)) = (home, away) else {
            return;
        };
        self.pair_matches
            .entry((s, home.min(away), home.max(away)))
            .or_default()
            .push(m.id.clone());
        self.st.matches.insert(
            (s, m.id.clone()),
            Match {
                def: m.clone(),
                session: s,
                home,
                away,
                line,
            },
        );
    }

    pub(super) fn result(&mut self, env: &Envelope, r: &ResultEv) {
        self.result_of(&ResultView {
            line: env.line,
            seq: env.seq,
            session: &r.session,
            section: r.section.as_deref(),
            board: r.board,
            round: r.round,
            table: r.table,
            ns: &r.ns,
            ew: &r.ew,
            others: r.others.as_deref(),
            play: &r.play,
            lead: None,
            match_id: r.match_id.as_deref(),
            room: r.room,
        });
    }

    /// A result line read by the reader's fast path (crate::event::read::ResultRef): replayed
    /// as [`Replayer::result`] replays its event, without making the event.
    pub(super) fn result_ref(&mut self, r: &crate::event::read::ResultRef) {
        self.result_of(&ResultView {
            line: r.line,
            seq: r.seq,
            session: r.session,
            section: r.section,
            board: r.board,
            round: r.round,
            table: r.table,
            ns: r.ns,
            ew: r.ew,
            others: None,
            play: &r.play,
            lead: r.lead,
            match_id: r.match_id,
            room: r.room,
        });
    }

    fn result_of(&mut self, r: &ResultView) {
        let line = r.line;
        let Some(s) = self.session(line, r.session) else {
            return;
        };
        if !self.board_in_session(line, s, r.board) {
            return;
        }
        if !self.seating_as_kind(line, s, r.others.is_some(), "a result names the four players by seat (\"north\", \"south\", \"east\", \"west\") instead of \"ns\" and \"ew\"") {
            return;
        }
        let [f_ns, f_ew] = self.side_fields(s);
        let ns = self.participant(line, f_ns, r.ns, r.section);
        let ew = self.participant(line, f_ew, r.ew, r.section);
        let others = r.others.map(|o| {
            let south = self.participant(line, "south", &o.south, r.section);
            let west = self.participant(line, "west", &o.west, r.section);
            south.zip(west).map(|(a, b)| [a, b])
        });
        let (Some(ns), Some(ew)) = (ns, ew) else {
            return;
        };
        let others = match others {
            Some(None) => return,
            Some(Some(o)) => Some(o),
            None => None,
        };
        let Some(section) = self.table_section(line, s, ns, ew, r.section) else {
            return;
        };
        if !self.others_in_section(line, s, others, section.as_deref()) {
            return;
        }
        let Some(match_id) = self.check_match(line, s, r, ns, ew) else {
            return;
        };
        let key = (s, r.board, ns);
        if let Some(t) = self.st.tables.get_mut(&key) {
            // A ruling recorded before the result (board "not played") made the table: the
            // result fills it in, if it is the same table.
            if t.played.is_none() && t.ew == ew && t.others.as_deref() == others.as_ref() {
                t.played = Some(r.played());
                t.round = r.round;
                t.table = r.table;
                self.by_seq.insert(r.seq, key);
                self.notice(line, format!("result recorded after a ruling on the same table (board {}, NS \"{}\"): the ruling still applies", r.board, r.ns));
                return;
            }
            if let (None, Some(at), Some(o)) = (&t.played, t.others.as_deref(), others) {
                // An individual table a ruling made: the result's seats must be the ruling's.
                let want = [t.ew, at[0], at[1]];
                let got = [ew, o[0], o[1]];
                if let Some(i) = (0..3).find(|&i| want[i] != got[i]) {
                    let (w, g) = (
                        self.st.participant(want[i]).id.clone(),
                        self.st.participant(got[i]).id.clone(),
                    );
                    let seat = ["East", "South", "West"][i];
                    self.err(line, &seat.to_lowercase(), format!("the table of North \"{}\" on board {} was made by a ruling before this line with {seat} \"{w}\", not \"{g}\"", r.ns, r.board));
                    return;
                }
            }
        }
        if !self.seat_pairs(line, s, r.board, [ns, ew], others, key) {
            return;
        }
        self.by_seq.insert(r.seq, key);
        self.st.tables.insert(
            key,
            Table {
                round: r.round,
                table: r.table,
                played: Some(r.played()),
                match_id,
                room: r.room,
                others: others.map(Box::new),
                ..Table::seated(s, r.board, section, ns, ew)
            },
        );
    }

    /// The fields that name a table's NS and EW in a session: `ns`, `ew`, or an individual
    /// session's `north`, `east`.
    pub(super) fn side_fields(&self, s: usize) -> [&'static str; 2] {
        if self.st.sessions[s].kind.seated {
            ["north", "east"]
        } else {
            ["ns", "ew"]
        }
    }

    /// Whether an event names its table as its session's kind does (by seats in an individual
    /// session, by pairs otherwise); the error when not (`how`: what an individual session's
    /// event does instead).
    pub(super) fn seating_as_kind(
        &mut self,
        line: usize,
        s: usize,
        by_seats: bool,
        how: &str,
    ) -> bool {
        let kind = self.st.sessions[s].kind;
        if kind.seated == by_seats {
            return true;
        }
        let sid = self.st.sessions[s].def.id.clone();
        if kind.seated {
            self.err(
                line,
                "ns",
                format!("session \"{sid}\" is an {} session; {how}", kind.name),
            );
        } else {
            let seated = crate::kind::ALL
                .iter()
                .find(|k| k.seated)
                .expect("a seated kind");
            self.err(line, "north", format!("session \"{sid}\" is a {} session; \"north\", \"south\", \"east\" and \"west\" belong to {} sessions (kind \"{}\"): name the {}s with \"ns\" and \"ew\"", kind.name, seated.name, seated.declared, kind.noun));
        }
        false
    }

    /// With compare `section`, an individual table's South and West must be of its section.
    pub(super) fn others_in_section(
        &mut self,
        line: usize,
        s: usize,
        others: Option<[PId; 2]>,
        section: Option<&str>,
    ) -> bool {
        let (Some(others), Some(t)) = (others, section) else {
            return true;
        };
        if self.st.sessions[s].def.compare != Compare::Section {
            return true;
        }
        for (p, field) in others.into_iter().zip(["south", "west"]) {
            let who = self.st.participant(p);
            if let Some(e) = who.section.as_deref().filter(|e| *e != t) {
                let msg = format!("player \"{}\" is declared in section \"{e}\" but plays at a table of section \"{t}\"; with compare \"section\" each section is its own field", who.id);
                self.err(line, field, msg);
                return false;
            }
        }
        true
    }

    /// The seat keys of `plays` for a session: (NS, EW).
    pub(super) fn seats(&self, s: usize) -> (u8, u8) {
        self.st.sessions[s].kind.seats
    }

    /// A team-form result must name its match and room, and its teams must be the match's
    /// (open room: home NS; closed room: away NS). Returns the match id.
    pub(super) fn check_match(
        &mut self,
        line: usize,
        s: usize,
        r: &ResultView,
        ns: PId,
        ew: PId,
    ) -> Option<Option<String>> {
        let kind = self.st.sessions[s].kind;
        if !kind.in_matches {
            if r.match_id.is_some() || r.room.is_some() {
                let field = if r.match_id.is_some() {
                    "match"
                } else {
                    "room"
                };
                let sid = &self.st.sessions[s].def.id;
                let msg = format!("session \"{sid}\" is a {} session; \"match\" and \"room\" belong to team forms", kind.name);
                self.err(line, field, msg);
                return None;
            }
            return Some(None);
        }
        let sid = self.st.sessions[s].def.id.clone();
        let Some(mid) = &r.match_id else {
            self.err(
                line,
                "match",
                format!("missing; session \"{sid}\" is a team session: name the match"),
            );
            return None;
        };
        let Some(room) = r.room else {
            self.err(
                line,
                "room",
                "missing; expected \"open\" (home team NS) or \"closed\" (away team NS)",
            );
            return None;
        };
        let Some(m) = self.st.matches.get(&(s, mid.to_string())) else {
            self.err(
                line,
                "match",
                format!("no match \"{mid}\" was declared in session \"{sid}\" before this line"),
            );
            return None;
        };
        if m.def.boards.binary_search(&r.board).is_err() {
            self.err(
                line,
                "board",
                format!("board {} is not in match \"{mid}\"", r.board),
            );
            return None;
        }
        let (want_ns, want_ew) = match room {
            Room::Open => (m.home, m.away),
            Room::Closed => (m.away, m.home),
        };
        if ns != want_ns || ew != want_ew {
            let (a, b) = (
                self.st.participant(want_ns).id.clone(),
                self.st.participant(want_ew).id.clone(),
            );
            self.err(line, "ns", format!("in the {} room of match \"{mid}\" NS is \"{a}\" and EW \"{b}\" (the open room has the home team NS)", room.as_str()));
            return None;
        }
        Some(Some(mid.to_string()))
    }

    /// The section a table belongs to: the result's, else the NS pair's (C2); checked against
    /// the pairs' declared sections.
    pub(super) fn table_section(
        &mut self,
        line: usize,
        s: usize,
        ns: PId,
        ew: PId,
        given: Option<&str>,
    ) -> Option<Option<std::sync::Arc<str>>> {
        let st = &self.st;
        let ns_sec = st.participant(ns).section.as_deref();
        let ew_sec = st.participant(ew).section.as_deref();
        let section = given.or(ns_sec);
        if let (Some(g), Some(d)) = (given, ns_sec) {
            if g != d {
                let msg = format!(
                    "NS pair \"{}\" is declared in section \"{d}\", not \"{g}\"",
                    st.participant(ns).id
                );
                self.err(line, "section", msg);
                return None;
            }
        }
        if st.sessions[s].def.compare == Compare::Section {
            if let (Some(t), Some(e)) = (section, ew_sec) {
                if t != e {
                    let id = &st.participant(ew).id;
                    let msg = format!("EW pair \"{id}\" is declared in section \"{e}\" but plays at a table of section \"{t}\"; with compare \"section\" each section is its own field");
                    self.err(line, "ew", msg);
                    return None;
                }
            }
        }
        let section = section.map(|x| match &self.last_section {
            // Consecutive tables are mostly of one section.
            Some(a) if **a == *x => a.clone(),
            _ => {
                let a = match self.section_names.get(x) {
                    Some(a) => a.clone(),
                    None => {
                        let a: std::sync::Arc<str> = x.into();
                        self.section_names.insert(a.clone());
                        a
                    }
                };
                self.last_section = Some(a.clone());
                a
            }
        });
        Some(section)
    }

    /// Seat `ns` and `ew` at the table `key` of `board` (each in its own seat: a team plays a
    /// board once in each room), unless either has played the board already (each such error
    /// reported); whether they were seated.
    pub(super) fn seat_pairs(
        &mut self,
        line: usize,
        s: usize,
        board: u32,
        [ns, ew]: [PId; 2],
        others: Option<[PId; 2]>,
        key: TableKey,
    ) -> bool {
        let [f_ns, f_ew] = self.side_fields(s);
        let mut ok = self.check_not_played(line, s, board, ns, f_ns)
            & self.check_not_played(line, s, board, ew, f_ew);
        if let Some([so, we]) = others {
            ok &= self.check_not_played(line, s, board, so, "south")
                & self.check_not_played(line, s, board, we, "west");
        }
        if !ok {
            return false;
        }
        let (sn, se) = self.seats(s);
        self.plays.insert(s, board, ns, sn, key);
        self.plays.insert(s, board, ew, se, key);
        if let Some([so, we]) = others {
            self.plays.insert(s, board, so, sn, key);
            self.plays.insert(s, board, we, se, key);
        }
        true
    }

    pub(super) fn check_not_played(
        &mut self,
        line: usize,
        s: usize,
        board: u32,
        p: PId,
        field: &str,
    ) -> bool {
        let (sn, se) = self.seats(s);
        let seat = if field == "ns" { sn } else { se };
        if let Some(other_ns) = self.plays.get(s, board, p, seat) {
            let id = self.st.participant(p).id.clone();
            let other = self.st.participant(other_ns).id.clone();
            let session = self.st.sessions[s].def.id.clone();
            let kind = self.st.sessions[s].kind;
            let msg = if kind.seated {
                let sat = self
                    .st
                    .tables
                    .get(&(s, board, other_ns))
                    .and_then(|t| t.seat_of(p))
                    .unwrap_or("North");
                format!("{} \"{id}\" already played board {board} of session \"{session}\" (sitting {sat} at the table of North \"{other}\"); a {} plays a board at most once a session", kind.noun, kind.noun)
            } else if seat == 0 {
                format!("pair \"{id}\" already played board {board} of session \"{session}\" (at the table of NS \"{other}\"); a pair plays a board at most once a session")
            } else {
                format!("team \"{id}\" already played board {board} of session \"{session}\" sitting {} (at the table of NS \"{other}\"); a team plays a board once in each room", field.to_uppercase())
            };
            self.err(line, field, msg);
            return false;
        }
        true
    }
}
