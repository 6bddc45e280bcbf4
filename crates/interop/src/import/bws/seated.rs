//! An individual session in a BWS database, in the layout TabScore and TabScore2 read and write
//! (docs/interop.md "Individual events"): `RoundData` and `ReceivedData` with two more columns,
//! `South` and `West`, beside `NSPair` (the North player's number) and `EWPair` (East's). A
//! `South` that is given makes the session individual; an entry without its `South` and
//! `West` takes the movement's. `PlayerNumbers` names, for each round and table, the player in
//! each seat.

use std::collections::BTreeMap;

use super::{int, BadCell, Database, Entry, Ids, Problem, Rows, Seat};
use crate::import::draft::{self, Draft};
use crate::kind::Plug;

/// A row's `South` and `West` players: `None` when the table has no such column, or the cells
/// are empty or 0 (a pairs session).
pub(super) fn others(t: &Rows, row: &[String]) -> Result<Option<[i64; 2]>, BadCell> {
    let (Some(s), Some(w)) = (t.col("South"), t.col("West")) else {
        return Ok(None);
    };
    let get = |c, what| int(row, Some(c), what).map(|v| v.filter(|&n| n > 0));
    match (get(s, "South")?, get(w, "West")?) {
        (Some(s), Some(w)) => Ok(Some([s, w])),
        (None, None) => Ok(None),
        (Some(_), None) => Err(BadCell::NoWest),
        (None, Some(_)) => Err(BadCell::NoSouth),
    }
}

/// The kind seating four players when the movement or an entry names a South player, each
/// entry without its own South and West then given the movement's.
pub(super) fn kind(movement: &[Seat], entries: &mut [Entry]) -> Option<&'static Plug> {
    if !movement.iter().any(|m| m.others.is_some()) && !entries.iter().any(|e| e.others.is_some()) {
        return None;
    }
    for e in entries.iter_mut().filter(|e| e.others.is_none()) {
        e.others = movement
            .iter()
            .find(|m| (m.section, m.table, m.round) == (e.section, e.table, e.round))
            .and_then(|m| m.others);
    }
    crate::kind::ALL.iter().copied().find(|k| k.seated)
}

/// Every player of the movement and of the entries declared, with the name and member number
/// `PlayerNumbers` gives for a seat they sat in (the earliest round that names them; a name
/// not entered there is the `PlayerNames` member list's for the number, as for pairs).
pub(super) fn declare_players(
    d: &mut Draft,
    db: &Database,
    (movement, entries): (&[Seat], &[Entry]),
    ids: &Ids,
) -> Result<(), Vec<Problem>> {
    // (section, table, round) → the players North, South, East, West, and where met
    let mut tables: BTreeMap<(i64, u32, u32), ([i64; 4], &str)> = BTreeMap::new();
    for m in movement {
        if let Some([s, w]) = m.others {
            tables.insert((m.section, m.table, m.round), ([m.ns, s, m.ew, w], &m.at));
        }
    }
    for e in entries {
        if let Some([s, w]) = e.others {
            tables
                .entry((e.section, e.table, e.round))
                .or_insert(([e.ns, s, e.ew, w], &e.at));
        }
    }
    // (player id) → (round, name, member number)
    let mut named: BTreeMap<String, (u32, Option<String>, Option<String>)> = BTreeMap::new();
    if db.has("PlayerNumbers") {
        for e in super::names::entered(db).map_err(|p| vec![p])? {
            let Ok(table) = u32::try_from(e.table) else {
                continue;
            };
            let Some((players, _)) = tables.get(&(e.section, table, e.round)) else {
                continue;
            };
            let id = ids.id(e.section, players[e.seat], "");
            let member = draft::member_id(&e.number);
            let n = named.entry(id).or_insert((e.round, None, None));
            if e.round < n.0 || (e.round == n.0 && n.1.is_none() && n.2.is_none()) {
                *n = (e.round, e.name, member);
            }
        }
    }
    // (each player once, by section and number)
    let mut players: BTreeMap<(i64, i64), &str> = BTreeMap::new();
    for ((section, _, _), (four, at)) in &tables {
        for p in four {
            players.entry((*section, *p)).or_insert(at);
        }
    }
    for ((section, p), at) in players {
        {
            let id = ids.id(section, p, "");
            let (name, member) = named
                .get(&id)
                .map(|(_, n, m)| (n.clone(), m.clone()))
                .unwrap_or_default();
            d.player(&id, Some(&ids.letters[&section]), (name, member), at);
        }
    }
    Ok(())
}
