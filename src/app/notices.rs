//! Notices as commands print them: every one when there are few (or `--notices all`), else a
//! summary — how many of each kind (a kind is the message with its quoted names and its numbers
//! left out: one per withdrawn ruling is one kind) and the first few of each, in the order
//! given — so that a big log's thousands of notices do not bury the rest of the output.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::Notice;

/// Whether every notice is printed (`--notices all`), set once by `main`.
static ALL: AtomicBool = AtomicBool::new(false);

/// Print every notice (`--notices all`) rather than a summary of many.
pub fn show_all(all: bool) {
    ALL.store(all, Ordering::Relaxed);
}

/// Up to this many notices are printed one by one.
pub const WHOLE: usize = 20;
/// A summary shows the first this many of each kind.
pub const FIRST: usize = 3;

/// A notice's kind: its message with quoted names (`"R12"`) and numbers written `…`.
pub fn kind(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut quoted = false;
    let mut digits = false;
    for c in message.chars() {
        if quoted {
            if c == '"' {
                quoted = false;
                out.push_str("…\"");
            }
            continue;
        }
        if c.is_ascii_digit() {
            if !digits {
                out.push('…');
            }
            digits = true;
            continue;
        }
        digits = false;
        out.push(c);
        if c == '"' {
            quoted = true;
        }
    }
    out
}

/// The notices as lines, each after `indent`: all of them when they are few or `all`, else a
/// summary (counts per kind, most frequent first, the first few of each, and how to see all).
pub fn lines(notices: &[&Notice], indent: &str, all: bool) -> String {
    let mut out = String::new();
    if all || notices.len() <= WHOLE {
        for n in notices {
            let _ = writeln!(out, "{indent}{n}");
        }
        return out;
    }
    let mut kinds: Vec<(String, Vec<&Notice>)> = Vec::new();
    let mut at: std::collections::HashMap<String, usize> = Default::default();
    for n in notices {
        let k = kind(&n.message);
        let i = *at.entry(k.clone()).or_insert_with(|| {
            kinds.push((k, Vec::new()));
            kinds.len() - 1
        });
        kinds[i].1.push(n);
    }
    // (most frequent first; a stable sort keeps first-seen order among equals)
    kinds.sort_by_key(|k| std::cmp::Reverse(k.1.len()));
    let _ = writeln!(
        out,
        "{indent}{} notices of {} kinds (the first {FIRST} of each; --notices all shows every one):",
        notices.len(),
        kinds.len()
    );
    for (k, list) in &kinds {
        let _ = writeln!(out, "{indent}{} × {k}", list.len());
        for n in list.iter().take(FIRST) {
            let _ = writeln!(out, "{indent}    {n}");
        }
        if list.len() > FIRST {
            let _ = writeln!(out, "{indent}    … and {} more", list.len() - FIRST);
        }
    }
    out
}

/// [`lines`] as the command line asked (`--notices`).
pub fn printed(notices: &[&Notice], indent: &str) -> String {
    lines(notices, indent, ALL.load(Ordering::Relaxed))
}

/// [`printed`] of notices given as text (an import's).
pub fn printed_texts(texts: &[String], indent: &str) -> String {
    let owned: Vec<Notice> = texts
        .iter()
        .map(|t| Notice {
            line: None,
            message: t.clone(),
        })
        .collect();
    let refs: Vec<&Notice> = owned.iter().collect();
    printed(&refs, indent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(line: usize, m: String) -> Notice {
        Notice {
            line: Some(line),
            message: m,
        }
    }

    /// Thousands of notices of two kinds print as two counted kinds with their first few; few
    /// notices, or `all`, print every one.
    #[test]
    fn many_notices_are_summarised_by_kind() {
        let mut v: Vec<Notice> = (0..3000)
            .map(|i| {
                n(
                    i + 10,
                    format!("ruling \"R{i}\" withdrawn at seq {}", i + 5),
                )
            })
            .collect();
        v.push(n(1, "session \"S1\": \"A3\" played 20 of 24 boards".into()));
        let refs: Vec<&Notice> = v.iter().collect();
        let s = lines(&refs, "  ", false);
        assert!(s.contains("3001 notices of 2 kinds"), "{s}");
        assert!(s.contains("3000 × ruling \"…\" withdrawn at seq …"), "{s}");
        assert!(s.contains("… and 2997 more"), "{s}");
        assert!(
            s.contains("line 10: ruling \"R0\" withdrawn at seq 5"),
            "{s}"
        );
        assert!(!s.contains("\"R3\""), "{s}");
        assert!(s.lines().count() < 12, "{s}");
        assert_eq!(lines(&refs, "", true).lines().count(), 3001);
        assert_eq!(lines(&refs[..5], "", false).lines().count(), 5);
    }
}
