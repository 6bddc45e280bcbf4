//! Tamper evidence: every event written by `frekans append` carries `"hash"`, the hex SHA-256 of
//! the previous hashed event's hash (64 zeros for the first) followed by a newline and this
//! event's canonical text — the compact JSON of the event without its `hash` field, keys in the
//! order written. Altering a hashed line, or removing or inserting a line after the chain
//! starts, breaks the chain at that line. Hand-written logs without hashes stay valid: the chain
//! starts at the first hashed event (event-log.md, "Integrity").

use std::borrow::Cow;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The hash before the first link.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The canonical text of an event: compact JSON without `hash`, keys in their order.
pub fn canonical(map: &Map<String, Value>) -> String {
    let mut m = map.clone();
    // Order-preserving removal: the keys stay in the order written (docs/integrity.md).
    m.shift_remove("hash");
    serde_json::to_string(&Value::Object(m)).expect("a JSON object serializes")
}

/// The hash of an event given the previous link.
pub fn link(prev: &str, canonical: &str) -> String {
    let hex = link_hex(prev.as_bytes(), canonical.as_bytes());
    String::from_utf8(hex.to_vec()).expect("hex digits are ASCII")
}

/// [`link`] as 64 lowercase hex digits on the stack: the head of a million-event log is
/// walked without allocating per event (crate::integrity).
pub fn link_hex(prev: &[u8], canonical: &[u8]) -> [u8; 64] {
    link_parts(prev, [canonical, b""])
}

/// [`link_hex`] of a canonical text given in two pieces (a flat line either side of its `hash`
/// member: [`flat_parts`]), hashed where they lie.
pub fn link_parts(prev: &[u8], canonical: [&[u8]; 2]) -> [u8; 64] {
    let mut h = Sha256::new();
    h.update(prev);
    h.update(b"\n");
    h.update(canonical[0]);
    h.update(canonical[1]);
    let mut out = [0u8; 64];
    hex::encode_to_slice(h.finalize(), &mut out).expect("32 bytes are 64 digits");
    out
}

/// The hash written on a line and its canonical text, read straight off the line when it is a
/// flat compact object (what `frekans append` writes: no whitespace between tokens, strings
/// without escapes, integers without a sign on zero, no nesting): then the canonical text is the
/// line without its `hash` member — the line itself, borrowed, when it has none. `None` for
/// anything else (the caller parses the line).
pub fn flat_canonical(text: &str) -> Option<(Option<&str>, Cow<'_, str>)> {
    let (hash, [a, b]) = flat_parts(text)?;
    Some(if b.is_empty() && hash.is_none() {
        (None, Cow::Borrowed(a))
    } else {
        (hash, Cow::Owned([a, b].concat()))
    })
}

/// [`flat_canonical`] without a copy: the hash written on a flat compact line, and its canonical
/// text as the two pieces of the line either side of the `hash` member (the second empty when
/// the line has none).
pub fn flat_parts(text: &str) -> Option<(Option<&str>, [&str; 2])> {
    flat_parts_with(text, true)
}

/// [`flat_parts`] without its refusal of a key given twice: for the head of a log walked as
/// its lines are read (`event::read`), where such a line is refused by the reader and the log
/// has no head to give.
pub fn flat_parts_unchecked(text: &str) -> Option<(Option<&str>, [&str; 2])> {
    flat_parts_with(text, false)
}

fn flat_parts_with(text: &str, once: bool) -> Option<(Option<&str>, [&str; 2])> {
    let b = text.as_bytes();
    if b.first() != Some(&b'{') || b.last() != Some(&b'}') {
        return None;
    }
    // The keys seen, to refuse a repeated one: on the stack for the few keys an event has.
    let mut keys = Keys::default();
    // The `hash` member: its value, and where the member starts and ends.
    let mut hash: Option<(&str, usize, usize)> = None;
    let mut i = 1;
    use super::json::plain::{int_end, string_end as string};
    if b.get(1) == Some(&b'}') {
        return (b.len() == 2).then_some((None, [text, ""]));
    }
    loop {
        let k_end = string(b, i)?;
        let key = &text[i + 1..k_end - 1];
        if once && !keys.insert(key) {
            return None;
        }
        if b.get(k_end) != Some(&b':') {
            return None;
        }
        let v = k_end + 1;
        let v_end = match *b.get(v)? {
            b'"' => string(b, v)?,
            // Integers as serde writes them back (it would print `-0` as `0`).
            b'-' | b'0'..=b'9' => int_end(b, v)?,
            b't' if text[v..].starts_with("true") => v + 4,
            b'f' if text[v..].starts_with("false") => v + 5,
            b'n' if text[v..].starts_with("null") => v + 4,
            _ => return None,
        };
        if key == "hash" {
            if b[v] != b'"' {
                return None;
            }
            hash = Some((&text[v + 1..v_end - 1], i, v_end));
        }
        match b.get(v_end) {
            Some(b',') => i = v_end + 1,
            Some(b'}') if v_end + 1 == b.len() => break,
            _ => return None,
        }
    }
    Some(match hash {
        None => (None, [text, ""]),
        Some((h, start, end)) => {
            // The member goes with the comma after it, or (the last member) the one before.
            let (start, end) = if b[end] == b',' {
                (start, end + 1)
            } else if start > 1 {
                (start - 1, end)
            } else {
                (start, end)
            };
            (Some(h), [&text[..start], &text[end..]])
        }
    })
}

/// The keys of one flat line: the first [`Keys::INLINE`] on the stack, any more in a vector.
#[derive(Default)]
struct Keys<'a> {
    inline: [&'a str; Keys::INLINE],
    n: usize,
    more: Vec<&'a str>,
}

impl<'a> Keys<'a> {
    const INLINE: usize = 24;

    /// Add `key`; `false` when it was there already.
    fn insert(&mut self, key: &'a str) -> bool {
        // Lengths and first bytes first: most keys differ there.
        let same = |k: &&str| {
            k.len() == key.len() && k.as_bytes().first() == key.as_bytes().first() && *k == key
        };
        if self.inline[..self.n].iter().any(same) || self.more.iter().any(same) {
            return false;
        }
        if self.n < Self::INLINE {
            self.inline[self.n] = key;
            self.n += 1;
        } else {
            self.more.push(key);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digest() {
        // sha256("0…0\n{}") computed independently (python3 hashlib).
        assert_eq!(
            link(GENESIS, "{}"),
            "5649d09ed68c17156095d175eef152856c5b1a81c117c409c1e00f096aa6838e"
        );
        assert_ne!(link(GENESIS, "{}"), link(GENESIS, "{ }"));
    }

    /// On thousands of generated one-level objects (keys and values of every JSON kind, with
    /// and without spaces, escapes, repeated keys, `hash` anywhere), whenever the flat reading
    /// gives a canonical text it is the parsed line's, and its hash the parsed one.
    #[test]
    fn flat_canonical_agrees_with_the_parser_on_generated_lines() {
        // The project's own generator (synth's SplitMix64), seeded for repeatable cases.
        let mut rng = crate::synth::Rng::new(2026);
        let mut rnd = |n: usize| rng.below(n as u32) as usize;
        let keys = ["type", "hash", "a", "b", "note", "Ż", "seq"];
        let values = [
            r#""x""#,
            r#""Żółć €""#,
            r#""a\"b""#,
            r#""\u0041""#,
            "0",
            "-0",
            "7",
            "-20",
            "012",
            "1.5",
            "1e3",
            "123456789012345678",
            "1234567890123456789",
            "true",
            "false",
            "null",
            "[]",
            "{}",
            r#""""#,
            r#""abc""#,
        ];
        let (mut read, mut total) = (0, 0);
        for _ in 0..20_000 {
            let n = rnd(5);
            let mut parts = Vec::new();
            for _ in 0..n {
                let sep = if rnd(10) == 0 { ": " } else { ":" };
                parts.push(format!(
                    "\"{}\"{sep}{}",
                    keys[rnd(keys.len())],
                    values[rnd(values.len())]
                ));
            }
            let join = if rnd(10) == 0 { ", " } else { "," };
            let line = format!("{{{}}}", parts.join(join));
            total += 1;
            let Some((hash, c)) = flat_canonical(&line) else {
                continue;
            };
            read += 1;
            let parsed = crate::event::json::parse(&line);
            let Ok(serde_json::Value::Object(map)) = parsed else {
                panic!("{line}: read flat, but the parser refuses it: {parsed:?}");
            };
            assert_eq!(c, canonical(&map), "{line}");
            assert_eq!(hash, map.get("hash").and_then(|h| h.as_str()), "{line}");
            assert!(map.get("hash").is_none_or(|h| h.is_string()), "{line}");
        }
        assert!(read > total / 10, "{read} of {total} read flat");
    }

    /// The canonical text read off a flat compact line is what serializing the parsed line
    /// gives; anything not flat and compact is left to the parser.
    #[test]
    fn flat_canonical_equals_the_parsed_canonical() {
        let lines = [
            r#"{"type":"result","session":"S1","board":7,"ns":"A1","ew":"A2","contract":"4S","declarer":"N","result":"=","hash":"ab"}"#,
            r#"{"hash":"x","type":"ruling","id":"R1","score":"60% 4H= & 40% 4H-1","note":"Żółć","seq":12,"ok":true,"n":null,"neg":-20}"#,
            r#"{"type":"pair","id":"P1"}"#,
            r#"{}"#,
        ];
        for l in lines {
            let serde_json::Value::Object(map) = crate::event::json::parse(l).unwrap() else {
                unreachable!()
            };
            let (hash, c) = flat_canonical(l).unwrap_or_else(|| panic!("{l}"));
            assert_eq!(c, canonical(&map), "{l}");
            assert_eq!(hash, map.get("hash").and_then(|h| h.as_str()), "{l}");
        }
        for l in [
            r#"{"type": "pair"}"#,
            r#"{"a":"x\u0041"}"#,
            r#"{"a":-0}"#,
            r#"{"a":01}"#,
            r#"{"a":1.5}"#,
            r#"{"a":1e3}"#,
            r#"{"a":{"b":1}}"#,
            r#"{"a":[1]}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"hash":5}"#,
            r#"{"a":1} "#,
            r#"{"a":1}}"#,
            r#"{"a":1,}"#,
        ] {
            assert!(flat_canonical(l).is_none(), "{l}");
        }
    }
}
