//! JSON for the log: serde_json's parser, but a key given twice in one object is an error.
//!
//! serde_json keeps the last of duplicate keys. In an official record that is an ambiguity a
//! reader must not resolve silently: `{"type":"result", ..., "type":"session"}` would show one
//! event to a person reading the line (or to a `grep`) and another to the scorer. Every log line
//! and every appended event is parsed here.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Parse one JSON text; a key repeated in any object is an error naming the key.
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Strict>(text).map(|s| s.0)
}

/// Parse one JSON text from bytes, as [`parse`].
pub fn parse_slice(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    serde_json::from_slice::<Strict>(bytes).map(|s| s.0)
}

struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Strict::deserialize(d).map(|s| s.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let Strict(v) = map.next_value()?;
            if out.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "the key \"{}\" is given twice in one object (which one counts would be a guess)",
                    crate::error::clip(&key)
                )));
            }
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_values_as_serde_json() {
        for t in [
            r#"{"a":1,"b":-2,"c":1.5,"d":"x\u0065","e":[1,{"f":null}],"g":true,"h":-0,"i":1e23}"#,
            "18446744073709551615",
            "[]",
        ] {
            assert_eq!(
                parse(t).unwrap(),
                serde_json::from_str::<Value>(t).unwrap(),
                "{t}"
            );
        }
    }

    #[test]
    fn duplicate_keys_are_refused_at_any_depth() {
        for t in [
            r#"{"type":"result","type":"session"}"#,
            r#"{"type":"result","typ\u0065":"session"}"#,
            r#"{"options":{"a":1,"a":2}}"#,
            r#"[{"x":1,"x":1}]"#,
        ] {
            let e = parse(t).unwrap_err().to_string();
            assert!(e.contains("is given twice"), "{t}: {e}");
        }
    }
}

/// Scanning the plain tokens of a flat, compact line without building a tree (the reader's fast
/// path for `result` lines, the hash chain's canonical text): each function takes the line's
/// bytes and where the token starts, and gives where it ends, or `None` for anything it does
/// not vouch for (the caller then parses the line).
pub mod plain {
    /// A string at `i` (its opening quote) without escapes or control characters: the index
    /// after its closing quote. Its text is `i + 1 .. end - 1` (quotes are ASCII, so both ends
    /// are character boundaries).
    pub fn string_end(b: &[u8], i: usize) -> Option<usize> {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let mut j = i + 1;
        loop {
            match *b.get(j)? {
                b'"' => return Some(j + 1),
                b'\\' | 0..=0x1f => return None,
                _ => j += 1,
            }
        }
    }

    /// An integer at `i` as serde_json writes it back: no leading zeros, no `-0`, no fraction
    /// or exponent, at most 18 digits (so it fits an i64): the index after it.
    pub fn int_end(b: &[u8], i: usize) -> Option<usize> {
        let digits = i + usize::from(b.get(i) == Some(&b'-'));
        let mut j = digits;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        let n = j - digits;
        if n == 0 || n > 18 || (b[digits] == b'0' && (n > 1 || digits > i)) {
            return None;
        }
        if matches!(b.get(j), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        Some(j)
    }
}
