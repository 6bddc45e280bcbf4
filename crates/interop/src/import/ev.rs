//! The events a reader makes, as `import` carries them to the log, and their sealing into the
//! log's lines. An event is a JSON object ([`Ev::Json`]), or — the bulk of a file, its tables'
//! results and artificial scores — a [`Row`]: the event already in the log's compact text,
//! written straight into its line when sealed (no JSON map per table, as `synth` writes
//! lines). Rows and objects alike are written by the log's one line writer (`event::line`):
//! sealing (seq, `at`, the hash chain) gives the very bytes `event::append` gives the same
//! events as JSON objects.

use serde_json::{Map, Value};

use crate::event::chain;
use crate::event::line::{canonical as canonical_text, push_chained, Line};

/// One event of an import.
#[derive(Clone, Debug)]
pub enum Ev {
    /// Any event, as a JSON value (a reader makes objects only).
    Json(Value),
    /// A table's `result` or artificial score (`ruling`) in compact text.
    Row(Row),
}

/// A `result` or `ruling` event as text: `{"type":KIND[,"id":ID],"session":SESSION` then
/// `tail`, then `}`.
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// `true`: a `ruling` (it has an `id` once numbered); `false`: a `result`.
    pub ruling: bool,
    pub id: Option<String>,
    pub session: String,
    /// The members after `session`, each `,"key":value`, as serde_json writes them.
    pub tail: String,
}

impl Row {
    pub fn new(ruling: bool) -> Row {
        Row::with_capacity(ruling, 112)
    }

    /// A row whose members will take about `tail` bytes.
    pub fn with_capacity(ruling: bool, tail: usize) -> Row {
        Row {
            ruling,
            id: None,
            session: String::new(),
            tail: String::with_capacity(tail),
        }
    }

    /// Adds `,"key":"value"`.
    pub fn str(&mut self, key: &'static str, value: &str) -> &mut Row {
        Line::resume(&mut self.tail).str(key, value);
        self
    }

    /// Adds `,"key":n`.
    /// A table's sides: `ns`, `ew`; an individual table's four players, `north`, `south`,
    /// `east`, `west` (as docs/event-log.md orders them), North and East being `ns` and `ew`.
    pub fn sides(&mut self, ns: &str, ew: &str, others: Option<[&str; 2]>) -> &mut Row {
        match others {
            Some([s, w]) => self
                .str("north", ns)
                .str("south", s)
                .str("east", ew)
                .str("west", w),
            None => self.str("ns", ns).str("ew", ew),
        }
    }

    pub fn num(&mut self, key: &'static str, n: i64) -> &mut Row {
        Line::resume(&mut self.tail).int(key, n);
        self
    }

    /// Adds `,"key":value`.
    pub fn value(&mut self, key: &str, value: &Value) -> &mut Row {
        Line::resume(&mut self.tail).value(key, value);
        self
    }

    fn kind(&self) -> &'static str {
        if self.ruling {
            "ruling"
        } else {
            "result"
        }
    }

    /// The event's compact text, `seq` and `at` as `event::append` writes them.
    fn canonical(&self, seq: usize, now: &str) -> String {
        let mut out = String::with_capacity(self.tail.len() + 96);
        let mut l = Line::new(&mut out, self.kind());
        l.int("seq", seq as i64);
        if let Some(id) = &self.id {
            l.str("id", id);
        }
        l.str("session", &self.session)
            .members(&self.tail)
            .str("at", now);
        l.close();
        out
    }

    /// The event as a JSON object (keys in their order).
    pub fn to_map(&self) -> Map<String, Value> {
        let mut text = String::with_capacity(self.tail.len() + 64);
        let mut l = Line::new(&mut text, self.kind());
        if let Some(id) = &self.id {
            l.str("id", id);
        }
        l.str("session", &self.session).members(&self.tail);
        l.close();
        serde_json::from_str(&text).expect("a row's text is a JSON object")
    }
}

impl Ev {
    pub fn from_value(v: Value) -> Ev {
        Ev::Json(v)
    }

    /// The event as a JSON value.
    pub fn to_value(&self) -> Value {
        match self {
            Ev::Json(v) => v.clone(),
            Ev::Row(r) => Value::Object(r.to_map()),
        }
    }

    /// The event as a JSON object (an empty one for a value that is not).
    pub fn to_map(&self) -> Map<String, Value> {
        match self {
            Ev::Json(Value::Object(m)) => m.clone(),
            Ev::Json(_) => Map::new(),
            Ev::Row(r) => r.to_map(),
        }
    }

    /// Its `type`.
    pub fn kind(&self) -> &str {
        match self {
            Ev::Json(v) => v.get("type").and_then(Value::as_str).unwrap_or(""),
            Ev::Row(r) => r.kind(),
        }
    }
}

/// Why sealing stopped: an event the log cannot hold (its index, the field and what was
/// expected), or the sink's error.
#[derive(Debug)]
pub enum SealError {
    Event(usize, &'static str, String),
    Io(std::io::Error),
}

/// The lines of `events` sealed one after another as the events after a log of `before`
/// events whose chain ends at `prev` (`event::append::seal_all` for these events): the text to
/// write, each line ending in a newline. The texts are made in parallel batches, then chained
/// in order. `Err`: the event's index, the field and what was expected.
pub fn seal_all(
    events: &[Ev],
    before: usize,
    prev: Option<&str>,
    now: &str,
) -> Result<String, (usize, &'static str, String)> {
    let mut out = String::new();
    let r = seal_to(events, before, prev, now, |batch: String| {
        if out.is_empty() {
            // (the first batch's lines tell the size of all)
            let per = batch.len() / BATCH.min(events.len()).max(1) + 1;
            out.reserve(per * events.len() + batch.len());
        }
        out.push_str(&batch);
        Ok(())
    });
    match r {
        Ok(()) => Ok(out),
        Err(SealError::Event(i, f, m)) => Err((i, f, m)),
        Err(SealError::Io(e)) => unreachable!("a String takes any text: {e}"),
    }
}

/// Events sealed per batch.
const BATCH: usize = 16 * 1024;

/// [`seal_all`] handing the text to `sink` a batch of lines at a time, in order (a million
/// events' text is never held whole here). Pipelined: a batch's texts are made in parallel
/// while the batch before is chained (SHA-256 of each line, in order) and handed to the sink,
/// which may write it while the next is made.
pub fn seal_to(
    events: &[Ev],
    before: usize,
    prev: Option<&str>,
    now: &str,
    mut sink: impl FnMut(String) -> std::io::Result<()> + Send,
) -> Result<(), SealError> {
    use rayon::prelude::*;
    let mut prev: Vec<u8> = prev.unwrap_or(chain::GENESIS).as_bytes().to_vec();
    let batches: Vec<&[Ev]> = events.chunks(BATCH).collect();
    let texts = |b: usize| -> Result<Vec<String>, SealError> {
        let first = b * BATCH;
        batches[b]
            .par_iter()
            .enumerate()
            .map(|(i, e)| {
                let i = first + i;
                let seq = before + i + 1;
                match e {
                    Ev::Row(r) => Ok(r.canonical(seq, now)),
                    Ev::Json(Value::Object(m)) => {
                        canonical_text(m, seq, now).map_err(|(f, m)| SealError::Event(i, f, m))
                    }
                    Ev::Json(_) => Err(SealError::Event(
                        i,
                        "type",
                        "expected a JSON object".to_string(),
                    )),
                }
            })
            .collect()
    };
    let mut chained = |texts: Vec<String>| -> Result<(), SealError> {
        let mut out = String::with_capacity(texts.iter().map(|t| t.len() + 80).sum());
        push_chained(&mut out, &mut prev, &texts);
        drop(texts);
        sink(out).map_err(SealError::Io)
    };
    // (the texts of batch `b`, while those of batch `b - 1` are chained and handed on)
    let mut pending: Option<Vec<String>> = None;
    for b in 0..=batches.len() {
        let (made, handed) = rayon::join(
            || (b < batches.len()).then(|| texts(b)).transpose(),
            || pending.take().map_or(Ok(()), &mut chained),
        );
        handed?;
        pending = made?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row seals to the very line `event::append` writes for the same event as a JSON object.
    #[test]
    fn a_row_seals_as_its_object_does() {
        let mut r = Row::new(true);
        r.num("board", 3)
            .str("ns", "A\"1")
            .str("ew", "Ż\n2")
            .num("score", -50);
        r.id = Some("R7".into());
        r.session = "S2".into();
        let m = r.to_map();
        let keys: Vec<_> = m.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["type", "id", "session", "board", "ns", "ew", "score"]
        );
        let rows = seal_all(&[Ev::Row(r.clone()), Ev::Row(r)], 4, None, "T").unwrap();
        let objects = crate::event::append::seal_all(&[m.clone(), m], 4, None, "T").unwrap();
        assert_eq!(rows, objects);
    }

    /// Sealed a batch at a time (pipelined), events over several batches give the very text
    /// `event::append` gives them whole, one chain through all; the first event the log cannot
    /// hold is the one reported, in whichever batch it falls.
    #[test]
    fn batches_seal_as_one() {
        let n = 2 * BATCH + 3;
        let events: Vec<Ev> = (0..n)
            .map(|i| {
                let mut r = Row::new(false);
                r.session = "S1".into();
                r.num("board", (i % 30 + 1) as i64)
                    .str("ns", &format!("N{i}"))
                    .str("ew", &format!("E{i}"));
                Ev::Row(r)
            })
            .collect();
        let maps: Vec<_> = events.iter().map(Ev::to_map).collect();
        let rows = seal_all(&events, 9, Some("ab"), "T").unwrap();
        let objects = crate::event::append::seal_all(&maps, 9, Some("ab"), "T").unwrap();
        assert_eq!(rows.lines().count(), n);
        assert_eq!(rows, objects);
        let mut bad = events.clone();
        bad[BATCH + 5] = Ev::Json(Value::Null);
        bad[2 * BATCH + 1] = Ev::Json(Value::Null);
        let e = seal_all(&bad, 0, None, "T").unwrap_err();
        assert_eq!(e.0, BATCH + 5);
    }
}
