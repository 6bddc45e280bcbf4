//! The cache file's bytes: its parts in postcard's encoding (the `postcard` crate through serde's
//! derives: varint integers), each field streamed to the file as it is encoded, decoded in
//! parallel, and the checksum that seals them.

use serde::{Deserialize, Serialize};

use super::*;

/// The writer of a part: `out` through a buffer of [`Enc::FLUSH`] bytes, so that a cache of a
/// million results (tens of MB) is never held whole in memory beside the scored championship it
/// describes; `n` counts the bytes, `err` keeps the first write error.
pub(super) struct Enc<'w> {
    buf: Vec<u8>,
    out: &'w mut dyn std::io::Write,
    n: u64,
    err: Option<std::io::Error>,
}

impl<'w> Enc<'w> {
    const FLUSH: usize = 1 << 20;

    fn new(out: &'w mut dyn std::io::Write) -> Enc<'w> {
        Enc {
            buf: Vec::with_capacity(Self::FLUSH + 4096),
            out,
            n: 0,
            err: None,
        }
    }
    fn flush_buf(&mut self) {
        if self.err.is_none() {
            if let Err(e) = self.out.write_all(&self.buf) {
                self.err = Some(e);
            }
        }
        self.n += self.buf.len() as u64;
        self.buf.clear();
    }
    /// `v` encoded after what is written.
    fn put<T: Serialize + ?Sized>(&mut self, v: &T) -> std::io::Result<()> {
        postcard::to_io(v, &mut *self)
            .map(drop)
            .map_err(std::io::Error::other)
    }
    /// Everything written: how many bytes, or the first error.
    fn finish(mut self) -> std::io::Result<u64> {
        self.flush_buf();
        match self.err {
            Some(e) => Err(e),
            None => Ok(self.n),
        }
    }
}

impl std::io::Write for Enc<'_> {
    #[inline]
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= Self::FLUSH {
            self.flush_buf();
        }
        Ok(b.len())
    }
    #[inline]
    fn write_all(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.write(b).map(drop)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `T` decoded from the whole of `b` (`None` for anything else, or bytes left over). A count
/// read from the file is never trusted: serde reserves at most 1 MiB for a collection before its
/// items are read, and postcard no more than the bytes left, so a forged count is refused when
/// the bytes run out instead of allocating what it claims.
fn whole<'a, T: Deserialize<'a>>(b: &'a [u8]) -> Option<T> {
    match postcard::take_from_bytes(b) {
        Ok((v, [])) => Some(v),
        _ => None,
    }
}

/// What decoding one collection may reserve before its items are read (1 GiB; a million
/// results' largest part is about 15 MB encoded).
const LIMIT: usize = 1 << 30;

/// A long list read with its room reserved once: for as many items as its count says (postcard
/// refuses a count beyond the bytes left), within [`LIMIT`] bytes, instead of serde's cautious
/// 1 MiB grown by doubling (a million standings copied over and over).
pub(super) fn reserved<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Items<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Items<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let room = LIMIT / std::mem::size_of::<T>().max(1);
            let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(room));
            while let Some(x) = seq.next_element()? {
                v.push(x);
            }
            Ok(v)
        }
    }
    d.deserialize_seq(Items(std::marker::PhantomData))
}

/// The sums as written: each group's key and its members in participant order, one group at a
/// time (as [`Sums::to_groups`] lists them, without listing them all first).
struct SumsOut<'a>(&'a Sums);

impl Serialize for SumsOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.each_group())
    }
}

/// Part 0 as written: all but the sums, the standings and the lines.
#[derive(Serialize)]
struct HeadOut<'a> {
    last_seq: usize,
    newlines: u64,
    len: u64,
    declares: bool,
    participants: &'a [Participant],
    sessions: &'a [String],
    teams: &'a [bool],
    fields: &'a BTreeMap<(usize, Option<String>), u32>,
    board_ns: &'a [BoardN],
    rulings: &'a [(String, u32)],
}

/// Part 0 as read.
#[derive(Deserialize)]
struct HeadIn {
    last_seq: usize,
    newlines: u64,
    len: u64,
    declares: bool,
    #[serde(deserialize_with = "reserved")]
    participants: Vec<Participant>,
    sessions: Vec<String>,
    teams: Vec<bool>,
    fields: BTreeMap<(usize, Option<String>), u32>,
    #[serde(deserialize_with = "reserved")]
    board_ns: Vec<BoardN>,
    #[serde(deserialize_with = "reserved")]
    rulings: Vec<(String, u32)>,
}

/// Part 3 as written: each board's lines, the other lines, the lines' matches.
#[derive(Serialize)]
struct LinesOut<'a> {
    boards: &'a [((String, u32), Vec<LineRef>)],
    decl: &'a [LineRef],
    matches: &'a MatchTags,
}

/// Part 3 as read.
#[derive(Deserialize)]
struct LinesIn {
    #[serde(deserialize_with = "reserved")]
    boards: Vec<((String, u32), Vec<LineRef>)>,
    #[serde(deserialize_with = "reserved")]
    decl: Vec<LineRef>,
    matches: MatchTags,
}

/// Part 1 as read: each group's key and members (as [`SumsOut`] writes them).
#[derive(Deserialize)]
struct SumsIn(#[serde(deserialize_with = "reserved")] Vec<GroupIn>);

#[derive(Deserialize)]
struct GroupIn(
    (usize, Option<String>),
    #[serde(deserialize_with = "reserved")] Vec<Standing>,
);

/// Part 2 as read.
#[derive(Deserialize)]
struct StandingsIn(#[serde(deserialize_with = "reserved")] Vec<Standing>);

// The file: MAGIC, the program and the log's key, the lengths of four parts, the parts (decoded
// in parallel), then the XXH3-128 checksum of everything before it (little-endian).
//   0: last seq, participants, sessions, fields, boards' N, rulings
//   1: the sums     2: the standings     3: each board's lines, the other lines

pub(super) fn encode(c: &AuditCache, key: &str, program: &str) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    encode_to(c, key, program, &mut out).expect("writing to memory does not fail");
    out.into_inner()
}

/// Write the cache file of `c` for the log `key`, by `program`, to `w` (at its start): each part streamed
/// through a small buffer, the parts' lengths filled in once known, and the checksum of what
/// was written read back from `w` (XXH3 of 70 MB from the page cache: a few milliseconds).
pub(super) fn encode_to<W>(
    c: &AuditCache,
    key: &str,
    program: &str,
    w: &mut W,
) -> std::io::Result<()>
where
    W: std::io::Read + std::io::Write + std::io::Seek,
{
    use std::io::SeekFrom;
    let mut head = Enc::new(w);
    std::io::Write::write_all(&mut head, MAGIC)?;
    head.put(&(program, key))?;
    let lens_at = head.finish()?;
    w.write_all(&[0u8; 32])?;
    let mut lens = [0u64; 4];
    let mut p0 = Enc::new(w);
    p0.put(&HeadOut {
        last_seq: c.last_seq,
        newlines: c.newlines,
        len: c.len,
        declares: c.declares,
        participants: &c.participants,
        sessions: &c.sessions,
        teams: &c.teams,
        fields: &c.fields,
        board_ns: &c.board_ns,
        rulings: &c.rulings,
    })?;
    lens[0] = p0.finish()?;
    let mut p1 = Enc::new(w);
    p1.put(&SumsOut(&c.sums))?;
    lens[1] = p1.finish()?;
    let mut p2 = Enc::new(w);
    p2.put(&c.standings)?;
    lens[2] = p2.finish()?;
    let mut p3 = Enc::new(w);
    p3.put(&LinesOut {
        boards: &c.boards,
        decl: &c.decl,
        matches: &c.matches,
    })?;
    lens[3] = p3.finish()?;
    w.seek(SeekFrom::Start(lens_at))?;
    for n in lens {
        w.write_all(&n.to_le_bytes())?;
    }
    w.seek(SeekFrom::Start(0))?;
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match w.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => h.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    w.write_all(&h.digest128().to_le_bytes())?;
    w.flush()
}

/// The checksum a cache file ends with.
pub(super) fn checksum(body: &[u8]) -> [u8; 16] {
    xxhash_rust::xxh3::xxh3_128(body).to_le_bytes()
}

/// The cache file `bytes` of the log `key`, when `program` wrote it.
pub(super) fn decode(bytes: &[u8], key: &str, program: &str) -> Option<AuditCache> {
    let (body, digest) = bytes.split_at(bytes.len().checked_sub(16)?);
    let rest = body.strip_prefix(MAGIC.as_slice())?;
    let ((program_of, key_of), mut rest): ((&str, &str), &[u8]) =
        postcard::take_from_bytes(rest).ok()?;
    if program_of != program || key_of != key {
        return None;
    }
    let mut lens = [0u64; 4];
    for l in &mut lens {
        let (b, r) = rest.split_first_chunk::<8>()?;
        (*l, rest) = (u64::from_le_bytes(*b), r);
    }
    let mut parts: Vec<&[u8]> = Vec::with_capacity(4);
    for n in lens {
        let n = usize::try_from(n).ok()?;
        parts.push(rest.get(..n)?);
        rest = &rest[n..];
    }
    if !rest.is_empty() {
        return None;
    }
    // The digest checked while the parts are decoded; nothing decoded is used unless it holds.
    let ((ok, p0), (p1, (p2, p3))) = rayon::join(
        || {
            rayon::join(
                || {
                    let _s = tracing::debug_span!("digest").entered();
                    checksum(body).as_slice() == digest
                },
                || tracing::debug_span!("head").in_scope(|| decode_head(parts[0])),
            )
        },
        || {
            rayon::join(
                || tracing::debug_span!("sums").in_scope(|| decode_sums(parts[1])),
                || {
                    rayon::join(
                        || {
                            tracing::debug_span!("standings")
                                .in_scope(|| decode_standings(parts[2]))
                        },
                        || tracing::debug_span!("lines").in_scope(|| decode_lines(parts[3])),
                    )
                },
            )
        },
    );
    let mut c = p0?;
    let (boards, decl, matches) = p3?;
    if !ok || c.rulings.iter().any(|r| r.1 as usize >= boards.len()) {
        return None;
    }
    (c.sums, c.standings) = (p1?, p2?);
    (c.boards, c.decl, c.matches) = (boards, decl, matches);
    Some(c)
}

/// The cache's first part: all but the sums, the standings and the lines.
pub(super) fn decode_head(b: &[u8]) -> Option<AuditCache> {
    let h: HeadIn = whole(b)?;
    (h.sessions.len() == h.teams.len()).then(|| AuditCache {
        last_seq: h.last_seq,
        newlines: h.newlines,
        len: h.len,
        declares: h.declares,
        participants: std::sync::Arc::new(h.participants),
        sessions: h.sessions,
        teams: h.teams,
        fields: h.fields,
        board_ns: h.board_ns,
        rulings: h.rulings,
        ..Default::default()
    })
}

pub(super) fn decode_sums(b: &[u8]) -> Option<Sums> {
    let SumsIn(groups) = whole(b)?;
    Sums::from_groups(groups.into_iter().map(|g| (g.0, g.1)).collect())
}

pub(super) fn decode_standings(b: &[u8]) -> Option<Vec<Standing>> {
    whole::<StandingsIn>(b).map(|s| s.0)
}

pub(super) type Lines = (Vec<((String, u32), Vec<LineRef>)>, Vec<LineRef>, MatchTags);

pub(super) fn decode_lines(b: &[u8]) -> Option<Lines> {
    let l: LinesIn = whole(b)?;
    let m = &l.matches;
    let tags_known = m
        .lines
        .iter()
        .flatten()
        .all(|&t| t == NO_MATCH || (t as usize) < m.ids.len());
    let ok = tags_known
        && m.lines.len() <= l.boards.len()
        && m.lines
            .iter()
            .zip(&l.boards)
            .all(|(t, b)| t.len() <= b.1.len());
    ok.then_some((l.boards, l.decl, l.matches))
}
