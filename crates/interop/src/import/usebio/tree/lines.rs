//! A traveller line's children read straight from the text, when they are of the plain shape
//! nearly every producer writes (`<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>`, one after another,
//! white space between): the line's fields set as the reading event by event sets them, and the
//! reader sent on to the line's end tag. A big file's parts ([`super::split`]) read their
//! lines this way: 40 events of quick-xml and of the builder per line were most of the time
//! of reading a file (measured below, in the note of `line_body`).
//!
//! What is read this way is exactly what the event-by-event reading reads without error and
//! without any step it does differently: start tags without attributes and end tags naming the
//! element just opened, with a name of ASCII letters, digits, `_`, `.` and `-` (a letter or
//! `_` first); empty elements (`<SCORE/>`); texts without references (`&`) or markup. Anything
//! else in a line (a comment, CDATA, an attribute, a reference, an element inside a field, a
//! tag with white space, the end of the text) leaves the line to the event-by-event reading,
//! from its start, nothing changed. The split reading's tests compare the two readings' trees.

use super::{field, Builder, Frame, FIELDS};

/// An element with more than 4 GB of traveller lines (their fields' offsets are 32 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("more than 4 GB of traveller lines in one element")]
pub(super) struct TooLong;

/// A name of the plain shape at the start of `bytes`: its length, `None` when there is none.
fn name_len(bytes: &[u8]) -> Option<usize> {
    let first = *bytes.first()?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    Some(
        bytes
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-')))
            .unwrap_or(bytes.len()),
    )
}

/// `name`'s end tag (`</name>`) at the start of `bytes`.
fn ends(bytes: &[u8], name: &[u8]) -> bool {
    bytes.len() > name.len() + 2
        && bytes.starts_with(b"</")
        && bytes[2..].starts_with(name)
        && bytes[2 + name.len()] == b'>'
}

impl Builder<'_> {
    /// The children of the traveller line just opened (its start tag read, its frame on top of
    /// the stack) from `at`, read straight from the text when they are of the plain shape
    /// (see the module's documentation): the line's fields and its parent's `line_text` set as
    /// the event-by-event reading sets them (a field's text is the first of its name, trimmed,
    /// kept from the start of the text to the end of the trimmed text), and the place of the
    /// `<` of the line's end tag returned, for the reader to read on from. `None`, and nothing
    /// changed, when the line is not of that shape.
    ///
    /// (Measured on the 476 MB USEBIO file of 1.2 million lines: the parts' reading of the
    /// tree took 1.9–2.0 s, of which quick-xml's own events are about a quarter.)
    pub(super) fn line_body(&mut self, at: usize) -> Option<usize> {
        let text = self.text;
        let bytes = text.as_bytes();
        // The first child of each field's name, in the order read: (field, text's span).
        let mut first: [(usize, usize, usize); FIELDS.len()] = [(0, 0, 0); FIELDS.len()];
        let mut n = 0;
        let mut seen: u16 = 0;
        // Every `<` from `at` on, in order: each child's start tag and end tag, then the
        // line's end tag. (One scan of the line: searched apart, the short texts between them
        // cost more to search than to read.)
        let mut lts = memchr::memchr_iter(b'<', bytes.get(at..)?).map(|p| at + p);
        let end = loop {
            // (the text before it, between the children, is not read)
            let lt = lts.next()?;
            if ends(&bytes[lt..], b"TRAVELLER_LINE") {
                break lt;
            }
            let name_at = lt + 1;
            let name_end = name_at + name_len(&bytes[name_at..])?;
            let name = &text[name_at..name_end];
            // The child's text: (start, end).
            let span = match bytes.get(name_end..name_end + 2)? {
                [b'/', b'>'] => (name_end, name_end),
                [b'>', _] => {
                    let to = lts.next()?;
                    if !ends(&bytes[to..], name.as_bytes()) {
                        return None;
                    }
                    (name_end + 1, to)
                }
                _ => return None,
            };
            if let Some(f) = field(name) {
                if seen & (1 << f) == 0 {
                    first[n] = (f, span.0, span.1);
                    n += 1;
                }
                seen |= 1 << f;
            }
        };
        // No reference anywhere in it.
        if memchr::memchr(b'&', &bytes[at..end]).is_some() {
            return None;
        }
        let [.., Frame::El(el, _), Frame::Line(t, line_seen, _)] = self.stack.as_mut_slice() else {
            return None;
        };
        if *line_seen != 0 {
            return None;
        }
        // (the spans are u32: as the event-by-event reading, refuse beyond)
        let more: usize = first[..n].iter().map(|&(_, a, b)| b - a).sum();
        if u32::try_from(el.line_text.len() + more).is_err() {
            return None;
        }
        for &(f, a, b) in &first[..n] {
            let whole = &text[a..b];
            let trimmed = whole.trim();
            if trimmed.is_empty() {
                continue;
            }
            let lead = trimmed.as_ptr() as usize - whole.as_ptr() as usize;
            let start = el.line_text.len();
            el.line_text.push_str(&whole[..lead + trimmed.len()]);
            t.fields[f] = ((start + lead) as u32, el.line_text.len() as u32);
        }
        *line_seen = seen;
        Some(end)
    }
}
