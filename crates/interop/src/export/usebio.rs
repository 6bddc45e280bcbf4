//! USEBIO 1.2 output (`frekans export --format usebio`): the scored championship as the XML
//! that federations and results sites take, written with quick-xml's writer (names and notes
//! are escaped by the library: they are data). A pure function from the scoring to bytes.
//!
//! Each session is a `SESSION` (pairs: one `SECTION` per section), each participant with its
//! `TOTAL_SCORE`, `PERCENTAGE` (MP) and `PLACE` (`3=` when shared), each traveller line with
//! its score and its points in the session's form (`NS_MATCH_POINTS`, `NS_CROSS_IMP_POINTS`,
//! `NS_BUTLER_POINTS` with the datum as `BOARD_AVERAGE`), team matches with `IMPS` per board and
//! the VPs (or board points) as `TEAM_SCORE`. An adjusted score USEBIO can say is written its
//! way (`A6040`); any other is written as what was played and its resulting points, the ruling
//! in `NOTES` (`frekans adjusted score: ...`, which the reader takes back). Sessions of one
//! form make one `EVENT` (a log of several forms, an `EVENT` for each run of sessions of one
//! form); what USEBIO cannot say of a session (its options, penalties, fouled boards, a form
//! without a USEBIO name) is a root `NOTES` (`frekans session: {...}`, `export::notes`).
//!
//! Every text is escaped here ([`xml`]): markup as entities; tab, line breaks, DEL and
//! U+0080–U+009F as character references (kept exactly by every reader); the characters XML 1.0
//! cannot hold at all (the other controls below U+0020, U+FFFE, U+FFFF) as `\u{1b}`
//! (`export::notes::write_text`), so that the file is well-formed whatever the log holds.

use std::borrow::Cow;
use std::fmt::Write as _;

use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use super::notes;
use super::results::{artificial_token, decimal, place, LineView, SessionView};
use crate::bridge::Bid;
use crate::replay::State;
use crate::score::Form;

/// The prefix of a ruling USEBIO cannot say, in a traveller line's `NOTES`.
pub const NOTES_PREFIX: &str = notes::RULING_PREFIX;
/// The prefix of a ruling given as subsequent damage (kept so, as `sd_method` treats it apart).
pub const NOTES_SD_PREFIX: &str = notes::SD_PREFIX;

type W = Writer<Vec<u8>>;
type R = std::io::Result<()>;

/// Whether XML 1.0 cannot hold `c`, not even as a character reference: the controls below U+0020
/// other than tab, line feed and carriage return, and the noncharacters U+FFFE and U+FFFF.
pub fn not_xml(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// `s` as XML text or an attribute's value: `<>&"'` as entities; tab, line feed, carriage
/// return, DEL and U+0080–U+009F as character references (raw, a reader would take a line
/// break in an attribute for a space and a carriage return for a line feed); what XML cannot
/// hold ([`not_xml`]) in `\u{1b}` notation (`export::notes::write_text`).
pub fn xml(s: &str) -> Cow<'_, str> {
    let special = |c: char| matches!(c, '<' | '>' | '&' | '"' | '\'' | '\\') || c.is_control();
    if !s.contains(special) && !s.contains(['\u{fffe}', '\u{ffff}']) {
        return Cow::Borrowed(s);
    }
    let text = notes::write_text(s, not_xml);
    let mut o = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '&' => o.push_str("&amp;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if c.is_control() => {
                let _ = write!(o, "&#x{:X};", c as u32);
            }
            c => o.push(c),
        }
    }
    Cow::Owned(o)
}

fn open(w: &mut W, name: &str, attrs: &[(&str, &str)]) -> R {
    let mut s = BytesStart::new(name);
    for (k, v) in attrs {
        s.push_attribute(Attribute::from((k.as_bytes(), xml(v).as_bytes())));
    }
    w.write_event(Event::Start(s))
}

fn close(w: &mut W, name: &str) -> R {
    w.write_event(Event::End(BytesEnd::new(name)))
}

fn leaf(w: &mut W, name: &str, text: &str) -> R {
    w.create_element(name)
        .write_text_content(BytesText::from_escaped(xml(text)))
        .map(|_| ())
}

/// The USEBIO file of the sessions given.
pub fn write(state: &State, sessions: &[SessionView]) -> Result<Vec<u8>, String> {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 1);
    body(&mut w, state, sessions).map_err(|e| e.to_string())?;
    let mut out = w.into_inner();
    out.push(b'\n');
    Ok(out)
}

fn body(w: &mut W, state: &State, sessions: &[SessionView]) -> R {
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    w.write_event(Event::DocType(BytesText::from_escaped(
        "USEBIO SYSTEM \"http://www.ebu.co.uk/usebio/usebio_v1_2.dtd\"",
    )))?;
    open(w, "USEBIO", &[("Version", "1.2")])?;
    // Each run of sessions of one form and kind is an EVENT (the form and the kind are an
    // EVENT's).
    let mut rest = sessions;
    while !rest.is_empty() {
        let n = rest
            .iter()
            .take_while(|s| s.form == rest[0].form && std::ptr::eq(s.kind, rest[0].kind))
            .count();
        event(w, state, &rest[..n])?;
        rest = &rest[n..];
    }
    if sessions.is_empty() {
        event(w, state, sessions)?;
    }
    for s in sessions {
        leaf(w, "NOTES", &notes::session(&s.note))?;
    }
    close(w, "USEBIO")
}

/// One EVENT: sessions of one form.
fn event(w: &mut W, state: &State, sessions: &[SessionView]) -> R {
    let form = sessions.first().map_or(Form::Mp, |s| s.form);
    let knockout = sessions
        .iter()
        .any(|s| s.matches.iter().any(|m| m.knockout));
    let Some(u) = &form.spec().usebio else {
        unreachable!("checked by the caller")
    };
    // (an individual event's EVENT_TYPE is its kind's: `INDIVIDUAL`)
    let seated = event_type_of(sessions);
    let event_type = match &seated {
        Some(t) => t.as_str(),
        None if knockout => u.knockout_event_type,
        None => u.event_type,
    };
    let (board_method, match_method) = (u.board_scoring_method, u.match_scoring_method);
    open(w, "EVENT", &[("EVENT_TYPE", event_type)])?;
    leaf(w, "BOARD_SCORING_METHOD", board_method)?;
    if let Some(m) = match_method {
        leaf(w, "MATCH_SCORING_METHOD", m)?;
    }
    leaf(w, "PROGRAM_NAME", "frekans")?;
    leaf(w, "PROGRAM_VERSION", env!("CARGO_PKG_VERSION"))?;
    let c = &state.championship;
    if let Some(n) = &c.name {
        leaf(w, "EVENT_DESCRIPTION", n)?;
    }
    if let Some(d) = &c.date {
        leaf(w, "DATE", &usebio_date(d))?;
    }
    if let Some(p) = &c.place {
        leaf(w, "VENUE", p)?;
    }
    leaf(w, "SESSION_COUNT", &sessions.len().to_string())?;
    for s in sessions {
        session(w, s)?;
    }
    close(w, "EVENT")
}

/// The EVENT_TYPE of sessions of a kind seating four players (`INDIVIDUAL`), repeated on their
/// PARTICIPANTS and BOARDs as the USEBIO specimen of an individual event writes it.
fn event_type_of(sessions: &[SessionView]) -> Option<String> {
    let kind = sessions.first()?.kind;
    kind.seated.then(|| kind.declared.to_ascii_uppercase())
}

/// `2026-11-21` → `21/11/2026` (USEBIO's DATE); anything else as written.
fn usebio_date(d: &str) -> String {
    let p: Vec<&str> = d.split('-').collect();
    match p[..] {
        [y, m, dd] if y.len() == 4 && m.len() == 2 && dd.len() == 2 => format!("{dd}/{m}/{y}"),
        _ => d.to_string(),
    }
}

fn session(w: &mut W, s: &SessionView) -> R {
    let name = s.id.to_string();
    open(w, "SESSION", &[("SESSION_ID", name.as_str())])?;
    if s.kind.in_matches {
        participants(w, s, None)?;
        for m in &s.matches {
            open(w, "MATCH", &[])?;
            leaf(w, "TEAM", m.home)?;
            leaf(w, "OPPOSING_TEAM", m.away)?;
            // (the match's boards, scored or not)
            let declared = s.note.matches.iter().find(|n| n.id == m.id);
            let boards = declared.map(|n| n.boards.as_slice()).unwrap_or_default();
            if let (Some(a), Some(b)) = (boards.first(), boards.last()) {
                leaf(w, "START_BOARD_NUMBER", &a.to_string())?;
                leaf(w, "END_BOARD_NUMBER", &b.to_string())?;
            }
            leaf(w, "TEAM_SCORE", &decimal(m.vp_home.to_f64(), 2))?;
            leaf(w, "OPPOSING_TEAM_SCORE", &decimal(m.vp_away.to_f64(), 2))?;
            for (b, home, away, tables) in &m.boards {
                open(w, "BOARD", &[])?;
                leaf(w, "BOARD_NUMBER", &b.to_string())?;
                if s.form.spec().usebio.as_ref().is_some_and(|u| u.team_points) {
                    leaf(w, "TEAM_POINTS", &decimal(home.to_f64(), 2))?;
                    leaf(w, "OPPOSING_TEAM_POINTS", &decimal(away.to_f64(), 2))?;
                } else {
                    leaf(w, "IMPS", &decimal(home.to_f64(), 2))?;
                }
                for l in tables {
                    line(w, s, l, Some(if l.open { "NS" } else { "EW" }))?;
                }
                close(w, "BOARD")?;
            }
            close(w, "MATCH")?;
        }
    } else {
        let mut sections: Vec<Option<&str>> = s.lines.iter().map(|l| l.section).collect();
        sections.extend(s.participants.iter().map(|p| p.section));
        sections.sort();
        sections.dedup();
        for sec in sections {
            if let Some(id) = sec {
                open(w, "SECTION", &[("SECTION_ID", id)])?;
            }
            participants(w, s, Some(sec))?;
            let mut board = None;
            for l in s.lines.iter().filter(|l| l.section == sec) {
                if board != Some(l.board) {
                    if board.is_some() {
                        close(w, "BOARD")?;
                    }
                    board = Some(l.board);
                    match event_type_of(std::slice::from_ref(s)) {
                        Some(t) => open(w, "BOARD", &[("EVENT_TYPE", &t)])?,
                        None => open(w, "BOARD", &[])?,
                    }
                    leaf(w, "BOARD_NUMBER", &l.board.to_string())?;
                    if let Some(d) = s.datum.get(&(l.board, l.group.clone())) {
                        leaf(w, "BOARD_AVERAGE", &decimal(d.to_f64(), 2))?;
                    }
                }
                line(w, s, l, None)?;
            }
            if board.is_some() {
                close(w, "BOARD")?;
            }
            if sec.is_some() {
                close(w, "SECTION")?;
            }
        }
    }
    hands(w, s)?;
    close(w, "SESSION")
}

/// The participants of one section (pair forms) or all teams.
fn participants(w: &mut W, s: &SessionView, section: Option<Option<&str>>) -> R {
    let seated = event_type_of(std::slice::from_ref(s));
    match &seated {
        Some(t) => open(w, "PARTICIPANTS", &[("EVENT_TYPE", t)])?,
        None => open(w, "PARTICIPANTS", &[])?,
    }
    for p in s
        .participants
        .iter()
        .filter(|p| section.is_none_or(|sec| p.section == sec))
    {
        if seated.is_some() {
            player(w, s, p)?;
            continue;
        }
        let element = s.kind.usebio_participant;
        if s.kind.in_matches {
            let name = p.name.unwrap_or_default();
            open(w, element, &[("TEAM_ID", p.id), ("TEAM_NAME", name)])?;
        } else {
            open(w, element, &[])?;
            leaf(w, "PAIR_NUMBER", p.id)?;
        }
        leaf(w, "TOTAL_SCORE", &decimal(p.total, 2))?;
        if let Some(pct) = p.pct {
            leaf(w, "PERCENTAGE", &decimal(pct, 2))?;
        }
        leaf(w, "PLACE", &place(p.rank, p.rank_to))?;
        if s.kind.in_matches {
            // A team's players go two by two in PAIRs (`T1-1`, `T1-2`...), as team files
            // hold them.
            for (k, two) in p.players.chunks(2).enumerate() {
                open(w, "PAIR", &[])?;
                leaf(w, "PAIR_NUMBER", &format!("{}-{}", p.id, k + 1))?;
                players(w, two, p.player_ids.get(2 * k..).unwrap_or_default())?;
                close(w, "PAIR")?;
            }
        } else {
            leaf(w, "BOARDS_PLAYED", &p.boards.to_string())?;
            players(w, p.players, p.player_ids)?;
        }
        close(w, element)?;
    }
    close(w, "PARTICIPANTS")
}

/// A player of an individual event, as the USEBIO specimen writes one: `PLAYER_NUMBER`,
/// `PLACE`, `PERCENTAGE` (matchpoints), `PLAYER_NAME`, `NATIONAL_ID_NUMBER` (the `member`).
fn player(w: &mut W, s: &SessionView, p: &super::results::ParticipantView) -> R {
    open(w, s.kind.usebio_participant, &[])?;
    leaf(w, "PLAYER_NUMBER", p.id)?;
    leaf(w, "PLACE", &place(p.rank, p.rank_to))?;
    if let Some(pct) = p.pct {
        leaf(w, "PERCENTAGE", &decimal(pct, 2))?;
    }
    if let Some(name) = p.players.first() {
        leaf(w, "PLAYER_NAME", name)?;
    }
    if let Some(id) = p.player_ids.first().and_then(Option::as_deref) {
        leaf(w, "NATIONAL_ID_NUMBER", id)?;
    }
    close(w, s.kind.usebio_participant)
}

/// Each player's name, and its federation member number (`NATIONAL_ID_NUMBER`, where EBUScore
/// and Compscore write it) when known: `ids` beside `names`.
fn players(w: &mut W, names: &[String], ids: &[Option<String>]) -> R {
    for (i, name) in names.iter().enumerate() {
        open(w, "PLAYER", &[])?;
        leaf(w, "PLAYER_NAME", name)?;
        if let Some(id) = ids.get(i).and_then(Option::as_deref) {
            leaf(w, "NATIONAL_ID_NUMBER", id)?;
        }
        close(w, "PLAYER")?;
    }
    Ok(())
}

/// `4Sx` as USEBIO files write doubled contracts.
fn contract_text(b: Bid) -> String {
    let s = b.to_string();
    s.replace("XX", "xx").replace('X', "x")
}

fn line(w: &mut W, s: &SessionView, l: &LineView, direction: Option<&str>) -> R {
    open(w, "TRAVELLER_LINE", &[])?;
    if let Some(d) = direction {
        leaf(w, "DIRECTION", d)?;
    }
    match l.others {
        Some([south, west]) => {
            leaf(w, "N_PLAYER_NUMBER", l.ns)?;
            leaf(w, "S_PLAYER_NUMBER", south)?;
            leaf(w, "E_PLAYER_NUMBER", l.ew)?;
            leaf(w, "W_PLAYER_NUMBER", west)?;
        }
        None => {
            leaf(w, "NS_PAIR_NUMBER", l.ns)?;
            leaf(w, "EW_PAIR_NUMBER", l.ew)?;
        }
    }
    let token = l.ruling.as_ref().and_then(|r| artificial_token(r.score));
    if let Some(c) = l.contract {
        leaf(w, "CONTRACT", &contract_text(c))?;
        if let Some(d) = l.declarer {
            leaf(w, "PLAYED_BY", &d.letter().to_string())?;
        }
        if let Some(lead) = l.lead {
            leaf(w, "LEAD", lead)?;
        }
        if let Some(t) = l.tricks {
            leaf(w, "TRICKS", &t.to_string())?;
        }
    }
    // A reader checks SCORE against the contract with the board number's vulnerability: a
    // board dealt with another (the session note says which) gives its contract alone.
    let played_out = l.contract.is_some() && l.declarer.is_some() && l.tricks.is_some();
    let other_vul = played_out && s.note.deal(l.board).is_some();
    match (&token, l.ns_points) {
        (Some(t), _) => leaf(w, "SCORE", t)?,
        (None, Some(_)) if other_vul => {}
        (None, Some(p)) => leaf(w, "SCORE", &p.to_string())?,
        (None, None) => {}
    }
    if let (Some(r), None) = (&l.ruling, &token) {
        leaf(w, "NOTES", &notes::ruling(r))?;
    }
    let names = s.form.spec().usebio.as_ref().and_then(|u| u.line_points);
    if let (Some((ns_name, ew_name)), Some(ns), Some(ew)) = (names, l.ns_score, l.ew_score) {
        leaf(w, ns_name, &decimal(ns.to_f64(), 2))?;
        leaf(w, ew_name, &decimal(ew.to_f64(), 2))?;
    }
    close(w, "TRAVELLER_LINE")
}

/// The session's hands: a `HANDSET` of the boards with a `deal`.
fn hands(w: &mut W, s: &SessionView) -> R {
    if s.deals.is_empty() {
        return Ok(());
    }
    open(w, "HANDSET", &[])?;
    for (b, (pbn, _, _)) in &s.deals {
        open(w, "BOARD", &[])?;
        leaf(w, "BOARD_NUMBER", &b.to_string())?;
        for (seat, hand) in seats(pbn) {
            open(w, "HAND", &[])?;
            leaf(w, "DIRECTION", seat)?;
            let suits: Vec<&str> = hand.split('.').collect();
            for (i, name) in ["SPADES", "HEARTS", "DIAMONDS", "CLUBS"].iter().enumerate() {
                leaf(w, name, suits.get(i).copied().unwrap_or_default())?;
            }
            close(w, "HAND")?;
        }
        close(w, "BOARD")?;
    }
    close(w, "HANDSET")
}

/// A PBN deal's four hands, North first.
pub fn seats(pbn: &str) -> Vec<(&'static str, String)> {
    let names = ["North", "East", "South", "West"];
    let Some((first, rest)) = pbn.trim().split_once(':') else {
        return Vec::new();
    };
    let start = match first.trim().to_ascii_uppercase().as_str() {
        "N" => 0,
        "E" => 1,
        "S" => 2,
        "W" => 3,
        _ => return Vec::new(),
    };
    let hands: Vec<&str> = rest.split_whitespace().collect();
    let mut out: Vec<(usize, String)> = hands
        .iter()
        .enumerate()
        .map(|(i, h)| ((start + i) % 4, h.to_string()))
        .collect();
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(i, h)| (names[i], h)).collect()
}
