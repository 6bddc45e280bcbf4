//! The audit cache: what an audit of a log keeps of its whole scoring, so that the next audit of
//! the same log reads, replays and scores only the boards its question touches.
//!
//! An audit of a million-result log spends almost all its time reading, replaying and scoring
//! the whole log (the "after" side of `--ruling` and `--as-of` is the whole log). The cache keeps,
//! for one log's exact bytes:
//! - the whole log's standings, their sums (`standings::Sums`, exact) and each comparison
//!   group's N, and every pair-form board's number of tables;
//! - where every event line is: the lines of each board (results, rulings, deals, fouled-board
//!   events, corrections of its results, withdrawals of its rulings) and the other lines
//!   (championship, sessions, matches, penalties);
//! - the participants as the whole replay has them (a replay of a few boards is seeded with
//!   them, so the pairs' lines are not read again), the sessions' ids, which board each ruling
//!   is on.
//!
//! A later audit hashes the log (SHA-256, in parallel chunks; or, for a file whose status has
//! not changed since it was hashed, takes the key recorded under that status: [`FileStat`]) and,
//! when a cache file of that key exists and is whole, parses only the declarations and the touched boards' lines,
//! replays and scores those boards, and takes the standings from the cache with those boards
//! taken out and their other versions put in (`pipeline::rescore`). Anything it cannot answer
//! that way, it answers the long way. The file's own checksum (XXH3-128: the file is no security
//! boundary, only damage is looked for, and it is checked on every audit) is its last 16 bytes: a cache cut
//! short or altered is not used.
//!
//! The file is `<cache dir>/<hash of the log>.audit`, written to a temporary file and renamed;
//! the newest [`KEEP`] files are kept. It holds nothing that is not in the log or computed from
//! it, and is never needed: `--no-cache` (or a missing or unusable file) gives the same answer.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::event::{Envelope, Event, OnBoard};
use crate::num::{Total, Q};
use crate::replay::{Participant, State};
use crate::standings::{Standing, Sums};

/// How old a temporary file of the cache directory must be to be taken for a killed writer's.
const STALE: std::time::Duration = std::time::Duration::from_secs(600);

/// Cache files kept in the directory (the newest by modification time).
pub const KEEP: usize = 8;

const MAGIC: &[u8; 16] = b"frekans-audit\0\0\x01";

/// What the cache's numbers are only valid with: the program that computed them, down to its
/// build (the executable's size and modification time: a rebuilt frekans, whose scoring may
/// have changed under the same version, never reads an older build's cache).
fn program() -> String {
    static BUILD: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let build = BUILD.get_or_init(|| {
        let m = std::env::current_exe().and_then(std::fs::metadata);
        match m {
            Ok(m) => {
                let t = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{}:{t}", m.len())
            }
            Err(_) => String::new(),
        }
    });
    format!(
        "frekans {} audit cache 6 build {build}",
        env!("CARGO_PKG_VERSION")
    )
}

/// Where an event line is in the log's bytes (after a byte-order mark, as the reader sees them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRef {
    pub offset: u64,
    pub len: u32,
    pub line: u32,
    pub seq: u32,
}

/// A pair-form board of the whole scoring: (session, comparison group, board) and its tables.
pub type BoardN = ((usize, Option<String>, u32), u32);

/// Which team match each line of a team board is of, so that an audit of a ruling in a team
/// session reads the lines of the matches it changes and not those of every match of the
/// session. A line is tagged with its match when that is known from the log without replaying
/// it: a result names its match; a ruling or a correction is of its table's result's match; a
/// withdrawal is of its ruling's. Any other line (a deal, a ruling that makes its own table) is
/// of [`NO_MATCH`]: read with any match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchTags {
    /// (session id, match id) of each tag.
    pub ids: Vec<(String, String)>,
    /// Per board of `AuditCache::boards` (by index), the tags of its first lines; a line past
    /// the end (or a board past the end) is of no known match.
    pub lines: Vec<Vec<u32>>,
}

/// (session id, match id) → its tag in [`MatchTags::ids`].
pub type MatchIndex = crate::hash::FxMap<(String, String), u32>;

/// The tag of a line of no known match.
pub const NO_MATCH: u32 = u32::MAX;

impl MatchTags {
    /// The tag of line `j` of board `i`.
    pub fn get(&self, i: usize, j: usize) -> u32 {
        self.lines
            .get(i)
            .and_then(|v| v.get(j))
            .copied()
            .unwrap_or(NO_MATCH)
    }

    /// Tag line `j` of board `i` (its lines before `j` tagged already, or of no match).
    pub fn set(&mut self, i: usize, j: usize, tag: u32) {
        if tag == NO_MATCH {
            return;
        }
        if self.lines.len() <= i {
            self.lines.resize_with(i + 1, Vec::new);
        }
        let v = &mut self.lines[i];
        v.resize(j, NO_MATCH);
        v.push(tag);
    }

    /// The tag of match `id` of `session`, a new one when no line had it yet; `index` holds the
    /// tags by match, kept beside `ids` by the caller (see [`index`](Self::index)).
    pub fn intern(&mut self, index: &mut MatchIndex, session: &str, id: &str) -> u32 {
        let next = self.ids.len() as u32;
        let key = (session.to_string(), id.to_string());
        let t = *index.entry(key.clone()).or_insert(next);
        if t == next {
            self.ids.push(key);
        }
        t
    }

    /// The tags by match, for [`intern`](Self::intern).
    pub fn index(&self) -> MatchIndex {
        self.ids
            .iter()
            .enumerate()
            .map(|(t, k)| (k.clone(), t as u32))
            .collect()
    }

    /// The tag of a match, when some line has it.
    pub fn find(&self, session: &str, id: &str) -> Option<u32> {
        self.ids
            .iter()
            .position(|(s, m)| s == session && m == id)
            .map(|p| p as u32)
    }
}

/// What an audit keeps of a log's whole scoring (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct AuditCache {
    /// The log's last `seq`.
    pub last_seq: usize,
    /// How many newlines the log's bytes (after a byte-order mark) have, and how many bytes:
    /// where lines appended to it start.
    pub newlines: u64,
    pub len: u64,
    /// Whether the log declares its participants (C2).
    pub declares: bool,
    /// The whole replay's participants, in their numbering.
    pub participants: std::sync::Arc<Vec<Participant>>,
    pub sessions: Vec<String>,
    /// Whether each session is of a team form (an audit of one of its boards replays and
    /// re-scores all its boards: a match's points depend on every board of it).
    pub teams: Vec<bool>,
    pub fields: BTreeMap<(usize, Option<String>), u32>,
    pub board_ns: Vec<BoardN>,
    pub sums: Sums,
    pub standings: Vec<Standing>,
    /// Each ruling's id and the index of its board in `boards`.
    pub rulings: Vec<(String, u32)>,
    /// (session id, board) and its lines, in log order.
    pub boards: Vec<((String, u32), Vec<LineRef>)>,
    /// Every other event line but the participants' declarations, in log order.
    pub decl: Vec<LineRef>,
    /// The team match of each line of `boards`, where known.
    pub matches: MatchTags,
}

/// The cache key of a log: SHA-256 over its length and the SHA-256 of each 4 MiB chunk (the
/// chunks hashed in parallel), as hex.
pub fn log_key(bytes: &[u8]) -> String {
    use rayon::prelude::*;
    const CHUNK: usize = 4 << 20;
    let parts: Vec<[u8; 32]> = bytes
        .par_chunks(CHUNK)
        .map(|c| Sha256::digest(c).into())
        .collect();
    let mut h = Sha256::new();
    h.update(b"frekans log key 1\n");
    h.update((bytes.len() as u64).to_le_bytes());
    for p in &parts {
        h.update(p);
    }
    hex(&h.finalize())
}

/// Bytes as lower-case hex.
pub(crate) fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Write `bytes` as `dir/name` whole or not at all: to a temporary file of `dir` (`.NAME.PID.tmp`,
/// which `prune` removes once stale should the writer be killed), renamed into place.
pub(crate) fn replace_file(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    replace_file_with(dir, name, |f| std::io::Write::write_all(f, bytes))
}

/// [`replace_file`] of what `write` writes to the temporary file (opened to read it back too).
pub(crate) fn replace_file_with(
    dir: &Path,
    name: &str,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let (tmp, mut f) = create_tmp(dir, name)?;
    let written = write(&mut f).and_then(|()| std::fs::rename(&tmp, dir.join(name)));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// A new temporary file of `dir` for `name` (`.NAME.PID-N.tmp`), created exclusively: a name
/// planted there (a symlink included) is never written through.
fn create_tmp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    loop {
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp = dir.join(format!(".{name}.{}-{n}-{nanos:x}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1 << 20 => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The default cache directory: `FREKANS_AUDIT_CACHE`, else `$XDG_CACHE_HOME/frekans/audit`,
/// else `~/.cache/frekans/audit`; `None` when none can be named.
pub fn default_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("FREKANS_AUDIT_CACHE")
        .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("frekans").join("audit")))
        .or_else(|| env("HOME").map(|d| d.join(".cache").join("frekans").join("audit")))
}

/// Open `path` for reading only when it is a regular file (not a FIFO, a device, a socket or a
/// symlink planted in the cache directory): checked before opening without following a link,
/// opened without blocking and without following a link, and checked again on the handle.
pub(crate) fn open_regular(path: &Path) -> Option<std::fs::File> {
    if !std::fs::symlink_metadata(path).ok()?.file_type().is_file() {
        return None;
    }
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let f = o.open(path).ok()?;
    f.metadata().ok()?.file_type().is_file().then_some(f)
}

/// A regular file's text ([`open_regular`]), at most `limit` bytes of it.
pub(crate) fn read_regular(path: &Path, limit: u64) -> Option<Vec<u8>> {
    let f = open_regular(path)?;
    let mut v = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(f, limit + 1), &mut v).ok()?;
    (v.len() as u64 <= limit).then_some(v)
}

/// A status file's text (a line of under 200 bytes).
fn read_status(path: &Path) -> Option<String> {
    String::from_utf8(read_regular(path, 4096)?).ok()
}

fn file_of(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.audit"))
}

/// A log file's status (device, inode, size, modification and change times): what the cache
/// recognises an unchanged file by, so that a log whose key was recorded under its status need
/// not be hashed again. Any write to the file changes its change time (ctime), which no user
/// can set back; a status is recorded only once it has settled (both times at least
/// [`SETTLED`] in the past: a write in the same clock tick as the hashing cannot hide), and
/// only when the file did not change while it was hashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStat {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// How long a file's times must be in the past for its status to be recorded.
pub const SETTLED: std::time::Duration = std::time::Duration::from_secs(2);

impl FileStat {
    /// The status of an open file (`None` where the platform does not give it).
    pub fn of(file: &std::fs::File) -> Option<FileStat> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let m = file.metadata().ok()?;
            Some(FileStat {
                dev: m.dev(),
                ino: m.ino(),
                size: m.size(),
                mtime: (m.mtime(), m.mtime_nsec()),
                ctime: (m.ctime(), m.ctime_nsec()),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = file;
            None
        }
    }

    fn settled(&self) -> bool {
        let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) else {
            return false;
        };
        let latest = self.mtime.max(self.ctime).0;
        now.as_secs() as i64 - latest > SETTLED.as_secs() as i64
    }

    fn file(&self, dir: &Path) -> PathBuf {
        dir.join(format!("{:x}-{:x}.stat", self.dev, self.ino))
    }

    fn text(&self, settled: bool, key: &str) -> String {
        format!(
            "{} {} {} {} {} {} {} {} {key}\n",
            self.dev,
            self.ino,
            self.size,
            self.mtime.0,
            self.mtime.1,
            self.ctime.0,
            self.ctime.1,
            u8::from(settled)
        )
    }

    /// The key recorded in `dir` for a file of exactly this status, recorded once settled.
    pub fn recorded_key(&self, dir: &Path) -> Option<String> {
        let text = read_status(&self.file(dir))?;
        let key = text.trim_end().rsplit(' ').next()?;
        (key.len() == 64 && text == self.text(true, key)).then(|| key.to_string())
    }

    /// The key and size last recorded for this file (same device and inode), whatever its
    /// times: the log as it was before lines were appended to it, when its bytes are a prefix
    /// of these (the caller checks).
    pub fn previous(&self, dir: &Path) -> Option<(String, u64)> {
        let text = read_status(&self.file(dir))?;
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 9 || f[0] != self.dev.to_string() || f[1] != self.ino.to_string() {
            return None;
        }
        Some((f[8].to_string(), f[2].parse().ok()?))
    }

    /// Record `key` (the SHA-256 key of the file's bytes, hashed while the file had this
    /// status, which it still has) under this status: for [`recorded_key`](Self::recorded_key)
    /// once it has settled, for [`previous`](Self::previous) at once.
    pub fn record(&self, dir: &Path, key: &str) {
        let settled = self.settled();
        if read_status(&self.file(dir)).as_deref() == Some(&self.text(settled, key)) {
            return;
        }
        let path = self.file(dir);
        let _ = replace_file(
            dir,
            &path.file_name().unwrap_or_default().to_string_lossy(),
            self.text(settled, key).as_bytes(),
        );
    }
}

/// Start offset of every physical line of `bytes` (the reader's lines: split at `\n`).
fn line_starts(bytes: &[u8]) -> Vec<u64> {
    let mut v = Vec::with_capacity(bytes.len() / 64 + 1);
    v.push(0);
    v.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i as u64 + 1));
    v
}

/// The reader's view of a log's bytes (a byte-order mark is not part of the first line).
pub fn body(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// An [`AuditCache`] made while a log's events go by, one at a time in log order (a streamed
/// `score` keeps no event): which board each line is on, the rulings' boards; where the lines
/// are in the log's bytes is worked out at the end.
#[derive(Debug, Default)]
pub struct CacheBuilder {
    /// The sessions named so far (a board is looked up by its session's place here).
    session_ids: Vec<String>,
    board_index: crate::hash::FxMap<(usize, u32), usize>,
    boards: Vec<((String, u32), Vec<LineRef>)>,
    /// Each result's board (by `seq`; `u32::MAX`: not a result).
    result_board: Vec<u32>,
    ruling_board: BTreeMap<String, usize>,
    rulings: Vec<(String, u32)>,
    decl: Vec<LineRef>,
    declares: bool,
    last_seq: usize,
    /// An event whose line or board could not be placed: no cache.
    failed: bool,
    /// The log's newlines and length (see `AuditCache`), from [`place`](Self::place).
    newlines: u64,
    len: u64,
    matches: MatchTags,
    /// (session id, match id) → tag; (board, NS) → its result's tag; result seq → tag; ruling
    /// id → tag (team results and what refers to them only).
    match_index: MatchIndex,
    table_tag: crate::hash::FxMap<(usize, String), u32>,
    result_tag: crate::hash::FxMap<usize, u32>,
    ruling_tag: crate::hash::FxMap<String, u32>,
}

impl crate::replay::Witness for CacheBuilder {
    fn restart(&mut self) {
        *self = CacheBuilder::default();
    }

    fn event(&mut self, e: &Envelope) {
        self.add(e);
    }
}

impl CacheBuilder {
    /// Where event `e`'s line is: its number and seq now, its bytes in `finish`.
    fn at(&self, e: &Envelope) -> Option<LineRef> {
        Some(LineRef {
            offset: 0,
            len: 0,
            line: u32::try_from(e.line).ok()?,
            seq: u32::try_from(e.seq).ok()?,
        })
    }

    /// The next event of the log.
    pub fn add(&mut self, e: &Envelope) {
        if self.failed {
            return;
        }
        self.last_seq = e.seq;
        if self.add_placed(e).is_none() {
            self.failed = true;
        }
    }

    fn add_placed(&mut self, e: &Envelope) -> Option<()> {
        if e.event.declares_participant() {
            // (the participants are kept whole, from the replay)
            self.declares = true;
            return Some(());
        }
        let index = match e.event.on_board() {
            Some(OnBoard::Board(s, b)) => {
                let si = match self.session_ids.iter().position(|x| x == s) {
                    Some(si) => si,
                    None => {
                        self.session_ids.push(s.to_string());
                        self.session_ids.len() - 1
                    }
                };
                Some(*self.board_index.entry((si, b)).or_insert_with(|| {
                    self.boards.push(((s.to_string(), b), Vec::new()));
                    self.boards.len() - 1
                }))
            }
            Some(OnBoard::OfResult(seq)) => match self.result_board.get(seq) {
                Some(&i) if i != u32::MAX => Some(i as usize),
                _ => return None,
            },
            Some(OnBoard::OfRuling(id)) => Some(*self.ruling_board.get(id)?),
            None => None,
        };
        let r = self.at(e)?;
        match index {
            None => self.decl.push(r),
            Some(i) => {
                self.boards[i].1.push(r);
                let tag = self.tag(i, e);
                self.matches.set(i, self.boards[i].1.len() - 1, tag);
                match &e.event {
                    Event::Result(_) => {
                        if self.result_board.len() <= e.seq {
                            let n = (e.seq + 1).max(2 * self.result_board.len());
                            self.result_board.resize(n, u32::MAX);
                        }
                        self.result_board[e.seq] = u32::try_from(i).ok()?;
                    }
                    Event::Ruling(r) => {
                        self.ruling_board.insert(r.id.clone(), i);
                        self.rulings.push((r.id.clone(), i as u32));
                    }
                    _ => {}
                }
            }
        }
        Some(())
    }

    /// The match tag of event `e`, on board `i` (see [`MatchTags`]).
    fn tag(&mut self, i: usize, e: &Envelope) -> u32 {
        let known = |t: Option<&u32>| t.copied().unwrap_or(NO_MATCH);
        match &e.event {
            Event::Result(r) => {
                let Some(m) = &r.match_id else {
                    return NO_MATCH;
                };
                let t = self.matches.intern(&mut self.match_index, &r.session, m);
                self.table_tag.insert((i, r.ns.clone()), t);
                self.result_tag.insert(e.seq, t);
                t
            }
            Event::Ruling(r) => {
                let t = known(self.table_tag.get(&(i, r.ns.clone())));
                if t != NO_MATCH {
                    self.ruling_tag.insert(r.id.clone(), t);
                }
                t
            }
            Event::Correction(c) => known(self.result_tag.get(&c.result)),
            Event::RulingWithdrawn { ruling } => known(self.ruling_tag.get(ruling)),
            _ => NO_MATCH,
        }
    }

    /// Where every line added is in the log's `bytes` (once every event is added).
    pub fn place(&mut self, bytes: &[u8]) {
        if self.place_lines(bytes).is_none() {
            self.failed = true;
        }
    }

    fn place_lines(&mut self, bytes: &[u8]) -> Option<()> {
        let body = body(bytes);
        let starts = line_starts(body);
        let place = |r: &mut LineRef| -> Option<()> {
            let i = (r.line as usize).checked_sub(1)?;
            let start = *starts.get(i)?;
            let end = starts.get(i + 1).map_or(body.len() as u64, |&s| s - 1);
            r.offset = start;
            r.len = u32::try_from(end - start).ok()?;
            Some(())
        };
        for r in self
            .decl
            .iter_mut()
            .chain(self.boards.iter_mut().flat_map(|b| b.1.iter_mut()))
        {
            place(r)?;
        }
        self.newlines = starts.len() as u64 - 1;
        self.len = body.len() as u64;
        Some(())
    }

    /// The cache of the log whose every event was added and placed (validated without
    /// errors), replayed whole into `state` and scored whole into `scored`; `None` when an
    /// event's line could not be placed.
    pub fn finish(self, state: &State, scored: &crate::pipeline::Scored) -> Option<AuditCache> {
        if self.failed {
            return None;
        }
        let board_ns = scored
            .boards
            .iter()
            .filter(|b| b.team.is_none())
            .map(|b| {
                (
                    (b.session, b.section.clone(), b.board),
                    (b.sides.len() / 2) as u32,
                )
            })
            .collect();
        Some(AuditCache {
            last_seq: self.last_seq,
            newlines: self.newlines,
            len: self.len,
            declares: self.declares,
            participants: state.participants.clone(),
            sessions: state.sessions.iter().map(|s| s.def.id.clone()).collect(),
            teams: state
                .sessions
                .iter()
                .map(|s| s.def.form.is_team())
                .collect(),
            fields: scored.fields.clone(),
            board_ns,
            sums: scored.sums.clone(),
            standings: scored.standings.clone(),
            rulings: self.rulings,
            boards: self.boards,
            decl: self.decl,
            matches: self.matches,
        })
    }
}

impl AuditCache {
    /// What to keep of a whole log (`bytes`, its events and whole replay `state`, validated
    /// without errors) scored whole into `scored`; `None` when an event's line cannot be placed.
    pub fn build(
        bytes: &[u8],
        events: &[Envelope],
        state: &State,
        scored: &crate::pipeline::Scored,
    ) -> Option<AuditCache> {
        let mut b = CacheBuilder::default();
        for e in events {
            b.add(e);
        }
        b.place(bytes);
        b.finish(state, scored)
    }

    /// The cache of the log whose key is `key`, when `dir` has a whole one written by this
    /// program; `None` otherwise (a damaged or foreign file is not an error: the audit is then
    /// answered the long way and the file written again).
    pub fn load(dir: &Path, key: &str) -> Option<AuditCache> {
        let path = file_of(dir, key);
        let file = open_regular(&path)?;
        // SAFETY: read-only; a cache file is only ever replaced whole (renamed into place), never
        // written in place, so the mapped bytes do not change; they are checked by their digest.
        let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
        let _s = tracing::debug_span!("decode").entered();
        let c = decode(&map, key);
        if let Some(why) = c.as_ref().and_then(AuditCache::why_not) {
            tracing::info!(file = %path.display(), "audit cache inconsistent ({why})");
        }
        let c = c.filter(AuditCache::consistent);
        if c.is_none() {
            tracing::info!(file = %path.display(), "audit cache not usable (another version of frekans, or damaged): answering the long way");
        }
        c
    }

    /// Write the cache of the log `key` into `dir` (a temporary file renamed into place), and
    /// remove all but the newest [`KEEP`] cache files there.
    pub fn save(&self, dir: &Path, key: &str) -> std::io::Result<()> {
        let path = file_of(dir, key);
        let name = path
            .file_name()
            .expect("a cache file's name")
            .to_string_lossy();
        replace_file_with(dir, &name, |f| encode_to(self, key, f))?;
        prune(dir);
        Ok(())
    }

    /// The lines of the declarations and of the boards `which` (indexes into `boards`), in log
    /// order, as the reader's `(line, seq, bytes)`; `None` when a line falls outside `bytes`.
    pub fn lines<'b>(
        &self,
        bytes: &'b [u8],
        which: &[usize],
    ) -> Option<Vec<(usize, usize, &'b [u8])>> {
        self.lines_with(bytes, which, |_, _| true)
    }

    /// [`lines`](Self::lines), of the boards' lines only those `keep` accepts (given the board
    /// and the line's match tag).
    pub fn lines_with<'b>(
        &self,
        bytes: &'b [u8],
        which: &[usize],
        keep: impl Fn(usize, u32) -> bool,
    ) -> Option<Vec<(usize, usize, &'b [u8])>> {
        self.read(bytes, self.decl.clone(), which, keep)
    }

    /// [`lines_with`](Self::lines_with) without the declarations.
    pub fn board_lines_with<'b>(
        &self,
        bytes: &'b [u8],
        which: &[usize],
        keep: impl Fn(usize, u32) -> bool,
    ) -> Option<Vec<(usize, usize, &'b [u8])>> {
        self.read(bytes, Vec::new(), which, keep)
    }

    /// The lines `refs` and those of the boards `which` that `keep` accepts, in log order.
    fn read<'b>(
        &self,
        bytes: &'b [u8],
        mut refs: Vec<LineRef>,
        which: &[usize],
        keep: impl Fn(usize, u32) -> bool,
    ) -> Option<Vec<(usize, usize, &'b [u8])>> {
        let body = body(bytes);
        for &i in which {
            let lines = &self.boards.get(i)?.1;
            refs.extend(
                lines
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| keep(i, self.matches.get(i, j)))
                    .map(|(_, r)| *r),
            );
        }
        refs.sort_unstable_by_key(|r| r.seq);
        refs.iter()
            .map(|r| {
                let s = usize::try_from(r.offset).ok()?;
                let e = s.checked_add(r.len as usize)?;
                // (a line of the log: it begins after a line break and ends at one, or at the
                // end; a cache of other bytes is not read as this log's lines)
                let starts = s == 0 || body.get(s - 1) == Some(&b'\n');
                let ends = matches!(body.get(e), None | Some(b'\n' | b'\r'));
                (starts && ends).then_some(())?;
                Some((r.line as usize, r.seq as usize, body.get(s..e)?))
            })
            .collect()
    }
}

/// Remove all but the newest [`KEEP`] `.audit` files of `dir`.
fn prune(dir: &Path) {
    // The temporary files of writers killed mid-write (a live writer renames its own within
    // seconds of making it).
    if let Ok(rd) = std::fs::read_dir(dir) {
        let stale = |e: &std::fs::DirEntry| {
            e.metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > STALE)
        };
        for e in rd.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') && name.ends_with(".tmp") && stale(&e) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    for (ext, keep) in [("audit", KEEP), ("stat", 4 * KEEP)] {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = rd
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == ext))
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .collect();
        files.sort_by_key(|f| std::cmp::Reverse(f.0));
        for (_, p) in files.into_iter().skip(keep) {
            let _ = std::fs::remove_file(p);
        }
    }
}

// ---- the file format: little-endian fields, strings as length + UTF-8 ----

/// The encoder of a part: written to `out` through a buffer of [`Enc::FLUSH`] bytes, so that
/// a cache of a million results (about 70 MB) is never held whole in memory beside the
/// scored championship it describes; `n` counts the bytes, `err` keeps the first write error.
struct Enc<'w> {
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
    fn put(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= Self::FLUSH {
            self.flush();
        }
    }
    fn flush(&mut self) {
        if self.err.is_none() {
            if let Err(e) = self.out.write_all(&self.buf) {
                self.err = Some(e);
            }
        }
        self.n += self.buf.len() as u64;
        self.buf.clear();
    }
    /// Everything written: how many bytes, or the first error.
    fn finish(mut self) -> std::io::Result<u64> {
        self.flush();
        match self.err {
            Some(e) => Err(e),
            None => Ok(self.n),
        }
    }
    fn u8(&mut self, x: u8) {
        self.put(&[x]);
    }
    fn u32(&mut self, x: u32) {
        self.put(&x.to_le_bytes());
    }
    fn u64(&mut self, x: u64) {
        self.put(&x.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.u64(n as u64);
    }
    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.put(s.as_bytes());
    }
    fn opt_str(&mut self, s: Option<&str>) {
        match s {
            None => self.u8(0),
            Some(s) => {
                self.u8(1);
                self.str(s);
            }
        }
    }
    fn q(&mut self, q: Q) {
        self.put(&q.numer().to_le_bytes());
        self.put(&q.denom().to_le_bytes());
    }
    fn total(&mut self, t: &Total) {
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
    fn standing(&mut self, s: &Standing) {
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
    fn line(&mut self, r: &LineRef) {
        self.u64(r.offset);
        self.u32(r.len);
        self.u32(r.line);
        self.u32(r.seq);
    }
}

struct Dec<'a> {
    b: &'a [u8],
}

impl<'a> Dec<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.b.len() {
            return None;
        }
        let (h, t) = self.b.split_at(n);
        self.b = t;
        Some(h)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn i128(&mut self) -> Option<i128> {
        Some(i128::from_le_bytes(self.take(16)?.try_into().ok()?))
    }
    /// A count of items at least `min` bytes each: no more than the bytes left could hold.
    fn len(&mut self, min: usize) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n.checked_mul(min.max(1))? <= self.b.len()).then_some(n)
    }
    fn str(&mut self) -> Option<String> {
        let n = self.len(1)?;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
    fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        match self.u8()? {
            0 => Some(None),
            1 => Some(Some(f(self)?)),
            _ => None,
        }
    }
    fn opt_str(&mut self) -> Option<Option<String>> {
        self.opt(Dec::str)
    }
    fn q(&mut self) -> Option<Q> {
        let (n, d) = (self.i128()?, self.i128()?);
        Q::from_lowest_terms(n, d)
    }
    fn total(&mut self) -> Option<Total> {
        let q = self.q()?;
        let f = self.opt(|d| d.u64().map(f64::from_bits))?;
        Some(Total::from_parts(q, f))
    }
    fn standing(&mut self) -> Option<Standing> {
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
    fn line(&mut self) -> Option<LineRef> {
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

fn encode(c: &AuditCache, key: &str) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    encode_to(c, key, &mut out).expect("writing to memory does not fail");
    out.into_inner()
}

/// Write the cache file of `c` for the log `key` to `w` (at its start): each part streamed
/// through a small buffer, the parts' lengths filled in once known, and the checksum of what
/// was written read back from `w` (XXH3 of 70 MB from the page cache: a few milliseconds).
fn encode_to<W>(c: &AuditCache, key: &str, w: &mut W) -> std::io::Result<()>
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
fn checksum(body: &[u8]) -> [u8; 16] {
    xxhash_rust::xxh3::xxh3_128(body).to_le_bytes()
}

fn decode(bytes: &[u8], key: &str) -> Option<AuditCache> {
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
fn decode_head(b: &[u8]) -> Option<AuditCache> {
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

fn decode_sums(b: &[u8]) -> Option<Sums> {
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

fn decode_standings(b: &[u8]) -> Option<Vec<Standing>> {
    let mut d = Dec { b };
    let v = (0..d.len(40)?)
        .map(|_| d.standing())
        .collect::<Option<Vec<_>>>()?;
    d.b.is_empty().then_some(v)
}

type Lines = (Vec<((String, u32), Vec<LineRef>)>, Vec<LineRef>, MatchTags);

fn decode_lines(b: &[u8]) -> Option<Lines> {
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

impl AuditCache {
    /// Whether what was decoded holds together: every index in range (sessions, participants,
    /// boards, match tags), every line within the log's recorded length and seq, the standings
    /// and sums of known sessions and participants. A file whose checksum holds but whose
    /// content was altered is then not used (the audit answers the long way) rather than
    /// indexing out of bounds or answering from numbers that cannot be this log's.
    pub fn consistent(&self) -> bool {
        self.why_not().is_none()
    }

    /// The first inconsistency [`consistent`](Self::consistent) finds.
    pub fn why_not(&self) -> Option<&'static str> {
        let (sessions, pids) = (self.sessions.len(), self.participants.len());
        // (a sum's ranks are not kept: only its indices are checked)
        let indexed = |s: &Standing| {
            s.session.is_none_or(|x| x < sessions) && (s.participant as usize) < pids
        };
        let standing = |s: &Standing| {
            indexed(s) && s.rank >= 1 && s.rank <= s.rank_to && s.rank_to as usize <= pids
        };
        let line = |r: &LineRef| {
            r.offset
                .checked_add(u64::from(r.len))
                .is_some_and(|e| e <= self.len)
                && u64::from(r.line) >= 1
                && u64::from(r.line) <= self.newlines + 1
                && r.seq >= 1
                && r.seq as usize <= self.last_seq
        };
        let session_ids: std::collections::HashSet<&str> =
            self.sessions.iter().map(String::as_str).collect();
        let checks: [(&'static str, bool); 11] = [
            ("teams", self.teams.len() == sessions),
            // (an event line is at least 2 bytes and a line break; no more lines than bytes)
            ("last seq", self.last_seq as u64 <= self.len / 3 + 1),
            ("newlines", self.newlines <= self.len),
            ("fields", self.fields.keys().all(|(s, _)| *s < sessions)),
            (
                "boards' N",
                self.board_ns.iter().all(|((s, _, _), _)| *s < sessions),
            ),
            (
                "rulings",
                self.rulings
                    .iter()
                    .all(|r| (r.1 as usize) < self.boards.len()),
            ),
            ("standings", self.standings.iter().all(standing)),
            (
                "sums",
                self.sums
                    .to_groups()
                    .iter()
                    .all(|((s, _), m)| *s < sessions && m.iter().all(|x| indexed(x))),
            ),
            (
                "boards",
                self.boards.iter().all(|((s, _), lines)| {
                    session_ids.contains(s.as_str()) && lines.iter().all(line)
                }),
            ),
            ("declarations", self.decl.iter().all(line)),
            ("match tags", self.matches.lines.len() <= self.boards.len()),
        ];
        checks.iter().find(|c| !c.1).map(|c| c.0)
    }

    /// A cache file's bytes decoded for the log of key `key`, as [`load`](Self::load) does
    /// (`None` for anything not whole, not this program's, or not consistent); for the fuzz
    /// target of the decoder.
    pub fn from_bytes(bytes: &[u8], key: &str) -> Option<AuditCache> {
        decode(bytes, key).filter(AuditCache::consistent)
    }

    /// The bytes [`save`](Self::save) writes for the log of key `key`.
    pub fn to_bytes(&self, key: &str) -> Vec<u8> {
        encode(self, key)
    }

    /// `bytes` (a cache file's, altered) with their checksum made right again: what a forger
    /// of the file, not an accident, would write (for tests and the fuzz target).
    pub fn reseal(bytes: &mut [u8]) {
        if let Some(n) = bytes.len().checked_sub(16) {
            let digest = checksum(&bytes[..n]);
            bytes[n..].copy_from_slice(&digest);
        }
    }

    /// Whether this cache can be of the log `bytes`: the log's length as recorded. (Its key,
    /// the hash of those bytes, names the file; a key taken from a status file, which anyone
    /// who can write the cache directory can edit, is checked this far at no cost.)
    pub fn fits(&self, bytes: &[u8]) -> bool {
        self.len == body(bytes).len() as u64
    }
}

/// Whether `state` numbers its participants and sessions as the cache does (a replay of the
/// declarations and some boards must, for the cached standings to be read with its numbers).
pub fn same_numbering(c: &AuditCache, state: &State) -> bool {
    state.participants.len() == c.participants.len()
        && state
            .participants
            .iter()
            .zip(c.participants.iter())
            .all(|(p, q)| p.id == q.id)
        && state.sessions.len() == c.sessions.len()
        && state
            .sessions
            .iter()
            .zip(&c.sessions)
            .all(|(s, id)| s.def.id == *id)
}
