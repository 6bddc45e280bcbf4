//! The view model, built from the scored data: the typed structs of `view` (`Serialize`), which
//! the bulletin's Typst template reads as `bulletin.json` and the website's HTML templates read
//! through minijinja (`crate::site`). Every name, note and ruling is a string printed as text,
//! never interpreted as Typst or HTML. Numbers are formatted here, so the templates do no
//! arithmetic; they are formatted from floats where exact sums could outgrow i128 (a
//! million-result board), so building the model never panics on size.

use std::collections::BTreeMap;

use super::view::*;

pub use super::cut::Limits;
pub use super::effects::add_ruling_effects;
pub use super::sheets::fmt_f;

use crate::bridge::Seat;
use crate::dd::BoardDd;
use crate::explain::played_text;
use crate::num::Q;
use crate::pipeline::Scored;
use crate::replay::{RulingStatus, State};
use crate::score::{BoardScore, Line, TeamBoardScore};

/// Labels in the bulletin's language.
pub fn labels(lang: &str) -> BTreeMap<&'static str, &'static str> {
    let pairs: &[(&str, &str)] = match lang {
        "pl" => &[
            ("bulletin", "Biuletyn"),
            ("standings", "Klasyfikacja"),
            ("overall", "Klasyfikacja łączna"),
            ("session", "Sesja"),
            ("section", "Sektor"),
            ("place", "Miejsce"),
            ("pair", "Para"),
            ("players", "Zawodnicy"),
            ("total", "Wynik"),
            ("pct", "%"),
            ("boards", "Rozdania"),
            ("board", "Rozdanie"),
            ("dealer", "Rozdający"),
            ("vul", "Założenia"),
            ("traveller", "Protokół"),
            ("frequency", "Frekans"),
            ("count", "Liczba"),
            ("rulings", "Orzeczenia"),
            ("ruling", "Orzeczenie"),
            ("law", "Prawo"),
            ("by", "Sędzia"),
            ("note", "Uwagi"),
            ("mean", "Średnia"),
            ("dispersion", "Obrotowość"),
            ("datum", "Datum"),
            ("contract", "Kontrakt"),
            ("ns", "NS"),
            ("ew", "WE"),
            ("score_ns", "Wynik NS"),
            ("score_ew", "Wynik WE"),
            ("matches", "Mecze"),
            ("status", "Status"),
            ("in_force", "obowiązuje"),
            ("withdrawn", "wycofane"),
            ("superseded", "zastąpione"),
            ("results", "Wyniki"),
            ("none", "brak"),
            ("dd", "Lewy w widne"),
            ("par", "Par"),
            ("changes", "Co zmieniło w klasyfikacji"),
            ("moved", "uczestników zmieniło wynik lub miejsce"),
            ("unchanged", "nie zmieniło klasyfikacji"),
            ("leaders", "Czołówka rozdanie po rozdaniu"),
            ("distribution", "Rozkład wyników NS"),
            ("before", "bez"),
            ("after", "z"),
            (
                "not_audited",
                "nie zbadano tutaj: frekans audit LOG --ruling",
            ),
        ],
        _ => &[
            ("bulletin", "Bulletin"),
            ("standings", "Standings"),
            ("overall", "Overall standings"),
            ("session", "Session"),
            ("section", "Section"),
            ("place", "Place"),
            ("pair", "Pair"),
            ("players", "Players"),
            ("total", "Total"),
            ("pct", "%"),
            ("boards", "Boards"),
            ("board", "Board"),
            ("dealer", "Dealer"),
            ("vul", "Vulnerable"),
            ("traveller", "Traveller"),
            ("frequency", "Frequency table"),
            ("count", "Count"),
            ("rulings", "Rulings"),
            ("ruling", "Ruling"),
            ("law", "Law"),
            ("by", "By"),
            ("note", "Note"),
            ("mean", "Mean"),
            ("dispersion", "Dispersion"),
            ("datum", "Datum"),
            ("contract", "Contract"),
            ("ns", "NS"),
            ("ew", "EW"),
            ("score_ns", "NS score"),
            ("score_ew", "EW score"),
            ("matches", "Matches"),
            ("status", "Status"),
            ("in_force", "in force"),
            ("withdrawn", "withdrawn"),
            ("superseded", "superseded"),
            ("results", "Results"),
            ("none", "none"),
            ("dd", "Double-dummy tricks"),
            ("par", "Par"),
            ("changes", "What it changed in the standings"),
            ("moved", "participants changed total or place"),
            ("unchanged", "no change in the standings"),
            ("leaders", "The leaders board by board"),
            ("distribution", "NS scores at the tables"),
            ("before", "without"),
            ("after", "with"),
            (
                "not_audited",
                "not audited here: frekans audit LOG --ruling",
            ),
        ],
    };
    pairs
        .iter()
        .chain(super::sheets::labels(lang))
        .copied()
        .collect()
}

/// A number as printed: up to two decimals, no trailing zeros.
pub fn fmt(q: Q) -> String {
    fmt_f(q.to_f64())
}

fn signed(p: i32) -> String {
    if p > 0 {
        format!("+{p}")
    } else {
        p.to_string()
    }
}

/// A PBN deal as four hands of four suits.
fn hands(pbn: &str) -> Option<BTreeMap<String, Vec<String>>> {
    let (first, rest) = pbn.split_once(':')?;
    let order = ["N", "E", "S", "W"];
    let start = order.iter().position(|s| *s == first.trim())?;
    let mut out = BTreeMap::new();
    for (k, h) in rest.split_whitespace().enumerate() {
        let seat = order[(start + k) % 4];
        let suits: Vec<String> = h
            .split('.')
            .map(|s| {
                if s.is_empty() {
                    "—".to_string()
                } else {
                    s.replace('T', "10")
                }
            })
            .collect();
        out.insert(seat.to_string(), suits);
    }
    Some(out)
}

/// A board's double-dummy table (rows N, S, E, W; columns NT ♠ ♥ ♦ ♣) and par, as text.
fn dd_view(d: &BoardDd) -> DdView {
    let rows = [Seat::N, Seat::S, Seat::E, Seat::W]
        .iter()
        .map(|&seat| DdRow {
            seat: seat.letter().to_string(),
            tricks: crate::dd::STRAINS
                .iter()
                .map(|&st| d.dd.table.get(st, seat).to_string())
                .collect(),
        })
        .collect();
    let par = &d.dd.par;
    DdView {
        rows,
        par_score: signed(par.score),
        par_contracts: par
            .contracts
            .iter()
            .map(|c| ParView {
                level: c.level.to_string(),
                strain: c.strain.as_str(),
                doubled: c.doubled,
                declarer: c.declarer.letter().to_string(),
                result: c.result(),
            })
            .collect(),
        par_text: par.contracts_text(),
    }
}

/// A pair's or team's name as shown: the team's name, or the players joined by dashes.
pub fn who(state: &State, p: crate::replay::PId) -> String {
    let x = state.participant(p);
    x.name.clone().unwrap_or_else(|| x.players.join(" – "))
}

/// A ruling as a traveller shows it: its id and the notation in force.
fn ruling_text(r: &crate::replay::RulingRecord) -> String {
    format!("{} {}", r.ev.id, r.ev.score.normalised())
}

/// Build the website's data: the view model with `Limits::SITE` (the site pages long lists).
pub fn build(state: &State, scored: &Scored, deals: &[BoardDd], lang: &str) -> Bulletin {
    build_with(state, scored, deals, lang, &Limits::SITE)
}

/// Build the view model, holding no more than `limits` lets it show: what is cut is never
/// made (a field of 100,000 pairs makes 500 standings rows a group, 40 traveller lines a
/// board), and each cut list carries a note saying how much is shown and where the rest is.
pub fn build_with(
    state: &State,
    scored: &Scored,
    deals: &[BoardDd],
    lang: &str,
    limits: &Limits,
) -> Bulletin {
    let dd: BTreeMap<(usize, u32), &BoardDd> =
        deals.iter().map(|d| ((d.session, d.board), d)).collect();
    let ch = &state.championship;
    let groups = standing_groups(state, scored, limits);
    let note = |rows: &[StandingRow], count: usize| {
        (rows.len() < count).then(|| super::cut::standings_note(lang, rows.len(), count))
    };
    let by_match = super::sheets::by_match(scored);
    let mut sessions = Vec::new();
    for (i, sess) in state.sessions.iter().enumerate() {
        let def = &sess.def;
        let standings: Vec<StandingGroup> = groups
            .iter()
            .filter(|((s, _), _)| *s == Some(i))
            .map(|((_, sec), (rows, count))| StandingGroup {
                section: sec.clone(),
                rows: rows.clone(),
                total: (rows.len() < *count).then_some(*count),
                note: note(rows, *count),
            })
            .collect();
        // Cut match sheets (`Limits::sheets`): the boards of the matches shown, and of each
        // board number its first match (its deal is shown whatever matches played it).
        let shown = super::sheets::shown(scored, i, limits.sheets);
        let boards = session_boards(state, scored, i, &shown, (&dd, lang, limits));
        let matches = session_matches(state, scored, i, &shown, &by_match);
        sessions.push(SessionView {
            id: def.id.clone(),
            name: def.name.clone(),
            form: def.form.name(),
            teams: sess.kind.in_matches,
            noun: super::seated::noun(sess.kind),
            board_unit: def
                .form
                .teams()
                .map(|t| t.unit)
                .filter(|&u| u != "board points"),
            charts: if sess.kind.running_charts {
                super::charts::running_charts(state, scored, i)
            } else {
                Vec::new()
            },
            standings,
            boards,
            matches,
            sheets_note: shown.map(|x| super::cut::sheets_note(lang, x.ids.len(), x.total)),
        });
    }
    let (overall, overall_note) = match groups.get(&(None, None)) {
        Some((rows, count)) => (rows.clone(), note(rows, *count)),
        None => (Vec::new(), None),
    };
    let (rulings, rulings_note) = ruling_views(state, lang, limits);
    let mut labels = labels(lang);
    if state.sessions.iter().any(|s| s.kind.seated) {
        labels.extend(super::seated::labels(lang).iter().copied());
    }
    Bulletin {
        lang: lang.to_string(),
        labels,
        championship: Championship {
            name: ch.name.clone(),
            date: ch.date.clone(),
            place: ch.place.clone(),
        },
        sessions,
        overall,
        overall_noun: super::seated::overall(state).and_then(super::seated::noun),
        overall_note,
        rulings,
        rulings_note,
        notices: scored.notices.iter().map(|n| n.to_string()).collect(),
        head: None,
    }
}

/// Standings rows by (session, comparison group), as made and as counted.
type Groups = BTreeMap<(Option<usize>, Option<String>), (Vec<StandingRow>, usize)>;

/// Standings grouped, in the order scored (best first); each group's first
/// `limits.standings` rows made, the others only counted.
fn standing_groups(state: &State, scored: &Scored, limits: &Limits) -> Groups {
    let pid = |p| state.participant(p);
    let group_of = |s: &crate::standings::Standing| {
        let grouping = match s.session {
            Some(i) if state.sessions[i].def.compare == crate::options::Compare::Section => {
                s.section.clone()
            }
            _ => None,
        };
        (s.session, grouping)
    };
    let mut groups: Groups = BTreeMap::new();
    // A seated session's players (overall: an individual championship's) with member numbers.
    let seated = |s: Option<usize>| match s {
        Some(i) => state.sessions[i].kind.seated,
        None => super::seated::overall(state).is_some(),
    };
    for s in &scored.standings {
        let (rows, count) = groups.entry(group_of(s)).or_default();
        *count += 1;
        if limits.standings.is_some_and(|n| rows.len() >= n) {
            continue;
        }
        let place = if s.rank == s.rank_to {
            s.rank.to_string()
        } else {
            format!("{}–{}", s.rank, s.rank_to)
        };
        rows.push(StandingRow {
            place,
            id: pid(s.participant).id.clone(),
            players: who(state, s.participant),
            member: seated(s.session)
                .then(|| super::seated::member(state, s.participant))
                .flatten(),
            total: format!("{:.2}", s.total.to_f64()),
            pct: s.pct().map(|p| format!("{p:.2}")),
            boards: s.boards,
        });
    }
    groups
}

/// The boards a session's pages show (of a team session cut to its shown match sheets: the
/// boards of the matches shown, and of each board number its first match).
fn session_boards(
    state: &State,
    scored: &Scored,
    i: usize,
    shown: &Option<super::sheets::Shown>,
    (dd, lang, limits): (&BTreeMap<(usize, u32), &BoardDd>, &str, &Limits),
) -> Vec<BoardView> {
    let view = |b: Board| {
        let n = b.score().board;
        board_view(state, b, dd.get(&(i, n)).copied(), lang, limits)
    };
    if !state.sessions[i].kind.in_matches {
        scored
            .pair_boards
            .iter()
            .filter(|b| b.session == i)
            .map(|b| view(Board::Pairs(b)))
            .collect()
    } else {
        let mut numbers = std::collections::BTreeSet::new();
        scored
            .team_boards
            .iter()
            .filter(|t| t.score.session == i)
            .filter(|t| match shown {
                Some(x) => numbers.insert(t.score.board) || x.ids.contains(t.match_id.as_str()),
                None => true,
            })
            .map(|t| view(Board::Teams(t)))
            .collect()
    }
}

/// A session's matches, each with its sheet when shown.
fn session_matches(
    state: &State,
    scored: &Scored,
    i: usize,
    shown: &Option<super::sheets::Shown>,
    by_match: &super::sheets::ByMatch,
) -> Vec<MatchView> {
    let pid = |p| state.participant(p);
    let sheet_shown = |m: &crate::score::MatchResult| {
        shown
            .as_ref()
            .is_none_or(|x| x.ids.contains(m.match_id.as_str()))
    };
    scored
        .matches
        .iter()
        .filter(|m| m.session == i)
        .map(|m| match sheet_shown(m) {
            true => (m, super::sheets::sheet(state, by_match, m), false),
            false => (m, super::sheets::Sheet::default(), true),
        })
        .map(|(m, sheet, sheet_cut)| MatchView {
            match_id: m.match_id.clone(),
            home: who(state, m.home),
            away: who(state, m.away),
            home_id: pid(m.home).id.clone(),
            away_id: pid(m.away).id.clone(),
            imp_home: m.imp_home.map(fmt),
            imp_away: m.imp_away.map(fmt),
            vp_home: fmt(m.vp_home),
            vp_away: fmt(m.vp_away),
            sheet: sheet.rows,
            penalty_home: sheet.penalty_home,
            penalty_away: sheet.penalty_away,
            sheet_cut,
        })
        .collect()
}

/// The rulings appendix: every ruling, or the first `limits.rulings` in log order, and the
/// note of a cut list.
fn ruling_views(state: &State, lang: &str, limits: &Limits) -> (Vec<RulingView>, Option<String>) {
    let pid = |p| state.participant(p);
    let listed = limits.rulings.unwrap_or(usize::MAX);
    let rulings_note = (state.rulings.len() > listed)
        .then(|| super::cut::rulings_note(lang, listed, state.rulings.len()));
    let rulings = state
        .rulings
        .iter()
        .take(listed)
        .map(|r| {
            let ew = state
                .tables
                .get(&r.key)
                .map(|t| pid(t.ew).id.clone())
                .or_else(|| r.ev.ew.clone())
                .unwrap_or_default();
            let status = match &r.status {
                RulingStatus::InForce => "in_force".to_string(),
                RulingStatus::Withdrawn { .. } => "withdrawn".to_string(),
                RulingStatus::Superseded { by } | RulingStatus::Overridden { by } => {
                    format!("superseded:{by}")
                }
            };
            let (south, west) = match state.tables.get(&r.key) {
                Some(t) => super::seated::others(state, t),
                None => (None, None),
            };
            RulingView {
                id: r.ev.id.clone(),
                session: state.sessions[r.key.0].def.id.clone(),
                board: r.key.1,
                ns: pid(r.key.2).id.clone(),
                ew,
                south,
                west,
                noun: super::seated::noun(state.sessions[r.key.0].kind),
                score: r.ev.score.normalised(),
                law: r.ev.law.clone(),
                by: r.by.clone(),
                at: r.at.clone(),
                note: r.note.clone(),
                status,
                supersedes: r.ev.supersedes.clone(),
                changes: None,
            }
        })
        .collect();
    (rulings, rulings_note)
}

/// A scored board of either kind, for [`board_view`].
#[derive(Clone, Copy)]
enum Board<'a> {
    Pairs(&'a BoardScore),
    Teams(&'a TeamBoardScore),
}

impl<'a> Board<'a> {
    /// What every scored board has.
    fn score(self) -> &'a BoardScore {
        match self {
            Board::Pairs(b) => b,
            Board::Teams(t) => &t.score,
        }
    }
}

/// One scored board: deal, double dummy, traveller, frequency table, statistics, adjustments.
/// A traveller of more than `2 × limits.traveller` tables shows its top and bottom
/// `limits.traveller` results played (by NS points, best first), and only those lines are
/// made; a board's
/// first `limits.adjusted` adjusted scores are shown.
fn board_view(
    state: &State,
    board: Board,
    dd: Option<&BoardDd>,
    lang: &str,
    limits: &Limits,
) -> BoardView {
    let b = board.score();
    let i = b.session;
    let pid = |p| state.participant(p);
    let (dealer, vul) = state.dealer_vul(i, b.board);
    let deal = state
        .deals
        .get(&(i, b.board))
        .and_then(|d| hands(&d.ev.pbn));
    // Every table: its NS points (none when not played) and where its sides are.
    let mut order: Vec<(i32, usize)> = Vec::new();
    let mut adjusted = Vec::new();
    // A pair board's adjusted scores are its tables' rulings (below); a team board's its
    // rooms' (`sheets::team_adjusted`): its sides are the two teams, whose table is the open
    // room's only.
    let (mut adjusted_total, pairs) = match board {
        Board::Pairs(_) => (0, true),
        Board::Teams(t) => {
            let n = super::sheets::team_adjusted(state, t, limits.adjusted, &mut adjusted);
            (n, false)
        }
    };
    // A table's sides: NS then EW, each its players (two at a seated table: N, S then E, W).
    let per = b.per_side.max(1) as usize;
    for (k, table) in b.sides.chunks(2 * per).enumerate() {
        let (ns, ew) = (&table[0], &table[per]);
        let Some(t) = state.tables.get(&(i, b.board, ns.participant)) else {
            continue;
        };
        if let Some(r) = t.ruling(state).filter(|_| pairs) {
            adjusted_total += 1;
            if adjusted.len() < limits.adjusted {
                let (south, west) = super::seated::others(state, t);
                adjusted.push(AdjustedView {
                    ns: pid(ns.participant).id.clone(),
                    ew: pid(ew.participant).id.clone(),
                    south,
                    west,
                    ruling: r.ev.id.clone(),
                    score: r.ev.score.normalised(),
                    law: r.ev.law.clone(),
                    note: r.note.clone(),
                    by: r.by.clone(),
                    sides: [ns, ew]
                        .iter()
                        .map(|s| adjusted_side(state, t, s))
                        .collect(),
                });
            }
        }
        order.push((t.played.as_ref().map_or(i32::MIN, |p| p.ns_points), k));
    }
    let trav_points: Vec<i32> = order
        .iter()
        .map(|t| t.0)
        .filter(|&p| p != i32::MIN)
        .collect();
    let n = order.len();
    let half = limits.traveller;
    let (shown, cut) = traveller_shown(order, half);
    let traveller = traveller_lines(state, b, shown);
    let adjusted_cut = adjusted_total > adjusted.len();
    let frequency = frequency_lines(b);
    let st = &b.stats;
    BoardView {
        board: b.board,
        section: b.section.clone(),
        match_id: match board {
            Board::Pairs(_) => None,
            Board::Teams(t) => Some(t.match_id.clone()),
        },
        dealer: dealer.letter().to_string(),
        vul: vul.as_str(),
        deal,
        dd: dd.map(dd_view),
        tables: n,
        traveller_cut: cut,
        traveller,
        traveller_note: cut.then(|| super::cut::traveller_note(lang, half, n)),
        frequency,
        results: fmt(st.results),
        mean: st.mean.map(|m| format!("{:.0}", m.to_f64())),
        dispersion: st.dispersion.map(|m| format!("±{:.0}", m.to_f64())),
        dispersion_imp: st.dispersion_imp.map(|m| format!("±{:.1}", m.to_f64())),
        dispersion_mp: st.dispersion_mp.map(|m| format!("±{:.1}", m.to_f64())),
        datum: b.datum.map(fmt),
        dist: distribution(b, &trav_points),
        adjusted_note: adjusted_cut
            .then(|| super::cut::adjusted_note(lang, adjusted.len(), adjusted_total)),
        adjusted_total: adjusted_cut.then_some(adjusted_total),
        adjusted,
    }
}

/// The tables a traveller shows, by score (best for NS first; a stable sort: ties in table
/// order), from each table's (NS points, index) in `order`; and whether it is cut to the best
/// and the worst `half` results.
fn traveller_shown(mut order: Vec<(i32, usize)>, half: usize) -> (Vec<usize>, bool) {
    order.sort_by_key(|t| std::cmp::Reverse(t.0));
    let n = order.len();
    let cut = n > 2 * half;
    // (cut: the best and the worst results played; tables not played, whose artificial scores
    // have no points, would otherwise fill the bottom of a big field's traveller)
    let played = order.iter().take_while(|t| t.0 != i32::MIN).count();
    let shown: Vec<usize> = if cut && played >= 2 * half {
        order[..half]
            .iter()
            .chain(&order[played - half..played])
            .map(|t| t.1)
            .collect()
    } else if cut {
        order[..2 * half].iter().map(|t| t.1).collect()
    } else {
        order.iter().map(|t| t.1).collect()
    };
    (shown, cut)
}

/// A board's traveller lines: the tables `shown`.
fn traveller_lines(state: &State, b: &BoardScore, shown: Vec<usize>) -> Vec<TravellerLine> {
    let pid = |p| state.participant(p);
    let i = b.session;
    let per = b.per_side.max(1) as usize;
    shown
        .into_iter()
        .filter_map(|k| {
            let (ns, ew) = (&b.sides[2 * per * k], &b.sides[2 * per * k + per]);
            let t = state.tables.get(&(i, b.board, ns.participant))?;
            let (south, west) = super::seated::others(state, t);
            Some(TravellerLine {
                ns: pid(ns.participant).id.clone(),
                ew: pid(ew.participant).id.clone(),
                south,
                west,
                contract: played_text(t),
                points: t.played.as_ref().map(|p| signed(p.ns_points)),
                score_ns: fmt(ns.score),
                score_ew: fmt(ew.score),
                ruling: t.ruling(state).map(ruling_text),
                room: t.room.map(|r| r.as_str()),
            })
        })
        .collect()
}

/// A board's frequency table lines.
fn frequency_lines(b: &BoardScore) -> Vec<FreqLine> {
    b.freq
        .iter()
        .map(|r| FreqLine {
            line: match r.line {
                Line::NS => "NS",
                Line::EW => "EW",
                Line::Both => "",
            },
            group: r.group,
            points: signed(r.ns_points),
            count: fmt(r.count),
            mp_ns: fmt(r.mp_ns),
            mp_ew: fmt(r.mp_ew),
        })
        .collect()
}

/// One side of an adjusted table: its artificial percentage or weighted components, and score.
/// (A seated table's side is its two players, `5–11`.)
fn adjusted_side(
    state: &State,
    t: &crate::replay::Table,
    s: &crate::score::SideScore,
) -> AdjustedSide {
    let components = s
        .detail
        .as_ref()
        .map(|d| {
            d.components
                .iter()
                .map(|c| ComponentView {
                    weight: format!("{}%", fmt_f(c.weight.to_f64() * 100.0)),
                    points: signed(c.points),
                    raw: Some(fmt(c.raw)),
                })
                .collect()
        })
        .unwrap_or_default();
    AdjustedSide {
        side: match s.side {
            crate::adjust::Side::NS => "NS",
            crate::adjust::Side::EW => "EW",
        },
        participant: super::seated::side_ids(state, t, s.side)
            .unwrap_or_else(|| state.participant(s.participant).id.clone()),
        artificial: s.artificial.as_ref().map(|p| format!("{}%", fmt(**p))),
        components,
        score: fmt(s.score),
    }
}

/// A board's score distribution for its chart: NS points and how many tables scored them (the
/// NS frequency table, so weighted scores count their fractions; the played results when a form
/// keeps none). More than 40 distinct scores are put in 30 bins of equal width.
fn distribution(b: &crate::score::BoardScore, played: &[i32]) -> Option<Distribution> {
    let mut counts: BTreeMap<i32, f64> = BTreeMap::new();
    for r in b.freq.iter().filter(|r| r.line != Line::EW) {
        *counts.entry(r.ns_points).or_default() += r.count.to_f64();
    }
    if counts.is_empty() {
        for &p in played {
            *counts.entry(p).or_default() += 1.0;
        }
    }
    counts.retain(|_, c| *c > 0.0);
    if counts.is_empty() {
        return None;
    }
    let bars: Vec<(String, f64)> = if counts.len() <= 40 {
        counts.iter().map(|(p, c)| (signed(*p), *c)).collect()
    } else {
        let (lo, hi) = (
            *counts.keys().next().unwrap(),
            *counts.keys().last().unwrap(),
        );
        let width = ((hi - lo) as f64 / 30.0).ceil().max(10.0) as i32;
        let mut bins: BTreeMap<i32, f64> = BTreeMap::new();
        for (p, c) in &counts {
            *bins.entry(lo + (p - lo) / width * width).or_default() += c;
        }
        bins.into_iter()
            .map(|(p, c)| (format!("{}…", signed(p)), c))
            .collect()
    };
    let max = bars.iter().map(|b| b.1).fold(0.0, f64::max);
    Some(Distribution {
        max,
        bars: bars
            .into_iter()
            .map(|(label, c)| Bar {
                label,
                count: (c * 100.0).round() / 100.0,
            })
            .collect(),
    })
}
