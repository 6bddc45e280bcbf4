//! Reading the log: bytes → line-numbered `Envelope`s, with every error in the file.
//!
//! This stage checks each line on its own (JSON, types, fields, ranges, notation). Whether the
//! ids it names exist, whether a pair plays a board twice, and the like need the whole history
//! and are checked by `replay`.

use serde_json::{Map, Value};

use super::fields::{describe, Fields};
use super::schema::*;
use crate::adjust::{parse_adjusted, Side, SubsequentDamage};
use crate::bridge::{parse_contract, parse_result_offset, parse_seat, Bid, Vul};
use crate::error::LogError;
use crate::num::Q;
use crate::options::{Compare, Form, Options};

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
    read_each_batched(bytes, BATCH, sink)
}

/// [`read_each`] with `batch` lines parsed per parallel batch (tests cross batch boundaries
/// with small batches; the result is the same for every batch size).
pub fn read_each_batched(bytes: &[u8], batch: usize, sink: &mut dyn EventSink) -> ReadSummary {
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
    {
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
/// [`read_each`] would: `(line, seq, raw bytes of the line)` in log order (the audit cache hands
/// over the declarations and a few boards' lines this way). A line that does not parse, or is
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

/// Whether a line may be a `pair` or `team` event, judged on its text so that it can be parsed
/// in the sequential pass. Sound: such a line names `"pair"` or `"team"` literally unless it
/// writes them with escapes (a backslash).
fn may_declare_participant(text: &str, ty: Option<&str>) -> bool {
    ty != Some("result")
        && (text.contains('\\') || text.contains("\"pair\"") || text.contains("\"team\""))
}

/// Verify the hash chain (chain.rs) over the event lines, in order: report the first break
/// only (every later link would fail too), following the chain as written so that one
/// alteration is one error. Before the chain starts only a line naming `hash` can start it (a
/// key written with escapes, `"h\u0061sh"`, names it too, so such lines are parsed); once it
/// has started every line is a link, and links are parsed and hashed in parallel a batch at a
/// time, each against the hash written on the link before it.
///
/// Also gives the last link when the chain starts at the first event line and holds to the
/// end: the log's head ([`ReadSummary::head`]).
fn verify_chain<'a>(lines: &[(u32, u32, &'a str)]) -> (Vec<LogError>, Option<String>) {
    use super::chain::{canonical, link_parts, GENESIS};
    use rayon::prelude::*;
    /// A canonical text: two pieces of a flat line (hashed where they lie), or made.
    enum Canon<'a> {
        Parts([&'a str; 2]),
        Made(String),
    }
    enum Link<'a> {
        /// Not a JSON object: the reader reports the line.
        Skip,
        NoHash,
        Hash {
            hash: std::borrow::Cow<'a, str>,
            canonical: Canon<'a>,
        },
        NotText(String),
    }
    let linked = |prev: &str, hash: &str, c: &Canon| -> bool {
        let parts = match c {
            Canon::Parts([a, b]) => [a.as_bytes(), b.as_bytes()],
            Canon::Made(m) => [m.as_bytes(), b""],
        };
        link_parts(prev.as_bytes(), parts).as_slice() == hash.as_bytes()
    };
    let info = |text: &'a str| -> Link<'a> {
        // What `frekans append` writes is read straight off the line; the rest is parsed.
        if let Some((hash, parts)) = super::chain::flat_parts(text) {
            return match hash {
                None => Link::NoHash,
                Some(h) => Link::Hash {
                    hash: h.into(),
                    canonical: Canon::Parts(parts),
                },
            };
        }
        let Ok(Value::Object(map)) = super::json::parse(text) else {
            return Link::Skip;
        };
        match map.get("hash") {
            None => Link::NoHash,
            Some(Value::String(h)) => Link::Hash {
                hash: h.clone().into(),
                canonical: Canon::Made(canonical(&map)),
            },
            Some(other) => Link::NotText(describe(other)),
        }
    };
    let mut errors = Vec::new();
    let mut broken = false;
    let mut walk = |line: u32,
                    l: &Link<'a>,
                    ok: bool,
                    chain: &mut Option<std::borrow::Cow<'a, str>>| {
        let line = line as usize;
        match l {
            Link::Skip => {}
            Link::NoHash => {
                if chain.is_some() && !broken {
                    errors.push(LogError::new(line, Some("hash"), "missing: the log's hash chain started earlier, so every later event must carry its hash; this line was inserted or its hash removed"));
                    broken = true;
                }
            }
            Link::Hash { hash, .. } => {
                if !ok && !broken {
                    errors.push(LogError::new(
                        line,
                        Some("hash"),
                        "the hash chain breaks here: this line was altered, or a line before it was removed or inserted (frekans append writes the chain; see docs/integrity.md)",
                    ));
                    broken = true;
                }
                *chain = Some(hash.clone());
            }
            Link::NotText(found) => {
                errors.push(LogError::new(
                    line,
                    Some("hash"),
                    format!("expected a 64-digit hex SHA-256, found {found}"),
                ));
                broken = true;
            }
        }
    };
    // The last link, once the chain has started.
    let mut chain: Option<std::borrow::Cow<'a, str>> = None;
    let mut i = 0;
    let mut from_first = false;
    while i < lines.len() && chain.is_none() {
        let (line, _, text) = lines[i];
        i += 1;
        if !text.contains("\"hash\"") && !text.contains('\\') {
            continue;
        }
        let l = info(text);
        let ok = match &l {
            Link::Hash { hash, canonical } => linked(GENESIS, hash, canonical),
            _ => true,
        };
        walk(line, &l, ok, &mut chain);
        from_first = i == 1 && chain.is_some();
    }
    while i < lines.len() {
        let end = (i + BATCH).min(lines.len());
        let links: Vec<Link> = lines[i..end].par_iter().map(|&(_, _, t)| info(t)).collect();
        // Each link's previous hash: the last one written before it (in this batch, or the
        // chain carried over from the batches before).
        let mut prev: Vec<Option<usize>> = Vec::with_capacity(links.len());
        let mut last: Option<usize> = None;
        for (j, l) in links.iter().enumerate() {
            prev.push(last);
            if matches!(l, Link::Hash { .. }) {
                last = Some(j);
            }
        }
        let carried = chain.clone().unwrap_or(GENESIS.into());
        let ok: Vec<bool> = (0..links.len())
            .into_par_iter()
            .map(|j| match &links[j] {
                Link::Hash { hash, canonical } => {
                    let p = match prev[j] {
                        Some(k) => match &links[k] {
                            Link::Hash { hash, .. } => hash.as_ref(),
                            _ => unreachable!("prev points at a hashed link"),
                        },
                        None => carried.as_ref(),
                    };
                    linked(p, hash, canonical)
                }
                _ => true,
            })
            .collect();
        for (j, l) in links.iter().enumerate() {
            walk(lines[i + j].0, l, ok[j], &mut chain);
        }
        i = end;
    }
    let head = (from_first && errors.is_empty())
        .then_some(chain)
        .flatten()
        .map(std::borrow::Cow::into_owned);
    (errors, head)
}

/// Whether a line may be a `session` event, judged on its text so that it can be parsed in the
/// sequential pass (later lines need the sessions above them). Sound, never missing one: a
/// session line names `"session"` and `"form"` literally unless it writes them with escapes
/// (a backslash); a line whose first `"type"` key says `result` or `penalty` is one (another
/// `type` key, escaped or not, is a duplicate key, refused by [`super::json::parse`]).
fn may_declare_session(text: &str, ty: Option<&str>) -> bool {
    ty == Some("session")
        || (ty != Some("result")
            && ty != Some("penalty")
            && (text.contains('\\') || (text.contains("\"session\"") && text.contains("\"form\""))))
}

/// The value after a line's first `"type"` key, as written (no escapes), judged on the text
/// (`"type":"result"` with or without spaces), for choosing a path; the parser decides.
fn line_type(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    // Nearly every line starts with it: a byte scan finds it at once (`str::find` would build
    // a substring searcher for every line).
    let i = (0..b.len().saturating_sub(5)).find(|&i| &b[i..i + 6] == b"\"type\"")?;
    let rest = text[i + 6..].trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find(['"', '\\'])?;
    (rest.as_bytes()[end] == b'"').then(|| &rest[..end])
}

/// The fields of a `result` line, as slices of the line: a hand-written scanner for the plain
/// shape every result line has (one flat object; strings without escapes; integers), about
/// three times faster than a general JSON parser and allocation-free. Anything else — an
/// escape, `null`, a float, a nested value, an unknown or repeated key, malformed JSON — gives
/// `None`, and the line goes to the full reader, which accepts or explains it.
#[derive(Default)]
struct ResultFields<'a> {
    ty: &'a str,
    seq: Option<u64>,
    at: Option<&'a str>,
    by: Option<&'a str>,
    note: Option<&'a str>,
    hash: Option<&'a str>,
    session: &'a str,
    section: Option<&'a str>,
    board: i64,
    round: Option<i64>,
    table: Option<i64>,
    ns: &'a str,
    ew: &'a str,
    contract: Option<&'a str>,
    declarer: Option<&'a str>,
    tricks: Option<i64>,
    result: Option<&'a str>,
    score: Option<i64>,
    lead: Option<&'a str>,
    match_id: Option<&'a str>,
    room: Option<&'a str>,
}

impl<'a> ResultFields<'a> {
    fn scan(text: &'a str) -> Option<ResultFields<'a>> {
        let b = text.as_bytes();
        let mut i = 0usize;
        let ws = |i: &mut usize| {
            while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'\n' | b'\r') {
                *i += 1;
            }
        };
        use super::json::plain;
        let string = |i: &mut usize| -> Option<&'a str> {
            let end = plain::string_end(b, *i)?;
            let s = &text[*i + 1..end - 1];
            *i = end;
            Some(s)
        };
        let int = |i: &mut usize| -> Option<i64> {
            let end = plain::int_end(b, *i)?;
            let n = text[*i..end].parse().ok();
            *i = end;
            n
        };
        let mut r = ResultFields::default();
        // Each key once: a repeated key is refused by the full reader (json.rs).
        let mut seen = 0u32;
        ws(&mut i);
        if b.get(i) != Some(&b'{') {
            return None;
        }
        i += 1;
        loop {
            ws(&mut i);
            let key = string(&mut i)?;
            ws(&mut i);
            if b.get(i) != Some(&b':') {
                return None;
            }
            i += 1;
            ws(&mut i);
            let bit = |k: u32, seen: &mut u32| -> Option<()> {
                if *seen & (1 << k) != 0 {
                    return None;
                }
                *seen |= 1 << k;
                Some(())
            };
            // Each key once: `bit` refuses a key seen before.
            macro_rules! set {
                ($k:expr, $($assign:tt)*) => {{
                    bit($k, &mut seen)?;
                    $($assign)*;
                }};
            }
            match key {
                "type" => set!(0, r.ty = string(&mut i)?),
                "seq" => set!(1, r.seq = Some(u64::try_from(int(&mut i)?).ok()?)),
                "at" => set!(2, r.at = Some(string(&mut i)?)),
                "by" => set!(3, r.by = Some(string(&mut i)?)),
                "note" => set!(4, r.note = Some(string(&mut i)?)),
                "hash" => set!(5, r.hash = Some(string(&mut i)?)),
                "session" => set!(6, r.session = string(&mut i)?),
                "section" => set!(7, r.section = Some(string(&mut i)?)),
                "board" => set!(8, r.board = int(&mut i)?),
                "round" => set!(9, r.round = Some(int(&mut i)?)),
                "table" => set!(10, r.table = Some(int(&mut i)?)),
                "ns" => set!(11, r.ns = string(&mut i)?),
                "ew" => set!(12, r.ew = string(&mut i)?),
                "contract" => set!(13, r.contract = Some(string(&mut i)?)),
                "declarer" => set!(14, r.declarer = Some(string(&mut i)?)),
                "tricks" => set!(15, r.tricks = Some(int(&mut i)?)),
                "result" => set!(16, r.result = Some(string(&mut i)?)),
                "score" => set!(17, r.score = Some(int(&mut i)?)),
                "lead" => set!(18, r.lead = Some(string(&mut i)?)),
                "match" => set!(19, r.match_id = Some(string(&mut i)?)),
                "room" => set!(20, r.room = Some(string(&mut i)?)),
                _ => return None,
            }
            ws(&mut i);
            match b.get(i) {
                Some(b',') => i += 1,
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
        ws(&mut i);
        // type, session, board, ns and ew are required.
        const REQUIRED: u32 = 1 | 1 << 6 | 1 << 8 | 1 << 11 | 1 << 12;
        (i == b.len() && seen & REQUIRED == REQUIRED).then_some(r)
    }
}

fn fast_result(line: usize, seq: usize, text: &str) -> Option<Envelope> {
    let r = ResultFields::scan(text)?;
    let id_ok = |s: &str| !s.trim().is_empty();
    if r.ty != "result"
        || r.seq.is_some_and(|s| s as usize != seq)
        || r.at.is_some_and(|a| !is_rfc3339(a))
        || !id_ok(r.session)
        || !id_ok(r.ns)
        || !id_ok(r.ew)
        || r.ns == r.ew
        || r.section.is_some_and(|s| !id_ok(s))
        || r.match_id.is_some_and(|s| !id_ok(s))
        || !(1..=MAX_BOARD).contains(&r.board)
        || r.round.is_some_and(|x| !(1..=9999).contains(&x))
        || r.table.is_some_and(|x| !(1..=99_999).contains(&x))
        || r.tricks.is_some_and(|x| !(0..=13).contains(&x))
        || r.score
            .is_some_and(|x| !(-10_000..=10_000).contains(&x) || x % 10 != 0)
    {
        return None;
    }
    let room = match r.room {
        None => None,
        Some("open") => Some(Room::Open),
        Some("closed") => Some(Room::Closed),
        Some(_) => return None,
    };
    let contract = match r.contract {
        Some(c) => Some(parse_contract(c).ok()?),
        None => None,
    };
    let declarer = match r.declarer {
        Some(d) => Some(parse_seat(d).ok()?),
        None => None,
    };
    let result = match r.result {
        Some(x) => Some(parse_result_offset(x).ok()?),
        None => None,
    };
    let play = Play {
        contract,
        declarer,
        tricks: r.tricks.map(|t| t as u8),
        result,
        score: r.score.map(|s| s as i32),
        lead: r.lead.map(str::to_string),
    };
    if !check_play(&play).is_empty() {
        return None;
    }
    let _ = r.hash;
    Some(Envelope {
        line,
        seq,
        at: r.at.map(str::to_string),
        by: r.by.map(str::to_string),
        note: r.note.map(str::to_string),
        event: Event::Result(ResultEv {
            session: r.session.to_string(),
            section: r.section.map(str::to_string),
            board: r.board as u32,
            round: r.round.map(|x| x as u32),
            table: r.table.map(|x| x as u32),
            ns: r.ns.to_string(),
            ew: r.ew.to_string(),
            play,
            match_id: r.match_id.map(str::to_string),
            room,
        }),
    })
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

fn session(f: &mut Fields, sessions: &mut Vec<(String, Form)>) -> Option<Event> {
    let id = f.req_id("id");
    let name = f.opt_str("name");
    let form = match f.req_str("form") {
        Some(s) => match Form::parse(&s) {
            Some(form) => Some(form),
            None => {
                let names: Vec<_> = Form::ALL.iter().map(|(n, _)| format!("\"{n}\"")).collect();
                f.error(
                    "form",
                    format!("expected one of {}, found \"{s}\"", names.join(", ")),
                );
                None
            }
        },
        None => None,
    };
    let boards = match f.raw("boards") {
        None => {
            f.error(
                "boards",
                "missing; expected a range such as \"1-26\" or a list [1,2,3]",
            );
            None
        }
        Some(v) => match parse_boards(v) {
            Ok(b) => Some(b),
            Err(m) => {
                f.error("boards", m);
                None
            }
        },
    };
    let compare = match f.opt_str("compare").as_deref() {
        None | Some("section") => Compare::Section,
        Some("field") => Compare::Field,
        Some(other) => {
            f.error(
                "compare",
                format!("expected \"section\" or \"field\", found \"{other}\""),
            );
            Compare::Section
        }
    };
    let carry = f.opt_bool("carry").unwrap_or(true);
    let mut options = Options::default();
    if let Some(v) = f.raw("options") {
        match (v, form) {
            (Value::Object(obj), Some(form)) => {
                let (o, errs) = Options::from_json(form, obj);
                options = o;
                for e in errs {
                    f.error("options", format!("\"{}\": {}", e.option, e.message));
                }
            }
            (Value::Object(_), None) => {}
            (other, _) => f.error(
                "options",
                format!("expected an object, found {}", describe(other)),
            ),
        }
    }
    let (id, form, boards) = (id?, form?, boards?);
    if sessions.iter().any(|(s, _)| *s == id) {
        f.error("id", format!("session \"{id}\" is already declared"));
        return None;
    }
    sessions.push((id.clone(), form));
    Some(Event::Session(SessionDef {
        id,
        name,
        form,
        boards,
        compare,
        carry,
        options,
    }))
}

/// `"1-26"`, `"1-13,15"`, or `[1,2,3]`: sorted, without repeats.
pub fn parse_boards(v: &Value) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    let bad = || {
        format!("expected a range such as \"1-26\" or a list [1,2,3] of boards 1..={MAX_BOARD}, found {}", describe(v))
    };
    match v {
        Value::String(s) => {
            for piece in s.split(',') {
                let piece = piece.trim();
                let (a, b) = piece.split_once('-').unwrap_or((piece, piece));
                let a: i64 = a.trim().parse().map_err(|_| bad())?;
                let b: i64 = b.trim().parse().map_err(|_| bad())?;
                if a < 1 || b > MAX_BOARD || a > b {
                    return Err(bad());
                }
                out.extend(a as u32..=b as u32);
                // More entries than there are board numbers: some board repeats; stop now
                // rather than expanding every range first.
                if out.len() > MAX_BOARD as usize {
                    return Err(format!("board listed twice in {}", describe(v)));
                }
            }
        }
        Value::Array(items) => {
            for it in items {
                match it.as_i64() {
                    Some(n) if (1..=MAX_BOARD).contains(&n) => out.push(n as u32),
                    _ => return Err(bad()),
                }
            }
        }
        _ => return Err(bad()),
    }
    let before = out.len();
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        return Err(bad());
    }
    if out.len() != before {
        return Err(format!("board listed twice in {}", describe(v)));
    }
    Ok(out)
}

fn players(f: &mut Fields) -> Vec<String> {
    match f.raw("players") {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            let mut out = Vec::new();
            for it in items {
                match it {
                    Value::String(s) => out.push(s.clone()),
                    other => {
                        f.error(
                            "players",
                            format!(
                                "expected a list of names (strings), found {}",
                                describe(other)
                            ),
                        );
                        return Vec::new();
                    }
                }
            }
            out
        }
        Some(other) => {
            let m = format!("expected a list of names, found {}", describe(other));
            f.error("players", m);
            Vec::new()
        }
    }
}

fn pair(f: &mut Fields) -> Option<Event> {
    let id = f.req_id("id");
    let section = f.opt_id("section");
    let players = players(f);
    Some(Event::Pair(PairDef {
        id: id?,
        section,
        players,
    }))
}

fn team(f: &mut Fields) -> Option<Event> {
    let id = f.req_id("id");
    let name = f.opt_str("name");
    let players = players(f);
    Some(Event::Team(TeamDef {
        id: id?,
        name,
        players,
    }))
}

fn match_event(f: &mut Fields) -> Option<Event> {
    let session = f.req_id("session");
    let id = f.req_id("id");
    let home = f.req_id("home");
    let away = f.req_id("away");
    let boards = match f.raw("boards") {
        None => {
            f.error(
                "boards",
                "missing; expected a range such as \"1-12\" or a list [1,2,3]",
            );
            None
        }
        Some(v) => match parse_boards(v) {
            Ok(b) => Some(b),
            Err(m) => {
                f.error("boards", m);
                None
            }
        },
    };
    let knockout = f.opt_bool("knockout").unwrap_or(false);
    if let (Some(h), Some(a)) = (&home, &away) {
        if h == a {
            f.error("away", format!("the same team \"{h}\" on both sides"));
        }
    }
    Some(Event::Match(MatchDef {
        session: session?,
        id: id?,
        home: home?,
        away: away?,
        boards: boards?,
        knockout,
    }))
}

fn board(f: &mut Fields) -> Option<u32> {
    f.req_int("board", 1, MAX_BOARD).map(|b| b as u32)
}

/// The play fields shared by `result` and `correction`.
fn play_fields(
    f: &mut Fields,
    with_result: bool,
) -> (
    Option<Bid>,
    Option<crate::bridge::Seat>,
    Option<u8>,
    Option<i8>,
    Option<i32>,
    Option<String>,
) {
    let contract = f.raw("contract").and_then(|v| match v {
        Value::String(s) => match parse_contract(s) {
            Ok(b) => Some(b),
            Err(m) => {
                f.error("contract", m);
                None
            }
        },
        other => {
            let m = format!(
                "expected a contract such as \"4HX\", \"3NT\" or \"PASS\", found {}",
                describe(other)
            );
            f.error("contract", m);
            None
        }
    });
    let declarer = f.opt_str("declarer").and_then(|s| match parse_seat(&s) {
        Ok(seat) => Some(seat),
        Err(m) => {
            f.error("declarer", m);
            None
        }
    });
    let tricks = f.opt_int("tricks", 0, 13).map(|t| t as u8);
    let result = if !with_result { None } else { f.raw("result") }.and_then(|v| match v {
        Value::String(s) => match parse_result_offset(s) {
            Ok(o) => Some(o),
            Err(m) => {
                f.error("result", m);
                None
            }
        },
        other => {
            let m = format!(
                "expected a result such as \"=\", \"+1\" or \"-2\", found {}",
                describe(other)
            );
            f.error("result", m);
            None
        }
    });
    let score = f.opt_int("score", -10_000, 10_000).map(|s| s as i32);
    if let Some(s) = score {
        if s % 10 != 0 {
            f.error(
                "score",
                format!("expected NS points (a multiple of 10), found {s}"),
            );
        }
    }
    let lead = f.opt_str("lead");
    (contract, declarer, tricks, result, score, lead)
}

/// Check the play of one table on its own: tricks and result agree, the contract is complete.
pub fn check_play(play: &Play) -> Vec<(&'static str, String)> {
    let mut errs = Vec::new();
    match play.contract {
        None => {
            if play.score.is_none() {
                errs.push(("contract", "missing; expected a contract (with declarer and tricks or result) or a \"score\" in NS points".to_string()));
            }
            for (name, present) in [
                ("declarer", play.declarer.is_some()),
                ("tricks", play.tricks.is_some()),
                ("result", play.result.is_some()),
            ] {
                if present {
                    errs.push((name, "given without a contract".to_string()));
                }
            }
        }
        Some(Bid::Pass) => {
            for (name, present) in [
                ("declarer", play.declarer.is_some()),
                ("tricks", play.tricks.is_some()),
                ("result", play.result.is_some()),
            ] {
                if present {
                    errs.push((name, "given for a passed-out board".to_string()));
                }
            }
        }
        Some(Bid::Contract(c)) => {
            if play.declarer.is_none() {
                errs.push(("declarer", "missing; expected N, E, S or W".to_string()));
            }
            match (play.tricks, play.result) {
                (None, None) => errs.push(("tricks", "missing; expected \"tricks\" (0-13) or \"result\" (\"=\", \"+1\", \"-2\", ...)".to_string())),
                (Some(t), Some(r)) => {
                    let from_result = 6 + c.level as i32 + r as i32;
                    if from_result != t as i32 {
                        errs.push(("result", format!("disagrees with \"tricks\": {c} with {t} tricks is {}, not {}", offset_text(t as i32 - 6 - c.level as i32), offset_text(r as i32))));
                    }
                }
                (None, Some(r)) => {
                    let t = 6 + c.level as i32 + r as i32;
                    if !(0..=13).contains(&t) {
                        errs.push(("result", format!("{c} {} would take {t} tricks; expected 0..=13", offset_text(r as i32))));
                    }
                }
                (Some(_), None) => {}
            }
        }
    }
    errs
}

pub fn offset_text(o: i32) -> String {
    match o {
        0 => "=".to_string(),
        o if o > 0 => format!("+{o}"),
        o => format!("{o}"),
    }
}

fn result(f: &mut Fields) -> Option<Event> {
    let session = f.req_id("session");
    let section = f.opt_id("section");
    let board = board(f);
    let round = f.opt_int("round", 1, 9999).map(|n| n as u32);
    let table = f.opt_int("table", 1, 99_999).map(|n| n as u32);
    let ns = f.req_id("ns");
    let ew = f.req_id("ew");
    // Team forms: the match and the room (checked against the session's form by replay).
    let match_id = f.opt_id("match");
    let room = match f.opt_str("room").as_deref() {
        None => None,
        Some("open") => Some(Room::Open),
        Some("closed") => Some(Room::Closed),
        Some(other) => {
            f.error(
                "room",
                format!("expected \"open\" or \"closed\", found \"{other}\""),
            );
            None
        }
    };
    let errors_before = f.errors.len();
    let (contract, declarer, tricks, result, score, lead) = play_fields(f, true);
    let play = Play {
        contract,
        declarer,
        tricks,
        result,
        score,
        lead,
    };
    // A play field given but refused above is already reported: do not also call it missing,
    // or the others "given without a contract" because the contract could not be read.
    let refused: Vec<String> = f.errors[errors_before..]
        .iter()
        .filter_map(|e| e.field.clone())
        .collect();
    let is_refused = |name: &str| refused.iter().any(|r| r == name);
    if !is_refused("contract") {
        for (field, msg) in check_play(&play) {
            let masked = match field {
                "contract" => is_refused("score"),
                "declarer" => is_refused("declarer"),
                "tricks" | "result" => is_refused("tricks") || is_refused("result"),
                _ => false,
            };
            if !masked {
                f.error(field, msg);
            }
        }
    }
    if let (Some(ns), Some(ew)) = (&ns, &ew) {
        if ns == ew {
            f.error("ew", format!("the same pair \"{ns}\" on both sides"));
        }
    }
    Some(Event::Result(ResultEv {
        session: session?,
        section,
        board: board?,
        round,
        table,
        ns: ns?,
        ew: ew?,
        play,
        match_id,
        room,
    }))
}

/// Points as written in a subsequent-damage entry: `"+620"`, `"-100"`, `620`.
fn sd_points(
    f: &mut Fields,
    obj: &Map<String, Value>,
    name: &'static str,
    required: bool,
) -> Option<i32> {
    let field = format!("subsequent_damage.{name}");
    match obj.get(name) {
        None | Some(Value::Null) => {
            if required {
                f.errors.push(LogError::new(
                    f.line(),
                    Some(&field),
                    "missing; expected NS points such as \"+620\"",
                ));
            }
            None
        }
        Some(v) => {
            let parsed = match v {
                Value::Number(n) => n.as_i64(),
                Value::String(s) => {
                    let s = s.trim().replace(['\u{2212}', '\u{2013}'], "-");
                    s.strip_prefix('+').unwrap_or(&s).parse::<i64>().ok()
                }
                _ => None,
            };
            match parsed {
                Some(p) if (-10_000..=10_000).contains(&p) => Some(p as i32),
                _ => {
                    f.errors.push(LogError::new(
                        f.line(),
                        Some(&field),
                        format!("expected NS points such as \"+620\", found {}", describe(v)),
                    ));
                    None
                }
            }
        }
    }
}

fn ruling(f: &mut Fields) -> Option<Event> {
    let id = f.req_id("id");
    let session = f.req_id("session");
    let board = board(f);
    let ns = f.req_id("ns");
    let ew = f.opt_id("ew");
    if let (Some(ns), Some(ew)) = (&ns, &ew) {
        if ns == ew {
            f.error("ew", format!("the same pair \"{ns}\" on both sides"));
        }
    }
    let law = f.opt_str("law");
    let supersedes = f.opt_id("supersedes");
    let score_text = f.raw("score");
    let sd_value = f.raw("subsequent_damage");
    let top_offenders = f.raw("offenders");
    let mut sd = None;
    let score = match (score_text, sd_value) {
        (Some(_), Some(_)) => {
            f.error(
                "subsequent_damage",
                "give either \"score\" or \"subsequent_damage\", not both",
            );
            None
        }
        (None, None) => {
            f.error("score", "missing; a ruling must give a \"score\" in adjusted-score notation, e.g. \"(60%+620&40%-100)\", or a \"subsequent_damage\" object");
            None
        }
        (Some(Value::String(s)), None) => {
            if top_offenders.is_some() {
                f.error("offenders", "belongs to a \"subsequent_damage\" ruling");
            }
            match parse_adjusted(s) {
                Ok(a) => Some(a),
                Err(e) => {
                    f.error("score", e.message);
                    None
                }
            }
        }
        (Some(other), None) => {
            let m = format!("expected adjusted-score notation as a string, e.g. \"(60%+620&40%-100)\", found {}", describe(other));
            f.error("score", m);
            None
        }
        (None, Some(Value::Object(obj))) => {
            for k in obj.keys() {
                if ![
                    "side",
                    "before",
                    "after_infraction",
                    "after_loss",
                    "offenders",
                ]
                .contains(&k.as_str())
                {
                    f.errors.push(LogError::new(
                        f.line(),
                        Some(&format!("subsequent_damage.{k}")),
                        "unknown field (expected side, before, after_infraction, after_loss, offenders)",
                    ));
                }
            }
            let side = match obj.get("side") {
                Some(Value::String(s)) if s == "NS" => Some(Side::NS),
                Some(Value::String(s)) if s == "EW" => Some(Side::EW),
                Some(other) => {
                    f.errors.push(LogError::new(
                        f.line(),
                        Some("subsequent_damage.side"),
                        format!(
                            "expected \"NS\" or \"EW\" (the non-offending side), found {}",
                            describe(other)
                        ),
                    ));
                    None
                }
                None => {
                    f.errors.push(LogError::new(
                        f.line(),
                        Some("subsequent_damage.side"),
                        "missing; expected \"NS\" or \"EW\" (the non-offending side)",
                    ));
                    None
                }
            };
            let before = sd_points(f, obj, "before", true);
            let after_inf = sd_points(f, obj, "after_infraction", true);
            let after_loss = sd_points(f, obj, "after_loss", true);
            let mut offenders = sd_points(f, obj, "offenders", false);
            if let Some(v) = top_offenders {
                if offenders.is_some() {
                    f.error(
                        "offenders",
                        "given twice (inside and outside \"subsequent_damage\")",
                    );
                } else {
                    let mut wrap = Map::new();
                    wrap.insert("offenders".to_string(), v.clone());
                    offenders = sd_points(f, &wrap, "offenders", false);
                }
            }
            match (side, before, after_inf, after_loss) {
                (Some(nos), Some(before), Some(after_infraction), Some(after_loss)) => {
                    let d = SubsequentDamage {
                        nos,
                        before,
                        after_infraction,
                        after_loss,
                        offenders: offenders.unwrap_or(before),
                    };
                    match d.expand() {
                        Ok(a) => {
                            sd = Some(d);
                            Some(a)
                        }
                        Err(e) => {
                            f.error("subsequent_damage", e.message);
                            None
                        }
                    }
                }
                _ => None,
            }
        }
        (None, Some(other)) => {
            let m = format!("expected an object {{\"side\":\"NS\",\"before\":\"+620\",\"after_infraction\":\"+500\",\"after_loss\":\"+150\"}}, found {}", describe(other));
            f.error("subsequent_damage", m);
            None
        }
    };
    Some(Event::Ruling(RulingEv {
        id: id?,
        session: session?,
        board: board?,
        ns: ns?,
        ew,
        score: score?,
        sd,
        law,
        supersedes,
    }))
}

fn correction(f: &mut Fields) -> Option<Event> {
    let result = f.req_int("result", 1, i64::MAX);
    // In a correction `result` is the seq of the corrected event; the trick count is given as
    // `tricks` (C3).
    let (contract, declarer, tricks, result_offset, score, lead) = play_fields(f, false);
    if contract.is_none()
        && declarer.is_none()
        && tricks.is_none()
        && result_offset.is_none()
        && score.is_none()
        && lead.is_none()
        && f.errors.is_empty()
    {
        f.error("result", "a correction must give at least one field to replace (contract, declarer, tricks, result, score or lead)");
    }
    Some(Event::Correction(CorrectionEv {
        result: result? as usize,
        contract,
        declarer,
        tricks,
        result_offset,
        score,
        lead,
    }))
}

fn penalty(f: &mut Fields, sessions: &[(String, Form)]) -> Option<Event> {
    let session = f.req_id("session");
    let participant = f.req_id("participant");
    let board = f.opt_int("board", 1, MAX_BOARD).map(|b| b as u32);
    let law = f.opt_str("law");
    let match_id = f.opt_id("match");
    let mut found: Vec<(PenaltyUnit, Q)> = Vec::new();
    for (name, unit) in PenaltyUnit::ALL {
        if let Some(v) = f.raw(name) {
            let q = match v {
                Value::Number(n) => Q::parse(&n.to_string()),
                _ => None,
            };
            match q {
                Some(q) if q > Q::ZERO => found.push((unit, q)),
                _ => f.error(
                    name,
                    format!("expected a positive number, found {}", describe(v)),
                ),
            }
        }
    }
    let (unit, amount) = match found.as_slice() {
        [one] => *one,
        [] => {
            if f.errors.is_empty() {
                f.error("pct_of_top", "missing; a penalty needs one amount: \"pct_of_top\", \"mp\", \"imp\" or \"vp\"");
            }
            return None;
        }
        _ => {
            f.error(found[1].0.name(), "a penalty gives one unit only");
            return None;
        }
    };
    let session = session?;
    if let Some((_, form)) = sessions.iter().find(|(s, _)| *s == session) {
        let allowed = PenaltyUnit::allowed_for(*form);
        if !allowed.contains(&unit) {
            let names: Vec<_> = allowed
                .iter()
                .map(|u| format!("\"{}\"", u.name()))
                .collect();
            f.error(
                unit.name(),
                format!(
                    "a \"{}\" session takes penalties in {} (conventions C20)",
                    form.name(),
                    names.join(" or ")
                ),
            );
        }
    }
    Some(Event::Penalty(PenaltyEv {
        session,
        participant: participant?,
        unit,
        amount,
        board,
        law,
        match_id,
    }))
}

fn fouled(f: &mut Fields) -> Option<Event> {
    let session = f.req_id("session");
    let board = board(f);
    let expected = "expected a non-empty list of non-empty lists of NS pair ids, e.g. [[\"12\",\"3\"],[\"1\",\"9\"]]";
    let groups = match f.raw("groups") {
        None => {
            f.error("groups", format!("missing; {expected}"));
            None
        }
        Some(Value::Array(gs)) if !gs.is_empty() => {
            let mut out = Vec::new();
            let mut ok = true;
            for g in gs {
                match g {
                    Value::Array(ids) if !ids.is_empty() => {
                        let mut grp = Vec::new();
                        for id in ids {
                            match id {
                                Value::String(s) if !s.trim().is_empty() => grp.push(s.clone()),
                                other => {
                                    f.error("groups", format!("{expected}; found {} in a group (ids are JSON strings)", describe(other)));
                                    ok = false;
                                }
                            }
                        }
                        out.push(grp);
                    }
                    other => {
                        f.error("groups", format!("{expected}; found {}", describe(other)));
                        ok = false;
                    }
                }
            }
            ok.then_some(out)
        }
        Some(other) => {
            let m = format!("{expected}; found {}", describe(other));
            f.error("groups", m);
            None
        }
    };
    Some(Event::Fouled(FouledEv {
        session: session?,
        board: board?,
        groups: groups?,
    }))
}

fn deal(f: &mut Fields) -> Option<Event> {
    let session = f.req_id("session");
    let board = board(f);
    let pbn = f.req_str("pbn");
    if let Some(p) = &pbn {
        if let Err(m) = check_pbn_deal(p) {
            f.error("pbn", m);
        }
    }
    let dealer = f.opt_str("dealer").and_then(|s| match parse_seat(&s) {
        Ok(x) => Some(x),
        Err(m) => {
            f.error("dealer", m);
            None
        }
    });
    let vul = f.opt_str("vul").and_then(|s| match Vul::parse(&s) {
        Ok(v) => Some(v),
        Err(m) => {
            f.error("vul", m);
            None
        }
    });
    Some(Event::Deal(DealEv {
        session: session?,
        board: board?,
        pbn: pbn?,
        dealer,
        vul,
    }))
}

/// A PBN `[Deal]` value: `"N:AKQ2.KJ4.T83.952 hand hand hand"`, 52 different cards, 13 a hand.
pub fn check_pbn_deal(p: &str) -> Result<(), String> {
    let expected = "expected a PBN deal such as \"N:AKQ2.KJ4.T83.952 ...\" (four hands of 13 cards, suits in the order S.H.D.C)";
    let (first, hands) = p.split_once(':').ok_or_else(|| expected.to_string())?;
    if !["N", "E", "S", "W"].contains(&first.trim()) {
        return Err(format!(
            "{expected}; the first seat must be N, E, S or W, found \"{first}\""
        ));
    }
    let hands: Vec<&str> = hands.split_whitespace().collect();
    if hands.len() != 4 {
        return Err(format!("{expected}; found {} hands", hands.len()));
    }
    let mut seen = [false; 52];
    for h in hands {
        if h == "-" {
            return Err(format!(
                "{expected}; partial deals (\"-\") are not accepted"
            ));
        }
        let suits: Vec<&str> = h.split('.').collect();
        if suits.len() != 4 {
            return Err(format!("{expected}; hand \"{h}\" does not have four suits"));
        }
        let mut count = 0;
        for (si, s) in suits.iter().enumerate() {
            for c in s.chars() {
                let r = "AKQJT98765432"
                    .find(c.to_ascii_uppercase())
                    .ok_or_else(|| format!("{expected}; \"{c}\" is not a card rank"))?;
                let k = si * 13 + r;
                if seen[k] {
                    return Err(format!(
                        "{expected}; card {}{c} appears twice",
                        ['S', 'H', 'D', 'C'][si]
                    ));
                }
                seen[k] = true;
                count += 1;
            }
        }
        if count != 13 {
            return Err(format!("{expected}; hand \"{h}\" has {count} cards"));
        }
    }
    Ok(())
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
