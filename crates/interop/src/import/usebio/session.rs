//! A session's parts read from its units (each SECTION, and the session's element itself): the
//! units, the participants they declare with the ids they get, and their traveller lines.

use std::collections::BTreeMap;

use serde_json::Value;

use super::form::{has_lines, players};
use super::tree::Element;
use super::{Cx, Declared, Line, Problem, Resolver};
use crate::hash::FxMap;
use crate::score::Form;

/// Participants' ids by (section, number as written).
pub(super) type Ids<'n> = FxMap<(Option<&'n str>, &'n str), String>;

impl Cx<'_> {
    /// The units holding a session's participants and boards: each SECTION, and the session's
    /// element itself (first) when it holds some or there is no SECTION.
    pub(super) fn units<'e>(&mut self, el: &'e Element) -> Vec<(Option<String>, &'e Element)> {
        let mut units: Vec<(Option<String>, &Element)> = Vec::new();
        for s in el.all("SECTION") {
            let id = s
                .attr("SECTION_ID")
                .map(str::to_string)
                .or_else(|| s.text_of("SECTION_ID").map(str::to_string));
            match id {
                Some(id) if !id.is_empty() => units.push((Some(id), s)),
                _ => self.problem(s.path.clone(), "missing SECTION_ID; expected a section id"),
            }
        }
        if units.is_empty()
            || el.child("PARTICIPANTS").is_some()
            || el.all("BOARD").any(has_lines)
            || el.child("MATCH").is_some()
        {
            units.insert(0, (None, el));
        }
        units
    }

    /// The participants the units' PARTICIPANTS declare: PAIRs in a pairs event, TEAMs in a
    /// teams event.
    pub(super) fn declared_numbers(
        &mut self,
        units: &[(Option<String>, &Element)],
        form: Form,
    ) -> Vec<Declared> {
        let team = crate::kind::of(form).in_matches;
        let mut numbers: Vec<Declared> = Vec::new();
        for (section, u) in units {
            for parts in u.all("PARTICIPANTS") {
                for p in &parts.children {
                    if let Some(kind) = self.seated {
                        match p.name.as_str() {
                            "PLAYER" => match super::seated::declared_player(section, p) {
                                Ok(d) => numbers.push(d),
                                Err(m) => self.problem(p.path_of("PLAYER_NUMBER"), m.to_string()),
                            },
                            "PAIR" | "TEAM" => self.problem(
                                p.path.clone(),
                                format!(
                                    "a {} in an {} event; expected PLAYER elements",
                                    p.name, kind.declared
                                ),
                            ),
                            _ => {}
                        }
                        continue;
                    }
                    match (p.name.as_str(), team) {
                        ("PAIR", false) => {
                            let Some(n) = p.text_of("PAIR_NUMBER") else {
                                self.problem(
                                    p.path_of("PAIR_NUMBER"),
                                    "missing; expected the pair's number",
                                );
                                continue;
                            };
                            numbers.push((
                                section.clone(),
                                n.to_string(),
                                players(p),
                                None,
                                p.path.clone(),
                            ));
                        }
                        ("TEAM", true) => {
                            if let Some(d) = self.declared_team(section, p) {
                                numbers.push(d);
                            }
                        }
                        ("PAIR", true) => self.problem(
                            p.path.clone(),
                            format!("a PAIR in a {} event; expected TEAM elements", form.name()),
                        ),
                        ("TEAM", false) => self.problem(
                            p.path.clone(),
                            format!(
                                "a TEAM in a {} pairs event; expected PAIR elements",
                                form.name()
                            ),
                        ),
                        _ => {}
                    }
                }
            }
        }
        numbers
    }

    /// A TEAM of PARTICIPANTS: its id, its players (and its PAIRs' players) and its name.
    fn declared_team(&mut self, section: &Option<String>, p: &Element) -> Option<Declared> {
        let Some(n) = p
            .attr("TEAM_ID")
            .filter(|s| !s.is_empty())
            .or_else(|| p.text_of("TEAM_ID"))
        else {
            self.problem(p.path.clone(), "missing TEAM_ID; expected the team's id");
            return None;
        };
        let mut pl = players(p);
        for pair in p.all("PAIR") {
            pl.extend(players(pair));
        }
        let name = p
            .attr("TEAM_NAME")
            .filter(|s| !s.is_empty())
            .or_else(|| p.text_of("TEAM_NAME"))
            .map(str::to_string);
        Some((section.clone(), n.to_string(), pl, name, p.path.clone()))
    }

    /// Each declared participant's id (its section and number when `prefix`, else its number),
    /// and the participants with their ids; one declared twice is a problem.
    pub(super) fn participant_ids<'n>(
        &mut self,
        numbers: &'n [Declared],
        prefix: bool,
        team: bool,
    ) -> (Ids<'n>, Vec<(String, &'n Declared)>) {
        let mut ids: Ids = Default::default();
        // (where each is first declared)
        let mut first_at: FxMap<(Option<&str>, &str), &str> = Default::default();
        ids.reserve(numbers.len());
        first_at.reserve(numbers.len());
        let mut participants: Vec<(String, &Declared)> = Vec::with_capacity(numbers.len());
        for d in numbers {
            let (section, n, _, _, path) = d;
            let key = (section.as_deref(), n.as_str());
            if let Some(first) = first_at.get(&key) {
                self.problem(
                    path.clone(),
                    format!(
                        "{} {n} is declared twice (first at {first})",
                        if self.seated.is_some() {
                            "player"
                        } else if team {
                            "team"
                        } else {
                            "pair"
                        }
                    ),
                );
                continue;
            }
            first_at.insert(key, path);
            let id = match (prefix, section) {
                (true, Some(s)) => format!("{s}{n}"),
                _ => n.clone(),
            };
            ids.insert(key, id.clone());
            participants.push((id, d));
        }
        (ids, participants)
    }

    /// The units' traveller lines, and a teams event's matches (`team_match`).
    pub(super) fn session_lines<'t>(
        &mut self,
        units: &'t [(Option<String>, &'t Element)],
        (ids, declared): (&'t Ids<'t>, bool),
        form: Form,
        (sid, knockout): (&str, bool),
    ) -> (Vec<Line<'t>>, Vec<Value>) {
        let mut lines: Vec<Line> = Vec::with_capacity(
            units
                .iter()
                .flat_map(|(_, u)| {
                    u.all("BOARD")
                        .chain(u.all("MATCH").flat_map(|m| m.all("BOARD")))
                })
                .map(|b| b.lines.len())
                .sum(),
        );
        let mut matches: Vec<Value> = Vec::new();
        let _lines = tracing::info_span!("usebio_lines").entered();
        for (section, u) in units {
            let resolve = Resolver {
                ids,
                declared,
                section: section.as_deref(),
            };
            if crate::kind::of(form).in_matches {
                for b in u.all("BOARD").filter(|b| has_lines(b)) {
                    self.problem(
                        b.path.clone(),
                        "a board of a teams event outside a MATCH; expected its traveller lines inside MATCH",
                    );
                }
                let mut seen: BTreeMap<(String, String, Vec<u32>), String> = BTreeMap::new();
                for m in u.all("MATCH") {
                    self.team_match(
                        m,
                        sid,
                        &resolve,
                        knockout,
                        &mut seen,
                        &mut matches,
                        &mut lines,
                    );
                }
            } else {
                if let Some(m) = u.child("MATCH") {
                    self.problem(
                        m.path.clone(),
                        format!(
                            "a MATCH in a {} pairs event; expected BOARD elements",
                            form.name()
                        ),
                    );
                }
                if self.seated.is_some() {
                    self.seated_lines(u, section.as_deref(), &resolve, &mut lines);
                } else {
                    self.pairs_lines(u, section.as_deref(), &resolve, &mut lines);
                }
            }
        }
        (lines, matches)
    }

    /// A pairs unit's traveller lines, added to `lines`. Each board's lines read apart (in
    /// parallel: a million lines), each board by a reader of its own whose problems are added
    /// in the boards' order: the very lines and problems, in the very order, of one reading.
    fn pairs_lines<'t>(
        &mut self,
        u: &'t Element,
        section: Option<&'t str>,
        resolve: &Resolver<'t>,
        lines: &mut Vec<Line<'t>>,
    ) {
        let boards: Vec<&Element> = u.all("BOARD").filter(|b| has_lines(b)).collect();
        let (file, req) = (self.file, self.req);
        type Board<'l> = (Vec<Line<'l>>, [Vec<Problem>; 3]);
        let read: Vec<Board> = {
            use rayon::prelude::*;
            boards
                .par_iter()
                .map(|b| {
                    let mut cx = Cx::new(file, req);
                    let mut out = Vec::with_capacity(b.lines.len());
                    if let Some(board) = cx.board_number(b) {
                        for tl in b.lines() {
                            let ns = cx.pair_of(tl, "NS_PAIR_NUMBER", resolve);
                            let ew = cx.pair_of(tl, "EW_PAIR_NUMBER", resolve);
                            if let (Some(ns), Some(ew)) = (ns, ew) {
                                if let Some(l) = cx.line(tl, board, (ns, ew), section, None) {
                                    out.push(l);
                                }
                            }
                        }
                    }
                    (out, [cx.problems, cx.skipped, cx.notices])
                })
                .collect()
        };
        for (board_lines, [problems, skipped, notices]) in read {
            lines.extend(board_lines);
            self.problems.extend(problems);
            self.skipped.extend(skipped);
            self.notices.extend(notices);
        }
    }
}
