//! frekans's own notes in a PBN file (`export::notes`), as its export writes them: a session's
//! note in the `[FrekansSession]` tag of the session's first game (the session's form, compare,
//! carry, options, boards, matches, penalties and fouled boards: a file of several sessions
//! starts a session at each), and the ruling in force at a table in the score table's
//! `Ruling` column (read beside the table's result, or alone where the table was not played or
//! its artificial score is written PBN's way, `^60`). A file without them is read as before.

use std::borrow::Cow;

use serde_json::{json, Value};

use super::super::draft::{Draft, TableView};
use super::super::{Ev, Row};
use super::{lex, Games};
use crate::export::notes::{self, SessionNote};
use crate::export::pbn::SESSION_TAG;
use crate::score::Form;

/// The tables of the session read so far: (match, board, open room?).
pub(super) type Seen = std::collections::BTreeSet<(String, u32, bool)>;

/// What the notes of the games read so far said.
#[derive(Default)]
pub(super) struct Noted {
    /// Sessions a note has started.
    started: usize,
    /// The current session is a team session (its note's form is a team form, or its games
    /// say `[Competition "Teams"]`): its ScoreTables are a team match's (`teams`).
    pub team: bool,
    /// The current session's team tables read (`teams`).
    pub tables: Seen,
}

impl Games<'_> {
    /// A game's note: `[FrekansSession]` starts a session (the first one, or a new one of the
    /// draft after it) with what the note says; `[Competition "Teams"]` makes the session a
    /// team session.
    pub(super) fn frekans_session(&mut self, d: &mut Draft, g: &lex::Game) {
        let teams = g
            .value("Competition")
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("Teams"));
        let Some(tag) = g.tag(SESSION_TAG) else {
            if teams && !self.noted.team {
                self.noted.team = true;
                self.team_form(d, g);
            }
            return;
        };
        let at = format!("line {}", tag.line);
        let note = match notes::read_session(&tag.value) {
            Some(Ok(n)) => n,
            Some(Err(m)) => {
                d.fail(&at, m.to_string());
                return;
            }
            None => {
                d.fail(
                    &at,
                    format!("[{SESSION_TAG}]: expected a frekans session note (frekans session: {{...}})"),
                );
                return;
            }
        };
        if self.noted.started > 0 {
            self.s = d.session();
        }
        self.noted.started += 1;
        self.noted.tables = Default::default();
        // The note says the form: the session's [Scoring] is taken as said.
        self.scoring = Some((g.value("Scoring").unwrap_or_default().to_string(), tag.line));
        self.mp_columns = None;
        let form = Form::parse(&note.form);
        self.noted.team = teams || form.is_some_and(|f| crate::kind::of(f).in_matches);
        apply(d, self.s, &note, &at);
    }

    /// A team session's form from its `[Scoring]` (no note says it): `BAM` is board-a-match,
    /// `Patton` Patton, IMPs (anything else) team matches.
    fn team_form(&mut self, d: &mut Draft, g: &lex::Game) {
        if self.scoring.is_some() {
            return;
        }
        let value = g.value("Scoring").unwrap_or_default();
        let up = value.to_ascii_uppercase();
        let form = if up.contains("BAM") {
            "bam"
        } else if up.contains("PATTON") {
            "patton"
        } else {
            "teams"
        };
        let line = g.tag("Scoring").map_or(g.line, |t| t.line);
        self.scoring = Some((value.to_string(), line));
        d.session_mut(self.s).form = Some((form.into(), format!("line {line}")));
    }
}

/// The note given to session `s` of the draft: the session event's fields, its boards, its
/// matches (before its tables) and its penalties and fouled boards (after them).
fn apply(d: &mut Draft, s: usize, note: &SessionNote, at: &str) {
    d.add_boards(s, note.boards.iter().copied());
    let ss = d.session_mut(s);
    ss.name = Some(note.name.clone().unwrap_or(note.id.clone()));
    ss.form = Some((note.form.clone(), at.to_string()));
    ss.options = note.options.clone();
    ss.compare = note.compare.clone();
    if !note.carry {
        ss.extra.insert("carry".into(), json!(false));
    }
    for m in &note.matches {
        let ev = json!({"type": "match", "id": m.id, "home": m.home, "away": m.away,
            "boards": m.boards, "knockout": m.knockout});
        ss.head.push((Ev::Json(ev), at.to_string()));
    }
    // (the file keeps the matches' ids: a penalty's match is its own)
    for mut e in note.events("", &|id| Some(id.to_string())) {
        if let Value::Object(m) = &mut e {
            m.shift_remove("session");
        }
        ss.tail.push((Ev::Json(e), at.to_string()));
    }
}

/// A row's `Ruling` cell that is a frekans ruling note that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("Ruling: {0}")]
pub(super) struct BadRulingCell(notes::BadNote);

/// The ruling in force at a table, from its row's `Ruling` cell (column `col`): `None` when
/// the table has none (no column, `-`, or a text that is not frekans's note).
pub(super) fn ruling_row(
    col: Option<usize>,
    row: &[Cow<str>],
    t: TableView,
) -> Option<Result<Row, BadRulingCell>> {
    let text = row.get(col?).map(|c| c.trim())?;
    if text.is_empty() || text == "-" {
        return None;
    }
    let (fields, body, law) = match notes::read_ruling(text)? {
        Ok(r) => r,
        Err(m) => return Some(Err(BadRulingCell(m))),
    };
    let mut r = Row::new(true);
    r.num("board", t.board.into())
        .str("ns", t.ns)
        .str("ew", t.ew);
    for (k, v) in &fields {
        r.value(k, v);
    }
    r.str("law", &law).str("note", &format!("imported: {body}"));
    Some(Ok(r))
}

/// A row's event with the ruling of its `Ruling` cell: the table's result and then the ruling
/// where the table was played, the ruling alone where it was not (no play, or an artificial
/// score PBN's way, which the ruling says exactly).
pub(super) fn with_ruling<S>(
    event: Result<(Row, Option<S>), String>,
    ruling: Option<Result<Row, BadRulingCell>>,
) -> (Result<(Row, Option<S>), String>, Option<Row>) {
    match ruling {
        None => (event, None),
        Some(Err(m)) => (Err(m.to_string()), None),
        Some(Ok(r)) => match event {
            Ok((row, slip)) if !row.ruling => (Ok((row, slip)), Some(r)),
            _ => (Ok((r, None)), None),
        },
    }
}
