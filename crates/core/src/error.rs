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

/// What went wrong writing or reading files, or running a stage that is not the log's fault
/// (exit status 1): the library's one error type for failures. Each variant says what was being
/// done; its chain of causes (`source`) is what the system or a library said. `{}` shows what
/// was being done, `{:#}` the whole chain joined by `": "` (as the binary prints it).
#[derive(Debug)]
pub enum Failed {
    /// What was being done to a file, and the system's reason.
    Io {
        what: String,
        source: std::io::Error,
    },
    /// The system's reason alone.
    BareIo(std::io::Error),
    /// JSON that could not be written or read.
    Json(serde_json::Error),
    /// What cannot be done, said whole.
    Said(String),
    /// What was being done when another failure happened.
    Within { what: String, source: Box<Failed> },
    /// Another library's error (polars, a writer's), as it says it.
    Foreign(Box<dyn std::error::Error + Send + Sync + 'static>),
}

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failed::Io { what, .. } | Failed::Within { what, .. } => f.write_str(what)?,
            Failed::Said(s) => f.write_str(s)?,
            Failed::BareIo(e) => write!(f, "{e}")?,
            Failed::Json(e) => write!(f, "{e}")?,
            Failed::Foreign(e) => write!(f, "{e}")?,
        }
        if f.alternate() {
            let mut cause = std::error::Error::source(self);
            while let Some(e) = cause {
                write!(f, ": {e}")?;
                cause = e.source();
            }
        }
        Ok(())
    }
}

impl std::error::Error for Failed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Failed::Io { source, .. } => Some(source),
            Failed::Within { source, .. } => Some(&**source),
            // (the others are their inner error: its causes are theirs)
            Failed::BareIo(e) => e.source(),
            Failed::Json(e) => e.source(),
            Failed::Foreign(e) => e.source(),
            Failed::Said(_) => None,
        }
    }
}

impl From<std::io::Error> for Failed {
    fn from(e: std::io::Error) -> Failed {
        Failed::BareIo(e)
    }
}

impl From<serde_json::Error> for Failed {
    fn from(e: serde_json::Error) -> Failed {
        Failed::Json(e)
    }
}

impl Failed {
    /// A failure said whole.
    pub fn said(what: impl Into<String>) -> Failed {
        Failed::Said(what.into())
    }

    /// Another library's error.
    pub fn foreign(e: impl std::error::Error + Send + Sync + 'static) -> Failed {
        Failed::Foreign(Box::new(e))
    }
}

/// The library's results of failures that are not the log's.
pub type Result<T, E = Failed> = std::result::Result<T, E>;

/// What was being done, added to a failure (or to a missing value).
pub trait Context<T> {
    fn context(self, what: impl fmt::Display) -> Result<T>;
    fn with_context<D: fmt::Display>(self, what: impl FnOnce() -> D) -> Result<T>;
}

impl<T> Context<T> for std::result::Result<T, std::io::Error> {
    fn context(self, what: impl fmt::Display) -> Result<T> {
        self.map_err(|source| Failed::Io {
            what: what.to_string(),
            source,
        })
    }
    fn with_context<D: fmt::Display>(self, what: impl FnOnce() -> D) -> Result<T> {
        self.map_err(|source| Failed::Io {
            what: what().to_string(),
            source,
        })
    }
}

impl<T> Context<T> for std::result::Result<T, Failed> {
    fn context(self, what: impl fmt::Display) -> Result<T> {
        self.map_err(|e| Failed::Within {
            what: what.to_string(),
            source: Box::new(e),
        })
    }
    fn with_context<D: fmt::Display>(self, what: impl FnOnce() -> D) -> Result<T> {
        self.map_err(|e| Failed::Within {
            what: what().to_string(),
            source: Box::new(e),
        })
    }
}

impl<T> Context<T> for std::result::Result<T, serde_json::Error> {
    fn context(self, what: impl fmt::Display) -> Result<T> {
        self.map_err(Failed::Json).context(what)
    }
    fn with_context<D: fmt::Display>(self, what: impl FnOnce() -> D) -> Result<T> {
        self.map_err(Failed::Json).with_context(what)
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, what: impl fmt::Display) -> Result<T> {
        self.ok_or_else(|| Failed::Said(what.to_string()))
    }
    fn with_context<D: fmt::Display>(self, what: impl FnOnce() -> D) -> Result<T> {
        self.ok_or_else(|| Failed::Said(what().to_string()))
    }
}

/// Another library's error as a [`Failed`] (then [`Context`] says what was being done).
pub trait Foreign<T> {
    fn foreign(self) -> Result<T>;
}

impl<T, E: std::error::Error + Send + Sync + 'static> Foreign<T> for std::result::Result<T, E> {
    fn foreign(self) -> Result<T> {
        self.map_err(Failed::foreign)
    }
}

#[test]
fn a_failure_shows_its_chain_as_anyhow_did() {
    let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
    let e: Result<()> = Err(io()).context("cannot read a");
    let e = e.context("cannot publish").unwrap_err();
    assert_eq!(e.to_string(), "cannot publish");
    assert_eq!(format!("{e:#}"), "cannot publish: cannot read a: gone");
    assert_eq!(format!("{:#}", Failed::BareIo(io())), "gone");
}

/// `return Err(Failed::said(format!(…)))`.
#[macro_export]
macro_rules! bail {
    ($($t:tt)*) => {
        return Err($crate::error::Failed::said(format!($($t)*)))
    };
}
