//! How far a session has been played, as its BWS says (`frekans live`): the movement's tables'
//! boards entered, the rounds, the boards every table has played.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use super::{cell, entries, int, movement, Database, Problem};

/// How far a session has been played, as its BWS says: the tables' boards of the movement
/// (`RoundData`) and how many of them have an entry standing (a result, an artificial score
/// or "Not played"), its last round and the last round entered, and the boards finished.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub expected: usize,
    pub entered: usize,
    pub rounds: u32,
    pub round: u32,
    /// The boards every table of the movement that plays them has entered: (the section's
    /// letters, the board, the last round it was played in), the latest finished first. A
    /// board still to be played at some table is not here (showing it would tell that table).
    pub finished: Vec<(String, u32, u32)>,
}

impl Progress {
    /// Every board of the movement has its entry (a session without a movement never is).
    pub fn complete(&self) -> bool {
        self.expected > 0 && self.entered >= self.expected
    }
}

/// [`Progress`] of the database at `path` (named `file` in messages), read in `world`.
pub fn progress(
    world: &dyn crate::world::World,
    path: &Path,
    file: &str,
) -> Result<Progress, Vec<Problem>> {
    let db = Database::open(world, path, file).map_err(|p| vec![p])?;
    if !db.has("Section") || !db.has("ReceivedData") {
        return Ok(Progress::default());
    }
    let one = |p: Problem| vec![p];
    let sections = db.export("Section").map_err(one)?;
    let id = sections.need(&["ID"], file).map_err(one)?[0];
    let letter = sections.col("Letter").or_else(|| sections.col("Letters"));
    let letters: BTreeMap<i64, String> = sections
        .rows
        .iter()
        .filter_map(|r| {
            let i = int(r, Some(id), "ID").ok().flatten()?;
            let l = cell(r, letter);
            Some((
                i,
                if l.is_empty() {
                    i.to_string()
                } else {
                    l.to_string()
                },
            ))
        })
        .collect();
    let entries = entries(&db.export("ReceivedData").map_err(one)?, &letters, file)?;
    let movement = if db.has("RoundData") {
        movement(&db.export("RoundData").map_err(one)?, &letters, file)?
    } else {
        Vec::new()
    };
    let mut standing: HashMap<(i64, u32, u32, u32), bool> = HashMap::new();
    for e in &entries {
        standing.insert((e.section, e.table, e.round, e.board), !e.erased);
    }
    let mut p = Progress::default();
    // (section, board) → (every table of it entered, the last round it is played in)
    let mut boards: BTreeMap<(i64, u32), (bool, u32)> = BTreeMap::new();
    for m in &movement {
        p.rounds = p.rounds.max(m.round);
        for &b in &m.boards {
            p.expected += 1;
            let entered = standing.get(&(m.section, m.table, m.round, b)) == Some(&true);
            if entered {
                p.entered += 1;
            }
            let e = boards.entry((m.section, b)).or_insert((true, 0));
            e.0 &= entered;
            e.1 = e.1.max(m.round);
        }
    }
    p.finished = boards
        .into_iter()
        .filter(|(_, (done, _))| *done)
        .map(|((sec, b), (_, round))| (letters[&sec].clone(), b, round))
        .collect();
    p.finished
        .sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    p.round = entries
        .iter()
        .filter(|e| !e.erased)
        .map(|e| e.round)
        .max()
        .unwrap_or(0);
    Ok(p)
}
