//! Reading the log: bytes → line-numbered `Envelope`s, with every error in the file.
//!
//! This stage checks each line on its own (JSON, types, fields, ranges, notation). Whether the
//! ids it names exist, whether a pair plays a board twice, and the like need the whole history
//! and are checked by `replay`.

mod chain;
mod declarations;
mod fast;
mod plays;

use chain::*;
use declarations::*;
pub use declarations::{check_pbn_deal, parse_boards};
use fast::*;
use plays::*;
pub use plays::{check_play, offset_text};

use serde_json::{Map, Value};

use super::fields::{describe, Fields};
use super::schema::*;
use crate::adjust::{parse_adjusted, Side, SubsequentDamage};
use crate::bridge::{parse_contract, parse_result_offset, parse_seat, Bid, Vul};
use crate::error::LogError;
use crate::num::Q;
use crate::options::{Compare, Options};
use crate::score::Form;

/// The largest board number accepted.
pub const MAX_BOARD: i64 = 9999;

/// The longest event line accepted. No event comes near it (a deal with notes is a few hundred
/// bytes); a longer line is refused before it is parsed, so memory stays bounded whatever the
/// input (a 1 GB line costs the file's bytes and nothing more).
pub const MAX_LINE: usize = 1 << 20;

/// Everything read from a log: the events that parsed, and the errors of the lines that did not.
#[derive(Debug, Default)]
pub struct ReadLog {
    pub events: Vec<Envelope>,
    pub errors: Vec<LogError>,
    /// Physical line count, for messages.
    pub lines: usize,
}

/// Read a whole log from its bytes into a `Vec` of events.
pub fn read_log(bytes: &[u8]) -> ReadLog {
    struct Collect(Vec<Envelope>);
    impl EventSink for Collect {
        fn start(&mut self, _declares_participants: bool, events: usize) {
            self.0 = Vec::with_capacity(events);
        }
        fn events(&mut self, events: &mut Vec<Envelope>) {
            self.0.append(events);
        }
    }
    let mut sink = Collect(Vec::new());
    let s = read_each(bytes, &mut sink);
    ReadLog {
        events: sink.0,
        errors: s.errors,
        lines: s.lines,
    }
}

/// Where [`read_each`] puts the events it reads, in log order.
pub trait EventSink: Send {
    /// Called before the first event, and again (forgetting every event given so far) should
    /// the reader have to start over in strict line order. `declares_participants`: whether
    /// any line that parses is a `pair` or `team` event (C2); `events`: how many event lines
    /// the log has (an upper bound on the events to come).
    fn start(&mut self, declares_participants: bool, events: usize);
    /// The next events, in log order. The sink may take them or only read them: what it
    /// leaves is dropped by the reader, off the sink's thread.
    fn events(&mut self, events: &mut Vec<Envelope>);
}

/// What [`read_each`] found besides the events.
#[derive(Debug, Default)]
pub struct ReadSummary {
    pub errors: Vec<LogError>,
    /// Physical line count, for messages.
    pub lines: usize,
    /// The hash written on the last event line, when every event line carries its hash and
    /// the chain holds (a log written by `frekans append` from its first event): then it is the
    /// log's head (crate::integrity), known without hashing the log again. `None` otherwise.
    pub head: Option<String>,
}

/// Lines parsed per parallel batch: big enough to keep every core busy, small enough that a
/// batch's events (a few hundred bytes each) cost little memory next to the replayed state.
pub const BATCH: usize = 16 * 1024;

/// Read a log from its bytes, handing each event to `sink` in log order, without holding all
/// of them at once (a streaming reader: `check` and `score` replay each batch as it comes).
///
/// One sequential pass splits the lines, checks UTF-8, numbers the events, follows the hash
/// chain, and parses in order the lines that may declare a session (later lines need their
/// forms) or a participant (the replay must know whether the log declares its pairs before
/// the first result); every other line is parsed in parallel (rayon) a batch at a time,
/// `result` lines by a typed fast path that accepts only what the full field-by-field reader
/// would accept, falling back to it otherwise.
pub fn read_each(bytes: &[u8], sink: &mut dyn EventSink) -> ReadSummary {
    read_each_batched(bytes, BATCH, Chain::Verify, sink)
}

/// Whether the reader follows the log's hash chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chain {
    /// Every link checked (any log read from disk).
    Verify,
    /// Not checked: the bytes are a new log this process has just sealed itself
    /// (`frekans import --out`), each link made from the very line it follows; the head is
    /// then not known ([`ReadSummary::head`] is `None`). Everything else is checked as ever.
    Sealed,
}

/// [`read_each`] with `batch` lines parsed per parallel batch (tests cross batch boundaries
/// with small batches; the result is the same for every batch size).
pub fn read_each_batched(
    bytes: &[u8],
    batch: usize,
    chain: Chain,
    sink: &mut dyn EventSink,
) -> ReadSummary {
    use rayon::prelude::*;
    let batch = batch.max(1);
    // A byte-order mark (some Windows editors write one) is not part of the first event.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut out = ReadSummary::default();
    let prescan = tracing::info_span!("prescan").entered();
    // Each physical line classified in parallel (UTF-8, length, blank or comment, whether it
    // is a result, may declare a session or a participant), then numbered in order.
    enum Kind<'a> {
        Error(Box<LogError>),
        Blank,
        /// The text, and whether it is a `result`, may declare a session, a participant.
        Event(&'a str, bool, bool, bool),
    }
    let raws: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    out.lines = raws.len();
    let kinds: Vec<Kind> = raws
        .par_iter()
        .enumerate()
        .map(|(i, raw)| {
            let line_no = i + 1;
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            if raw.len() > MAX_LINE {
                return Kind::Error(Box::new(LogError::new(
                    line_no,
                    None,
                    format!(
                        "the line is {} bytes long; an event line is at most {MAX_LINE} bytes (1 MiB)",
                        raw.len()
                    ),
                )));
            }
            match std::str::from_utf8(raw) {
                Err(e) => Kind::Error(Box::new(LogError::new(
                    line_no,
                    None,
                    format!(
                        "invalid UTF-8 at byte {} of the line; the log must be UTF-8",
                        e.valid_up_to() + 1
                    ),
                ))),
                Ok(text) => {
                    let t = text.trim();
                    if t.is_empty() || t.starts_with("//") {
                        Kind::Blank
                    } else {
                        let ty = line_type(t);
                        Kind::Event(
                            t,
                            ty == Some("result"),
                            may_declare_session(t, ty),
                            may_declare_participant(t, ty),
                        )
                    }
                }
            }
        })
        .collect();
    drop(raws);
    let mut seq = 0usize;
    // (line, seq, text) of every event line, and whether it may declare a session or a
    // participant.
    let mut lines: Vec<(u32, u32, &str)> = Vec::with_capacity(kinds.len());
    let mut flags: Vec<(bool, bool, bool)> = Vec::with_capacity(kinds.len());
    for (i, k) in kinds.into_iter().enumerate() {
        match k {
            Kind::Blank => {}
            Kind::Error(e) => {
                out.errors.push(*e);
                seq += 1;
            }
            Kind::Event(text, result, session, participant) => {
                seq += 1;
                lines.push(((i + 1) as u32, seq as u32, text));
                flags.push((result, session, participant));
            }
        }
    }
    if chain == Chain::Verify {
        let _s = tracing::info_span!("chain").entered();
        let (mut chain_errors, head) = verify_chain(&lines);
        out.head = head;
        if !chain_errors.is_empty() {
            out.errors.append(&mut chain_errors);
            out.errors.sort_by_key(|e| e.line);
        }
    }
    // Lines parsed in order in this pass: (index in `lines`, parse).
    let mut sessions: Vec<(String, Form)> = Vec::new();
    let mut session_lines: Vec<usize> = Vec::new();
    let mut early: Vec<(usize, Option<Result<Envelope, Vec<LogError>>>)> = Vec::new();
    let mut declares = false;
    for (i, &(line, sq, text)) in lines.iter().enumerate() {
        let (line, sq) = (line as usize, sq as usize);
        // Participant lines need parsing here only until one is found: after that the log
        // is known to declare its pairs, and the rest are parsed in parallel with the others.
        let (_, session, participant) = flags[i];
        if session || (!declares && participant) {
            let before = sessions.len();
            let r = parse_line(line, sq, text, &mut sessions);
            if sessions.len() > before {
                session_lines.push(line);
            }
            declares |= matches!(&r, Ok(e) if e.event.declares_participant());
            early.push((i, Some(r)));
        }
    }
    drop(prescan);
    let _batches = tracing::info_span!("batches").entered();
    sink.start(declares, lines.len());
    let early_idx: Vec<usize> = early.iter().map(|e| e.0).collect();
    let mut early: Vec<Option<Result<Envelope, Vec<LogError>>>> =
        early.into_iter().map(|e| e.1).collect();
    // (parse, whether the line declared a session) of a batch's lines; `None` for a line
    // parsed in the pass above.
    type Batch = Vec<Option<(Result<Envelope, Vec<LogError>>, bool)>>;
    let parse_batch = |start: usize| -> Batch {
        let end = (start + batch).min(lines.len());
        (start..end)
            .into_par_iter()
            .map(|i| {
                if early_idx.binary_search(&i).is_ok() {
                    return None;
                }
                let (line, sq, text) = lines[i];
                let (line, sq) = (line as usize, sq as usize);
                if flags[i].0 {
                    if let Some(env) = fast_result(line, sq, text) {
                        return Some((Ok(env), false));
                    }
                }
                // Only the sessions declared above this line are known to it.
                let known = session_lines.partition_point(|&l| l < line);
                let mut visible = sessions[..known].to_vec();
                let r = parse_line(line, sq, text, &mut visible);
                Some((r, visible.len() > known))
            })
            .collect()
    };
    let mut parse_errors: Vec<LogError> = Vec::new();
    let mut early_at = 0usize;
    // Hand a parsed batch to the sink in line order; `false` when a line of it declared a
    // session the text tests above let through (`may_declare_session` is meant never to).
    // Hand a parsed batch to the sink in line order, and give back what the sink left of it
    // (dropped on the other thread); `None` when a line of it declared a session the text
    // tests above let through (`may_declare_session` is meant never to).
    let mut emit = |parsed: Batch, sink: &mut dyn EventSink| -> Option<Vec<Envelope>> {
        if parsed.iter().flatten().any(|(_, declared)| *declared) {
            return None;
        }
        let mut events = Vec::with_capacity(parsed.len());
        for p in parsed {
            let r = match p {
                Some((r, _)) => r,
                None => {
                    early_at += 1;
                    early[early_at - 1].take().expect("an early parse a line")
                }
            };
            match r {
                Ok(env) => events.push(env),
                Err(mut errs) => parse_errors.append(&mut errs),
            }
        }
        sink.events(&mut events);
        Some(events)
    };
    // Pipelined: the next batch is parsed (in parallel), and the one before dropped, while
    // this one is replayed.
    let mut in_order = false;
    let mut pending: Option<Batch> = None;
    let mut spent: Option<Vec<Envelope>> = None;
    let mut next = 0usize;
    loop {
        let to_parse = (next < lines.len()).then_some(next);
        next += batch;
        let old = spent.take();
        let (parsed, emitted) = rayon::join(
            || {
                drop(old);
                to_parse.map(parse_batch)
            },
            || match pending.take() {
                None => Some(None),
                Some(p) => emit(p, &mut *sink).map(Some),
            },
        );
        let Some(emitted) = emitted else {
            in_order = true;
            break;
        };
        spent = emitted;
        if parsed.is_none() {
            break;
        }
        pending = parsed;
    }
    // (`emit`, a closure borrowing the sink, ends here)
    let _ = emit;
    if in_order {
        tracing::warn!("a session line was not recognised by its text; reading the log in order");
        sessions.clear();
        parse_errors.clear();
        let all: Vec<Result<Envelope, Vec<LogError>>> = lines
            .iter()
            .map(|&(line, sq, text)| parse_line(line as usize, sq as usize, text, &mut sessions))
            .collect();
        let declares = all
            .iter()
            .any(|r| matches!(r, Ok(e) if e.event.declares_participant()));
        sink.start(declares, lines.len());
        let mut events = Vec::with_capacity(all.len());
        for r in all {
            match r {
                Ok(env) => events.push(env),
                Err(mut errs) => parse_errors.append(&mut errs),
            }
        }
        sink.events(&mut events);
    }
    out.errors.append(&mut parse_errors);
    if bytes.last().is_some_and(|&b| b != b'\n') && out.lines > 0 {
        // A last line without its newline is fine when it parsed; a torn one has already
        // failed to parse and gets a hint.
        if let Some(e) = out.errors.last_mut() {
            if e.line == out.lines && e.field.is_none() && e.message.starts_with("invalid JSON") {
                e.message
                    .push_str(" (the last line has no newline: was the file cut off mid-write?)");
            }
        }
    }
    out
}

/// Parse chosen event lines of a log already read whole without errors, each exactly as
/// [`read_each`] would: `(line, seq, raw bytes of the line)` in log order (e.g. the
/// declarations and a few boards' lines of a log whose lines are known by their offsets). A line that does not parse, or is
/// not UTF-8, gives its errors: the bytes are not those the lines were chosen from.
pub fn parse_lines(lines: &[(usize, usize, &[u8])]) -> Result<Vec<Envelope>, Vec<LogError>> {
    use rayon::prelude::*;
    fn text(line: usize, raw: &[u8]) -> Result<&str, Vec<LogError>> {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        std::str::from_utf8(raw)
            .map(str::trim)
            .map_err(|_| vec![LogError::new(line, None, "invalid UTF-8".to_string())])
    }
    // Sessions first, in order: a line knows the forms of the sessions declared above it.
    let mut sessions: Vec<(String, Form)> = Vec::new();
    let mut session_lines: Vec<usize> = Vec::new();
    for &(line, seq, raw) in lines {
        let t = text(line, raw)?;
        if may_declare_session(t, line_type(t)) {
            let before = sessions.len();
            parse_line(line, seq, t, &mut sessions)?;
            if sessions.len() > before {
                session_lines.push(line);
            }
        }
    }
    let parsed: Vec<Result<Envelope, Vec<LogError>>> = lines
        .par_iter()
        .map(|&(line, seq, raw)| {
            let t = text(line, raw)?;
            if line_type(t) == Some("result") {
                if let Some(env) = fast_result(line, seq, t) {
                    return Ok(env);
                }
            }
            let known = session_lines.partition_point(|&l| l < line);
            let mut visible = sessions[..known].to_vec();
            parse_line(line, seq, t, &mut visible)
        })
        .collect();
    parsed.into_iter().collect()
}

fn parse_line(
    line: usize,
    seq: usize,
    text: &str,
    sessions: &mut Vec<(String, Form)>,
) -> Result<Envelope, Vec<LogError>> {
    let value: Value = super::json::parse(text).map_err(|e| {
        vec![LogError::new(
            line,
            None,
            format!("invalid JSON at column {}: {e}", e.column()),
        )]
    })?;
    let Value::Object(map) = value else {
        return Err(vec![LogError::new(
            line,
            None,
            format!(
                "expected a JSON object {{\"type\": ...}}, found {}",
                describe(&value)
            ),
        )]);
    };
    let mut f = Fields::new(line, &map);
    let ty = match f.req_str("type") {
        Some(t) => t,
        None => return Err(f.errors),
    };
    if let Some(v) = f.raw("seq") {
        match v.as_u64() {
            Some(s) if s as usize == seq => {}
            _ => f.error(
                "seq",
                format!(
                    "expected {seq} (this event's position among the log's event lines), found {}",
                    describe(v)
                ),
            ),
        }
    }
    let at = f.opt_str("at");
    if let Some(at) = &at {
        if !is_rfc3339(at) {
            f.error("at", format!("expected an RFC 3339 time such as \"2026-11-21T14:05:00+01:00\", found \"{at}\""));
        }
    }
    let by = f.opt_str("by");
    let note = f.opt_str("note");
    let event = match ty.as_str() {
        "championship" => Some(Event::Championship(Championship {
            name: f.opt_str("name"),
            date: f.opt_str("date"),
            place: f.opt_str("place"),
        })),
        "session" => session(&mut f, sessions),
        "pair" => pair(&mut f),
        "team" => team(&mut f),
        "match" => match_event(&mut f),
        "result" => result(&mut f),
        "ruling" => ruling(&mut f),
        "ruling_withdrawn" => f
            .req_id("ruling")
            .map(|ruling| Event::RulingWithdrawn { ruling }),
        "correction" => correction(&mut f),
        "penalty" => penalty(&mut f, sessions),
        "deal" => deal(&mut f),
        "fouled" => fouled(&mut f),
        other => {
            f.error(
                "type",
                format!(
                    "unknown event type \"{other}\" (expected championship, session, pair, team, match, result, ruling, ruling_withdrawn, correction, penalty, deal or fouled)"
                ),
            );
            return Err(f.errors);
        }
    };
    let errors = f.finish(&ty);
    match event {
        Some(event) if errors.is_empty() => Ok(Envelope {
            line,
            seq,
            at,
            by,
            note,
            event,
        }),
        _ => Err(errors),
    }
}

/// An RFC 3339 time (`2026-11-21T14:05:00+01:00`, `...Z`, with fractions of a second): read by
/// the `time` crate, which refuses what the calendar does not have (month 13, 30 February, hour
/// 24, offset +25:00) and takes a leap second (`23:59:60`) only where one can fall, at the end of
/// a UTC day.
pub fn is_rfc3339(s: &str) -> bool {
    time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).is_ok()
}

#[cfg(test)]
mod tests {

    #[test]
    fn rfc3339_by_the_calendar() {
        for ok in [
            "2026-11-21T14:05:00+01:00",
            "2016-12-31T23:59:60Z",
            "2024-02-29T00:00:00Z",
        ] {
            assert!(is_rfc3339(ok), "{ok}");
        }
        for bad in [
            "2026-13-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            "2026-11-21T24:00:00Z",
        ] {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }
    use super::*;

    /// The fast path for `result` lines accepts a line only as the full reader reads it: on a
    /// few thousand generated lines (plain ones, and every shape the scanner must refuse —
    /// escapes, `null`, floats, leading zeros, repeated or unknown keys, nesting, bad JSON),
    /// whatever the fast path gives equals what the full reader gives.
    #[test]
    fn fast_result_agrees_with_the_full_reader() {
        // The project's own generator (synth's SplitMix64), seeded for repeatable cases.
        let mut rng = crate::synth::Rng::new(2026);
        let mut rnd = |n: usize| rng.below(n as u32) as usize;
        let fields: &[&[&str]] = &[
            &[
                "\"session\":\"S1\"",
                "\"session\": \"S1\"",
                "\"session\":\"S\\u0031\"",
                "\"session\":\"\"",
                "\"session\":null",
            ],
            &[
                "\"board\":7",
                "\"board\": 07",
                "\"board\":7.0",
                "\"board\":-3",
                "\"board\":10000",
                "\"board\":\"7\"",
                "\"board\":99999999999999999999",
            ],
            &["\"ns\":\"A1\"", "\"ns\":\"Ż1\"", "\"ns\":\"A\\\"1\""],
            &["\"ew\":\"A2\"", "\"ew\":\"A1\"", "\"ew\":[\"A2\"]"],
            &[
                "",
                "\"section\":\"A\"",
                "\"section\":null",
                "\"section\":\" \"",
            ],
            &[
                "",
                "\"round\":1",
                "\"round\":0",
                "\"table\":3",
                "\"table\":1e2",
            ],
            &[
                "\"contract\":\"4S\"",
                "\"contract\":\"4s\"",
                "\"contract\":\"3NTX\"",
                "\"contract\":\"pass\"",
                "\"contract\":\"8S\"",
                "",
            ],
            &[
                "\"declarer\":\"N\"",
                "\"declarer\":\"w\"",
                "\"declarer\":\"Q\"",
                "",
            ],
            &[
                "\"result\":\"=\"",
                "\"result\":\"-2\"",
                "\"result\":\"+1\"",
                "\"tricks\":9",
                "\"tricks\":14",
                "\"score\":620",
                "\"score\":625",
                "\"score\":-0",
                "\"score\":-100",
                "",
            ],
            &[
                "",
                "\"lead\":\"H5\"",
                "\"at\":\"2026-11-21T10:14:00+01:00\"",
                "\"at\":\"yesterday\"",
                "\"by\":\"TD\"",
                "\"note\":\"ok\"",
                "\"seq\":1",
                "\"seq\":2",
                "\"x\":1",
                "\"board\":8",
                "\"match\":\"M1\"",
                "\"room\":\"open\"",
            ],
        ];
        let (mut fast, mut total) = (0, 0);
        for _ in 0..6000 {
            let mut parts: Vec<String> = vec!["\"type\":\"result\"".to_string()];
            for options in fields {
                // Mostly the plain form (the first), so that many lines are valid.
                let f = if rnd(4) > 0 {
                    options[0]
                } else {
                    options[rnd(options.len())]
                };
                if !f.is_empty() {
                    parts.push(f.to_string());
                }
            }
            // Shuffle the keys a little and vary the spacing and the ending.
            let k = rnd(parts.len());
            parts.swap(0, k);
            let sep = [",", ", ", " ,"][rnd(3)];
            let mut text = format!("{{{}}}", parts.join(sep));
            match rnd(12) {
                0 => text.push(' '),
                1 => text.push('}'),
                2 => text.insert(0, ' '),
                3 => {
                    text =
                        text.replace("\"type\":\"result\"", "\"type\":\"result\",\"n\":{\"a\":1}")
                }
                _ => {}
            }
            total += 1;
            let full = parse_line(3, 1, &text, &mut vec![("S1".to_string(), Form::Mp)]);
            if let Some(env) = fast_result(3, 1, &text) {
                fast += 1;
                let full = full.unwrap_or_else(|e| {
                    panic!("{text}: fast path accepted, full reader refused: {e:?}")
                });
                assert_eq!(format!("{env:?}"), format!("{full:?}"), "{text}");
            }
        }
        // The fast path is taken for the plain lines (not refusing everything).
        assert!(
            fast > total / 20,
            "{fast} of {total} lines took the fast path"
        );
    }
}
