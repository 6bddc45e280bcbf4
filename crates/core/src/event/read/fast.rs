//! The fast path for the commonest line, a plain result: its fields read straight from the text, and the judgements on a line's text that let the sequential pass skip parsing.

use super::*;

/// Whether a line may be a `pair`, `team` or `player` event, judged on its text so that it can
/// be parsed in the sequential pass. Sound: such a line names its type literally unless it
/// writes them with escapes (a backslash).
pub(super) fn may_declare_participant(text: &str, ty: Option<&str>) -> bool {
    ty != Some("result")
        && (text.contains('\\')
            || text.contains("\"pair\"")
            || text.contains("\"team\"")
            || text.contains("\"player\""))
}

/// Whether a line may be a `session` event, judged on its text so that it can be parsed in the
/// sequential pass (later lines need the sessions above them). Sound, never missing one: a
/// session line names `"session"` and `"form"` literally unless it writes them with escapes
/// (a backslash); a line whose first `"type"` key says `result` or `penalty` is one (another
/// `type` key, escaped or not, is a duplicate key, refused by [`crate::event::json::parse`]).
pub(super) fn may_declare_session(text: &str, ty: Option<&str>) -> bool {
    ty == Some("session")
        || (ty != Some("result")
            && ty != Some("penalty")
            && (text.contains('\\') || (text.contains("\"session\"") && text.contains("\"form\""))))
}

/// The value after a line's first `"type"` key, as written (no escapes), judged on the text
/// (`"type":"result"` with or without spaces), for choosing a path; the parser decides.
pub(super) fn line_type(text: &str) -> Option<&str> {
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
pub(super) struct ResultFields<'a> {
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
    /// Whether the line has no whitespace between its tokens: then it is flat and compact
    /// (`crate::event::chain::flat_parts`), and its canonical text is the line without its
    /// `hash` member.
    compact: bool,
    /// Where the `hash` member lies: its key's opening quote, and the end of its value.
    hash_at: Option<(usize, usize)>,
}

impl<'a> ResultFields<'a> {
    fn scan(text: &'a str) -> Option<ResultFields<'a>> {
        let b = text.as_bytes();
        let mut i = 0usize;
        let mut spaced = false;
        let mut ws = |i: &mut usize| {
            let from = *i;
            while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'\n' | b'\r') {
                *i += 1;
            }
            spaced |= *i > from;
        };
        use crate::event::json::plain;
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
            let key_at = i;
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
                "hash" => set!(5, {
                    r.hash = Some(string(&mut i)?);
                    r.hash_at = Some((key_at, i));
                }),
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
        r.compact = !spaced;
        // type, session, board, ns and ew are required.
        const REQUIRED: u32 = 1 | 1 << 6 | 1 << 8 | 1 << 11 | 1 << 12;
        (i == b.len() && seen & REQUIRED == REQUIRED).then_some(r)
    }

    /// The canonical text of a compact line, in two pieces either side of its `hash` member,
    /// exactly as [`crate::event::chain::flat_parts`] cuts it; `None` for a line with spaces.
    fn canonical(&self, text: &'a str) -> Option<[&'a str; 2]> {
        if !self.compact {
            return None;
        }
        let b = text.as_bytes();
        Some(match self.hash_at {
            None => [text, ""],
            Some((start, end)) => {
                // The member goes with the comma after it, or (the last member) the one before.
                let (start, end) = if b[end] == b',' {
                    (start, end + 1)
                } else if start > 1 {
                    (start - 1, end)
                } else {
                    (start, end)
                };
                [&text[..start], &text[end..]]
            }
        })
    }
}

/// A `result` line as the fast path reads it: every field checked as the full reader checks
/// it, the strings borrowed from the line (a million results cost no allocation but their
/// leads'). [`ResultRef::to_envelope`] is the event the full reader makes of the line.
#[derive(Clone, Debug)]
pub struct ResultRef<'a> {
    pub line: usize,
    pub seq: usize,
    pub at: Option<&'a str>,
    pub by: Option<&'a str>,
    pub note: Option<&'a str>,
    pub session: &'a str,
    pub section: Option<&'a str>,
    pub board: u32,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub ns: &'a str,
    pub ew: &'a str,
    /// The play but its lead (`lead` is `None` here).
    pub play: Play,
    pub lead: Option<&'a str>,
    pub match_id: Option<&'a str>,
    pub room: Option<Room>,
}

impl ResultRef<'_> {
    /// The event, owned: exactly what the full reader makes of the line.
    pub fn to_envelope(&self) -> Envelope {
        Envelope {
            line: self.line,
            seq: self.seq,
            at: self.at.map(str::to_string),
            by: self.by.map(str::to_string),
            note: self.note.map(str::to_string),
            event: Event::Result(ResultEv {
                session: self.session.to_string(),
                section: self.section.map(str::to_string),
                board: self.board,
                round: self.round,
                table: self.table,
                ns: self.ns.to_string(),
                ew: self.ew.to_string(),
                others: None,
                play: Play {
                    lead: self.lead.map(str::to_string),
                    ..self.play.clone()
                },
                match_id: self.match_id.map(str::to_string),
                room: self.room,
            }),
        }
    }
}

/// [`is_rfc3339`], remembering on each thread the last time found valid: the lines of a round
/// mostly carry the same `at`, and the answer depends on the text alone.
fn valid_at(at: &str) -> bool {
    thread_local! {
        static LAST: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    LAST.with(|last| {
        if !at.is_empty() && *last.borrow() == at {
            return true;
        }
        let ok = is_rfc3339(at);
        if ok {
            let mut l = last.borrow_mut();
            l.clear();
            l.push_str(at);
        }
        ok
    })
}

pub(super) fn fast_result(line: usize, seq: usize, text: &str) -> Option<Envelope> {
    fast_result_ref(line, seq, text).map(|(r, _)| r.to_envelope())
}

/// The fast path's reading of a `result` line, or `None` (the full reader decides); beside it,
/// the line's canonical text when the line is compact (see `ResultFields::canonical`).
pub(super) fn fast_result_ref(
    line: usize,
    seq: usize,
    text: &str,
) -> Option<(ResultRef<'_>, Option<[&str; 2]>)> {
    let r = ResultFields::scan(text)?;
    let canonical = r.canonical(text);
    let id_ok = |s: &str| !s.trim().is_empty();
    if r.ty != "result"
        || r.seq.is_some_and(|s| s as usize != seq)
        || r.at.is_some_and(|a| !valid_at(a))
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
        lead: None,
    };
    // (The lead is not checked: any text is a lead.)
    if !check_play(&play).is_empty() {
        return None;
    }
    let _ = r.hash;
    let r = ResultRef {
        line,
        seq,
        at: r.at,
        by: r.by,
        note: r.note,
        session: r.session,
        section: r.section,
        board: r.board as u32,
        round: r.round.map(|x| x as u32),
        table: r.table.map(|x| x as u32),
        ns: r.ns,
        ew: r.ew,
        play,
        lead: r.lead,
        match_id: r.match_id,
        room,
    };
    Some((r, canonical))
}
