//! The serialized boundary: one plain row type per output table (interface.md), built from the
//! scored championship. Core types never reach a file directly.

use crate::adjust::Side;
use crate::num::Q;
use crate::pipeline::Scored;
use crate::replay::{RulingStatus, State};
use crate::score::{BoardScore, SideScore};
use crate::standings::Standing;

#[derive(Clone, Debug, PartialEq)]
pub struct ScoreRow {
    pub session: String,
    pub section: Option<String>,
    pub board: i32,
    pub participant: String,
    pub side: &'static str,
    pub opponent: String,
    pub score: f64,
    pub top: Option<f64>,
    pub pct: Option<f64>,
    pub adjusted: bool,
    pub ns_points: Option<f64>,
    /// Extra: the exact score as a fraction ("49/5" prints as 9.8).
    pub score_exact: String,
    /// Extra: percent of an artificial score.
    pub artificial_pct: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FreqOut {
    pub session: String,
    pub section: Option<String>,
    pub board: i32,
    pub line: &'static str,
    pub ns_points: i32,
    pub count: f64,
    pub mp_ns: f64,
    pub mp_ew: f64,
    /// Extra: the group of a fouled board (C32), null otherwise.
    pub group: Option<i32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BoardRow {
    pub session: String,
    pub section: Option<String>,
    pub board: i32,
    pub results: f64,
    pub mean: f64,
    pub dispersion: f64,
    pub dispersion_imp: f64,
    pub dispersion_mp: Option<f64>,
    pub datum: Option<f64>,
    /// Extra: N, the tables of the comparison group's largest board (C7).
    pub field: i32,
    /// Extra: tables on this board.
    pub tables: i32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StandingRow {
    pub session: String,
    pub section: Option<String>,
    pub participant: String,
    pub rank: i32,
    pub rank_to: i32,
    pub total: f64,
    pub max: Option<f64>,
    pub pct: Option<f64>,
    pub boards: i32,
    /// Extra: the players' names, " – " separated.
    pub players: String,
    /// Extra: penalties taken off the total.
    pub penalties: f64,
    /// Extra: each player's federation member number, in the order of `players` (`None`:
    /// not known).
    pub player_ids: Vec<Option<String>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RulingRow {
    pub ruling: String,
    pub session: String,
    pub board: i32,
    pub ns: String,
    pub ew: String,
    pub score: String,
    pub law: Option<String>,
    pub seq: i64,
    pub by: Option<String>,
    pub at: Option<String>,
    pub note: Option<String>,
    pub supersedes: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MatchRow {
    pub session: String,
    pub match_id: String,
    pub home: String,
    pub away: String,
    pub imp_home: Option<f64>,
    pub imp_away: Option<f64>,
    pub vp_home: f64,
    pub vp_away: f64,
    /// Extra: boards of the match, and boards scored.
    pub boards: i32,
    pub scored: i32,
}

/// deals.parquet: one row per board with a `deal` event (bulletin, `score --dd`).
#[derive(Clone, Debug, PartialEq)]
pub struct DealRow {
    pub session: String,
    pub board: i32,
    pub dealer: String,
    pub vul: &'static str,
    pub pbn: String,
    pub dd_n: String,
    pub dd_e: String,
    pub dd_s: String,
    pub dd_w: String,
    pub par_score: i32,
    pub par_contracts: String,
}

/// All the tables of one scoring run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tables {
    pub scores: Vec<ScoreRow>,
    pub frequencies: Vec<FreqOut>,
    pub boards: Vec<BoardRow>,
    pub standings: Vec<StandingRow>,
    pub rulings: Vec<RulingRow>,
    /// Team forms only (`None` when the championship has no team session).
    pub matches: Option<Vec<MatchRow>>,
    /// Double dummy and par (`None` unless asked for: `bulletin`, `score --dd`).
    pub deals: Option<Vec<DealRow>>,
}

fn side_str(s: Side) -> &'static str {
    match s {
        Side::NS => "NS",
        Side::EW => "EW",
    }
}

fn opt(q: Option<Q>) -> Option<f64> {
    q.map(Q::to_f64)
}

/// One row of scores.parquet, borrowed from the state and the board (the Parquet writer
/// builds its columns from these without a `ScoreRow` per side).
pub struct ScoreView<'a> {
    pub names: ScoreNames<'a>,
    pub values: ScoreValues,
}

/// Each row of scores.parquet for one board.
pub fn each_score<'a>(state: &'a State, b: &'a BoardScore, mut f: impl FnMut(ScoreView<'a>)) {
    for s in &b.sides {
        f(score_view(state, b, s));
    }
}

/// score · 100 / top, exactly: one reduction when the top is a whole number (it is, but for
/// full entries on a line of fractional weight).
fn percent(score: Q, top: Q) -> Q {
    if top.is_integer() {
        if let (Some(n), Some(d)) = (
            score.numer().checked_mul(100),
            score.denom().checked_mul(top.numer()),
        ) {
            return Q::new(n, d);
        }
    }
    score * Q::int(100) / top
}

/// `percent(score, top).to_f64()` without reducing the fraction when that gives the same
/// float (every number below 2^53: `num::quotient_f64`).
fn percent_f64(score: Q, top: Q) -> f64 {
    const EXACT: i128 = 1 << 53;
    if top.is_integer() {
        if let (Some(n), Some(d)) = (
            score.numer().checked_mul(100),
            score.denom().checked_mul(top.numer()),
        ) {
            if d > 0 && d <= EXACT && n.abs() <= EXACT {
                return crate::num::quotient_f64(n as i64, d as i64);
            }
        }
    }
    percent(score, top).to_f64()
}

/// The row of scores.parquet of one side of a board.
pub fn score_view<'a>(state: &'a State, b: &'a BoardScore, s: &'a SideScore) -> ScoreView<'a> {
    ScoreView {
        names: score_names(state, b, s),
        values: score_values(s),
    }
}

/// The columns of a scores.parquet row that name things (its first six).
pub struct ScoreNames<'a> {
    pub session: &'a str,
    pub section: Option<&'a str>,
    pub board: i32,
    pub participant: &'a str,
    pub side: &'static str,
    pub opponent: &'a str,
}

/// The columns of a scores.parquet row that are numbers (the others).
pub struct ScoreValues {
    pub score: f64,
    pub top: Option<f64>,
    pub pct: Option<f64>,
    pub adjusted: bool,
    pub ns_points: Option<f64>,
    pub exact: Q,
    pub artificial_pct: Option<f64>,
}

/// The naming columns of one side's row (the Parquet writer builds them apart from the numbers,
/// on another thread).
pub fn score_names<'a>(state: &'a State, b: &'a BoardScore, s: &'a SideScore) -> ScoreNames<'a> {
    let me = state.participant(s.participant);
    ScoreNames {
        session: state.sessions[b.session].def.id.as_str(),
        section: b.section.as_deref().or(me.section.as_deref()),
        board: b.board as i32,
        participant: &me.id,
        side: side_str(s.side),
        opponent: &state.participant(s.opponent).id,
    }
}

/// The number columns of one side's row.
pub fn score_values(s: &SideScore) -> ScoreValues {
    let pct = match s.top {
        Some(top) if !top.is_zero() => Some(percent_f64(s.score, top)),
        _ => None,
    };
    ScoreValues {
        score: s.score.to_f64(),
        top: opt(s.top),
        pct,
        adjusted: s.adjusted,
        ns_points: s.ns_points.map(f64::from),
        exact: s.score,
        artificial_pct: opt(s.artificial.as_deref().copied()),
    }
}

/// The rows of scores.parquet for one board.
pub fn score_rows(state: &State, b: &BoardScore, out: &mut Vec<ScoreRow>) {
    each_score(
        state,
        b,
        |ScoreView {
             names: n,
             values: v,
         }| {
            out.push(ScoreRow {
                session: n.session.to_string(),
                section: n.section.map(str::to_string),
                board: n.board,
                participant: n.participant.to_string(),
                side: n.side,
                opponent: n.opponent.to_string(),
                score: v.score,
                top: v.top,
                pct: v.pct,
                adjusted: v.adjusted,
                ns_points: v.ns_points,
                score_exact: v.exact.to_string(),
                artificial_pct: v.artificial_pct,
            })
        },
    );
}

/// A participant's players' federation member numbers, one per player (`None`: not known).
pub fn player_ids(p: &crate::replay::Participant) -> Vec<Option<String>> {
    let mut ids = p.player_ids.clone();
    ids.resize(p.players.len(), None);
    ids
}

/// The row of standings.parquet for one standing.
pub fn standing_row(state: &State, s: &Standing) -> StandingRow {
    let p = state.participant(s.participant);
    StandingRow {
        session: s.session.map_or_else(
            || "overall".to_string(),
            |i| state.sessions[i].def.id.clone(),
        ),
        section: s.section.clone(),
        participant: p.id.clone(),
        rank: s.rank as i32,
        rank_to: s.rank_to as i32,
        total: s.total.to_f64(),
        max: s.max.as_ref().map(|m| m.to_f64()),
        pct: s.pct(),
        boards: s.boards as i32,
        players: p.players.join(" – "),
        penalties: s.penalties.to_f64(),
        player_ids: player_ids(p),
    }
}

pub fn build(state: &State, scored: &Scored) -> Tables {
    build_with(state, scored, true)
}

/// [`build`], with or without the scores rows (the biggest table: the Parquet writer can build
/// it straight from the boards, [`super::parquet::write_scored`]).
pub fn build_with(state: &State, scored: &Scored, with_scores: bool) -> Tables {
    use rayon::prelude::*;
    // The boards' tables, the standings and the rulings are built at once, each in its order.
    let (mut t, (standings, rulings)) = rayon::join(
        || board_tables(state, scored, with_scores),
        || {
            rayon::join(
                || {
                    scored
                        .standings
                        .par_iter()
                        .map(|s| standing_row(state, s))
                        .collect::<Vec<_>>()
                },
                || ruling_rows(state),
            )
        },
    );
    t.standings = standings;
    t.rulings = rulings;
    let pid = |p| state.participant(p).id.clone();
    if state.sessions.iter().any(|s| s.kind.in_matches) {
        t.matches = Some(
            scored
                .matches
                .iter()
                .map(|m| MatchRow {
                    session: state.sessions[m.session].def.id.clone(),
                    match_id: m.match_id.clone(),
                    home: pid(m.home),
                    away: pid(m.away),
                    imp_home: opt(m.imp_home),
                    imp_away: opt(m.imp_away),
                    vp_home: m.vp_home.to_f64(),
                    vp_away: m.vp_away.to_f64(),
                    boards: m.boards as i32,
                    scored: m.scored as i32,
                })
                .collect(),
        );
    }
    t
}

/// The rows of every board: scores (when asked), frequencies and statistics.
fn board_tables(state: &State, scored: &Scored, with_scores: bool) -> Tables {
    let mut t = Tables::default();
    // A pair board has its own row of boards.parquet; the team boards of one number share one.
    let boards = (scored.pair_boards.iter().map(|b| (b, true))).chain(
        scored
            .team_boards
            .iter()
            .map(|t| (&t.score, t.export_stats)),
    );
    for (b, stats_row) in boards {
        let session = state.sessions[b.session].def.id.clone();
        if with_scores {
            score_rows(state, b, &mut t.scores);
        }
        for r in &b.freq {
            t.frequencies.push(FreqOut {
                session: session.clone(),
                section: b.section.clone(),
                board: b.board as i32,
                line: r.line.as_str(),
                ns_points: r.ns_points,
                count: r.count.to_f64(),
                mp_ns: r.mp_ns.to_f64(),
                mp_ew: r.mp_ew.to_f64(),
                group: r.group.map(|g| g as i32),
            });
        }
        if !stats_row {
            continue;
        }
        let st = &b.stats;
        t.boards.push(BoardRow {
            session: session.clone(),
            section: b.section.clone(),
            board: b.board as i32,
            results: st.results.to_f64(),
            mean: st.mean.map_or(0.0, Q::to_f64),
            dispersion: st.dispersion.map_or(0.0, Q::to_f64),
            dispersion_imp: st.dispersion_imp.map_or(0.0, Q::to_f64),
            dispersion_mp: opt(st.dispersion_mp),
            datum: opt(b.datum),
            field: b.field as i32,
            tables: b.tables() as i32,
        });
    }
    t
}

/// The rulings in force, in the order they were given.
fn ruling_rows(state: &State) -> Vec<RulingRow> {
    use rayon::prelude::*;
    let pid = |p| state.participant(p).id.clone();
    state
        .rulings
        .par_iter()
        .filter(|r| r.status == RulingStatus::InForce)
        .map(|r| {
            let table = &state.tables[&r.key];
            RulingRow {
                ruling: r.ev.id.clone(),
                session: state.sessions[r.key.0].def.id.clone(),
                board: r.key.1 as i32,
                ns: pid(table.ns),
                ew: pid(table.ew),
                score: r.ev.score.normalised(),
                law: r.ev.law.clone(),
                seq: r.seq as i64,
                by: r.by.clone(),
                at: r.at.clone(),
                note: r.note.clone(),
                supersedes: r.ev.supersedes.clone(),
            }
        })
        .collect()
}

/// deals.parquet's rows, in (session, board) order.
pub fn deals(state: &State, dd: &[crate::dd::BoardDd]) -> Vec<DealRow> {
    use crate::bridge::Seat;
    dd.iter()
        .map(|d| DealRow {
            session: state.sessions[d.session].def.id.clone(),
            board: d.board as i32,
            dealer: d.dealer.letter().to_string(),
            vul: d.vul.as_str(),
            pbn: d.pbn.clone(),
            dd_n: d.dd.table.hex(Seat::N),
            dd_e: d.dd.table.hex(Seat::E),
            dd_s: d.dd.table.hex(Seat::S),
            dd_w: d.dd.table.hex(Seat::W),
            par_score: d.dd.par.score,
            par_contracts: d.dd.par.contracts_text(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unreduced percentage is the same float as the reduced one, bit for bit, on scores
    /// and tops of every kind (whole, halves, factored with odd denominators, negative, large
    /// enough to take the reducing path).
    #[test]
    fn percent_without_reducing_is_the_same_float() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for i in 0..200_000 {
            let den = match i % 4 {
                0 => 1,
                1 => 2,
                2 => (next() % 10_000 + 1) as i128,
                _ => (next() % (1 << 40) + 1) as i128,
            };
            let num = (next() % (1 << 20)) as i128 - (1 << 19);
            let num = if i % 7 == 0 { num << 30 } else { num };
            let top = Q::int((next() % 100_000 + 1) as i64);
            let score = Q::new(num, den);
            let want = percent(score, top).to_f64();
            assert_eq!(
                percent_f64(score, top).to_bits(),
                want.to_bits(),
                "{score} / {top}"
            );
            checked += 1;
        }
        // A fractional top takes the general path.
        let (score, top) = (Q::new(7, 3), Q::new(9, 2));
        assert_eq!(percent_f64(score, top), percent(score, top).to_f64());
        assert_eq!(checked, 200_000);
    }
}
