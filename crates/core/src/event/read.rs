//! Reading the log: bytes → line-numbered `Envelope`s, with every error in the file.
//!
//! This stage checks each line on its own (JSON, types, fields, ranges, notation). Whether the
//! ids it names exist, whether a pair plays a board twice, and the like need the whole history
//! and are checked by `replay`.

mod batches;
mod chain;
mod declarations;
mod fast;
mod plays;
mod scan;

pub use batches::{read_each_with, ReadOptions};
use chain::*;
use declarations::*;
pub use declarations::{check_pbn_deal, parse_boards, BadDeal};
pub use fast::ResultRef;
use fast::*;
use plays::*;
pub use plays::{check_play, offset_text, SEATS};

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
    /// The next events as the reader has them, in log order: plain results still borrowing
    /// from the log's bytes ([`Item::Result`]). By default each is made an [`Envelope`] and
    /// given to [`EventSink::events`]; a sink that can use the borrowed form takes it as it is.
    fn items(&mut self, items: &mut Vec<Item<'_>>) {
        let mut events: Vec<Envelope> = items.drain(..).map(Item::into_envelope).collect();
        self.events(&mut events);
    }
}

/// An event as the reader hands it on: parsed into an [`Envelope`], or a plain `result` line
/// read by the fast path, its strings borrowed from the line ([`ResultRef`]).
#[derive(Debug)]
// The borrowed result is the common item, kept inline; the rarer event is boxed (it is bigger
// still, and items are moved in bulk).
#[allow(clippy::large_enum_variant)]
pub enum Item<'a> {
    Event(Box<Envelope>),
    Result(ResultRef<'a>),
}

impl Item<'_> {
    /// The event as an [`Envelope`] (what the full reader makes of the line).
    pub fn into_envelope(self) -> Envelope {
        match self {
            Item::Event(e) => *e,
            Item::Result(r) => r.to_envelope(),
        }
    }
}

/// What [`read_each`] found besides the events.
#[derive(Debug, Default)]
pub struct ReadSummary {
    pub errors: Vec<LogError>,
    /// Physical line count, for messages.
    pub lines: usize,
    /// The log's head (crate::integrity) when the reader knows it: the hash written on the last
    /// event line, when every event line carries its hash and the chain holds (a log written by
    /// `frekans append` from its first event: known without hashing the log again), else the
    /// head walked over the lines when [`ReadOptions::head`] asked for it (meaningful for a
    /// log without errors). `None` otherwise.
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
    read_each_with(bytes, &ReadOptions::new(batch, chain), sink)
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
        "player" => player_event(&mut f),
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
                    "unknown event type \"{other}\" (expected championship, session, pair, team, player, match, result, ruling, ruling_withdrawn, correction, penalty, deal or fouled)"
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

    /// The fields of the generated `result` lines: each one's plain form first, then the shapes
    /// the fast path must read as the full reader does, or refuse.
    const RESULT_FIELDS: &[&[&str]] = &[
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

    /// The fast path for `result` lines accepts a line only as the full reader reads it: on a
    /// few thousand generated lines (plain ones, and every shape the scanner must refuse —
    /// escapes, `null`, floats, leading zeros, repeated or unknown keys, nesting, bad JSON),
    /// whatever the fast path gives equals what the full reader gives.
    #[test]
    fn fast_result_agrees_with_the_full_reader() {
        // The project's own generator (synth's SplitMix64), seeded for repeatable cases.
        let mut rng = crate::synth::Rng::new(2026);
        let mut rnd = |n: usize| rng.below(n as u32) as usize;
        let (mut fast, mut total) = (0, 0);
        for _ in 0..6000 {
            let mut parts: Vec<String> = vec!["\"type\":\"result\"".to_string()];
            for options in RESULT_FIELDS {
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
