//! Team match sheets for the view model: every board of a match as the two rooms played it
//! (each room's pairs, contract and NS score, any ruling), each team's board score (IMPs, or
//! board points at BAM and Patton), and each team's running total; the bulletin prints one sheet
//! per match, and its board pages list every room that played a deal from these rows. Also the
//! bulletin's own labels (cover, contents, match sheets), in English and Polish.

use std::collections::BTreeMap;

use super::view::{AdjustedSide, AdjustedView, ComponentView, RoomLine, SheetRow};
use crate::event::Room;
use crate::explain::played_text;
use crate::pipeline::Scored;
use crate::replay::{PId, State};
use crate::score::MatchResult;
use crate::score::{Dist, TeamBoardScore};

/// A float as printed: up to two decimals, no trailing zeros.
pub fn fmt_f(f: f64) -> String {
    let s = format!("{f:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

/// The scored team boards, by (session, match, board).
pub type ByMatch<'a> = BTreeMap<(usize, &'a str, u32), &'a TeamBoardScore>;

/// Index the scored team boards by (session, match, board).
pub fn by_match(scored: &Scored) -> ByMatch<'_> {
    scored
        .team_boards
        .iter()
        .map(|t| ((t.score.session, t.match_id.as_str(), t.score.board), t))
        .collect()
}

/// The matches of session `session` whose sheets a view model cut to `limit` sheets a session
/// shows (`Limits::sheets`): those of the best-placed teams, by the better of its two teams'
/// places in their standings group, then in the order scored; `None` when every sheet is shown.
pub fn shown<'a>(scored: &'a Scored, session: usize, limit: Option<usize>) -> Option<Shown<'a>> {
    let limit = limit?;
    let matches: Vec<&MatchResult> = scored
        .matches
        .iter()
        .filter(|m| m.session == session)
        .collect();
    if matches.len() <= limit {
        return None;
    }
    let place: BTreeMap<PId, u32> = scored
        .standings
        .iter()
        .filter(|s| s.session == Some(session))
        .map(|s| (s.participant, s.rank))
        .collect();
    let rank = |p: PId| place.get(&p).copied().unwrap_or(u32::MAX);
    let mut order: Vec<(u32, usize)> = matches
        .iter()
        .enumerate()
        .map(|(k, m)| (rank(m.home).min(rank(m.away)), k))
        .collect();
    order.sort_unstable();
    Some(Shown {
        total: matches.len(),
        ids: order
            .into_iter()
            .take(limit)
            .map(|(_, k)| matches[k].match_id.as_str())
            .collect(),
    })
}

/// The match sheets a session shows, when cut (`shown`).
pub struct Shown<'a> {
    pub total: usize,
    pub ids: std::collections::BTreeSet<&'a str>,
}

/// What a match sheet adds to a match: its rows (every declared board, in board order) and,
/// at the teams form, the IMPs that a penalty took off each team's board total (none when no
/// penalty applies).
#[derive(Default)]
pub struct Sheet {
    pub rows: Vec<SheetRow>,
    pub penalty_home: Option<String>,
    pub penalty_away: Option<String>,
}

/// The match sheet of `m`.
pub fn sheet(state: &State, boards: &ByMatch, m: &MatchResult) -> Sheet {
    let s = m.session;
    let Some(mt) = state.matches.get(&(s, m.match_id.clone())) else {
        return Sheet {
            rows: Vec::new(),
            penalty_home: None,
            penalty_away: None,
        };
    };
    let (mut run_home, mut run_away) = (0.0f64, 0.0f64);
    let mut rows = Vec::new();
    for &b in &mt.def.boards {
        // Open room: home sits NS; closed room: away sits NS.
        let open = room(state, s, b, m.home, &m.match_id, Room::Open);
        let closed = room(state, s, b, m.away, &m.match_id, Room::Closed);
        let scored = boards
            .get(&(s, m.match_id.as_str(), b))
            .map(|t| (t.rooms.home.to_f64(), t.rooms.away.to_f64()));
        if let Some((h, a)) = scored {
            run_home += h;
            run_away += a;
        }
        if open.is_none() && closed.is_none() && scored.is_none() {
            continue;
        }
        rows.push(SheetRow {
            board: b,
            open,
            closed,
            home: scored.map(|x| signed_f(x.0)),
            away: scored.map(|x| signed_f(x.1)),
            running_home: signed_f(run_home),
            running_away: signed_f(run_away),
        });
    }
    // IMP penalties: the match's IMPs are the boards' totals less any penalty (C18, C20).
    let teams = state.sessions[s]
        .def
        .form
        .spec()
        .penalty_units
        .contains(&crate::event::PenaltyUnit::Imp);
    let penalty = |total: Option<crate::num::Q>, run: f64| {
        let diff = total.map(|t| t.to_f64() - run)?;
        (teams && diff.abs() >= 0.005).then(|| signed_f(diff))
    };
    Sheet {
        penalty_home: penalty(m.imp_home, run_home),
        penalty_away: penalty(m.imp_away, run_away),
        rows,
    }
}

/// One room of a team board: the table whose NS is `ns`, when it belongs to the match and room.
fn room(state: &State, s: usize, b: u32, ns: PId, m: &str, r: Room) -> Option<RoomLine> {
    let t = state.tables.get(&(s, b, ns))?;
    if t.match_id.as_deref() != Some(m) || t.room != Some(r) {
        return None;
    }
    Some(RoomLine {
        ns: state.participant(t.ns).id.clone(),
        ew: state.participant(t.ew).id.clone(),
        contract: played_text(t),
        points: t.played.as_ref().map(|p| signed_i(p.ns_points)),
        ruling: t
            .ruling(state)
            .map(|x| format!("{} {}", x.ev.id, x.ev.score.normalised())),
    })
}

/// A team board's adjusted scores (`BoardView::adjusted`): each room's ruling in force, open
/// room first, the first `limit` of them pushed to `out`; returns how many the board has. Each
/// side's components are its weighted NS results in that room (an artificial score its
/// percentage), and its score the team's on the board (IMPs, or board points).
pub fn team_adjusted(
    state: &State,
    team: &TeamBoardScore,
    limit: usize,
    out: &mut Vec<AdjustedView>,
) -> usize {
    let (b, m, tb) = (&team.score, &team.match_id, &team.rooms);
    let Some(mt) = state.matches.get(&(b.session, m.clone())) else {
        return 0;
    };
    let (home, away) = (mt.home, mt.away);
    let mut total = 0;
    for (ns, r) in [(home, Room::Open), (away, Room::Closed)] {
        let Some(t) = state.tables.get(&(b.session, b.board, ns)) else {
            continue;
        };
        if t.match_id.as_deref() != Some(m.as_str()) || t.room != Some(r) {
            continue;
        }
        let Some(ruling) = t.ruling(state) else {
            continue;
        };
        total += 1;
        if out.len() >= limit {
            continue;
        }
        let input = crate::pipeline::table_in(state, t);
        let side = |side: &'static str, p: PId, d: &Dist| AdjustedSide {
            side,
            participant: state.participant(p).id.clone(),
            artificial: match d {
                Dist::Artificial(pct, _) => Some(format!("{}%", fmt_f(pct.to_f64()))),
                _ => None,
            },
            components: match d {
                Dist::Artificial(..) => Vec::new(),
                _ => d
                    .components()
                    .into_iter()
                    .map(|(w, x)| ComponentView {
                        weight: format!("{}%", fmt_f(w.to_f64() * 100.0)),
                        points: signed_i(x),
                        raw: None,
                    })
                    .collect(),
            },
            score: fmt_f(if p == home { tb.home } else { tb.away }.to_f64()),
        };
        out.push(AdjustedView {
            ns: state.participant(t.ns).id.clone(),
            ew: state.participant(t.ew).id.clone(),
            south: None,
            west: None,
            ruling: ruling.ev.id.clone(),
            score: ruling.ev.score.normalised(),
            law: ruling.ev.law.clone(),
            note: ruling.note.clone(),
            by: ruling.by.clone(),
            sides: vec![
                side("NS", t.ns, &input.ns_score),
                side("EW", t.ew, &input.ew_score),
            ],
        });
    }
    total
}

fn signed_i(p: i32) -> String {
    if p > 0 {
        format!("+{p}")
    } else {
        p.to_string()
    }
}

fn signed_f(x: f64) -> String {
    let s = fmt_f(x);
    if x >= 0.005 {
        format!("+{s}")
    } else {
        s
    }
}

/// The bulletin's own labels: cover, contents, team standings, match sheets and charts.
pub fn labels(lang: &str) -> &'static [(&'static str, &'static str)] {
    match lang {
        "pl" => &[
            ("contents", "Spis treści"),
            ("winners", "Zwycięzcy"),
            ("team", "Drużyna"),
            ("name", "Nazwa"),
            ("sheets", "Protokoły meczów"),
            ("open", "Otwarty"),
            ("closed", "Zamknięty"),
            ("running", "Narastająco"),
            ("imp", "IMP"),
            ("vp", "VP"),
            ("bp", "PB"),
            ("penalty", "Kara"),
            ("match", "Mecz"),
            ("tables_axis", "stoły"),
            ("ns_score_axis", "zapis NS"),
            ("board_axis", "rozdanie"),
            ("not_scored", "nie policzone"),
            ("top_bottom", "najlepsze i najsłabsze 20 z"),
            ("deals", "Rozdania"),
            ("log_head", "Dziennik"),
            ("vul_None", "nikt"),
            ("vul_NS", "NS"),
            ("vul_EW", "WE"),
            ("vul_All", "obie"),
        ],
        _ => &[
            ("contents", "Contents"),
            ("winners", "Winners"),
            ("team", "Team"),
            ("name", "Name"),
            ("sheets", "Match sheets"),
            ("open", "Open room"),
            ("closed", "Closed room"),
            ("running", "Running total"),
            ("imp", "IMPs"),
            ("vp", "VPs"),
            ("bp", "BP"),
            ("penalty", "Penalty"),
            ("match", "Match"),
            ("tables_axis", "tables"),
            ("ns_score_axis", "NS score"),
            ("board_axis", "board"),
            ("not_scored", "not scored"),
            ("top_bottom", "top and bottom 20 of"),
            ("deals", "Boards"),
            ("log_head", "Log"),
            ("vul_None", "none"),
            ("vul_NS", "NS"),
            ("vul_EW", "EW"),
            ("vul_All", "all"),
        ],
    }
}
