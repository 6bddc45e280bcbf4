//! Sessions played in team matches of two rooms: a result names its match and room, IMP
//! penalties come off the match before its VPs (C18, C20), and the match finishes by its form
//! (`score::form::TeamRules`, in `pipeline::matches`); a fouled board goes to Law 86B2 (C35).

use super::{Finish, Plug};
use crate::num::Total;
use crate::options::Options;
use crate::score::form::{Form, PenaltyUnit};
use crate::score::BoardScore;

pub static PLUG: Plug = Plug {
    name: "team",
    declared: "teams",
    noun: "team",
    seated: false,
    takes: own_forms,
    in_matches: true,
    seats: (1, 2),
    fouled_refused: Some("a fouled board in a team session goes to Law 86B2 (cancel the board, or artificial or assigned scores): record `ruling` events for it instead (conventions C35)"),
    match_penalty: Some(PenaltyUnit::Imp),
    finish: Finish {
        boards: no_boards,
        member: total_is_match_points,
    },
    players: 4,
    pbn_competition: "Teams",
    usebio_participant: "TEAM",
    running_charts: false,
};

/// A team session has no pair boards: its boards finish in their matches.
fn no_boards(_: &[Option<&Options>], _: &mut [BoardScore]) {}

/// A team's total is its matches' points: nothing to factor.
fn total_is_match_points(_: Form, _: u32, _: u32, _: &mut Total) -> bool {
    false
}

/// A session of this kind is one of its forms' own (`super::of`).
fn own_forms(form: Form) -> bool {
    std::ptr::eq(super::of(form), &PLUG)
}
