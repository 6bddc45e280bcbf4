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

mod builder;
mod codec;
mod files;
mod tags;

pub(crate) use crate::outfile::cache::{
    hex, open_regular, read_regular, replace_file, replace_file_with,
};
pub use builder::{body, CacheBuilder};
use codec::*;
pub use files::FileStat;
use files::*;
pub use tags::{MatchIndex, MatchTags, Tagger, NO_MATCH};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::event::{Envelope, Event, OnBoard};
use crate::replay::{Participant, State};
use crate::standings::{Standing, Sums};

/// Cache files kept in the directory (the newest by modification time).
pub const KEEP: usize = 8;

const MAGIC: &[u8; 16] = b"frekans-audit\0\0\x03";

/// A directory of audit caches as one build of the program keeps it. A cache's numbers are only
/// valid with the program that computed them, down to its build: `build` is written in every
/// file, and a file of another build is not read (a rebuilt frekans, whose scoring may have
/// changed under the same version, never reads an older build's cache). The build is told by
/// `app::Context` (the executable's size and modification time): nothing here asks the system
/// which program runs.
#[derive(Clone, Copy, Debug)]
pub struct Store<'a> {
    pub dir: &'a Path,
    pub build: &'a str,
    /// The world whose clock a recorded status is judged by (the command's: `app::Context`
    /// gives its own; nothing here reads the system's but through it).
    pub clock: &'a Clock,
}

/// The real world, the clock of a store given none.
static REAL_CLOCK: std::sync::LazyLock<Clock> =
    std::sync::LazyLock::new(|| std::sync::Arc::new(crate::world::Real));

impl<'a> Store<'a> {
    /// The store in `dir` of the build `build`, judged by the real clock.
    pub fn new(dir: &'a Path, build: &'a str) -> Store<'a> {
        Store {
            dir,
            build,
            clock: &REAL_CLOCK,
        }
    }

    /// This store, its recorded statuses judged by `world`'s clock.
    pub fn with_clock(self, world: &'a Clock) -> Store<'a> {
        Store {
            clock: world,
            ..self
        }
    }
}

/// What a cache file says wrote it: the version, the file's format and the build.
fn program(build: &str) -> String {
    format!(
        "frekans {} audit cache 8 build {build}",
        env!("CARGO_PKG_VERSION")
    )
}

/// Where an event line is in the log's bytes (after a byte-order mark, as the reader sees them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LineRef {
    pub offset: u64,
    pub len: u32,
    pub line: u32,
    pub seq: u32,
}

/// A pair-form board of the whole scoring: (session, comparison group, board) and its tables.
pub type BoardN = ((usize, Option<String>, u32), u32);

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

/// How long a file's times must be in the past for its status to be recorded.
pub const SETTLED: std::time::Duration = std::time::Duration::from_secs(2);

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

    /// The cache of the log whose key is `key`, when the store's directory has a whole one
    /// written by its build; `None` otherwise (a damaged or foreign file is not an error: the
    /// audit is then answered the long way and the file written again).
    pub fn load(store: Store, key: &str) -> Option<AuditCache> {
        let path = file_of(store.dir, key);
        let file = open_regular(&path)?;
        // (read-only; a cache file is only ever replaced whole, renamed into place, never
        // written in place, so the mapped bytes do not change; they are checked by their digest)
        let map = file.map().ok()?;
        let _s = tracing::debug_span!("decode").entered();
        let c = decode(&map, key, &program(store.build));
        if let Some(why) = c.as_ref().and_then(AuditCache::why_not) {
            tracing::info!(file = %path.display(), "audit cache inconsistent ({why})");
        }
        let c = c.filter(AuditCache::consistent);
        if c.is_none() {
            tracing::info!(file = %path.display(), "audit cache not usable (another version of frekans, or damaged): answering the long way");
        }
        c
    }

    /// Write the cache of the log `key` into the store (a temporary file renamed into place),
    /// and remove all but the newest [`KEEP`] cache files there.
    pub fn save(&self, store: Store, key: &str) -> std::io::Result<()> {
        let (dir, program) = (store.dir, program(store.build));
        let path = file_of(dir, key);
        let name = path
            .file_name()
            .expect("a cache file's name")
            .to_string_lossy();
        replace_file_with(dir, &name, |f| encode_to(self, key, &program, f))?;
        prune(dir, &path);
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
    /// for a store of `build` (`None` for anything not whole, not that build's, or not
    /// consistent); for the fuzz target of the decoder.
    pub fn from_bytes(bytes: &[u8], key: &str, build: &str) -> Option<AuditCache> {
        decode(bytes, key, &program(build)).filter(AuditCache::consistent)
    }

    /// The bytes [`save`](Self::save) writes for the log of key `key` into a store of `build`.
    pub fn to_bytes(&self, key: &str, build: &str) -> Vec<u8> {
        encode(self, key, &program(build))
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

/// A log's cache as a store has it: the log's key, the key again when it was hashed (for the
/// caller to record under the file's status once the file is read: [`Store::record`]), and
/// the cache, when the store has one for these bytes or can carry one on to them.
pub struct Found {
    pub key: String,
    pub hashed: Option<String>,
    pub cache: Option<AuditCache>,
}

/// A log file as a command read it: the file, kept open, and its status before it was read
/// (the log's key is recorded under that status only if the file has not changed since).
pub struct LogFile {
    pub file: crate::world::Handle,
    pub stat: Option<FileStat>,
}

/// The world whose clock a recorded status is judged by (the command's: nothing here reads the
/// system's).
pub type Clock = std::sync::Arc<dyn crate::world::World>;

/// The cache's life cycle, as a command goes through it: the log's key (recorded under its
/// file's status, or hashed), its cache found (the one kept for these bytes, or that of the log
/// before lines appended since, carried on by the audit's re-scoring of their boards,
/// `audit::extend_cache`, and kept), a cache made by a whole run kept (on another thread
/// while the command goes on) and the log's key recorded.
impl Store<'_> {
    /// The way in: the key of the log `bytes` (its file of status `stat`) and its cache.
    pub fn find(self, bytes: &[u8], stat: Option<FileStat>) -> Found {
        let (key, hashed) = self.key(bytes, stat);
        let cache = self.kept(bytes, &key, stat);
        Found { key, hashed, cache }
    }

    /// The key of the log `bytes`: recorded in the store under the file's status `stat`, or
    /// hashed (then also returned second, for the caller to record).
    pub fn key(self, bytes: &[u8], stat: Option<FileStat>) -> (String, Option<String>) {
        match stat.and_then(|s| s.recorded_key(self.dir)) {
            Some(k) => {
                tracing::info!("audit: the log's key from its unchanged file status");
                (k, None)
            }
            None => {
                let _s = tracing::info_span!("hash").entered();
                let k = log_key(bytes);
                (k.clone(), Some(k))
            }
        }
    }

    /// The audit cache of the log `bytes` (of key `key`, its file of status `stat`): the one
    /// kept for these bytes, or, for a log with lines appended since its last audit, that
    /// audit's cache carried on (and kept for these bytes); `None` when there is neither.
    pub fn kept(self, bytes: &[u8], key: &str, stat: Option<FileStat>) -> Option<AuditCache> {
        let c = {
            let _s = tracing::info_span!("cache").entered();
            // (a cache of another length is another log's: a status file edited to name it)
            AuditCache::load(self, key).filter(|c| c.fits(bytes))
        };
        if c.is_some() {
            return c;
        }
        // A log with lines appended since its last audit: that audit's cache, carried on.
        let (old_key, old_size) = stat?.previous(self.dir)?;
        let old_size = usize::try_from(old_size).ok()?;
        if old_size >= bytes.len() || log_key(&bytes[..old_size]) != old_key {
            return None;
        }
        let _s = tracing::info_span!("extend").entered();
        let old = AuditCache::load(self, &old_key).filter(|c| c.fits(&bytes[..old_size]))?;
        let new = super::extend_cache(bytes, old)?;
        tracing::info!("audit: the cache of the log before its last lines, carried on");
        self.keep(key, Some(&new));
        Some(new)
    }

    /// The audit cache of `all` (a log and one new line, as `append` writes it) carried on from
    /// that of the log before the line, when the store has it and it can be carried.
    pub fn carried(self, all: &[u8]) -> Option<AuditCache> {
        let _s = tracing::info_span!("carry").entered();
        // (the log before the new line: up to the newline that ends its last line)
        let before = match memchr::memrchr(b'\n', all.strip_suffix(b"\n")?) {
            Some(i) => &all[..=i],
            None => return None,
        };
        let old = AuditCache::load(self, &log_key(before))?;
        super::extend_cache(all, old)
    }

    /// Save `cache` (`None`: an event's line could not be placed) as the audit cache of the
    /// log whose key is `key`; `false`, with a warning, when it is not kept (never an error:
    /// the next audit answers the long way).
    pub fn keep(self, key: &str, cache: Option<&AuditCache>) -> bool {
        let _s = tracing::info_span!("cache_write").entered();
        let Some(c) = cache else {
            tracing::warn!("audit cache not kept: a line could not be placed");
            return false;
        };
        match c.save(self, key) {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!("audit cache not written to {}: {e}", self.dir.display());
                false
            }
        }
    }

    /// Record the key `key` of the log `log` under its file's status, when the file has not
    /// changed since it was read (any write to it changed its status: its change time), so
    /// that the next audit need not hash it.
    pub fn record(self, key: &str, log: &LogFile) {
        if let Some(s) = log.stat.filter(|&s| FileStat::of(&log.file) == Some(s)) {
            s.record(self.dir, key, self.clock.now());
        }
    }

    /// [`keep`](Self::keep) `cache` on another thread (joined when the handle is dropped), and
    /// then, with the log's file `log`, [`record`](Self::record) its key.
    pub fn keep_beside(
        self,
        key: String,
        cache: Option<AuditCache>,
        log: Option<LogFile>,
    ) -> Saving {
        let (dir, build) = (self.dir.to_path_buf(), self.build.to_string());
        let clock = self.clock.clone();
        Saving(Some(std::thread::spawn(move || {
            let store = Store::new(&dir, &build).with_clock(&clock);
            if store.keep(&key, cache.as_ref()) {
                if let Some(log) = &log {
                    store.record(&key, log);
                }
            }
        })))
    }
}

/// A cache being saved on another thread, joined however its owner ends (errors included: no
/// cache file is left half-written).
pub struct Saving(Option<std::thread::JoinHandle<()>>);

impl Saving {
    /// Nothing being saved.
    pub fn none() -> Saving {
        Saving(None)
    }
}

impl Drop for Saving {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            let _ = h.join();
        }
    }
}
