//! The participants of the view model and their scorecards: per session, every board a pair or
//! team played, in board order, with the opponents, the contract and result, the table's NS
//! points, its score (and percentage at matchpoints), the running total and any ruling. What a
//! player opens first on the results website (`crate::site`).

use std::collections::BTreeMap;

use super::model::{fmt_f, who};
use super::view::{CardRow, OtherRoom, ParticipantView, Scorecard};
use crate::adjust::Side;
use crate::explain::played_text;
use crate::pipeline::Scored;
use crate::replay::{PId, State, Table};
use crate::score::{BoardScore, SideScore};

/// Every participant of the log, in log order, with a scorecard for each session it played.
pub fn build(state: &State, scored: &Scored) -> Vec<ParticipantView> {
    // (participant, session) -> rows with their board number, unsorted.
    let mut rows: BTreeMap<(PId, usize), Vec<(u32, f64, CardRow)>> = BTreeMap::new();
    let mut add = |b: &BoardScore, s: &SideScore, row: CardRow| {
        rows.entry((s.participant, b.session))
            .or_default()
            .push((b.board, s.score.to_f64(), row));
    };
    // A table's sides: NS then EW, each its players (a seated table's N, S then E, W); the
    // table is its North's (NS participant's).
    for b in &scored.pair_boards {
        let per = b.per_side.max(1) as usize;
        for table in b.sides.chunks(2 * per) {
            let north = table[0].participant;
            for s in table {
                add(b, s, card_row(state, b, s, north).0);
            }
        }
    }
    // A team board: the other room, whose NS pair is the team that sat EW here; the team sits
    // there the other way round.
    for t in &scored.team_boards {
        let b = &t.score;
        for s in &b.sides {
            let ns = match s.side {
                Side::NS => s.participant,
                Side::EW => s.opponent,
            };
            let (mut row, ns, table) = card_row(state, b, s, ns);
            let other_ns = if ns == s.participant {
                s.opponent
            } else {
                s.participant
            };
            let other = state
                .tables
                .get(&(b.session, b.board, other_ns))
                .filter(|o| o.room.is_some() && o.room != table.and_then(|t| t.room));
            row.other = other.map(|o| OtherRoom {
                room: o.room.map_or("", |r| r.as_str()),
                contract: played_text(o),
                points: o.played.as_ref().map(|p| {
                    signed(match s.side {
                        Side::NS => -p.ns_points,
                        Side::EW => p.ns_points,
                    })
                }),
            });
            add(b, s, row);
        }
    }
    let mut cards: BTreeMap<PId, Vec<Scorecard>> = BTreeMap::new();
    // Each participant's noun when every session it played seats four players.
    let mut nouns: BTreeMap<PId, Option<&'static str>> = BTreeMap::new();
    for ((p, session), mut list) in rows {
        let noun = super::seated::noun(state.sessions[session].kind);
        let seen = nouns.entry(p).or_insert(noun);
        if *seen != noun {
            *seen = None;
        }
        // Board order; in a team match the open room first.
        list.sort_by(|a, b| (a.0, a.2.room).cmp(&(b.0, b.2.room)));
        let mut running = 0.0;
        let section = list.first().and_then(|r| r.2.section.clone());
        let rows: Vec<CardRow> = list
            .into_iter()
            .map(|(_, score, mut row)| {
                running += score;
                row.running = fmt_f(running);
                row
            })
            .collect();
        cards.entry(p).or_default().push(Scorecard {
            session: state.sessions[session].def.id.clone(),
            section,
            rows,
            total: fmt_f(running),
        });
    }
    (0..state.participants.len())
        .map(|i| {
            let p = i as PId;
            let x = state.participant(p);
            let noun = nouns.get(&p).copied().flatten();
            ParticipantView {
                id: x.id.clone(),
                team: x.team,
                noun,
                member: noun.and_then(|_| super::seated::member(state, p)),
                name: Some(who(state, p)),
                players: x.players.clone(),
                section: x.section.clone(),
                cards: cards.remove(&p).unwrap_or_default(),
            }
        })
        .collect()
}

/// A side's row of its scorecard (without the other room) at the table of NS participant `ns`
/// (a seated table's North), `ns` and the table.
fn card_row<'s>(
    state: &'s State,
    b: &BoardScore,
    s: &SideScore,
    ns: PId,
) -> (CardRow, PId, Option<&'s Table>) {
    let table = state.tables.get(&(b.session, b.board, ns));
    let place = table.and_then(|t| super::seated::place(state, t, s.participant));
    let score = s.score.to_f64();
    let pct = s
        .top
        .map(|t| t.to_f64())
        .filter(|t| *t > 0.0)
        .map(|t| format!("{:.2}", score * 100.0 / t));
    let row = CardRow {
        board: b.board,
        section: b.section.clone(),
        side: match s.side {
            Side::NS => "NS",
            Side::EW => "EW",
        },
        opponent: state.participant(s.opponent).id.clone(),
        seat: place.as_ref().map(|x| x.seat),
        partner: place.as_ref().map(|x| x.partner.clone()),
        opponents: place.map(|x| x.opponents),
        room: table.and_then(|t| t.room.map(|r| r.as_str())),
        contract: table.map(played_text).unwrap_or_default(),
        // The table result's points from this side's seat (EW's are NS's negated).
        points: table.and_then(|t| t.played.as_ref()).map(|p| {
            signed(match s.side {
                Side::NS => p.ns_points,
                Side::EW => -p.ns_points,
            })
        }),
        score: fmt_f(score),
        pct,
        running: String::new(),
        ruling: table
            .and_then(|t| t.ruling(state))
            .map(|r| format!("{} {}", r.ev.id, r.ev.score.normalised())),
        other: None,
    };
    (row, ns, table)
}

fn signed(p: i32) -> String {
    if p > 0 {
        format!("+{p}")
    } else {
        p.to_string()
    }
}
