//! Several files' events made one championship's: each file's sessions renamed after those
//! already there (`S1`, `S2`, ... in file order, after the log's when appending), ruling ids
//! likewise, participants declared once (by id: the same id declared differently — another
//! section, other players — in two files, or in a file and the log, is an error), the first
//! file's championship kept (none when appending to a log).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{Ev, Problem};
use crate::hash::FxMap;

/// One file's events (the reader's), and where in the file each came from when known.
pub struct Input {
    pub file: String,
    pub events: Vec<Ev>,
    pub origins: Vec<String>,
}

/// What the log being appended to already has.
#[derive(Default)]
pub struct Existing {
    pub sessions: BTreeSet<String>,
    pub rulings: BTreeSet<String>,
    pub matches: BTreeSet<String>,
    /// Participant id → its declaring event (`pair`/`team`).
    pub participants: BTreeMap<String, Map<String, Value>>,
    /// The log's line count and that it is not empty (no championship then).
    pub nonempty: bool,
    /// The sessions earlier imports of BWS files made, by their note (live scoring).
    pub(crate) live: BTreeMap<String, super::bws::live::LogSession>,
    /// Each session's boards, and the last session declared (where hand records join).
    pub boards: BTreeMap<String, BTreeSet<u32>>,
    pub last_session: Option<String>,
    /// The deals the log has: (session, board) → the deal's PBN text.
    pub deals: BTreeMap<(String, u32), String>,
    /// The files imported before, by the digest their sessions' notes give → those sessions.
    pub imported: BTreeMap<String, Vec<String>>,
}

/// Where each merged event came from: its file, and its place there (the reader's, or
/// `event N` when the reader gives none), kept without a copy of either per event.
#[derive(Default)]
pub struct Origins {
    files: Vec<String>,
    /// Each event's file (an index in `files`), index in its file, and the reader's place.
    at: Vec<(u32, u32, Option<String>)>,
}

impl Origins {
    /// The file and place of event `i`.
    pub fn get(&self, i: usize) -> Option<(String, String)> {
        let (f, n, at) = self.at.get(i)?;
        let at = at.clone().unwrap_or_else(|| format!("event {}", n + 1));
        Some((self.files[*f as usize].clone(), at))
    }
}

/// The merged events, each with the file and place it came from.
pub struct Merged {
    /// (Every `Ev::Json` a JSON object.)
    pub events: Vec<Ev>,
    pub origins: Origins,
    /// The session ids given to each file's sessions, in order.
    pub sessions: Vec<(String, Vec<String>)>,
    /// Participants new to the log.
    pub new_participants: usize,
    /// What the merge noted (hand records of boards the session does not play).
    pub notices: Vec<Problem>,
    /// Each hand record's file, the session its deals joined and how many were added.
    pub joined: Vec<(String, String, usize)>,
}

fn next_free(used: &BTreeSet<String>, prefix: &str, from: usize) -> (String, usize) {
    let mut n = from;
    loop {
        let id = format!("{prefix}{n}");
        if !used.contains(&id) {
            return (id, n + 1);
        }
        n += 1;
    }
}

/// Whether two declarations of one participant say different things (players are compared
/// only when both name them).
fn differs(a: &Map<String, Value>, b: &Map<String, Value>) -> Option<String> {
    if a.get("type") != b.get("type") {
        let ty = |m: &Map<String, Value>| {
            m.get("type")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string()
        };
        if ty(a) == "player" || ty(b) == "player" {
            return Some(format!("a {} here, a {} there", ty(b), ty(a)));
        }
        return Some("a pair in one place and a team in the other".into());
    }
    if a.get("section") != b.get("section") {
        let s = |m: &Map<String, Value>| {
            m.get("section")
                .and_then(Value::as_str)
                .map(|s| format!("section {s}"))
                .unwrap_or("no section".into())
        };
        return Some(format!("{} here, {} there", s(b), s(a)));
    }
    // Players: by name, and by member number where both places give one (a file without
    // numbers joins a log that has them).
    let players = |m: &Map<String, Value>| {
        m.get("players")
            .and_then(Value::as_array)
            .filter(|p| !p.is_empty())
            .map(|v| {
                v.iter()
                    .map(|p| match p {
                        Value::Object(o) => (
                            o.get("name")
                                .and_then(Value::as_str)
                                .unwrap_or("?")
                                .to_string(),
                            o.get("id").and_then(Value::as_str).map(str::to_string),
                        ),
                        p => (p.as_str().unwrap_or("?").to_string(), None),
                    })
                    .collect::<Vec<_>>()
            })
    };
    if let (Some(x), Some(y)) = (players(a), players(b)) {
        let same = x.len() == y.len()
            && x.iter()
                .zip(&y)
                .all(|((xn, xi), (yn, yi))| xn == yn && (xi.is_none() || yi.is_none() || xi == yi));
        if !same {
            let j = |v: &[(String, Option<String>)]| {
                v.iter()
                    .map(|(n, id)| match id {
                        Some(id) => format!("{n} ({id})"),
                        None => n.clone(),
                    })
                    .collect::<Vec<_>>()
                    .join(" - ")
            };
            return Some(format!("{} here, {} there", j(&y), j(&x)));
        }
    }
    // (a player's name and member number)
    for k in ["name", "member"] {
        if let (Some(x), Some(y)) = (a.get(k), b.get(k)) {
            if x != y {
                return Some(format!("{k} {y} here, {x} there"));
            }
        }
    }
    None
}

/// The session and ruling ids given so far (the log's and the files' before), and the numbers
/// to try next.
struct Used {
    sessions: BTreeSet<String>,
    rulings: BTreeSet<String>,
    session_n: usize,
    ruling_n: usize,
}

impl Used {
    /// The ids the log has given.
    fn of(existing: &Existing) -> Used {
        Used {
            sessions: existing.sessions.clone(),
            rulings: existing.rulings.clone(),
            session_n: existing.sessions.len() + 1,
            ruling_n: existing.rulings.len() + 1,
        }
    }

    /// A new ruling id, after those given.
    fn ruling(&mut self) -> String {
        let (new, n) = next_free(&self.rulings, "R", self.ruling_n);
        self.ruling_n = n;
        self.rulings.insert(new.clone());
        new
    }

    /// A new session id, after those given.
    fn session(&mut self) -> String {
        let (new, n) = next_free(&self.sessions, "S", self.session_n);
        self.session_n = n;
        self.sessions.insert(new.clone());
        new
    }
}

/// One file's new ids: its sessions' and its rulings' (by the file's ids), and its sessions'
/// in order.
fn new_ids(
    events: &[Ev],
    used: &mut Used,
) -> (FxMap<String, String>, FxMap<String, String>, Vec<String>) {
    let mut session_ids: FxMap<String, String> = FxMap::default();
    let mut ruling_ids: FxMap<String, String> = FxMap::default();
    let mut given = Vec::new();
    for e in events {
        let e = match e {
            Ev::Json(v) => v,
            Ev::Row(r) => {
                if let (true, Some(id)) = (r.ruling, &r.id) {
                    ruling_ids.insert(id.clone(), used.ruling());
                }
                continue;
            }
        };
        match e.get("type").and_then(Value::as_str) {
            Some("session") => {
                if let Some(id) = e.get("id").and_then(Value::as_str) {
                    let new = used.session();
                    session_ids.insert(id.to_string(), new.clone());
                    given.push(new);
                }
            }
            Some("ruling") => {
                if let Some(id) = e.get("id").and_then(Value::as_str) {
                    ruling_ids.insert(id.to_string(), used.ruling());
                }
            }
            _ => {}
        }
    }
    (session_ids, ruling_ids, given)
}

/// Merge `inputs` (in order) after `existing`.
pub fn merge(inputs: Vec<Input>, existing: &Existing) -> Result<Merged, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut events = Vec::new();
    let mut origins = Origins::default();
    let mut used = Used::of(existing);
    // Each participant declared so far: its event's index in `events`.
    let mut declared: FxMap<String, usize> = FxMap::default();
    let mut championship = existing.nonempty;
    let mut new_participants = 0;
    let mut sessions_given = Vec::new();
    let mut hands = Hands::of(existing);
    for input in inputs {
        // Ids first (a ruling may name a later one in `supersedes`).
        let (session_ids, ruling_ids, given) = new_ids(&input.events, &mut used);
        let file = input.file.clone();
        let fi = origins.files.len() as u32;
        origins.files.push(file.clone());
        let mut places = input.origins.into_iter();
        events.reserve(input.events.len());
        origins.at.reserve(input.events.len());
        for (i, e) in input.events.into_iter().enumerate() {
            let place = places.next();
            let problem = |message: String| Problem {
                file: file.clone(),
                at: place.clone().unwrap_or_else(|| format!("event {}", i + 1)),
                message,
            };
            let e = match e {
                Ev::Row(mut r) => {
                    rename_row(&mut r, (&session_ids, &ruling_ids), &mut hands);
                    events.push(Ev::Row(r));
                    origins.at.push((fi, i as u32, place));
                    continue;
                }
                Ev::Json(v) => v,
            };
            let Value::Object(m) = e else {
                problems.push(problem(
                    "the reader made an event that is not a JSON object".into(),
                ));
                continue;
            };
            let kind = String::from(m.get("type").and_then(Value::as_str).unwrap_or(""));
            match kind.as_str() {
                "championship" => {
                    if championship {
                        continue;
                    }
                    championship = true;
                }
                "pair" | "team" | "player" => {
                    let Some(id) = m.get("id").and_then(Value::as_str).map(str::to_string) else {
                        continue;
                    };
                    let known = (existing, &declared, &events[..], &origins);
                    if let Some(again) = declared_before(known, &kind, &id, &m) {
                        problems.extend(again.map(problem));
                        continue;
                    }
                    declared.insert(id, events.len());
                    new_participants += 1;
                }
                _ => {}
            }
            let ids = (&session_ids, &ruling_ids);
            let m = match renamed(m, &kind, ids, &mut hands, &file) {
                Ok(Some(m)) => m,
                Ok(None) => continue,
                Err(message) => {
                    problems.push(problem(message));
                    continue;
                }
            };
            events.push(Ev::Json(Value::Object(m)));
            origins.at.push((fi, i as u32, place));
        }
        sessions_given.push((file, given));
    }
    unique_matches(existing, &events, &origins, &mut problems);
    if !problems.is_empty() {
        problems.sort();
        problems.dedup();
        return Err(problems);
    }
    Ok(Merged {
        events,
        origins,
        sessions: sessions_given,
        new_participants,
        notices: hands.notices(),
        joined: hands
            .joined
            .into_iter()
            .map(|((f, s), n)| (f, s, n))
            .collect(),
    })
}

/// The new ids of one file's sessions and rulings, by the file's ids.
type Renames<'r> = (&'r FxMap<String, String>, &'r FxMap<String, String>);

/// A table's row with its session and ruling ids renamed; its session is the one met last.
fn rename_row(r: &mut super::Row, (session_ids, ruling_ids): Renames, hands: &mut Hands) {
    if let Some(new) = session_ids.get(&r.session) {
        r.session.clone_from(new);
    }
    if hands.last.as_deref() != Some(r.session.as_str()) {
        hands.last = Some(r.session.clone());
    }
    if let Some(new) = r.id.as_ref().and_then(|id| ruling_ids.get(id)) {
        r.id = Some(new.clone());
    }
}

/// A file's event `m` (a `kind`) with its session and ruling ids renamed wherever they stand,
/// a hand record's deal joined to its session: `Ok(None)` when the deal is left out.
fn renamed(
    mut m: Map<String, Value>,
    kind: &str,
    (session_ids, ruling_ids): Renames,
    hands: &mut Hands,
    file: &str,
) -> Result<Option<Map<String, Value>>, String> {
    if kind == "session" {
        rename(&mut m, "id", session_ids);
    } else {
        rename(&mut m, "session", session_ids);
    }
    // A hand record without results (a dealing machine's or BridgeComposer's PBN): its
    // deals join the session imported or declared last, for the boards it plays.
    if kind == "deal" && !m.contains_key("session") {
        if !hands.join(&mut m, file).map_err(|e| e.to_string())? {
            return Ok(None);
        }
    } else {
        hands.see(kind, &m);
    }
    if kind == "ruling" {
        rename(&mut m, "id", ruling_ids);
        rename(&mut m, "supersedes", ruling_ids);
    }
    if kind == "ruling_withdrawn" {
        rename(&mut m, "ruling", ruling_ids);
    }
    Ok(Some(m))
}

/// A participant `id` (a `kind` event `m`) declared before, in the log or in a file merged
/// already: `Some` (with what differs, if anything) when it was, `None` when it is new.
fn declared_before(
    (existing, declared, events, origins): (&Existing, &FxMap<String, usize>, &[Ev], &Origins),
    kind: &str,
    id: &str,
    m: &Map<String, Value>,
) -> Option<Option<String>> {
    if let Some(first) = existing.participants.get(id) {
        return Some(
            differs(first, m)
                .map(|d| format!("{kind} {id} is not the log's {kind} {id}: {d} (in the log)")),
        );
    }
    let &j = declared.get(id)?;
    let Ev::Json(Value::Object(first)) = &events[j] else {
        unreachable!("a declaration is a JSON object");
    };
    Some(differs(first, m).map(|d| {
        let (f, a) = origins.get(j).expect("an origin per event");
        format!("{kind} {id} is declared differently: {d} ({f}: {a})")
    }))
}

/// Ids of matches must stay unique across the championship too: one given twice is a problem.
fn unique_matches(
    existing: &Existing,
    events: &[Ev],
    origins: &Origins,
    problems: &mut Vec<Problem>,
) {
    let mut matches = existing.matches.clone();
    for (i, m) in events.iter().enumerate() {
        let Ev::Json(m) = m else { continue };
        if m.get("type").and_then(Value::as_str) == Some("match") {
            if let Some(id) = m.get("id").and_then(Value::as_str) {
                if !matches.insert(id.to_string()) {
                    let (file, at) = origins.get(i).expect("an origin per event");
                    problems.push(Problem {
                        file,
                        at,
                        message: format!("match {id} is already in the championship"),
                    });
                }
            }
        }
    }
}

/// Why a hand record's deal does not join a session ([`Hands::join`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum NotJoined {
    #[error("a hand record (deals without results) joins a session: import it beside the session's results file, or --append it to a log that has the session")]
    NoSession,
    #[error("board {board}: this hand record's deal ({pbn}) is not the one session {session} already has ({had}); a deal is corrected by an explicit event, not by importing another hand record")]
    OtherDeal {
        board: u32,
        pbn: String,
        session: String,
        had: String,
    },
}

/// Where hand records join: each session's boards and deals, and the session met last.
struct Hands {
    boards: BTreeMap<String, BTreeSet<u32>>,
    deals: BTreeMap<(String, u32), String>,
    last: Option<String>,
    /// (file, session) → boards whose deals were left out, not played there.
    unplayed: BTreeMap<(String, String), BTreeSet<u32>>,
    /// (file, session) → deals added.
    joined: BTreeMap<(String, String), usize>,
}

impl Hands {
    /// What the log has: its sessions' boards and deals, the session declared last.
    fn of(existing: &Existing) -> Hands {
        Hands {
            boards: existing.boards.clone(),
            deals: existing.deals.clone(),
            last: existing.last_session.clone(),
            unplayed: BTreeMap::new(),
            joined: BTreeMap::new(),
        }
    }

    /// An event of a session (renamed): its boards, its deals, the session met last.
    fn see(&mut self, kind: &str, m: &Map<String, Value>) {
        let key = if kind == "session" { "id" } else { "session" };
        let Some(session) = m.get(key).and_then(Value::as_str) else {
            return;
        };
        if kind == "session" {
            let boards = m
                .get("boards")
                .and_then(|b| crate::event::read::parse_boards(b).ok())
                .unwrap_or_default();
            self.boards
                .insert(session.to_string(), boards.into_iter().collect());
        }
        if kind == "deal" {
            if let (Some(b), Some(p)) = (
                m.get("board").and_then(Value::as_u64),
                m.get("pbn").and_then(Value::as_str),
            ) {
                self.deals
                    .entry((session.to_string(), b as u32))
                    .or_insert_with(|| p.to_string());
            }
        }
        if self.last.as_deref() != Some(session) {
            self.last = Some(session.to_string());
        }
    }

    /// A deal of a hand record given its session: `Ok(true)` to add it, `Ok(false)` when the
    /// session has this very deal already or does not play the board, `Err` when it has
    /// another deal there (a correction is an explicit event) or there is no session to join.
    fn join(&mut self, m: &mut Map<String, Value>, file: &str) -> Result<bool, NotJoined> {
        let Some(session) = self.last.clone() else {
            return Err(NotJoined::NoSession);
        };
        let board = m.get("board").and_then(Value::as_u64).unwrap_or(0) as u32;
        let pbn = m
            .get("pbn")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let joined = self
            .joined
            .entry((file.to_string(), session.clone()))
            .or_default();
        if !self
            .boards
            .get(&session)
            .is_some_and(|b| b.contains(&board))
        {
            self.unplayed
                .entry((file.to_string(), session))
                .or_default()
                .insert(board);
            return Ok(false);
        }
        if let Some(had) = self.deals.get(&(session.clone(), board)) {
            if same_deal(had, &pbn) {
                return Ok(false);
            }
            return Err(NotJoined::OtherDeal {
                board,
                pbn,
                session,
                had: had.clone(),
            });
        }
        *joined += 1;
        self.deals.insert((session.clone(), board), pbn);
        m.shift_insert(1, "session".into(), Value::from(session));
        Ok(true)
    }

    fn notices(&self) -> Vec<Problem> {
        self.unplayed
            .iter()
            .map(|((file, session), boards)| Problem {
                file: file.clone(),
                at: "file".into(),
                message: format!(
                    "deals of boards {} are not imported: session {session} does not play them",
                    boards
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
            .collect()
    }
}

/// Whether two PBN deals are the same four hands (whichever seat each starts from, cards in
/// any order, `10` or `T`).
fn same_deal(a: &str, b: &str) -> bool {
    fn hands(pbn: &str) -> Option<[Vec<Vec<u8>>; 4]> {
        let (first, rest) = pbn.split_once(':')?;
        let start = crate::bridge::parse_seat(first.trim()).ok()? as usize;
        let mut out: [Vec<Vec<u8>>; 4] = Default::default();
        for (k, h) in rest.split_whitespace().enumerate() {
            let suits = h
                .to_ascii_uppercase()
                .replace("10", "T")
                .split('.')
                .map(|s| {
                    let mut c = s.as_bytes().to_vec();
                    c.sort_unstable();
                    c
                })
                .collect();
            *out.get_mut((start + k) % 4)? = suits;
        }
        Some(out)
    }
    a == b || matches!((hands(a), hands(b)), (Some(x), Some(y)) if x == y)
}

fn rename(m: &mut Map<String, Value>, key: &str, ids: &FxMap<String, String>) {
    if let Some(new) = m
        .get(key)
        .and_then(Value::as_str)
        .and_then(|id| ids.get(id))
    {
        let new = new.clone();
        m.insert(key.into(), Value::from(new));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input(file: &str, events: Vec<Value>) -> Input {
        Input {
            file: file.into(),
            events: events.into_iter().map(Ev::Json).collect(),
            origins: Vec::new(),
        }
    }

    #[test]
    fn sessions_follow_each_other_and_pairs_merge() {
        let a = vec![
            json!({"type":"session","id":"S1","form":"mp","boards":"1-2"}),
            json!({"type":"pair","id":"1","players":["A","B"]}),
            json!({"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"2","score":"A"}),
        ];
        let b = vec![
            json!({"type":"session","id":"S1","form":"mp","boards":"1-2"}),
            json!({"type":"pair","id":"1","players":["A","B"]}),
            json!({"type":"result","session":"S1","board":1,"ns":"1","ew":"2","score":420}),
            json!({"type":"ruling","id":"R1","session":"S1","board":1,"ns":"1","ew":"2","score":"A"}),
        ];
        let m = merge(vec![input("a", a), input("b", b)], &Existing::default()).unwrap();
        let events: Vec<Value> = m.events.iter().map(Ev::to_value).collect();
        let kinds: Vec<_> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            ["session", "pair", "ruling", "session", "result", "ruling"]
        );
        assert_eq!(events[3]["id"], "S2");
        assert_eq!(events[4]["session"], "S2");
        assert_eq!(events[5]["id"], "R2");
        assert_eq!(m.new_participants, 1);
    }

    const DEAL1: &str = "N:AKQ2.KJ4.T83.952 J63.QT96.AQ2.K83 4.8732.J754.QJ64 T9875.A5.K96.AT7";
    // The same deal written from East, cards of one suit in another order.
    const DEAL1_FROM_E: &str =
        "E:J63.QT96.AQ2.K83 4.8732.J754.QJ64 T9875.A5.K96.AT7 AKQ2.KJ4.T83.259";
    const DEAL2: &str = "N:J63.QT96.AQ2.K83 AKQ2.KJ4.T83.952 4.8732.J754.QJ64 T9875.A5.K96.AT7";

    fn hand(board: u32, pbn: &str) -> Value {
        json!({"type":"deal","board":board,"pbn":pbn})
    }

    #[test]
    fn a_hand_record_joins_the_session_imported_beside_it() {
        let results = vec![
            json!({"type":"session","id":"S1","form":"mp","boards":"1-2"}),
            json!({"type":"result","session":"S1","board":1,"ns":"1","ew":"2","score":420}),
        ];
        // Boards 1-3 dealt, the session plays 1-2.
        let hands = vec![hand(1, DEAL1), hand(2, DEAL2), hand(3, DEAL1)];
        let m = merge(
            vec![input("s.bws", results), input("h.pbn", hands)],
            &Existing::default(),
        )
        .unwrap();
        let events: Vec<Value> = m.events.iter().map(Ev::to_value).collect();
        let deals: Vec<_> = events.iter().filter(|e| e["type"] == "deal").collect();
        assert_eq!(deals.len(), 2);
        assert_eq!(deals[0]["session"], "S1");
        assert_eq!(deals[1]["board"], 2);
        // (`session` right after `type`, as a hand writes a deal)
        assert_eq!(
            deals[0]
                .as_object()
                .unwrap()
                .keys()
                .nth(1)
                .map(String::as_str),
            Some("session")
        );
        assert_eq!(m.notices.len(), 1);
        assert!(
            m.notices[0].message.contains("boards 3 are not imported"),
            "{}",
            m.notices[0].message
        );
    }

    #[test]
    fn a_hand_record_appended_fills_only_the_boards_without_a_deal() {
        let mut ex = Existing {
            nonempty: true,
            last_session: Some("S2".into()),
            ..Existing::default()
        };
        ex.sessions.insert("S2".into());
        ex.boards.insert("S2".into(), [1, 2].into_iter().collect());
        ex.deals.insert(("S2".into(), 1), DEAL1.into());
        // Board 1's deal again (written otherwise): nothing; board 2: added.
        let m = merge(
            vec![input("h.pbn", vec![hand(1, DEAL1_FROM_E), hand(2, DEAL2)])],
            &ex,
        )
        .unwrap();
        let events: Vec<Value> = m.events.iter().map(Ev::to_value).collect();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0]["board"], 2);
        assert_eq!(events[0]["session"], "S2");
        // Another deal for board 1: refused, naming the board.
        let e = merge(vec![input("h.pbn", vec![hand(1, DEAL2)])], &ex)
            .err()
            .unwrap();
        assert!(e[0].message.starts_with("board 1: "), "{}", e[0].message);
        assert_eq!(e[0].file, "h.pbn");
        // No session to join.
        let e = merge(
            vec![input("h.pbn", vec![hand(1, DEAL1)])],
            &Existing::default(),
        )
        .err()
        .unwrap();
        assert!(e[0].message.contains("joins a session"), "{}", e[0].message);
    }

    #[test]
    fn same_deal_is_the_same_four_hands() {
        assert!(same_deal(DEAL1, DEAL1_FROM_E));
        assert!(!same_deal(DEAL1, DEAL2));
        assert!(same_deal(
            DEAL1,
            "n:akq2.kj4.1083.952 J63.QT96.AQ2.K83 4.8732.J754.QJ64 T9875.A5.K96.AT7"
        ));
    }

    #[test]
    fn a_pair_declared_differently_is_an_error() {
        let a = vec![json!({"type":"pair","id":"1","players":["A","B"]})];
        let b = vec![json!({"type":"pair","id":"1","players":["C","D"]})];
        let e = merge(vec![input("a", a), input("b", b)], &Existing::default())
            .err()
            .unwrap();
        assert_eq!(e[0].file, "b");
        // (the first declaration's place: its file and, the reader giving none, its number)
        assert!(
            e[0].message
                .ends_with("C - D here, A - B there (a: event 1)"),
            "{}",
            e[0].message
        );
    }
}
