//! The events about tables read from their fields: results, rulings, corrections, penalties, fouled boards.

use super::*;

/// The play fields shared by `result` and `correction`.
pub(super) fn play_fields(
    f: &mut Fields,
    with_result: bool,
) -> (
    Option<Bid>,
    Option<crate::bridge::Seat>,
    Option<u8>,
    Option<i8>,
    Option<i32>,
    Option<String>,
) {
    let contract = f.raw("contract").and_then(|v| match v {
        Value::String(s) => match parse_contract(s) {
            Ok(b) => Some(b),
            Err(m) => {
                f.error("contract", m);
                None
            }
        },
        other => {
            let m = format!(
                "expected a contract such as \"4HX\", \"3NT\" or \"PASS\", found {}",
                describe(other)
            );
            f.error("contract", m);
            None
        }
    });
    let declarer = f.opt_str("declarer").and_then(|s| match parse_seat(&s) {
        Ok(seat) => Some(seat),
        Err(m) => {
            f.error("declarer", m);
            None
        }
    });
    let tricks = f.opt_int("tricks", 0, 13).map(|t| t as u8);
    let result = if !with_result { None } else { f.raw("result") }.and_then(|v| match v {
        Value::String(s) => match parse_result_offset(s) {
            Ok(o) => Some(o),
            Err(m) => {
                f.error("result", m);
                None
            }
        },
        other => {
            let m = format!(
                "expected a result such as \"=\", \"+1\" or \"-2\", found {}",
                describe(other)
            );
            f.error("result", m);
            None
        }
    });
    let score = f.opt_int("score", -10_000, 10_000).map(|s| s as i32);
    if let Some(s) = score {
        if s % 10 != 0 {
            f.error(
                "score",
                format!("expected NS points (a multiple of 10), found {s}"),
            );
        }
    }
    let lead = f.opt_str("lead");
    (contract, declarer, tricks, result, score, lead)
}

/// Check the play of one table on its own: tricks and result agree, the contract is complete.
pub fn check_play(play: &Play) -> Vec<(&'static str, String)> {
    let mut errs = Vec::new();
    match play.contract {
        None => {
            if play.score.is_none() {
                errs.push(("contract", "missing; expected a contract (with declarer and tricks or result) or a \"score\" in NS points".to_string()));
            }
            for (name, present) in [
                ("declarer", play.declarer.is_some()),
                ("tricks", play.tricks.is_some()),
                ("result", play.result.is_some()),
            ] {
                if present {
                    errs.push((name, "given without a contract".to_string()));
                }
            }
        }
        Some(Bid::Pass) => {
            for (name, present) in [
                ("declarer", play.declarer.is_some()),
                ("tricks", play.tricks.is_some()),
                ("result", play.result.is_some()),
            ] {
                if present {
                    errs.push((name, "given for a passed-out board".to_string()));
                }
            }
        }
        Some(Bid::Contract(c)) => {
            if play.declarer.is_none() {
                errs.push(("declarer", "missing; expected N, E, S or W".to_string()));
            }
            match (play.tricks, play.result) {
                (None, None) => errs.push(("tricks", "missing; expected \"tricks\" (0-13) or \"result\" (\"=\", \"+1\", \"-2\", ...)".to_string())),
                (Some(t), Some(r)) => {
                    let from_result = 6 + c.level as i32 + r as i32;
                    if from_result != t as i32 {
                        errs.push(("result", format!("disagrees with \"tricks\": {c} with {t} tricks is {}, not {}", offset_text(t as i32 - 6 - c.level as i32), offset_text(r as i32))));
                    }
                }
                (None, Some(r)) => {
                    let t = 6 + c.level as i32 + r as i32;
                    if !(0..=13).contains(&t) {
                        errs.push(("result", format!("{c} {} would take {t} tricks; expected 0..=13", offset_text(r as i32))));
                    }
                }
                (Some(_), None) => {}
            }
        }
    }
    errs
}

pub fn offset_text(o: i32) -> String {
    match o {
        0 => "=".to_string(),
        o if o > 0 => format!("+{o}"),
        o => format!("{o}"),
    }
}

pub(super) fn result(f: &mut Fields) -> Option<Event> {
    let session = f.req_id("session");
    let section = f.opt_id("section");
    let board = board(f);
    let round = f.opt_int("round", 1, 9999).map(|n| n as u32);
    let table = f.opt_int("table", 1, 99_999).map(|n| n as u32);
    let (ns, ew, others) = result_sides(f);
    // Team forms: the match and the room (checked against the session's form by replay).
    let match_id = f.opt_id("match");
    let room = match f.opt_str("room").as_deref() {
        None => None,
        Some("open") => Some(Room::Open),
        Some("closed") => Some(Room::Closed),
        Some(other) => {
            f.error(
                "room",
                format!("expected \"open\" or \"closed\", found \"{other}\""),
            );
            None
        }
    };
    let errors_before = f.errors.len();
    let (contract, declarer, tricks, result, score, lead) = play_fields(f, true);
    let play = Play {
        contract,
        declarer,
        tricks,
        result,
        score,
        lead,
    };
    // A play field given but refused above is already reported: do not also call it missing,
    // or the others "given without a contract" because the contract could not be read.
    let refused: Vec<String> = f.errors[errors_before..]
        .iter()
        .filter_map(|e| e.field.clone())
        .collect();
    let is_refused = |name: &str| refused.iter().any(|r| r == name);
    if !is_refused("contract") {
        for (field, msg) in check_play(&play) {
            let masked = match field {
                "contract" => is_refused("score"),
                "declarer" => is_refused("declarer"),
                "tricks" | "result" => is_refused("tricks") || is_refused("result"),
                _ => false,
            };
            if !masked {
                f.error(field, msg);
            }
        }
    }
    Some(Event::Result(ResultEv {
        session: session?,
        section,
        board: board?,
        round,
        table,
        ns: ns?,
        ew: ew?,
        others: others?,
        play,
        match_id,
        room,
    }))
}

/// The four seats of an individual session's table, in order.
pub const SEATS: [&str; 4] = ["north", "east", "south", "west"];

/// Who sat at a result's table: the NS and EW pairs (`ns`, `ew`), or the four players by seat
/// (`north`, `south`, `east`, `west`: North and East as `ns` and `ew`, the others beside).
fn result_sides(f: &mut Fields) -> (Option<String>, Option<String>, Option<Option<Box<Others>>>) {
    if !SEATS.iter().any(|k| f.has(k)) {
        let ns = f.req_id("ns");
        let ew = f.req_id("ew");
        if let (Some(ns), Some(ew)) = (&ns, &ew) {
            if ns == ew {
                f.error("ew", format!("the same pair \"{ns}\" on both sides"));
            }
        }
        return (ns, ew, Some(None));
    }
    for k in ["ns", "ew"] {
        if f.raw(k).is_some() {
            f.error(k, "a result names its sides by \"ns\" and \"ew\" (pairs) or its four players by seat (\"north\", \"south\", \"east\", \"west\": an individual session), not both");
        }
    }
    let mut got: [Option<String>; 4] = Default::default();
    for (i, k) in SEATS.iter().enumerate() {
        if f.has(k) {
            got[i] = f.req_id(k);
        } else {
            f.raw(k);
            f.error(k, "missing; a result in an individual session names the four players by seat, \"north\", \"south\", \"east\" and \"west\"");
        }
    }
    let Some([n, e, s, w]) = distinct_seats(f, got) else {
        return (None, None, None);
    };
    (
        Some(n),
        Some(e),
        Some(Some(Box::new(Others { south: s, west: w }))),
    )
}

/// Four seats named, each a different player: in [`SEATS`] order; `None` after an error.
fn distinct_seats(f: &mut Fields, got: [Option<String>; 4]) -> Option<[String; 4]> {
    let [n, e, s, w] = got;
    let seats = [n?, e?, s?, w?];
    // In the order a reader meets them: North, South, East, West.
    let order = [0, 2, 1, 3];
    for (k, &i) in order.iter().enumerate() {
        if let Some(&j) = order[..k].iter().find(|&&j| seats[j] == seats[i]) {
            let partners = i % 2 == j % 2;
            let seat = |x: usize| ["North", "East", "South", "West"][x];
            let why = if partners {
                "a player cannot partner themself"
            } else {
                "a player cannot play against themself"
            };
            f.error(
                SEATS[i],
                format!(
                    "player \"{}\" is also {} at this table; {why} (a result names four different players)",
                    seats[i],
                    seat(j)
                ),
            );
            return None;
        }
    }
    Some(seats)
}

/// Points as written in a subsequent-damage entry: `"+620"`, `"-100"`, `620`.
pub(super) fn sd_points(
    f: &mut Fields,
    obj: &Map<String, Value>,
    name: &'static str,
    required: bool,
) -> Option<i32> {
    let field = format!("subsequent_damage.{name}");
    match obj.get(name) {
        None | Some(Value::Null) => {
            if required {
                f.errors.push(LogError::new(
                    f.line(),
                    Some(&field),
                    "missing; expected NS points such as \"+620\"",
                ));
            }
            None
        }
        Some(v) => {
            let parsed = match v {
                Value::Number(n) => n.as_i64(),
                Value::String(s) => {
                    let s = s.trim().replace(['\u{2212}', '\u{2013}'], "-");
                    s.strip_prefix('+').unwrap_or(&s).parse::<i64>().ok()
                }
                _ => None,
            };
            match parsed {
                Some(p) if (-10_000..=10_000).contains(&p) => Some(p as i32),
                _ => {
                    f.errors.push(LogError::new(
                        f.line(),
                        Some(&field),
                        format!("expected NS points such as \"+620\", found {}", describe(v)),
                    ));
                    None
                }
            }
        }
    }
}

/// A `ruling` event: the table it rules on and its adjusted score.
pub(super) fn ruling(f: &mut Fields) -> Option<Event> {
    let id = f.req_id("id");
    let session = f.req_id("session");
    let board = board(f);
    let (ns, ew, by_north, others) = ruling_sides(f);
    let law = f.opt_str("law");
    let supersedes = f.opt_id("supersedes");
    let score_text = f.raw("score");
    let sd_value = f.raw("subsequent_damage");
    let top_offenders = f.raw("offenders");
    let mut sd = None;
    let score = ruling_score(f, score_text, sd_value, top_offenders, &mut sd);
    Some(Event::Ruling(RulingEv {
        id: id?,
        session: session?,
        board: board?,
        ns: ns?,
        ew,
        by_north,
        others: others?,
        score: score?,
        sd,
        law,
        supersedes,
    }))
}

/// The table a ruling names: by its NS pair (`ns`, and `ew` to create it), or by its North
/// player (`north`, and `south`, `east`, `west` to create it or to check it).
#[allow(clippy::type_complexity)]
fn ruling_sides(
    f: &mut Fields,
) -> (
    Option<String>,
    Option<String>,
    bool,
    Option<Option<Box<Others>>>,
) {
    if !SEATS.iter().any(|k| f.has(k)) {
        let ns = f.req_id("ns");
        let ew = f.opt_id("ew");
        if let (Some(ns), Some(ew)) = (&ns, &ew) {
            if ns == ew {
                f.error("ew", format!("the same pair \"{ns}\" on both sides"));
            }
        }
        return (ns, ew, false, Some(None));
    }
    for k in ["ns", "ew"] {
        if f.raw(k).is_some() {
            f.error(k, "a ruling names its table by \"ns\" (pairs) or by \"north\" (an individual session), not both");
        }
    }
    let north = f.req_id("north");
    let rest = ["east", "south", "west"];
    if !rest.iter().any(|k| f.has(k)) {
        return (north, None, true, Some(None));
    }
    let mut got: [Option<String>; 4] = [north.clone(), None, None, None];
    for (i, k) in rest.iter().enumerate() {
        if f.has(k) {
            got[i + 1] = f.req_id(k);
        } else {
            f.raw(k);
            f.error(k, "missing; a ruling that names more than North names every seat: \"south\", \"east\" and \"west\"");
        }
    }
    let Some([n, e, s, w]) = distinct_seats(f, got) else {
        return (north, None, true, None);
    };
    (
        Some(n),
        Some(e),
        true,
        Some(Some(Box::new(Others { south: s, west: w }))),
    )
}

/// A ruling's score: its `score` in adjusted-score notation, or its `subsequent_damage` object
/// (kept in `sd`) expanded.
fn ruling_score(
    f: &mut Fields,
    score_text: Option<&Value>,
    sd_value: Option<&Value>,
    top_offenders: Option<&Value>,
    sd: &mut Option<SubsequentDamage>,
) -> Option<crate::adjust::AdjustedScore> {
    match (score_text, sd_value) {
        (Some(_), Some(_)) => {
            f.error(
                "subsequent_damage",
                "give either \"score\" or \"subsequent_damage\", not both",
            );
            None
        }
        (None, None) => {
            f.error("score", "missing; a ruling must give a \"score\" in adjusted-score notation, e.g. \"(60%+620&40%-100)\", or a \"subsequent_damage\" object");
            None
        }
        (Some(Value::String(s)), None) => {
            if top_offenders.is_some() {
                f.error("offenders", "belongs to a \"subsequent_damage\" ruling");
            }
            match parse_adjusted(s) {
                Ok(a) => Some(a),
                Err(e) => {
                    f.error("score", e.message);
                    None
                }
            }
        }
        (Some(other), None) => {
            let m = format!("expected adjusted-score notation as a string, e.g. \"(60%+620&40%-100)\", found {}", describe(other));
            f.error("score", m);
            None
        }
        (None, Some(Value::Object(obj))) => subsequent_damage(f, obj, top_offenders, sd),
        (None, Some(other)) => {
            let m = format!("expected an object {{\"side\":\"NS\",\"before\":\"+620\",\"after_infraction\":\"+500\",\"after_loss\":\"+150\"}}, found {}", describe(other));
            f.error("subsequent_damage", m);
            None
        }
    }
}

/// A ruling's `subsequent_damage` object expanded to its score (the object kept in `sd`); an
/// `offenders` outside the object counts as inside.
fn subsequent_damage(
    f: &mut Fields,
    obj: &Map<String, Value>,
    top_offenders: Option<&Value>,
    sd: &mut Option<SubsequentDamage>,
) -> Option<crate::adjust::AdjustedScore> {
    for k in obj.keys() {
        if !crate::adjust::sd::FIELDS.contains(&k.as_str()) {
            f.errors.push(LogError::new(
                f.line(),
                Some(&format!("subsequent_damage.{k}")),
                "unknown field (expected side, before, after_infraction, after_loss, offenders)",
            ));
        }
    }
    let side = sd_side(f, obj);
    let before = sd_points(f, obj, "before", true);
    let after_inf = sd_points(f, obj, "after_infraction", true);
    let after_loss = sd_points(f, obj, "after_loss", true);
    let mut offenders = sd_points(f, obj, "offenders", false);
    if let Some(v) = top_offenders {
        if offenders.is_some() {
            f.error(
                "offenders",
                "given twice (inside and outside \"subsequent_damage\")",
            );
        } else {
            let mut wrap = Map::new();
            wrap.insert("offenders".to_string(), v.clone());
            offenders = sd_points(f, &wrap, "offenders", false);
        }
    }
    match (side, before, after_inf, after_loss) {
        (Some(nos), Some(before), Some(after_infraction), Some(after_loss)) => {
            let d = SubsequentDamage {
                nos,
                before,
                after_infraction,
                after_loss,
                offenders: offenders.unwrap_or(before),
            };
            match d.expand() {
                Ok(a) => {
                    *sd = Some(d);
                    Some(a)
                }
                Err(e) => {
                    f.error("subsequent_damage", e.message);
                    None
                }
            }
        }
        _ => None,
    }
}

/// The non-offending side of a `subsequent_damage` object.
fn sd_side(f: &mut Fields, obj: &Map<String, Value>) -> Option<Side> {
    match obj.get("side") {
        Some(Value::String(s)) if s == "NS" => Some(Side::NS),
        Some(Value::String(s)) if s == "EW" => Some(Side::EW),
        Some(other) => {
            f.errors.push(LogError::new(
                f.line(),
                Some("subsequent_damage.side"),
                format!(
                    "expected \"NS\" or \"EW\" (the non-offending side), found {}",
                    describe(other)
                ),
            ));
            None
        }
        None => {
            f.errors.push(LogError::new(
                f.line(),
                Some("subsequent_damage.side"),
                "missing; expected \"NS\" or \"EW\" (the non-offending side)",
            ));
            None
        }
    }
}

pub(super) fn correction(f: &mut Fields) -> Option<Event> {
    let result = f.req_int("result", 1, i64::MAX);
    // In a correction `result` is the seq of the corrected event; the trick count is given as
    // `tricks` (C3).
    let (contract, declarer, tricks, result_offset, score, lead) = play_fields(f, false);
    if contract.is_none()
        && declarer.is_none()
        && tricks.is_none()
        && result_offset.is_none()
        && score.is_none()
        && lead.is_none()
        && f.errors.is_empty()
    {
        f.error("result", "a correction must give at least one field to replace (contract, declarer, tricks, result, score or lead)");
    }
    Some(Event::Correction(CorrectionEv {
        result: result? as usize,
        contract,
        declarer,
        tricks,
        result_offset,
        score,
        lead,
    }))
}

pub(super) fn penalty(f: &mut Fields, sessions: &[(String, Form)]) -> Option<Event> {
    let session = f.req_id("session");
    let participant = f.req_id("participant");
    let board = f.opt_int("board", 1, MAX_BOARD).map(|b| b as u32);
    let law = f.opt_str("law");
    let match_id = f.opt_id("match");
    let mut found: Vec<(PenaltyUnit, Q)> = Vec::new();
    for (name, unit) in PenaltyUnit::ALL {
        if let Some(v) = f.raw(name) {
            let q = match v {
                Value::Number(n) => Q::parse(&n.to_string()),
                _ => None,
            };
            match q {
                Some(q) if q > Q::ZERO => found.push((unit, q)),
                _ => f.error(
                    name,
                    format!("expected a positive number, found {}", describe(v)),
                ),
            }
        }
    }
    let (unit, amount) = match found.as_slice() {
        [one] => *one,
        [] => {
            if f.errors.is_empty() {
                f.error("pct_of_top", "missing; a penalty needs one amount: \"pct_of_top\", \"mp\", \"imp\" or \"vp\"");
            }
            return None;
        }
        _ => {
            f.error(found[1].0.name(), "a penalty gives one unit only");
            return None;
        }
    };
    let session = session?;
    if let Some((_, form)) = sessions.iter().find(|(s, _)| *s == session) {
        let allowed = PenaltyUnit::allowed_for(*form);
        if !allowed.contains(&unit) {
            let names: Vec<_> = allowed
                .iter()
                .map(|u| format!("\"{}\"", u.name()))
                .collect();
            f.error(
                unit.name(),
                format!(
                    "a \"{}\" session takes penalties in {} (conventions C20)",
                    form.name(),
                    names.join(" or ")
                ),
            );
        }
    }
    Some(Event::Penalty(PenaltyEv {
        session,
        participant: participant?,
        unit,
        amount,
        board,
        law,
        match_id,
    }))
}

pub(super) fn fouled(f: &mut Fields) -> Option<Event> {
    let session = f.req_id("session");
    let board = board(f);
    let expected = "expected a non-empty list of non-empty lists of NS pair ids, e.g. [[\"12\",\"3\"],[\"1\",\"9\"]]";
    let groups = match f.raw("groups") {
        None => {
            f.error("groups", format!("missing; {expected}"));
            None
        }
        Some(Value::Array(gs)) if !gs.is_empty() => {
            let mut out = Vec::new();
            let mut ok = true;
            for g in gs {
                match g {
                    Value::Array(ids) if !ids.is_empty() => {
                        let mut grp = Vec::new();
                        for id in ids {
                            match id {
                                Value::String(s) if !s.trim().is_empty() => grp.push(s.clone()),
                                other => {
                                    f.error("groups", format!("{expected}; found {} in a group (ids are JSON strings)", describe(other)));
                                    ok = false;
                                }
                            }
                        }
                        out.push(grp);
                    }
                    other => {
                        f.error("groups", format!("{expected}; found {}", describe(other)));
                        ok = false;
                    }
                }
            }
            ok.then_some(out)
        }
        Some(other) => {
            let m = format!("{expected}; found {}", describe(other));
            f.error("groups", m);
            None
        }
    };
    Some(Event::Fouled(FouledEv {
        session: session?,
        board: board?,
        groups: groups?,
    }))
}
