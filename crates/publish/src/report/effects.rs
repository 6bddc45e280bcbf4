//! What each ruling changed, for the view model's rulings appendix: the rulings in force listed
//! (`audit::ruling_effects`: each answer that of `audit --ruling ID`) within a budget of boards'
//! tables re-scored (`cut::AuditBudget`: every ruling of any real championship), and each one's
//! movers cut to what the bulletin and the site show (`cut::movers`).

use super::view::{Bulletin, Changes, Mover};
use crate::pipeline::Scored;
use crate::replay::State;

/// Add to each entry in force of the rulings appendix what its ruling changed (the standings
/// with it against without it, as `frekans audit LOG --ruling ID` answers): how many
/// participants moved and the biggest movers of each standings group (`cut::movers`: five a
/// group, twenty in all). The rulings answered are the first in force in log order within
/// `budget` ([`super::cut::AuditBudget`]: a number of rulings, and of tables on their boards,
/// since each answer scores its board again; the first is answered whatever its board's size);
/// the others say how to ask (`frekans audit LOG --ruling ID`). They are answered side by side;
/// each entry gets its own ruling's answer, so the model does not depend on the thread count.
pub fn add_ruling_effects(
    data: &mut Bulletin,
    events: &[crate::event::Envelope],
    state: &State,
    scored: &Scored,
    budget: super::cut::AuditBudget,
) {
    // Whether a session's standings are by section (else one group of the whole field).
    let by_section = |id: &str| {
        state
            .sessions
            .iter()
            .any(|s| s.def.id == id && s.def.compare == crate::options::Compare::Section)
    };
    // The tables of each (session, board): what an answer re-scores.
    let mut tables: crate::hash::FxMap<(&str, u32), u64> = Default::default();
    for b in scored.boards() {
        let id = state.sessions[b.session].def.id.as_str();
        *tables.entry((id, b.board)).or_default() += b.tables() as u64;
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
        full = full
            || chosen.len() == budget.rulings
            || (!chosen.is_empty() && spent.saturating_add(cost) > budget.tables);
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
    let ids: Vec<String> = chosen.iter().map(|&i| data.rulings[i].id.clone()).collect();
    let effects =
        crate::audit::ruling_effects(events, state, scored, &ids, super::cut::MOVERS_PER_GROUP);
    for (i, e) in chosen.into_iter().zip(effects) {
        if let Some(e) = e {
            data.rulings[i].changes = Some(changes_of(&e, &by_section));
        }
    }
}

/// What one ruling changed, as the rulings appendix shows it.
pub fn changes_of(e: &crate::audit::Effect, by_section: &impl Fn(&str) -> bool) -> Changes {
    let value = |t: Option<f64>, p: Option<f64>| match (p, t) {
        (Some(p), _) => format!("{p:.2}%"),
        (None, Some(t)) => format!("{t:.2}"),
        (None, None) => "–".to_string(),
    };
    let place = |r: Option<i32>| r.map_or("–".to_string(), |r| r.to_string());
    let listed: Vec<&crate::audit::StandingDelta> = e.shown.iter().collect();
    let shown: Vec<Mover> = super::cut::movers(&listed, by_section)
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
        moved: Some(e.moved),
        shown: Some(shown),
    }
}
