//! Players' federation member numbers, as a file gives them beside the names: kept on the pair
//! (or team) the draft declared, and written in its event's `players` (`{"name", "id"}`).

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
