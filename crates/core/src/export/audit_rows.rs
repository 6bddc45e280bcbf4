//! The audit's plain rows, as its JSON, text and Parquet outputs carry them: each participant whose standing changed, each side's score on a board that changed, and the standings under each alternative ruling.

use std::sync::Arc;

/// One participant of a standings group that changed. (Its names are shared: a big field's
/// audit lists 200,000 of them, each participant twice, each session's name thousands of times.)
#[derive(Clone, Debug, PartialEq)]
pub struct StandingDelta {
    pub session: Arc<str>,
    pub section: Option<Arc<str>>,
    pub participant: Arc<str>,
    pub players: Arc<str>,
    pub total_before: Option<f64>,
    pub total_after: Option<f64>,
    pub pct_before: Option<f64>,
    pub pct_after: Option<f64>,
    pub rank_before: Option<i32>,
    pub rank_after: Option<i32>,
    /// What the participant is ("pair", "team", "player": `State::noun`), for the readable
    /// report's heading (not part of the JSON or Parquet).
    pub noun: &'static str,
    /// `total_after − total_before`: the exact difference as a float when both totals are exact
    /// (1.22, not the 1.2199999999999989 of subtracting their floats), else the floats'.
    pub moved: Option<f64>,
}

impl StandingDelta {
    pub fn delta(&self) -> Option<f64> {
        self.moved
    }
}

/// One participant's score on a board where a score changed.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardDelta {
    pub session: String,
    pub section: Option<String>,
    pub board: i32,
    pub participant: String,
    pub side: String,
    pub score_before: Option<f64>,
    pub score_after: Option<f64>,
}

/// One participant of a standings group under the log as it is and under each alternative.
#[derive(Clone, Debug, PartialEq)]
pub struct AlternativeRow {
    pub session: Arc<str>,
    pub section: Option<Arc<str>>,
    pub participant: Arc<str>,
    pub players: Arc<str>,
    pub noun: &'static str,
    pub total_before: Option<f64>,
    pub pct_before: Option<f64>,
    pub rank_before: Option<i32>,
    /// Under each alternative, in the order given.
    pub after: Vec<After>,
}

/// A participant's standing under one alternative.
#[derive(Clone, Debug, PartialEq)]
pub struct After {
    pub total: Option<f64>,
    pub pct: Option<f64>,
    pub rank: Option<i32>,
    pub delta: Option<f64>,
}
