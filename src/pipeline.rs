//! The pipeline: replayed state → boards scored in parallel → standings.
//!
//! The only rayon user. Each board of each comparison group is one task; results are collected
//! in board order, so the output is the same bytes whatever the thread count.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::adjust::Side;
use crate::error::Notice;
use crate::num::Q;
use crate::options::{Compare, Form, MpArtificial, SdMethod};
use crate::replay::{State, Table};
use crate::score::{BoardIn, BoardScore, Dist, TableIn};
use crate::standings::{standings, Standing};

/// Everything scored from one state.
#[derive(Clone, Debug)]
pub struct Scored {
    pub boards: Vec<BoardScore>,
    pub standings: Vec<Standing>,
    /// N of each comparison group: (session, section or None) → tables.
    pub fields: BTreeMap<(usize, Option<String>), u32>,
    pub notices: Vec<Notice>,
}

/// Scoring could not be done (a form not implemented yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreError(pub String);

impl std::fmt::Display for ScoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScoreError {}

/// The comparison group a table belongs to.
pub fn group_of(state: &State, t: &Table) -> Option<String> {
    match state.sessions[t.session].def.compare {
        Compare::Section => t.section.clone(),
        Compare::Field => None,
    }
}

/// How a table enters scoring: the ruling in force resolved into each side's distribution.
pub fn table_in(state: &State, t: &Table) -> TableIn {
    let played = t.played.as_ref().map(|p| p.ns_points);
    let Some(r) = t.ruling(state) else {
        return TableIn::plain(
            t.ns,
            t.ew,
            played.expect("a table without a ruling was played"),
        );
    };
    let opts = &state.sessions[t.session].def.options;
    let ns_score = Dist::from_part(&r.ev.score.ns);
    let ew_score = Dist::from_part(&r.ev.score.ew);
    let (mut ns_freq, mut ew_freq) = (ns_score.clone(), ew_score.clone());
    if let Some(sd) = &r.ev.sd {
        if opts.sd_method == SdMethod::Simplified {
            // C11: everybody else compares with the before-infraction result on the NOS's line.
            match sd.nos {
                Side::NS => ns_freq = Dist::Plain(sd.before),
                Side::EW => ew_freq = Dist::Plain(sd.before),
            }
        }
    }
    TableIn {
        ns: t.ns,
        ew: t.ew,
        ns_score,
        ew_score,
        ns_freq,
        ew_freq,
        adjusted: true,
        played,
        ruling: Some((r.ev.id.clone(), r.line)),
        nos: r.ev.sd.map(|sd| sd.nos),
    }
}

/// The boards of `state` ready to score, in (session, group, board) order, and each comparison
/// group's N.
pub fn board_inputs(
    state: &State,
) -> Result<(Vec<BoardIn<'_>>, BTreeMap<(usize, Option<String>), u32>), ScoreError> {
    let mut fields: BTreeMap<(usize, Option<String>), u32> = BTreeMap::new();
    // (session, group, board) → tables, in table-key order.
    let mut grouped: BTreeMap<(usize, Option<String>, u32), Vec<TableIn>> = BTreeMap::new();
    for t in state.tables.values() {
        let form = state.sessions[t.session].def.form;
        if !matches!(form, Form::Mp | Form::Ximp | Form::Butler | Form::Napki) {
            return Err(ScoreError(format!(
                "session \"{}\" has form \"{}\", which this version of frekans does not score yet (only the pair forms \"mp\", \"ximp\", \"butler\" and \"napki\")",
                state.sessions[t.session].def.id,
                form.name()
            )));
        }
        grouped
            .entry((t.session, group_of(state, t), t.board))
            .or_default()
            .push(table_in(state, t));
    }
    for ((s, g, _), tables) in &grouped {
        let n = fields.entry((*s, g.clone())).or_insert(0);
        *n = (*n).max(tables.len() as u32);
    }
    let tasks = grouped
        .into_iter()
        .map(|((session, section, board), tables)| BoardIn {
            session,
            field: fields[&(session, section.clone())],
            form: state.sessions[session].def.form,
            section,
            board,
            options: &state.sessions[session].def.options,
            tables,
        })
        .collect();
    Ok((tasks, fields))
}

/// Score one board of one comparison group in its session's form.
pub fn score_board(b: &BoardIn) -> BoardScore {
    crate::score::score_board(b)
}

/// Score every board of every session of `state`.
pub fn score(state: &State) -> Result<Scored, ScoreError> {
    let _span = tracing::info_span!("score").entered();
    let (tasks, fields) = board_inputs(state)?;
    let mut boards: Vec<BoardScore> = tasks.par_iter().map(score_board).collect();
    drop(tasks);
    session_bounded(state, &mut boards);
    let mut notices = state.notices.clone();
    for b in &boards {
        let tables = b.sides.len() / 2;
        if (tables as u32) < b.field {
            let s = &state.sessions[b.session].def;
            notices.push(Notice {
                line: None,
                message: format!(
                    "session \"{}\"{} board {} was played at {tables} of {} tables: its lines are factored to the field (Neuberg, C7)",
                    s.id,
                    b.section.as_ref().map(|x| format!(" section {x}")).unwrap_or_default(),
                    b.board,
                    b.field
                ),
            });
        }
        notices.extend(b.notices.iter().cloned());
    }
    let standings = standings(state, &boards, &fields, &mut notices);
    Ok(Scored {
        boards,
        standings,
        fields,
        notices,
    })
}

/// `mp_artificial: session_bounded` (scoring-methods.md §2.4, C9): Av+ is at least the pair's
/// session percentage on its boards without an artificial score, Av− at most.
fn session_bounded(state: &State, boards: &mut [BoardScore]) {
    let bounded: Vec<usize> = (0..state.sessions.len())
        .filter(|&i| state.sessions[i].def.options.mp_artificial == MpArtificial::SessionBounded)
        .collect();
    if bounded.is_empty() {
        return;
    }
    let mut own: BTreeMap<(usize, u32), (Q, Q)> = BTreeMap::new();
    for b in boards.iter().filter(|b| bounded.contains(&b.session)) {
        for s in b.sides.iter().filter(|s| s.artificial.is_none()) {
            let e = own
                .entry((b.session, s.participant))
                .or_insert((Q::ZERO, Q::ZERO));
            e.0 += s.score;
            e.1 += s.top.unwrap_or(Q::ZERO);
        }
    }
    for b in boards.iter_mut().filter(|b| bounded.contains(&b.session)) {
        for s in b.sides.iter_mut() {
            let (Some(p), Some(top)) = (s.artificial, s.top) else {
                continue;
            };
            let Some(&(sum, max)) = own.get(&(b.session, s.participant)) else {
                continue;
            };
            if max.is_zero() {
                continue;
            }
            let session_pct = sum * Q::int(100) / max;
            let fifty = Q::int(50);
            let eff = if p > fifty {
                p.max(session_pct)
            } else if p < fifty {
                p.min(session_pct)
            } else {
                p
            };
            s.score = eff / Q::int(100) * top;
        }
    }
}
