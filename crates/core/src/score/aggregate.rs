//! The `aggregate` form (total points): declared by the log's format, not scored by this
//! version (a log with an aggregate session is refused when scored).

use super::form::PenaltyUnit;

use super::form::{PairRules, Rules, Spec};

pub static FORM: Spec = Spec {
    name: "aggregate",
    title: "aggregate",
    matchpoints: false,
    options: &[],
    penalty_units: &[PenaltyUnit::Imp],
    rules: Rules::Pairs(PairRules {
        score: None,
        unit: "points",
        options_text: |_| String::new(),
        component: "points",
        comparisons: false,
    }),
    pbn: None,
    usebio: None,
    bws: None,
};
