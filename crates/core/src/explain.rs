//! `frekans explain`: a board's scoring worked out, for a director checking by hand.
//!
//! Prints the frequency tables with their (fractional, possibly negative) counts, the
//! traveller, and for every adjusted score its components, weights, each component's raw
//! matchpoints, the self term, the factoring and the result.
//!
//! Every text from the log in it (an id, a name, a law, a note) is escaped (`crate::text`): a
//! note's line break is `\u{a}`, never a line of the explanation.

use std::fmt::Write as _;

use crate::adjust::Side;
use crate::bridge::Bid;
use crate::event::read::offset_text;
use crate::num::Q;
use crate::options::Compare;
use crate::replay::{State, Table};
use crate::score::mp::field_top;
use crate::score::Form;
use crate::score::{BoardScore, Factoring, Line, SideScore, TeamBoardScore};
use crate::text::escape as esc;

pub use crate::num::show;

/// A pairs form's rules (`explain` shows boards of comparison groups of pairs forms only).
fn pairs(form: Form) -> &'static crate::score::form::PairRules {
    form.pairs()
        .expect("a board of a comparison group is of a pairs form")
}

/// The unit of a form's board scores, for column headings.
fn unit(form: Form) -> &'static str {
    pairs(form).unit
}

/// For IMP forms: the distinct plain results with how many tables had each and what an NS and
/// an EW pair there scored (aggregated, as a director reads a traveller of many tables).
fn aggregated(b: &BoardScore, form: Form, out: &mut String) {
    use std::collections::BTreeMap;
    let mut rows: BTreeMap<i32, (u32, Q, Q)> = BTreeMap::new();
    for pair in b.sides.chunks(2) {
        if pair[0].adjusted {
            continue;
        }
        if let Some(x) = pair[0].ns_points {
            let e = rows.entry(x).or_insert((0, pair[0].score, pair[1].score));
            e.0 += 1;
        }
    }
    if rows.is_empty() {
        return;
    }
    let u = unit(form);
    let _ = writeln!(
        out,
        "Results (plain tables, aggregated; NS points, tables, what each side scores):"
    );
    let _ = writeln!(
        out,
        "  {:>8}  {:>7}  {:>16}  {:>16}",
        "NS pts",
        "tables",
        format!("{u} NS"),
        format!("{u} EW")
    );
    for (x, (n, ns, ew)) in rows.iter().rev() {
        let _ = writeln!(
            out,
            "  {:>8}  {:>7}  {:>16}  {:>16}",
            signed(*x),
            n,
            show(*ns),
            show(*ew)
        );
    }
    if pairs(form).comparisons {
        // Each distinct result's comparisons, aggregated: count × IMPs.
        let _ = writeln!(
            out,
            "  comparisons of each result (other tables' count × IMPs):"
        );
        let keys: Vec<(i32, u32)> = rows.iter().rev().map(|(x, (n, _, _))| (*x, *n)).collect();
        for &(x, _) in &keys {
            let terms: Vec<String> = keys
                .iter()
                .filter_map(|&(y, n)| {
                    let n = if y == x { n - 1 } else { n };
                    (n > 0).then(|| format!("{n}×({})", crate::bridge::imp(x - y)))
                })
                .collect();
            let _ = writeln!(out, "    {:>6}: {}", signed(x), terms.join(" + "));
        }
    }
    out.push('\n');
}

fn signed(p: i32) -> String {
    if p > 0 {
        format!("+{p}")
    } else {
        p.to_string()
    }
}

/// The contract as played at a table: `4HX N =`, `3NT S -2`, `PASS`, or the score.
pub fn played_text(t: &Table) -> String {
    let Some(p) = &t.played else {
        return "(not played)".to_string();
    };
    match p.play.contract {
        Some(Bid::Pass) => "PASS".to_string(),
        Some(Bid::Contract(c)) => {
            let off = p
                .play
                .tricks
                .map(|tr| tr as i32 - 6 - c.level as i32)
                .or(p.play.result.map(|r| r as i32))
                .unwrap_or(0);
            let d = p
                .play
                .declarer
                .map(|d| d.letter().to_string())
                .unwrap_or_default();
            format!("{c} {d} {}", offset_text(off))
        }
        None => "(score)".to_string(),
    }
}

fn factoring_text(f: &Factoring) -> String {
    match f {
        Factoring::None => "no factoring".to_string(),
        Factoring::Neuberg { n, field } => format!("Neuberg (raw + 1) × {field}/{} − 1", show(*n)),
        Factoring::SmallField { n, field } => format!(
            "small-field table (C8): (65 − 5×{} + 5×raw)% of top {}",
            show(*n),
            field_top(*field)
        ),
    }
}

/// A team board: both rooms, each team's arithmetic for every component, the knockout average.
fn explain_team(state: &State, team: &TeamBoardScore, out: &mut String) {
    let (b, m, tb) = (&team.score, team.match_id.as_str(), &team.rooms);
    let s = &state.sessions[b.session].def;
    let Some(mt) = state.matches.get(&(b.session, m.to_string())) else {
        return;
    };
    let (dealer, vul) = state.dealer_vul(b.session, b.board);
    let name = |p| {
        let x = state.participant(p);
        match &x.name {
            Some(n) => format!("{} ({})", esc(&x.id), esc(n)),
            None => esc(&x.id).into_owned(),
        }
    };
    let _ = writeln!(
        out,
        "Session {} ({}), match {}: {} (home) v {} (away), board {} — dealer {}, vulnerability {}{}",
        esc(&s.id),
        s.form.name(),
        esc(m),
        name(mt.home),
        name(mt.away),
        b.board,
        dealer.letter(),
        vul.as_str(),
        if mt.def.knockout { ", knockout" } else { "" }
    );
    team_rooms(state, b, mt, out);
    let rules = s.form.teams().expect("a match board is of a team form");
    let unit = rules.unit;
    // (each team's arithmetic is not kept with the board: its two rooms are scored again)
    let Some([home_calc, away_calc]) = crate::pipeline::team_board_calc(state, team) else {
        return;
    };
    for (team, calc) in [(mt.home, &home_calc), (mt.away, &away_calc)] {
        team_arithmetic(state, rules, team, calc, out);
    }
    if tb.averaged {
        let _ = writeln!(
            out,
            "  knockout (Law 86B): both teams get the average: ({} − ({}))/2 = {} to {}",
            show(home_calc.own),
            show(away_calc.own),
            show(tb.home),
            esc(&state.participant(mt.home).id)
        );
    }
    let _ = writeln!(
        out,
        "  board: {} {} {unit}, {} {} {unit}",
        esc(&state.participant(mt.home).id),
        show(tb.home),
        esc(&state.participant(mt.away).id),
        show(tb.away)
    );
    let st = &b.stats;
    let _ = writeln!(
        out,
        "  board statistics over the session's tables (C16): results {}, mean {}, dispersion ±{} points, ±{} IMPs\n",
        show(st.results),
        st.mean.map(|m| format!("{:.1}", m.to_f64())).unwrap_or("-".into()),
        st.dispersion.map(|m| format!("{:.1}", m.to_f64())).unwrap_or("-".into()),
        st.dispersion_imp.map(|m| format!("{:.2}", m.to_f64())).unwrap_or("-".into()),
    );
}

/// A match board's two rooms: who sat NS and EW, the result and its ruling.
fn team_rooms(state: &State, b: &BoardScore, mt: &crate::replay::Match, out: &mut String) {
    for (room, ns_team, ew_team) in [
        (crate::event::Room::Open, mt.home, mt.away),
        (crate::event::Room::Closed, mt.away, mt.home),
    ] {
        let Some(t) = state.tables.get(&(b.session, b.board, ns_team)) else {
            continue;
        };
        let ruling = t
            .ruling(state)
            .map(|r| {
                format!(
                    "; ruling {} {}{}",
                    esc(&r.ev.id),
                    r.ev.score.normalised(),
                    r.ev.law
                        .as_ref()
                        .map(|l| format!(", law {}", esc(l)))
                        .unwrap_or_default()
                )
            })
            .unwrap_or_default();
        let pts = t
            .played
            .as_ref()
            .map(|p| signed(p.ns_points))
            .unwrap_or_else(|| "not played".to_string());
        let _ = writeln!(
            out,
            "  {} room: NS {}, EW {}: {} {}{}",
            room.as_str(),
            esc(&state.participant(ns_team).id),
            esc(&state.participant(ew_team).id),
            played_text(t),
            pts,
            ruling
        );
        if let Some(r) = t.ruling(state) {
            if let Some(n) = &r.note {
                let _ = writeln!(out, "    note: {}", esc(n));
            }
        }
    }
}

/// A team's arithmetic on a match board: its part where it sat NS against its part where it sat
/// EW, component by component, or the artificial part that decides.
fn team_arithmetic(
    state: &State,
    rules: &crate::score::form::TeamRules,
    team: crate::score::PId,
    calc: &crate::score::rooms::TeamCalc,
    out: &mut String,
) {
    let unit = rules.unit;
    let id = esc(&state.participant(team).id);
    if calc.artificial {
        let _ = writeln!(
            out,
            "  {id}: an artificial part decides (C17/C25; the other room is ignored): {} {unit}",
            show(calc.own)
        );
        return;
    }
    let _ = writeln!(
        out,
        "  {id}: its part where it sat NS × its part where it sat EW (NS view):"
    );
    for &(pw, x) in &calc.ns_part {
        for &(vw, y) in &calc.ew_part {
            let d = x - y;
            let f = (rules.value_text)(d);
            let _ = writeln!(
                out,
                "      {}% × {}% : {} − ({}) = {} → {f}",
                show(pw * Q::int(100)),
                show(vw * Q::int(100)),
                signed(x),
                signed(y),
                signed(d)
            );
        }
    }
    let _ = writeln!(
        out,
        "      = {} {unit}{}",
        show(calc.own),
        if rules.shows_aggregate {
            format!("; aggregate {}", show(calc.aggregate))
        } else {
            String::new()
        }
    );
}

/// Explain a board of a team session: each match's that played it.
pub fn team_boards(state: &State, boards: &[&TeamBoardScore]) -> String {
    let mut out = String::new();
    for t in boards {
        explain_team(state, t, &mut out);
    }
    out
}

/// Explain a board of a pair session: each comparison group's, or only `section`'s.
pub fn pair_boards(state: &State, boards: &[&BoardScore], section: Option<&str>) -> String {
    let mut out = String::new();
    for b in boards {
        if let (Some(want), Some(have)) = (section, &b.section) {
            if want != have {
                continue;
            }
        }
        let s = &state.sessions[b.session].def;
        let form = s.form;
        pair_heading(state, b, &mut out);
        frequency_tables(b, &mut out);
        for (t, ns, ew) in traveller(state, b, form, &mut out) {
            adjusted_ruling(state, b, t, &mut out);
            for side in [ns, ew] {
                adjusted_side(state, t, side, form, &mut out);
            }
        }
        pair_statistics(b, &mut out);
        for n in &b.notices {
            let _ = writeln!(out, "notice: {n}");
        }
        out.push('\n');
    }
    out
}

/// A pair board's heading: its session, group, dealer and vulnerability, field, options and
/// facts (and for IMP forms the aggregated results).
fn pair_heading(state: &State, b: &BoardScore, out: &mut String) {
    let s = &state.sessions[b.session].def;
    let (dealer, vul) = state.dealer_vul(b.session, b.board);
    let group = match (&b.section, s.compare) {
        (Some(x), Compare::Section) => format!(", section {}", esc(x)),
        _ => ", all sections compared together".to_string(),
    };
    let _ = writeln!(
        out,
        "Session {}{} ({}){group}, board {} — dealer {}, vulnerability {}",
        esc(&s.id),
        s.name
            .as_ref()
            .map(|n| format!(" \"{}\"", esc(n)))
            .unwrap_or_default(),
        s.form.name(),
        b.board,
        dealer.letter(),
        vul.as_str()
    );
    let o = &s.options;
    let form = s.form;
    if form.has_top() {
        let _ = writeln!(
            out,
            "Field N = {} (the most tables on any board of this group, C7), top 2(N−1) = {}; {} tables on this board",
            b.field,
            field_top(b.field),
            b.tables()
        );
    } else {
        let _ = writeln!(out, "{} tables on this board", b.tables());
    }
    let _ = writeln!(out, "Options: {}\n", (pairs(form).options_text)(o));
    for (name, value) in &b.facts {
        let _ = writeln!(out, "{name}: {}", show(*value));
    }
    for line in &b.text {
        let _ = writeln!(out, "{line}");
    }
    if !b.facts.is_empty() || !b.text.is_empty() {
        out.push('\n');
    }
    if !form.has_top() {
        aggregated(b, form, out);
    }
}

/// A pair board's frequency tables: one per line (and per fouled group).
fn frequency_tables(b: &BoardScore, out: &mut String) {
    let lines: Vec<(Option<u32>, Line)> = {
        let mut l: Vec<(Option<u32>, Line)> = b.freq.iter().map(|r| (r.group, r.line)).collect();
        l.dedup();
        l
    };
    for (group, line) in lines {
        let title = match line {
            Line::Both => "Frequency table (the NS and EW lines are the same)",
            Line::NS => "NS line frequency table (NS pairs are scored here)",
            Line::EW => "EW line frequency table (EW pairs are scored here)",
        };
        match group {
            Some(g) => {
                let _ = writeln!(out, "Fouled board, group {g} (its own field): {title}:");
            }
            None => {
                let _ = writeln!(out, "{title}:");
            }
        }
        let _ = writeln!(
            out,
            "  {:>8}  {:>14}  {:>18}  {:>18}",
            "NS pts", "count", "MP NS", "MP EW"
        );
        let mut n = Q::ZERO;
        for r in b.freq.iter().filter(|r| r.line == line && r.group == group) {
            n += r.count;
            let _ = writeln!(
                out,
                "  {:>8}  {:>14}  {:>18}  {:>18}",
                signed(r.ns_points),
                show(r.count),
                show(r.mp_ns),
                show(r.mp_ew)
            );
        }
        let _ = writeln!(out, "  {:>8}  {:>14}\n", "total", show(n));
    }
}

/// A pair board's traveller, one row per table; the tables with an adjusted score, with their
/// NS and EW sides, to explain next.
fn traveller<'s>(
    state: &'s State,
    b: &'s BoardScore,
    form: Form,
    out: &mut String,
) -> Vec<(&'s Table, &'s SideScore, &'s SideScore)> {
    let _ = writeln!(out, "Traveller:");
    let u = unit(form);
    // An individual session's table is four players (N, S, E, W), each side's score theirs.
    let seated = b.per_side > 1;
    let sides = if seated {
        format!("{:<8} {:<8} {:<8} {:<8}", "N", "S", "E", "W")
    } else {
        format!("{:<8} {:<8}", "NS", "EW")
    };
    let _ = writeln!(
        out,
        "  {:>5}  {sides} {:<14} {:>7}  {:>14}  {:>14}  ruling",
        "table",
        "contract",
        "NS pts",
        format!("{u} NS"),
        format!("{u} EW")
    );
    let mut adjusted: Vec<(&Table, &SideScore, &SideScore)> = Vec::new();
    let per = b.per_side.max(1) as usize;
    for table in b.sides.chunks(2 * per) {
        let (ns, ew) = (&table[0], &table[per]);
        let key = (b.session, b.board, ns.participant);
        let Some(t) = state.tables.get(&key) else {
            continue;
        };
        let ruling = t
            .ruling(state)
            .map(|r| format!("{} {}", esc(&r.ev.id), r.ev.score.normalised()))
            .unwrap_or_default();
        let pts = t
            .played
            .as_ref()
            .map(|p| signed(p.ns_points))
            .unwrap_or_else(|| "-".to_string());
        let id = |p| esc(&state.participant(p).id).into_owned();
        let seats = match (seated, t.others.as_deref()) {
            (true, Some(&[south, west])) => format!(
                "{:<8} {:<8} {:<8} {:<8}",
                id(t.ns),
                id(south),
                id(t.ew),
                id(west)
            ),
            _ => format!("{:<8} {:<8}", id(ns.participant), id(ew.participant)),
        };
        let _ = writeln!(
            out,
            "  {:>5}  {seats} {:<14} {:>7}  {:>14}  {:>14}  {ruling}",
            t.table.map(|x| x.to_string()).unwrap_or_default(),
            played_text(t),
            pts,
            show(ns.score),
            show(ew.score),
        );
        if ns.adjusted {
            adjusted.push((t, ns, ew));
        }
    }
    adjusted
}

/// The ruling of an adjusted table: its score, law, director, note, the table result it
/// replaces and its subsequent-damage arithmetic.
fn adjusted_ruling(state: &State, b: &BoardScore, t: &Table, out: &mut String) {
    let s = &state.sessions[b.session].def;
    let r = t.ruling(state).expect("adjusted table has a ruling");
    let _ = writeln!(
        out,
        "\nRuling {} at {}: {}{}{}{}",
        esc(&r.ev.id),
        ruled_table(state, t),
        r.ev.score.normalised(),
        r.ev.law
            .as_ref()
            .map(|l| format!(", law {}", esc(l)))
            .unwrap_or_default(),
        r.by.as_ref()
            .map(|l| format!(", by {}", esc(l)))
            .unwrap_or_default(),
        r.ev.supersedes
            .as_ref()
            .map(|l| format!(", supersedes {}", esc(l)))
            .unwrap_or_default(),
    );
    if let Some(n) = &r.note {
        let _ = writeln!(out, "  note: {}", esc(n));
    }
    if let Some(p) = &t.played {
        let _ = writeln!(
            out,
            "  table result on record: {} = {} (kept in the log, replaced for scoring)",
            played_text(t),
            signed(p.ns_points)
        );
    }
    if let Some(sd) = &r.ev.sd {
        let _ = writeln!(
            out,
            "  subsequent damage (docs/event-log.md), non-offending side {}: A before the infraction {}, B after the infraction {}, C after the additional loss {}; offenders get {}",
            sd.nos.as_str(),
            signed(sd.before),
            signed(sd.after_infraction),
            signed(sd.after_loss),
            signed(sd.offenders)
        );
        let _ = writeln!(
            out,
            "  NOS score = p(A) − [p(B) − p(C)] = (100% A & −100% B & 100% C) in its own line; sd_method={} ({})",
            s.options.sd_method.name(),
            if s.options.sd_method == crate::options::SdMethod::Simplified {
                "the field compares with A on the NOS line"
            } else {
                "the field's line table holds +A −B +C"
            }
        );
    }
}

/// The table of a ruling as its heading names it: `NS 3 v EW 7`, or an individual session's
/// four players by seat, each with their name (`N 5 (Ewa Lewandowska), S 11 (...) v E 7 (...), W 9
/// (...)`).
fn ruled_table(state: &State, t: &Table) -> String {
    let id = |p| esc(&state.participant(p).id).into_owned();
    let Some(&[south, west]) = t.others.as_deref() else {
        return format!("NS {} v EW {}", id(t.ns), id(t.ew));
    };
    let named = |seat: &str, p| {
        let x = state.participant(p);
        match x.name.as_ref().or(x.players.first()) {
            Some(name) => format!("{seat} {} ({})", id(p), esc(name)),
            None => format!("{seat} {}", id(p)),
        }
    };
    format!(
        "{}, {} v {}, {}",
        named("N", t.ns),
        named("S", south),
        named("E", t.ew),
        named("W", west)
    )
}

/// One side of an adjusted table: its artificial score, or its components, sum and factoring
/// (an individual session's side: its two players, who share the side's score).
fn adjusted_side(state: &State, t: &Table, side: &SideScore, form: Form, out: &mut String) {
    let players: Vec<String> = t
        .side(side.side)
        .map(|p| esc(&state.participant(p).id).into_owned())
        .collect();
    let who = format!(
        "{} {}",
        if side.side == Side::NS { "NS" } else { "EW" },
        if t.others.is_some() {
            players.join(" & ")
        } else {
            esc(&state.participant(side.participant).id).into_owned()
        }
    );
    if let Some(p) = side.artificial.as_deref().copied() {
        match side.top {
            Some(top) => {
                let _ = writeln!(
                    out,
                    "  {who}: artificial {}% of top {} = {}",
                    show(p),
                    show(top),
                    show(side.score)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "  {who}: artificial {}% = {} {} (C13, C15)",
                    show(p),
                    show(side.score),
                    unit(form)
                );
            }
        }
        return;
    }
    let Some(d) = &side.detail else { return };
    let what = pairs(form).component;
    let line = if side.side == Side::NS { "NS" } else { "EW" };
    let _ = writeln!(out, "  {who}: scored in the {line} line");
    for c in &d.components {
        let _ = writeln!(
            out,
            "      {:>8} × {:>6}: {what} = {:>12}  → {}",
            format!("{}%", show(c.weight * Q::int(100))),
            signed(c.points),
            show(c.raw),
            show(c.weight * c.raw)
        );
    }
    let sum: Q = d.components.iter().map(|c| c.weight * c.raw).sum();
    if form.has_top() || !d.self_term.is_zero() {
        let _ = writeln!(
            out,
            "      Σ = {}, minus its own table {} = raw {}",
            show(sum),
            show(d.self_term),
            show(d.raw)
        );
    } else {
        let _ = writeln!(out, "      Σ = {}", show(sum));
    }
    match side.top {
        Some(top) => {
            let _ = writeln!(
                out,
                "      {} → {} of top {}",
                factoring_text(&d.factoring),
                show(side.score),
                show(top)
            );
        }
        None => {
            let _ = writeln!(out, "      → {} {}", show(side.score), unit(form));
        }
    }
}

/// A pair board's pooled statistics.
fn pair_statistics(b: &BoardScore, out: &mut String) {
    let st = &b.stats;
    let _ =
        writeln!(
        out,
        "\nBoard statistics (pooled, C10): results {}, mean {}, dispersion ±{} points, ±{} IMPs{}",
        show(st.results),
        st.mean.map(|m| format!("{:.1}", m.to_f64())).unwrap_or("-".into()),
        st.dispersion.map(|m| format!("{:.1}", m.to_f64())).unwrap_or("-".into()),
        st.dispersion_imp.map(|m| format!("{:.2}", m.to_f64())).unwrap_or("-".into()),
        st.dispersion_mp.map(|m| format!(", ±{:.2} MP", m.to_f64())).unwrap_or_default(),
    );
}
