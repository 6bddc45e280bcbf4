//! `frekans import`'s edges: read the files, recognise their formats, hand them to their
//! readers, merge them, and write the events — as a new log written whole or not at all
//! (a file beside it, synced, then linked into place: an existing file is never replaced), or
//! appended to a log through `event::append::append_events` (lock, seq, hash chain, fsync; all
//! or nothing). Either way the log with the new events is first validated exactly as
//! `frekans check` validates it; an error it finds in an imported event is reported at the
//! place in the file that event came from.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::ev::SealError;
use super::newlog::{CommitError, NewLog};
use super::{csv, detect, merge, read_as, Existing, Format, Input, Merged, Problem, Request};
use crate::error::LogError;
use crate::event::append::{append_events, AppendError};
use crate::event::Event;

/// What the user asked besides the files.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--format`: every file read as this format (default: recognised from its content).
    pub format: Option<Format>,
    pub req: Request,
    /// `--columns` (CSV).
    pub columns: csv::Columns,
    /// The time written as each event's `at`.
    pub now: String,
}

/// What was imported.
#[derive(Debug, Default)]
pub struct Imported {
    /// Events written, and the seq of the first.
    pub events: usize,
    pub first_seq: usize,
    /// Each file, its format and the session ids its sessions were given.
    pub files: Vec<(String, Format, Vec<String>)>,
    pub new_participants: usize,
    /// What `--lenient` skipped.
    pub skipped: Vec<Problem>,
    /// The replay's notices on the log written.
    pub notices: Vec<String>,
}

/// Why an import was refused (exit 2: nothing written) or failed (exit 1).
#[derive(Debug)]
pub enum ImportError {
    Invalid(Vec<Problem>),
    Io(crate::error::Failed),
}

impl From<std::io::Error> for ImportError {
    fn from(e: std::io::Error) -> ImportError {
        ImportError::Io(e.into())
    }
}

fn problem(file: &str, at: &str, message: impl Into<String>) -> Problem {
    Problem {
        file: file.to_string(),
        at: at.to_string(),
        message: message.into(),
    }
}

/// The files as read: the inputs to merge, each file's format and digest ([`Read::digests`]),
/// what `--lenient` skipped, what the readers noted.
struct ReadFiles {
    inputs: Vec<Input>,
    formats: Vec<Format>,
    /// Each input's identity: the SHA-256 of its bytes, written into the note of each session it
    /// declares (`imported from FILE, sha256 HEX`), so that the same file imported again — a
    /// second run after a crash, say — is recognised and adds nothing (`None`: a BWS, whose
    /// sessions are followed by their own note, `bws::live`).
    digests: Vec<Option<String>>,
    skipped: Vec<Problem>,
    noted: Vec<Problem>,
}

/// The note's words before a file's digest.
const DIGEST: &str = ", sha256 ";

/// The digest a session's note names, if an import wrote it.
fn digest_of(note: &str) -> Option<&str> {
    let d = &note[note.rfind(DIGEST)? + DIGEST.len()..];
    (note.starts_with("imported from ")
        && d.len() == 64
        && d.bytes().all(|b| b.is_ascii_hexdigit()))
    .then_some(d)
}

/// Each session a file declares noted with the file's name and digest (a note the file gave is
/// kept, the digest after it).
fn stamp(events: &mut [super::Ev], path: &Path, digest: &str) {
    let base = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for e in events {
        let super::Ev::Json(Value::Object(m)) = e else {
            continue;
        };
        if m.get("type").and_then(Value::as_str) != Some("session") {
            continue;
        }
        let note = match m.get("note").and_then(Value::as_str) {
            Some(n) => format!("{n}; imported from {base}{DIGEST}{digest}"),
            None => format!("imported from {base}{DIGEST}{digest}"),
        };
        m.insert("note".into(), Value::from(note));
    }
}

/// Whether a file's events declare a session (a hand record's do not).
fn declares_session(events: &[super::Ev]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, super::Ev::Json(v) if v["type"] == "session"))
}

/// Each file read by its reader: the inputs to merge, with the formats, or every problem of
/// every file.
fn read_all(files: &[PathBuf], opts: &Options) -> Result<ReadFiles, ImportError> {
    let mut inputs: Vec<Input> = Vec::new();
    let mut formats = Vec::new();
    let mut digests: Vec<Option<String>> = Vec::new();
    let mut problems = Vec::new();
    let mut skipped = Vec::new();
    let mut noted = Vec::new();
    for path in files {
        let name = path.display().to_string();
        // (a file over the import's size limit: refused, exit 2)
        let bytes = tracing::info_span!("file").in_scope(|| super::file::read(path, &name))?;
        let format = match opts.format.or_else(|| detect(&bytes)) {
            Some(f) => f,
            None => {
                problems.push(problem(&name, "line 1", "cannot tell the format of this file (PBN, USEBIO XML, Bridgemate BWS or a CSV spreadsheet): give --format"));
                continue;
            }
        };
        match read_as(
            format,
            (path.as_path(), &bytes),
            &name,
            &opts.req,
            &opts.columns,
        ) {
            Ok(mut p) => {
                let digest = (format != Format::Bws && declares_session(&p.events)).then(|| {
                    use sha2::Digest as _;
                    hex::encode(sha2::Sha256::digest(&bytes[..]))
                });
                if let Some(d) = &digest {
                    // (the same file named twice: read once)
                    if let Some(i) = digests.iter().position(|x| x.as_ref() == Some(d)) {
                        noted.push(problem(
                            &name,
                            "file",
                            format!(
                                "the same bytes as {}: its sessions are imported once",
                                inputs[i].file
                            ),
                        ));
                        super::file::drop_aside(bytes);
                        continue;
                    }
                    stamp(&mut p.events, path, d);
                }
                digests.push(digest);
                skipped.extend(p.skipped);
                noted.extend(p.notices);
                unescape_texts(&mut p.events);
                inputs.push(Input {
                    file: name,
                    events: p.events,
                    origins: p.origins,
                });
                formats.push(format);
            }
            Err(ps) => problems.extend(ps),
        }
        super::file::drop_aside(bytes);
    }
    if !problems.is_empty() {
        return Err(ImportError::Invalid(problems));
    }
    Ok(ReadFiles {
        inputs,
        formats,
        digests,
        skipped,
        noted,
    })
}

/// The texts of the declarations (names, places, players) read back from the notation frekans's
/// export writes for a character the format cannot hold (`\u{1b}`: `export::notes`), once,
/// whatever the reader.
fn unescape_texts(events: &mut [super::Ev]) {
    use crate::export::notes::read_text;
    fn text(v: &mut Value) {
        match v {
            Value::String(s) => {
                if let std::borrow::Cow::Owned(t) = read_text(s) {
                    *s = t;
                }
            }
            Value::Array(a) => a.iter_mut().for_each(text),
            // (a player as `{"name": …, "id": …}`)
            Value::Object(o) => {
                if let Some(n) = o.get_mut("name") {
                    text(n);
                }
            }
            _ => {}
        }
    }
    for e in events {
        let super::Ev::Json(Value::Object(m)) = e else {
            continue;
        };
        if !matches!(
            m.get("type").and_then(Value::as_str),
            Some("pair" | "team" | "championship" | "session")
        ) {
            continue;
        }
        for k in ["name", "place", "players"] {
            if let Some(v) = m.get_mut(k) {
                text(v);
            }
        }
    }
}

/// The log's errors on imported events, each at its place in its file (`first_line`: the log
/// line of the first imported event).
fn at_origins(errors: Vec<LogError>, first_line: usize, m: &Merged, log: &str) -> Vec<Problem> {
    let mut out: Vec<Problem> = errors
        .into_iter()
        .map(|e| {
            let what = match &e.field {
                Some(f) => format!("field \"{f}\": {}", e.message),
                None => e.message.clone(),
            };
            match e
                .line
                .checked_sub(first_line)
                .and_then(|i| m.origins.get(i))
            {
                Some((file, at)) => problem(&file, &at, what),
                None => problem(log, &format!("line {}", e.line), what),
            }
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A log checked as `frekans check` checks it: its notices, or its errors.
fn validate(all: &[u8]) -> Result<Vec<String>, Vec<LogError>> {
    notices(crate::replay::replay_streamed(
        all,
        crate::event::read::BATCH,
        None,
    ))
}

/// A new log this import has just sealed, checked as `frekans check` checks it but for its hash
/// chain, made here from these very lines (`replay::replay_sealed`; `tests/import.rs` checks
/// that every log import writes passes `check` whole).
fn validate_sealed(all: &[u8]) -> Result<Vec<String>, Vec<LogError>> {
    notices(crate::replay::replay_sealed(all, crate::event::read::BATCH))
}

fn notices(r: crate::replay::Streamed) -> Result<Vec<String>, Vec<LogError>> {
    let r = r.into_valid()?;
    let notices = r.state.notices.iter().map(|n| n.to_string()).collect();
    // (a million results' replayed state freed while the log is committed)
    super::file::drop_aside(r.state);
    Ok(notices)
}

/// `frekans import FILE... --out LOG`: a new log.
pub fn import_new(files: &[PathBuf], out: &Path, opts: &Options) -> Result<Imported, ImportError> {
    let out_name = out.display().to_string();
    if out.exists() {
        return Err(ImportError::Invalid(vec![problem(
            &out_name,
            "file",
            "already exists: import writes a new log and never replaces a file (add to a log with --append LOG)",
        )]));
    }
    let ReadFiles {
        inputs,
        formats,
        skipped,
        noted,
        ..
    } = tracing::info_span!("read").in_scope(|| read_all(files, opts))?;
    let mut merged = tracing::info_span!("merge")
        .in_scope(|| merge(inputs, &Existing::default()))
        .map_err(ImportError::Invalid)?;
    let _seal = tracing::info_span!("seal").entered();
    let sealed = |(i, f, m): (usize, &str, String)| {
        let (file, at) = merged.origins.get(i).expect("an origin per event");
        ImportError::Invalid(vec![problem(&file, &at, format!("field \"{f}\": {m}"))])
    };
    let events = merged.events.len();
    let notices = match NewLog::create(out) {
        // Sealed straight into the new log's temporary, then checked where it lies.
        Ok(mut new) => {
            match new.seal(&merged.events, &opts.now) {
                Ok(()) => {}
                Err(SealError::Event(i, f, m)) => return Err(sealed((i, f, m))),
                Err(SealError::Io(e)) => return Err(cannot_write(out, e)),
            }
            // The lines are written: the events themselves are not needed while the log is
            // checked.
            super::file::drop_aside(std::mem::take(&mut merged.events));
            drop(_seal);
            let notices = new
                .check(validate_sealed)
                .map_err(|e| cannot_write(out, e))?
                .map_err(|e| ImportError::Invalid(at_origins(e, 1, &merged, &out_name)))?;
            commit(new, out)?;
            notices
        }
        // No temporary beside it: the text is made in memory and checked, and the write
        // reports why it cannot be made (after any problem of the files).
        Err(_) => {
            let text = super::ev::seal_all(&merged.events, 0, None, &opts.now).map_err(sealed)?;
            merged.events = Vec::new();
            drop(_seal);
            let notices = validate_sealed(text.as_bytes())
                .map_err(|e| ImportError::Invalid(at_origins(e, 1, &merged, &out_name)))?;
            write_new(out, text.as_bytes())?;
            notices
        }
    };
    Ok(Imported {
        events,
        first_seq: 1,
        files: summary(&merged, &formats),
        new_participants: merged.new_participants,
        skipped,
        notices: with_noted(noted.into_iter().chain(merged.notices).collect(), notices),
    })
}

/// The readers' notices (each at its file and place) before the log's own.
fn with_noted(noted: Vec<Problem>, log: Vec<String>) -> Vec<String> {
    noted.iter().map(Problem::to_string).chain(log).collect()
}

fn summary(m: &Merged, formats: &[Format]) -> Vec<(String, Format, Vec<String>)> {
    m.sessions
        .iter()
        .zip(formats)
        .map(|((f, s), fmt)| {
            let mut s = s.clone();
            // (a hand record: the session its deals joined)
            for (_, session, n) in m.joined.iter().filter(|j| &j.0 == f) {
                s.push(format!(
                    "{session} ({n} deal{} of its hand record added)",
                    if *n == 1 { "" } else { "s" }
                ));
            }
            (f.clone(), *fmt, s)
        })
        .collect()
}

/// Writes `bytes` as the new file `out`: beside it first, synced, then linked into place (which
/// fails if `out` appeared meanwhile: nothing is replaced), the directory synced.
fn write_new(out: &Path, bytes: &[u8]) -> Result<(), ImportError> {
    let mut new = NewLog::create(out).map_err(|e| {
        ImportError::Io(crate::error::Failed::said(format!(
            "cannot write beside {}: {e:#}",
            out.display()
        )))
    })?;
    new.write_all(bytes).map_err(|e| cannot_write(out, e))?;
    commit(new, out)
}

fn cannot_write(out: &Path, e: std::io::Error) -> ImportError {
    ImportError::Io(crate::error::Failed::Io {
        what: format!("cannot write {}", out.display()),
        source: e,
    })
}

/// The new log linked into place as `out`.
fn commit(new: NewLog, out: &Path) -> Result<(), ImportError> {
    match new.commit(out) {
        Ok(()) => Ok(()),
        Err(CommitError::Exists) => Err(ImportError::Invalid(vec![problem(
            &out.display().to_string(),
            "file",
            "already exists: import writes a new log and never replaces a file",
        )])),
        Err(CommitError::Io(e)) => Err(cannot_write(out, e)),
    }
}

/// What a log already declares, read from its bytes (its own errors, if any, refuse it).
fn existing(bytes: &[u8]) -> Result<Existing, Vec<LogError>> {
    let r = crate::event::read_log(bytes);
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let mut e = Existing {
        nonempty: !r.events.is_empty(),
        live: super::bws::live::log_sessions(&r.events),
        ..Existing::default()
    };
    for env in r.events {
        match env.event {
            Event::Session(s) => {
                if let Some(d) = env.note.as_deref().and_then(digest_of) {
                    e.imported
                        .entry(d.to_string())
                        .or_default()
                        .push(s.id.clone());
                }
                e.boards
                    .insert(s.id.clone(), s.boards.iter().copied().collect());
                e.last_session = Some(s.id.clone());
                e.sessions.insert(s.id);
            }
            Event::Deal(d) => {
                e.deals.entry((d.session, d.board)).or_insert(d.pbn);
            }
            Event::Ruling(r) => {
                e.rulings.insert(r.id);
            }
            Event::Match(m) => {
                e.matches.insert(m.id);
            }
            Event::Pair(p) => {
                let mut m = Map::new();
                m.insert("type".into(), Value::from("pair"));
                m.insert("id".into(), Value::from(p.id.as_str()));
                if let Some(s) = p.section {
                    m.insert("section".into(), Value::from(s));
                }
                if !p.players.is_empty() {
                    m.insert(
                        "players".into(),
                        crate::event::players_value(&p.players, &p.player_ids),
                    );
                }
                e.participants.insert(p.id, m);
            }
            Event::Player(p) => {
                // (as the player's event writes it: `differs` compares the two)
                let mut m = Map::new();
                m.insert("type".into(), Value::from("player"));
                m.insert("id".into(), Value::from(p.id.as_str()));
                for (k, v) in [
                    ("section", p.section),
                    ("name", p.name),
                    ("member", p.member),
                ] {
                    if let Some(v) = v {
                        m.insert(k.into(), Value::from(v));
                    }
                }
                e.participants.insert(p.id, m);
            }
            Event::Team(t) => {
                let mut m = Map::new();
                m.insert("type".into(), Value::from("team"));
                m.insert("id".into(), Value::from(t.id.as_str()));
                if let Some(n) = t.name {
                    m.insert("name".into(), Value::from(n));
                }
                if !t.players.is_empty() {
                    m.insert(
                        "players".into(),
                        crate::event::players_value(&t.players, &t.player_ids),
                    );
                }
                e.participants.insert(t.id, m);
            }
            _ => {}
        }
    }
    Ok(e)
}

/// The inputs the log does not hold yet (`formats` kept beside them); each file whose digest a
/// session of the log already carries goes to `already`, with those sessions.
fn not_yet_imported(
    inputs: Vec<Input>,
    digests: &[Option<String>],
    formats: &mut Vec<Format>,
    ex: &Existing,
    already: &mut Vec<(String, Format, Vec<String>)>,
) -> Vec<Input> {
    let mut fresh = Vec::new();
    let mut fmts = Vec::new();
    for ((input, digest), fmt) in inputs.into_iter().zip(digests).zip(formats.iter()) {
        match digest.as_ref().and_then(|d| ex.imported.get(d)) {
            Some(ids) => already.push((input.file, *fmt, ids.clone())),
            None => {
                fresh.push(input);
                fmts.push(*fmt);
            }
        }
    }
    *formats = fmts;
    fresh
}

/// Each BWS the log took before reduced to what is new since, in its session (`live`: the file
/// and that session; `notes`: what the update noted); other inputs as they are.
fn up_to_date(
    inputs: Vec<Input>,
    ex: &Existing,
    live: &mut Vec<(String, String)>,
    notes: &mut Vec<Problem>,
) -> Result<Vec<Input>, Vec<Problem>> {
    let mut updated = Vec::new();
    for input in inputs {
        match super::bws::live::key(&input.events).and_then(|k| ex.live.get(&k)) {
            Some(ls) => {
                let (i, n) =
                    super::bws::live::update(input, ls, &|id| ex.participants.contains_key(id))?;
                live.push((i.file.clone(), ls.id().to_string()));
                notes.extend(n);
                updated.push(i);
            }
            None => updated.push(input),
        }
    }
    Ok(updated)
}

/// `frekans import FILE... --append LOG`: the files' sessions added to an existing log, all or
/// nothing, its pairs checked against the log's.
pub fn import_append(
    files: &[PathBuf],
    log: &Path,
    opts: &Options,
) -> Result<Imported, ImportError> {
    let log_name = log.display().to_string();
    if !log.is_file() {
        return Err(ImportError::Invalid(vec![problem(
            &log_name,
            "file",
            "no such log to append to (write a new one with --out)",
        )]));
    }
    let ReadFiles {
        inputs,
        mut formats,
        digests,
        skipped,
        noted,
    } = read_all(files, opts)?;
    // Files the log already holds (the same bytes imported before), with their sessions there.
    let mut already: Vec<(String, Format, Vec<String>)> = Vec::new();
    // Filled under the log's lock by `prepare`, read by the error mapping after.
    let mut refused: Option<Vec<Problem>> = None;
    let mut merged: Option<Merged> = None;
    let mut first_line = 0;
    // (file, the log's session) of each BWS brought up to date, and what the update noted
    let mut live: Vec<(String, String)> = Vec::new();
    let mut notes: Vec<Problem> = Vec::new();
    let r = append_events(
        &*opts.req.world,
        log,
        &opts.now,
        |bytes| {
            first_line = memchr::memchr_iter(b'\n', bytes).count() + 1;
            let ex = existing(bytes)
                .map_err(|errors| AppendError::Invalid(crate::error::InvalidLog { errors }))?;
            // A file imported before (its digest in a session's note): nothing from it again.
            let fresh = not_yet_imported(inputs, &digests, &mut formats, &ex, &mut already);
            // A BWS imported before: only what is new since, in its session.
            let updated = match up_to_date(fresh, &ex, &mut live, &mut notes) {
                Ok(u) => u,
                Err(p) => {
                    refused = Some(p);
                    return Err(AppendError::Invalid(crate::error::InvalidLog {
                        errors: Vec::new(),
                    }));
                }
            };
            match merge(updated, &ex) {
                Ok(m) => {
                    let events = m.events.iter().map(super::Ev::to_map).collect();
                    merged = Some(m);
                    Ok(events)
                }
                Err(p) => {
                    refused = Some(p);
                    Err(AppendError::Invalid(crate::error::InvalidLog {
                        errors: Vec::new(),
                    }))
                }
            }
        },
        validate,
    );
    match r {
        Ok((n, first_seq, notices)) => {
            let m = merged.expect("merged before the append");
            let mut files = summary(&m, &formats);
            for (file, _, sessions) in &mut files {
                if let Some((_, id)) = live.iter().find(|(f, _)| f == file) {
                    sessions.push(format!("{id} (brought up to date)"));
                }
            }
            for (file, fmt, ids) in already {
                let s = format!(
                    "{} (already in the log: the same file was imported before; nothing added)",
                    ids.join(", ")
                );
                files.push((file, fmt, vec![s]));
            }
            let mut skipped = skipped;
            skipped.extend(notes);
            Ok(Imported {
                events: n,
                first_seq,
                files,
                new_participants: m.new_participants,
                skipped,
                notices: with_noted(noted.into_iter().chain(m.notices).collect(), notices),
            })
        }
        Err(AppendError::Invalid(e)) => {
            if let Some(p) = refused {
                return Err(ImportError::Invalid(p));
            }
            let problems = match &merged {
                Some(m) => at_origins(e.errors, first_line, m, &log_name),
                None => e
                    .errors
                    .into_iter()
                    .map(|e| {
                        problem(
                            &log_name,
                            &format!("line {}", e.line),
                            format!("the log is invalid: {}", e.message),
                        )
                    })
                    .collect(),
            };
            Err(ImportError::Invalid(problems))
        }
        Err(AppendError::Io(e)) => Err(ImportError::Io(crate::error::Failed::Io {
            what: format!("cannot append to {log_name}"),
            source: e,
        })),
    }
}
