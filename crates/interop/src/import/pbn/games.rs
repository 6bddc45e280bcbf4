//! PBN files that record each table as a game of its own, with no ScoreTable: the game's
//! `[Contract]`, `[Declarer]`, `[Result]` (the tricks declarer took, PBN 2.1 §3.4.15) and
//! `[Score]` (§4.2.1) are the table's result. Vugraph and team-match records (BBO's vugraph
//! archive, world championships' records) say each game's room (`[Room "Open"]`,
//! `[Room "Closed"]`): the file is then a team match, its teams `[HomeTeam]` and `[VisitTeam]`
//! (the home team sits NS in the open room, PBN 2.1 §4.1.7), or "home" and "visitors" when the
//! file does not name them. Without rooms the games are a pairs session's tables (travellers
//! turned into games, BBO's pairs records): each side's pair is its `[PairNS]`/`[PairEW]`
//! (§4.3.2), else its players' names (`[North]` and `[South]`; one name in both seats is the
//! pair's own name, as `Para-1`).
//!
//! Real shapes read (docs/interop.md): BBO's vugraph games (`[Room]`, four players, `[Result]`,
//! `[Score "NS -150"]`), championship records with `[HomeTeam]`/`[VisitTeam]` and `[Room]`
//! (bridge-bots' `sample.pbn`), and pbntools' travellers (`[North "Para-1"]` ...).

use super::super::draft::{self, Draft, Play, TableView};
use super::{board_of, deal_of, lex, scoring};
use crate::bridge::{parse_result_offset, parse_seat, Seat};
use crate::hash::FxMap;
use crate::import::Request;

/// What the games read so far said.
pub(super) struct Games {
    s: usize,
    /// The games are a team match's (some game gives `[Room]`).
    teams: bool,
    /// The first `[Scoring]` and its line.
    scoring: Option<(String, usize)>,
    /// Teams: each team's id (`T1`, `T2`, ... as met) by its name (`\0home`, `\0visitors`
    /// for a team the file does not name).
    team_ids: FxMap<String, String>,
    /// Pairs named by their players: each pair's id (`1`, `2`, ... as met) by its two names
    /// in order.
    pair_ids: FxMap<[String; 2], String>,
}

impl Games {
    pub fn new(s: usize, teams: bool) -> Games {
        Games {
            s,
            teams,
            scoring: None,
            team_ids: Default::default(),
            pair_ids: Default::default(),
        }
    }

    /// One game: its board, deal, and the table's result when it has one.
    pub fn game(&mut self, d: &mut Draft, req: &Request, g: &lex::Game) {
        let s = self.s;
        let played = ["Contract", "Result", "Score"]
            .iter()
            .find_map(|t| g.value(t).and(g.tag(t)));
        scoring(&mut self.scoring, (d, s), req, g, self.teams);
        let Some(what) = played else {
            // A game without a table's play (a board no table played, a file's header game):
            // nothing of the session's (its deal, if any, is a board the session does not
            // play; a played board's games carry its deal).
            return;
        };
        let at = format!("line {}", what.line);
        let what = format!("[{}]", what.name);
        let Some(board) = board_of(d, g, (&what, g.line)) else {
            return;
        };
        let Some(vul) = deal_of(d, s, g, board) else {
            return;
        };
        // The table's play: [Declarer] (`^S`: declarer and dummy swapped, still South),
        // [Contract], [Result] and [Score].
        let declarer = g.value("Declarer").map(|x| x.trim_start_matches('^'));
        let by = declarer.and_then(|x| parse_seat(x).ok());
        let score = match g.value("Score").map(|v| ns_score(v, by)) {
            None => None,
            Some(Ok(x)) => Some(x),
            Some(Err(m)) => {
                d.bad(&at, m.to_string());
                return;
            }
        };
        let result = g.value("Result");
        let tricks = |c: &crate::bridge::Contract| match result {
            None => Ok(None),
            Some(r) => tricks_of(r, c, by).map(Some),
        };
        const LABELS: draft::PlayLabels = draft::PlayLabels {
            contract: "[Contract]",
            declarer: "[Declarer]",
            tricks: "[Result]",
        };
        let play = Play {
            score,
            ..Play::default()
        };
        let taken = draft::play_or_score(play, g.value("Contract"), declarer, tricks, vul, &LABELS);
        let (play, slip) = match taken {
            Ok(t) => t.split(),
            Err(m) => {
                d.bad(&at, m.to_string());
                return;
            }
        };
        let number = |tag: &str| g.value(tag).and_then(|v| v.parse::<u32>().ok());
        let (round, table) = (number("Round"), number("Table"));
        let place = at.clone();
        d.take(&place, slip, |d| {
            if self.teams {
                self.team_table(d, g, (board, round, table), play, at);
            } else {
                self.pair_table(d, g, (board, round, table), play, at);
            }
        });
    }

    /// A team match's table: the teams of the game's match, the side each sat in its room.
    fn team_table(
        &mut self,
        d: &mut Draft,
        g: &lex::Game,
        (board, round, table): (u32, Option<u32>, Option<u32>),
        play: Play,
        at: String,
    ) {
        let open = match g.value("Room").map(str::to_ascii_lowercase).as_deref() {
            Some("open") => true,
            Some("closed") => false,
            Some(_) => {
                let line = g.tag("Room").map_or(g.line, |t| t.line);
                let m = format!(
                    "[Room \"{}\"]: expected \"Open\" or \"Closed\"",
                    g.value("Room").unwrap_or_default()
                );
                d.bad(&format!("line {line}"), m);
                return;
            }
            None => {
                d.bad(
                    &at,
                    "no [Room]: the other games of this file say which room of a team match they were played in (\"Open\" or \"Closed\"); this one must too",
                );
                return;
            }
        };
        let id = |name: Option<&str>, unnamed: &str, ids: &mut FxMap<String, String>| {
            let key = name.map_or_else(|| format!("\u{0}{unnamed}"), str::to_string);
            let n = ids.len() + 1;
            ids.entry(key).or_insert_with(|| format!("T{n}")).clone()
        };
        let (home_name, visit_name) = (g.value("HomeTeam"), g.value("VisitTeam"));
        let home = id(home_name, "home", &mut self.team_ids);
        let visit = id(visit_name, "visitors", &mut self.team_ids);
        let players = |seats: [&str; 2]| -> Vec<String> {
            seats
                .iter()
                .filter_map(|s| g.value(s))
                .map(str::to_string)
                .collect()
        };
        let (ns_players, ew_players) = (players(["North", "South"]), players(["East", "West"]));
        // The home team sits NS in the open room, EW in the closed room.
        let ((ns, ns_name), (ew, ew_name)) = if open {
            ((&home, home_name), (&visit, visit_name))
        } else {
            ((&visit, visit_name), (&home, home_name))
        };
        if ns == ew {
            let m = format!(
                "[HomeTeam] and [VisitTeam] are the same team ({})",
                home_name.unwrap_or_default()
            );
            d.bad(&at, m);
            return;
        }
        d.team(ns, ns_name, &ns_players, &at);
        d.team(ew, ew_name, &ew_players, &at);
        let (m, _) = d.team_match(self.s, (&home, &visit), &at);
        let t = TableView {
            section: None,
            board,
            round,
            table,
            ns,
            ew,
            others: None,
        };
        let row = draft::result_row(t, &play);
        d.push_team(self.s, (&m, board), [ns, ew], row, at);
    }

    /// A pairs session's table: each side's pair, then its result.
    fn pair_table(
        &mut self,
        d: &mut Draft,
        g: &lex::Game,
        (board, round, table): (u32, Option<u32>, Option<u32>),
        play: Play,
        at: String,
    ) {
        let section = g.value("Section").map(str::to_string);
        let mut sides = Vec::with_capacity(2);
        for (tag, seats, dir) in [
            ("PairNS", ["North", "South"], "NS"),
            ("PairEW", ["East", "West"], "EW"),
        ] {
            match self.pair_of(g, tag, seats) {
                Some((id, players)) => {
                    d.pair(&id, section.as_deref(), players, &at);
                    sides.push(id);
                }
                None => {
                    let m = format!(
                        "no {dir} pair: give [{tag}], or the players' names in [{}] and [{}]",
                        seats[0], seats[1]
                    );
                    d.bad(&at, m);
                    return;
                }
            }
        }
        let t = draft::Table {
            section,
            board,
            round,
            table,
            ns: sides[0].clone(),
            ew: sides[1].clone(),
            others: None,
        };
        d.result(self.s, t, play, &at);
    }

    /// One side's pair: its `[PairNS]`/`[PairEW]`, else the pair its players' names make
    /// (numbered as met; one name in both seats is the pair's own name), with its players.
    fn pair_of(
        &mut self,
        g: &lex::Game,
        tag: &str,
        seats: [&str; 2],
    ) -> Option<(String, Vec<String>)> {
        let names: Vec<String> = seats
            .iter()
            .filter_map(|s| g.value(s))
            .map(str::to_string)
            .collect();
        if let Some(id) = g.value(tag) {
            return Some((id.to_string(), names));
        }
        match names.as_slice() {
            [] => None,
            [a, b] if a == b => Some((a.clone(), Vec::new())),
            _ => {
                let mut key = [names[0].clone(), names.get(1).cloned().unwrap_or_default()];
                key.sort();
                let n = self.pair_ids.len() + 1;
                let id = self
                    .pair_ids
                    .entry(key)
                    .or_insert_with(|| n.to_string())
                    .clone();
                Some((id, names))
            }
        }
    }
}

/// A game's `[Score]` or `[Result]` that cannot be read (its value as found; `Result`'s
/// quoted).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum BadPlayTag {
    #[error("[Score \"{0}\"]: expected NS points such as \"NS 420\", \"EW 50\" or the declarer's \"420\"")]
    Score(String),
    #[error("[Score \"{0}\"]: {1} points is not a bridge score")]
    Points(String, i32),
    #[error("[Score \"{0}\"]: a score without NS or EW is the declarer's, and [Declarer] does not say who declared")]
    NoSide(String),
    #[error("[Score \"{0}\"]: NS's and EW's scores disagree")]
    Disagree(String),
    #[error("[Result]: expected the tricks declarer took (0-13), found {0}")]
    Result(String),
    #[error("[Result \"{0}\"]: NS's or EW's tricks need [Declarer]")]
    NoDeclarer(String),
    #[error("[Result \"{0}\"]: NS's and EW's tricks do not add up to 13")]
    Tricks(String),
}

/// `[Score]` as NS points: `NS 420`, `EW -420`, `NS 420 EW -420`, or a bare number, the
/// declarer's side's (PBN 2.1 §4.2.1; `by`: the declarer, when [Declarer] reads).
fn ns_score(value: &str, by: Option<Seat>) -> Result<i32, BadPlayTag> {
    let bad = || BadPlayTag::Score(value.to_string());
    let number = |t: &str| -> Result<i32, BadPlayTag> {
        match t.trim_start_matches('+').parse::<i32>() {
            Ok(x) if x.abs() <= 10_000 => Ok(x),
            Ok(x) => Err(BadPlayTag::Points(value.to_string(), x)),
            Err(_) => Err(bad()),
        }
    };
    let side = |s: &str, x: &str| -> Result<i32, BadPlayTag> {
        match s.to_ascii_uppercase().as_str() {
            "NS" => number(x),
            "EW" => number(x).map(|v| -v),
            _ => Err(bad()),
        }
    };
    let t: Vec<&str> = value.split_whitespace().collect();
    match t.as_slice() {
        [x] => {
            let v = number(x)?;
            match by {
                Some(b) if !b.is_ns() => Ok(-v),
                Some(_) => Ok(v),
                None if v == 0 => Ok(0),
                None => Err(BadPlayTag::NoSide(value.to_string())),
            }
        }
        [s, x] => side(s, x),
        [s1, x1, s2, x2] => {
            let (a, b) = (side(s1, x1)?, side(s2, x2)?);
            if a == b && !s1.eq_ignore_ascii_case(s2) {
                Ok(a)
            } else {
                Err(BadPlayTag::Disagree(value.to_string()))
            }
        }
        _ => Err(bad()),
    }
}

/// `[Result]` as the tricks declarer took: a number 0–13, or NS's or EW's tricks (`NS 9`,
/// `EW 4`, `NS 9 EW 4`; `^` before it: the players agreed on a wrong number, which stands),
/// or (some producers) `=`, `+1`, `-2` against the contract.
fn tricks_of(value: &str, c: &crate::bridge::Contract, by: Option<Seat>) -> Result<u8, BadPlayTag> {
    let v = value.trim().trim_start_matches('^').trim();
    let bad = || BadPlayTag::Result(crate::import::quote(value));
    let n = |t: &str| {
        Some(t)
            .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse::<u8>().ok())
            .filter(|&n| n <= 13)
            .ok_or_else(bad)
    };
    let t: Vec<&str> = v.split_whitespace().collect();
    match t.as_slice() {
        [x] => n(x).or_else(|e| {
            parse_result_offset(x)
                .ok()
                .and_then(|o| c.tricks_for_offset(o))
                .ok_or(e)
        }),
        [..] if t.len() == 2 || t.len() == 4 => {
            let Some(by) = by else {
                return Err(BadPlayTag::NoDeclarer(value.to_string()));
            };
            let mine = if by.is_ns() { "NS" } else { "EW" };
            let theirs = if by.is_ns() { "EW" } else { "NS" };
            let mut got = None;
            for pair in t.chunks(2) {
                let k = n(pair[1])?;
                let own = if pair[0].eq_ignore_ascii_case(mine) {
                    k
                } else if pair[0].eq_ignore_ascii_case(theirs) {
                    13 - k
                } else {
                    return Err(bad());
                };
                if got.is_some_and(|g| g != own) {
                    return Err(BadPlayTag::Tricks(value.to_string()));
                }
                got = Some(own);
            }
            got.ok_or_else(bad)
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::{parse_contract, Bid};

    fn four_spades() -> crate::bridge::Contract {
        match parse_contract("4S").unwrap() {
            Bid::Contract(c) => c,
            Bid::Pass => unreachable!(),
        }
    }

    #[test]
    fn scores_as_pbn_writes_them() {
        assert_eq!(ns_score("NS -150", None), Ok(-150));
        assert_eq!(ns_score("EW 140", None), Ok(-140));
        assert_eq!(ns_score("NS 420 EW -420", None), Ok(420));
        assert_eq!(ns_score("420", Some(Seat::E)), Ok(-420));
        assert_eq!(ns_score("420", Some(Seat::S)), Ok(420));
        assert!(ns_score("420", None).is_err());
        assert!(ns_score("NS 420 EW 420", None).is_err());
        assert!(ns_score("NS x", None).is_err());
    }

    #[test]
    fn results_as_pbn_writes_them() {
        let c = four_spades();
        assert_eq!(tricks_of("10", &c, Some(Seat::N)), Ok(10));
        assert_eq!(tricks_of("^9", &c, Some(Seat::N)), Ok(9));
        assert_eq!(tricks_of("EW 4", &c, Some(Seat::N)), Ok(9));
        assert_eq!(tricks_of("NS 9 EW 4", &c, Some(Seat::E)), Ok(4));
        assert_eq!(tricks_of("+1", &c, Some(Seat::N)), Ok(11));
        assert!(tricks_of("NS 9 EW 5", &c, Some(Seat::N)).is_err());
        assert!(tricks_of("14", &c, Some(Seat::N)).is_err());
    }
}
