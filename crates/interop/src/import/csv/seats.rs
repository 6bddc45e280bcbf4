//! A spreadsheet of an individual session: `north`, `south`, `east`, `west` (the players'
//! numbers) in place of `ns` and `ew`, each player's name in `north_player` ... and member
//! number in `north_player_id` ...; every other column as for pairs.

use std::collections::HashMap;

use super::{round_table, row_board, row_play};
use crate::import::draft::{self, Draft, Table};
use crate::import::Problem;
use crate::kind::Plug;

/// The seats' fields, North, South, East, West.
const SEATS: [&str; 4] = ["north", "south", "east", "west"];

/// The kind of a file whose header row names a seat: the kind seating four players.
pub(super) fn kind(col: &HashMap<&'static str, usize>) -> Option<&'static Plug> {
    if !SEATS.iter().any(|f| col.contains_key(f)) {
        return None;
    }
    crate::kind::ALL.iter().copied().find(|k| k.seated)
}

/// The columns an individual file needs besides the seats, and the problems of its header row:
/// a seat missing, or a pair's column beside the seats.
pub(super) fn needed(
    col: &HashMap<&'static str, usize>,
    headers: &csv::StringRecord,
    file: &str,
    problems: &mut Vec<Problem>,
) -> &'static [&'static str] {
    let header = |f: &str| headers.get(col[f]).unwrap_or(f).trim().to_string();
    let mut problem = |message: String| {
        problems.push(Problem {
            file: file.to_string(),
            at: "line 1".into(),
            message,
        })
    };
    let seat = SEATS.iter().find(|f| col.contains_key(*f)).copied();
    if let (Some(pair), Some(seat)) = (["ns", "ew"].into_iter().find(|f| col.contains_key(f)), seat)
    {
        problem(format!(
            "both {:?} and {:?}: a file names pairs (ns, ew) or the four players of an individual session (north, south, east, west), not both",
            header(pair),
            header(seat)
        ));
    }
    for f in SEATS.iter().filter(|f| !col.contains_key(*f)) {
        problem(format!(
            "no {f} column: an individual session's rows name the four players north, south, east and west (or map its own names with --columns {f}=Header)"
        ));
    }
    &["board"]
}

/// One row of an individual session: its table (its four players declared, with their names
/// and member numbers) and its play or score.
pub(super) fn row(
    d: &mut Draft,
    s: usize,
    r: &csv::StringRecord,
    cell: &dyn Fn(&csv::StringRecord, &str) -> Option<String>,
    at: &str,
) {
    let Some(board) = row_board(d, r, cell, at) else {
        return;
    };
    let section = cell(r, "section");
    let [Some(north), Some(south), Some(east), Some(west)] = SEATS.map(|f| cell(r, f)) else {
        d.bad(
            at,
            "north, south, east and west: all four players must be given",
        );
        return;
    };
    for (id, f) in [&north, &south, &east, &west].into_iter().zip(SEATS) {
        let name = cell(r, &format!("{f}_player"));
        let member = cell(r, &format!("{f}_player_id")).and_then(|m| draft::member_id(&m));
        d.player(id, section.as_deref(), (name, member), at);
    }
    let Some((round, table)) = round_table(d, r, cell, at) else {
        return;
    };
    let t = Table {
        section,
        board,
        round,
        table,
        ns: north,
        ew: east,
        others: Some([south, west]),
    };
    row_play(d, s, r, cell, t, at);
}
