//! frekans's publication: `report` (the one view model, and the PDF bulletin through the `typst`
//! program) and `site` (the results website and the live page).

// The bulletin's label tables are long `json!` literals.
#![recursion_limit = "256"]

// The core's modules under their own names, so that `crate::replay` reads as in the core.
use frekans_core::{
    adjust, audit, bridge, dd, error, event, explain, hash, kind, memory, num, options, pipeline,
    progress, replay, score, standings, text, world,
};

pub mod report;
pub mod site;
