//! Sessions played by pairs: each board of a comparison group scored on its own, a fouled board's
//! groups apart (C30), `mp_artificial: session_bounded` (C9) and the personal average (C36) as the
//! session finishes.

use std::collections::BTreeMap;

use super::{Finish, Plug};
use crate::num::{Total, Q};
use crate::options::{MpArtificial, Options};
use crate::score::form::Form;
use crate::score::BoardScore;

pub static PLUG: Plug = Plug {
    name: "pairs",
    declared: "pairs",
    noun: "pair",
    seated: false,
    takes: own_forms,
    in_matches: false,
    seats: (0, 0),
    fouled_refused: None,
    match_penalty: None,
    finish: Finish {
        boards: session_bounded,
        member: personal_average,
    },
    players: 2,
    pbn_competition: "Pairs",
    usebio_participant: "PAIR",
    running_charts: true,
};

/// `mp_artificial: session_bounded` (scoring-methods.md §2.4, C9): Av+ is at least the pair's
/// session percentage on its boards without an artificial score, Av− at most.
pub(super) fn session_bounded(sessions: &[Option<&Options>], boards: &mut [BoardScore]) {
    let bounded: Vec<usize> = (0..sessions.len())
        .filter(|&i| sessions[i].is_some_and(|o| o.mp_artificial == MpArtificial::SessionBounded))
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
            let (Some(p), Some(top)) = (s.artificial.as_deref().copied(), s.top) else {
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

/// C36, forms without a top: a pair that missed boards gets its personal average for each of
/// them (scoring-methods.md §2.4 HE-HALF-TABLE, laws-and-formats.md §3.1): its total is factored
/// to the most boards anyone in its group played. (Forms with a top do this through the
/// percentage.)
pub(super) fn personal_average(form: Form, boards: u32, most: u32, total: &mut Total) -> bool {
    let factored = !form.has_top() && boards > 0 && boards < most;
    if factored {
        total.scale(Q::new(most as i128, boards as i128));
    }
    factored
}

/// A session of this kind is one of its forms' own (`super::of`).
fn own_forms(form: Form) -> bool {
    std::ptr::eq(super::of(form), &PLUG)
}
