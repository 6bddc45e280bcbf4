//! Appending to the log: under its lock, the audit cache carried across the new line when it can be, and kept once the event is acknowledged.
// Not yet behind the seam (`world`): this file's own reads and writes of files (locks, syncs,
// exclusive creation, links) still call std (ARCHITECTURE.md lists them).
#![allow(clippy::disallowed_methods)]

use super::*;

/// A log file read under a shared lock, as `audit` reads it (`append` and `repair` wait for
/// it), and its status before it was read.
pub(super) struct LockedLog {
    pub(super) file: std::fs::File,
    pub(super) stat: Option<crate::audit::cache::FileStat>,
}

/// A log file read whole under a shared lock, released once read (a director's `append` need
/// not wait for the scoring); the file stays open for [`leave_cache`], which records the log's
/// key only if nothing was appended since.
pub(super) fn read_locked(path: &Path) -> Result<(LockedLog, Vec<u8>), AppError> {
    settle_log(path)?;
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
pub(super) fn leave_cache(
    store: Store,
    key: &str,
    cache: Option<crate::audit::cache::AuditCache>,
    log: &LockedLog,
) {
    use crate::audit::cache::FileStat;
    if !keep_cache(store, key, cache.as_ref()) {
        return;
    }
    // (any write to the file since it was read changed its status: its change time)
    if let Some(s) = log.stat.filter(|&s| FileStat::of(&log.file) == Some(s)) {
        s.record(store.dir, key, super::context::clock());
    }
}

/// Save `cache` (`None`: an event's line could not be placed) in `dir` as the audit cache of
/// the log whose key is `key`; `false`, with a warning, when it is not kept (never an error:
/// the next audit answers the long way).
pub(super) fn keep_cache(
    store: Store,
    key: &str,
    cache: Option<&crate::audit::cache::AuditCache>,
) -> bool {
    let _s = tracing::info_span!("cache_write").entered();
    let Some(c) = cache else {
        tracing::warn!("audit cache not kept: a line could not be placed");
        return false;
    };
    match c.save(store, key) {
        Ok(()) => true,
        Err(e) => {
            tracing::warn!("audit cache not written to {}: {e}", store.dir.display());
            false
        }
    }
}

/// What `append` keeps of the log it validated and wrote (with its audit cache to make).
pub struct AppendedLog {
    pub appended: crate::event::append::Appended,
    /// The whole log as written: its key, and its audit cache carried on from the log before
    /// the new line, or its replay and its events' lines to make it from.
    pub(super) kept: Option<(String, Kept)>,
}

// (one value a run, moved once: not worth a box)
#[allow(clippy::large_enum_variant)]
pub(super) enum Kept {
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
    ctx: &super::context::Context,
) -> Result<AppendedLog, AppError> {
    use crate::event::append::{append_checked, AppendError};
    let cache = ctx.audit_cache();
    let r = append_checked(path, event, &ctx.at(), ctx.max_log_bytes, |all| {
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
pub(super) fn carry_cache(store: Store, all: &[u8]) -> Option<crate::audit::cache::AuditCache> {
    let _s = tracing::info_span!("carry").entered();
    // (the log before the new line: up to the newline that ends its last line)
    let before = match memchr::memrchr(b'\n', all.strip_suffix(b"\n")?) {
        Some(i) => &all[..=i],
        None => return None,
    };
    let old = crate::audit::cache::AuditCache::load(store, &crate::audit::cache::log_key(before))?;
    crate::audit::extend_cache(all, old)
}

/// Leave in `dir` the audit cache of the log `append` wrote, as `score` would: the director's
/// audit of the event just appended answers from it. Saved after the event is written and
/// acknowledged (made then too, unless carried on); a cache not made is a warning, never an
/// error.
pub fn cache_appended(store: Store, log: AppendedLog) {
    let Some((key, kept)) = log.kept else {
        return;
    };
    let (state, b) = match kept {
        Kept::Carried(c) => {
            keep_cache(store, &key, Some(&c));
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
    keep_cache(store, &key, b.finish(&state, &scored).as_ref());
}
