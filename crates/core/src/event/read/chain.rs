//! The hash chain checked as the lines are read: each hashed line's link, and the log's head.

use super::*;

/// Verify the hash chain (chain.rs) over the event lines, in order: report the first break
/// only (every later link would fail too), following the chain as written so that one
/// alteration is one error. Before the chain starts only a line naming `hash` can start it (a
/// key written with escapes, `"h\u0061sh"`, names it too, so such lines are parsed); once it
/// has started every line is a link, and links are parsed and hashed in parallel a batch at a
/// time, each against the hash written on the link before it.
///
/// Also gives the last link when the chain starts at the first event line and holds to the
/// end: the log's head ([`ReadSummary::head`]).
pub(super) fn verify_chain<'a>(lines: &[(u32, u32, &'a str)]) -> (Vec<LogError>, Option<String>) {
    use crate::event::chain::{canonical, link_parts, GENESIS};
    use rayon::prelude::*;
    /// A canonical text: two pieces of a flat line (hashed where they lie), or made.
    enum Canon<'a> {
        Parts([&'a str; 2]),
        Made(String),
    }
    enum Link<'a> {
        /// Not a JSON object: the reader reports the line.
        Skip,
        NoHash,
        Hash {
            hash: std::borrow::Cow<'a, str>,
            canonical: Canon<'a>,
        },
        NotText(String),
    }
    let linked = |prev: &str, hash: &str, c: &Canon| -> bool {
        let parts = match c {
            Canon::Parts([a, b]) => [a.as_bytes(), b.as_bytes()],
            Canon::Made(m) => [m.as_bytes(), b""],
        };
        link_parts(prev.as_bytes(), parts).as_slice() == hash.as_bytes()
    };
    let info = |text: &'a str| -> Link<'a> {
        // What `frekans append` writes is read straight off the line; the rest is parsed.
        if let Some((hash, parts)) = crate::event::chain::flat_parts(text) {
            return match hash {
                None => Link::NoHash,
                Some(h) => Link::Hash {
                    hash: h.into(),
                    canonical: Canon::Parts(parts),
                },
            };
        }
        let Ok(Value::Object(map)) = crate::event::json::parse(text) else {
            return Link::Skip;
        };
        match map.get("hash") {
            None => Link::NoHash,
            Some(Value::String(h)) => Link::Hash {
                hash: h.clone().into(),
                canonical: Canon::Made(canonical(&map)),
            },
            Some(other) => Link::NotText(describe(other)),
        }
    };
    let mut errors = Vec::new();
    let mut broken = false;
    let mut walk = |line: u32,
                    l: &Link<'a>,
                    ok: bool,
                    chain: &mut Option<std::borrow::Cow<'a, str>>| {
        let line = line as usize;
        match l {
            Link::Skip => {}
            Link::NoHash => {
                if chain.is_some() && !broken {
                    errors.push(LogError::new(line, Some("hash"), "missing: the log's hash chain started earlier, so every later event must carry its hash; this line was inserted or its hash removed"));
                    broken = true;
                }
            }
            Link::Hash { hash, .. } => {
                if !ok && !broken {
                    errors.push(LogError::new(
                        line,
                        Some("hash"),
                        "the hash chain breaks here: this line was altered, or a line before it was removed or inserted (frekans append writes the chain; see docs/integrity.md)",
                    ));
                    broken = true;
                }
                *chain = Some(hash.clone());
            }
            Link::NotText(found) => {
                errors.push(LogError::new(
                    line,
                    Some("hash"),
                    format!("expected a 64-digit hex SHA-256, found {found}"),
                ));
                broken = true;
            }
        }
    };
    // The last link, once the chain has started.
    let mut chain: Option<std::borrow::Cow<'a, str>> = None;
    let mut i = 0;
    let mut from_first = false;
    // (`str::contains` would build a searcher for every line.)
    let hash_key = memchr::memmem::Finder::new(b"\"hash\"");
    while i < lines.len() && chain.is_none() {
        // The next line that may name `hash`, found in parallel: a log without hashes is
        // searched whole here.
        let Some(k) = lines[i..].par_iter().position_first(|&(_, _, t)| {
            memchr::memchr(b'\\', t.as_bytes()).is_some() || hash_key.find(t.as_bytes()).is_some()
        }) else {
            // No line names it: the chain never starts.
            i = lines.len();
            break;
        };
        let (line, _, text) = lines[i + k];
        i += k + 1;
        let l = info(text);
        let ok = match &l {
            Link::Hash { hash, canonical } => linked(GENESIS, hash, canonical),
            _ => true,
        };
        walk(line, &l, ok, &mut chain);
        from_first = i == 1 && chain.is_some();
    }
    while i < lines.len() {
        let end = (i + BATCH).min(lines.len());
        let links: Vec<Link> = lines[i..end].par_iter().map(|&(_, _, t)| info(t)).collect();
        // Each link's previous hash: the last one written before it (in this batch, or the
        // chain carried over from the batches before).
        let mut prev: Vec<Option<usize>> = Vec::with_capacity(links.len());
        let mut last: Option<usize> = None;
        for (j, l) in links.iter().enumerate() {
            prev.push(last);
            if matches!(l, Link::Hash { .. }) {
                last = Some(j);
            }
        }
        let carried = chain.clone().unwrap_or(GENESIS.into());
        let ok: Vec<bool> = (0..links.len())
            .into_par_iter()
            .map(|j| match &links[j] {
                Link::Hash { hash, canonical } => {
                    let p = match prev[j] {
                        Some(k) => match &links[k] {
                            Link::Hash { hash, .. } => hash.as_ref(),
                            _ => unreachable!("prev points at a hashed link"),
                        },
                        None => carried.as_ref(),
                    };
                    linked(p, hash, canonical)
                }
                _ => true,
            })
            .collect();
        for (j, l) in links.iter().enumerate() {
            walk(lines[i + j].0, l, ok[j], &mut chain);
        }
        i = end;
    }
    let head = (from_first && errors.is_empty())
        .then_some(chain)
        .flatten()
        .map(std::borrow::Cow::into_owned);
    (errors, head)
}
