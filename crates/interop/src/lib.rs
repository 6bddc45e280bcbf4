//! frekans's interchange formats: `import` reads other programs' files (PBN, USEBIO, CSV,
//! Bridgemate) into events of the log; `export` writes the scored championship as USEBIO and PBN.

// The core's modules under their own names, so that `crate::replay` reads as in the core.
use frekans_core::{
    adjust, bridge, error, event, hash, kind, limits, num, options, outfile, pipeline, replay,
    score, text, world,
};

pub mod export;
pub mod import;
