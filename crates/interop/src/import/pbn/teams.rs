//! A team session's ScoreTables (`[Competition "Teams"]`, as frekans's export writes them):
//! each row one table of a match, by its `Match`, `Room` (`Open`: the home team NS, `Closed`:
//! the away team NS) and the match's teams (`TeamId_Home`, `TeamId_Away`), then the play and
//! score columns of a pairs ScoreTable (read by the same rules, `play`) and the `Ruling` cell
//! (`note`). The teams' names and players come from the session's `TotalScoreTable` (`TeamId`,
//! `TeamName`, `Roster`); the matches from the session's note, else from the rows (each match
//! its teams and the boards its rows play). A table twice (a match's board twice in one room)
//! is a problem of its row.

use std::borrow::Cow;

use serde_json::{json, Value};

use super::super::draft::{self, Draft, TableView};
use super::super::Ev;
use super::lex;
use super::note::{ruling_row, with_ruling, Seen};
use super::play::{given, row_event, Cols};
use crate::bridge::Vul;
use crate::export::pbn::RULING_COLUMN;

/// The session's teams, from a game's `TotalScoreTable` (`TeamId`, `TeamName`, `Roster`).
pub(super) fn totals(d: &mut Draft, g: &lex::Game) {
    for t in g
        .tables
        .iter()
        .filter(|t| t.name.eq_ignore_ascii_case("TotalScoreTable"))
    {
        let Some(id) = t.col("TeamId") else {
            continue;
        };
        let (name, roster) = (t.col("TeamName"), t.col("Roster"));
        for &(line, text) in t.rows() {
            let mut row = Vec::new();
            // (a row `lex::each` has read)
            let _ = lex::tokens_into(text, &mut row);
            if row.len() != t.columns.len() {
                continue;
            }
            let Some(team) = given(&row[id]) else {
                continue;
            };
            let players = roster.map(|r| draft::players(&row[r])).unwrap_or_default();
            let name = name.and_then(|n| given(&row[n]));
            d.team(team, name, &players, &format!("line {line}"));
        }
    }
}

/// A team ScoreTable's rows as session `s`'s tables (`seen`: the session's tables so far).
pub(super) fn rows(
    (d, seen): (&mut Draft, &mut Seen),
    s: usize,
    t: &lex::TableTag,
    (board, vul): (u32, Vul),
) {
    let (m, room) = (t.col("Match"), t.col("Room"));
    let home = t.col("TeamId_Home").or(t.col("HomeTeam"));
    let away = t.col("TeamId_Away").or(t.col("VisitTeam"));
    let (Some(m), Some(room), Some(home), Some(away)) = (m, room, home, away) else {
        d.fail(
            &format!("line {}", t.line),
            "a team ScoreTable needs the columns Match, Room, TeamId_Home and TeamId_Away",
        );
        return;
    };
    let c = team_cols(t);
    let ruling = t.col(RULING_COLUMN);
    let mut row: Vec<Cow<str>> = Vec::with_capacity(t.columns.len());
    for &(line, text) in t.rows() {
        let at = format!("line {line}");
        row.clear();
        // (a row `lex::each` has read)
        let _ = lex::tokens_into(text, &mut row);
        if row.len() != t.columns.len() {
            d.bad(
                &at,
                format!(
                    "this ScoreTable row has {} tokens for the {} columns of line {} (a name with spaces must be quoted)",
                    row.len(),
                    t.columns.len(),
                    t.line
                ),
            );
            continue;
        }
        for x in row.iter_mut() {
            if x.trim().len() != x.len() {
                *x = Cow::Owned(x.trim().to_string());
            }
        }
        let (Some(mid), Some(h), Some(a)) = (given(&row[m]), given(&row[home]), given(&row[away]))
        else {
            d.bad(&at, "Match, TeamId_Home and TeamId_Away must be given");
            continue;
        };
        let open = match checked_room(seen, &row[room], (mid, h, a), board) {
            Ok(open) => open,
            Err(m) => {
                d.bad(&at, m.to_string());
                continue;
            }
        };
        let (ns, ew) = if open { (h, a) } else { (a, h) };
        for team in [h, a] {
            d.team(team, None, &[], &at);
        }
        declare_match(d, s, (mid, h, a), board, &at);
        let table = TableView {
            section: None,
            board,
            round: None,
            table: None,
            ns,
            ew,
            others: None,
        };
        let event = row_event(&c, &row, table, vul);
        let (event, ruling) = with_ruling(event, ruling_row(ruling, &row, table));
        match event {
            Ok((mut r, slip)) => {
                if !r.ruling {
                    r.str("match", mid)
                        .str("room", if open { "open" } else { "closed" });
                }
                // (a team table is added whatever the draft's seats say: `seen` checked it)
                if !slip.is_none_or(|slip| d.slip(&at, slip)) {
                    continue;
                }
                d.push_event(s, board, Ev::Row(r), at.clone());
                if let Some(r) = ruling {
                    d.push_event(s, board, Ev::Row(r), at);
                }
            }
            Err(e) => d.bad(&at, e),
        }
    }
}

/// A team row's room that cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum BadRoom {
    /// Neither Open nor Closed (lowercased).
    #[error("Room: expected Open or Closed, found {0:?}")]
    Room(String),
    #[error("team {0} cannot play against itself")]
    Itself(String),
    #[error("match {id} plays board {board} twice in the {room} room")]
    Twice {
        id: String,
        board: u32,
        room: &'static str,
    },
}

/// A team row's room (`true`: the open room), checked: two teams, and the match's board not
/// played in that room before (`seen`).
fn checked_room(
    seen: &mut Seen,
    room: &str,
    (mid, h, a): (&str, &str, &str),
    board: u32,
) -> Result<bool, BadRoom> {
    let open = match room.to_ascii_lowercase().as_str() {
        "open" | "o" => true,
        "closed" | "c" => false,
        other => return Err(BadRoom::Room(other.to_string())),
    };
    if h == a {
        return Err(BadRoom::Itself(h.to_string()));
    }
    if !seen.insert((mid.to_string(), board, open)) {
        return Err(BadRoom::Twice {
            id: mid.to_string(),
            board,
            room: if open { "open" } else { "closed" },
        });
    }
    Ok(open)
}

/// A team ScoreTable's play and score columns (a pairs ScoreTable's, without pairs).
fn team_cols(t: &lex::TableTag) -> Cols {
    Cols {
        section: None,
        table: t.col("Table"),
        round: t.col("Round"),
        ns: None,
        ew: None,
        names_ns: None,
        names_ew: None,
        contract: t.col("Contract"),
        declarer: t.col("Declarer"),
        result: t.col("Result"),
        score_ns: t.col("Score_NS"),
        score_ew: t.col("Score_EW"),
        score: t.col("Score"),
        mp: (None, None),
        pct: (None, None),
        imp: (None, None),
        mult: None,
        lead: t.col("Lead"),
    }
}

/// Match `id` of session `s` between `home` and `away`, declared before the session's tables
/// (from the session's note, or here when first met) with board `board` among its boards.
fn declare_match(
    d: &mut Draft,
    s: usize,
    (id, home, away): (&str, &str, &str),
    board: u32,
    at: &str,
) {
    let head = &mut d.session_mut(s).head;
    let found = head.iter_mut().find_map(|(e, _)| match e {
        Ev::Json(Value::Object(m))
            if m.get("type").is_some_and(|t| t == "match")
                && m.get("id").is_some_and(|i| i == id) =>
        {
            Some(m)
        }
        _ => None,
    });
    match found {
        Some(m) => {
            if let Some(Value::Array(b)) = m.get_mut("boards") {
                if !b.iter().any(|x| x.as_u64() == Some(board.into())) {
                    b.push(json!(board));
                }
            }
        }
        None => head.push((
            Ev::Json(
                json!({"type": "match", "id": id, "home": home, "away": away, "boards": [board]}),
            ),
            at.to_string(),
        )),
    }
}
