//! A championship's events after its participants: the header (championship, sessions), then
//! each session's deals, matches, results round by round, rulings, and its end (corrections,
//! appeals, withdrawals), drawn in the one order that makes a seed's bytes.

use std::io;

use super::*;

/// The comment, the championship and the sessions' declarations.
pub(super) fn header(spec: &Spec, w: &mut Writer) -> io::Result<()> {
    let teams = spec.plug().in_matches;
    let boards = spec.boards;
    w.comment(&format!(
        "Synthetic championship written by `frekans synth` (seed {}): {} session(s) of {} boards, {} section(s) of {} {}, form {}.",
        spec.seed,
        spec.sessions,
        boards,
        spec.sections,
        spec.tables,
        if teams { "matches" } else { "tables" },
        spec.form.name()
    ))?;
    if !w.is_jsonl() {
        return Ok(());
    }
    obj(&mut w.buf, "championship")
        .str("name", &format!("Synthetic Championship {}", spec.seed))
        .str("date", spec.date.as_deref().unwrap_or("2026-11-21"))
        .str("place", "Warszawa");
    w.emit()?;
    let options = spec
        .options
        .as_ref()
        .map(|o| serde_json::Value::Object(o.clone()).to_string());
    for s in 1..=spec.sessions {
        let id = format!("S{s}");
        let mut o = obj(&mut w.buf, "session");
        o.str("id", &id)
            .str("name", &format!("Session {s}"))
            .str("form", spec.form.name())
            .str("boards", &board_range(boards));
        if !teams {
            o.str(
                "compare",
                if spec.compare_field {
                    "field"
                } else {
                    "section"
                },
            );
        }
        if let Some(kind) = spec.declared_kind() {
            o.str("kind", kind);
        }
        if let Some(opts) = &options {
            o.raw("options", opts);
        }
        w.emit()?;
    }
    Ok(())
}

/// `1-N` (or `1`), as a session or match names its boards.
fn board_range(boards: u32) -> String {
    if boards == 1 {
        "1".to_string()
    } else {
        format!("1-{boards}")
    }
}

/// The generator's state across sessions: the draws (in the one order that makes a seed's
/// bytes), and the rulings numbered so far.
pub(super) struct Run {
    pub(super) rng: Rng,
    /// `--deal-seed`: the deals' own generator.
    pub(super) deal_rng: Option<Rng>,
    pub(super) ruling_no: u64,
    pub(super) kind_no: usize,
}

/// What a session collects for its end: corrections (the result's seq, the right tricks) and
/// the rulings to appeal or withdraw.
#[derive(Default)]
struct SessionEnd {
    rulings: Vec<PendingRuling>,
    corrections: Vec<(u64, u8)>,
    /// Procedural penalties of a seated kind, each on one player: (player, unit, amount).
    penalties: Vec<(String, &'static str, i64)>,
}

/// Session `s`: its deals, matches, results round by round (rulings after each round), and its
/// end (corrections, appeals, withdrawals).
pub(super) fn session(
    spec: &Spec,
    w: &mut Writer,
    run: &mut Run,
    sections: &[Section],
    s: u32,
) -> io::Result<()> {
    let teams = spec.plug().in_matches;
    let seated = spec.plug().seated;
    let boards = spec.boards;
    let sid = format!("S{s}");
    let day = s - 1;
    // (a deal set shared with other championships: drawn from its own seed)
    let models: Vec<BoardModel> = match &mut run.deal_rng {
        Some(d) => (1..=boards).map(|b| BoardModel::new(b, d)).collect(),
        None => (1..=boards)
            .map(|b| BoardModel::new(b, &mut run.rng))
            .collect(),
    };
    if let (true, Sink::Pbn { deals, .. }) = (spec.deals, &mut w.sink) {
        *deals = models.iter().map(|m| m.deal.pbn()).collect();
    }
    if spec.deals && w.is_jsonl() {
        for m in &models {
            obj(&mut w.buf, "deal")
                .str("session", &sid)
                .int("board", i64::from(m.board))
                .str("pbn", &m.deal.pbn())
                .str(
                    "dealer",
                    &crate::bridge::dealer_of(m.board).letter().to_string(),
                )
                .str("vul", vul_of(m.board).as_str());
            w.emit()?;
        }
    }
    let mut end = SessionEnd::default();
    // Table results are written round by round; rulings of a round after it.
    let per_round: u32 = if teams { boards.min(4) } else { boards.min(2) };
    let rounds = boards.div_ceil(per_round);
    if teams && w.is_jsonl() {
        for sec in sections {
            for (i, home) in sec.ns.iter().enumerate() {
                let away = &sec.ew[(i + s as usize - 1) % sec.ew.len()];
                obj(&mut w.buf, "match")
                    .str("session", &sid)
                    .str("id", &format!("{sid}-{}M{}", sec.name, i + 1))
                    .str("home", home)
                    .str("away", away)
                    .str("boards", &board_range(boards));
                w.emit()?;
            }
        }
    }
    for r in 0..rounds {
        let at = at_time(day, (r + 1) * per_round * 7);
        let mut pending: Vec<PendingRuling> = Vec::new();
        let first = r * per_round + 1;
        let last = (first + per_round - 1).min(boards);
        for sec in sections {
            let n = sec.ns.len();
            for t in 0..if seated { n / 2 } else { n } {
                // Pairs: the EW pairs move up one table a round. Teams: the match of the
                // session, home NS in the open room and away NS in the closed room.
                // Seated: the individual movement (`seating::seats`), South and West beside.
                let mut others = None;
                let (tables, match_id): (Vec<(&str, &str, Option<&str>)>, Option<String>) = if teams
                {
                    let home = &sec.ns[t];
                    let away = &sec.ew[(t + s as usize - 1) % n];
                    (
                        vec![
                            (home.as_str(), away.as_str(), Some("open")),
                            (away.as_str(), home.as_str(), Some("closed")),
                        ],
                        Some(format!("{sid}-{}M{}", sec.name, t + 1)),
                    )
                } else if seated {
                    let k = (s as usize - 1) * rounds as usize + r as usize;
                    let [north, south, east, west] = seating::seats(sec, t, k);
                    others = Some((south, west));
                    (vec![(north, east, None)], None)
                } else {
                    let ew = &sec.ew[(t + r as usize + (s as usize - 1)) % n];
                    (vec![(sec.ns[t].as_str(), ew.as_str(), None)], None)
                };
                for b in first..=last {
                    let m = &models[(b - 1) as usize];
                    for &(ns, ew, room) in &tables {
                        let at_table = Table {
                            sid: &sid,
                            section: (!teams).then_some(sec.name.as_str()),
                            board: b,
                            round: (!teams).then_some(r + 1),
                            table: t as u32 + 1,
                            ns,
                            ew,
                            others,
                            team: match (&match_id, room) {
                                (Some(mid), Some(room)) => Some((mid.as_str(), room)),
                                _ => None,
                            },
                            at: &at,
                        };
                        table(spec, w, run, m, &at_table, &mut pending, &mut end)?;
                    }
                }
            }
        }
        for p in pending {
            write_ruling(w, &sid, &p, None, &at)?;
            if p.appeal.is_some() || p.withdraw {
                end.rulings.push(p);
            }
        }
    }
    session_end(w, run, &sid, at_time(day, rounds * per_round * 7 + 60), end)
}

/// Where a table's result goes.
struct Table<'a> {
    sid: &'a str,
    section: Option<&'a str>,
    board: u32,
    round: Option<u32>,
    table: u32,
    ns: &'a str,
    ew: &'a str,
    /// A seated kind's South and West (`ns` is North, `ew` East).
    others: Option<(&'a str, &'a str)>,
    team: Option<(&'a str, &'a str)>,
    at: &'a str,
}

/// One table of one board: its result (unless ruled not played), a correction to come, a ruling.
fn table(
    spec: &Spec,
    w: &mut Writer,
    run: &mut Run,
    m: &BoardModel,
    at: &Table,
    pending: &mut Vec<PendingRuling>,
    end: &mut SessionEnd,
) -> io::Result<()> {
    let rng = &mut run.rng;
    let played = m.play(rng);
    let ruled = rng.chance(spec.rulings);
    let corrected = !ruled && rng.chance(spec.corrections);
    let as_offset = rng.chance(0.25);
    let lead_shown = rng.chance(0.67);
    let kind = if ruled {
        let k = RulingKind::ALL[run.kind_no % RulingKind::ALL.len()];
        run.kind_no += 1;
        Some(k)
    } else {
        None
    };
    if kind != Some(RulingKind::NotPlayed) {
        w.result(&ResultLine {
            session: at.sid,
            section: at.section,
            board: at.board,
            round: at.round,
            table: Some(at.table),
            ns: at.ns,
            ew: at.ew,
            others: at.others,
            played,
            lead: if lead_shown { m.lead(&played) } else { "" },
            at: at.at,
            team: at.team,
            as_offset,
        })?;
        if corrected && played.bid != Bid::Pass {
            let tricks = if played.tricks == 13 || (played.tricks > 0 && rng.chance(0.5)) {
                played.tricks - 1
            } else {
                played.tricks + 1
            };
            end.corrections.push((w.summary.events, tricks));
        }
    } else {
        w.summary.tables += 1;
    }
    if let Some((south, west)) = at.others {
        penalty(spec, rng, [at.ns, south, at.ew, west], end);
    }
    if let Some(kind) = kind {
        run.ruling_no += 1;
        w.summary.rulings[kind as usize] += 1;
        let body = ruling_body(kind, m, rng);
        let law = law_of(kind, rng);
        let appeal = (kind == RulingKind::Appealed).then(|| weighted_score(m, rng));
        // A seated table is named by North; a ruling that creates it names all four seats, and
        // one on a played table names them now and then.
        let others = at.others.and_then(|(south, west)| {
            (kind == RulingKind::NotPlayed || rng.chance(0.25))
                .then(|| (south.to_string(), west.to_string()))
        });
        pending.push(PendingRuling {
            id: format!("R{}", run.ruling_no),
            board: at.board,
            ns: at.ns.to_string(),
            ew: at.ew.to_string(),
            seated: at.others.is_some(),
            others,
            body,
            law,
            by: "TD",
            appeal,
            withdraw: kind == RulingKind::Withdrawn,
        });
    }
    Ok(())
}

/// Now and then (half as often as a ruling) a procedural penalty on one of a seated table's
/// players, in a unit the session's form takes.
fn penalty(spec: &Spec, rng: &mut Rng, seats: [&str; 4], end: &mut SessionEnd) {
    if !rng.chance(spec.rulings / 2.0) {
        return;
    }
    let player = *rng.pick(&seats);
    let units: Vec<crate::score::form::PenaltyUnit> = spec
        .form
        .form()
        .spec()
        .penalty_units
        .iter()
        .copied()
        .filter(|u| *u != crate::score::form::PenaltyUnit::Vp)
        .collect();
    let Some(&unit) = units.get(rng.below(units.len() as u32) as usize) else {
        return;
    };
    let amount = match unit {
        crate::score::form::PenaltyUnit::PctOfTop => *rng.pick(&[10, 25, 50]),
        _ => 1 + i64::from(rng.below(3)),
    };
    end.penalties
        .push((player.to_string(), unit.name(), amount));
}

/// The end of the session: scoring errors put right, appeals heard, rulings withdrawn.
fn session_end(
    w: &mut Writer,
    run: &mut Run,
    sid: &str,
    late: String,
    end: SessionEnd,
) -> io::Result<()> {
    for (seq, tricks) in end.corrections {
        w.summary.corrections += 1;
        if w.is_jsonl() {
            obj(&mut w.buf, "correction")
                .int("result", seq as i64)
                .int("tricks", i64::from(tricks))
                .str("by", "Scorer")
                .str("at", &late);
            w.emit()?;
        }
    }
    for (player, unit, amount) in end.penalties {
        w.summary.penalties += 1;
        if w.is_jsonl() {
            obj(&mut w.buf, "penalty")
                .str("session", sid)
                .str("participant", &player)
                .int(unit, amount)
                .str("law", "90B")
                .str("by", "TD")
                .str("at", &late);
            w.emit()?;
        }
    }
    for p in end.rulings {
        if let Some(score) = &p.appeal {
            run.ruling_no += 1;
            let appeal = PendingRuling {
                id: format!("R{}", run.ruling_no),
                board: p.board,
                ns: p.ns.clone(),
                ew: p.ew.clone(),
                seated: p.seated,
                others: None,
                body: RulingBody::Score(score.clone()),
                law: p.law,
                by: "Appeals committee",
                appeal: None,
                withdraw: false,
            };
            write_ruling(w, sid, &appeal, Some(&p.id), &late)?;
        } else if p.withdraw && w.is_jsonl() {
            obj(&mut w.buf, "ruling_withdrawn")
                .str("ruling", &p.id)
                .str("by", "Appeals committee")
                .str("note", "table result stands")
                .str("at", &late);
            w.emit()?;
        }
    }
    Ok(())
}
