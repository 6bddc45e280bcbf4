//! The `bam` form, board-a-match (conventions C26): each board is worth 2, 1 or 0 board points
//! to a team, and a match is the sum of its board points.

use super::form::PenaltyUnit;
use crate::error::Notice;
use crate::num::Q;

use super::form::{MatchIn, MatchOut, Pbn, Rules, Spec, TeamRules, Usebio, UsebioRead};
use super::rooms::{artificial_board_points, board_points};

pub static FORM: Spec = Spec {
    name: "bam",
    title: "board-a-match",
    matchpoints: false,
    options: &[],
    penalty_units: &[PenaltyUnit::Mp],
    rules: Rules::Teams(TeamRules {
        board_value: |d, _| board_points(d, Q::ZERO),
        artificial: artificial_board_points,
        knockout_average: false,
        finish,
        unit: "board points",
        value_text: |_| "board points".to_string(),
        shows_aggregate: false,
    }),
    pbn: Some(Pbn {
        scoring: "BAM",
        unit: "BAM",
        total: "TotalScoreBAM",
        datum: false,
        read: super::form::PbnRead {
            words: &[("BAM", None)],
            yields: false,
            options: &[],
        },
    }),
    usebio: Some(Usebio {
        event_type: "TEAMS",
        knockout_event_type: "TEAMS",
        board_scoring_method: "PAB",
        match_scoring_method: Some("PAB"),
        team_points: true,
        line_points: None,
        read: UsebioRead {
            board: &["PAB"],
            matches: &["PAB"],
            scoring: &["PAB", "BAM"],
            event_types: &[],
            knockout: &[],
            unnamed: &[],
        },
    }),
    bws: None,
};

/// The match: its board points are its score.
fn finish(m: &MatchIn, _: &mut Vec<Notice>) -> MatchOut {
    MatchOut {
        imps: None,
        vps: m.points,
    }
}
