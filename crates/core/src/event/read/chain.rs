//! The hash chain checked as the lines are read: each hashed line's link, and the log's head.

use std::borrow::Cow;

use super::*;
use crate::event::chain::{canonical, link_parts, GENESIS};
use rayon::prelude::*;

/// A canonical text: two pieces of a flat line (hashed where they lie), or made.
enum Canon<'a> {
    Parts([&'a str; 2]),
    Made(String),
}

/// What a line brings to the chain.
enum Link<'a> {
    /// Not a JSON object: the reader reports the line.
    Skip,
    NoHash,
    Hash {
        hash: Cow<'a, str>,
        canonical: Canon<'a>,
    },
    NotText(String),
}

/// Whether `hash` is the link of the canonical text `c` after the hash `prev`.
fn linked(prev: &str, hash: &str, c: &Canon) -> bool {
    let parts = match c {
        Canon::Parts([a, b]) => [a.as_bytes(), b.as_bytes()],
        Canon::Made(m) => [m.as_bytes(), b""],
    };
    link_parts(prev.as_bytes(), parts).as_slice() == hash.as_bytes()
}

/// A line's link: what `frekans append` writes is read straight off the line; the rest is
/// parsed.
fn info(text: &str) -> Link<'_> {
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
}

/// The chain followed line by line: its errors (the first break only), and its last link.
struct Walk<'a> {
    errors: Vec<LogError>,
    broken: bool,
    /// The last link, once the chain has started.
    chain: Option<Cow<'a, str>>,
}

impl<'a> Walk<'a> {
    /// Follow the chain over the link `l` of line `line`; `ok`: whether its hash links.
    fn step(&mut self, line: u32, l: &Link<'a>, ok: bool) {
        let line = line as usize;
        match l {
            Link::Skip => {}
            Link::NoHash => {
                if self.chain.is_some() && !self.broken {
                    self.errors.push(LogError::new(line, Some("hash"), "missing: the log's hash chain started earlier, so every later event must carry its hash; this line was inserted or its hash removed"));
                    self.broken = true;
                }
            }
            Link::Hash { hash, .. } => {
                if !ok && !self.broken {
                    self.errors.push(LogError::new(
                        line,
                        Some("hash"),
                        "the hash chain breaks here: this line was altered, or a line before it was removed or inserted (frekans append writes the chain; see docs/integrity.md)",
                    ));
                    self.broken = true;
                }
                self.chain = Some(hash.clone());
            }
            Link::NotText(found) => {
                self.errors.push(LogError::new(
                    line,
                    Some("hash"),
                    format!("expected a 64-digit hex SHA-256, found {found}"),
                ));
                self.broken = true;
            }
        }
    }
}

/// Verify the hash chain (chain.rs) over the event lines, in order: report the first break
/// only (every later link would fail too), following the chain as written so that one
/// alteration is one error. Before the chain starts only a line naming `hash` can start it (a
/// key written with escapes, `"h\u0061sh"`, names it too, so such lines are parsed); once it
/// has started every line is a link, and links are parsed and hashed in parallel a batch at a
/// time, each against the hash written on the link before it.
///
/// Also gives the last link when the chain starts at the first event line and holds to the
/// end: the log's head ([`ReadSummary::head`]).
pub(super) fn verify_chain(lines: &[(u32, u32, &str)]) -> (Vec<LogError>, Option<String>) {
    let mut walk = Walk {
        errors: Vec::new(),
        broken: false,
        chain: None,
    };
    let (mut i, from_first) = chain_start(lines, &mut walk);
    while i < lines.len() {
        let end = (i + BATCH).min(lines.len());
        let links: Vec<Link> = lines[i..end].par_iter().map(|&(_, _, t)| info(t)).collect();
        let carried = walk.chain.clone().unwrap_or(GENESIS.into());
        let ok = links_ok(&links, &carried);
        for (j, l) in links.iter().enumerate() {
            walk.step(lines[i + j].0, l, ok[j]);
        }
        i = end;
    }
    let head = (from_first && walk.errors.is_empty())
        .then_some(walk.chain)
        .flatten()
        .map(Cow::into_owned);
    (walk.errors, head)
}

/// Walk the lines up to the one that starts the chain (the next line that may name `hash`,
/// found in parallel: a log without hashes is searched whole here). Gives the index of the
/// line after it (the end when the chain never starts), and whether the chain starts at the
/// first line.
fn chain_start<'a>(lines: &[(u32, u32, &'a str)], walk: &mut Walk<'a>) -> (usize, bool) {
    let mut i = 0;
    let mut from_first = false;
    // (`str::contains` would build a searcher for every line.)
    let hash_key = memchr::memmem::Finder::new(b"\"hash\"");
    while i < lines.len() && walk.chain.is_none() {
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
        walk.step(line, &l, ok);
        from_first = i == 1 && walk.chain.is_some();
    }
    (i, from_first)
}

/// Whether each link of a batch links, in parallel: each against the last hash written before
/// it (in this batch, or `carried` over from the batches before).
fn links_ok(links: &[Link], carried: &str) -> Vec<bool> {
    let mut prev: Vec<Option<usize>> = Vec::with_capacity(links.len());
    let mut last: Option<usize> = None;
    for (j, l) in links.iter().enumerate() {
        prev.push(last);
        if matches!(l, Link::Hash { .. }) {
            last = Some(j);
        }
    }
    (0..links.len())
        .into_par_iter()
        .map(|j| match &links[j] {
            Link::Hash { hash, canonical } => {
                let p = match prev[j] {
                    Some(k) => match &links[k] {
                        Link::Hash { hash, .. } => hash.as_ref(),
                        _ => unreachable!("prev points at a hashed link"),
                    },
                    None => carried,
                };
                linked(p, hash, canonical)
            }
            _ => true,
        })
        .collect()
}
