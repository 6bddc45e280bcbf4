//! `frekans append`: validate one new event against the whole log and append it durably.
//!
//! The log is locked exclusively (so two directors appending at once never interleave or lose an
//! event), read whole, and the new event — with `seq`, `at` (if absent) and its `hash` link
//! filled in — is validated as the log's next line by the same reader and replay as `check`.
//! Only then is one complete line written, and the file and its directory synced before success
//! is reported. A refused event changes nothing.

use std::io::{Seek, SeekFrom};
use std::path::Path;

use serde_json::{Map, Value};

use super::chain;
use crate::error::{InvalidLog, LogError};
use crate::world::{Handle, Open, World};

/// What was appended.
#[derive(Clone, Debug, PartialEq)]
pub struct Appended {
    pub seq: usize,
    pub line: usize,
    pub text: String,
}

/// Why an append was refused or failed.
#[derive(Debug)]
pub enum AppendError {
    /// The event, or the log, is invalid (exit 2): nothing was written.
    Invalid(InvalidLog),
    Io(std::io::Error),
}

impl From<std::io::Error> for AppendError {
    fn from(e: std::io::Error) -> AppendError {
        AppendError::Io(e)
    }
}

/// Seconds since the epoch as RFC 3339 UTC (`time` formats it: `Z` for UTC, no fraction).
pub fn rfc3339(secs: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(secs)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| panic!("{secs} seconds since 1970 is not a time RFC 3339 can write"))
}

fn invalid(line: usize, field: Option<&str>, msg: impl Into<String>) -> AppendError {
    AppendError::Invalid(InvalidLog {
        errors: vec![LogError::new(line, field, msg)],
    })
}

/// Append `event` (one JSON object) to the log at `path`, with `at` defaulting to `now`; a log
/// longer than `max_log_bytes` is refused.
pub fn append(
    world: &dyn World,
    path: &Path,
    event: &str,
    now: &str,
    max_log_bytes: u64,
) -> Result<Appended, AppendError> {
    append_checked(world, path, event, now, max_log_bytes, |all| {
        crate::replay::replay_streamed(all, super::read::BATCH, None)
            .into_valid()
            .map(|_| ())
    })
    .map(|(a, ())| a)
}

/// [`append`], the whole log with the new line (its bytes) validated by `check`, which gives
/// what the caller keeps of it, or every error (then nothing is written).
pub fn append_checked<T>(
    world: &dyn World,
    path: &Path,
    event: &str,
    now: &str,
    max_log_bytes: u64,
    check: impl FnOnce(&[u8]) -> Result<T, Vec<LogError>>,
) -> Result<(Appended, T), AppendError> {
    let mut file = world.open_file(path, Open::APPEND)?;
    file.lock()?;
    let result = super::journal::recover(world, &mut file, path)
        .map_err(AppendError::from)
        .and_then(|_| append_locked(world, &mut file, path, event, now, max_log_bytes, check));
    let _ = file.unlock();
    let appended = result?;
    // The directory entry too, so the file's new size survives a power cut.
    // (a bare file name is in the working directory: `.` is synced then)
    let _ = world.sync_dir(&crate::outfile::parent_of(path));
    Ok(appended)
}

fn append_locked<T>(
    world: &dyn World,
    file: &mut Handle,
    path: &Path,
    event: &str,
    now: &str,
    max_log_bytes: u64,
    check: impl FnOnce(&[u8]) -> Result<T, Vec<LogError>>,
) -> Result<(Appended, T), AppendError> {
    file.seek(SeekFrom::Start(0))?;
    let size = file.len().unwrap_or(0);
    let bytes = crate::limits::read_bounded(
        &mut *file,
        size,
        max_log_bytes,
        "the log",
        " (FREKANS_MAX_LOG_MIB sets another limit, in MiB)",
    )?;
    let p = propose(&bytes, &[event], now, None).map_err(AppendError::Invalid)?;
    let (text, seq, new_line) = (p.text, p.first_seq, p.first_line);
    let text = text.strip_suffix('\n').unwrap_or(&text).to_string();
    // Validate the whole log with the new line, exactly as `check` would.
    let mut all = bytes;
    all.extend_from_slice(text.as_bytes());
    all.push(b'\n');
    let kept = check(&all).map_err(|errors| AppendError::Invalid(InvalidLog { errors }))?;
    let mut out = text.clone().into_bytes();
    out.push(b'\n');
    super::journal::append_batch(world, file, path, &out)?;
    Ok((
        Appended {
            seq,
            line: new_line,
            text,
        },
        kept,
    ))
}

/// Events as `append` would write them after a log of `bytes`, not written: what `append`
/// checks before it validates the whole log with them (the log's last line complete, each
/// event one JSON object, a `seq` given that is not the next), each sealed in turn
/// ([`seal_all`]: `seq`, `at` = `now` unless given, the hash chain). `append` appends one event
/// this way; an audit's what-if (`audit::whatif`) adds proposed events to a log in memory
/// with the same errors. `known`: the log's event count and newlines when the caller knows them
/// (the audit cache does: a million-line log is then not read through), else counted as
/// `append` counts them.
pub fn propose(
    bytes: &[u8],
    events: &[&str],
    now: &str,
    known: Option<(usize, usize)>,
) -> Result<Proposed, InvalidLog> {
    let err = |line: usize, field: Option<&str>, msg: String| InvalidLog {
        errors: vec![LogError::new(line, field, msg)],
    };
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        let line = bytes.split(|&b| b == b'\n').count();
        return Err(err(line, None, "the log's last line is incomplete (no newline: a torn write?); run `frekans repair` first".into()));
    }
    let lines = match known {
        Some((_, newlines)) => newlines,
        None => memchr::memchr_iter(b'\n', bytes).count(),
    };
    let mut objects = Vec::with_capacity(events.len());
    for (i, event) in events.iter().enumerate() {
        let new_line = lines + 1 + i;
        let value: Value = super::json::parse(event.trim()).map_err(|e| {
            err(
                new_line,
                None,
                format!("the new event is not valid JSON: {e}"),
            )
        })?;
        let Value::Object(obj) = value else {
            return Err(err(
                new_line,
                None,
                "the new event must be a JSON object {\"type\": ...}".into(),
            ));
        };
        objects.push(obj);
    }
    // Where the log stands: its next seq, and the last link of its chain.
    let before = known.map_or_else(|| count_events(bytes), |k| k.0);
    let text = seal_all(&objects, before, last_hash(bytes).as_deref(), now)
        .map_err(|(i, f, m)| err(lines + i + 1, Some(f), m))?;
    Ok(Proposed {
        text,
        first_seq: before + 1,
        first_line: lines + 1,
        objects,
    })
}

/// Events sealed by [`propose`].
#[derive(Clone, Debug)]
pub struct Proposed {
    /// Their lines, each ending in a newline, to follow the log's bytes.
    pub text: String,
    /// The first one's seq and line number in the log they would follow.
    pub first_seq: usize,
    pub first_line: usize,
    /// The events as given (before sealing).
    pub objects: Vec<Map<String, Value>>,
}

/// An event as `append` writes it (the log's one line writer, `event::line`): `type`, then `seq`, the fields given (any `hash` dropped),
/// `at` (`now` unless given) and `hash`, the link chaining it to `prev` (the last hash of the
/// log, `None` before the chain starts). The line's text (no newline) and its hash; a `seq`
/// given that is not `seq` is refused (the field and what was expected).
pub fn seal(
    obj: &Map<String, Value>,
    seq: usize,
    prev: Option<&str>,
    now: &str,
) -> Result<(String, String), (&'static str, String)> {
    let canonical = canonical_text(obj, seq, now)?;
    let hash = chain::link(prev.unwrap_or(chain::GENESIS), &canonical);
    let mut text = String::with_capacity(canonical.len() + 76);
    super::line::push_sealed(&mut text, &canonical, &hash);
    Ok((text, hash))
}

pub use super::line::{canonical as canonical_text, push_chained};

/// The lines of `events` sealed one after another (see [`seal`]) as the events after a log of
/// `before` events whose chain ends at `prev`: the text to write, each line ending in a newline.
/// The texts are made in parallel, then chained in order (a million events: SHA-256 of each,
/// nothing else).
pub fn seal_all(
    events: &[Map<String, Value>],
    before: usize,
    prev: Option<&str>,
    now: &str,
) -> Result<String, (usize, &'static str, String)> {
    use rayon::prelude::*;
    let mut out = String::new();
    let mut prev: Vec<u8> = prev.unwrap_or(chain::GENESIS).as_bytes().to_vec();
    // A batch at a time, so that only one batch's texts sit beside the lines written.
    for (b, batch) in events.chunks(crate::event::read::BATCH).enumerate() {
        let first = b * crate::event::read::BATCH;
        let texts: Vec<String> = batch
            .par_iter()
            .enumerate()
            .map(|(i, e)| {
                let i = first + i;
                canonical_text(e, before + i + 1, now).map_err(|(f, m)| (i, f, m))
            })
            .collect::<Result<_, _>>()?;
        push_chained(&mut out, &mut prev, &texts);
    }
    Ok(out)
}

/// Append several events at once, all or none, as [`append_checked`] appends one: under the
/// log's lock, `prepare` makes the events from the log's bytes as they stand (it may refuse,
/// then nothing is written), they are sealed (seq, `at` = `now` unless given, hash chain), the
/// whole log with them is validated by `check`, and only then are they written in one write,
/// the file and its directory synced. Returns how many events were appended and the first's
/// seq, with what `check` kept.
pub fn append_events<T>(
    world: &dyn World,
    path: &Path,
    now: &str,
    prepare: impl FnOnce(&[u8]) -> Result<Vec<Map<String, Value>>, AppendError>,
    check: impl FnOnce(&[u8]) -> Result<T, Vec<LogError>>,
) -> Result<(usize, usize, T), AppendError> {
    use std::io::Read as _;
    let mut file = world.open_file(path, Open::APPEND)?;
    file.lock()?;
    let result = (|| {
        // (an earlier append cut short: its batch removed whole, or kept whole)
        super::journal::recover(world, &mut file, path)?;
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(0))?;
        file.read_to_end(&mut bytes)?;
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            let line = bytes.split(|&b| b == b'\n').count();
            return Err(invalid(line, None, "the log's last line is incomplete (no newline: a torn write?); run `frekans repair` first"));
        }
        let events = prepare(&bytes)?;
        let lines = memchr::memchr_iter(b'\n', &bytes).count();
        let before = count_events(&bytes);
        let text = seal_all(&events, before, last_hash(&bytes).as_deref(), now)
            .map_err(|(i, f, m)| invalid(lines + i + 1, Some(f), m))?;
        let mut all = bytes;
        all.extend_from_slice(text.as_bytes());
        let kept = check(&all).map_err(|errors| AppendError::Invalid(InvalidLog { errors }))?;
        // One transaction: every event or none (`journal`).
        super::journal::append_batch(world, &mut file, path, text.as_bytes())?;
        Ok((events.len(), before + 1, kept))
    })();
    let _ = file.unlock();
    let appended = result?;
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        let _ = world.sync_dir(dir);
    }
    Ok(appended)
}

/// Event lines in the log (not blank, not `//`).
fn count_events(bytes: &[u8]) -> usize {
    // (a byte-order mark is not part of the first line, as the reader sees it)
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut start = 0;
    let mut n = 0;
    for end in memchr::memchr_iter(b'\n', bytes).chain([bytes.len()]) {
        let l = &bytes[start..end];
        start = end + 1;
        // (ASCII lines, nearly all, without a copy; others trimmed as the reader trims them:
        // `str::trim`, which also takes a vertical tab for white space)
        let event = if l.is_ascii() && !l.contains(&0x0B) {
            let t = l.trim_ascii();
            !t.is_empty() && !t.starts_with(b"//")
        } else {
            let t = String::from_utf8_lossy(l);
            let t = t.trim();
            !t.is_empty() && !t.starts_with("//")
        };
        n += usize::from(event);
    }
    n
}

/// The hash of the last hashed event, if the chain has started.
fn last_hash(bytes: &[u8]) -> Option<String> {
    // Once the chain has started every event line is a link (docs/integrity.md): in a valid
    // log the last event line has the last hash, or the chain has not started. Read off that
    // line (a million-line log is not scanned); a last line that is not a JSON object (a log
    // `append` refuses anyway) is looked for the long way.
    let last = bytes.split(|&b| b == b'\n').rev().find(|l| {
        let t = String::from_utf8_lossy(l);
        let t = t.trim();
        !t.is_empty() && !t.starts_with("//")
    })?;
    match super::json::parse_slice(last) {
        Ok(Value::Object(m)) => m.get("hash").and_then(|h| h.as_str()).map(str::to_string),
        _ => last_hash_scan(bytes),
    }
}

/// [`last_hash`] by looking at every line from the end.
fn last_hash_scan(bytes: &[u8]) -> Option<String> {
    // A log frekans never appended to (a million hand-written or synthetic lines) has no hash
    // to find: it is not parsed line by line from the end. (A key written with `\u` escapes is
    // looked for the slow way.)
    if memchr::memmem::find(bytes, b"\"hash\"").is_none()
        && memchr::memmem::find(bytes, b"\\u").is_none()
    {
        return None;
    }
    bytes.split(|&b| b == b'\n').rev().find_map(|l| {
        let v: Value = super::json::parse_slice(l).ok()?;
        v.get("hash")?.as_str().map(str::to_string)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sealed line is the event as serde writes it (`type`, `seq`, its fields in order,
    /// `at`, then `hash`), its hash the link of that text without `hash`; `seal_all` chains
    /// the same lines `seal` makes one at a time.
    #[test]
    fn sealed_lines_are_what_serde_writes() {
        let events: Vec<Map<String, Value>> = [
            r#"{"type":"result","session":"S1","board":7,"ns":"A1","ew":"A2","contract":"4S","declarer":"N","result":"="}"#,
            r#"{"board":3,"type":"ruling","id":"R1","note":"Żółć \"q\" \u001b[2K\n","score":"60% 4H= & 40% 4H-1","at":"2026-01-02T03:04:05Z","hash":"ab"}"#,
            r#"{"type":"pair","id":"P1","players":["A","B"],"x":{"y":[1,2.5,null,true]},"seq":3}"#,
            r#"{"id":"X"}"#,
        ]
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
        let now = "2026-11-25T00:00:00Z";
        let mut prev: Option<String> = Some("ab".repeat(32));
        let mut lines = String::new();
        for (i, e) in events.iter().enumerate() {
            let seq = i + 1;
            // The event rebuilt as a map and serialized whole, as `seal` once did.
            let mut m = Map::new();
            if let Some(t) = e.get("type") {
                m.insert("type".into(), t.clone());
            }
            m.insert("seq".into(), Value::from(seq));
            for (k, v) in e.iter().filter(|(k, _)| *k != "type" && *k != "hash") {
                m.insert(k.clone(), v.clone());
            }
            m.entry("at").or_insert(Value::from(now));
            let canonical = serde_json::to_string(&Value::Object(m.clone())).unwrap();
            let hash = chain::link(prev.as_deref().unwrap(), &canonical);
            m.insert("hash".into(), Value::from(hash.as_str()));
            let (text, h) = seal(e, seq, prev.as_deref(), now).unwrap();
            assert_eq!(text, serde_json::to_string(&Value::Object(m)).unwrap());
            assert_eq!(h, hash);
            lines.push_str(&text);
            lines.push('\n');
            prev = Some(h);
        }
        assert_eq!(
            seal_all(&events, 0, Some(&"ab".repeat(32)), now).unwrap(),
            lines
        );
        // The third event says `seq` 3: at 5 it is refused, by both.
        assert_eq!(seal(&events[2], 5, None, now).unwrap_err().0, "seq");
        assert_eq!(seal_all(&events, 2, None, now).unwrap_err().0, 2);
    }

    /// The events counted as the reader counts them (`str::trim`): blank and `//` lines are not.
    #[test]
    fn counts_events_as_the_reader_does() {
        let slow = |bytes: &[u8]| {
            bytes
                .split(|&b| b == b'\n')
                .filter(|l| {
                    let t = String::from_utf8_lossy(l);
                    let t = t.trim();
                    !t.is_empty() && !t.starts_with("//")
                })
                .count()
        };
        for text in [
            "",
            "\n",
            "{}",
            "{}\n",
            "{}\n\n  \t\r\n// c\n  // c\n{}",
            "\u{0B}\n\u{0C}\n\u{a0}\n\u{2003}// x\n\u{a0}{}\n{}\r\n",
            "\u{85}\n\u{feff}\n",
        ] {
            assert_eq!(
                count_events(text.as_bytes()),
                slow(text.as_bytes()),
                "{text:?}"
            );
        }
        let invalid: &[u8] = b"\xff\n  \xfe  \n{}";
        assert_eq!(count_events(invalid), slow(invalid));
    }

    /// A sealed line is the event with seq, at and hash as serde writes the whole object, and
    /// its hash links the canonical text (chain::canonical) to the previous one.
    #[test]
    fn sealed_lines_are_canonical() {
        let e: Value =
            serde_json::json!({"type":"pair","id":"Ż1","players":["A \"B\""],"hash":"x"});
        let (text, hash) = seal(
            e.as_object().unwrap(),
            3,
            Some("ab"),
            "2026-01-01T00:00:00Z",
        )
        .unwrap();
        let back: Value = serde_json::from_str(&text).unwrap();
        let m = back.as_object().unwrap();
        assert_eq!(text, serde_json::to_string(&back).unwrap());
        assert_eq!(m["seq"], 3);
        assert_eq!(m["hash"], hash.as_str());
        assert_eq!(hash, chain::link("ab", &chain::canonical(m)));
        let keys: Vec<_> = m.keys().map(String::as_str).collect();
        assert_eq!(keys, ["type", "seq", "id", "players", "at", "hash"]);
    }

    /// The last hash read off the last event line is the one found by looking at every line,
    /// for logs whose chain starts at once, later, or not at all, with blank and `//` lines
    /// after the last event and a key written with escapes.
    #[test]
    fn last_hash_is_the_last_links() {
        let obj = |s: &str| -> Map<String, Value> { serde_json::from_str(s).unwrap() };
        let plain = "{\"type\":\"championship\"}\n{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\",\"boards\":[1]}\n";
        let events = [
            obj(r#"{"type":"pair","id":"1"}"#),
            obj(r#"{"type":"pair","id":"2"}"#),
        ];
        let sealed = seal_all(&events, 2, None, "2026-01-01T00:00:00Z").unwrap();
        let escaped = "{\"type\":\"pair\",\"id\":\"3\",\"h\\u0061sh\":\"abc\"}\n";
        for log in [
            String::new(),
            plain.to_string(),
            format!("{plain}{sealed}"),
            format!("{plain}{sealed}\n  \n// a comment\n"),
            format!("{plain}{escaped}"),
            format!("{plain}{{not json\n"),
        ] {
            assert_eq!(
                last_hash(log.as_bytes()),
                last_hash_scan(log.as_bytes()),
                "{log}"
            );
        }
        let (_, h) = seal(&events[1], 4, last_hash(plain.as_bytes()).as_deref(), "x").unwrap();
        assert!(!h.is_empty());
        let chained = format!("{plain}{sealed}");
        assert_eq!(
            last_hash(chained.as_bytes()).as_deref(),
            serde_json::from_str::<Value>(sealed.lines().last().unwrap()).unwrap()["hash"].as_str()
        );
    }

    #[test]
    fn formats_times() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_795_318_349), "2026-11-22T03:32:29Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }
}
