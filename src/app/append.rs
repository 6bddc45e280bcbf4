//! Appending to the log: under its lock, the audit cache carried across the new line when it can be (`Store::carried`), and kept once the event is acknowledged.

use super::*;

/// A log file read whole under a shared lock, released once read (a director's `append` need
/// not wait for the scoring); the file stays open for `Store::record`, which records the log's
/// key only if nothing was appended since.
pub(super) fn read_locked(
    path: &Path,
) -> Result<(crate::audit::cache::LogFile, Vec<u8>), AppError> {
    settle_log(path)?;
    let mut file = crate::world::REAL
        .open_file(path, crate::world::Open::READ)
        .with_context(|| format!("cannot read the log {}", path.display()))?;
    let _ = file.lock_shared();
    let stat = crate::audit::cache::FileStat::of(&file);
    let read = read_log_from(&mut file, path);
    let _ = file.unlock();
    Ok((crate::audit::cache::LogFile { file, stat }, read?))
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
    let r = append_checked(
        &*ctx.world,
        path,
        event,
        &ctx.at(),
        ctx.max_log_bytes,
        |all| {
            let Some(dir) = cache else {
                return LoadLog::default()
                    .bytes(all)
                    .map(|_| None)
                    .map_err(|e| e.errors);
            };
            // The cache carried on first (the new log's key hashed beside it): the log is then
            // validated without making the cache's line index, unless it could not be carried.
            let (key, carried) =
                rayon::join(|| crate::audit::cache::log_key(all), || dir.carried(all));
            let how = LoadLog {
                index: carried.is_none(),
                ..LoadLog::default()
            };
            let r = how.bytes(all).map_err(|e| e.errors)?;
            Ok(Some(match (carried, r.index) {
                (Some(c), _) => {
                    tracing::info!(
                        "append: the audit cache of the log before the new line, carried on"
                    );
                    (key, Kept::Carried(c))
                }
                (None, Some(b)) => (key, Kept::Made(r.state, b)),
                (None, None) => return Ok(None),
            }))
        },
    );
    match r {
        Ok((appended, kept)) => Ok(AppendedLog { appended, kept }),
        Err(AppendError::Invalid(e)) => Err(AppError::Invalid(e)),
        Err(AppendError::Io(e)) => Err(AppError::Other(
            anyhow::Error::new(e).context(format!("cannot append to {}", path.display())),
        )),
    }
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
            store.keep(&key, Some(&c));
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
    store.keep(&key, b.finish(&state, &scored).as_ref());
}
