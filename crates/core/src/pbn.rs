//! The PBN writer: the one writer of PBN 2.1 text, used by `frekans export --format pbn`
//! (`export::pbn` in the interchange crate: a scored championship) and `frekans synth --format
//! pbn` (a million tables written straight into their rows). The header, tags, table heads and
//! rows, each as PBN writes it: tag values and quoted cells with `"` and `\` escaped, a table's
//! cells separated by one space, each row a line.
//!
//! A control character PBN cannot hold is the caller's to write first in its notation (export
//! writes each as `\u{…}`, `export::notes::write_text`); what is given here is written as it is.

use crate::event::line::Buf;

/// `% PBN 2.1`, `% EXPORT`, then each comment line (`% …`).
pub fn header<B: Buf + ?Sized>(out: &mut B, comments: &[&str]) {
    out.put("% PBN 2.1\n% EXPORT\n");
    for c in comments {
        out.put("% ");
        out.put(c);
        out.put_ascii(b'\n');
    }
}

/// `s` as a PBN string: quoted, `"` and `\` escaped.
pub fn quoted<B: Buf + ?Sized>(out: &mut B, s: &str) {
    out.put_ascii(b'"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        if b == b'"' || b == b'\\' {
            out.put(&s[start..i]);
            out.put_ascii(b'\\');
            start = i;
        }
    }
    out.put(&s[start..]);
    out.put_ascii(b'"');
}

/// `[NAME "VALUE"]` and a newline.
pub fn tag<B: Buf + ?Sized>(out: &mut B, name: &str, value: &str) {
    out.put_ascii(b'[');
    out.put(name);
    out.put_ascii(b' ');
    quoted(out, value);
    out.put("]\n");
}

/// A table's head: `[ScoreTable "COL;COL;…"]`, its columns (each `Name\WidthAlign`) written as
/// they are, as PBN files write them (`synth`). (`export::pbn` writes its heads as tags, the
/// backslash escaped: `Name\\WidthAlign`; both are read back alike, and the two are kept as
/// they were, byte for byte.)
pub fn table<B: Buf + ?Sized, S: AsRef<str>>(out: &mut B, name: &str, cols: &[S]) {
    out.put_ascii(b'[');
    out.put(name);
    out.put(" \"");
    for (i, c) in cols.iter().enumerate() {
        if i > 0 {
            out.put_ascii(b';');
        }
        out.put(c.as_ref());
    }
    out.put("\"]\n");
}

/// One row of a table being written: cells separated by a space; [`Row::end`] ends the line.
pub struct Row<'a, B: Buf + ?Sized> {
    pub out: &'a mut B,
    first: bool,
}

impl<'a, B: Buf + ?Sized> Row<'a, B> {
    #[inline]
    pub fn new(out: &'a mut B) -> Row<'a, B> {
        Row { out, first: true }
    }

    #[inline]
    fn sep(&mut self) {
        if !self.first {
            self.out.put_ascii(b' ');
        }
        self.first = false;
    }

    /// A cell written by the caller into what this returns.
    #[inline]
    pub fn cell(&mut self) -> &mut B {
        self.sep();
        self.out
    }

    /// A cell as it is (a number, `-`, a contract…).
    #[inline]
    pub fn bare(&mut self, cell: &str) -> &mut Self {
        self.sep();
        self.out.put(cell);
        self
    }

    /// A cell that is an integer.
    #[inline]
    pub fn int(&mut self, n: i64) -> &mut Self {
        self.sep();
        crate::event::line::int(self.out, n);
        self
    }

    /// A cell that is a string (quoted).
    #[inline]
    pub fn quoted(&mut self, s: &str) -> &mut Self {
        self.sep();
        quoted(self.out, s);
        self
    }

    /// The row's newline.
    #[inline]
    pub fn end(self) {
        self.out.put_ascii(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_pbn() {
        let mut s = String::new();
        header(&mut s, &["Creator: frekans"]);
        tag(&mut s, "Event", "A \"B\" \\ C");
        table(&mut s, "ScoreTable", &["PairId_NS\\4R", "Names\\40L"]);
        let mut r = Row::new(&mut s);
        r.int(-3).bare("4SX").quoted("Ż \"q\"");
        r.end();
        assert_eq!(
            s,
            "% PBN 2.1\n% EXPORT\n% Creator: frekans\n[Event \"A \\\"B\\\" \\\\ C\"]\n\
             [ScoreTable \"PairId_NS\\4R;Names\\40L\"]\n-3 4SX \"Ż \\\"q\\\"\"\n"
        );
        let mut b: Vec<u8> = Vec::new();
        tag(&mut b, "Event", "A \"B\" \\ C");
        assert_eq!(
            b,
            s.lines()
                .nth(3)
                .unwrap()
                .as_bytes()
                .iter()
                .chain(b"\n")
                .copied()
                .collect::<Vec<_>>()
        );
    }
}
