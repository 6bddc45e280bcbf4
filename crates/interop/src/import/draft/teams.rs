//! A file's teams and their matches, as the draft keeps them: a team declared once with every
//! player met, a match for each pair of teams, each team table pushed in its room.

use std::collections::BTreeSet;

use super::{Draft, Ev, MatchDraft, PairDraft, Row};

impl Draft {
    /// Declare team `id` (named `name` when the file names it), or add players to it: a
    /// team's players are those of every table it is met at, each once, in the order met.
    pub fn team(&mut self, id: &str, name: Option<&str>, players: &[String], at: &str) {
        let i = match self.pair_index.get(id) {
            Some(&i) => i,
            None => {
                self.pair_index.insert(id.to_string(), self.pairs.len());
                self.pairs.push(PairDraft {
                    id: id.to_string(),
                    section: None,
                    players: Vec::new(),
                    ids: Vec::new(),
                    team: Some(name.map(str::to_string)),
                    from: 0,
                    at: at.to_string(),
                    player: false,
                });
                self.pairs.len() - 1
            }
        };
        let t = &mut self.pairs[i];
        for p in players {
            if !t.players.contains(p) {
                t.players.push(p.clone());
            }
        }
    }

    /// The match of session `s` between teams `a` and `b` (either home), declared with `a` at
    /// home when new: its id (`M1`, `M2`, ... in the order declared) and home team.
    pub fn team_match(&mut self, s: usize, (a, b): (&str, &str), at: &str) -> (String, String) {
        let ms = &mut self.sessions[s].matches;
        if let Some(m) = ms
            .iter()
            .find(|m| (m.home == a && m.away == b) || (m.home == b && m.away == a))
        {
            return (m.id.clone(), m.home.clone());
        }
        let id = format!("M{}", ms.len() + 1);
        ms.push(MatchDraft {
            id: id.clone(),
            home: a.to_string(),
            away: b.to_string(),
            boards: BTreeSet::new(),
            at: at.to_string(),
        });
        (id, a.to_string())
    }

    /// A team match's table: the result `row` (made by [`result_row`]) of board `board` in
    /// match `id` of session `s`, team `ns` sitting NS and `ew` EW; its room is the open room
    /// when `ns` is the match's home team. Added if neither team has played the board in that
    /// room.
    pub fn push_team(
        &mut self,
        s: usize,
        (id, board): (&str, u32),
        [ns, ew]: [&str; 2],
        mut row: Row,
        at: String,
    ) {
        let ss = &mut self.sessions[s];
        let Some(mi) = ss.matches.iter().position(|m| m.id == id) else {
            self.fail(&at, format!("match {id} is not declared"));
            return;
        };
        let open = ss.matches[mi].home == ns;
        let mut numbers = [0; 2];
        for (n, team) in numbers.iter_mut().zip([ns, ew]) {
            let len = ss.seat_ids.len() as u32;
            *n = *ss.seat_ids.entry(team.to_string()).or_insert(len);
        }
        let room = if open { 1 } else { 2 };
        if !self.seat_in(s, (board, room), [ns, ew], numbers, &at) {
            return;
        }
        row.str("match", id)
            .str("room", if open { "open" } else { "closed" });
        let ss = &mut self.sessions[s];
        ss.matches[mi].boards.insert(board);
        ss.boards.insert(board);
        ss.events.push((Ev::Row(row), at));
    }
}
