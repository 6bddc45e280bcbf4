//! Live scoring from a BWS: what a log already holds of a BWS session (found by the session
//! event's `note`, which names the BWS session), and a later state of the same BWS turned into
//! only what is new: results of tables the log has not seen, a `correction` (Law 79C) where a
//! table's result was re-entered differently, artificial scores as rulings (superseding the
//! BWS's earlier one), deals not yet in the log. What the log already has is not appended
//! again, so importing an unchanged file appends nothing. A result erased in the BWS after it
//! was imported stays in the log (an append-only log takes nothing back): the import says so,
//! for the director to rule.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value};

use super::super::{Ev, Input, Problem};
use super::NOTE;
use crate::bridge::Bid;
use crate::event::{Envelope, Event, Play};

/// A table of the log: its result's seq, EW, what was played (after corrections).
#[derive(Clone, Debug)]
struct LogTable {
    seq: usize,
    ew: String,
    play: String,
}

/// What the log holds of one BWS session.
#[derive(Clone, Debug, Default)]
pub(crate) struct LogSession {
    id: String,
    /// (board, NS) → the table's result.
    tables: HashMap<(u32, String), LogTable>,
    /// (board, NS) → the ruling in force: its id, score, and whether a BWS import gave it.
    rulings: HashMap<(u32, String), (String, String, bool)>,
    deals: HashMap<u32, String>,
}

impl LogSession {
    /// The log's id of the session.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }
}

/// A table's play in one spelling, for comparison: contract, declarer, tricks, lead.
fn canon(
    contract: Option<&str>,
    declarer: Option<&str>,
    tricks: Option<u64>,
    score: Option<i64>,
    lead: Option<&str>,
) -> String {
    format!(
        "{}/{}/{}/{}/{}",
        contract.unwrap_or(""),
        declarer.unwrap_or(""),
        tricks.map(|t| t.to_string()).unwrap_or_default(),
        score.map(|t| t.to_string()).unwrap_or_default(),
        lead.unwrap_or("")
    )
}

fn canon_play(p: &Play) -> String {
    let tricks = p.tricks.or_else(|| match (p.contract, p.result) {
        (Some(Bid::Contract(c)), Some(o)) => c.tricks_for_offset(o),
        _ => None,
    });
    // (a score beside a contract only confirms it)
    let score = if p.contract.is_some() { None } else { p.score };
    canon(
        p.contract.map(|c| c.to_string()).as_deref(),
        p.declarer.map(|d| d.letter().to_string()).as_deref(),
        tricks.map(u64::from),
        score.map(i64::from),
        p.lead.as_deref(),
    )
}

fn canon_json(m: &Map<String, Value>) -> String {
    let s = |k: &str| m.get(k).and_then(Value::as_str);
    let score = if m.contains_key("contract") {
        None
    } else {
        m.get("score").and_then(Value::as_i64)
    };
    canon(
        s("contract"),
        s("declarer"),
        m.get("tricks").and_then(Value::as_u64),
        score,
        s("lead"),
    )
}

/// The BWS sessions of a log, by their note.
pub(crate) fn log_sessions(events: &[Envelope]) -> BTreeMap<String, LogSession> {
    let mut by_id: HashMap<String, LogSession> = HashMap::new();
    let mut notes: Vec<(String, String)> = Vec::new();
    let mut plays: HashMap<usize, (String, u32, String, Play)> = HashMap::new();
    for env in events {
        match &env.event {
            Event::Session(s) => {
                if let Some(n) = env.note.as_deref().filter(|n| n.starts_with(NOTE)) {
                    if !notes.iter().any(|(k, _)| k == n) {
                        notes.push((n.to_string(), s.id.clone()));
                        by_id.insert(
                            s.id.clone(),
                            LogSession {
                                id: s.id.clone(),
                                ..LogSession::default()
                            },
                        );
                    }
                }
            }
            Event::Result(r) => {
                if let Some(ls) = by_id.get_mut(&r.session) {
                    plays.insert(
                        env.seq,
                        (r.session.clone(), r.board, r.ns.clone(), r.play.clone()),
                    );
                    ls.tables.insert(
                        (r.board, r.ns.clone()),
                        LogTable {
                            seq: env.seq,
                            ew: r.ew.clone(),
                            play: canon_play(&r.play),
                        },
                    );
                }
            }
            Event::Correction(c) => {
                if let Some((session, board, ns, play)) = plays.get_mut(&c.result) {
                    crate::replay::correct(play, c);
                    if let Some(t) = by_id
                        .get_mut(session.as_str())
                        .and_then(|ls| ls.tables.get_mut(&(*board, ns.clone())))
                    {
                        t.play = canon_play(play);
                    }
                }
            }
            Event::Ruling(r) => {
                if let Some(ls) = by_id.get_mut(&r.session) {
                    let ours = env
                        .note
                        .as_deref()
                        .is_some_and(|n| n.starts_with("imported: Bridgemate"));
                    ls.rulings.insert(
                        (r.board, r.ns.clone()),
                        (r.id.clone(), r.score.to_string(), ours),
                    );
                }
            }
            Event::RulingWithdrawn { ruling } => {
                for ls in by_id.values_mut() {
                    ls.rulings.retain(|_, (id, _, _)| id != ruling);
                }
            }
            Event::Deal(d) => {
                if let Some(ls) = by_id.get_mut(&d.session) {
                    ls.deals.entry(d.board).or_insert_with(|| d.pbn.clone());
                }
            }
            _ => {}
        }
    }
    notes
        .into_iter()
        .filter_map(|(note, id)| by_id.remove(&id).map(|ls| (note, ls)))
        .collect()
}

/// The note of a BWS file's session (its identity), when `events` are a BWS reader's.
pub(crate) fn key(events: &[Ev]) -> Option<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Ev::Json(v) => Some(v),
            Ev::Row(_) => None,
        })
        .find(|e| e["type"] == "session")
        .and_then(|e| e.get("note"))
        .and_then(Value::as_str)
        .filter(|n| n.starts_with(NOTE))
        .map(str::to_string)
}

/// A BWS file's events reduced to what `log` does not have yet, in its session (`known`: the
/// participants the log declares). Also the report's notes (results erased in the BWS after
/// they were imported).
pub(crate) fn update(
    input: Input,
    log: &LogSession,
    known: &dyn Fn(&str) -> bool,
) -> Result<(Input, Vec<Problem>), Vec<Problem>> {
    let file = input.file.clone();
    let at = |i: usize| {
        input
            .origins
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("event {}", i + 1))
    };
    let mut problems = Vec::new();
    let mut events = Vec::new();
    let mut origins = Vec::new();
    let mut seen: HashSet<(u32, String)> = HashSet::new();
    let mut rulings = 0;
    let problem = |at: String, message: String| Problem {
        file: file.clone(),
        at,
        message,
    };
    for (i, e) in input.events.iter().enumerate() {
        let e = e.to_value();
        let Value::Object(m) = &e else { continue };
        let kind = m.get("type").and_then(Value::as_str).unwrap_or("");
        let board = m.get("board").and_then(Value::as_u64).unwrap_or(0) as u32;
        let ns = m
            .get("ns")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let mut m = m.clone();
        if m.contains_key("session") {
            m.insert("session".into(), Value::from(log.id.as_str()));
        }
        match kind {
            "championship" | "session" => continue,
            // (a pair the log has stays as the log declares it: names amended in the BWS since
            // are not carried over)
            "pair" if m.get("id").and_then(Value::as_str).is_some_and(known) => continue,
            "deal" => {
                match log.deals.get(&board) {
                    Some(p) if Some(p.as_str()) == m.get("pbn").and_then(Value::as_str) => continue,
                    Some(_) => {
                        problems.push(problem(at(i), format!("board {board}'s deal differs from the one session {} of the log has", log.id)));
                        continue;
                    }
                    None => {}
                }
            }
            "result" => {
                let key = (board, ns.clone());
                seen.insert(key.clone());
                if let Some((id, _, true)) = log.rulings.get(&key) {
                    // An artificial score the BWS gave earlier, now replaced by a result.
                    let mut w = Map::new();
                    w.insert("type".into(), Value::from("ruling_withdrawn"));
                    w.insert("ruling".into(), Value::from(id.as_str()));
                    w.insert(
                        "note".into(),
                        Value::from("imported: Bridgemate result entered instead"),
                    );
                    events.push(Value::Object(w));
                    origins.push(at(i));
                }
                if let Some(t) = log.tables.get(&key) {
                    let ew = m.get("ew").and_then(Value::as_str).unwrap_or("");
                    if t.ew != ew {
                        problems.push(problem(at(i), format!("board {board} of pair {ns} is against pair {ew} here but against {} in the log (seq {}); a correction cannot change the pairs", t.ew, t.seq)));
                        continue;
                    }
                    if t.play == canon_json(&m) {
                        continue;
                    }
                    let mut c = Map::new();
                    c.insert("type".into(), Value::from("correction"));
                    c.insert("result".into(), Value::from(t.seq));
                    for k in ["contract", "declarer", "tricks", "score", "lead"] {
                        if let Some(v) = m.get(k) {
                            c.insert(k.into(), v.clone());
                        }
                    }
                    c.insert(
                        "note".into(),
                        Value::from("imported: re-entered at the table (Bridgemate)"),
                    );
                    events.push(Value::Object(c));
                    origins.push(at(i));
                    continue;
                }
            }
            "ruling" => {
                let key = (board, ns.clone());
                seen.insert(key.clone());
                let score = m.get("score").and_then(Value::as_str).unwrap_or("");
                if let Some((id, old, _)) = log.rulings.get(&key) {
                    let same = crate::adjust::parse_adjusted(score)
                        .map(|s| s.to_string() == *old)
                        .unwrap_or(false);
                    if same {
                        continue;
                    }
                    m.insert("supersedes".into(), Value::from(id.as_str()));
                }
                // (ids of the file's own that cannot be any of the log's: `merge` renames them)
                rulings += 1;
                m.insert("id".into(), Value::from(format!("\u{0}bws{rulings}")));
            }
            _ => {}
        }
        events.push(Value::Object(m));
        origins.push(at(i));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut notes = Vec::new();
    let mut gone: Vec<_> = log
        .tables
        .iter()
        .filter(|(k, _)| !seen.contains(*k))
        .collect();
    gone.sort_by_key(|(_, t)| t.seq);
    for ((board, ns), t) in gone {
        notes.push(problem(
            "file".into(),
            format!("board {board} of pair {ns} (the log's seq {}) is no longer in the BWS (erased after it was imported): the log keeps it; a director's ruling can cancel it", t.seq),
        ));
    }
    Ok((
        Input {
            file: input.file,
            events: events.into_iter().map(Ev::Json).collect(),
            origins,
        },
        notes,
    ))
}
