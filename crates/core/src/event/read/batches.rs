//! The reader's main loop: the declaring lines parsed in order, then every other line parsed in
//! parallel a batch at a time and handed to the sink in log order, the log's head walked beside.

use super::scan::{PARTICIPANT, RESULT, SESSION};
use super::*;

/// What the reader does besides reading (see [`read_each_with`]).
#[derive(Clone, Copy)]
pub struct ReadOptions<'r> {
    /// Lines parsed per parallel batch.
    pub batch: usize,
    pub chain: Chain,
    /// Walk the log's head (crate::integrity) over the lines as they are read, when the chain
    /// does not give it: [`ReadSummary::head`] is then the head of a valid log.
    pub head: bool,
    /// Told, in order, of each stretch of the bytes (from their start) the reader is done
    /// with: a mapped file's pages can be let go as the reader passes them. The reader may
    /// still look at those bytes again (they must stay readable).
    pub done: Option<&'r (dyn Fn(&[u8]) + Sync)>,
}

impl ReadOptions<'_> {
    pub fn new(batch: usize, chain: Chain) -> ReadOptions<'static> {
        ReadOptions {
            batch,
            chain,
            head: false,
            done: None,
        }
    }
}

/// A line's canonical text for the head (crate::event::chain): two pieces of a flat line, or
/// made from its parse; `None` for a line that is not a JSON object (the log is not valid).
enum Canon<'a> {
    Parts([&'a str; 2]),
    Made(String),
    None,
}

fn canon(text: &str) -> Canon<'_> {
    use crate::event::chain::{canonical, flat_parts_unchecked};
    // A key given twice makes the line (so the log) invalid, and a log with errors has no
    // head: not looked for here.
    if let Some((_, parts)) = flat_parts_unchecked(text) {
        return Canon::Parts(parts);
    }
    match crate::event::json::parse(text) {
        Ok(Value::Object(map)) => Canon::Made(canonical(&map)),
        _ => Canon::None,
    }
}

/// The head walked so far: the chain's value after the lines seen, `None` once a line could
/// not be hashed.
struct Walk(Option<[u8; 64]>);

impl Walk {
    fn start() -> Walk {
        Walk(Some([b'0'; 64]))
    }

    fn step(&mut self, c: &Canon) {
        use crate::event::chain::link_parts;
        self.0 = match (self.0, c) {
            (Some(prev), Canon::Parts([a, b])) => {
                Some(link_parts(&prev, [a.as_bytes(), b.as_bytes()]))
            }
            (Some(prev), Canon::Made(m)) => Some(link_parts(&prev, [m.as_bytes(), b""])),
            _ => None,
        };
    }

    fn hex(&self) -> Option<String> {
        self.0
            .map(|h| String::from_utf8(h.to_vec()).expect("hex digits are ASCII"))
    }
}

type Parse<'a> = Result<Item<'a>, Vec<LogError>>;

/// A parsed batch: each line's parse and whether it declared a session (`None` for a line
/// parsed in the first pass), and its canonical text when the head is walked.
struct Batch<'a> {
    parsed: Vec<Option<(Parse<'a>, bool)>>,
    canon: Vec<Canon<'a>>,
}

/// The lines parsed in order before the batches: the sessions (later lines need their forms)
/// and, until one is found, the participants (whether the log declares its pairs).
struct Early {
    sessions: Vec<(String, Form)>,
    session_lines: Vec<usize>,
    idx: Vec<usize>,
    parses: Vec<Option<Result<Envelope, Vec<LogError>>>>,
    declares: bool,
}

fn early(lines: &[(u32, u32, &str)], flags: &[u8]) -> Early {
    let mut e = Early {
        sessions: Vec::new(),
        session_lines: Vec::new(),
        idx: Vec::new(),
        parses: Vec::new(),
        declares: false,
    };
    for (i, &(line, sq, text)) in lines.iter().enumerate() {
        let (line, sq) = (line as usize, sq as usize);
        // Participant lines need parsing here only until one is found: after that the log
        // is known to declare its pairs, and the rest are parsed in parallel with the others.
        if flags[i] & SESSION != 0 || (!e.declares && flags[i] & PARTICIPANT != 0) {
            let before = e.sessions.len();
            let r = parse_line(line, sq, text, &mut e.sessions);
            if e.sessions.len() > before {
                e.session_lines.push(line);
            }
            e.declares |= matches!(&r, Ok(env) if env.event.declares_participant());
            e.idx.push(i);
            e.parses.push(Some(r));
        }
    }
    e
}

/// [`read_each`] with its options: the batch size, the chain, the head, the bytes let go.
pub fn read_each_with<'a>(
    bytes: &'a [u8],
    opts: &ReadOptions,
    sink: &mut dyn EventSink,
) -> ReadSummary {
    let batch = opts.batch.max(1);
    // A byte-order mark (some Windows editors write one) is not part of the first event.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut out = ReadSummary::default();
    let prescan = tracing::info_span!("prescan").entered();
    let scanned = scan::scan(bytes);
    let (lines, flags) = (scanned.lines, scanned.flags);
    out.lines = scanned.count;
    out.errors = scanned.errors;
    if opts.chain == Chain::Verify {
        let _s = tracing::info_span!("chain").entered();
        let (mut chain_errors, head) = verify_chain(&lines);
        out.head = head;
        if !chain_errors.is_empty() {
            out.errors.append(&mut chain_errors);
            out.errors.sort_by_key(|e| e.line);
        }
    }
    let walk_head = opts.head && out.head.is_none();
    let mut early = early(&lines, &flags);
    drop(prescan);
    let _batches = tracing::info_span!("batches").entered();
    sink.start(early.declares, lines.len());
    // A line's parse (`None`: parsed in the first pass) and its canonical text for the head.
    let parse_one = |i: usize| {
        parse_at(
            i,
            (&lines, &flags),
            (&early.idx, &early.sessions, &early.session_lines),
            walk_head,
        )
    };
    // A batch parsed into the vectors of one parsed before (their memory reused: a new
    // vector a batch would be fresh pages a batch).
    let parse_batch = |start: usize, mut into: Batch<'a>| -> Batch<'a> {
        use rayon::prelude::*;
        let end = (start + batch).min(lines.len());
        (start..end)
            .into_par_iter()
            .map(parse_one)
            .unzip_into_vecs(&mut into.parsed, &mut into.canon);
        into
    };
    let mut parse_errors: Vec<LogError> = Vec::new();
    let mut early_at = 0usize;
    // Hand a parsed batch to the sink in line order, and give back what the sink left of it
    // (dropped on the other thread); `None` when a line of it declared a session the text
    // tests above let through (`may_declare_session` is meant never to).
    let mut emit = |parsed: &mut Vec<Option<(Parse<'a>, bool)>>,
                    mut items: Vec<Item<'a>>,
                    sink: &mut dyn EventSink|
     -> Option<Vec<Item<'a>>> {
        if parsed.iter().flatten().any(|(_, declared)| *declared) {
            return None;
        }
        items.clear();
        for p in parsed.drain(..) {
            let r = match p {
                Some((r, _)) => r,
                None => {
                    early_at += 1;
                    early.parses[early_at - 1]
                        .take()
                        .expect("an early parse a line")
                        .map(|e| Item::Event(Box::new(e)))
                }
            };
            match r {
                Ok(item) => items.push(item),
                Err(mut errs) => parse_errors.append(&mut errs),
            }
        }
        sink.items(&mut items);
        Some(items)
    };
    let mut walk = Walk::start();
    let in_order = pipeline(
        bytes,
        &lines,
        (batch, opts.done),
        &parse_batch,
        &mut emit,
        sink,
        &mut walk,
    );
    if in_order {
        walk = in_order_read(&lines, sink, &mut parse_errors, walk_head);
    }
    out.errors.append(&mut parse_errors);
    if walk_head {
        out.head = walk.hex();
    }
    torn_last_line_hint(bytes, &mut out);
    out
}

/// A line's parse (`None`: parsed in the first pass, one of `early_idx`) and its canonical
/// text for the head; only the sessions declared above the line are known to it.
#[allow(clippy::type_complexity)]
fn parse_at<'a>(
    i: usize,
    (lines, flags): (&[(u32, u32, &'a str)], &[u8]),
    (early_idx, sessions, session_lines): (&[usize], &[(String, Form)], &[usize]),
    walk_head: bool,
) -> (Option<(Parse<'a>, bool)>, Canon<'a>) {
    let (line, sq, text) = lines[i];
    let (line, sq) = (line as usize, sq as usize);
    let canon_of = |text| if walk_head { canon(text) } else { Canon::None };
    if early_idx.binary_search(&i).is_ok() {
        return (None, canon_of(text));
    }
    if flags[i] & RESULT != 0 {
        if let Some((r, parts)) = fast_result_ref(line, sq, text) {
            let c = match parts {
                Some(p) if walk_head => Canon::Parts(p),
                _ => canon_of(text),
            };
            return (Some((Ok(Item::Result(r)), false)), c);
        }
    }
    // Only the sessions declared above this line are known to it.
    let known = session_lines.partition_point(|&l| l < line);
    let mut visible = sessions[..known].to_vec();
    let r = parse_line(line, sq, text, &mut visible);
    (
        Some((r.map(|e| Item::Event(Box::new(e))), visible.len() > known)),
        canon_of(text),
    )
}

/// A last line without its newline is fine when it parsed; a torn one has already failed to
/// parse and gets a hint.
fn torn_last_line_hint(bytes: &[u8], out: &mut ReadSummary) {
    if bytes.last().is_some_and(|&b| b != b'\n') && out.lines > 0 {
        if let Some(e) = out.errors.last_mut() {
            if e.line == out.lines && e.field.is_none() && e.message.starts_with("invalid JSON") {
                e.message
                    .push_str(" (the last line has no newline: was the file cut off mid-write?)");
            }
        }
    }
}

/// The emitting closure of [`read_each_with`]: a parsed batch's lines handed to the sink (into
/// the vector given), what the sink left of them given back; `None` when a line of the batch
/// declared a session the text tests let through.
type Emit<'e, 'a> = dyn FnMut(
        &mut Vec<Option<(Parse<'a>, bool)>>,
        Vec<Item<'a>>,
        &mut dyn EventSink,
    ) -> Option<Vec<Item<'a>>>
    + Send
    + 'e;

/// The batches parsed, handed on and hashed in turn; `true` when a batch declared a session
/// the text tests let through (the log is then read again in strict order).
fn pipeline<'a>(
    bytes: &'a [u8],
    lines: &[(u32, u32, &'a str)],
    (batch, done): (usize, Option<&(dyn Fn(&[u8]) + Sync)>),
    parse_batch: &(dyn Fn(usize, Batch<'a>) -> Batch<'a> + Sync),
    emit: &mut Emit<'_, 'a>,
    sink: &mut dyn EventSink,
    walk: &mut Walk,
) -> bool {
    // Pipelined: the next batch is parsed (in parallel), and the one before dropped, while
    // this one is replayed and hashed.
    let mut pending: Option<Batch> = None;
    // The vectors of the batch handed on last, emptied for the next one to parse into; the
    // items the sink left of it, to drop.
    let mut free = Batch {
        parsed: Vec::new(),
        canon: Vec::new(),
    };
    let mut spent: Vec<Item> = Vec::new();
    let mut blank: Vec<Item> = Vec::new();
    let mut next = 0usize;
    loop {
        let to_parse = (next < lines.len()).then_some(next);
        next += batch;
        let mut old = std::mem::take(&mut spent);
        let buf = std::mem::take(&mut blank);
        let into = std::mem::replace(
            &mut free,
            Batch {
                parsed: Vec::new(),
                canon: Vec::new(),
            },
        );
        let (parsed, emitted) = rayon::join(
            || {
                old.clear();
                (to_parse.map(|s| parse_batch(s, into)), old)
            },
            || match pending.take() {
                None => Some(None),
                Some(mut p) => {
                    let canon = &mut p.canon;
                    let (emitted, ()) = rayon::join(
                        || emit(&mut p.parsed, buf, &mut *sink),
                        || canon.drain(..).for_each(|c| walk.step(&c)),
                    );
                    emitted.map(|items| Some((items, p)))
                }
            },
        );
        let Some(emitted) = emitted else {
            return true;
        };
        let (parsed, cleared) = parsed;
        if let Some((items, p)) = emitted {
            spent = items;
            free = p;
        }
        blank = cleared;
        let Some(parsed) = parsed else { break };
        if let (Some(done), Some(s)) = (done, to_parse) {
            // Every line before the batch just parsed has been handed on and hashed.
            let at = lines[s].2.as_ptr() as usize - bytes.as_ptr() as usize;
            done(&bytes[..at]);
        }
        pending = Some(parsed);
    }
    false
}

/// The whole log read again in strict line order (a session line the text tests let through),
/// the sink started over; the head walked again when `head`.
fn in_order_read(
    lines: &[(u32, u32, &str)],
    sink: &mut dyn EventSink,
    parse_errors: &mut Vec<LogError>,
    head: bool,
) -> Walk {
    tracing::warn!("a session line was not recognised by its text; reading the log in order");
    let mut sessions = Vec::new();
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
    let mut walk = Walk::start();
    if head {
        for l in lines {
            walk.step(&canon(l.2));
        }
    }
    walk
}
