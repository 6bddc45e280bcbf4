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
    let (id, form, boards) = (id?, form?, boards?);
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

pub(super) fn players(f: &mut Fields) -> Vec<String> {
    match f.raw("players") {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            let mut out = Vec::new();
            for it in items {
                match it {
                    Value::String(s) => out.push(s.clone()),
                    other => {
                        f.error(
                            "players",
                            format!(
                                "expected a list of names (strings), found {}",
                                describe(other)
                            ),
                        );
                        return Vec::new();
                    }
                }
            }
            out
        }
        Some(other) => {
            let m = format!("expected a list of names, found {}", describe(other));
            f.error("players", m);
            Vec::new()
        }
    }
}

pub(super) fn pair(f: &mut Fields) -> Option<Event> {
    let id = f.req_id("id");
    let section = f.opt_id("section");
    let players = players(f);
    Some(Event::Pair(PairDef {
        id: id?,
        section,
        players,
    }))
}

pub(super) fn team(f: &mut Fields) -> Option<Event> {
    let id = f.req_id("id");
    let name = f.opt_str("name");
    let players = players(f);
    Some(Event::Team(TeamDef {
        id: id?,
        name,
        players,
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
            f.error("pbn", m);
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
            f.error("vul", m);
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

/// A PBN `[Deal]` value: `"N:AKQ2.KJ4.T83.952 hand hand hand"`, 52 different cards, 13 a hand.
pub fn check_pbn_deal(p: &str) -> Result<(), String> {
    let expected = "expected a PBN deal such as \"N:AKQ2.KJ4.T83.952 ...\" (four hands of 13 cards, suits in the order S.H.D.C)";
    let (first, hands) = p.split_once(':').ok_or_else(|| expected.to_string())?;
    if !["N", "E", "S", "W"].contains(&first.trim()) {
        return Err(format!(
            "{expected}; the first seat must be N, E, S or W, found \"{first}\""
        ));
    }
    let hands: Vec<&str> = hands.split_whitespace().collect();
    if hands.len() != 4 {
        return Err(format!("{expected}; found {} hands", hands.len()));
    }
    let mut seen = [false; 52];
    for h in hands {
        if h == "-" {
            return Err(format!(
                "{expected}; partial deals (\"-\") are not accepted"
            ));
        }
        let suits: Vec<&str> = h.split('.').collect();
        if suits.len() != 4 {
            return Err(format!("{expected}; hand \"{h}\" does not have four suits"));
        }
        let mut count = 0;
        for (si, s) in suits.iter().enumerate() {
            for c in s.chars() {
                let r = "AKQJT98765432"
                    .find(c.to_ascii_uppercase())
                    .ok_or_else(|| format!("{expected}; \"{c}\" is not a card rank"))?;
                let k = si * 13 + r;
                if seen[k] {
                    return Err(format!(
                        "{expected}; card {}{c} appears twice",
                        ['S', 'H', 'D', 'C'][si]
                    ));
                }
                seen[k] = true;
                count += 1;
            }
        }
        if count != 13 {
            return Err(format!("{expected}; hand \"{h}\" has {count} cards"));
        }
    }
    Ok(())
}
