//! The log's line: the one writer of an event's text, used by every writer of the log —
//! `frekans append` (`event::append`, from a JSON object), `import` (its rows written straight
//! into their lines) and `synth` (a million lines written without a JSON map). The hash chain
//! links the very bytes written (docs/integrity.md), so these must agree byte for byte; they
//! agree by being one writer.
//!
//! An event's line is compact JSON as serde_json writes it: `{`, `"type"` first, then `"seq"`
//! (sealed lines), the other members in their order, `"at"`, `}`; a sealed line then has
//! `"hash"` as its last member ([`push_sealed`]), the link of the text without it. Strings are
//! escaped as serde_json escapes them ([`string`]), integers written as it writes them.
//!
//! The text goes into a `String` or a `Vec<u8>` ([`Buf`]): import keeps its rows as strings,
//! synth writes bytes to its sink.

use serde_json::{Map, Value};

/// Where a line's text goes: a `String` or bytes.
pub trait Buf {
    fn put(&mut self, s: &str);
    /// One ASCII byte.
    fn put_ascii(&mut self, b: u8);
    /// ASCII digits.
    fn put_digits(&mut self, d: &[u8]);
    /// A JSON value as serde_json writes it (compact).
    fn put_value(&mut self, v: &Value);
    /// `"s"`: `s` needs no escape.
    #[inline(always)]
    fn put_quoted(&mut self, s: &str) {
        self.put_ascii(b'"');
        self.put(s);
        self.put_ascii(b'"');
    }
    /// `,"k":` (or `"k":` when not `comma`): `k` needs no escape.
    #[inline(always)]
    fn put_key(&mut self, comma: bool, k: &str) {
        if comma {
            self.put_ascii(b',');
        }
        self.put_quoted(k);
        self.put_ascii(b':');
    }
}

impl Buf for String {
    #[inline]
    fn put(&mut self, s: &str) {
        self.push_str(s);
    }
    #[inline]
    fn put_ascii(&mut self, b: u8) {
        debug_assert!(b.is_ascii());
        self.push(b as char);
    }
    #[inline]
    fn put_digits(&mut self, d: &[u8]) {
        self.push_str(std::str::from_utf8(d).expect("digits are ASCII"));
    }
    fn put_value(&mut self, v: &Value) {
        self.push_str(&serde_json::to_string(v).expect("a JSON value serializes"));
    }
}

impl Buf for Vec<u8> {
    #[inline]
    fn put(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }
    #[inline]
    fn put_ascii(&mut self, b: u8) {
        self.push(b);
    }
    #[inline]
    fn put_digits(&mut self, d: &[u8]) {
        self.extend_from_slice(d);
    }
    fn put_value(&mut self, v: &Value) {
        serde_json::to_writer(&mut *self, v).expect("a JSON value serializes to memory");
    }
    #[inline(always)]
    fn put_quoted(&mut self, s: &str) {
        self.reserve(s.len() + 2);
        self.push(b'"');
        self.extend_from_slice(s.as_bytes());
        self.push(b'"');
    }
    #[inline(always)]
    fn put_key(&mut self, comma: bool, k: &str) {
        self.reserve(k.len() + 4);
        if comma {
            self.push(b',');
        }
        self.push(b'"');
        self.extend_from_slice(k.as_bytes());
        self.extend_from_slice(b"\":");
    }
}

/// The bytes a JSON string holds as they are (serde_json escapes `"`, `\` and the control
/// characters, and nothing else): one load a byte where three comparisons were.
static PLAIN: [bool; 256] = {
    let mut t = [true; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = false;
        b += 1;
    }
    t[b'"' as usize] = false;
    t[b'\\' as usize] = false;
    t
};

#[inline(always)]
fn plain(b: u8) -> bool {
    PLAIN[b as usize]
}

/// `s` as a JSON string, escaped as serde_json escapes it: `"` and `\`, the short escapes
/// `\b \f \n \r \t`, every other control character as `\u00xx`; nothing else.
///
/// (The fast path, nearly every string of a log, is inlined and copies the string whole; the
/// escaping is a function of its own, so that the fast path does not pay its frame: synth's
/// million lines spent a fifth of their time here when it was one function.)
#[inline(always)]
pub fn string<B: Buf + ?Sized>(out: &mut B, s: &str) {
    if s.bytes().all(plain) {
        out.put_quoted(s);
    } else {
        escaped(out, s);
    }
}

/// [`string`] of a string with something to escape.
#[cold]
#[inline(never)]
fn escaped<B: Buf + ?Sized>(out: &mut B, s: &str) {
    out.put_ascii(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        // (an escape starts at an ASCII byte: both ends are char boundaries)
        out.put(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.put("\\u00");
            out.put_ascii(HEX[(b >> 4) as usize]);
            out.put_ascii(HEX[(b & 15) as usize]);
        } else {
            out.put(esc);
        }
        start = i + 1;
    }
    out.put(&s[start..]);
    out.put_ascii(b'"');
}

/// An integer as serde_json writes it.
#[inline]
pub fn int<B: Buf + ?Sized>(out: &mut B, n: i64) {
    if n < 0 {
        out.put_ascii(b'-');
    }
    let mut n = n.unsigned_abs();
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.put_digits(&tmp[i..]);
}

/// One event's JSON object being written: members added in order, each `"key":value`, the
/// commas between them; [`Line::close`] ends it.
pub struct Line<'a, B: Buf + ?Sized> {
    pub out: &'a mut B,
    /// A member is written (the next one needs a comma).
    open: bool,
}

impl<'a, B: Buf + ?Sized> Line<'a, B> {
    /// `{` with no member yet.
    #[inline]
    pub fn empty(out: &'a mut B) -> Line<'a, B> {
        out.put_ascii(b'{');
        Line { out, open: false }
    }

    /// `{"type":TYPE`: an event's line begins with its type.
    #[inline]
    pub fn new(out: &'a mut B, ty: &str) -> Line<'a, B> {
        let mut l = Line::empty(out);
        l.str("type", ty);
        l
    }

    /// An object already begun in `out` with at least one member (members follow it).
    #[inline]
    pub fn resume(out: &'a mut B) -> Line<'a, B> {
        Line { out, open: true }
    }

    /// `,"key":` for a key the program spells (a literal, known to need no escape: the
    /// members of synth's million lines and import's rows are not scanned for escapes).
    #[inline(always)]
    pub fn lit(&mut self, k: &'static str) -> &mut Self {
        debug_assert!(k.bytes().all(plain), "a literal key needs no escape: {k:?}");
        self.out.put_key(self.open, k);
        self.open = true;
        self
    }

    /// `,"key":` (the value is the caller's to write, as JSON).
    #[inline]
    pub fn key(&mut self, k: &str) -> &mut Self {
        if k.bytes().all(plain) {
            self.out.put_key(self.open, k);
        } else {
            if self.open {
                self.out.put_ascii(b',');
            }
            escaped(self.out, k);
            self.out.put_ascii(b':');
        }
        self.open = true;
        self
    }

    #[inline]
    pub fn str(&mut self, k: &'static str, v: &str) -> &mut Self {
        self.lit(k);
        string(self.out, v);
        self
    }

    #[inline]
    pub fn int(&mut self, k: &'static str, v: i64) -> &mut Self {
        self.lit(k);
        int(self.out, v);
        self
    }

    /// A member whose value is JSON text already (compact, as serde_json writes it).
    #[inline]
    pub fn raw(&mut self, k: &'static str, json: &str) -> &mut Self {
        self.lit(k);
        self.out.put(json);
        self
    }

    /// A member whose value is a JSON value.
    pub fn value(&mut self, k: &str, v: &Value) -> &mut Self {
        self.key(k);
        match v {
            Value::String(s) => string(self.out, s),
            Value::Number(n) if n.is_i64() => int(self.out, n.as_i64().expect("an i64")),
            v => self.out.put_value(v),
        }
        self
    }

    /// An array of strings.
    pub fn strs<S: AsRef<str>>(&mut self, k: &'static str, vs: &[S]) -> &mut Self {
        self.lit(k);
        self.out.put_ascii(b'[');
        for (i, v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.put_ascii(b',');
            }
            string(self.out, v.as_ref());
        }
        self.out.put_ascii(b']');
        self
    }

    /// Members written already as text, each `,"key":value` (after at least one member).
    #[inline]
    pub fn members(&mut self, text: &str) -> &mut Self {
        debug_assert!(self.open && (text.is_empty() || text.starts_with(',')));
        self.out.put(text);
        self
    }

    /// `}`.
    #[inline]
    pub fn close(self) {
        self.out.put_ascii(b'}');
    }
}

/// The canonical text of `obj` as the event at `seq` (what is hashed; the line without its
/// `hash`): `type`, `seq`, the other fields in their order (any `hash` dropped), `at` (`now`
/// unless given). A `seq` given that is not `seq` is refused (the field and what was
/// expected).
pub fn canonical(
    obj: &Map<String, Value>,
    seq: usize,
    now: &str,
) -> Result<String, (&'static str, String)> {
    let mut out: Vec<u8> = Vec::with_capacity(256);
    let mut l = Line::empty(&mut out);
    if let Some(t) = obj.get("type") {
        l.value("type", t);
    }
    l.int("seq", seq as i64);
    for (k, v) in obj {
        match k.as_str() {
            "type" | "hash" => continue,
            "seq" if v.as_u64() != Some(seq as u64) => {
                return Err((
                    "seq",
                    format!("expected {seq} (the next position in the log) or nothing, found {v}"),
                ));
            }
            "seq" => continue,
            _ => {}
        }
        l.value(k, v);
    }
    if !obj.contains_key("at") {
        l.str("at", now);
    }
    l.close();
    Ok(String::from_utf8(out).expect("the line writer writes UTF-8"))
}

/// The sealed line of the canonical text `canonical`: `"hash":"…"` added as its last member,
/// as serde writes it (no newline).
pub fn push_sealed(out: &mut String, canonical: &str, hash: &str) {
    out.push_str(&canonical[..canonical.len() - 1]);
    if canonical.len() > 2 {
        out.push(',');
    }
    out.push_str("\"hash\":\"");
    out.push_str(hash);
    out.push_str("\"}");
}

/// Each canonical text of `texts` as a sealed line of `out` (each ending in a newline), chained
/// from the link `prev` (left at the last line's link).
pub fn push_chained(out: &mut String, prev: &mut Vec<u8>, texts: &[String]) {
    for t in texts {
        let h = super::chain::link_hex(prev, t.as_bytes());
        push_sealed(
            out,
            t,
            std::str::from_utf8(&h).expect("hex digits are ASCII"),
        );
        out.push('\n');
        prev.clear();
        prev.extend_from_slice(&h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings and keys as serde_json writes them: every control character, quotes,
    /// backslashes, DEL, non-ASCII and the line separators it leaves as they are.
    #[test]
    fn strings_are_serdes() {
        let mut all: String = (0u8..0x80).map(char::from).collect();
        all.push_str("Żółć \u{2028}\u{2029}\u{feff}😀 \\\"");
        for s in ["", "plain", all.as_str(), "\n", "a\"b", "\\", "x\u{1b}[2K"] {
            let mut a = String::new();
            string(&mut a, s);
            let mut b: Vec<u8> = Vec::new();
            string(&mut b, s);
            let want = serde_json::to_string(s).unwrap();
            assert_eq!(a, want);
            assert_eq!(b, want.as_bytes());
        }
        for n in [0i64, 7, -7, 1_234_567_890, i64::MIN, i64::MAX] {
            let mut a = String::new();
            int(&mut a, n);
            assert_eq!(a, serde_json::to_string(&n).unwrap());
        }
    }

    /// An object written member by member is what serde_json writes of it.
    #[test]
    fn lines_are_serdes() {
        let v: Value = serde_json::json!({
            "type": "pair", "id": "Ż\"1", "n": -3, "big": u64::MAX, "x": 2.5,
            "players": ["A", "B\n"], "o": {"a": [1, null, true]}, "k\u{1}": "v"
        });
        let m = v.as_object().unwrap();
        let mut out = String::new();
        let mut l = Line::new(&mut out, "pair");
        for (k, v) in m.iter().skip(1) {
            l.value(k, v);
        }
        l.close();
        assert_eq!(out, serde_json::to_string(&v).unwrap());
        let mut bytes: Vec<u8> = Vec::new();
        let mut l = Line::new(&mut bytes, "pair");
        l.str("id", "Ż\"1").int("n", -3);
        l.close();
        let mut text = String::new();
        let mut l = Line::new(&mut text, "pair");
        l.str("id", "Ż\"1");
        let mut l = Line::resume(l.out);
        l.members(",\"n\":-3");
        l.close();
        assert_eq!(bytes, text.as_bytes());
        let mut e = String::new();
        Line::empty(&mut e).close();
        assert_eq!(e, "{}");
    }
}
