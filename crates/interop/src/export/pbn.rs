//! PBN 2.1 output (`frekans export --format pbn`), written by the one PBN writer
//! (`frekans_core::pbn`, which `synth --format pbn` writes with too): one game per board of each session with
//! its deal, dealer, vulnerability, `[Scoring]` and `[Competition]` (`Pairs`, or `Teams` as
//! team programs write it), a `ScoreTable` (one row per table: pairs, or the match, room and
//! teams; contract, declarer, result, score, the points in the session's form, and the ruling
//! in force in a `Ruling` column) and, in the session's first game, a `TotalScoreTable` and
//! the session's note (`[FrekansSession]`: what PBN cannot say of it, `export::notes`). An
//! artificial score PBN can say is also written its way (`^60 ^40`). UTF-8, `% PBN 2.1`
//! header. A pure function to bytes; tag values and quoted names are escaped as PBN says
//! (`\"`, `\\`): they are data. PBN has no way to write a control character (a line break
//! included): each is written as `\u{1b}` (`export::notes::write_text`), so that the file holds
//! no control byte and a line is a line.

use super::notes;
use super::results::{decimal, LineView, SessionView};
use crate::bridge::{dealer_of, vul_of, Bid};
use crate::replay::State;
use frekans_core::pbn;

/// A PBN string: quoted, each control character (line breaks and tabs too) in `\u{1b}`
/// notation (`export::notes::write_text`), then `"` and `\` escaped.
fn quoted(s: &str) -> String {
    let s = notes::write_text(s, char::is_control);
    let mut out = String::with_capacity(s.len() + 2);
    pbn::quoted(&mut out, &s);
    out
}

/// A tag, its value in `\u{1b}` notation where PBN cannot hold a character.
fn tag(out: &mut String, name: &str, value: &str) {
    pbn::tag(out, name, &notes::write_text(value, char::is_control));
}

/// A table's row of cells written already.
fn row_line(out: &mut String, cells: &[String]) {
    let mut r = pbn::Row::new(out);
    for c in cells {
        r.bare(c);
    }
    r.end();
}

/// `2026-11-21` → `2026.11.21` (PBN's Date).
fn pbn_date(d: &str) -> String {
    d.replace('-', ".")
}

/// The tag of a session's note, in its first game.
pub const SESSION_TAG: &str = "FrekansSession";

/// The score table's column of the ruling in force at a table (its note, `export::notes`).
pub const RULING_COLUMN: &str = "Ruling";

/// The PBN file of the sessions given.
pub fn write(state: &State, sessions: &[SessionView]) -> Result<Vec<u8>, String> {
    let mut out = String::new();
    pbn::header(&mut out, &["Creator: frekans"]);
    let c = &state.championship;
    for s in sessions {
        let Some(pbn) = &s.form.spec().pbn else {
            unreachable!("checked by the caller")
        };
        let (scoring, unit, total) = (pbn.scoring, pbn.unit, pbn.total);
        let mut boards: Vec<u32> = s.lines.iter().map(|l| l.board).collect();
        for m in &s.matches {
            boards.extend(m.boards.iter().map(|b| b.0));
        }
        boards.sort_unstable();
        boards.dedup();
        for (i, &b) in boards.iter().enumerate() {
            out.push('\n');
            tag(&mut out, "Event", c.name.as_deref().unwrap_or(""));
            tag(&mut out, "Site", c.place.as_deref().unwrap_or(""));
            tag(
                &mut out,
                "Date",
                &c.date.as_deref().map(pbn_date).unwrap_or_default(),
            );
            tag(&mut out, "Round", s.name.unwrap_or(s.id));
            tag(&mut out, "Board", &b.to_string());
            for seat in ["West", "North", "East", "South"] {
                tag(&mut out, seat, "");
            }
            let (pbn, dealer, vul) = match s.deals.get(&b) {
                Some(&(p, d, v)) => (Some(p), d, v),
                None => (None, dealer_of(b), vul_of(b)),
            };
            tag(&mut out, "Dealer", &dealer.letter().to_string());
            tag(&mut out, "Vulnerable", vul.as_str());
            tag(&mut out, "Deal", pbn.unwrap_or(""));
            tag(&mut out, "Scoring", scoring);
            tag(&mut out, "Declarer", "");
            tag(&mut out, "Contract", "");
            tag(&mut out, "Result", "");
            tag(&mut out, "Competition", s.kind.pbn_competition);
            if i == 0 {
                tag(&mut out, SESSION_TAG, &notes::session(&s.note));
            }
            if s.kind.in_matches {
                team_table(&mut out, s, b, unit);
            } else {
                pair_table(&mut out, s, b, unit);
            }
            if i == 0 {
                total_table(&mut out, s, total);
            }
        }
    }
    Ok(out.into_bytes())
}

fn row_play(l: &LineView) -> [String; 5] {
    let artificial = l
        .ruling
        .as_ref()
        .and_then(|r| super::results::artificial_token(r.score));
    if let Some(t) = artificial {
        // `^60` `^40`: the spec's marker of an artificial score, one per side.
        return [
            "-".into(),
            "-".into(),
            "-".into(),
            format!("^{}", &t[1..3]),
            format!("^{}", &t[3..5]),
        ];
    }
    let contract = match l.contract {
        Some(Bid::Pass) => "Pass".to_string(),
        Some(b) => b.to_string(),
        None => "-".into(),
    };
    let declarer = match (l.contract, l.declarer) {
        (Some(Bid::Contract(_)), Some(d)) => d.letter().to_string(),
        _ => "-".into(),
    };
    let result = match (l.contract, l.tricks) {
        (Some(Bid::Contract(_)), Some(t)) => t.to_string(),
        _ => "-".into(),
    };
    let (sn, se) = match l.ns_points {
        Some(p) if p >= 0 => (p.to_string(), "-".to_string()),
        Some(p) => ("-".to_string(), (-p).to_string()),
        None => ("-".into(), "-".into()),
    };
    [contract, declarer, result, sn, se]
}

fn pair_table(out: &mut String, s: &SessionView, board: u32, unit: &str) {
    let lines: Vec<&LineView> = s.lines.iter().filter(|l| l.board == board).collect();
    let sectioned = lines.iter().any(|l| l.section.is_some());
    let mut cols = Vec::new();
    if sectioned {
        cols.push("Section\\2R".to_string());
    }
    cols.extend(
        [
            "PairId_NS\\4R",
            "PairId_EW\\4R",
            "Contract\\5L",
            "Declarer\\1R",
            "Result\\2R",
            "Score_NS\\5R",
            "Score_EW\\5R",
        ]
        .map(String::from),
    );
    cols.push(format!("{unit}_NS\\6R"));
    cols.push(format!("{unit}_EW\\6R"));
    let datum = s.form.spec().pbn.as_ref().is_some_and(|p| p.datum);
    if datum {
        cols.push("ButlerDatum\\5R".into());
    }
    let ruled = lines.iter().any(|l| l.ruling.is_some());
    if ruled {
        cols.push(format!("{RULING_COLUMN}\\40L"));
    }
    tag(out, "ScoreTable", &cols.join(";"));
    for l in lines {
        let mut row: Vec<String> = Vec::new();
        if sectioned {
            row.push(quoted(l.section.unwrap_or("")));
        }
        row.push(quoted(l.ns));
        row.push(quoted(l.ew));
        row.extend(row_play(l));
        let pts = |q: Option<crate::num::Q>| q.map_or("-".into(), |q| decimal(q.to_f64(), 2));
        row.push(pts(l.ns_score));
        row.push(pts(l.ew_score));
        if datum {
            row.push(pts(s.datum.get(&(l.board, l.group.clone())).copied()));
        }
        if ruled {
            row.push(ruling_cell(l));
        }
        row_line(out, &row);
    }
}

fn team_table(out: &mut String, s: &SessionView, board: u32, unit: &str) {
    let tables = || {
        s.matches.iter().flat_map(move |m| {
            m.boards
                .iter()
                .filter(move |b| b.0 == board)
                .map(move |b| (m, b))
        })
    };
    let ruled = tables().any(|(_, b)| b.3.iter().any(|l| l.ruling.is_some()));
    let mut cols = vec![
        "Match\\4R".to_string(),
        "Room\\6L".into(),
        "TeamId_Home\\4R".into(),
        "TeamId_Away\\4R".into(),
        "Contract\\5L".into(),
        "Declarer\\1R".into(),
        "Result\\2R".into(),
        "Score_NS\\5R".into(),
        "Score_EW\\5R".into(),
        format!("{unit}_NS\\6R"),
        format!("{unit}_EW\\6R"),
    ];
    if ruled {
        cols.push(format!("{RULING_COLUMN}\\40L"));
    }
    tag(out, "ScoreTable", &cols.join(";"));
    for (m, (_, home, away, tables)) in tables() {
        for l in tables {
            // The NS team's and the EW team's board points.
            let (ns, ew) = if l.open { (home, away) } else { (away, home) };
            let mut row = vec![
                quoted(&m.id),
                if l.open {
                    "Open".into()
                } else {
                    "Closed".into()
                },
                quoted(m.home),
                quoted(m.away),
            ];
            row.extend(row_play(l));
            row.push(decimal(ns.to_f64(), 2));
            row.push(decimal(ew.to_f64(), 2));
            if ruled {
                row.push(ruling_cell(l));
            }
            row_line(out, &row);
        }
    }
}

/// The `Ruling` cell of a table: the note of its ruling in force, `-` when it has none.
fn ruling_cell(l: &LineView) -> String {
    match &l.ruling {
        Some(r) => quoted(&notes::ruling(r)),
        None => "-".into(),
    }
}

fn total_table(out: &mut String, s: &SessionView, total: &str) {
    if s.kind.in_matches {
        return team_total_table(out, s, total);
    }
    let mut cols = vec!["Rank\\3R", "PairId\\4R", "Names\\40L", total];
    let mp = s.form.has_top();
    if mp {
        cols.push("TotalPercentage\\6R");
    }
    cols.push("NrBoards\\3R");
    let sectioned = s.participants.iter().any(|p| p.section.is_some());
    if sectioned {
        cols.insert(0, "Section\\2R");
    }
    tag(out, "TotalScoreTable", &cols.join(";"));
    for p in &s.participants {
        let mut row = Vec::new();
        if sectioned {
            row.push(quoted(p.section.unwrap_or("")));
        }
        row.push(p.rank.to_string());
        row.push(quoted(p.id));
        let names = match (p.name, p.players.is_empty()) {
            (Some(n), true) => n.to_string(),
            (Some(n), false) => format!("{n}: {}", p.players.join(" - ")),
            (None, _) => p.players.join(" - "),
        };
        row.push(quoted(&names));
        row.push(decimal(p.total, 2));
        if mp {
            row.push(p.pct.map_or("-".into(), |x| decimal(x, 2)));
        }
        row.push(p.boards.to_string());
        row_line(out, &row);
    }
}

/// A team session's standings: each team's id, name and players (`Roster`), as team programs
/// write them.
fn team_total_table(out: &mut String, s: &SessionView, total: &str) {
    let cols = [
        "Rank\\3R",
        "TeamId\\4R",
        "TeamName\\30L",
        "Roster\\60L",
        total,
        "NrBoards\\3R",
    ];
    tag(out, "TotalScoreTable", &cols.join(";"));
    for p in &s.participants {
        let row = [
            p.rank.to_string(),
            quoted(p.id),
            quoted(p.name.unwrap_or("")),
            quoted(&p.players.join(" - ")),
            decimal(p.total, 2),
            p.boards.to_string(),
        ];
        row_line(out, &row);
    }
}
