//! Errors, notices and the exit-code table.
//!
//! A `LogError` is a problem in the event log that makes it invalid (exit status 2): it names the
//! line, the field and what was expected. A `Notice` is a problem that does not stop scoring
//! (a later ruling overriding another, a split score that breaks the N6 check, a board played
//! fewer times): it is printed, kept, and shown in the outputs.

use std::fmt;

/// Exit statuses of the `frekans` binary (interface.md).
pub mod exit {
    /// Success.
    pub const OK: i32 = 0;
    /// Anything else went wrong (I/O, typst, an internal error).
    pub const FAILURE: i32 = 1;
    /// The input is invalid: every problem printed, nothing written.
    pub const INVALID_INPUT: i32 = 2;
}

/// One problem in the log, tied to the line (1-based, counting every physical line) where it is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LogError {
    pub line: usize,
    pub field: Option<String>,
    pub message: String,
}

impl LogError {
    /// Messages echo what the log said; an echo is cut to keep every message readable and
    /// small, whatever the input.
    pub fn new(line: usize, field: Option<&str>, message: impl Into<String>) -> LogError {
        LogError {
            line,
            field: field.map(clip),
            message: clip(&message.into()),
        }
    }
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(
                f,
                "line {}: field \"{}\": {}",
                self.line, field, self.message
            ),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

/// At most 600 characters, cut in the middle with a mark.
pub fn clip(s: &str) -> String {
    const MAX: usize = 600;
    if s.len() <= MAX {
        return s.to_string();
    }
    let n = s.chars().count();
    if n <= MAX {
        return s.to_string();
    }
    let head: String = s.chars().take(MAX / 2).collect();
    let tail: String = s.chars().skip(n - MAX / 4).collect();
    format!(
        "{head} … ({} characters cut) … {tail}",
        n - MAX / 2 - MAX / 4
    )
}

/// The log is invalid: every error found, in line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidLog {
    pub errors: Vec<LogError>,
}

impl fmt::Display for InvalidLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors.len();
        writeln!(
            f,
            "the log is invalid ({n} error{}); nothing was written or scored:",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.errors {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InvalidLog {}

/// A problem that does not stop scoring.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Notice {
    /// The log line it concerns, when there is one.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}
