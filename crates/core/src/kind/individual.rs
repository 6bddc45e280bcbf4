//! Sessions of individuals: each player for themself, partners changing from round to round.
//! A result names the four players by seat; each board is scored as for pairs (the NS side of a
//! table against the other tables' NS sides, `score::seats` crediting both players of a side
//! with its score), and the session finishes as a pairs session does, per player
//! (`mp_artificial: session_bounded`, C9; the personal average, C36).

use super::{pairs, Finish, Plug};
use crate::score::form::{Form, Rules};

pub static PLUG: Plug = Plug {
    name: "individual",
    declared: "individual",
    noun: "player",
    seated: true,
    takes: scored_as_pairs,
    in_matches: false,
    seats: (0, 0),
    fouled_refused: None,
    match_penalty: None,
    finish: Finish {
        boards: pairs::session_bounded,
        member: pairs::personal_average,
    },
    players: 1,
    pbn_competition: "Individuals",
    usebio_participant: "PLAYER",
    running_charts: true,
};

/// The forms an individual session is scored at: those of pairs whose board is a comparison of
/// the NS sides of one field (matchpoints, cross-IMPs, Butler), not napkin or aggregate scoring.
fn scored_as_pairs(form: Form) -> bool {
    matches!(form.spec().rules, Rules::Pairs(_)) && ["mp", "ximp", "butler"].contains(&form.name())
}
