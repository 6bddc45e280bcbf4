//! Text from the log made harmless to show: the one escaping function every text output uses
//! (the command line's standard output and errors, the bulletin's data), so that a name, id,
//! note or ruling text holding an escape sequence (`ESC [2K`, OSC 0/52, a bare CR) can neither
//! erase, rewrite or spoof what a director's terminal shows, nor set the clipboard, nor be
//! invisible in the PDF.
//!
//! A control character (U+0000–U+001F, DEL, U+0080–U+009F) or a bidirectional formatting character (which reorders
//! what is shown around it) is written as Rust writes it in a string literal, `\u{1b}`; every
//! other character is kept.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Is `c` shown escaped?
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

fn escape_if(s: &str, esc: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(&esc) {
        return Cow::Borrowed(s);
    }
    let mut o = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if esc(c) {
            let _ = write!(o, "\\u{{{:x}}}", c as u32);
        } else {
            o.push(c);
        }
    }
    Cow::Owned(o)
}

/// `s` with every control and bidirectional formatting character escaped (`\u{1b}`), line
/// breaks and tabs included: for one value (a name, an id, a note).
pub fn escape(s: &str) -> Cow<'_, str> {
    escape_if(s, hidden)
}

/// [`escape`] for a whole text the program prints (a report, an error list): its own line
/// breaks and tabs kept, every other control character escaped.
pub fn escape_output(s: &str) -> Cow<'_, str> {
    escape_if(s, |c| hidden(c) && c != '\n' && c != '\t')
}

/// JSON text (serde_json's, which escapes only the controls below U+0020) with every other hidden character
/// (DEL, U+0080–U+009F, bidirectional formatting) written as a JSON escape (`\u009b`): the same JSON
/// value, nothing a terminal obeys.
pub fn escape_json_text(s: &str) -> Cow<'_, str> {
    if !s.chars().any(hidden) {
        return Cow::Borrowed(s);
    }
    let mut o = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if hidden(c) && c != '\n' && c != '\t' {
            let _ = write!(o, "\\u{:04x}", c as u32);
        } else {
            o.push(c);
        }
    }
    Cow::Owned(o)
}

/// Every string of `v` (the bulletin's data) [`escape`]d, so that the PDF shows them as text.
pub fn escape_json(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::String(s) => {
            if let Cow::Owned(e) = escape(s) {
                *s = e;
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(escape_json),
        serde_json::Value::Object(m) => {
            if m.keys().any(|k| matches!(escape(k), Cow::Owned(_))) {
                *m = std::mem::take(m)
                    .into_iter()
                    .map(|(k, v)| (escape(&k).into_owned(), v))
                    .collect();
            }
            m.values_mut().for_each(escape_json)
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_a_terminal_obeys() {
        assert_eq!(escape("a\u{1b}[2K\rb"), "a\\u{1b}[2K\\u{d}b");
        assert_eq!(escape("\u{1b}]52;c;eA==\u{7}"), "\\u{1b}]52;c;eA==\\u{7}");
        assert_eq!(escape("x\u{9b}1A\u{7f}"), "x\\u{9b}1A\\u{7f}");
        assert_eq!(escape("a\u{202e}b"), "a\\u{202e}b");
        assert_eq!(escape("a\nb\tc"), "a\\u{a}b\\u{9}c");
        assert_eq!(escape_output("a\nb\tc\u{1b}"), "a\nb\tc\\u{1b}");
        assert!(matches!(escape("Zażółć Сергей אסף ♥"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_text_keeps_its_value() {
        let v = serde_json::json!({"n": "a\u{9b}1A\u{1b}[2K\u{202e}"});
        let text = serde_json::to_string(&v).unwrap();
        let e = escape_json_text(&text);
        assert!(!e.chars().any(|c| c.is_control()), "{e}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&e).unwrap(), v);
    }

    #[test]
    fn escapes_every_string_of_the_data() {
        let mut v = serde_json::json!({"a": ["x\u{1b}", {"b": "\r"}], "n": 1});
        escape_json(&mut v);
        assert_eq!(
            v,
            serde_json::json!({"a": ["x\\u{1b}", {"b": "\\u{d}"}], "n": 1})
        );
    }
}
