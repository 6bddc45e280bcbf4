//! The declaring events read from their fields: sessions, pairs, teams, matches, boards, deals.

use super::*;

pub(super) fn session(f: &mut Fields, sessions: &mut Vec<(String, Form)>) -> Option<Event> {
    let id = f.req_id("id");
    let name = f.opt_str("name");
    let form = match f.req_str("form") {
        Some(s) => match Form::parse(&s) {
            Some(form) => Some(form),
            None => {
                let names: Vec<_> = Form::ALL
                    .iter()
                    .map(|f| format!("\"{}\"", f.name()))
                    .collect();
                f.error(
                    "form",
                    format!("expected one of {}, found \"{s}\"", names.join(", ")),
                );
                None
            }
        },
        None => None,
    };
    let boards = match f.raw("boards") {
        None => {
            f.error(
                "boards",
                "missing; expected a range such as \"1-26\" or a list [1,2,3]",
            );
            None
        }
        Some(v) => match parse_boards(v) {
            Ok(b) => Some(b),
            Err(m) => {
                f.error("boards", m);
                None
            }
        },
    };
    let compare = match f.opt_str("compare").as_deref() {
        None | Some("section") => Compare::Section,
        Some("field") => Compare::Field,
        Some(other) => {
            f.error(
                "compare",
                format!("expected \"section\" or \"field\", found \"{other}\""),
            );
            Compare::Section
        }
    };
    let carry = f.opt_bool("carry").unwrap_or(true);
    let kind = match (f.opt_str("kind"), form) {
        (_, None) => None,
        (None, Some(form)) => Some(crate::kind::of(form)),
        (Some(k), Some(form)) => match crate::kind::declared(form, &k) {
            Ok(plug) => Some(plug),
            Err(m) => {
                f.error("kind", m.to_string());
                None
            }
        },
    };
    let mut options = Options::default();
    if let Some(v) = f.raw("options") {
        match (v, form) {
            (Value::Object(obj), Some(form)) => {
                let (o, errs) = form.read_options(obj);
                options = o;
                for e in errs {
                    f.error("options", format!("\"{}\": {}", e.option, e.message));
                }
            }
            (Value::Object(_), None) => {}
            (other, _) => f.error(
                "options",
                format!("expected an object, found {}", describe(other)),
            ),
        }
    }
    let (id, form, boards, kind) = (id?, form?, boards?, kind?);
    if sessions.iter().any(|(s, _)| *s == id) {
        f.error("id", format!("session \"{id}\" is already declared"));
        return None;
    }
    sessions.push((id.clone(), form));
    Some(Event::Session(SessionDef {
        id,
        name,
        form,
        boards,
        compare,
        carry,
        options,
        kind,
    }))
}

/// `"1-26"`, `"1-13,15"`, or `[1,2,3]`: sorted, without repeats.
pub fn parse_boards(v: &Value) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    let bad = || {
        format!("expected a range such as \"1-26\" or a list [1,2,3] of boards 1..={MAX_BOARD}, found {}", describe(v))
    };
    match v {
        Value::String(s) => {
            for piece in s.split(',') {
                let piece = piece.trim();
                let (a, b) = piece.split_once('-').unwrap_or((piece, piece));
                let a: i64 = a.trim().parse().map_err(|_| bad())?;
                let b: i64 = b.trim().parse().map_err(|_| bad())?;
                if a < 1 || b > MAX_BOARD || a > b {
                    return Err(bad());
                }
                out.extend(a as u32..=b as u32);
                // More entries than there are board numbers: some board repeats; stop now
                // rather than expanding every range first.
                if out.len() > MAX_BOARD as usize {
                    return Err(format!("board listed twice in {}", describe(v)));
                }
            }
        }
        Value::Array(items) => {
            for it in items {
                match it.as_i64() {
                    Some(n) if (1..=MAX_BOARD).contains(&n) => out.push(n as u32),
                    _ => return Err(bad()),
                }
            }
        }
        _ => return Err(bad()),
    }
    let before = out.len();
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        return Err(bad());
    }
    if out.len() != before {
        return Err(format!("board listed twice in {}", describe(v)));
    }
    Ok(out)
}

/// A `pair`'s or `team`'s `players`: names, or objects `{"name": ..., "id": ...}` giving a
/// player's federation member number; the names, and beside each its number (or `None`).
pub(super) fn players(f: &mut Fields) -> (Vec<String>, Vec<Option<String>>) {
    let items = match f.raw("players") {
        None => return (Vec::new(), Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            let m = format!("expected a list of names, found {}", describe(other));
            f.error("players", m);
            return (Vec::new(), Vec::new());
        }
    };
    let (mut names, mut ids) = (
        Vec::with_capacity(items.len()),
        Vec::with_capacity(items.len()),
    );
    let errors = f.errors.len();
    for (i, it) in items.iter().enumerate() {
        match it {
            Value::String(s) => {
                names.push(s.clone());
                ids.push(None);
            }
            Value::Object(obj) => {
                if let Some((name, id)) = player(f, i, obj) {
                    names.push(name);
                    ids.push(id);
                }
            }
            other => f.error(
                &format!("players[{i}]"),
                format!(
                    "expected a name (a string) or {{\"name\": ..., \"id\": ...}}, found {}",
                    describe(other)
                ),
            ),
        }
    }
    if f.errors.len() != errors {
        return (Vec::new(), Vec::new());
    }
    (names, ids)
}

/// One player given as an object (`players[i]`): its name and federation member number.
fn player(f: &mut Fields, i: usize, obj: &Map<String, Value>) -> Option<(String, Option<String>)> {
    let at = |k: &str| format!("players[{i}].{k}");
    for k in obj.keys() {
        if k != "name" && k != "id" {
            f.error(&at(k), "unknown field of a player (expected name, id)");
        }
    }
    let name = match obj.get("name") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        None | Some(Value::Null) => {
            f.error(
                &at("name"),
                "missing; a player given as an object needs its name",
            );
            None
        }
        Some(other) => {
            let m = format!(
                "expected the player's name, a non-empty string, found {}",
                describe(other)
            );
            f.error(&at("name"), m);
            None
        }
    };
    let id = match obj.get("id") {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(s)) if !s.trim().is_empty() => Some(Some(s.clone())),
        Some(Value::Number(n)) => {
            let m = format!("expected the player's federation member number as a JSON string, found the number {n} (write \"{n}\")");
            f.error(&at("id"), m);
            None
        }
        Some(other) => {
            let m = format!(
                "expected the player's federation member number, a non-empty string, found {}",
                describe(other)
            );
            f.error(&at("id"), m);
            None
        }
    };
    Some((name?, id?))
}

pub(super) fn pair(f: &mut Fields) -> Option<Event> {
    let id = f.req_id("id");
    let section = f.opt_id("section");
    let (players, player_ids) = players(f);
    Some(Event::Pair(PairDef {
        id: id?,
        section,
        players,
        player_ids,
    }))
}

pub(super) fn player_event(f: &mut Fields) -> Option<Event> {
    let id = f.req_id("id");
    let section = f.opt_id("section");
    let name = f.opt_str("name");
    let member = match f.raw("member") {
        None => None,
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        Some(Value::Number(n)) => {
            let m = format!("expected the player's federation member number as a JSON string, found the number {n} (write \"{n}\")");
            f.error("member", m);
            None
        }
        Some(other) => {
            let m = format!(
                "expected the player's federation member number, a non-empty string, found {}",
                describe(other)
            );
            f.error("member", m);
            None
        }
    };
    Some(Event::Player(PlayerDef {
        id: id?,
        section,
        name,
        member,
    }))
}

pub(super) fn team(f: &mut Fields) -> Option<Event> {
    let id = f.req_id("id");
    let name = f.opt_str("name");
    let (players, player_ids) = players(f);
    Some(Event::Team(TeamDef {
        id: id?,
        name,
        players,
        player_ids,
    }))
}

pub(super) fn match_event(f: &mut Fields) -> Option<Event> {
    let session = f.req_id("session");
    let id = f.req_id("id");
    let home = f.req_id("home");
    let away = f.req_id("away");
    let boards = match f.raw("boards") {
        None => {
            f.error(
                "boards",
                "missing; expected a range such as \"1-12\" or a list [1,2,3]",
            );
            None
        }
        Some(v) => match parse_boards(v) {
            Ok(b) => Some(b),
            Err(m) => {
                f.error("boards", m);
                None
            }
        },
    };
    let knockout = f.opt_bool("knockout").unwrap_or(false);
    if let (Some(h), Some(a)) = (&home, &away) {
        if h == a {
            f.error("away", format!("the same team \"{h}\" on both sides"));
        }
    }
    Some(Event::Match(MatchDef {
        session: session?,
        id: id?,
        home: home?,
        away: away?,
        boards: boards?,
        knockout,
    }))
}

pub(super) fn board(f: &mut Fields) -> Option<u32> {
    f.req_int("board", 1, MAX_BOARD).map(|b| b as u32)
}

pub(super) fn deal(f: &mut Fields) -> Option<Event> {
    let session = f.req_id("session");
    let board = board(f);
    let pbn = f.req_str("pbn");
    if let Some(p) = &pbn {
        if let Err(m) = check_pbn_deal(p) {
            f.error("pbn", m.to_string());
        }
    }
    let dealer = f.opt_str("dealer").and_then(|s| match parse_seat(&s) {
        Ok(x) => Some(x),
        Err(m) => {
            f.error("dealer", m);
            None
        }
    });
    let vul = f.opt_str("vul").and_then(|s| match Vul::parse(&s) {
        Ok(v) => Some(v),
        Err(m) => {
            f.error("vul", m.to_string());
            None
        }
    });
    Some(Event::Deal(DealEv {
        session: session?,
        board: board?,
        pbn: pbn?,
        dealer,
        vul,
    }))
}

/// What a PBN `[Deal]` value is expected to be (every [`BadDeal`] begins with it).
const EXPECTED_DEAL: &str = "expected a PBN deal such as \"N:AKQ2.KJ4.T83.952 ...\" (four hands of 13 cards, suits in the order S.H.D.C)";

/// Why a PBN `[Deal]` value is refused ([`check_pbn_deal`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadDeal {
    #[error("{e}", e = EXPECTED_DEAL)]
    NoSeat,
    #[error("{e}; the first seat must be N, E, S or W, found \"{0}\"", e = EXPECTED_DEAL)]
    FirstSeat(String),
    #[error("{e}; found {0} hands", e = EXPECTED_DEAL)]
    Hands(usize),
    #[error("{e}; partial deals (\"-\") are not accepted", e = EXPECTED_DEAL)]
    Partial,
    #[error("{e}; hand \"{0}\" does not have four suits", e = EXPECTED_DEAL)]
    Suits(String),
    #[error("{e}; \"{0}\" is not a card rank", e = EXPECTED_DEAL)]
    Rank(char),
    #[error("{e}; card {suit}{rank} appears twice", e = EXPECTED_DEAL)]
    Twice { suit: char, rank: char },
    #[error("{e}; hand \"{hand}\" has {count} cards", e = EXPECTED_DEAL)]
    Cards { hand: String, count: usize },
}

/// A PBN `[Deal]` value: `"N:AKQ2.KJ4.T83.952 hand hand hand"`, 52 different cards, 13 a hand.
pub fn check_pbn_deal(p: &str) -> Result<(), BadDeal> {
    let (first, hands) = p.split_once(':').ok_or(BadDeal::NoSeat)?;
    if !["N", "E", "S", "W"].contains(&first.trim()) {
        return Err(BadDeal::FirstSeat(first.to_string()));
    }
    let hands: Vec<&str> = hands.split_whitespace().collect();
    if hands.len() != 4 {
        return Err(BadDeal::Hands(hands.len()));
    }
    let mut seen = [false; 52];
    for h in hands {
        if h == "-" {
            return Err(BadDeal::Partial);
        }
        let suits: Vec<&str> = h.split('.').collect();
        if suits.len() != 4 {
            return Err(BadDeal::Suits(h.to_string()));
        }
        let mut count = 0;
        for (si, s) in suits.iter().enumerate() {
            for c in s.chars() {
                let r = "AKQJT98765432"
                    .find(c.to_ascii_uppercase())
                    .ok_or(BadDeal::Rank(c))?;
                let k = si * 13 + r;
                if seen[k] {
                    return Err(BadDeal::Twice {
                        suit: ['S', 'H', 'D', 'C'][si],
                        rank: c,
                    });
                }
                seen[k] = true;
                count += 1;
            }
        }
        if count != 13 {
            return Err(BadDeal::Cards {
                hand: h.to_string(),
                count,
            });
        }
    }
    Ok(())
}
