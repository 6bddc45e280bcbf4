//! One function per command, composing the stages. The binary maps their results to exit codes.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;

use crate::audit::cache::CacheBuilder;
use crate::error::{InvalidLog, LogError, Notice};
use crate::event::{read_log, Envelope};
use crate::export;
use crate::pipeline::{self, Scored};
use crate::replay::{replay, ReplayScope, State};
use crate::score::BoardScore;

mod whatif;
pub use whatif::{alternatives, read_proposals, whatif};

/// Why a command failed: the log is invalid (exit 2), or something else (exit 1).
#[derive(Debug)]
pub enum AppError {
    Invalid(InvalidLog),
    /// The command asks for something the log does not have (exit 2, like invalid input).
    BadRequest(String),
    Other(anyhow::Error),
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::Invalid(e) => write!(f, "{e}"),
            AppError::BadRequest(m) => f.write_str(m),
            AppError::Other(e) => write!(f, "{e:#}"),
        }
    }
}

impl From<anyhow::Error> for AppError {
    fn from(e: anyhow::Error) -> AppError {
        AppError::Other(e)
    }
}

impl From<pipeline::ScoreError> for AppError {
    fn from(e: pipeline::ScoreError) -> AppError {
        AppError::Other(anyhow::Error::new(e))
    }
}

/// The replay's errors and the reader's: a log with any is refused (exit 2), every error once,
/// in line order.
fn refuse_if_any(mut errors: Vec<LogError>, read: Vec<LogError>) -> Result<(), AppError> {
    errors.extend(read);
    if errors.is_empty() {
        return Ok(());
    }
    errors.sort();
    errors.dedup();
    Err(AppError::Invalid(InvalidLog { errors }))
}

/// The bytes of a log file.
fn read_file(path: &Path) -> Result<Vec<u8>, AppError> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot read the log {}", path.display()))?;
    read_log_from(&file, path)
}

/// The bytes of the open log `file`, at most [`crate::limits::max_log_bytes`] of them (an
/// endless or huge input is a bad request, exit 2, not a machine out of memory).
fn read_log_from(file: &std::fs::File, path: &Path) -> Result<Vec<u8>, AppError> {
    match crate::limits::read_bounded(
        file,
        file.metadata().map_or(0, |m| m.len()),
        crate::limits::max_log_bytes(),
        &format!("the log {}", path.display()),
        " (FREKANS_MAX_LOG_MIB sets another limit, in MiB)",
    ) {
        Ok(b) => Ok(b),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            Err(AppError::BadRequest(e.to_string()))
        }
        Err(e) => Err(AppError::Other(
            anyhow::Error::new(e).context(format!("cannot read the log {}", path.display())),
        )),
    }
}

/// A log read and validated whole, replayed within a scope.
pub struct Loaded {
    pub events: Vec<Envelope>,
    pub state: State,
}

/// Read, validate (the whole log, whatever the scope) and replay.
pub fn load_bytes(bytes: &[u8], scope: &ReplayScope) -> Result<Loaded, AppError> {
    let read = {
        let _s = tracing::info_span!("read").entered();
        let _p = crate::progress::stage(&format!("reading the log ({} MB)", bytes.len() >> 20));
        read_log(bytes)
    };
    let (full, errors) = {
        let _s = tracing::info_span!("replay").entered();
        let _p = crate::progress::stage(&format!("replaying {} events", read.events.len()));
        replay(&read.events, &ReplayScope::default())
    };
    refuse_if_any(errors, read.errors)?;
    let state = if scope.upto.is_none() && scope.skip.is_empty() {
        full
    } else {
        replay(&read.events, scope).0
    };
    Ok(Loaded {
        events: read.events,
        state,
    })
}

pub fn load(path: &Path, scope: &ReplayScope) -> Result<Loaded, AppError> {
    let bytes = read_file(path)?;
    load_bytes(&bytes, scope)
}

/// A log read, validated and replayed whole without keeping its events (`check`, `score`):
/// the reader hands each parsed batch to the replay, so a million results never sit in memory
/// as events next to the state they make.
pub struct Streamed {
    pub state: State,
    /// How many events the log has.
    pub events: usize,
    /// Its head, when the reader knew it on the way (see [`crate::integrity::head_known`]).
    pub head: Option<String>,
}

/// Read, validate and replay a whole log from its bytes, streaming (see [`Streamed`]).
pub fn load_streamed_bytes(bytes: &[u8]) -> Result<Streamed, AppError> {
    load_streamed_batched(bytes, crate::event::read::BATCH)
}

/// [`load_streamed_bytes`] reading `batch` lines at a time (tests: the same for every size).
pub fn load_streamed_batched(bytes: &[u8], batch: usize) -> Result<Streamed, AppError> {
    load_streamed_with(bytes, batch, None)
}

/// [`load_streamed_batched`], each event also given to `cache` (the audit cache of the log,
/// made on the way: see `score`).
pub fn load_streamed_with(
    bytes: &[u8],
    batch: usize,
    cache: Option<&mut CacheBuilder>,
) -> Result<Streamed, AppError> {
    let r = crate::replay::replay_streamed(
        bytes,
        batch,
        cache.map(|c| c as &mut dyn crate::replay::Witness),
    )
    .into_valid()
    .map_err(invalid)?;
    crate::progress::memory("reading and replaying");
    Ok(Streamed {
        state: r.state,
        events: r.events,
        head: r.head,
    })
}

/// A whole log read, validated and replayed streamed (no event kept); with `cache`, the audit
/// cache's index of its lines made on the way (`audit::cache::CacheBuilder`, its lines placed).
fn stream(
    bytes: &[u8],
    cache: bool,
) -> Result<(crate::replay::Streamed, Option<CacheBuilder>), Vec<LogError>> {
    let mut b = cache.then(CacheBuilder::default);
    let r = crate::replay::replay_streamed(
        bytes,
        crate::event::read::BATCH,
        b.as_mut().map(|b| b as &mut dyn crate::replay::Witness),
    )
    .into_valid()?;
    if let Some(b) = b.as_mut() {
        b.place(bytes);
    }
    Ok((r, b))
}

/// A log's errors, refused.
fn invalid(errors: Vec<LogError>) -> AppError {
    AppError::Invalid(InvalidLog { errors })
}

/// [`load_streamed_bytes`] of a file; its bytes are freed before this returns.
pub fn load_streamed(path: &Path) -> Result<Streamed, AppError> {
    let bytes = read_file(path)?;
    load_streamed_bytes(&bytes)
}

/// [`load_streamed_bytes`] and the log's head (crate::integrity): the reader's when it knows it
/// (every event hashed), else walked on a thread beside the reader — the walk allocates
/// nothing, and the replay, which is sequential, leaves a core idle much of the time.
fn load_with_head(bytes: &[u8]) -> Result<(Streamed, crate::integrity::Head), AppError> {
    use crate::integrity;
    let walk = !integrity::reader_knows_head(bytes);
    std::thread::scope(|s| {
        let walked = walk.then(|| s.spawn(|| integrity::head_beside(bytes)));
        let l = load_streamed_bytes(bytes)?;
        let walked = walked.and_then(|w| w.join().expect("the head's walk does not panic"));
        let head = match (walked, l.head.as_deref()) {
            (Some(w), None) => w,
            (_, known) => integrity::head_known(bytes, l.events, known),
        }
        .map_err(AppError::BadRequest)?;
        Ok((l, head))
    })
}

/// What `check` is also asked to prove (crate::integrity): that the log extends a published
/// head, and that its signed checkpoints are a key's and hold.
#[derive(Clone, Debug, Default)]
pub struct Proofs {
    pub head: Option<String>,
    pub key: Option<std::path::PathBuf>,
    pub sig: Option<std::path::PathBuf>,
}

/// `frekans check`: a one-paragraph report of a valid log, its head, and what `proofs` asked.
pub fn check(path: &Path, proofs: &Proofs) -> Result<String, AppError> {
    use crate::integrity;
    let bytes = read_file(path)?;
    // Every head on the way only when a proof needs them.
    let (l, head, heads) = if proofs.head.is_some() || proofs.key.is_some() {
        let l = load_streamed_bytes(&bytes)?;
        let heads = integrity::heads(&bytes).map_err(AppError::BadRequest)?;
        let head = integrity::Head {
            events: heads.len(),
            hash: heads
                .last()
                .map_or(crate::event::chain::GENESIS, String::as_str)
                .to_string(),
        };
        (l, head, heads)
    } else {
        let (l, head) = load_with_head(&bytes)?;
        (l, head, Vec::new())
    };
    drop(bytes);
    let mut proved = Vec::new();
    if let Some(text) = &proofs.head {
        let (n, hash) = integrity::parse_head(text).map_err(AppError::BadRequest)?;
        let at = integrity::extends(&heads, n, &hash).map_err(|e| {
            AppError::BadRequest(format!(
                "{} does not extend the published head: {e}",
                path.display()
            ))
        })?;
        proved.push(format!("extends the published head {hash} (event {at})"));
    }
    if let Some(key) = &proofs.key {
        let sig = proofs
            .sig
            .clone()
            .unwrap_or_else(|| integrity::sig_path(path));
        let last = integrity::verify(&heads, key, &sig).map_err(|e| {
            AppError::BadRequest(format!("{}: signed checkpoints: {e}", path.display()))
        })?;
        proved.push(format!(
            "every signed checkpoint of {} holds (the latest at event {}, {})",
            sig.display(),
            last.events,
            last.hash
        ));
    }
    let st = &l.state;
    let mut out = String::new();
    let played = st.tables.values().filter(|t| t.played.is_some()).count();
    let in_force = st
        .rulings
        .iter()
        .filter(|r| r.status == crate::replay::RulingStatus::InForce)
        .count();
    let _ = writeln!(
        out,
        "{}: valid, {} events: {} sessions, {} participants, {} results, {} rulings ({} in force), {} penalties",
        path.display(),
        l.events,
        st.sessions.len(),
        st.participants.len(),
        played,
        st.rulings.len(),
        in_force,
        st.penalties.len()
    );
    for n in &st.notices {
        let _ = writeln!(out, "notice: {n}");
    }
    let _ = writeln!(out, "head: {head}");
    for p in proved {
        let _ = writeln!(out, "{p}");
    }
    Ok(out)
}

/// `frekans sign`: the log (valid) signed at its head with the secret key `key`, the
/// checkpoint appended to `sig`.
pub fn sign(path: &Path, key: &Path, sig: &Path) -> Result<crate::integrity::Head, AppError> {
    let bytes = read_file(path)?;
    let (_, head) = load_with_head(&bytes)?;
    crate::integrity::sign(&head, key, sig).map_err(AppError::BadRequest)?;
    Ok(head)
}

/// What `score` did, for the terminal.
pub struct ScoreReport {
    pub scored: Scored,
    /// The replayed state; `score` frees its tables once the output rows are built (the
    /// Parquet files need only the boards and the participants), `results` says how many.
    pub state: State,
    /// The tables (results) of the log.
    pub results: usize,
}

/// The double-dummy table and par of every board with a `deal` event (deals.parquet); with
/// `cache` (the audit cache's directory), deals solved by an earlier run are taken from its
/// `dd` directory and new ones kept there.
pub fn double_dummy(
    state: &State,
    cache: Option<&Path>,
) -> Result<Vec<crate::dd::BoardDd>, AppError> {
    let _s = tracing::info_span!("double_dummy", deals = state.deals.len()).entered();
    let dir = cache.map(|d| d.join("dd"));
    crate::dd::solve_state(state, dir.as_deref()).map_err(|m| AppError::Other(anyhow::anyhow!(m)))
}

/// A log file read under a shared lock, as `audit` reads it (`append` and `repair` wait for
/// it), and its status before it was read.
struct LockedLog {
    file: std::fs::File,
    stat: Option<crate::audit::cache::FileStat>,
}

/// A log file read whole under a shared lock, released once read (a director's `append` need
/// not wait for the scoring); the file stays open for [`leave_cache`], which records the log's
/// key only if nothing was appended since.
fn read_locked(path: &Path) -> Result<(LockedLog, Vec<u8>), AppError> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot read the log {}", path.display()))?;
    let _ = file.lock_shared();
    let stat = crate::audit::cache::FileStat::of(&file);
    let read = read_log_from(&file, path);
    let _ = file.unlock();
    Ok((LockedLog { file, stat }, read?))
}

/// Leave `cache` (`None`: an event's line could not be placed) in `dir` as the audit cache of
/// the log `log` whose bytes' key is `key`, as the first audit of the log would (see
/// `audit::cache`); and the key under the file's status, when the file has not changed since
/// it was read, so that the next audit need not hash it. A cache not written is a warning,
/// never an error: the audit answers the long way.
fn leave_cache(
    dir: &Path,
    key: &str,
    cache: Option<crate::audit::cache::AuditCache>,
    log: &LockedLog,
) {
    use crate::audit::cache::FileStat;
    if !keep_cache(dir, key, cache.as_ref()) {
        return;
    }
    // (any write to the file since it was read changed its status: its change time)
    if let Some(s) = log.stat.filter(|&s| FileStat::of(&log.file) == Some(s)) {
        s.record(dir, key);
    }
}

/// Save `cache` (`None`: an event's line could not be placed) in `dir` as the audit cache of
/// the log whose key is `key`; `false`, with a warning, when it is not kept (never an error:
/// the next audit answers the long way).
fn keep_cache(dir: &Path, key: &str, cache: Option<&crate::audit::cache::AuditCache>) -> bool {
    let _s = tracing::info_span!("cache_write").entered();
    let Some(c) = cache else {
        tracing::warn!("audit cache not kept: a line could not be placed");
        return false;
    };
    match c.save(dir, key) {
        Ok(()) => true,
        Err(e) => {
            tracing::warn!("audit cache not written to {}: {e}", dir.display());
            false
        }
    }
}

/// What `append` keeps of the log it validated and wrote (with its audit cache to make).
pub struct AppendedLog {
    pub appended: crate::event::append::Appended,
    /// The whole log as written: its key, and its audit cache carried on from the log before
    /// the new line, or its replay and its events' lines to make it from.
    kept: Option<(String, Kept)>,
}

// (one value a run, moved once: not worth a box)
#[allow(clippy::large_enum_variant)]
enum Kept {
    Carried(crate::audit::cache::AuditCache),
    Made(State, CacheBuilder),
}

/// `frekans append`: validate `event` against the whole log and append it durably (see
/// `event::append`); with a cache directory, keep the log's audit cache ([`cache_appended`]):
/// that of the log before the new line carried on (`audit::extend_cache`: the new line's board
/// replayed and re-scored), when that log's cache is there and can be carried; else what the
/// cache is made of, taken while the log is validated (streamed, as `check` reads it).
pub fn append(
    path: &Path,
    event: &str,
    now: &str,
    cache: Option<&Path>,
) -> Result<AppendedLog, AppError> {
    use crate::event::append::{append_checked, AppendError};
    let r = append_checked(path, event, now, |all| {
        let Some(dir) = cache else {
            return stream(all, false).map(|_| None);
        };
        // The cache carried on first (the new log's key hashed beside it): the log is then
        // validated without making the cache's line index, unless it could not be carried.
        let (key, carried) = rayon::join(
            || crate::audit::cache::log_key(all),
            || carry_cache(dir, all),
        );
        let (r, b) = stream(all, carried.is_none())?;
        Ok(Some(match (carried, b) {
            (Some(c), _) => {
                tracing::info!(
                    "append: the audit cache of the log before the new line, carried on"
                );
                (key, Kept::Carried(c))
            }
            (None, Some(b)) => (key, Kept::Made(r.state, b)),
            (None, None) => return Ok(None),
        }))
    });
    match r {
        Ok((appended, kept)) => Ok(AppendedLog { appended, kept }),
        Err(AppendError::Invalid(e)) => Err(AppError::Invalid(e)),
        Err(AppendError::Io(e)) => Err(AppError::Other(
            anyhow::Error::new(e).context(format!("cannot append to {}", path.display())),
        )),
    }
}

/// The audit cache of `all` (a log and one new line) carried on from that of the log before the
/// line, when `dir` has it and it can be carried (see `audit::extend_cache`).
fn carry_cache(dir: &Path, all: &[u8]) -> Option<crate::audit::cache::AuditCache> {
    let _s = tracing::info_span!("carry").entered();
    // (the log before the new line: up to the newline that ends its last line)
    let before = match memchr::memrchr(b'\n', all.strip_suffix(b"\n")?) {
        Some(i) => &all[..=i],
        None => return None,
    };
    let old = crate::audit::cache::AuditCache::load(dir, &crate::audit::cache::log_key(before))?;
    crate::audit::extend_cache(all, old)
}

/// Leave in `dir` the audit cache of the log `append` wrote, as `score` would: the director's
/// audit of the event just appended answers from it. Saved after the event is written and
/// acknowledged (made then too, unless carried on); a cache not made is a warning, never an
/// error.
pub fn cache_appended(dir: &Path, log: AppendedLog) {
    let Some((key, kept)) = log.kept else {
        return;
    };
    let (state, b) = match kept {
        Kept::Carried(c) => {
            keep_cache(dir, &key, Some(&c));
            return;
        }
        Kept::Made(state, b) => (state, b),
    };
    let scored = match pipeline::score(&state) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!("audit cache not made: {e}");
            return;
        }
    };
    keep_cache(dir, &key, b.finish(&state, &scored).as_ref());
}

/// `frekans score`: replay, score, write the Parquet tables to `out` (with deals.parquet when
/// `dd`); with a cache directory, also leave the log's audit cache there (as the first audit
/// of the log would: the next `audit` is answered from it).
pub fn score(
    path: &Path,
    out: &Path,
    dd: bool,
    cache: Option<&Path>,
) -> Result<ScoreReport, AppError> {
    let (log, bytes) = read_locked(path)?;
    // Streamed: no event is kept once replayed, and the log's bytes are freed before scoring.
    let (mut l, builder) = stream(&bytes, cache.is_some()).map_err(invalid)?;
    crate::progress::memory("reading and replaying");
    let key = cache.map(|_| {
        let _s = tracing::info_span!("hash").entered();
        crate::audit::cache::log_key(&bytes)
    });
    drop(bytes);
    crate::progress::release_freed_memory();
    crate::progress::memory("freeing the log's bytes");
    let scored = pipeline::score(&l.state)?;
    crate::progress::release_freed_memory();
    crate::progress::memory("scoring");
    // The audit cache, written on another thread while the output tables are made (joined
    // however this returns, errors included: no cache file is left half-written).
    struct Joined(Option<std::thread::JoinHandle<()>>);
    impl Drop for Joined {
        fn drop(&mut self) {
            if let Some(h) = self.0.take() {
                let _ = h.join();
            }
        }
    }
    let _cache_job = Joined(match (cache, key) {
        (Some(dir), Some(key)) => {
            let c = builder.and_then(|b| b.finish(&l.state, &scored));
            let dir = dir.to_path_buf();
            Some(std::thread::spawn(move || leave_cache(&dir, &key, c, &log)))
        }
        _ => None,
    });
    let deals = if dd {
        Some(double_dummy(&l.state, cache)?)
    } else {
        None
    };
    let tables = {
        let _s = tracing::info_span!("rows").entered();
        let _p = crate::progress::stage("building the output tables");
        let mut t = export::rows::build_with(&l.state, &scored, false);
        t.deals = deals.map(|d| export::rows::deals(&l.state, &d));
        t
    };
    // The tables (a million results: about a quarter of the memory) are not needed any more:
    // freed before the Parquet stage, the run's peak.
    let results = l.state.tables.len();
    drop(std::mem::take(&mut l.state.tables));
    {
        let _s = tracing::info_span!("parquet").entered();
        let _p = crate::progress::stage("writing Parquet");
        export::parquet::write_scored(out, &l.state, &scored, &tables)?;
    }
    crate::progress::memory("writing Parquet");
    Ok(ScoreReport {
        scored,
        state: l.state,
        results,
    })
}

/// The short summary printed after `score`: each standings group's leaders, and the notices.
pub fn summary(r: &ScoreReport, lines_per_group: usize) -> String {
    let st = &r.state;
    let mut out = String::new();
    let boards = r.scored.boards.len();
    let _ = writeln!(
        out,
        "scored {} sessions, {} boards (per comparison group), {} results, {} rulings in force",
        st.sessions.len(),
        boards,
        r.results,
        st.rulings
            .iter()
            .filter(|x| x.status == crate::replay::RulingStatus::InForce)
            .count()
    );
    let mut last: Option<(Option<usize>, Option<String>)> = None;
    let mut shown = 0;
    for s in &r.scored.standings {
        let group_section = if s.session.is_some()
            && st.sessions[s.session.unwrap()].def.compare == crate::options::Compare::Section
        {
            s.section.clone()
        } else {
            None
        };
        let key = (s.session, group_section.clone());
        if last.as_ref() != Some(&key) {
            let name = match s.session {
                Some(i) => format!("session {}", st.sessions[i].def.id),
                None => "overall".to_string(),
            };
            let sec = group_section
                .map(|x| format!(", section {x}"))
                .unwrap_or_default();
            let _ = writeln!(out, "\n{name}{sec}:");
            last = Some(key);
            shown = 0;
        }
        if shown >= lines_per_group {
            continue;
        }
        shown += 1;
        let p = st.participant(s.participant);
        let place = if s.rank == s.rank_to {
            format!("{}", s.rank)
        } else {
            format!("{}-{}", s.rank, s.rank_to)
        };
        let value = match s.pct() {
            Some(p) => format!("{:>7.2}%", p),
            None => format!("{:>8.2}", s.total.to_f64()),
        };
        let who = match &p.name {
            Some(n) => n.clone(),
            None => p.players.join(" – "),
        };
        // One line per pair: a line break in a name or id shown escaped too (crate::text).
        let (id, who) = (crate::text::escape(&p.id), crate::text::escape(&who));
        let _ = writeln!(out, "  {place:>5}  {id:<6} {value}  {who}");
    }
    let knockouts: Vec<_> = r
        .scored
        .matches
        .iter()
        .filter(|m| st.matches[&(m.session, m.match_id.clone())].def.knockout)
        .collect();
    if !knockouts.is_empty() {
        let _ = writeln!(out, "\nknockout matches:");
        for m in knockouts {
            let (h, a) = (&st.participant(m.home).id, &st.participant(m.away).id);
            let imps = match (m.imp_home, m.imp_away) {
                (Some(x), Some(y)) => format!(
                    "{} : {} IMPs",
                    crate::explain::show(x),
                    crate::explain::show(y)
                ),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "  {} {}: {h} v {a}  {imps} over {} boards",
                st.sessions[m.session].def.id, m.match_id, m.scored
            );
        }
    }
    if !r.scored.notices.is_empty() {
        let _ = writeln!(out, "\n{} notice(s):", r.scored.notices.len());
        let mut notices: Vec<&Notice> = r.scored.notices.iter().collect();
        notices.sort();
        for n in notices {
            let _ = writeln!(out, "  {n}");
        }
    }
    out
}

/// `frekans explain`: score the session's boards and explain one of them.
///
/// With `proposals` (JSON texts, as `audit --with` takes them), the board as it would be with
/// them added at the end of the log: they are checked as `append` checks them (the same errors)
/// and never written.
pub fn explain(
    path: &Path,
    session: &str,
    board: u32,
    section: Option<&str>,
    proposals: &[String],
    now: &str,
) -> Result<String, AppError> {
    let mut head = String::new();
    let l = if proposals.is_empty() {
        load(path, &ReplayScope::default())?
    } else {
        use crate::audit::whatif;
        let bytes = read_file(path)?;
        let texts: Vec<&str> = proposals.iter().map(String::as_str).collect();
        let p =
            crate::event::append::propose(&bytes, &texts, now, None).map_err(AppError::Invalid)?;
        whatif::check_kinds(&p).map_err(AppError::BadRequest)?;
        let all = whatif::with_lines(&bytes, &p);
        crate::replay::replay_streamed(&all, crate::event::read::BATCH, None)
            .into_valid()
            .map_err(invalid)?;
        let _ = writeln!(
            head,
            "What-if: the board with {} proposed event{} added at the end of the log (seq {} on; nothing written):",
            p.objects.len(),
            if p.objects.len() == 1 { "" } else { "s" },
            p.first_seq
        );
        for o in &p.objects {
            let _ = writeln!(head, "  proposed: {}", serde_json::Value::Object(o.clone()));
        }
        head.push('\n');
        load_bytes(&all, &ReplayScope::default())?
    };
    let st = &l.state;
    // (a session, board or section the log does not have is a bad request: exit 2)
    let s = st.session_index(session).ok_or_else(|| {
        AppError::BadRequest(format!("no session \"{session}\" in {}", path.display()))
    })?;
    // Score everything (the session's standings re-value artificial scores under
    // `mp_artificial: session_bounded`), then show the board.
    let scored = pipeline::score(st)?;
    let boards: Vec<&BoardScore> = scored
        .boards
        .iter()
        .filter(|b| b.session == s && b.board == board)
        .collect();
    if boards.is_empty() {
        return Err(AppError::BadRequest(format!(
            "board {board} of session \"{session}\" has no results"
        )));
    }
    let text = crate::explain::explain(st, &boards, section);
    let text = if text.is_empty() { text } else { head + &text };
    if text.is_empty() {
        return Err(AppError::BadRequest(format!(
            "board {board} of session \"{session}\" was not played in section \"{}\"",
            section.unwrap_or("")
        )));
    }
    Ok(text)
}

/// `frekans audit`: the two replays compared; optionally Parquet in `out`. With a cache
/// directory, a `--ruling` or `--as-of` audit is answered from the log's audit cache when there
/// is one (only the touched boards read, replayed and scored), and an audit answered the long
/// way leaves one for the next (see `audit::cache`).
pub fn audit(
    path: &Path,
    q: &crate::audit::Question,
    out: Option<&Path>,
    cache: Option<&Path>,
) -> Result<crate::audit::Audit, AppError> {
    let log = MappedLog::open(path)?;
    let bytes = log.bytes();
    let (a, key) = audit_keyed(bytes, q, cache, log.stat)?;
    log.record(cache, key);
    if let Some(dir) = out {
        export::parquet::write_audit(dir, &a)?;
    }
    Ok(a)
}

/// A log file read through a read-only map under a shared lock, as an audit reads it: a
/// million-result log is a few hundred megabytes, and an audit answered from the cache reads
/// only a few boards' lines and the hash.
struct MappedLog {
    file: std::fs::File,
    stat: Option<crate::audit::cache::FileStat>,
    map: Option<memmap2::Mmap>,
    owned: Vec<u8>,
}

impl MappedLog {
    fn open(path: &Path) -> Result<MappedLog, AppError> {
        let file = std::fs::File::open(path)
            .with_context(|| format!("cannot read the log {}", path.display()))?;
        // frekans only ever appends to a log (past the mapped length) and `repair`, the one
        // writer that truncates, locks it exclusively as `append` does: a shared lock keeps the
        // mapped bytes as they are while the audit reads them.
        let _ = file.lock_shared();
        let stat = crate::audit::cache::FileStat::of(&file);
        // SAFETY: read-only, and the bytes are not truncated or rewritten in place while the
        // shared lock is held (see above); should the map fail, the file is read instead.
        let map = unsafe { memmap2::Mmap::map(&file) };
        let (map, owned) = match map {
            Ok(m) if m.len() as u64 > crate::limits::max_log_bytes() => {
                return Err(AppError::BadRequest(format!(
                    "the log {} is {} bytes long, more than the {} frekans reads (FREKANS_MAX_LOG_MIB sets another limit, in MiB)",
                    path.display(),
                    m.len(),
                    crate::limits::max_log_bytes()
                )))
            }
            Ok(m) => (Some(m), Vec::new()),
            Err(_) => (None, read_file(path)?),
        };
        Ok(MappedLog {
            file,
            stat,
            map,
            owned,
        })
    }

    fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&self.owned)
    }

    /// The log's key recorded under its status, when it did not change while it was read: the
    /// next audit need not hash it.
    fn record(&self, cache: Option<&Path>, key: Option<String>) {
        if let (Some(dir), Some(key), Some(s)) = (cache, key, self.stat) {
            if crate::audit::cache::FileStat::of(&self.file) == Some(s) {
                s.record(dir, &key);
            }
        }
    }
}

/// [`audit`] of a log's bytes.
pub fn audit_bytes(
    bytes: &[u8],
    q: &crate::audit::Question,
    cache: Option<&Path>,
) -> Result<crate::audit::Audit, AppError> {
    audit_keyed(bytes, q, cache, None).map(|(a, _)| a)
}

/// [`audit_bytes`] of a log file of status `stat` (its key taken from the cache directory
/// when recorded there under that status, instead of hashing the bytes); also the key, when
/// the bytes were hashed (for the caller to record).
fn audit_keyed(
    bytes: &[u8],
    q: &crate::audit::Question,
    cache: Option<&Path>,
    stat: Option<crate::audit::cache::FileStat>,
) -> Result<(crate::audit::Audit, Option<String>), AppError> {
    use crate::audit::{cache::AuditCache, AuditError, Question};
    let err = |e: AuditError| match e {
        AuditError::BadQuestion(m) => AppError::BadRequest(m),
        AuditError::Score(e) => AppError::Other(anyhow::Error::new(e)),
    };
    let cacheable = matches!(q, Question::Ruling(_) | Question::AsOf(_));
    let (dir_key, hashed_key) = match cache {
        Some(dir) if cacheable => {
            let (key, hashed) = cache_key(bytes, dir, stat);
            (Some((dir, key)), hashed)
        }
        _ => (None, None),
    };
    let mut have_cache = false;
    if let Some((dir, key)) = &dir_key {
        if let Some(c) = kept_cache(bytes, dir, key, stat) {
            have_cache = true;
            if let Some(a) = crate::audit::audit_cached(bytes, c, q).map_err(err)? {
                tracing::info!("audit: answered from the audit cache");
                return Ok((a, hashed_key));
            }
            tracing::info!("audit: the cache cannot answer this question; reading the whole log");
        } else if !asks_most(bytes, q) {
            // The first audit of these bytes: the log read, replayed and scored as `score` does
            // (streamed, no event kept), its cache made on the way, saved on another thread
            // while the question is answered from it, as from a cache read back.
            have_cache = true;
            let (l, b) = stream(bytes, true).map_err(invalid)?;
            let scored = pipeline::score(&l.state)?;
            let made = b.and_then(|b| b.finish(&l.state, &scored));
            drop((scored, l));
            crate::progress::release_freed_memory();
            match made {
                None => {
                    keep_cache(dir, key, None);
                }
                Some(c) => {
                    let kept = c.clone();
                    let (d, k) = (dir.to_path_buf(), key.clone());
                    let saving = std::thread::spawn(move || keep_cache(&d, &k, Some(&kept)));
                    let a = crate::audit::audit_cached(bytes, c, q);
                    let _ = saving.join();
                    if let Some(a) = a.map_err(err)? {
                        tracing::info!("audit: answered from the cache it made");
                        return Ok((a, hashed_key));
                    }
                    tracing::info!(
                        "audit: the cache cannot answer this question; reading the whole log"
                    );
                }
            }
        }
    }
    let l = load_bytes(bytes, &ReplayScope::default())?;
    match dir_key {
        Some((dir, key)) => {
            // The later side of `--ruling` and `--as-of` is the whole log: scored once, for the
            // audit and for the cache the next audit reads.
            let scored = pipeline::score(&l.state)?;
            if !have_cache {
                let made = AuditCache::build(bytes, &l.events, &l.state, &scored);
                keep_cache(dir, &key, made.as_ref());
            }
            crate::audit::audit_scored(&l.events, &l.state, &scored, q)
                .map_err(err)
                .map(|a| (a, hashed_key))
        }
        None => crate::audit::audit(&l.events, &l.state, q)
            .map_err(err)
            .map(|a| (a, None)),
    }
}

/// The audit cache of the log `bytes` (of key `key`, its file of status `stat`) in `dir`: the
/// one kept for these bytes, or, for a log with lines appended since its last audit, that
/// audit's cache carried on (and kept for these bytes); `None` when there is neither.
fn kept_cache(
    bytes: &[u8],
    dir: &Path,
    key: &str,
    stat: Option<crate::audit::cache::FileStat>,
) -> Option<crate::audit::cache::AuditCache> {
    use crate::audit::cache::AuditCache;
    let c = {
        let _s = tracing::info_span!("cache").entered();
        // (a cache of another length is another log's: a status file edited to name it)
        AuditCache::load(dir, key).filter(|c| c.fits(bytes))
    };
    if c.is_some() {
        return c;
    }
    // A log with lines appended since its last audit: that audit's cache, carried on.
    let s = stat?;
    let (old_key, old_size) = s.previous(dir)?;
    let old_size = usize::try_from(old_size).ok()?;
    if old_size >= bytes.len() || crate::audit::cache::log_key(&bytes[..old_size]) != old_key {
        return None;
    }
    let _s = tracing::info_span!("extend").entered();
    let old = AuditCache::load(dir, &old_key).filter(|c| c.fits(&bytes[..old_size]))?;
    let new = crate::audit::extend_cache(bytes, old)?;
    tracing::info!("audit: the cache of the log before its last lines, carried on");
    keep_cache(dir, key, Some(&new));
    Some(new)
}

/// The key of the log `bytes` for the cache directory `dir`: recorded there under the file's
/// status `stat`, or hashed (then also returned second, for the caller to record).
fn cache_key(
    bytes: &[u8],
    dir: &Path,
    stat: Option<crate::audit::cache::FileStat>,
) -> (String, Option<String>) {
    match stat.and_then(|s| s.recorded_key(dir)) {
        Some(k) => {
            tracing::info!("audit: the log's key from its unchanged file status");
            (k, None)
        }
        None => {
            let _s = tracing::info_span!("hash").entered();
            let k = crate::audit::cache::log_key(bytes);
            (k.clone(), Some(k))
        }
    }
}

/// Whether `q` touches most of the log by `audit::touches_most`'s rule, the lines after an
/// `--as-of` point taken for the board lines it touches: answered faster the long way than
/// through the cache, its first audit does not first make the cache to ask.
fn asks_most(bytes: &[u8], q: &crate::audit::Question) -> bool {
    match q {
        crate::audit::Question::AsOf(seq) => {
            let lines = memchr::memchr_iter(b'\n', bytes).count();
            crate::audit::touches_most(lines.saturating_sub(*seq), lines)
        }
        _ => false,
    }
}

/// `frekans bulletin`: everything `score` writes, plus bulletin.json, bulletin.typ and
/// bulletin.pdf, in one directory written whole or not at all; with a cache directory, also
/// the log's audit cache, as `score` leaves it.
pub fn bulletin(
    path: &Path,
    out: &Path,
    lang: &str,
    typst: Option<&Path>,
    cache: Option<&Path>,
) -> Result<ScoreReport, AppError> {
    let (log, bytes) = read_locked(path)?;
    let l = load_bytes(&bytes, &ReplayScope::default())?;
    let head = crate::integrity::head(&bytes).map_err(AppError::BadRequest)?;
    let scored = pipeline::score(&l.state)?;
    if let Some(dir) = cache {
        let key = crate::audit::cache::log_key(&bytes);
        let c = crate::audit::cache::AuditCache::build(&bytes, &l.events, &l.state, &scored);
        leave_cache(dir, &key, c, &log);
    }
    drop(bytes);
    let deals = {
        let _p = crate::progress::stage(&format!(
            "double-dummy solving {} deals",
            l.state.deals.len()
        ));
        double_dummy(&l.state, cache)?
    };
    // The same tables as `score --dd` (scores.parquet straight from the boards).
    let mut tables = export::rows::build_with(&l.state, &scored, false);
    tables.deals = Some(export::rows::deals(&l.state, &deals));
    let mut model = crate::report::model::build(&l.state, &scored, &deals, lang);
    // The head the bulletin was made from (crate::integrity): a reader holds the log to it.
    let text = if lang == "pl" {
        format!(
            "Sporządzono z {} zdarzeń dziennika; jego skrót (SHA-256):",
            head.events
        )
    } else {
        format!(
            "Made from the first {} events of the log, whose head (SHA-256) is:",
            head.events
        )
    };
    model.head = Some(crate::report::view::Head {
        events: head.events,
        hash: head.hash.clone(),
        text,
    });
    {
        let _s = tracing::info_span!("ruling_effects").entered();
        let _p = crate::progress::stage("auditing the rulings for the appendix");
        crate::report::model::add_ruling_effects(&mut model, &l.events, &l.state, &scored, 200);
    }
    let mut data = serde_json::to_value(&model).map_err(anyhow::Error::new)?;
    // Control characters of names and notes shown as text in the PDF (crate::text).
    crate::text::escape_json(&mut data);
    let typst = crate::report::find_typst(typst)?;
    let pdf = {
        let _s = tracing::info_span!("render").entered();
        let _p = crate::progress::stage("rendering the bulletin with typst");
        crate::report::render(&typst, &data)?
    };
    let mut files = export::parquet::scored_files(&l.state, &scored, &tables)?;
    files.push((
        "bulletin.json".to_string(),
        serde_json::to_vec_pretty(&data).map_err(anyhow::Error::new)?,
    ));
    files.push((
        "bulletin.typ".to_string(),
        crate::report::TEMPLATE.as_bytes().to_vec(),
    ));
    files.push(("bulletin.pdf".to_string(), pdf));
    export::parquet::write_dir(out, files)?;
    Ok(ScoreReport {
        scored,
        results: l.state.tables.len(),
        state: l.state,
    })
}

/// `frekans synth`: the championship of `spec` written to `out` (whole or not at all: written
/// beside it, then renamed) or to standard output; with `OutFormat::Salliere` the boards go to
/// `out` and the names to `names`.
pub fn synth(
    spec: &crate::synth::Spec,
    format: crate::synth::OutFormat,
    out: Option<&Path>,
    names: Option<&Path>,
) -> Result<crate::synth::Summary, AppError> {
    use crate::synth::{self, OutFormat};
    use std::io::Write as _;
    spec.validate(format)
        .map_err(|m| AppError::BadRequest(format!("invalid synth request: {m}")))?;
    let _s = tracing::info_span!("synth").entered();
    // Files are written to a unique temporary beside their final name (or its symlink's
    // target), then renamed (crate::outfile).
    let create = |p: &Path| -> Result<(crate::outfile::FileOut, std::fs::File), AppError> {
        let mut o = crate::outfile::FileOut::create(p)?;
        let f = o
            .file()
            .try_clone()
            .with_context(|| format!("cannot write {}", o.tmp().display()))?;
        Ok((o, f))
    };
    let finish = |o: crate::outfile::FileOut,
                  w: std::io::BufWriter<std::fs::File>|
     -> Result<(), AppError> {
        w.into_inner()
            .map_err(|e| anyhow::anyhow!("cannot write {}: {}", o.tmp().display(), e.error()))?;
        o.finish()?;
        Ok(())
    };
    let buf = |f: std::fs::File| std::io::BufWriter::with_capacity(1 << 20, f);
    // One log or PBN file: to `out` (a unique temporary, renamed), or to standard output.
    let one =
        |write: fn(&synth::Spec, &mut dyn std::io::Write) -> std::io::Result<synth::Summary>| {
            match out {
                Some(path) => {
                    let (o, f) = create(path)?;
                    let mut w = buf(f);
                    match write(spec, &mut w) {
                        Ok(s) => {
                            finish(o, w)?;
                            Ok(s)
                        }
                        Err(e) => Err(AppError::Other(
                            anyhow::Error::new(e)
                                .context(format!("cannot write {}", path.display())),
                        )),
                    }
                }
                None => {
                    let stdout = std::io::stdout();
                    let mut w = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
                    let s = write(spec, &mut w)
                        .and_then(|s| w.flush().map(|_| s))
                        .context("cannot write to standard output")?;
                    Ok(s)
                }
            }
        };
    match format {
        OutFormat::Jsonl => one(synth::write_log),
        OutFormat::Pbn => one(synth::write_pbn),
        OutFormat::Salliere => {
            let Some(path) = out else {
                return Err(AppError::BadRequest(
                    "invalid synth request: --format salliere writes two files: give --out FILE (the boards; the names go to --names or FILE.names.csv)".into(),
                ));
            };
            let names_path = match names {
                Some(n) => n.to_path_buf(),
                None => {
                    let mut n = path.as_os_str().to_owned();
                    n.push(".names.csv");
                    std::path::PathBuf::from(n)
                }
            };
            let (bo, bf) = create(path)?;
            let (no, nf) = create(&names_path)?;
            let (mut bw, mut nw) = (buf(bf), buf(nf));
            match synth::write_salliere(spec, &mut bw, &mut nw) {
                Ok(s) => {
                    finish(bo, bw)?;
                    finish(no, nw)?;
                    Ok(s)
                }
                Err(e) => Err(AppError::Other(
                    anyhow::Error::new(e).context(format!("cannot write {}", path.display())),
                )),
            }
        }
    }
}

/// The line `synth` prints on standard error: what was written.
pub fn synth_summary(s: &crate::synth::Summary, to: &str) -> String {
    use crate::synth::RulingKind;
    let kinds: Vec<String> = RulingKind::ALL
        .iter()
        .zip(s.rulings.iter())
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| format!("{n} {}", k.name()))
        .collect();
    format!(
        "wrote {} lines ({} bytes) to {to}: {} participants, {} tables, {} results, {} rulings{}, {} corrections",
        s.events,
        s.bytes,
        s.participants,
        s.tables,
        s.results,
        s.ruling_total(),
        if kinds.is_empty() { String::new() } else { format!(" ({})", kinds.join(", ")) },
        s.corrections
    )
}

/// `frekans export`: the scored championship (or one session of it) as USEBIO 1.2 or PBN 2.1,
/// written to `out` whole or not at all (a temporary file beside it, synced, renamed).
pub fn export(
    path: &Path,
    format: &str,
    out: &Path,
    session: Option<&str>,
) -> Result<String, AppError> {
    let bytes = export_bytes(&read_file(path)?, format, session)?;
    write_file_atomic(out, &bytes)?;
    Ok(format!(
        "wrote {} ({format}, {} bytes)\n",
        out.display(),
        bytes.len()
    ))
}

/// The bytes `frekans export` writes for a log's bytes.
pub fn export_bytes(log: &[u8], format: &str, session: Option<&str>) -> Result<Vec<u8>, AppError> {
    let l = load_bytes(log, &ReplayScope::default())?;
    let state = &l.state;
    let only = match session {
        None => None,
        Some(id) => Some(state.session_index(id).ok_or_else(|| {
            AppError::BadRequest(format!(
                "invalid export request: the log has no session {id:?}"
            ))
        })?),
    };
    let scored = pipeline::score(state)?;
    let sessions = export::results::sessions(state, &scored, only);
    use crate::options::Form;
    for s in &sessions {
        if !matches!(
            s.form,
            Form::Mp | Form::Ximp | Form::Butler | Form::Teams | Form::Bam
        ) {
            return Err(AppError::BadRequest(format!(
                "invalid export request: session {} is scored {}, which {format} cannot say (it holds matchpoints, cross-IMPs, Butler, teams and board-a-match); export the other sessions with --session",
                s.id,
                s.form.name()
            )));
        }
    }
    if format == "usebio" {
        let forms: std::collections::BTreeSet<&str> =
            sessions.iter().map(|s| s.form.name()).collect();
        if forms.len() > 1 {
            return Err(AppError::BadRequest(format!(
                "invalid export request: a USEBIO event has one form, and the sessions are scored {}; export one at a time with --session",
                forms.into_iter().collect::<Vec<_>>().join(" and ")
            )));
        }
    }
    let bytes = match format {
        "usebio" => export::usebio::write(state, &sessions),
        "pbn" => export::pbn::write(state, &sessions),
        f => {
            return Err(AppError::BadRequest(format!(
                "invalid export request: --format {f:?}; expected usebio or pbn"
            )))
        }
    };
    bytes.map_err(|e| AppError::Other(anyhow::anyhow!("cannot write {format}: {e}")))
}

/// Write a file whole or not at all: a unique temporary file beside it (or beside a symlink's
/// target), created exclusively, synced, renamed over it, the directory synced
/// (`outfile::FileOut`).
pub fn write_file_atomic(out: &Path, bytes: &[u8]) -> Result<(), AppError> {
    use std::io::Write as _;
    let mut o = crate::outfile::FileOut::create(out)?;
    o.file()
        .write_all(bytes)
        .with_context(|| format!("cannot write {}", o.tmp().display()))?;
    o.finish()?;
    Ok(())
}

/// What `frekans import` was asked (its flags).
#[derive(Clone, Debug, Default)]
pub struct ImportRequest {
    pub out: Option<std::path::PathBuf>,
    pub append: Option<std::path::PathBuf>,
    pub format: Option<String>,
    pub form: Option<String>,
    pub compare: Option<String>,
    pub options: Option<String>,
    pub columns: Option<String>,
    pub lenient: bool,
}

/// `frekans import`: the files read into a new log (`out`) or appended to one (`append`); a
/// report of what was written, or every problem (exit 2, nothing written).
pub fn import(files: &[std::path::PathBuf], r: &ImportRequest) -> Result<String, AppError> {
    use crate::import::{self, Format, ImportError};
    let bad = |m: String| AppError::BadRequest(format!("cannot import: {m}"));
    let options = match &r.options {
        None => serde_json::Map::new(),
        Some(text) => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => return Err(bad(format!("--options must be a JSON object such as '{{\"ximp_normalize\":\"comparisons\"}}', found {text:?}"))),
        },
    };
    let columns = match &r.columns {
        None => import::csv::Columns::default(),
        Some(c) => import::csv::Columns::parse(c).map_err(bad)?,
    };
    let opts = import::ImportOptions {
        format: r.format.as_deref().and_then(Format::parse),
        req: import::Request {
            form: r.form.clone(),
            compare: r.compare.clone(),
            options,
            lenient: r.lenient,
        },
        columns,
        now: crate::event::append::now_rfc3339(),
    };
    let (done, to) = match (&r.out, &r.append) {
        (Some(out), None) => (import::import_new(files, out, &opts), out),
        (None, Some(log)) => (import::import_append(files, log, &opts), log),
        _ => {
            return Err(bad(
                "give --out LOG (a new log) or --append LOG (an existing one)".into(),
            ))
        }
    };
    match done {
        Ok(i) => Ok(import_report(&i, to, r.append.is_some())),
        Err(ImportError::Invalid(problems)) => {
            let mut m = format!(
                "cannot import: {} problem{}; nothing was written:\n",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            );
            for p in &problems {
                let _ = writeln!(m, "  {p}");
            }
            Err(AppError::BadRequest(m.trim_end().to_string()))
        }
        Err(ImportError::Io(e)) => Err(AppError::Other(e)),
    }
}

fn import_report(i: &crate::import::Imported, to: &Path, appended: bool) -> String {
    let mut out = String::new();
    for (file, format, sessions) in &i.files {
        let _ = writeln!(
            out,
            "{file} ({}): session {}",
            format.name(),
            sessions.join(", ")
        );
    }
    if appended && i.events == 0 {
        let _ = writeln!(
            out,
            "nothing new: {} already has everything these files hold; nothing was appended",
            to.display()
        );
    } else {
        let _ = writeln!(
            out,
            "{} {} events (seq {}..={}) {} {}, {} new participants",
            if appended { "appended" } else { "wrote" },
            i.events,
            i.first_seq,
            i.first_seq + i.events.saturating_sub(1),
            if appended { "to" } else { "in" },
            to.display(),
            i.new_participants
        );
    }
    for p in &i.skipped {
        let _ = writeln!(out, "skipped: {p}");
    }
    for n in &i.notices {
        let _ = writeln!(out, "notice: {n}");
    }
    out
}
