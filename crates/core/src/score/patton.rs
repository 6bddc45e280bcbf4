//! The `patton` form (scoring-methods.md §5, conventions C24–C25): each board is worth 2, 1 or
//! 0 board points, and a match adds the aggregate points of its teams' summed scores.

use super::form::PenaltyUnit;
use crate::error::Notice;
use crate::num::Q;
use crate::options::{Options, Patton300};

use super::form::{MatchIn, MatchOut, Rules, Spec, TeamRules};
use super::rooms::{artificial_board_points, board_points};

pub static FORM: Spec = Spec {
    name: "patton",
    title: "Patton",
    matchpoints: false,
    options: &["patton_board_draw_margin", "patton_300", "patton_aggregate"],
    penalty_units: &[PenaltyUnit::Vp],
    rules: Rules::Teams(TeamRules {
        board_value: |d, o| board_points(d, o.patton_board_draw_margin),
        artificial: artificial_board_points,
        knockout_average: false,
        finish,
        unit: "board points",
        value_text: |_| "board points".to_string(),
        shows_aggregate: true,
    }),
    // (neither format has a name for Patton: the session note says it, `export::notes`)
    pbn: Some(super::form::Pbn {
        scoring: "Patton",
        unit: "BAM",
        total: "TotalScore",
        datum: false,
        read: super::form::PbnRead {
            words: &[],
            yields: false,
            options: &[],
        },
    }),
    usebio: Some(super::form::Usebio {
        event_type: "TEAMS",
        knockout_event_type: "TEAMS",
        board_scoring_method: "PATTON",
        match_scoring_method: Some("PATTON"),
        team_points: true,
        line_points: None,
        // (frekans's own name: USEBIO has none for Patton)
        read: super::form::UsebioRead {
            board: &["PATTON"],
            matches: &["PATTON"],
            scoring: &[],
            event_types: &[],
            knockout: &[],
            unnamed: &[],
        },
    }),
    bws: None,
};

/// The match: its aggregates, and board points plus aggregate points as its VPs.
fn finish(m: &MatchIn, _: &mut Vec<Notice>) -> MatchOut {
    let [home, away] = m.points;
    let [agg_h, agg_a] = m.aggregate;
    MatchOut {
        imps: Some([agg_h, agg_a]),
        vps: [
            home + aggregate_points(agg_h, m.options),
            away + aggregate_points(agg_a, m.options),
        ],
    }
}

/// Patton aggregate points of a team's signed aggregate (scoring-methods.md §5, C24).
pub fn aggregate_points(s: Q, o: &Options) -> Q {
    let a = s.abs();
    let top = match o.patton_300 {
        Patton300::InMiddleBand => a > Q::int(300),
        Patton300::InTopBand => a >= Q::int(300),
    };
    let pts = if a < Q::int(100) {
        2
    } else if top {
        if s > Q::ZERO {
            4
        } else {
            0
        }
    } else if s > Q::ZERO {
        3
    } else {
        1
    };
    Q::int(pts)
}
