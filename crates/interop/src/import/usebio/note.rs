//! A session's note as frekans's export writes it (a root `NOTES`: `frekans session: {...}`,
//! `export::notes`): what USEBIO cannot say of the session — its form when USEBIO has no name
//! for it, compare, carry, options, its boards and its matches' boards, each match's knockout,
//! deals' dealer and vulnerability, penalties and fouled boards — applied to the session the
//! reader makes of it. A file without such a note is read as before.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use super::form::boards_value;
use super::tree::Element;
use super::Cx;
use crate::export::notes::{self, SessionNote};
use crate::score::Form;

impl Cx<'_> {
    /// The session notes of the file (root `NOTES`), by the id of the session they are of
    /// (its `SESSION_ID`). A note that cannot be read is a problem of its element.
    pub(super) fn session_notes(&mut self, root: &Element) -> BTreeMap<String, SessionNote> {
        let mut out = BTreeMap::new();
        for (i, n) in root.all("NOTES").enumerate() {
            let text = n.text.as_str();
            match notes::read_session(text) {
                None => {}
                Some(Ok(note)) => {
                    out.insert(note.id.clone(), note);
                }
                Some(Err(m)) => self.problem(format!("USEBIO/NOTES[{}]", i + 1), m.to_string()),
            }
        }
        out
    }
}

/// The note of the session `el` (by its `SESSION_ID`), if the file has one.
pub(super) fn of<'n>(
    notes: &'n BTreeMap<String, SessionNote>,
    el: &Element,
) -> Option<&'n SessionNote> {
    notes.get(el.attr("SESSION_ID")?)
}

/// The session's form: the note's, else the event's.
pub(super) fn form(note: Option<&SessionNote>, form: Form) -> Form {
    note.and_then(|n| Form::parse(&n.form))
        .filter(|&f| crate::kind::of(f) == crate::kind::of(form))
        .unwrap_or(form)
}

/// The note's matches' ids, boards and knockout given to the reader's matches (the file lists
/// them in the note's order), and its boards to the session's.
pub(super) fn matches(note: &SessionNote, matches: &mut [Value], boards: &mut BTreeSet<u32>) {
    for (m, n) in matches.iter_mut().zip(&note.matches) {
        let set: BTreeSet<u32> = n.boards.iter().copied().collect();
        m["id"] = json!(n.id);
        m["boards"] = boards_value(&set);
        m["knockout"] = json!(n.knockout);
    }
    boards.extend(note.boards.iter().copied());
}

/// The session event's name and carry as the note says.
pub(super) fn session(note: &SessionNote, s: &mut Map<String, Value>) {
    if let Some(n) = &note.name {
        s.insert("name".into(), json!(n));
    }
    if !note.carry {
        s.insert("carry".into(), json!(false));
    }
}

/// A deal event's dealer and vulnerability as the note gives them.
pub(super) fn deal(note: Option<&SessionNote>, board: u32, ev: &mut Value) {
    if let Some(d) = note.and_then(|n| n.deal(board)) {
        ev["dealer"] = json!(d.dealer);
        ev["vul"] = json!(d.vul);
    }
}

/// The note's penalties and fouled boards as events of session `sid` (its matches keep the
/// note's ids, `matches`).
pub(super) fn events(note: &SessionNote, sid: &str) -> Vec<Value> {
    note.events(sid, &|id| Some(id.to_string()))
}
