//! The first reading of a PBN file, before any result is read: what the whole file says that
//! each game's rows need — what kind of file it is (score tables, games per table, hand
//! records), the championship (`[Event]`, `[Date]`, `[Site]` of the first game
//! that has them), the pairs' names of every `TotalScoreTable`, and how pair numbers become ids
//! (numbers repeated across sections, NS and EW numbered each from 1). Each game is read and
//! dropped: nothing of the rows is held.

use std::borrow::Cow;

use serde_json::Value;

use super::lex;
use super::slots::{Slots, NONE};
use crate::hash::FxMap;
use crate::import::draft::{self, Draft};

/// What the first reading found.
#[derive(Default)]
pub(super) struct First<'a> {
    event: Option<String>,
    date: Option<String>,
    site: Option<String>,
    /// Pair numbers (with `NS`/`EW` when the table says the direction) → players.
    pub names: FxMap<String, Vec<String>>,
    /// Beside `names` (the same keys), the players' federation member numbers a
    /// `TotalScoreTable` gives (`MemberID1`, `MemberID2`, ... as Ruter writes them).
    pub member_ids: FxMap<String, Vec<Option<String>>>,
    /// Every ScoreTable's pair cells: the section as written (`""` when the row has none)
    /// and the number as written.
    pub slots: Slots,
    /// Each slot: whether a row gave its section (a cell, not its absence).
    sectioned: Vec<bool>,
    /// The slots of each row of each game's first ScoreTable (the one whose rows are read),
    /// NS and EW (`NONE`: no cell), game after game.
    pub recorded: Vec<[u32; 2]>,
    dirs: Directions,
    /// A row's first tokens.
    tokens: Vec<Cow<'a, str>>,
    /// Whether some game has a ScoreTable (then the games' own play tags are not read).
    pub score_tables: bool,
    /// Whether some game records a table's play in its own tags (`[Contract]`, `[Result]`,
    /// `[Score]`): a file of games per table (`games`).
    pub played: bool,
    /// Whether some game names its room (`[Room]`): a team match's games.
    pub rooms: bool,
}

impl<'a> First<'a> {
    /// One game of the file.
    pub fn game(&mut self, g: &lex::Game<'a>, d: &mut Draft) {
        for (slot, name) in [
            (&mut self.event, "Event"),
            (&mut self.date, "Date"),
            (&mut self.site, "Site"),
        ] {
            if slot.is_none() {
                *slot = g.value(name).map(str::to_string);
            }
        }
        self.total_names(g, d);
        self.score_tables |= g
            .tables
            .iter()
            .any(|t| t.name.eq_ignore_ascii_case("ScoreTable"));
        self.played |= ["Contract", "Result", "Score"]
            .iter()
            .any(|t| g.value(t).is_some());
        self.rooms |= g.value("Room").is_some();
        let board = g
            .value("Board")
            .and_then(|b| b.parse::<u32>().ok())
            .unwrap_or(0);
        for (k, t) in g
            .tables
            .iter()
            .filter(|t| t.name.eq_ignore_ascii_case("ScoreTable"))
            .enumerate()
        {
            let (sec, ns, ew) = (t.col("Section"), t.col("PairId_NS"), t.col("PairId_EW"));
            let record = k == 0;
            let Some(last) = [sec, ns, ew].into_iter().flatten().max() else {
                if record {
                    let n = self.recorded.len() + t.rows().len();
                    self.recorded.resize(n, [NONE; 2]);
                }
                continue;
            };
            for &(_, text) in t.rows() {
                let row = &mut self.tokens;
                row.clear();
                lex::first_tokens(text, last + 1, row);
                // The pair ids as written and their sections: where numbers repeat across
                // sections, ids become the section followed by the number (`A12`).
                let section = sec.and_then(|i| row.get(i));
                let s = section.map(|x| &**x).unwrap_or("");
                let mut slot = |c: Option<usize>| {
                    let p = row.get(c?)?;
                    let k = self.slots.intern(s, p);
                    if k as usize == self.sectioned.len() {
                        self.sectioned.push(false);
                    }
                    self.sectioned[k as usize] |= section.is_some();
                    Some(k)
                };
                let (a, b) = (slot(ns), slot(ew));
                if record {
                    self.recorded.push([a.unwrap_or(NONE), b.unwrap_or(NONE)]);
                }
                if let (Some(a), Some(b)) = (a, b) {
                    self.dirs.table(board, a, b);
                }
            }
        }
    }

    /// The championship's name, date and place, and the session's name, into the draft.
    pub fn championship(&self, d: &mut Draft, s: usize) {
        if let Some(e) = &self.event {
            d.championship
                .insert("name".into(), Value::from(e.as_str()));
            d.session_mut(s).name = Some(e.clone());
        }
        if let Some(date) = &self.date {
            // `2026.01.01`; PBN writes unknown parts as `??`, which the log cannot hold.
            let parts: Vec<&str> = date.split('.').collect();
            if parts.len() == 3
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            {
                d.championship
                    .insert("date".into(), Value::from(parts.join("-")));
            }
        }
        if let Some(site) = &self.site {
            d.championship
                .insert("place".into(), Value::from(site.as_str()));
        }
    }

    /// Whether pair numbers repeat across sections: some number was given two sections.
    pub fn prefix(&self) -> bool {
        let mut first: FxMap<&str, &str> = FxMap::default();
        self.slots
            .cells()
            .zip(&self.sectioned)
            .filter(|(_, &given)| given)
            .any(|((sec, number), _)| *first.entry(number).or_insert(sec) != sec)
    }

    /// Whether NS and EW pairs are numbered each from 1 (`draft::per_direction`).
    pub fn per_direction(&self) -> bool {
        self.dirs.found
    }

    /// Pair numbers and names of the game's `TotalScoreTable`s (`PairId`, `Names`; with
    /// `Direction` `N-S`/`E-W`, keyed `1NS`, `1EW`), and the players' member numbers
    /// (`MemberID1`, `MemberID2`).
    fn total_names(&mut self, g: &lex::Game, d: &mut Draft) {
        for t in g
            .tables
            .iter()
            .filter(|t| t.name.eq_ignore_ascii_case("TotalScoreTable"))
        {
            for &(line, text) in t.rows() {
                let mut row = Vec::new();
                // (a row `lex::each` has read)
                let _ = lex::tokens_into(text, &mut row);
                if row.len() != t.columns.len() {
                    d.bad(
                        &format!("line {line}"),
                        format!(
                            "this TotalScoreTable row has {} tokens for {} columns",
                            row.len(),
                            t.columns.len()
                        ),
                    );
                    continue;
                }
                if let (Some(p), Some(n)) = (t.col("PairId"), t.col("Names")) {
                    let names = draft::players(&row[n]);
                    let row_p = row[p].to_string();
                    let dir = t
                        .col("Direction")
                        .map(|i| row[i].to_ascii_uppercase().replace('-', ""));
                    let key = match dir.as_deref() {
                        Some(d @ ("NS" | "EW")) => format!("{row_p}{d}"),
                        _ => row_p,
                    };
                    let ids: Vec<Option<String>> = (1..)
                        .map_while(|k| t.col(&format!("MemberID{k}")))
                        .map(|c| draft::member_id(&row[c]))
                        .collect();
                    if ids.len() == names.len() && ids.iter().any(Option::is_some) {
                        self.member_ids.insert(key.clone(), ids);
                    }
                    if !names.is_empty() {
                        self.names.insert(key, names);
                    }
                }
            }
        }
    }
}

/// `draft::per_direction` fed one table at a time: pairs are their slots, and what each
/// sat on each board is kept by slot.
#[derive(Default)]
struct Directions {
    /// Each board's pairs by slot: 1 when the pair sat NS, 2 when EW.
    boards: FxMap<u32, Vec<u8>>,
    found: bool,
}

impl Directions {
    fn table(&mut self, board: u32, a: u32, b: u32) {
        if self.found {
            return;
        }
        if a == b {
            self.found = true;
            return;
        }
        let (a, b) = (a as usize, b as usize);
        let sat = self.boards.entry(board).or_default();
        if sat.len() <= a.max(b) {
            sat.resize(a.max(b) + 1, 0);
        }
        sat[a] |= 1;
        sat[b] |= 2;
        // A pair on both sides of one board.
        self.found = sat[a] == 3 || sat[b] == 3;
    }
}
