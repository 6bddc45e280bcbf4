//! Audits: how a ruling (or the events after a point of the log) changed the standings.
//!
//! Two replays of the same log are scored and compared: `--ruling ID` leaves out the ruling,
//! every ruling that supersedes it (directly or through others) and their withdrawals;
//! `--as-of SEQ` compares the first SEQ events with the whole log; `--between A B` two prefixes.
//! The comparison is made on the export rows, so it covers every form.

use std::collections::{BTreeMap, BTreeSet};

use crate::event::{Envelope, Event};
use crate::export::rows::{build, Tables};
use crate::pipeline::{self, Prepared, ScoreError};
use crate::replay::{replay, ReplayScope, State};

/// What an audit compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    Ruling(String),
    AsOf(usize),
    Between(usize, usize),
}

/// One participant of a standings group that changed.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingDelta {
    pub session: String,
    pub section: Option<String>,
    pub participant: String,
    pub players: String,
    pub total_before: Option<f64>,
    pub total_after: Option<f64>,
    pub pct_before: Option<f64>,
    pub pct_after: Option<f64>,
    pub rank_before: Option<i32>,
    pub rank_after: Option<i32>,
}

impl StandingDelta {
    pub fn delta(&self) -> Option<f64> {
        Some(self.total_after? - self.total_before?)
    }
}

/// One participant's score on a board where a score changed.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardDelta {
    pub session: String,
    pub section: Option<String>,
    pub board: i32,
    pub participant: String,
    pub side: String,
    pub score_before: Option<f64>,
    pub score_after: Option<f64>,
}

/// The rulings an audit is about, for the readable report.
#[derive(Clone, Debug, PartialEq)]
pub struct RulingNote {
    pub id: String,
    pub session: String,
    pub board: u32,
    pub score: String,
    pub law: Option<String>,
    pub by: Option<String>,
    pub note: Option<String>,
    pub seq: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Audit {
    pub question: Question,
    pub standings: Vec<StandingDelta>,
    pub boards: Vec<BoardDelta>,
    pub rulings: Vec<RulingNote>,
}

/// Why an audit cannot be answered.
#[derive(Debug)]
pub enum AuditError {
    /// The question names something the log does not have (exit 2).
    BadQuestion(String),
    Score(ScoreError),
}

impl std::fmt::Display for AuditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuditError::BadQuestion(m) => f.write_str(m),
            AuditError::Score(e) => write!(f, "{e}"),
        }
    }
}

/// The `seq`s left out by `--ruling ID`: the ruling, every ruling superseding it (directly or
/// through others), and the withdrawals of any of them.
pub fn ruling_scope(events: &[Envelope], id: &str) -> Option<BTreeSet<usize>> {
    let mut ids: BTreeSet<String> = BTreeSet::new();
    let mut seqs = BTreeSet::new();
    let first = events
        .iter()
        .find(|e| matches!(&e.event, Event::Ruling(r) if r.id == id))?;
    ids.insert(id.to_string());
    seqs.insert(first.seq);
    // Supersession only points backwards, so one pass in log order finds every descendant.
    for e in events {
        match &e.event {
            Event::Ruling(r) if r.supersedes.as_ref().is_some_and(|s| ids.contains(s)) => {
                ids.insert(r.id.clone());
                seqs.insert(e.seq);
            }
            _ => {}
        }
    }
    for e in events {
        if let Event::RulingWithdrawn { ruling } = &e.event {
            if ids.contains(ruling) {
                seqs.insert(e.seq);
            }
        }
    }
    Some(seqs)
}

fn scored_rows(
    events: &[Envelope],
    scope: &ReplayScope,
    base: Option<&Prepared>,
) -> Result<(State, Tables, Prepared, usize), AuditError> {
    let (state, _errors) = replay(events, scope);
    let (scored, prepared, fresh) =
        pipeline::score_reusing(&state, base).map_err(AuditError::Score)?;
    let rows = build(&state, &scored);
    Ok((state, rows, prepared, fresh))
}

/// Answer an audit question on a log already validated whole; `full` is its whole replay.
pub fn audit(events: &[Envelope], full: &State, question: &Question) -> Result<Audit, AuditError> {
    let last = events.last().map_or(0, |e| e.seq);
    let (before_scope, after_scope) = match question {
        Question::Ruling(id) => {
            let skip = ruling_scope(events, id)
                .ok_or_else(|| AuditError::BadQuestion(format!("no ruling \"{id}\" in the log")))?;
            (ReplayScope { upto: None, skip }, ReplayScope::default())
        }
        Question::AsOf(seq) => {
            if *seq > last {
                return Err(AuditError::BadQuestion(format!(
                    "--as-of {seq}: the log has only {last} events"
                )));
            }
            (
                ReplayScope {
                    upto: Some(*seq),
                    skip: BTreeSet::new(),
                },
                ReplayScope::default(),
            )
        }
        Question::Between(a, b) => {
            if *a > last || *b > last || a > b {
                return Err(AuditError::BadQuestion(format!("--between {a} {b}: expected two seqs with {a} ≤ {b} ≤ {last} (the log's events)")));
            }
            (
                ReplayScope {
                    upto: Some(*a),
                    skip: BTreeSet::new(),
                },
                ReplayScope {
                    upto: Some(*b),
                    skip: BTreeSet::new(),
                },
            )
        }
    };
    // The after side is scored whole; the before side re-scores only the boards whose tables
    // (or field) differ, reusing the rest.
    let owned;
    let (after_state, after, prepared) =
        if after_scope.upto.is_none() && after_scope.skip.is_empty() {
            let (scored, prepared, _) =
                pipeline::score_reusing(full, None).map_err(AuditError::Score)?;
            (full, build(full, &scored), prepared)
        } else {
            let (st, rows, prepared, _) = scored_rows(events, &after_scope, None)?;
            owned = st;
            (&owned, rows, prepared)
        };
    let (_, before, _, fresh) = scored_rows(events, &before_scope, Some(&prepared))?;
    tracing::info!(
        rescored = fresh,
        of = prepared.len(),
        "audit: boards re-scored for the other replay"
    );
    let boards = board_deltas(&before, &after);
    let standings = standing_deltas(&before, &after);
    let mut rulings = Vec::new();
    let wanted: BTreeSet<usize> = match question {
        Question::Ruling(id) => ruling_scope(events, id).unwrap_or_default(),
        Question::AsOf(a) => (a + 1..=last).collect(),
        Question::Between(a, b) => (a + 1..=*b).collect(),
    };
    for r in &after_state.rulings {
        if wanted.contains(&r.seq) {
            rulings.push(RulingNote {
                id: r.ev.id.clone(),
                session: after_state.sessions[r.key.0].def.id.clone(),
                board: r.key.1,
                score: r.ev.score.normalised(),
                law: r.ev.law.clone(),
                by: r.by.clone(),
                note: r.note.clone(),
                seq: r.seq,
            });
        }
    }
    Ok(Audit {
        question: question.clone(),
        standings,
        boards,
        rulings,
    })
}

type BoardKey = (String, Option<String>, i32);

fn board_deltas(before: &Tables, after: &Tables) -> Vec<BoardDelta> {
    let index = |t: &Tables| -> BTreeMap<(BoardKey, String), (String, f64)> {
        t.scores
            .iter()
            .map(|r| {
                (
                    (
                        (r.session.clone(), r.section.clone(), r.board),
                        r.participant.clone(),
                    ),
                    (r.side.to_string(), r.score),
                )
            })
            .collect()
    };
    let (b, a) = (index(before), index(after));
    let keys: BTreeSet<&(BoardKey, String)> = b.keys().chain(a.keys()).collect();
    let changed: BTreeSet<&BoardKey> = keys
        .iter()
        .filter(|k| b.get(k).map(|x| x.1) != a.get(k).map(|x| x.1))
        .map(|k| &k.0)
        .collect();
    keys.iter()
        .filter(|k| changed.contains(&k.0))
        .map(|k| {
            let side = a
                .get(k)
                .or_else(|| b.get(k))
                .map(|x| x.0.clone())
                .unwrap_or_default();
            BoardDelta {
                session: k.0 .0.clone(),
                section: k.0 .1.clone(),
                board: k.0 .2,
                participant: k.1.clone(),
                side,
                score_before: b.get(k).map(|x| x.1),
                score_after: a.get(k).map(|x| x.1),
            }
        })
        .collect()
}

fn standing_deltas(before: &Tables, after: &Tables) -> Vec<StandingDelta> {
    type Row<'a> = &'a crate::export::rows::StandingRow;
    let index = |t: &Tables| -> BTreeMap<(String, String), usize> {
        t.standings
            .iter()
            .enumerate()
            .map(|(i, r)| ((r.session.clone(), r.participant.clone()), i))
            .collect()
    };
    let (bi, ai) = (index(before), index(after));
    let group = |r: Row| {
        (
            r.session.clone(),
            if r.session == "overall" {
                None
            } else {
                r.section.clone()
            },
        )
    };
    // Groups where anything changed: total, percentage or rank.
    let mut changed: BTreeSet<(String, Option<String>)> = BTreeSet::new();
    let keys: BTreeSet<&(String, String)> = bi.keys().chain(ai.keys()).collect();
    for k in &keys {
        let b = bi.get(k).map(|&i| &before.standings[i]);
        let a = ai.get(k).map(|&i| &after.standings[i]);
        let same = match (b, a) {
            (Some(b), Some(a)) => {
                b.total == a.total && b.pct == a.pct && b.rank == a.rank && b.rank_to == a.rank_to
            }
            _ => false,
        };
        if !same {
            changed.insert(group(a.or(b).unwrap()));
        }
    }
    let mut out: Vec<StandingDelta> = keys
        .iter()
        .filter_map(|k| {
            let b = bi.get(k).map(|&i| &before.standings[i]);
            let a = ai.get(k).map(|&i| &after.standings[i]);
            let r = a.or(b)?;
            changed.contains(&group(r)).then(|| StandingDelta {
                session: r.session.clone(),
                section: r.section.clone(),
                participant: r.participant.clone(),
                players: r.players.clone(),
                total_before: b.map(|x| x.total),
                total_after: a.map(|x| x.total),
                pct_before: b.and_then(|x| x.pct),
                pct_after: a.and_then(|x| x.pct),
                rank_before: b.map(|x| x.rank),
                rank_after: a.map(|x| x.rank),
            })
        })
        .collect();
    // Each group together (sessions in order, overall last), who moved most first.
    out.sort_by(|x, y| {
        let key = |s: &StandingDelta| {
            (
                s.session == "overall",
                s.session.clone(),
                if s.session == "overall" {
                    None
                } else {
                    s.section.clone()
                },
            )
        };
        let (gx, gy) = (key(x), key(y));
        gx.cmp(&gy).then_with(|| {
            let (dx, dy) = (
                x.delta().map_or(f64::INFINITY, f64::abs),
                y.delta().map_or(f64::INFINITY, f64::abs),
            );
            dy.partial_cmp(&dx)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| x.participant.cmp(&y.participant))
        })
    });
    out
}

/// The audit as the JSON object of interface.md.
pub fn to_json(a: &Audit) -> serde_json::Value {
    use serde_json::json;
    let question = match &a.question {
        Question::Ruling(id) => json!({"ruling": id}),
        Question::AsOf(s) => json!({"as_of": s}),
        Question::Between(x, y) => json!({"between": [x, y]}),
    };
    let standings: Vec<_> = a
        .standings
        .iter()
        .map(|s| {
            json!({"session": s.session, "section": s.section, "participant": s.participant,
                   "total_before": s.total_before, "total_after": s.total_after,
                   "pct_before": s.pct_before, "pct_after": s.pct_after,
                   "rank_before": s.rank_before, "rank_after": s.rank_after,
                   "delta": s.delta()})
        })
        .collect();
    let boards: Vec<_> = a
        .boards
        .iter()
        .map(|b| {
            json!({"session": b.session, "section": b.section, "board": b.board, "participant": b.participant,
                   "side": b.side, "score_before": b.score_before, "score_after": b.score_after})
        })
        .collect();
    let rulings: Vec<_> = a
        .rulings
        .iter()
        .map(|r| json!({"ruling": r.id, "session": r.session, "board": r.board, "score": r.score, "law": r.law, "by": r.by, "note": r.note, "seq": r.seq}))
        .collect();
    json!({"audit": question, "standings": standings, "boards": boards, "rulings": rulings})
}

fn num(x: Option<f64>, pct: bool) -> String {
    match x {
        Some(v) if pct => format!("{v:.2}%"),
        Some(v) => format!("{v:.2}"),
        None => "-".to_string(),
    }
}

/// The audit as a readable report: who moved, by how much, and why.
pub fn to_text(a: &Audit) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = match &a.question {
        Question::Ruling(id) => writeln!(out, "Audit of ruling {id}: the standings without it (and anything superseding it) against the standings with it."),
        Question::AsOf(s) => writeln!(out, "Audit: the standings as they stood after event {s} against today's."),
        Question::Between(x, y) => writeln!(out, "Audit: the standings after event {x} against those after event {y}."),
    };
    for r in &a.rulings {
        let _ = writeln!(
            out,
            "  ruling {} (seq {}): session {} board {}: {}{}{}{}",
            r.id,
            r.seq,
            r.session,
            r.board,
            r.score,
            r.law
                .as_ref()
                .map(|l| format!(", law {l}"))
                .unwrap_or_default(),
            r.by.as_ref()
                .map(|l| format!(", by {l}"))
                .unwrap_or_default(),
            r.note
                .as_ref()
                .map(|l| format!(" — {l}"))
                .unwrap_or_default()
        );
    }
    if a.standings.is_empty() {
        let _ = writeln!(out, "\nNo standings changed.");
    }
    let mut group: Option<(String, Option<String>)> = None;
    for s in &a.standings {
        let g = (
            s.session.clone(),
            if s.session == "overall" {
                None
            } else {
                s.section.clone()
            },
        );
        if group.as_ref() != Some(&g) {
            let sec =
                g.1.as_ref()
                    .map(|x| format!(", section {x}"))
                    .unwrap_or_default();
            let _ = writeln!(
                out,
                "\n{}{sec}:",
                if g.0 == "overall" {
                    "overall".to_string()
                } else {
                    format!("session {}", g.0)
                }
            );
            let _ = writeln!(
                out,
                "  {:<8} {:>10} {:>10} {:>9}  {:>11}  players",
                "pair", "before", "after", "delta", "place"
            );
            group = Some(g);
        }
        let pct = s.pct_after.is_some() || s.pct_before.is_some();
        let place = format!(
            "{} → {}",
            s.rank_before.map_or("-".into(), |r| r.to_string()),
            s.rank_after.map_or("-".into(), |r| r.to_string())
        );
        let (b, af) = if pct {
            (num(s.pct_before, true), num(s.pct_after, true))
        } else {
            (num(s.total_before, false), num(s.total_after, false))
        };
        let delta = s
            .delta()
            .map(|d| format!("{d:+.2}"))
            .unwrap_or_else(|| "-".into());
        if s.delta().is_some_and(|d| d == 0.0) && s.rank_before == s.rank_after {
            continue;
        }
        let _ = writeln!(
            out,
            "  {:<8} {:>10} {:>10} {:>9}  {:>11}  {}",
            s.participant, b, af, delta, place, s.players
        );
    }
    if !a.boards.is_empty() {
        let _ = writeln!(
            out,
            "\nBoards whose scores changed (each participant, before → after):"
        );
        let mut last: Option<(String, Option<String>, i32)> = None;
        for b in &a.boards {
            let k = (b.session.clone(), b.section.clone(), b.board);
            if last.as_ref() != Some(&k) {
                let sec =
                    k.1.as_ref()
                        .map(|x| format!(" section {x}"))
                        .unwrap_or_default();
                let _ = writeln!(out, "  session {}{sec} board {}:", k.0, k.2);
                last = Some(k);
            }
            if b.score_before != b.score_after {
                let _ = writeln!(
                    out,
                    "    {:<8} {:<2} {} → {}",
                    b.participant,
                    b.side,
                    num(b.score_before, false),
                    num(b.score_after, false)
                );
            }
        }
        let _ = writeln!(out, "  (participants whose score did not change are in --format json; `frekans explain` shows each board's arithmetic)");
    }
    out
}
