//! What each ruling changed, for the view model's rulings appendix: the rulings in force
//! audited within a budget (`cut::AuditBudget`), side by side, and each audit's movers cut to
//! what the bulletin and the site show (`cut::movers`).

use super::view::{Bulletin, Changes, Mover};
use crate::pipeline::Scored;
use crate::replay::State;

/// Audit each ruling in force (the standings with it against without it, `audit`) and add to
/// its entry of the bulletin's rulings appendix what it changed: how many participants moved
/// and the biggest movers of each standings group (`cut::movers`: five a group, twenty in all).
/// The rulings audited are the first in force in log order within `budget`
/// ([`super::cut::AuditBudget`]: a number of rulings, and of tables on their boards, since an
/// audit re-scores its board); the others say how to ask (`frekans audit LOG --ruling ID`).
/// The audits run side by side; each entry gets its own audit's answer, so the model does not
/// depend on the thread count.
pub fn add_ruling_effects(
    data: &mut Bulletin,
    events: &[crate::event::Envelope],
    state: &State,
    scored: &Scored,
    budget: super::cut::AuditBudget,
) {
    use rayon::prelude::*;
    // Whether a session's standings are by section (else one group of the whole field).
    let by_section = |id: &str| {
        state
            .sessions
            .iter()
            .any(|s| s.def.id == id && s.def.compare == crate::options::Compare::Section)
    };
    // The tables of each (session, board): what an audit of a ruling on it re-scores.
    let mut tables: crate::hash::FxMap<(&str, u32), u64> = Default::default();
    for b in scored.boards() {
        let id = state.sessions[b.session].def.id.as_str();
        *tables.entry((id, b.board)).or_default() += b.sides.len() as u64 / 2;
    }
    let mut chosen: Vec<usize> = Vec::new();
    let (mut spent, mut full) = (0u64, false);
    for (i, entry) in data.rulings.iter_mut().enumerate() {
        if entry.status != "in_force" {
            continue;
        }
        let cost = tables
            .get(&(entry.session.as_str(), entry.board))
            .copied()
            .unwrap_or(0);
        // (the first ruling is audited whatever its board's size)
        full = full
            || chosen.len() == budget.rulings
            || (!chosen.is_empty() && spent + cost > budget.tables);
        if full {
            entry.changes = Some(Changes {
                skipped: Some(true),
                moved: None,
                shown: None,
            });
            continue;
        }
        spent += cost;
        chosen.push(i);
    }
    let answers: Vec<Option<Changes>> = chosen
        .par_iter()
        .map(|&i| {
            let id = data.rulings[i].id.clone();
            let a = crate::audit::audit_scored(
                events,
                state,
                scored,
                &crate::audit::Question::Ruling(id),
            )
            .ok()?;
            Some(changes_of(&a, &by_section))
        })
        .collect();
    for (i, c) in chosen.into_iter().zip(answers) {
        if c.is_some() {
            data.rulings[i].changes = c;
        }
    }
}

/// What an audit of one ruling says it changed, as the rulings appendix shows it.
fn changes_of(a: &crate::audit::Audit, by_section: &impl Fn(&str) -> bool) -> Changes {
    // Who moved: a different place or total; per standings group, the biggest movers
    // (`cut::movers`).
    let moved: Vec<&crate::audit::StandingDelta> = a
        .standings
        .iter()
        .filter(|d| d.rank_before != d.rank_after || d.delta().is_none_or(|x| x != 0.0))
        .collect();
    let value = |t: Option<f64>, p: Option<f64>| match (p, t) {
        (Some(p), _) => format!("{p:.2}%"),
        (None, Some(t)) => format!("{t:.2}"),
        (None, None) => "–".to_string(),
    };
    let place = |r: Option<i32>| r.map_or("–".to_string(), |r| r.to_string());
    let shown: Vec<Mover> = super::cut::movers(&moved, by_section)
        .into_iter()
        .map(|(group, d)| Mover {
            group,
            id: d.participant.to_string(),
            players: d.players.to_string(),
            before: value(d.total_before, d.pct_before),
            after: value(d.total_after, d.pct_after),
            place_before: place(d.rank_before),
            place_after: place(d.rank_after),
        })
        .collect();
    Changes {
        skipped: None,
        moved: Some(moved.len()),
        shown: Some(shown),
    }
}
