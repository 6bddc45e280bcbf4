//! Import: results files written by other scoring programs (PBN 2.x score tables, USEBIO XML,
//! Bridgemate's BWS database, a spreadsheet of travellers) turned into events of the log, and
//! nothing else. The log stays the one official record; every reader is a front door that
//! writes the log's own JSON events, and scoring downstream is unchanged.
//!
//! Each format is one module with one entry point of the same shape:
//! `pub fn read(bytes: &[u8], file: &str, req: &Request) -> Result<Read, Vec<Problem>>`.
//! Producers' quirks become session options or rulings, never branches in scoring.

use serde_json::{Map, Value};

/// One problem in an imported file: the file, where in it, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    /// The file as the user named it.
    pub file: String,
    /// Where: `line 12` (PBN, CSV), an element path such as
    /// `USEBIO/EVENT/BOARD[3]/TRAVELLER_LINE[2]` (USEBIO), or `ReceivedData row 7` (BWS).
    pub at: String,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.file, self.at, self.message)
    }
}

/// What the user said beside the file (flags of `frekans import`).
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// `--form`: the scoring form where the file does not declare one (event-log.md forms).
    pub form: Option<String>,
    /// `--compare`: `section` or `field`, where the file does not say.
    pub compare: Option<String>,
    /// `--options`: session options merged over what the file implies.
    pub options: Map<String, Value>,
    /// `--lenient`: skip what cannot be read (and say what) instead of refusing the file.
    pub lenient: bool,
}

/// What a reader made of one file.
#[derive(Clone, Debug, Default)]
pub struct Read {
    /// The events, in log order, as the log's own JSON objects without `seq`, `at` or `hash`
    /// (the writer adds those): an optional `championship`, then per session its `session`,
    /// its participants (`pair`/`team`), `match`es, `deal`s, `result`s and `ruling`s.
    /// Session ids are the reader's own (`S1`, `S2`, ...); the caller renames them when several
    /// files make one log.
    pub events: Vec<Value>,
    /// With `--lenient`: what was skipped and why.
    pub skipped: Vec<Problem>,
}

pub mod usebio;
