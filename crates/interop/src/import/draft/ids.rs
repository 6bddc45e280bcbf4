//! Players' federation member numbers, as a file gives them beside the names: kept on the pair
//! (or team) the draft declared, and written in its event's `players` (`{"name", "id"}`); and
//! an individual table's four seats checked (`seat_four`).

use super::Draft;

impl Draft {
    /// The member numbers of pair (or team) `id`'s players, one per player in the order of
    /// its names (`None`: no number). Taken when the pair is declared with as many players and
    /// had none; other numbers than those taken for it before are a problem at `at`.
    pub fn player_ids(&mut self, id: &str, ids: Vec<Option<String>>, at: &str) {
        let Some(&i) = self.pair_index.get(id) else {
            return;
        };
        if ids.iter().all(Option::is_none) {
            return;
        }
        let p = &mut self.pairs[i];
        if ids.len() != p.players.len() {
            let m = format!(
                "{} member numbers for the {} players of {id}",
                ids.len(),
                p.players.len()
            );
            self.fail(at, m);
        } else if p.ids.is_empty() {
            p.ids = ids;
        } else if p.ids != ids {
            let show = |v: &[Option<String>]| {
                v.iter()
                    .map(|n| n.as_deref().unwrap_or("-"))
                    .collect::<Vec<_>>()
                    .join(" - ")
            };
            let m = format!(
                "{id}'s players have member numbers {} here but {} at {}",
                show(&ids),
                show(&p.ids),
                p.at
            );
            self.fail(at, m);
        }
    }

    /// The member numbers of the pairs whose names were taken from names kept by the reader
    /// ([`Draft::pair_named`]'s `from`): `of(from)` gives those beside the names kept there.
    pub fn player_ids_of_names<'a>(&mut self, of: impl Fn(usize) -> Option<&'a [Option<String>]>) {
        for p in &mut self.pairs {
            if p.from == 0 || !p.ids.is_empty() {
                continue;
            }
            if let Some(ids) = of(p.from).filter(|ids| ids.len() == p.players.len()) {
                if ids.iter().any(Option::is_some) {
                    p.ids = ids.to_vec();
                }
            }
        }
    }
}

impl Draft {
    /// [`Draft::seat`] of an individual table: the four players (North, South, East, West)
    /// differ, and none has played `board` already this session.
    pub(super) fn seat_four(&mut self, s: usize, board: u32, ids: [&String; 4], at: &str) -> bool {
        if let Some(i) = (0..4).find(|&i| ids[i + 1..].contains(&ids[i])) {
            self.bad(
                at,
                format!(
                    "player {} sits in two seats (a player cannot partner or play against themself)",
                    ids[i]
                ),
            );
            return false;
        }
        let ss = &mut self.sessions[s];
        let numbers = ids.map(|id| match ss.seat_ids.get(id.as_str()) {
            Some(&n) => n,
            None => {
                let n = ss.seat_ids.len() as u32;
                ss.seat_ids.insert(id.clone(), n);
                n
            }
        });
        let next = ss.events.len() as u32;
        let seats = ss.seats.entry(super::seat_key(board, 0)).or_default();
        if let Some(j) = (0..4).find(|&j| seats.contains_key(&numbers[j])) {
            let first = ss.events[seats[&numbers[j]] as usize].1.clone();
            let m = format!(
                "player {} plays board {board} twice (also at {first})",
                ids[j]
            );
            self.bad(at, m);
            return false;
        }
        for n in numbers {
            seats.insert(n, next);
        }
        true
    }
}
