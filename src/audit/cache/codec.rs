//! The cache file's bytes: the encoder and decoder of its parts, and the checksum that seals them.

use super::*;

/// The encoder of a part: written to `out` through a buffer of [`Enc::FLUSH`] bytes, so that
/// a cache of a million results (about 70 MB) is never held whole in memory beside the
/// scored championship it describes; `n` counts the bytes, `err` keeps the first write error.
pub(super) struct Enc<'w> {
    pub(super) buf: Vec<u8>,
    pub(super) out: &'w mut dyn std::io::Write,
    pub(super) n: u64,
    pub(super) err: Option<std::io::Error>,
}

impl<'w> Enc<'w> {
    const FLUSH: usize = 1 << 20;

    pub(super) fn new(out: &'w mut dyn std::io::Write) -> Enc<'w> {
        Enc {
            buf: Vec::with_capacity(Self::FLUSH + 4096),
            out,
            n: 0,
            err: None,
        }
    }
    pub(super) fn put(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= Self::FLUSH {
            self.flush();
        }
    }
    pub(super) fn flush(&mut self) {
        if self.err.is_none() {
            if let Err(e) = self.out.write_all(&self.buf) {
                self.err = Some(e);
            }
        }
        self.n += self.buf.len() as u64;
        self.buf.clear();
    }
    /// Everything written: how many bytes, or the first error.
    pub(super) fn finish(mut self) -> std::io::Result<u64> {
        self.flush();
        match self.err {
            Some(e) => Err(e),
            None => Ok(self.n),
        }
    }
    pub(super) fn u8(&mut self, x: u8) {
        self.put(&[x]);
    }
    pub(super) fn u32(&mut self, x: u32) {
        self.put(&x.to_le_bytes());
    }
    pub(super) fn u64(&mut self, x: u64) {
        self.put(&x.to_le_bytes());
    }
    pub(super) fn len(&mut self, n: usize) {
        self.u64(n as u64);
    }
    pub(super) fn str(&mut self, s: &str) {
        self.len(s.len());
        self.put(s.as_bytes());
    }
    pub(super) fn opt_str(&mut self, s: Option<&str>) {
        match s {
            None => self.u8(0),
            Some(s) => {
                self.u8(1);
                self.str(s);
            }
        }
    }
    pub(super) fn q(&mut self, q: Q) {
        self.put(&q.numer().to_le_bytes());
        self.put(&q.denom().to_le_bytes());
    }
    pub(super) fn total(&mut self, t: &Total) {
        let (q, f) = t.parts();
        self.q(q);
        match f {
            None => self.u8(0),
            Some(f) => {
                self.u8(1);
                self.u64(f.to_bits());
            }
        }
    }
    pub(super) fn standing(&mut self, s: &Standing) {
        match s.session {
            None => self.u8(0),
            Some(x) => {
                self.u8(1);
                self.u32(x as u32);
            }
        }
        self.opt_str(s.section.as_deref());
        self.u32(s.participant);
        self.u32(s.rank);
        self.u32(s.rank_to);
        self.total(&s.total);
        match &s.max {
            None => self.u8(0),
            Some(m) => {
                self.u8(1);
                self.total(m);
            }
        }
        self.u32(s.boards);
        self.total(&s.penalties);
    }
    pub(super) fn line(&mut self, r: &LineRef) {
        self.u64(r.offset);
        self.u32(r.len);
        self.u32(r.line);
        self.u32(r.seq);
    }
}

pub(super) struct Dec<'a> {
    pub(super) b: &'a [u8],
}

impl<'a> Dec<'a> {
    pub(super) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.b.len() {
            return None;
        }
        let (h, t) = self.b.split_at(n);
        self.b = t;
        Some(h)
    }
    pub(super) fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    pub(super) fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    pub(super) fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    pub(super) fn i128(&mut self) -> Option<i128> {
        Some(i128::from_le_bytes(self.take(16)?.try_into().ok()?))
    }
    /// A count of items at least `min` bytes each: no more than the bytes left could hold.
    pub(super) fn len(&mut self, min: usize) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n.checked_mul(min.max(1))? <= self.b.len()).then_some(n)
    }
    pub(super) fn str(&mut self) -> Option<String> {
        let n = self.len(1)?;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
    pub(super) fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        match self.u8()? {
            0 => Some(None),
            1 => Some(Some(f(self)?)),
            _ => None,
        }
    }
    pub(super) fn opt_str(&mut self) -> Option<Option<String>> {
        self.opt(Dec::str)
    }
    pub(super) fn q(&mut self) -> Option<Q> {
        let (n, d) = (self.i128()?, self.i128()?);
        Q::from_lowest_terms(n, d)
    }
    pub(super) fn total(&mut self) -> Option<Total> {
        let q = self.q()?;
        let f = self.opt(|d| d.u64().map(f64::from_bits))?;
        Some(Total::from_parts(q, f))
    }
    pub(super) fn standing(&mut self) -> Option<Standing> {
        Some(Standing {
            session: self.opt(|d| d.u32().map(|x| x as usize))?,
            section: self.opt_str()?,
            participant: self.u32()?,
            rank: self.u32()?,
            rank_to: self.u32()?,
            total: self.total()?,
            max: self.opt(Dec::total)?,
            boards: self.u32()?,
            penalties: self.total()?,
        })
    }
    pub(super) fn line(&mut self) -> Option<LineRef> {
        Some(LineRef {
            offset: self.u64()?,
            len: self.u32()?,
            line: self.u32()?,
            seq: self.u32()?,
        })
    }
}

// The file: MAGIC, the program, the log's key, the lengths of four parts, the parts (decoded
// in parallel), then the XXH3-128 checksum of everything before it (little-endian).
//   0: last seq, participants, sessions, fields, boards' N, rulings
//   1: the sums     2: the standings     3: each board's lines, the other lines

pub(super) fn encode(c: &AuditCache, key: &str) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    encode_to(c, key, &mut out).expect("writing to memory does not fail");
    out.into_inner()
}

/// Write the cache file of `c` for the log `key` to `w` (at its start): each part streamed
/// through a small buffer, the parts' lengths filled in once known, and the checksum of what
/// was written read back from `w` (XXH3 of 70 MB from the page cache: a few milliseconds).
pub(super) fn encode_to<W>(c: &AuditCache, key: &str, w: &mut W) -> std::io::Result<()>
where
    W: std::io::Read + std::io::Write + std::io::Seek,
{
    use std::io::SeekFrom;
    let mut head = Enc::new(w);
    head.put(MAGIC);
    head.str(&program());
    head.str(key);
    let lens_at = head.n + head.buf.len() as u64;
    for _ in 0..4 {
        head.u64(0);
    }
    head.finish()?;
    let mut lens = [0u64; 4];
    let mut p0 = Enc::new(w);
    p0.len(c.last_seq);
    p0.u64(c.newlines);
    p0.u64(c.len);
    p0.u8(u8::from(c.declares));
    p0.len(c.participants.len());
    for p in c.participants.iter() {
        p0.str(&p.id);
        p0.opt_str(p.section.as_deref());
        p0.opt_str(p.name.as_deref());
        p0.len(p.players.len());
        for x in &p.players {
            p0.str(x);
        }
        p0.u8(u8::from(p.team));
    }
    p0.len(c.sessions.len());
    for (s, team) in c.sessions.iter().zip(&c.teams) {
        p0.str(s);
        p0.u8(u8::from(*team));
    }
    p0.len(c.fields.len());
    for ((s, g), n) in &c.fields {
        p0.u32(*s as u32);
        p0.opt_str(g.as_deref());
        p0.u32(*n);
    }
    p0.len(c.board_ns.len());
    for ((s, g, b), n) in &c.board_ns {
        p0.u32(*s as u32);
        p0.opt_str(g.as_deref());
        p0.u32(*b);
        p0.u32(*n);
    }
    p0.len(c.rulings.len());
    for (id, b) in &c.rulings {
        p0.str(id);
        p0.u32(*b);
    }
    lens[0] = p0.finish()?;
    let mut p1 = Enc::new(w);
    let groups = c.sums.to_groups();
    p1.len(groups.len());
    for ((s, g), members) in &groups {
        p1.u32(*s as u32);
        p1.opt_str(g.as_deref());
        p1.len(members.len());
        for m in members {
            p1.standing(m);
        }
    }
    lens[1] = p1.finish()?;
    let mut p2 = Enc::new(w);
    p2.len(c.standings.len());
    for s in &c.standings {
        p2.standing(s);
    }
    lens[2] = p2.finish()?;
    let mut p3 = Enc::new(w);
    p3.len(c.boards.len());
    for ((s, b), lines) in &c.boards {
        p3.str(s);
        p3.u32(*b);
        p3.len(lines.len());
        for r in lines {
            p3.line(r);
        }
    }
    p3.len(c.decl.len());
    for r in &c.decl {
        p3.line(r);
    }
    p3.len(c.matches.ids.len());
    for (s, m) in &c.matches.ids {
        p3.str(s);
        p3.str(m);
    }
    p3.len(c.matches.lines.len());
    for tags in &c.matches.lines {
        p3.len(tags.len());
        for &t in tags {
            p3.u32(t);
        }
    }
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

pub(super) fn decode(bytes: &[u8], key: &str) -> Option<AuditCache> {
    let (body, digest) = bytes.split_at(bytes.len().checked_sub(16)?);
    let mut d = Dec { b: body };
    if d.take(MAGIC.len())? != MAGIC || d.str()? != program() || d.str()? != key {
        return None;
    }
    let mut parts: Vec<&[u8]> = Vec::with_capacity(4);
    let lens = [d.u64()?, d.u64()?, d.u64()?, d.u64()?];
    for n in lens {
        parts.push(d.take(usize::try_from(n).ok()?)?);
    }
    if !d.b.is_empty() {
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
    let mut d = Dec { b };
    let last_seq = usize::try_from(d.u64()?).ok()?;
    let (newlines, len, declares) = (d.u64()?, d.u64()?, d.u8()? != 0);
    let participants = (0..d.len(19)?)
        .map(|_| {
            Some(Participant {
                id: d.str()?,
                section: d.opt_str()?,
                name: d.opt_str()?,
                players: (0..d.len(8)?)
                    .map(|_| d.str())
                    .collect::<Option<Vec<_>>>()?,
                team: d.u8()? != 0,
            })
        })
        .collect::<Option<Vec<_>>>()
        .map(std::sync::Arc::new)?;
    let (sessions, teams): (Vec<String>, Vec<bool>) = (0..d.len(9)?)
        .map(|_| Some((d.str()?, d.u8()? != 0)))
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .unzip();
    let mut fields = BTreeMap::new();
    for _ in 0..d.len(9)? {
        fields.insert((d.u32()? as usize, d.opt_str()?), d.u32()?);
    }
    let board_ns = (0..d.len(13)?)
        .map(|_| Some(((d.u32()? as usize, d.opt_str()?, d.u32()?), d.u32()?)))
        .collect::<Option<Vec<_>>>()?;
    let rulings = (0..d.len(12)?)
        .map(|_| Some((d.str()?, d.u32()?)))
        .collect::<Option<Vec<_>>>()?;
    d.b.is_empty().then_some(AuditCache {
        last_seq,
        newlines,
        len,
        declares,
        participants,
        sessions,
        teams,
        fields,
        board_ns,
        rulings,
        ..Default::default()
    })
}

pub(super) fn decode_sums(b: &[u8]) -> Option<Sums> {
    let mut d = Dec { b };
    let mut groups = Vec::new();
    for _ in 0..d.len(13)? {
        let k = (d.u32()? as usize, d.opt_str()?);
        let members = (0..d.len(40)?)
            .map(|_| d.standing())
            .collect::<Option<Vec<_>>>()?;
        groups.push((k, members));
    }
    if !d.b.is_empty() {
        return None;
    }
    Sums::from_groups(groups)
}

pub(super) fn decode_standings(b: &[u8]) -> Option<Vec<Standing>> {
    let mut d = Dec { b };
    let v = (0..d.len(40)?)
        .map(|_| d.standing())
        .collect::<Option<Vec<_>>>()?;
    d.b.is_empty().then_some(v)
}

pub(super) type Lines = (Vec<((String, u32), Vec<LineRef>)>, Vec<LineRef>, MatchTags);

pub(super) fn decode_lines(b: &[u8]) -> Option<Lines> {
    let mut d = Dec { b };
    let boards = (0..d.len(20)?)
        .map(|_| {
            let k = (d.str()?, d.u32()?);
            let lines = (0..d.len(20)?)
                .map(|_| d.line())
                .collect::<Option<Vec<_>>>()?;
            Some((k, lines))
        })
        .collect::<Option<Vec<_>>>()?;
    let decl = (0..d.len(20)?)
        .map(|_| d.line())
        .collect::<Option<Vec<_>>>()?;
    let ids = (0..d.len(8)?)
        .map(|_| Some((d.str()?, d.str()?)))
        .collect::<Option<Vec<_>>>()?;
    let lines = (0..d.len(8)?)
        .map(|_| {
            (0..d.len(4)?)
                .map(|_| {
                    d.u32()
                        .filter(|&t| t == NO_MATCH || (t as usize) < ids.len())
                })
                .collect::<Option<Vec<u32>>>()
        })
        .collect::<Option<Vec<_>>>()?;
    let ok =
        lines.len() <= boards.len() && lines.iter().zip(&boards).all(|(t, b)| t.len() <= b.1.len());
    (d.b.is_empty() && ok).then_some((boards, decl, MatchTags { ids, lines }))
}
