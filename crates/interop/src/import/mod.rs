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

/// What the user said beside the file (flags of `frekans import`), and the world the files
/// are read in (the programs a BWS is read with run there).
#[derive(Clone, Debug)]
pub struct Request {
    /// `--form`: the scoring form where the file does not declare one (event-log.md forms).
    pub form: Option<String>,
    /// `--compare`: `section` or `field`, where the file does not say.
    pub compare: Option<String>,
    /// `--options`: session options merged over what the file implies.
    pub options: Map<String, Value>,
    /// `--lenient`: skip what cannot be read (and say what) instead of refusing the file.
    pub lenient: bool,
    /// `--strict`: refuse what a reader would otherwise take with a notice (a traveller line
    /// whose play cannot be read, taken by its score).
    pub strict: bool,
    /// The world the readers run programs in (mdbtools' for a BWS).
    pub world: std::sync::Arc<dyn crate::world::World>,
}

impl Default for Request {
    /// No flags, the real world.
    fn default() -> Request {
        Request {
            form: None,
            compare: None,
            options: Map::new(),
            lenient: false,
            strict: false,
            world: std::sync::Arc::new(crate::world::Real),
        }
    }
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
    /// What the reader took in a way the director should know of (a line taken by its score,
    /// a layout read with a default): said after the import, never a refusal.
    pub notices: Vec<Problem>,
}

pub mod bws;
pub mod csv;
mod draft;
mod ev;
mod file;
mod merge;
mod newlog;
pub mod pbn;
mod run;
pub mod usebio;

pub use merge::{merge, Existing, Input, Merged};
pub use run::{import_append, import_new, ImportError, Imported, Options as ImportOptions};

/// The largest board number a reader takes: the log's own ([`crate::event::read::MAX_BOARD`]),
/// so that a board the log would refuse is refused at its place in the file.
pub const MAX_BOARD: u32 = crate::event::read::MAX_BOARD as u32;

/// A board number as a file writes it (`1` to [`MAX_BOARD`]), `None` when it is not one.
pub fn board_number(s: &str) -> Option<u32> {
    s.trim()
        .parse::<u32>()
        .ok()
        .filter(|b| (1..=MAX_BOARD).contains(b))
}

/// What a message quotes of a file (a value, a token, a line) at most: this many characters,
/// cut in the middle beyond ([`clip_text`]), so that a message about a 20 MB line is short.
pub const QUOTED_CHARS: usize = 100;

/// `s` as a message quotes it: whole up to [`QUOTED_CHARS`] characters, else its first 64 and
/// last 24 with how many were cut between them. Every reader quotes through it ([`quote`]).
pub fn clip_text(s: &str) -> std::borrow::Cow<'_, str> {
    const HEAD: usize = 64;
    const TAIL: usize = 24;
    if s.len() <= QUOTED_CHARS {
        return std::borrow::Cow::Borrowed(s);
    }
    let n = s.chars().count();
    if n <= QUOTED_CHARS {
        return std::borrow::Cow::Borrowed(s);
    }
    let head_end = s.char_indices().nth(HEAD).map_or(s.len(), |(i, _)| i);
    let tail_start = s
        .char_indices()
        .rev()
        .nth(TAIL - 1)
        .map_or(head_end, |(i, _)| i);
    std::borrow::Cow::Owned(format!(
        "{} … ({} characters cut) … {}",
        &s[..head_end],
        n - HEAD - TAIL,
        &s[tail_start..]
    ))
}

/// `s` quoted (`"4S"`, escaped as Rust's `{:?}` escapes it) and clipped ([`clip_text`]).
pub fn quote(s: &str) -> String {
    format!("{:?}", clip_text(s))
}

/// A reader's problems and notices, each message and place clipped as the log's errors are
/// (`error::clip`): whatever a reader quoted, no message is longer than a few lines.
fn clipped(mut ps: Vec<Problem>) -> Vec<Problem> {
    for p in &mut ps {
        if p.message.len() > 600 {
            p.message = crate::error::clip(&p.message);
        }
        if p.at.len() > 600 {
            p.at = crate::error::clip(&p.at);
        }
    }
    ps
}

/// The formats `frekans import` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Pbn,
    Usebio,
    Csv,
    Bws,
}

impl Format {
    pub const NAMES: [&'static str; 4] = ["pbn", "usebio", "csv", "bws"];

    pub fn parse(s: &str) -> Option<Format> {
        match s.to_ascii_lowercase().as_str() {
            "pbn" => Some(Format::Pbn),
            "usebio" | "xml" => Some(Format::Usebio),
            "csv" => Some(Format::Csv),
            "bws" => Some(Format::Bws),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Pbn => "pbn",
            Format::Usebio => "usebio",
            Format::Csv => "csv",
            Format::Bws => "bws",
        }
    }
}

/// The format of a file recognised from its first bytes: a Microsoft Access (Jet/ACE) database
/// is Bridgemate's BWS; XML whose root is `USEBIO` is USEBIO; a file whose first lines are PBN
/// `%` comments or `[Tag "value"]` pairs is PBN; a first line with commas, semicolons or tabs
/// and no brackets is a spreadsheet (CSV). `None` when it is none of these.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    // A Jet 3/4 or ACE database: the 4-byte page header, then "Standard Jet DB"/"Standard ACE DB".
    if bytes.len() > 19
        && (&bytes[4..19] == b"Standard Jet DB" || &bytes[4..19] == b"Standard ACE DB")
    {
        return Some(Format::Bws);
    }
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with('<') {
        // XML: the root element (after the declaration, comments and a DOCTYPE) is USEBIO.
        let upper = text.to_ascii_uppercase();
        if upper.contains("<USEBIO") || upper.contains("<!DOCTYPE USEBIO") {
            return Some(Format::Usebio);
        }
        return None;
    }
    // The first line that says something decides.
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    if line.starts_with('%') || line.starts_with(';') || line.starts_with('{') {
        return Some(Format::Pbn);
    }
    if line.starts_with('[') && line.contains('"') && line.contains(']') {
        return Some(Format::Pbn);
    }
    if line.contains(',') || line.contains(';') || line.contains('\t') {
        return Some(Format::Csv);
    }
    None
}

/// A text file's characters: UTF-8 (a byte-order mark dropped) when the bytes are valid UTF-8,
/// else ISO-8859-1 (PBN's default; read as windows-1252, its superset, by `encoding_rs`). A
/// file whose lines mix the two (some lines valid UTF-8 beyond ASCII, others not UTF-8 at all:
/// two files pasted together) is read line by line, each in its own encoding, and said
/// ([`Mixed`]), never garbled without a word.
pub fn decode_text(bytes: &[u8]) -> (std::borrow::Cow<'_, str>, Option<Mixed>) {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    if std::str::from_utf8(bytes).is_ok() {
        return (
            std::borrow::Cow::Borrowed(std::str::from_utf8(bytes).expect("just checked")),
            None,
        );
    }
    fn latin1(b: &[u8]) -> std::borrow::Cow<'_, str> {
        encoding_rs::WINDOWS_1252.decode_without_bom_handling(b).0
    }
    // (the first line of each kind, and how many are Latin-1)
    let (mut utf8, mut first_latin1, mut latin1_lines) = (None, None, 0);
    for (n, l) in bytes.split(|&b| b == b'\n').enumerate() {
        if l.is_ascii() {
            continue;
        }
        if std::str::from_utf8(l).is_ok() {
            utf8.get_or_insert(n + 1);
        } else {
            first_latin1.get_or_insert(n + 1);
            latin1_lines += 1;
        }
    }
    let (Some(utf8_line), Some(latin1_line)) = (utf8, first_latin1) else {
        return (latin1(bytes), None);
    };
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    for (n, l) in bytes.split(|&b| b == b'\n').enumerate() {
        if n > 0 {
            text.push('\n');
        }
        match std::str::from_utf8(l) {
            Ok(s) => text.push_str(s),
            Err(_) => text.push_str(&latin1(l)),
        }
    }
    (
        std::borrow::Cow::Owned(text),
        Some(Mixed {
            utf8_line,
            latin1_line,
            latin1_lines,
        }),
    )
}

/// A text file whose lines mix UTF-8 and Latin-1 ([`decode_text`]): the first line of each,
/// and how many lines are Latin-1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mixed {
    pub utf8_line: usize,
    pub latin1_line: usize,
    pub latin1_lines: usize,
}

impl Mixed {
    /// Where it is said: the first Latin-1 line.
    pub(crate) fn at(&self) -> String {
        format!("line {}", self.latin1_line)
    }

    /// The notice (or, under `--strict`, the refusal) a reader gives.
    pub(crate) fn slip(&self) -> draft::Slip {
        let what = format!(
            "the file mixes encodings: line {} is UTF-8, but {} line{} (the first here) {} not UTF-8",
            self.utf8_line,
            self.latin1_lines,
            if self.latin1_lines == 1 { "" } else { "s" },
            if self.latin1_lines == 1 { "is" } else { "are" }
        );
        draft::Slip {
            notice: format!("{what}: each line read in its own encoding, those as Latin-1 (ISO-8859-1); check their names"),
            refusal: format!("{what} (--strict): save the file in one encoding"),
        }
    }
}

/// What one reader made of a file, with where in the file each event came from (`line 12`),
/// when the reader knows it: an error the log's own checks find in an event is then reported
/// at that place of the file.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    /// The events, as [`Read::events`] has them (tables' results and artificial scores already
    /// in the log's compact text: [`Ev::Row`]).
    pub events: Vec<Ev>,
    pub skipped: Vec<Problem>,
    /// What the reader noted ([`Read::notices`]).
    pub notices: Vec<Problem>,
    /// One per event of `events`, or empty.
    pub origins: Vec<String>,
}

impl Parsed {
    /// The events as JSON values.
    pub fn values(&self) -> Vec<Value> {
        self.events
            .iter()
            .map(|e| Value::Object(e.to_map()))
            .collect()
    }

    /// The reader's [`Read`].
    pub fn into_read(self) -> Read {
        Read {
            events: self.values(),
            skipped: self.skipped,
            notices: self.notices,
        }
    }
}

pub use ev::{Ev, Row};

/// Read `bytes` (the file `file`, at `path`) as `format` (`columns`: the CSV layout). A BWS
/// database is read from `path` by mdbtools.
pub fn read_as(
    format: Format,
    (path, bytes): (&std::path::Path, &[u8]),
    file: &str,
    req: &Request,
    columns: &csv::Columns,
) -> Result<Parsed, Vec<Problem>> {
    let read = match format {
        Format::Pbn => pbn::read_parsed(bytes, file, req),
        Format::Csv => csv::read_parsed(bytes, file, req, columns),
        Format::Usebio => usebio::read_parsed(bytes, file, req),
        Format::Bws => bws::read(path, file, req),
    };
    match read {
        Ok(mut p) => {
            p.skipped = clipped(p.skipped);
            p.notices = clipped(p.notices);
            Ok(p)
        }
        Err(ps) => Err(clipped(ps)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_recognised_from_content() {
        assert_eq!(detect(b"% PBN 2.1\n[Event \"x\"]\n"), Some(Format::Pbn));
        assert_eq!(
            detect(b"\xef\xbb\xbf\r\n[Board \"1\"]\r\n"),
            Some(Format::Pbn)
        );
        assert_eq!(
            detect(b"<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>\n<!DOCTYPE USEBIO SYSTEM \"usebio_v1_2.dtd\">\n<USEBIO Version=\"1.2\">"),
            Some(Format::Usebio)
        );
        assert_eq!(
            detect(b"<USEBIO Version=\"1.0\"><CLUB/>"),
            Some(Format::Usebio)
        );
        assert_eq!(detect(b"<html><body>"), None);
        assert_eq!(
            detect(b"board;ns;ew;contract\n1;1;2;4S\n"),
            Some(Format::Csv)
        );
        let mut jet = vec![0u8, 1, 0, 0];
        jet.extend_from_slice(b"Standard Jet DB\0\0\0");
        assert_eq!(detect(&jet), Some(Format::Bws));
        assert_eq!(detect(b"just words"), None);
        assert_eq!(detect(b""), None);
    }

    #[test]
    fn quotes_are_clipped() {
        assert_eq!(quote("4S"), "\"4S\"");
        let long = format!("{}{}", "ż".repeat(1000), "end");
        let q = quote(&long);
        assert!(q.chars().count() < QUOTED_CHARS + 40, "{q}");
        assert!(
            q.contains("(915 characters cut)") && q.ends_with("end\""),
            "{q}"
        );
        let exact = "a".repeat(QUOTED_CHARS);
        assert_eq!(clip_text(&exact), exact.as_str());
    }

    #[test]
    fn latin1_when_not_utf8() {
        let (t, mixed) = decode_text(b"Ren\xe9");
        assert_eq!((t.as_ref(), mixed), ("René", None));
        let (t, mixed) = decode_text("Żółć".as_bytes());
        assert_eq!((t.as_ref(), mixed), ("Żółć", None));
        // Lines of both: each in its own encoding, and said.
        let mut bytes = "a\nŻółć\n".as_bytes().to_vec();
        bytes.extend_from_slice(b"Ren\xe9\nb\nJos\xe9\n");
        let (t, mixed) = decode_text(&bytes);
        assert_eq!(t.as_ref(), "a\nŻółć\nRené\nb\nJosé\n");
        assert_eq!(
            mixed,
            Some(Mixed {
                utf8_line: 2,
                latin1_line: 3,
                latin1_lines: 2
            })
        );
    }
}
