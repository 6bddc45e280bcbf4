//! A BWS database's players' names (`PlayerNumbers`, `PlayerNames`) and deals (`HandRecord`).

use std::collections::{BTreeSet, HashMap, HashSet};

use super::{cell, int, Database, Entry, Ids, Problem, Rows, Seat};
use crate::import::draft::{self, Draft};

/// A pair's players: their names, and beside each its member number (`None`: none entered).
pub(super) type Players = (Vec<String>, Vec<Option<String>>);

/// One row of `PlayerNumbers`: the player entered at a seat of a table in a round.
pub(super) struct Entered {
    pub section: i64,
    pub table: i64,
    /// The round (1 where the table has no `Round`, as old files).
    pub round: u32,
    /// The seat: 0 North, 1 South, 2 East, 3 West.
    pub seat: usize,
    /// The member number as entered (`0` or empty: none).
    pub number: String,
    /// The name Bridgemate Control Software looked up, else the `PlayerNames` member list's
    /// for the number; `None` when neither names the player.
    pub name: Option<String>,
}

/// Every row of `PlayerNumbers` naming a section, a table and a seat, each with its player's
/// name: `PlayerNumbers.Name` (once Bridgemate Control Software has looked the number up), else
/// the name `PlayerNames` (the member list) gives the number. The one reader of the table, for
/// pairs and individual sessions alike.
pub(super) fn entered(db: &Database) -> Result<Vec<Entered>, Problem> {
    let t = db.export("PlayerNumbers")?;
    let c = t.need(&["Section", "Table", "Direction", "Number"], db.file)?;
    let (name_col, round_col) = (t.col("Name"), t.col("Round"));
    let listed = member_list(db, &t, c[3])?;
    let mut out = Vec::with_capacity(t.rows.len());
    for row in &t.rows {
        let (Ok(Some(section)), Ok(Some(table))) = (
            int(row, Some(c[0]), "Section"),
            int(row, Some(c[1]), "Table"),
        ) else {
            continue;
        };
        let round = int(row, round_col, "Round")
            .ok()
            .flatten()
            .unwrap_or(1)
            .max(1) as u32;
        let seat = match cell(row, Some(c[2])).to_ascii_uppercase().as_str() {
            "N" => 0,
            "S" => 1,
            "E" => 2,
            "W" => 3,
            _ => continue,
        };
        let number = cell(row, Some(c[3])).to_string();
        let name = Some(cell(row, name_col))
            .filter(|n| !n.is_empty())
            .or_else(|| {
                listed
                    .get(&member(&number))
                    .map(String::as_str)
                    .filter(|n| !n.is_empty())
            })
            .map(str::to_string);
        out.push(Entered {
            section,
            table,
            round,
            seat,
            number,
            name,
        });
    }
    Ok(out)
}

/// The names `PlayerNames` (the member list) gives the numbers entered in `PlayerNumbers`
/// (`numbers`: its `Number` column), by member number; empty without the table.
fn member_list(
    db: &Database,
    t: &Rows,
    numbers: usize,
) -> Result<HashMap<String, String>, Problem> {
    let mut names: HashMap<String, String> = HashMap::new();
    if !db.has("PlayerNames") {
        return Ok(names);
    }
    let n = db.export("PlayerNames")?;
    // (a member list of 40,000 and more: only the numbers seated are looked up)
    let wanted: HashSet<String> = t
        .rows
        .iter()
        .map(|row| member(cell(row, Some(numbers))))
        .filter(|n| !n.is_empty())
        .collect();
    // The member number is `strID` (text: `5M` beside `5`, whose `ID` are both 5), else
    // `ID` where a list has no `strID`.
    if let (Some(name), Some(col)) = (n.col("Name"), n.col("strID").or_else(|| n.col("ID"))) {
        for row in &n.rows {
            let number = member(cell(row, Some(col)));
            if wanted.contains(&number) {
                names
                    .entry(number)
                    .or_insert_with(|| cell(row, Some(name)).to_string());
            }
        }
    }
    Ok(names)
}

/// Players' names and member numbers by pair id, from [`entered`]: the pair at a seat is the
/// movement's (or a result's) in the round the number was entered, and a pair's players are
/// those of the earliest round that names them. A seat whose player has no name is left out.
pub(super) fn players(
    db: &Database,
    movement: &[Seat],
    entries: &[Entry],
    ids: &Ids,
) -> Result<HashMap<String, Players>, Vec<Problem>> {
    // (pair id) → [N or E, S or W], from the earliest round that names them
    let mut seats: HashMap<String, (u32, [Option<(String, Option<String>)>; 2])> = HashMap::new();
    for e in entered(db).map_err(|p| vec![p])? {
        let Some(name) = e.name else { continue };
        let (section, table, round) = (e.section, e.table, e.round);
        let pairs = movement
            .iter()
            .find(|m| m.section == section && i64::from(m.table) == table && m.round == round)
            .map(|m| (m.ns, m.ew))
            .or_else(|| {
                entries
                    .iter()
                    .find(|e| {
                        e.section == section && i64::from(e.table) == table && e.round == round
                    })
                    .map(|e| (e.ns, e.ew))
            });
        let Some((ns, ew)) = pairs else { continue };
        let id = if e.seat < 2 {
            ids.id(section, ns, "NS")
        } else {
            ids.id(section, ew, "EW")
        };
        let s = seats.entry(id).or_insert((round, [None, None]));
        if round < s.0 {
            *s = (round, [None, None]);
        }
        if round == s.0 {
            s.1[e.seat % 2] = Some((name, draft::member_id(&e.number)));
        }
    }
    Ok(seats
        .into_iter()
        .map(|(id, (_, p))| (id, p.into_iter().flatten().unzip()))
        .collect())
}

/// A member number as a join key: `PlayerNumbers.Number` is text, `PlayerNames.ID` a number
/// and `strID` its text; leading zeros dropped so that `0123` finds `123`.
fn member(n: &str) -> String {
    let n = n.trim();
    let t = n.trim_start_matches('0');
    if t.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        n.to_string()
    } else {
        t.to_string()
    }
}

/// The deals of `HandRecord`: four hands of four suits each (`NorthSpades` ... `WestClubs`), of
/// the boards `played` (the movement's and the results'); the rest of a larger board set is
/// left out, and a notice says which.
pub(super) fn deals(
    d: &mut Draft,
    s: usize,
    t: &Rows,
    played: &BTreeSet<u32>,
) -> Result<(), Vec<Problem>> {
    const SEATS: [&str; 4] = ["North", "East", "South", "West"];
    const SUITS: [&str; 4] = ["Spades", "Hearts", "Diamonds", "Clubs"];
    let mut names = vec!["Board".to_string()];
    for seat in SEATS {
        for suit in SUITS {
            names.push(format!("{seat}{suit}"));
        }
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let c = t.need(&refs, d.file.as_str()).map_err(|p| vec![p])?;
    let mut unplayed = BTreeSet::new();
    for (i, row) in t.rows.iter().enumerate() {
        let at = t.at(i);
        let board = match int(row, Some(c[0]), "Board") {
            Ok(Some(b)) if (1..=i64::from(super::super::MAX_BOARD)).contains(&b) => b as u32,
            Ok(_) => continue,
            Err(m) => {
                d.bad(&at, m.to_string());
                continue;
            }
        };
        let hands: Vec<String> = (0..4)
            .map(|h| {
                (0..4)
                    .map(|k| cell(row, Some(c[1 + 4 * h + k])).replace("10", "T"))
                    .collect::<Vec<_>>()
                    .join(".")
            })
            .collect();
        if hands.iter().all(|h| h == "...") {
            continue; // no hand record for this board
        }
        if !played.contains(&board) {
            unplayed.insert(board);
            continue;
        }
        d.deal(s, board, &format!("N:{}", hands.join(" ")), None, None, &at);
    }
    if !unplayed.is_empty() {
        d.notice(
            t.name,
            format!(
                "deals of boards {} are not imported: this session does not play them{}",
                ranges(&unplayed),
                if played.is_empty() {
                    String::new()
                } else {
                    format!(" (it plays boards {})", ranges(played))
                }
            ),
        );
    }
    Ok(())
}

/// Board numbers as ranges: `1-27, 30`.
fn ranges(boards: &BTreeSet<u32>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut it = boards.iter().copied().peekable();
    while let Some(lo) = it.next() {
        let mut hi = lo;
        while it.peek() == Some(&(hi + 1)) {
            hi = it.next().expect("peeked");
        }
        out.push(if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}-{hi}")
        });
    }
    out.join(", ")
}
