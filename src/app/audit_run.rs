//! Audits and what-ifs asked of a log file: the log mapped read-only, its audit cache found (`Store::find`), and the question answered from it or the long way.

use super::*;

/// `frekans audit`: the two replays compared; optionally Parquet in `out`. With a cache
/// directory, a `--ruling` or `--as-of` audit is answered from the log's audit cache when there
/// is one (only the touched boards read, replayed and scored), and an audit answered the long
/// way leaves one for the next (see `audit::cache`).
pub fn audit(
    path: &Path,
    q: &crate::audit::Question,
    out: Option<&Path>,
    cache: Option<Store<'_>>,
) -> Result<crate::audit::Answer, AppError> {
    let log = MappedLog::open(path)?;
    let bytes = log.bytes();
    let (a, key) = audit_keyed(bytes, q, cache, log.stat())?;
    log.record(cache, key);
    if let Some(dir) = out {
        export::parquet::write_audit(dir, &a.audit.standings, &a.audit.boards)?;
    }
    Ok(a)
}

/// A log file read through a read-only map under a shared lock, as an audit reads it: a
/// million-result log is a few hundred megabytes, and an audit answered from the cache reads
/// only a few boards' lines and the hash.
pub(super) struct MappedLog {
    pub(super) log: crate::audit::cache::LogFile,
    pub(super) map: Option<crate::world::Map>,
    pub(super) owned: Vec<u8>,
}

impl MappedLog {
    pub(super) fn open(path: &Path) -> Result<MappedLog, AppError> {
        settle_log(path)?;
        let mut file = crate::world::REAL
            .open_file(path, crate::world::Open::READ)
            .with_context(|| format!("cannot read the log {}", path.display()))?;
        // frekans only ever appends to a log (past the mapped length) and `repair`, the one
        // writer that truncates, locks it exclusively as `append` does: a shared lock keeps the
        // mapped bytes as they are while the audit reads them.
        let _ = file.lock_shared();
        let stat = crate::audit::cache::FileStat::of(&file);
        // (read-only, and the bytes are not truncated or rewritten in place while the shared
        // lock is held, see above; should the map fail, the file is read instead)
        let map = file.map();
        let (map, owned) = match map {
            Ok(m) if m.len() as u64 > super::context::log_limit() => {
                return Err(AppError::BadRequest(format!(
                    "the log {} is {} bytes long, more than the {} frekans reads (FREKANS_MAX_LOG_MIB sets another limit, in MiB)",
                    path.display(),
                    m.len(),
                    super::context::log_limit()
                )))
            }
            Ok(m) => (Some(m), Vec::new()),
            Err(_) => (None, read_file(path)?),
        };
        Ok(MappedLog {
            log: crate::audit::cache::LogFile { file, stat },
            map,
            owned,
        })
    }

    pub(super) fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&self.owned)
    }

    /// The log's key recorded under its status, when it did not change while it was read: the
    /// next audit need not hash it.
    pub(super) fn record(&self, cache: Option<Store>, key: Option<String>) {
        if let (Some(store), Some(key)) = (cache, key) {
            store.record(&key, &self.log);
        }
    }

    pub(super) fn stat(&self) -> Option<crate::audit::cache::FileStat> {
        self.log.stat
    }
}

/// [`audit`] of a log's bytes.
pub fn audit_bytes(
    bytes: &[u8],
    q: &crate::audit::Question,
    cache: Option<Store<'_>>,
) -> Result<crate::audit::Audit, AppError> {
    audit_keyed(bytes, q, cache, None).map(|(a, _)| a.audit)
}

/// [`audit_bytes`] of a log file of status `stat` (its key taken from the cache directory
/// when recorded there under that status, instead of hashing the bytes); also the key, when
/// the bytes were hashed (for the caller to record).
pub(super) fn audit_keyed(
    bytes: &[u8],
    q: &crate::audit::Question,
    cache: Option<Store<'_>>,
    stat: Option<crate::audit::cache::FileStat>,
) -> Result<(crate::audit::Answer, Option<String>), AppError> {
    use crate::audit::{Question, Source};
    let cacheable = matches!(q, Question::Ruling(_) | Question::AsOf(_));
    let mut dir_key = None;
    let mut hashed_key = None;
    let mut have_cache = false;
    if let Some(store) = cache.filter(|_| cacheable) {
        let found = store.find(bytes, stat);
        (dir_key, hashed_key) = (Some((store, found.key.clone())), found.hashed);
        let key = found.key;
        if let Some(c) = found.cache {
            have_cache = true;
            if let Some(a) = answer(q, from_cache(bytes, c))?.answered() {
                tracing::info!("audit: answered from the audit cache");
                return Ok((a, hashed_key));
            }
            tracing::info!("audit: the cache cannot answer this question; reading the whole log");
        } else if !asks_most(bytes, q) {
            // The first audit of these bytes: the log read, replayed and scored as `score` does
            // (the stages of `run::run`: streamed, no event kept), its cache made on the way,
            // saved on another thread while the question is answered from it, as from a cache
            // read back.
            have_cache = true;
            let mut replayed = run::replay_log(bytes, false, true)?;
            let scored = run::score_log(&replayed.state)?;
            let made = replayed.audit_cache(None, &scored);
            drop((scored, replayed));
            crate::memory::release_freed_memory();
            let saving = store.keep_beside(key, made.clone(), None);
            if let Some(c) = made {
                let a = answer(q, from_cache(bytes, c));
                drop(saving);
                if let Some(a) = a?.answered() {
                    tracing::info!("audit: answered from the cache it made");
                    return Ok((a, hashed_key));
                }
                tracing::info!(
                    "audit: the cache cannot answer this question; reading the whole log"
                );
            }
        }
    }
    // The long way: the stages of `run::run` with every event kept (the audit replays them
    // again without the ruling, or to another point); the later side of `--ruling` and
    // `--as-of` is the whole log, scored once, for the audit and for the cache the next audit
    // reads.
    let mut replayed = run::replay_log(bytes, true, false)?;
    let scored = if cacheable {
        let scored = run::score_log(&replayed.state)?;
        if let Some((store, key)) = dir_key.filter(|_| !have_cache) {
            let made = replayed.audit_cache(Some(bytes), &scored);
            store.keep(&key, made.as_ref());
        }
        Some(scored)
    } else {
        None
    };
    let source = Source::Replayed {
        events: &replayed.events,
        full: &replayed.state,
        scored: scored.as_ref(),
        incremental: true,
    };
    let a = answer(q, source)?.answered();
    let key = if cacheable { hashed_key } else { None };
    Ok((a.expect("the long way always answers"), key))
}

/// `q` answered by `audit::answer` from `source`, its errors the command's.
fn answer(
    q: &crate::audit::Question,
    source: crate::audit::Source,
) -> Result<crate::audit::Outcome, AppError> {
    crate::audit::answer(crate::audit::Ask::Question(q), source).map_err(audit_error)
}

/// The audit cache `c` of the log `bytes`, given to the answer (freed or forgotten with it).
fn from_cache(bytes: &[u8], c: crate::audit::cache::AuditCache) -> crate::audit::Source<'_> {
    crate::audit::Source::Cached {
        bytes,
        cache: crate::audit::Held::Owned(Box::new(c)),
    }
}

/// An audit's error as the command's: a question the log cannot answer exits 2.
pub(super) fn audit_error(e: crate::audit::AuditError) -> AppError {
    match e {
        crate::audit::AuditError::BadQuestion(m) => AppError::BadRequest(m),
        crate::audit::AuditError::Score(e) => AppError::Other(anyhow::Error::new(e)),
    }
}

/// Whether `q` touches most of the log by `audit::touches_most`'s rule, the lines after an
/// `--as-of` point taken for the board lines it touches: answered faster the long way than
/// through the cache, its first audit does not first make the cache to ask.
pub(super) fn asks_most(bytes: &[u8], q: &crate::audit::Question) -> bool {
    match q {
        crate::audit::Question::AsOf(seq) => {
            let lines = memchr::memchr_iter(b'\n', bytes).count();
            crate::audit::touches_most(lines.saturating_sub(*seq), lines)
        }
        _ => false,
    }
}
