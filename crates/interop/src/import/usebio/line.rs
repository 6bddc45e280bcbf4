//! One traveller line of a USEBIO file read into a result and its adjusted score, how a
//! session's lines are compared (`compare`), and the hands of a HANDSET read into deals.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use super::tree::{Element, Tl};
use super::{Cx, Line, Play};
use crate::bridge::{ns_points, parse_contract, parse_seat, vul_of, Bid, Seat};
use crate::score::Form;

impl Cx<'_> {
    /// One traveller line: contract, declarer and tricks, a bare score, or an artificial score.
    pub(super) fn line<'t>(
        &mut self,
        tl: Tl<'t>,
        board: u32,
        (ns, ew): (&'t str, &'t str),
        section: Option<&'t str>,
        team: Option<(usize, &'static str)>,
    ) -> Option<Line<'t>> {
        let (read, unreadable) = play_fields(tl);
        let (score, artificial) = self.line_score(tl)?;
        let play = match unreadable {
            Some((path, m)) => self.score_alone(path, m, score, artificial.as_deref())?,
            None => self.checked_play(tl, board, read, score, artificial.is_some())?,
        };
        let lead = play.as_ref().and(tl.text_of("LEAD"));
        Some(Line {
            board,
            ns,
            ew,
            section,
            play,
            lead,
            artificial,
            path: tl.path(),
            team,
            others: None,
        })
    }

    /// A line's SCORE (NS's points) or adjusted score (`A6040`, or a ruling frekans's export
    /// wrote in NOTES); `None` (a problem) when one cannot be read.
    fn line_score(&mut self, tl: Tl) -> Option<(Option<i32>, Option<Box<Artificial>>)> {
        let score_text = tl.text_of("SCORE");
        let mut artificial = None;
        let mut score = None;
        if let Some(t) = score_text {
            if let Some(rest) = t.strip_prefix(['A', 'a']) {
                match artificial_of(rest) {
                    Some(s) => {
                        let mut m = Map::new();
                        m.insert("score".into(), json!(s));
                        artificial = Some(Box::new((m, t.to_string(), "12C".to_string())))
                    }
                    None => {
                        self.line_problem(
                            tl.path_of("SCORE"),
                            format!("{}: expected NS points or an adjusted score such as A6040 (A, then NS and EW percentages)", crate::import::quote(t)),
                        );
                        return None;
                    }
                }
            } else {
                match t.parse::<i32>() {
                    Ok(n) if n.abs() <= 10_000 && n % 10 == 0 => score = Some(n),
                    _ => {
                        self.line_problem(
                            tl.path_of("SCORE"),
                            format!("{}: expected NS points (a multiple of 10) or an adjusted score such as A6040", crate::import::quote(t)),
                        );
                        return None;
                    }
                }
            }
        }
        // A ruling USEBIO cannot say, as frekans's export writes it in NOTES.
        if let Some(n) = tl.text_of("NOTES") {
            match notes_ruling(n) {
                Some(Ok(r)) if artificial.is_none() => artificial = Some(Box::new(r)),
                None | Some(Ok(_)) => {}
                Some(Err(m)) => {
                    self.line_problem(tl.path_of("NOTES"), m.to_string());
                    return None;
                }
            }
        }
        Some((score, artificial))
    }

    /// A line whose play cannot be read (`path`, why: `m`) taken by its score, or its adjusted
    /// score, alone, with a notice: what was played (`None`: only the adjusted score); `None`
    /// (a problem) under `--strict` or without a score.
    fn score_alone(
        &mut self,
        path: String,
        m: String,
        score: Option<i32>,
        artificial: Option<&Artificial>,
    ) -> Option<Option<Play>> {
        // A slip (a real file writes `<CONTRACT>42</CONTRACT>` beside its right score): the
        // line by its score, or its adjusted score, alone.
        let taken = match (score, artificial) {
            (Some(s), _) => Some((Some(Play::Score(s)), format!("{s} for NS"))),
            (None, Some(a)) => Some((None, format!("the adjusted score {}", a.1))),
            (None, None) => None,
        };
        let Some((play, what)) = taken.filter(|_| !self.req.strict) else {
            self.line_problem(path, m);
            return None;
        };
        self.notices.push(crate::import::Problem {
            file: self.file.to_string(),
            at: path,
            message: format!(
                "{m}; the play cannot be read, so the line is taken by its score alone ({what})"
            ),
        });
        Some(play)
    }

    /// What was played at a table, from its contract, declarer and tricks checked against its
    /// score (`None` inside: only an adjusted score); `None` (a problem) when they disagree or
    /// say too little.
    fn checked_play(
        &mut self,
        tl: Tl,
        board: u32,
        (contract, declarer, tricks): PlayFields,
        score: Option<i32>,
        adjusted: bool,
    ) -> Option<Option<Play>> {
        let mut play = Some(Play::Pass);
        match (contract, declarer, tricks) {
            (Some(Bid::Pass), _, _) => {
                if let Some(s) = score.filter(|&s| s != 0) {
                    self.line_problem(
                        tl.path_of("SCORE"),
                        format!("{s} for a passed-out board; expected 0"),
                    );
                    return None;
                }
            }
            (Some(b @ Bid::Contract(_)), Some(d), Some(t)) => {
                let vul = vul_of(board);
                let points = ns_points(b, d, t, vul);
                if let Some(s) = score {
                    if s != points {
                        self.line_problem(
                            tl.path_of("SCORE"),
                            format!(
                                "{s} contradicts {b} by {} with {t} tricks on board {board} (vulnerable: {}), which scores {points} for NS",
                                d.letter(),
                                vul.as_str()
                            ),
                        );
                        return None;
                    }
                }
                play = Some(Play::Contract(b, d, t));
            }
            (Some(b @ Bid::Contract(_)), d, t) => match score {
                Some(s) => play = Some(Play::Score(s)),
                None if adjusted => play = None,
                None => {
                    let missing = if d.is_none() { "PLAYED_BY" } else { "TRICKS" };
                    let _ = t;
                    self.line_problem(
                        tl.path_of(missing),
                        format!("missing; expected the declarer and tricks of {b}, or a SCORE"),
                    );
                    return None;
                }
            },
            (None, _, _) => match score {
                Some(s) => play = Some(Play::Score(s)),
                None if adjusted => play = None,
                None => {
                    self.line_problem(
                        tl.path().to_string(),
                        "no result; expected CONTRACT, PLAYED_BY and TRICKS, or a SCORE",
                    );
                    return None;
                }
            },
        }
        Some(play)
    }

    /// `--compare`, else what the file shows: matchpoints whose top is the whole field's are
    /// compared across the field; one section, or a top of a section's, by section.
    pub(super) fn compare(
        &self,
        form: Form,
        units: &[(Option<String>, &Element)],
        lines: &[Line],
    ) -> String {
        if let Some(c) = &self.req.compare {
            return c.clone();
        }
        // (a unit's lines follow one another, and a board's within it: each run counted once)
        let mut sections: BTreeSet<Option<&str>> = BTreeSet::new();
        for (i, l) in lines.iter().enumerate() {
            if i == 0 || lines[i - 1].section != l.section {
                sections.insert(l.section);
            }
        }
        if sections.len() <= 1 {
            return "section".into();
        }
        if !form.factors_to_field() {
            return "field".into();
        }
        // Tables on each board, in the field and in its biggest section.
        let mut field: crate::hash::FxMap<u32, u32> = Default::default();
        let mut by_section: crate::hash::FxMap<(u32, Option<&str>), u32> = Default::default();
        let mut run = 0;
        for (i, l) in lines.iter().enumerate() {
            run += 1;
            let next = lines.get(i + 1);
            if next.is_none_or(|n| (n.board, n.section) != (l.board, l.section)) {
                *field.entry(l.board).or_default() += run;
                *by_section.entry((l.board, l.section)).or_default() += run;
                run = 0;
            }
        }
        let field_top = field
            .values()
            .max()
            .map_or(0, |n| 2 * (n.saturating_sub(1)));
        let section_top = by_section
            .values()
            .max()
            .map_or(0, |n| 2 * (n.saturating_sub(1)));
        // The top the file's matchpoints show (each board's lines read apart, in parallel; the
        // largest sum whatever the order).
        let boards: Vec<&Element> = units.iter().flat_map(|(_, u)| u.all("BOARD")).collect();
        let top_seen: f64 = {
            use rayon::prelude::*;
            boards
                .par_iter()
                .map(|b| {
                    let mut top: f64 = 0.0;
                    for tl in b.lines() {
                        let mp = |n: &str| tl.text_of(n).and_then(|t| t.parse::<f64>().ok());
                        if let (Some(a), Some(b)) = (mp("NS_MATCH_POINTS"), mp("EW_MATCH_POINTS")) {
                            top = top.max(a + b);
                        }
                    }
                    top
                })
                .reduce(|| 0.0, f64::max)
        };
        if top_seen > section_top as f64 + 0.01 && (top_seen - field_top as f64).abs() < 0.51 {
            "field".into()
        } else if top_seen > 0.0 {
            "section".into()
        } else {
            "field".into()
        }
    }

    /// The hands of the session's boards: `HANDSET` › `BOARD` › `HAND`s, as PBN deals.
    pub(super) fn deals(
        &mut self,
        hands: &[&Element],
        boards: &BTreeSet<u32>,
    ) -> BTreeMap<u32, String> {
        let mut out = BTreeMap::new();
        for hs in hands {
            for b in hs.all("BOARD") {
                let Some(n) = b
                    .text_of("BOARD_NUMBER")
                    .and_then(|t| t.parse::<u32>().ok())
                else {
                    continue;
                };
                if !boards.contains(&n) || out.contains_key(&n) {
                    continue;
                }
                let mut seats: [Option<String>; 4] = Default::default();
                for h in b.all("HAND") {
                    let dir = h
                        .text_of("DIRECTION")
                        .unwrap_or_default()
                        .to_ascii_uppercase();
                    let i = match dir.chars().next() {
                        Some('N') => 0,
                        Some('E') => 1,
                        Some('S') => 2,
                        Some('W') => 3,
                        _ => {
                            self.line_problem(
                                h.path_of("DIRECTION"),
                                format!(
                                    "{}: expected North, East, South or West",
                                    crate::import::quote(&dir)
                                ),
                            );
                            continue;
                        }
                    };
                    let suit = |s: &str| -> String {
                        let t = h.text_of(s).unwrap_or_default();
                        let t = t.replace("10", "T");
                        t.chars()
                            .filter(|c| !c.is_whitespace() && *c != '-')
                            .map(|c| c.to_ascii_uppercase())
                            .collect()
                    };
                    seats[i] = Some(format!(
                        "{}.{}.{}.{}",
                        suit("SPADES"),
                        suit("HEARTS"),
                        suit("DIAMONDS"),
                        suit("CLUBS")
                    ));
                }
                if seats.iter().all(Option::is_none) {
                    continue;
                }
                if seats.iter().any(Option::is_none) {
                    self.line_problem(b.path.clone(), "a hand record without all four hands; expected HANDs for North, East, South and West");
                    continue;
                }
                let pbn = format!(
                    "N:{}",
                    seats
                        .iter()
                        .map(|s| s.as_deref().unwrap_or_default())
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                if let Err(m) = crate::event::read::check_pbn_deal(&pbn) {
                    self.line_problem(b.path.clone(), format!("the hands are not a deal: {m}"));
                    continue;
                }
                out.insert(n, pbn);
            }
        }
        out
    }
}

/// An adjusted score: (its `score` or `subsequent_damage` field, the file's token, law).
type Artificial = (Map<String, Value>, String, String);

/// A line's contract, declarer and tricks, each as far as it can be read.
type PlayFields = (Option<Bid>, Option<Seat>, Option<u8>);

/// A line's contract, declarer and tricks as far as they can be read, and what of them cannot
/// (the field's path and why: the line is then taken by its score alone, with a notice,
/// refused under `--strict` or without a score).
fn play_fields(tl: Tl) -> (PlayFields, Option<(String, String)>) {
    let mut unreadable: Option<(String, String)> = None;
    let contract_text = tl.text_of("CONTRACT");
    let contract = match contract_text {
        None => None,
        Some(t) => {
            // (`4S*` for doubled: copied only then, not for each of a million lines)
            let read = if t.contains('*') {
                parse_contract(&t.replace('*', "X"))
            } else {
                parse_contract(t)
            };
            match read {
                Ok(b) => Some(b),
                Err(m) => {
                    unreadable = Some((tl.path_of("CONTRACT"), m.to_string()));
                    None
                }
            }
        }
    };
    let declarer = match tl.text_of("PLAYED_BY") {
        None => None,
        Some(t) => {
            // (`North`: its first letter)
            let t1 = if ["NORTH", "EAST", "SOUTH", "WEST"]
                .iter()
                .any(|w| w.eq_ignore_ascii_case(t))
            {
                &t[..1]
            } else {
                t
            };
            match parse_seat(t1) {
                Ok(s) => Some(s),
                Err(m) => {
                    unreadable.get_or_insert((tl.path_of("PLAYED_BY"), m.to_string()));
                    None
                }
            }
        }
    };
    let tricks = match tl.text_of("TRICKS") {
        None => None,
        Some(t) => match t.parse::<u8>() {
            Ok(n) if n <= 13 => Some(n),
            _ => {
                unreadable.get_or_insert((
                    tl.path_of("TRICKS"),
                    format!(
                        "{}: expected the tricks declarer took, 0-13",
                        crate::import::quote(t)
                    ),
                ));
                None
            }
        },
    };
    ((contract, declarer, tricks), unreadable)
}

/// A ruling frekans's USEBIO export wrote in NOTES (one USEBIO cannot say):
/// `frekans adjusted score: <notation>; law: <law>; ...` or
/// `frekans subsequent damage: side EW, before -140, after_infraction +130, after_loss +510,
/// offenders -140; law: ...` (read by `export::notes`, which writes them, for both formats).
/// `None` for any other note.
pub(super) type NotesRuling = crate::export::notes::RulingNote;

pub(super) fn notes_ruling(n: &str) -> Option<Result<NotesRuling, crate::export::notes::BadNote>> {
    crate::export::notes::read_ruling(n)
}

/// `A6040` → the named averages `A+/A-`; `A5050` → `A`; another split → its percentages.
pub(super) fn artificial_of(digits: &str) -> Option<String> {
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ns: u32 = digits[..2].parse().ok()?;
    let ew: u32 = digits[2..].parse().ok()?;
    let named = |p: u32| match p {
        60 => Some("A+"),
        50 => Some("A"),
        40 => Some("A-"),
        _ => None,
    };
    Some(match (named(ns), named(ew)) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}/{b}"),
        _ if ns == ew => format!("{ns}%"),
        _ => format!("{ns}%/{ew}%"),
    })
}

/// A traveller line's `result` event (session `sid`), when something was played or scored:
/// `type`, `session`, `section`, `board`, `ns`, `ew`, `match`, `room`, then the play's fields.
pub(super) fn result_row(
    l: &super::Line,
    sid: &str,
    match_ids: &[String],
) -> Option<crate::import::Row> {
    let play = l.play.as_ref()?;
    let mut r = crate::import::Row::new(false);
    r.session.push_str(sid);
    if let Some(s) = &l.section {
        r.str("section", s);
    }
    r.num("board", l.board.into());
    r.sides(l.ns, l.ew, l.others);
    if let Some((m, room)) = &l.team {
        r.str("match", &match_ids[m - 1]).str("room", room);
    }
    match play {
        super::Play::Pass => {
            r.str("contract", "PASS");
        }
        super::Play::Contract(b, d, t) => {
            r.str("contract", b.text(&mut [0; 8]))
                .str("declarer", d.letter().encode_utf8(&mut [0; 4]))
                .num("tricks", (*t).into());
        }
        super::Play::Score(s) => {
            r.num("score", (*s).into());
        }
    }
    if let Some(lead) = l.lead {
        r.str("lead", lead);
    }
    Some(r)
}
