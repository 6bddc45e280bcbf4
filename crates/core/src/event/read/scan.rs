//! The reader's first pass: the log's physical lines found and classified in parallel pieces
//! (UTF-8, length, blank or comment, whether a line is a `result`, may declare a session or a
//! participant), then numbered in order.

use super::*;

/// What a line may be, judged on its text (`Scanned::flags`).
pub(super) const RESULT: u8 = 1;
pub(super) const SESSION: u8 = 2;
pub(super) const PARTICIPANT: u8 = 4;

/// The event lines of a log, numbered: what the rest of the reader works on.
pub(super) struct Scanned<'a> {
    /// (line, seq, text) of every event line, in order.
    pub lines: Vec<(u32, u32, &'a str)>,
    /// Beside each line, what it may be ([`RESULT`], [`SESSION`], [`PARTICIPANT`]).
    pub flags: Vec<u8>,
    /// The lines refused on their bytes alone (not UTF-8, too long).
    pub errors: Vec<LogError>,
    /// Physical line count, for messages.
    pub count: usize,
}

/// Bytes a piece of the pass covers (a piece ends at the first newline after as many).
const PIECE: usize = 1 << 20;

/// One piece's lines: its event lines (line within the piece, text, flags), the lines refused
/// (line within the piece, message), and how many physical lines it holds.
#[derive(Default)]
struct Piece<'a> {
    events: Vec<(u32, &'a str, u8)>,
    errors: Vec<(u32, String)>,
    count: usize,
}

/// Classify one physical line: `Ok(None)` for a blank or comment line.
fn classify(raw: &[u8]) -> Result<Option<(&str, u8)>, String> {
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    if raw.len() > MAX_LINE {
        return Err(format!(
            "the line is {} bytes long; an event line is at most {MAX_LINE} bytes (1 MiB)",
            raw.len()
        ));
    }
    let text = std::str::from_utf8(raw).map_err(|e| {
        format!(
            "invalid UTF-8 at byte {} of the line; the log must be UTF-8",
            e.valid_up_to() + 1
        )
    })?;
    let t = text.trim();
    if t.is_empty() || t.starts_with("//") {
        return Ok(None);
    }
    let ty = line_type(t);
    let flags = (u8::from(ty == Some("result")) * RESULT)
        | (u8::from(may_declare_session(t, ty)) * SESSION)
        | (u8::from(may_declare_participant(t, ty)) * PARTICIPANT);
    Ok(Some((t, flags)))
}

fn piece(bytes: &[u8], last: bool) -> Piece<'_> {
    // A piece but the last ends with its last line's newline: the line after it is the next
    // piece's first.
    let body = if last {
        bytes
    } else {
        &bytes[..bytes.len() - 1]
    };
    let mut p = Piece::default();
    let mut start = 0usize;
    let ends = memchr::memchr_iter(b'\n', body).chain(std::iter::once(body.len()));
    for end in ends {
        let n = p.count as u32;
        p.count += 1;
        match classify(&body[start..end]) {
            Ok(None) => {}
            Ok(Some((t, flags))) => p.events.push((n, t, flags)),
            Err(m) => p.errors.push((n, m)),
        }
        start = end + 1;
    }
    p
}

/// Split `bytes` (a byte-order mark already taken off) into lines, each classified.
pub(super) fn scan(bytes: &[u8]) -> Scanned<'_> {
    use rayon::prelude::*;
    let mut bounds: Vec<(usize, usize)> = Vec::new();
    let mut start = 0usize;
    loop {
        let cut = start + PIECE;
        match (cut < bytes.len())
            .then(|| memchr::memchr(b'\n', &bytes[cut..]))
            .flatten()
        {
            Some(nl) => {
                bounds.push((start, cut + nl + 1));
                start = cut + nl + 1;
            }
            None => {
                bounds.push((start, bytes.len()));
                break;
            }
        }
    }
    let n = bounds.len();
    let pieces: Vec<Piece> = bounds
        .par_iter()
        .enumerate()
        .map(|(i, &(a, b))| piece(&bytes[a..b], i + 1 == n))
        .collect();
    let events: usize = pieces.iter().map(|p| p.events.len()).sum();
    let mut out = Scanned {
        lines: Vec::with_capacity(events),
        flags: Vec::with_capacity(events),
        errors: Vec::new(),
        count: 0,
    };
    let mut seq = 0u32;
    for p in pieces {
        let base = out.count;
        let mut errors = p.errors.into_iter().peekable();
        for (n, text, flags) in p.events {
            // The refused lines before this one count among the events (they have a seq).
            while let Some((m, msg)) = errors.next_if(|e| e.0 < n) {
                seq += 1;
                out.errors
                    .push(LogError::new(base + m as usize + 1, None, msg));
            }
            seq += 1;
            out.lines.push(((base + n as usize + 1) as u32, seq, text));
            out.flags.push(flags);
        }
        for (m, msg) in errors {
            seq += 1;
            out.errors
                .push(LogError::new(base + m as usize + 1, None, msg));
        }
        out.count += p.count;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines are numbered as a plain split at every newline numbers them, across pieces.
    #[test]
    fn lines_are_numbered_as_split() {
        let mut text = String::new();
        for i in 0..200_000 {
            match i % 7 {
                0 => text.push('\n'),
                1 => text.push_str("// note\n"),
                2 => text.push_str("{\"type\":\"result\"}\r\n"),
                _ => text.push_str(&format!("{{\"type\":\"pair\",\"id\":\"P{i}\"}}\n")),
            }
        }
        for body in [text.as_str(), text.trim_end(), "", "\n", "x", "x\n\n"] {
            let s = scan(body.as_bytes());
            let raws: Vec<&[u8]> = body.as_bytes().split(|&b| b == b'\n').collect();
            assert_eq!(s.count, raws.len());
            let mut want = Vec::new();
            for (i, raw) in raws.iter().enumerate() {
                if let Ok(Some((t, _))) = classify(raw) {
                    want.push(((i + 1) as u32, (want.len() + 1) as u32, t));
                }
            }
            assert_eq!(s.lines, want);
        }
    }
}
