//! The events a draft finishes into (`Draft::finish`): each session's event, each pair's (or
//! team's), and a session's tables and rulings, numbered and put in their session.

use serde_json::{Map, Value};

use super::{boards_value, Ev, PairDraft, Request, SessionDraft};
use crate::score::Form;

/// Session `id`'s event: its name, form and options (as resolved), boards, comparison, note
/// and the fields its note gives.
pub(super) fn session_event(
    s: &SessionDraft,
    id: &str,
    (form, options): (String, Map<String, Value>),
    req: &Request,
) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from("session"));
    m.insert("id".into(), Value::from(id));
    if let Some(n) = &s.name {
        m.insert("name".into(), Value::from(n.as_str()));
    }
    let own = Form::parse(&form).map(crate::kind::of);
    m.insert("form".into(), Value::from(form));
    m.insert("boards".into(), boards_value(&s.boards));
    if let Some(k) = s.kind.filter(|k| own.is_none_or(|o| !std::ptr::eq(o, *k))) {
        m.insert("kind".into(), Value::from(k.declared));
    }
    let compare = req.compare.clone().or(s.compare.clone());
    if let Some(c) = compare {
        m.insert("compare".into(), Value::from(c));
    }
    if let Some(n) = &s.note {
        m.insert("note".into(), Value::from(n.as_str()));
    }
    if !options.is_empty() {
        m.insert("options".into(), Value::Object(options));
    }
    for (k, v) in &s.extra {
        m.insert(k.clone(), v.clone());
    }
    Value::Object(m)
}

/// A pair's (or team's) event: its id, name, section and players.
pub(super) fn pair_event(p: &PairDraft) -> Value {
    let mut m = Map::new();
    if p.player {
        return player_event(p);
    }
    let ty = if p.team.is_some() { "team" } else { "pair" };
    m.insert("type".into(), Value::from(ty));
    m.insert("id".into(), Value::from(p.id.as_str()));
    if let Some(Some(name)) = &p.team {
        m.insert("name".into(), Value::from(name.as_str()));
    }
    if let Some(sec) = &p.section {
        m.insert("section".into(), Value::from(sec.as_str()));
    }
    if !p.players.is_empty() {
        let v = crate::event::players_value(&p.players, &p.ids);
        m.insert("players".into(), v);
    }
    Value::Object(m)
}

/// A player's event: its id, section, name and member number (each absent when unknown).
fn player_event(p: &PairDraft) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from("player"));
    m.insert("id".into(), Value::from(p.id.as_str()));
    if let Some(sec) = &p.section {
        m.insert("section".into(), Value::from(sec.as_str()));
    }
    if let Some(n) = p.players.first() {
        m.insert("name".into(), Value::from(n.as_str()));
    }
    if let Some(Some(id)) = p.ids.first() {
        m.insert("member".into(), Value::from(id.as_str()));
    }
    Value::Object(m)
}

/// A session's tables, rulings and the events its note gives, added to `events` (with their
/// places in `origins`): each in session `id`, the rulings numbered after `ruling`.
pub(super) fn session_tables(
    s: SessionDraft,
    id: &str,
    ruling: &mut usize,
    (events, origins): (&mut Vec<Ev>, &mut Vec<String>),
) {
    events.reserve(s.events.len());
    origins.reserve(s.events.len());
    let all = s.head.into_iter().chain(s.events).chain(s.tail);
    for (e, at) in all {
        match e {
            Ev::Row(mut r) => {
                if r.ruling {
                    *ruling += 1;
                    r.id = Some(format!("R{ruling}"));
                }
                r.session = id.to_string();
                events.push(Ev::Row(r));
            }
            Ev::Json(Value::Object(mut m)) => {
                // `type` first, then (a ruling's `id` and) `session`, as a hand would
                // write it.
                let ty = m.shift_remove("type").unwrap_or(Value::Null);
                let mut next = 1;
                if ty == "ruling" {
                    *ruling += 1;
                    m.shift_insert(0, "id".into(), Value::from(format!("R{ruling}")));
                    next = 2;
                }
                m.shift_insert(0, "type".into(), ty);
                m.shift_insert(next, "session".into(), Value::from(id));
                events.push(Ev::Json(Value::Object(m)));
            }
            e @ Ev::Json(_) => events.push(e),
        }
        origins.push(at);
    }
}
