//! The scored championship as the interchange formats see it: per session, its participants
//! with their standings, and its traveller lines (each table's result, the ruling in force and
//! both sides' points in the session's form), team matches with their boards. Plain data built
//! once from the state and the scoring; `export::usebio` and `export::pbn` only print it.

use std::collections::BTreeMap;

pub use super::notes::RulingView;
use super::notes::{DealNote, FouledNote, MatchNote, SessionNote};
use crate::adjust::{AdjustedScore, ArtLabel, Part, Side};
use crate::bridge::{dealer_of, vul_of, Bid, Seat, Vul};
use crate::num::Q;
use crate::pipeline::{group_of, Scored};
use crate::replay::{PId, State};
use crate::score::Form;

/// One session, ready to print.
pub struct SessionView<'s> {
    pub id: &'s str,
    pub name: Option<&'s str>,
    pub form: Form,
    /// Pairs (`lines`) or teams (`matches`): the session's kind.
    pub kind: &'static crate::kind::Plug,
    pub index: usize,
    /// Participants in standings order of their group (section, then rank).
    pub participants: Vec<ParticipantView<'s>>,
    /// Pair forms: every table, in (board, section, NS id) order.
    pub lines: Vec<LineView<'s>>,
    /// Team forms: every match, in id order.
    pub matches: Vec<MatchView<'s>>,
    /// Butler datum of each (board, comparison group).
    pub datum: BTreeMap<(u32, Option<String>), Q>,
    /// Boards with a `deal`: board → (PBN, dealer, vulnerability).
    pub deals: BTreeMap<u32, (&'s str, Seat, Vul)>,
    pub boards: Vec<u32>,
    /// What the formats cannot say of the session (its form, options, penalties...), for
    /// `export::notes`.
    pub note: SessionNote,
}

pub struct ParticipantView<'s> {
    pub id: &'s str,
    pub section: Option<&'s str>,
    pub name: Option<&'s str>,
    pub players: &'s [String],
    /// Beside each player, the federation member number when known (may be shorter).
    pub player_ids: &'s [Option<String>],
    pub total: f64,
    pub pct: Option<f64>,
    pub rank: u32,
    pub rank_to: u32,
    pub boards: u32,
}

/// One table: what was played, the ruling in force, and both sides' points.
pub struct LineView<'s> {
    pub board: u32,
    pub section: Option<&'s str>,
    pub group: Option<String>,
    pub ns: &'s str,
    pub ew: &'s str,
    /// An individual session's South and West (`ns` is North, `ew` East).
    pub others: Option<[&'s str; 2]>,
    pub contract: Option<Bid>,
    pub declarer: Option<Seat>,
    pub tricks: Option<u8>,
    pub lead: Option<&'s str>,
    /// NS points of the table's result (played, or a score given); `None` when not played.
    pub ns_points: Option<i32>,
    pub ruling: Option<RulingView<'s>>,
    /// Points of each side in the session's form (matchpoints, IMPs...), `None` when the
    /// board was not scored (a fouled board's table outside every group, ...).
    pub ns_score: Option<Q>,
    pub ew_score: Option<Q>,
    pub top: Option<Q>,
    /// Team forms: the room.
    pub open: bool,
}

pub struct MatchView<'s> {
    /// Its id as the files give it ([`match_id`]).
    pub id: String,
    pub home: &'s str,
    pub away: &'s str,
    pub knockout: bool,
    pub imp_home: Option<Q>,
    pub imp_away: Option<Q>,
    pub vp_home: Q,
    pub vp_away: Q,
    /// Each board: its number, the home and away team's points, and its two tables.
    pub boards: Vec<(u32, Q, Q, Vec<LineView<'s>>)>,
}

/// The artificial score as USEBIO writes it (`A6040`) when it is one: both sides artificial,
/// the named averages, or whole percentages other than 40, 50 and 60 (which USEBIO readers
/// take for the named averages).
pub fn artificial_token(s: &AdjustedScore) -> Option<String> {
    let pct = |p: &Part| -> Option<i64> {
        match p {
            Part::Artificial { label, pct } => match label {
                ArtLabel::Plus => Some(60),
                ArtLabel::Avg => Some(50),
                ArtLabel::Minus => Some(40),
                ArtLabel::Pct => {
                    if pct.is_integer() && (0..=99).contains(&pct.numer()) {
                        let n = pct.numer() as i64;
                        (!matches!(n, 40 | 50 | 60)).then_some(n)
                    } else {
                        None
                    }
                }
            },
            Part::Weighted(_) => None,
        }
    };
    let (ns, ew) = (pct(&s.ns)?, pct(&s.ew)?);
    // A named average on one side and a bare percentage on the other would read back as two
    // named averages or two percentages: not expressible.
    let named = |p: &Part| matches!(p, Part::Artificial { label, .. } if *label != ArtLabel::Pct);
    if named(&s.ns) != named(&s.ew) {
        return None;
    }
    Some(format!("A{ns:02}{ew:02}"))
}

/// (session, board, participant, NS?).
type SideKey = (usize, u32, PId, bool);

/// Every session (or the one asked for), ready to print.
pub fn sessions<'s>(
    state: &'s State,
    scored: &'s Scored,
    only: Option<usize>,
) -> Vec<SessionView<'s>> {
    let (side_scores, team_boards, datum) = points(scored, only);
    let mut out = Vec::new();
    for (si, sess) in state.sessions.iter().enumerate() {
        if only.is_some_and(|o| o != si) {
            continue;
        }
        let form = sess.def.form;
        let mut lines = session_lines(state, si, &side_scores);
        let participants = session_participants(state, scored, si, &lines);
        let mut matches = Vec::new();
        if sess.kind.in_matches {
            (lines, matches) = session_matches(state, scored, si, lines, &team_boards);
        }
        // A table with neither a result nor a ruling in force (its ruling withdrawn, the board
        // not played) scores nothing, and a file has no line for it.
        lines.retain(scores);
        for m in &mut matches {
            for b in &mut m.boards {
                b.3.retain(scores);
            }
            m.boards.retain(|b| !b.3.is_empty());
        }
        lines.sort_by(|a, b| (a.board, a.section, a.ns).cmp(&(b.board, b.section, b.ns)));
        let deals = state
            .deals
            .range((si, 0)..=(si, u32::MAX))
            .map(|(&(_, b), d)| {
                let (dealer, vul) = state.dealer_vul(si, b);
                (b, (d.ev.pbn.as_str(), dealer, vul))
            })
            .collect();
        out.push(SessionView {
            id: &sess.def.id,
            name: sess.def.name.as_deref(),
            form,
            kind: sess.kind,
            index: si,
            participants,
            lines,
            matches,
            datum: datum
                .iter()
                .filter(|((s, ..), _)| *s == si)
                .map(|((_, b, g), d)| ((*b, g.clone()), *d))
                .collect(),
            deals,
            boards: sess.def.boards.clone(),
            note: session_note(state, si),
        });
    }
    out
}

/// Each side's points: (session, board, participant, NS?) → (score, top); each match board's
/// points of the home and away teams; each Butler board's datum.
#[allow(clippy::type_complexity)]
fn points(
    scored: &Scored,
    only: Option<usize>,
) -> (
    BTreeMap<SideKey, (Q, Option<Q>)>,
    BTreeMap<(usize, &str, u32), (Q, Q)>,
    BTreeMap<(usize, u32, Option<String>), Q>,
) {
    let mut side_scores: BTreeMap<SideKey, (Q, Option<Q>)> = BTreeMap::new();
    let mut team_boards: BTreeMap<(usize, &str, u32), (Q, Q)> = BTreeMap::new();
    let mut datum = BTreeMap::new();
    for t in &scored.team_boards {
        let b = &t.score;
        if only.is_none_or(|o| o == b.session) {
            let points = (t.rooms.home, t.rooms.away);
            team_boards.insert((b.session, t.match_id.as_str(), b.board), points);
        }
    }
    for b in &scored.pair_boards {
        if only.is_some_and(|o| o != b.session) {
            continue;
        }
        for s in &b.sides {
            side_scores.insert(
                (b.session, b.board, s.participant, s.side == Side::NS),
                (s.score, s.top),
            );
        }
        if let Some(d) = b.datum {
            datum.insert((b.session, b.board, b.section.clone()), d);
        }
    }
    (side_scores, team_boards, datum)
}

/// A session's tables, as the files' lines.
fn session_lines<'s>(
    state: &'s State,
    si: usize,
    side_scores: &BTreeMap<SideKey, (Q, Option<Q>)>,
) -> Vec<LineView<'s>> {
    let mut lines = Vec::new();
    for (_, t) in state.tables.iter().filter(|(k, _)| k.0 == si) {
        let ruling = t.ruling(state).map(|r| RulingView {
            id: &r.ev.id,
            score: &r.ev.score,
            sd: r.ev.sd.as_ref(),
            law: r.ev.law.as_deref(),
        });
        let played = t.played.as_ref();
        let play = played.map(|p| &p.play);
        let ns = state.participant(t.ns);
        let ew = state.participant(t.ew);
        let (ns_score, top) = match side_scores.get(&(si, t.board, t.ns, true)) {
            Some(&(s, top)) => (Some(s), top),
            None => (None, None),
        };
        let ew_score = side_scores
            .get(&(si, t.board, t.ew, false))
            .map(|&(s, _)| s);
        let tricks = play.and_then(|p| match (p.contract, p.tricks, p.result) {
            (_, Some(t), _) => Some(t),
            (Some(Bid::Contract(c)), None, Some(r)) => c.tricks_for_offset(r),
            _ => None,
        });
        lines.push(LineView {
            board: t.board,
            section: t.section.as_deref(),
            group: group_of(state, t),
            ns: &ns.id,
            ew: &ew.id,
            others: t
                .others
                .as_deref()
                .map(|o| o.map(|p| state.participant(p).id.as_str())),
            contract: play.and_then(|p| p.contract),
            declarer: play.and_then(|p| p.declarer),
            tricks,
            lead: play.and_then(|p| p.lead.as_deref()),
            ns_points: played.map(|p| p.ns_points),
            ruling,
            ns_score,
            ew_score,
            top,
            open: t.room.is_none_or(|r| r == crate::event::Room::Open),
        });
    }
    lines
}

/// A session's participants in standing order (by section), each with its section: that of
/// the tables it sat at.
fn session_participants<'s>(
    state: &'s State,
    scored: &'s Scored,
    si: usize,
    lines: &[LineView<'s>],
) -> Vec<ParticipantView<'s>> {
    let mut participants: Vec<ParticipantView> = scored
        .standings
        .iter()
        .filter(|s| s.session == Some(si))
        .map(|s| {
            let p = state.participant(s.participant);
            ParticipantView {
                id: &p.id,
                section: None,
                name: p.name.as_deref(),
                players: &p.players,
                player_ids: &p.player_ids,
                total: s.total.to_f64(),
                pct: s.pct(),
                rank: s.rank,
                rank_to: s.rank_to,
                boards: s.boards,
            }
        })
        .collect();
    // A pair's section in this session: that of the tables it sat at.
    let mut section_of: BTreeMap<&str, &str> = BTreeMap::new();
    for l in lines {
        if let Some(s) = l.section {
            section_of.entry(l.ns).or_insert(s);
            section_of.entry(l.ew).or_insert(s);
        }
    }
    for p in &mut participants {
        p.section = section_of.get(p.id).copied();
    }
    participants.sort_by(|a, b| (a.section, a.rank, a.id).cmp(&(b.section, b.rank, b.id)));
    participants
}

/// A team session's matches, each with its boards' lines (open room first) and points; the
/// lines of no match given back.
#[allow(clippy::type_complexity)]
fn session_matches<'s>(
    state: &'s State,
    scored: &'s Scored,
    si: usize,
    lines: Vec<LineView<'s>>,
    team_boards: &BTreeMap<(usize, &str, u32), (Q, Q)>,
) -> (Vec<LineView<'s>>, Vec<MatchView<'s>>) {
    let mut matches = Vec::new();
    let mut by_match: BTreeMap<&str, BTreeMap<u32, Vec<LineView>>> = BTreeMap::new();
    let mut rest = Vec::new();
    for (l, (_, t)) in lines
        .into_iter()
        .zip(state.tables.iter().filter(|(k, _)| k.0 == si))
    {
        match t.match_id.as_deref() {
            Some(m) => by_match
                .entry(m)
                .or_default()
                .entry(l.board)
                .or_default()
                .push(l),
            None => rest.push(l),
        }
    }
    for ((_, mid), m) in state.matches.range((si, String::new())..) {
        if m.session != si {
            break;
        }
        let r = scored
            .matches
            .iter()
            .find(|r| r.session == si && r.match_id == *mid);
        let mut boards = Vec::new();
        for (b, mut tables) in by_match.remove(mid.as_str()).unwrap_or_default() {
            tables.sort_by_key(|l| !l.open);
            let (h, a) = team_boards
                .get(&(si, mid.as_str(), b))
                .copied()
                .unwrap_or((Q::ZERO, Q::ZERO));
            boards.push((b, h, a, tables));
        }
        matches.push(MatchView {
            id: match_id(state, si, mid),
            home: &state.participant(m.home).id,
            away: &state.participant(m.away).id,
            knockout: m.def.knockout,
            imp_home: r.and_then(|r| r.imp_home),
            imp_away: r.and_then(|r| r.imp_away),
            vp_home: r.map_or(Q::ZERO, |r| r.vp_home),
            vp_away: r.map_or(Q::ZERO, |r| r.vp_away),
            boards,
        });
    }
    (rest, matches)
}

/// A match's id as the files give it: its own, unless another session has a match of that
/// id (a log's match ids are unique in their session), then the session's id and its own
/// (`RR1-M1`): an import keeps match ids unique in the whole championship, and a file of one
/// session imported with the others' must not declare a match twice.
pub fn match_id(state: &State, si: usize, id: &str) -> String {
    let repeated = state.matches.keys().any(|(s, m)| *s != si && m == id);
    if repeated {
        format!("{}-{id}", state.sessions[si].def.id)
    } else {
        id.to_string()
    }
}

/// Whether a table scores: it has a result, or a ruling in force.
fn scores(l: &LineView) -> bool {
    l.ns_points.is_some() || l.ruling.is_some()
}

/// What the formats cannot say of session `si` (`export::notes`).
fn session_note(state: &State, si: usize) -> SessionNote {
    let sess = &state.sessions[si];
    let form = sess.def.form;
    let id = |p: PId| state.participant(p).id.clone();
    let penalties = state
        .penalties
        .iter()
        .filter(|p| p.session == si)
        .map(|p| {
            let mut m = serde_json::Map::new();
            m.insert("participant".into(), id(p.participant).into());
            m.insert(
                p.ev.unit.name().into(),
                crate::options::number_value(p.ev.amount),
            );
            if let Some(b) = p.ev.board {
                m.insert("board".into(), b.into());
            }
            if let Some(x) = &p.ev.match_id {
                m.insert("match".into(), match_id(state, si, x).into());
            }
            if let Some(x) = &p.ev.law {
                m.insert("law".into(), x.as_str().into());
            }
            if let Some(x) = &p.note {
                m.insert("note".into(), x.as_str().into());
            }
            m
        })
        .collect();
    let fouled = state
        .fouled
        .range((si, 0)..=(si, u32::MAX))
        .map(|(&(_, board), (_, groups))| FouledNote {
            board,
            groups: groups
                .iter()
                .map(|g| g.iter().map(|&p| id(p)).collect())
                .collect(),
        })
        .collect();
    let matches = state
        .matches
        .range((si, String::new())..)
        .take_while(|(_, m)| m.session == si)
        .map(|(_, m)| MatchNote {
            id: match_id(state, si, &m.def.id),
            home: id(m.home),
            away: id(m.away),
            boards: m.def.boards.clone(),
            knockout: m.def.knockout,
        })
        .collect();
    let deals = state
        .deals
        .range((si, 0)..=(si, u32::MAX))
        .filter_map(|(&(_, b), _)| {
            let (dealer, vul) = state.dealer_vul(si, b);
            (dealer != dealer_of(b) || vul != vul_of(b)).then(|| DealNote {
                board: b,
                dealer: dealer.letter().to_string(),
                vul: vul.as_str().to_string(),
            })
        })
        .collect();
    SessionNote {
        id: sess.def.id.clone(),
        name: sess.def.name.clone(),
        form: form.name().to_string(),
        compare: (sess.def.compare == crate::options::Compare::Field).then(|| "field".into()),
        carry: sess.def.carry,
        boards: sess.def.boards.clone(),
        options: crate::options::to_json(&sess.def.options, form.spec().options),
        penalties,
        fouled,
        matches,
        deals,
    }
}

/// A number as files print it: at most `places` decimals, no trailing zeros.
pub fn decimal(x: f64, places: usize) -> String {
    let s = format!("{x:.places$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

/// `3`, or `3=` when the place is shared.
pub fn place(rank: u32, rank_to: u32) -> String {
    if rank_to > rank {
        format!("{rank}=")
    } else {
        rank.to_string()
    }
}
