//! What the view shows of a seated session's tables (an individual session's: the kind's
//! `seated`): the four players of a table by seat, each player's seat, partner and opponents on
//! their scorecard, their member number beside their name, and the labels of these. Nothing here
//! is made for a session whose sides are one participant each: its view is as it was.

use crate::adjust::Side;
use crate::replay::{PId, State, Table};

/// The labels a view of a seated session adds, in `lang` (the bulletin's only when it has such a
/// session; the site's always).
pub fn labels(lang: &str) -> &'static [(&'static str, &'static str)] {
    match lang {
        "pl" => &[
            ("player", "Zawodnik"),
            ("seat", "Miejsce przy stole"),
            ("partner", "Partner"),
            ("players_at_table", "Zawodnicy"),
            ("member", "Nr członkowski"),
            ("player_name", "Imię i nazwisko"),
            ("find_card_players", "Karty wyników zawodników"),
        ],
        _ => &[
            ("player", "Player"),
            ("seat", "Seat"),
            ("partner", "Partner"),
            ("players_at_table", "Players"),
            ("member", "Member"),
            ("player_name", "Name"),
            ("find_card_players", "Scorecards of the players"),
        ],
    }
}

/// The participants' noun of a session's views when its kind seats four players (`"player"`).
pub fn noun(kind: &crate::kind::Plug) -> Option<&'static str> {
    kind.seated.then_some(kind.noun)
}

/// The seated kind every session of the championship is of (an individual championship's), if
/// one: its overall standings list players.
pub fn overall(state: &State) -> Option<&'static crate::kind::Plug> {
    crate::kind::all_seated(state.sessions.iter().map(|s| s.kind))
}

/// A player's member number, when `p` is a seated session's player and the log gives one.
pub fn member(state: &State, p: PId) -> Option<String> {
    let x = state.participant(p);
    match x.player_ids.as_slice() {
        [Some(m)] if !x.team => Some(m.clone()),
        _ => None,
    }
}

/// South's and West's ids of a table that seats four players.
pub fn others(state: &State, t: &Table) -> (Option<String>, Option<String>) {
    match t.others.as_deref() {
        Some(&[south, west]) => (
            Some(state.participant(south).id.clone()),
            Some(state.participant(west).id.clone()),
        ),
        None => (None, None),
    }
}

/// The ids of a side's players at a table that seats four (`5–11`), else none.
pub fn side_ids(state: &State, t: &Table, side: Side) -> Option<String> {
    t.others.as_ref()?;
    let ids: Vec<&str> = t
        .side(side)
        .map(|p| state.participant(p).id.as_str())
        .collect();
    Some(ids.join("–"))
}

/// Where player `p` sat at a table that seats four: their seat (`N`...), their partner and
/// their two opponents (the one on their left first).
pub struct Place {
    pub seat: &'static str,
    pub partner: String,
    pub opponents: Vec<String>,
}

/// `p`'s place at `t`, when `t` seats four players.
pub fn place(state: &State, t: &Table, p: PId) -> Option<Place> {
    let &[south, west] = t.others.as_deref()?;
    // Clockwise from North: N, E, S, W.
    let round = [t.ns, t.ew, south, west];
    let at = round.iter().position(|&x| x == p)?;
    let id = |k: usize| state.participant(round[k % 4]).id.clone();
    Some(Place {
        seat: ["N", "E", "S", "W"][at],
        partner: id(at + 2),
        opponents: vec![id(at + 1), id(at + 3)],
    })
}
