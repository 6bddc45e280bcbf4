//! The bulletin's running charts: per comparison group of a pair session, how the leaders'
//! scores grew board by board.

use std::collections::BTreeMap;

use super::view::{Chart, Series};
use crate::pipeline::Scored;
use crate::replay::State;
use crate::score::BoardScore;

/// Per comparison group of a pair session, the leaders' running score across the session's
/// boards (percentage at matchpoints, total otherwise): the six best of the final standings.
pub fn running_charts(state: &State, scored: &Scored, session: usize) -> Vec<Chart> {
    let def = &state.sessions[session].def;
    let is_mp = def.form.has_top();
    let mut out = Vec::new();
    let mut groups: BTreeMap<Option<String>, Vec<&crate::standings::Standing>> = BTreeMap::new();
    for st in scored
        .standings
        .iter()
        .filter(|s| s.session == Some(session))
    {
        let g = match def.compare {
            crate::options::Compare::Section => st.section.clone(),
            crate::options::Compare::Field => None,
        };
        groups.entry(g).or_default().push(st);
    }
    for (section, mut members) in groups {
        members.sort_by_key(|s| (s.rank, state.participant(s.participant).id.clone()));
        let leaders: Vec<crate::replay::PId> =
            members.iter().take(6).map(|s| s.participant).collect();
        if leaders.is_empty() {
            continue;
        }
        let boards: Vec<&BoardScore> = scored
            .pair_boards
            .iter()
            .filter(|b| {
                b.session == session
                    && (def.compare == crate::options::Compare::Field || b.section == section)
            })
            .collect();
        let mut numbers: Vec<u32> = boards.iter().map(|b| b.board).collect();
        numbers.sort_unstable();
        numbers.dedup();
        let mut series = Vec::new();
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for &p in &leaders {
            // Floats: a chart needs two decimals, and exact sums of factored scores over a
            // huge field can outgrow i128.
            let (mut sum, mut top) = (0.0f64, 0.0f64);
            let mut last: Option<f64> = None;
            let mut values = Vec::new();
            for &n in &numbers {
                for b in boards.iter().filter(|b| b.board == n) {
                    for s in b.sides.iter().filter(|s| s.participant == p) {
                        sum += s.score.to_f64();
                        top += s.top.map_or(0.0, |t| t.to_f64());
                    }
                }
                let v = if is_mp {
                    (top != 0.0).then(|| sum * 100.0 / top)
                } else {
                    Some(sum)
                };
                let v = v.or(last);
                if let Some(x) = v {
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
                last = v;
                values.push(v.map(|x| (x * 100.0).round() / 100.0));
            }
            series.push(Series {
                label: state.participant(p).id.clone(),
                values,
            });
        }
        if !lo.is_finite() {
            continue;
        }
        if hi - lo < 1.0 {
            hi = lo + 1.0;
        }
        out.push(Chart {
            section,
            unit: if is_mp { "%" } else { "IMP" },
            boards: numbers,
            min: lo.floor(),
            max: hi.ceil(),
            series,
        });
    }
    out
}
