//! Live scoring from a BWS: what a log already holds of a BWS session (found by the session
//! event's `note`, which names the BWS session), and a later state of the same BWS turned into
//! only what is new: results of tables the log has not seen, a `correction` (Law 79C) where a
//! table's result was re-entered differently, artificial scores as rulings (superseding the
//! BWS's earlier one), deals not yet in the log. What the log already has is not appended
//! again, so importing an unchanged file appends nothing. A result erased in the BWS after it
//! was imported stays in the log (an append-only log takes nothing back): the import says so,
//! for the director to rule.
//!
//! Each table's event names the BWS entry it came from and how far the BWS had got (its note:
//! `imported: Bridgemate entry 12 (the BWS's entries up to 13)`, [`Entry`]); entry IDs are
//! Access's autonumber, growing as the terminals send. A copy of the BWS older than what the
//! log already took (a table's entry there earlier than the log's, or the copy's entries
//! stopping before the log's while it would add something) is refused, naming the log's later
//! results: it would take them back.

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

/// The BWS entry a table's event came from: its `ReceivedData` ID, and the highest ID of the
/// file it was read from (erased entries too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub id: i64,
    pub newest: i64,
}

impl Entry {
    /// As an event's note says it, after `imported: Bridgemate ` (or a ruling's remark).
    pub(crate) fn text(&self) -> String {
        format!(
            "entry {} (the BWS's entries up to {})",
            self.id, self.newest
        )
    }

    /// The entry an event's note names (a BWS import's note: `imported: ...`).
    fn of_note(note: &str) -> Option<Entry> {
        if !note.starts_with("imported: ") {
            return None;
        }
        let number_after = |word: &str| -> Option<i64> {
            let i = note.find(word)? + word.len();
            let digits: &str = &note[i..];
            let end = digits
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(digits.len());
            digits[..end].parse().ok()
        };
        Some(Entry {
            id: number_after("entry ")?,
            newest: number_after("entries up to ")?,
        })
    }

    fn of_map(m: &Map<String, Value>) -> Option<Entry> {
        m.get("note")
            .and_then(Value::as_str)
            .and_then(Entry::of_note)
    }
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
    /// (board, NS) → the latest BWS entry the log took for the table, and the seq of the
    /// event that took it.
    entries: HashMap<(u32, String), (i64, usize)>,
    /// The highest entry ID of the BWS copies the log took anything from.
    newest: Option<i64>,
}

impl LogSession {
    /// The entry `note` names, taken for the table (board, NS) by the event `seq`.
    fn took(&mut self, key: (u32, String), note: Option<&str>, seq: usize) {
        let Some(e) = note.and_then(Entry::of_note) else {
            return;
        };
        self.newest = Some(self.newest.map_or(e.newest, |n| n.max(e.newest)));
        let t = self.entries.entry(key).or_insert((e.id, seq));
        if e.id >= t.0 {
            *t = (e.id, seq);
        }
    }

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
                    ls.took((r.board, r.ns.clone()), env.note.as_deref(), env.seq);
                }
            }
            Event::Correction(c) => {
                if let Some((session, board, ns, play)) = plays.get_mut(&c.result) {
                    crate::replay::correct(play, c);
                    if let Some(ls) = by_id.get_mut(session.as_str()) {
                        if let Some(t) = ls.tables.get_mut(&(*board, ns.clone())) {
                            t.play = canon_play(play);
                        }
                        ls.took((*board, ns.clone()), env.note.as_deref(), env.seq);
                    }
                }
            }
            Event::Ruling(r) => {
                if let Some(ls) = by_id.get_mut(&r.session) {
                    ls.took((r.board, r.ns.clone()), env.note.as_deref(), env.seq);
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

/// The entry of a table's event (`m`, of the BWS read) when it is earlier than the one the log
/// took for the table `key`: (this entry, (the log's entry, its seq)).
fn earlier_entry(
    m: &Map<String, Value>,
    log: &LogSession,
    key: &(u32, String),
) -> Option<(i64, (i64, usize))> {
    let here = Entry::of_map(m)?;
    let &(took, seq) = log.entries.get(key)?;
    (here.id < took).then_some((here.id, (took, seq)))
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
    // How far this copy of the BWS had got (its events' notes), and its tables whose entry is
    // earlier than the one the log took: (where, message).
    let values: Vec<Value> = input.events.iter().map(Ev::to_value).collect();
    let newest = newest_entry(&values);
    let mut earlier: Vec<(String, String)> = Vec::new();
    let mut earlier_tables: HashSet<(u32, String)> = HashSet::new();
    for (i, e) in values.into_iter().enumerate() {
        let Value::Object(m) = &e else { continue };
        let kind = m.get("type").and_then(Value::as_str).unwrap_or("");
        let (board, ns) = board_and_ns(m);
        let mut m = m.clone();
        if m.contains_key("session") {
            m.insert("session".into(), Value::from(log.id.as_str()));
        }
        let stale = matches!(kind, "result" | "ruling")
            .then(|| earlier_entry(&m, log, &(board, ns.clone())))
            .flatten();
        if let Some((here, (took, seq))) = stale {
            seen.insert((board, ns.clone()));
            earlier_tables.insert((board, ns.clone()));
            earlier.push((at(i), format!("board {board} of pair {ns}: entry {here} here, but the log took the later entry {took} (seq {seq}); importing this copy would take it back")));
            continue;
        }
        match kind {
            "championship" | "session" => continue,
            // (a pair the log has stays as the log declares it: names amended in the BWS since
            // are not carried over)
            "pair" | "player" if m.get("id").and_then(Value::as_str).is_some_and(known) => continue,
            "deal" => match new_deal(log, board, &m) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(message) => {
                    problems.push(problem(at(i), message.to_string()));
                    continue;
                }
            },
            "result" => {
                let key = (board, ns.clone());
                seen.insert(key.clone());
                match result_events(m, log, &key) {
                    Ok(new) => {
                        origins.extend(new.iter().map(|_| at(i)));
                        events.extend(new);
                    }
                    Err(message) => problems.push(problem(at(i), message)),
                }
                continue;
            }
            "ruling" => {
                let key = (board, ns.clone());
                seen.insert(key.clone());
                if !new_ruling(&mut m, log.rulings.get(&key), &mut rulings) {
                    continue;
                }
            }
            _ => {}
        }
        events.push(Value::Object(m));
        origins.push(at(i));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let imports = !events.is_empty();
    if let Some(p) = older_copy(&file, log, (newest, imports), earlier, &earlier_tables) {
        return Err(p);
    }
    let notes = erased(&file, log, &seen, newest);
    Ok((
        Input {
            file: input.file,
            events: events.into_iter().map(Ev::Json).collect(),
            origins,
        },
        notes,
    ))
}

/// The highest entry ID the events' notes give: how far this copy of the BWS had got.
fn newest_entry(values: &[Value]) -> Option<i64> {
    values
        .iter()
        .filter_map(|v| v.as_object().and_then(Entry::of_map))
        .map(|e| e.newest)
        .max()
}

/// An event's table: its board and NS pair, or North player (0 and empty when it has none).
fn board_and_ns(m: &Map<String, Value>) -> (u32, String) {
    let board = m.get("board").and_then(Value::as_u64).unwrap_or(0) as u32;
    let ns = side(m, "ns", "north");
    (board, ns.to_string())
}

/// An event's pair `pair` (`ns`, `ew`), or in an individual session the player `seat` whose
/// side it is (`north`, `east`: the log keeps them as the table's `ns` and `ew`).
fn side<'m>(m: &'m Map<String, Value>, pair: &str, seat: &str) -> &'m str {
    m.get(pair)
        .or_else(|| m.get(seat))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// Whether a BWS deal `m` of board `board` is new to the log's session (`false`: the log has
/// it); `Err` when it differs from the one the log has.
fn new_deal(log: &LogSession, board: u32, m: &Map<String, Value>) -> Result<bool, OtherDeal> {
    match log.deals.get(&board) {
        Some(p) if Some(p.as_str()) == m.get("pbn").and_then(Value::as_str) => Ok(false),
        Some(_) => Err(OtherDeal {
            board,
            session: log.id.to_string(),
        }),
        None => Ok(true),
    }
}

/// A BWS deal of a board that differs from the one the log's session has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board {board}'s deal differs from the one session {session} of the log has")]
struct OtherDeal {
    board: u32,
    session: String,
}

/// What a BWS result `m` at table `key` adds to the log: the `ruling_withdrawn` of the log's
/// artificial score there (a result entered instead), then the result where the log has none
/// at the table, else its correction where the play differs; `Err` when it is against another
/// pair.
fn result_events(
    m: Map<String, Value>,
    log: &LogSession,
    key: &(u32, String),
) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    if let Some((id, _, true)) = log.rulings.get(key) {
        // An artificial score the BWS gave earlier, now replaced by a result.
        out.push(withdrawn(id));
    }
    match log.tables.get(key) {
        None => out.push(Value::Object(m)),
        Some(t) => out.extend(table_change(&m, t, key.0, &key.1)?),
    }
    Ok(out)
}

/// The `ruling_withdrawn` of the log's artificial score `id`, a result entered instead.
fn withdrawn(id: &str) -> Value {
    let mut w = Map::new();
    w.insert("type".into(), Value::from("ruling_withdrawn"));
    w.insert("ruling".into(), Value::from(id));
    w.insert(
        "note".into(),
        Value::from("imported: Bridgemate result entered instead"),
    );
    Value::Object(w)
}

/// What a BWS result `m` changes in the log's table `t` (board `board` of pair `ns`): nothing,
/// or its correction; `Err` when it is against another pair.
fn table_change(
    m: &Map<String, Value>,
    t: &LogTable,
    board: u32,
    ns: &str,
) -> Result<Option<Value>, String> {
    let ew = side(m, "ew", "east");
    if t.ew != ew {
        return Err(format!("board {board} of pair {ns} is against pair {ew} here but against {} in the log (seq {}); a correction cannot change the pairs", t.ew, t.seq));
    }
    if t.play == canon_json(m) {
        return Ok(None);
    }
    Ok(Some(correction(m, t.seq)))
}

/// The `correction` of the log's result `seq` to the play of `m`, re-entered at the table.
fn correction(m: &Map<String, Value>, seq: usize) -> Value {
    let mut c = Map::new();
    c.insert("type".into(), Value::from("correction"));
    c.insert("result".into(), Value::from(seq));
    for k in ["contract", "declarer", "tricks", "score", "lead"] {
        if let Some(v) = m.get(k) {
            c.insert(k.into(), v.clone());
        }
    }
    c.insert(
        "note".into(),
        Value::from(match Entry::of_map(m) {
            Some(e) => format!("imported: re-entered at the table, Bridgemate {}", e.text()),
            None => "imported: re-entered at the table (Bridgemate)".to_string(),
        }),
    );
    Value::Object(c)
}

/// A BWS ruling `m` made new (`false`: the log has it already): superseding the log's ruling
/// of the table (`old`: its id and score) when that differs, with an id of the file's own.
fn new_ruling(
    m: &mut Map<String, Value>,
    old: Option<&(String, String, bool)>,
    rulings: &mut usize,
) -> bool {
    let score = m.get("score").and_then(Value::as_str).unwrap_or("");
    if let Some((id, old, _)) = old {
        let same = crate::adjust::parse_adjusted(score)
            .map(|s| s.to_string() == *old)
            .unwrap_or(false);
        if same {
            return false;
        }
        m.insert("supersedes".into(), Value::from(id.as_str()));
    }
    // (ids of the file's own that cannot be any of the log's: `merge` renames them)
    *rulings += 1;
    m.insert("id".into(), Value::from(format!("\u{0}bws{rulings}")));
    true
}

/// An older copy of the BWS than the log took (its entries up to ID `newest`; it `imports`
/// something), or one with tables whose entry is `earlier` than the log's: refused whole, the
/// problems naming the log's later results (what it would take back, or leave out as if
/// erased). `None` for a copy as new as the log's.
fn older_copy(
    file: &str,
    log: &LogSession,
    (newest, imports): (Option<i64>, bool),
    earlier: Vec<(String, String)>,
    earlier_tables: &HashSet<(u32, String)>,
) -> Option<Vec<Problem>> {
    let behind = match (newest, log.newest) {
        (Some(here), Some(took)) if here < took => Some((here, took)),
        _ => None,
    };
    if earlier.is_empty() && !(behind.is_some() && imports) {
        return None;
    }
    let (here, took) = behind.unwrap_or((newest.unwrap_or(0), log.newest.unwrap_or(0)));
    let problem = |at: String, message: String| Problem {
        file: file.to_string(),
        at,
        message,
    };
    let mut out = vec![problem(
        "ReceivedData".into(),
        format!("this copy of the BWS is older than what the log already took from session {} (its entries go up to ID {here}, the log's up to {took}): nothing was imported; import the BWS as it stands now", log.id),
    )];
    out.extend(earlier.into_iter().map(|(at, m)| problem(at, m)));
    let mut later: Vec<(&(u32, String), &(i64, usize))> = log
        .entries
        .iter()
        .filter(|(k, (id, _))| *id > here && !earlier_tables.contains(*k))
        .collect();
    later.sort_by_key(|(_, (_, seq))| *seq);
    for ((board, ns), (id, seq)) in later {
        out.push(problem(
            "ReceivedData".into(),
            format!("board {board} of pair {ns}: the log took entry {id} (seq {seq}), later than any entry of this copy"),
        ));
    }
    Some(out)
}

/// The report's notes on the log's tables not `seen` in this copy of the BWS (whose entries
/// stop at ID `newest`): erased after they were imported, or left out of an older copy.
fn erased(
    file: &str,
    log: &LogSession,
    seen: &HashSet<(u32, String)>,
    newest: Option<i64>,
) -> Vec<Problem> {
    let mut notes = Vec::new();
    let mut gone: Vec<_> = log
        .tables
        .iter()
        .filter(|(k, _)| !seen.contains(*k))
        .collect();
    gone.sort_by_key(|(_, t)| t.seq);
    for (key, t) in gone {
        let (board, ns) = key;
        let message = match (log.entries.get(key), newest) {
            // (its entry later than the copy's last: an older copy, or entries deleted)
            (Some((id, _)), Some(here)) if *id > here => format!("board {board} of pair {ns} (the log's seq {}, entry {id}) is not in this copy of the BWS, whose entries stop at ID {here}: an older copy, or its last entries deleted; the log keeps it", t.seq),
            _ => format!("board {board} of pair {ns} (the log's seq {}) is no longer in the BWS (erased after it was imported): the log keeps it; a director's ruling can cancel it", t.seq),
        };
        notes.push(Problem {
            file: file.to_string(),
            at: "file".into(),
            message,
        });
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entry a note names is read back from the notes the reader and `update` write.
    #[test]
    fn entries_are_read_from_notes() {
        let e = Entry { id: 12, newest: 13 };
        for note in [
            format!("imported: Bridgemate {}", e.text()),
            format!("imported: Bridgemate 60%-40%, {}", e.text()),
            format!("imported: re-entered at the table, Bridgemate {}", e.text()),
        ] {
            assert_eq!(Entry::of_note(&note), Some(e), "{note}");
        }
        assert_eq!(
            Entry::of_note("imported: re-entered at the table (Bridgemate)"),
            None
        );
        assert_eq!(
            Entry::of_note("entry 12 (the BWS's entries up to 13)"),
            None
        );
    }
}
