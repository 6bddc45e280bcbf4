//! The one way a command loads its log: its bytes read (under the size limit, an append cut
//! short settled first) and then [`LoadLog`] — validated whole and replayed, its events kept
//! or streamed, with what the command needs made on the way (the audit cache's line index, the
//! head). Every command's log goes through [`LoadLog::bytes`] (or [`LoadLog::file`]).
use super::*;

/// The bytes of a log file.
/// An append to `path` cut short (killed, the machine stopped) settled before the log is read:
/// its batch removed whole, or kept whole (`event::journal`), so that no reader sees part of
/// one.
pub(super) fn settle_log(path: &Path) -> Result<(), AppError> {
    use crate::event::journal::{settle, Settled};
    match settle(&crate::world::REAL, path) {
        Ok(Settled::Removed { side, bytes, .. }) => {
            tracing::warn!(
                "an append to {} was cut short: its {bytes} bytes were moved to {} and the log is as it was before it",
                path.display(),
                side.display()
            );
            Ok(())
        }
        Ok(_) => Ok(()),
        Err(e) => Err(AppError::Other(anyhow::Error::new(e).context(format!(
            "an append to {} was cut short ({} is there) and cannot be undone now; run `frekans repair {}` where the log can be written",
            path.display(),
            crate::event::journal::path_of(path).display(),
            path.display()
        )))),
    }
}

pub(super) fn read_file(path: &Path) -> Result<Vec<u8>, AppError> {
    settle_log(path)?;
    let mut file = crate::world::REAL
        .open_file(path, crate::world::Open::READ)
        .with_context(|| format!("cannot read the log {}", path.display()))?;
    read_log_from(&mut file, path)
}

/// The bytes of the open log `file`, at most [`context::log_limit`] of them (an
/// endless or huge input is a bad request, exit 2, not a machine out of memory).
pub(super) fn read_log_from(
    file: &mut crate::world::Handle,
    path: &Path,
) -> Result<Vec<u8>, AppError> {
    let size = file.len().unwrap_or(0);
    match crate::limits::read_bounded(
        file,
        size,
        context::log_limit(),
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

/// How a command loads its log's bytes (see the module): events kept or streamed, and what is
/// made on the way. `LoadLog::default()` streams the whole log in batches of
/// `event::read::BATCH` lines, nothing else made.
#[derive(Clone, Debug, Default)]
pub struct LoadLog {
    /// Keep the events, the state replayed within `scope` (the log validated whole whatever
    /// the scope; `event::read_log` then `replay`: `load::load_bytes`). Otherwise streamed: the
    /// reader hands each parsed batch to the replay, so a million results never sit in memory
    /// as events next to the state they make (`check`, `score`).
    pub keep_events: bool,
    /// What of the log is replayed when its events are kept.
    pub scope: ReplayScope,
    /// Streamed: the lines read a batch (0: `event::read::BATCH`; tests: the same for any).
    pub batch: usize,
    /// Streamed: the audit cache's index of the log's lines made on the way, its lines placed.
    pub index: bool,
    /// Streamed: the log's head walked on the way as `check` reads a log
    /// (`replay::replay_checked`: every batch `event::read::BATCH` lines; no index).
    pub head: bool,
}

/// A log loaded by [`LoadLog`]: valid, replayed.
pub struct Loaded {
    pub state: State,
    /// The log's events when kept ([`LoadLog::keep_events`]), else none.
    pub events: Vec<Envelope>,
    /// How many events the log has.
    pub count: usize,
    /// Its head, when the reader knew it on the way (see [`crate::integrity::head_known`]).
    pub head: Option<String>,
    /// The audit cache's index of its lines when [`LoadLog::index`].
    pub index: Option<CacheBuilder>,
}

impl LoadLog {
    /// The events kept, the state replayed within `scope`.
    pub fn kept(scope: &ReplayScope) -> LoadLog {
        LoadLog {
            keep_events: true,
            scope: scope.clone(),
            ..LoadLog::default()
        }
    }

    /// Validate and replay `bytes` (every error of the log refused once, in line order).
    pub fn bytes(&self, bytes: &[u8]) -> Result<Loaded, InvalidLog> {
        self.bytes_with(bytes, None)
    }

    /// [`LoadLog::bytes`] of the log file at `path`; its bytes are freed before this returns.
    pub fn file(&self, path: &Path) -> Result<Loaded, AppError> {
        let bytes = read_file(path)?;
        Ok(self.bytes(&bytes)?)
    }

    /// [`LoadLog::bytes`], `done` told of the bytes read when the head is walked (a mapped
    /// log's pages let go behind the reader).
    fn bytes_with(
        &self,
        bytes: &[u8],
        done: Option<&(dyn Fn(&[u8]) + Sync)>,
    ) -> Result<Loaded, InvalidLog> {
        if self.keep_events {
            let l = crate::load::load_bytes(bytes, &self.scope)?;
            return Ok(Loaded {
                count: l.events.len(),
                state: l.state,
                events: l.events,
                head: None,
                index: None,
            });
        }
        let mut index = self.index.then(CacheBuilder::default);
        let r = if self.head {
            crate::replay::replay_checked(bytes, done)
        } else {
            let batch = if self.batch == 0 {
                crate::event::read::BATCH
            } else {
                self.batch
            };
            let witness = index.as_mut().map(|b| b as &mut dyn crate::replay::Witness);
            crate::replay::replay_streamed(bytes, batch, witness)
        };
        let r = r.into_valid().map_err(|errors| InvalidLog { errors })?;
        if let Some(b) = index.as_mut() {
            b.place(bytes);
        }
        Ok(Loaded {
            state: r.state,
            events: Vec::new(),
            count: r.events,
            head: r.head,
            index,
        })
    }
}

/// `LoadLog::kept(scope).bytes(bytes)`, its errors the command's.
pub fn load_bytes(bytes: &[u8], scope: &ReplayScope) -> Result<Loaded, AppError> {
    Ok(LoadLog::kept(scope).bytes(bytes)?)
}

/// `LoadLog::kept(scope).file(path)`.
pub fn load(path: &Path, scope: &ReplayScope) -> Result<Loaded, AppError> {
    LoadLog::kept(scope).file(path)
}

/// The log's bytes as `check` and `sign` read them: a regular file within the size limit
/// mapped read-only under a shared lock, so that the reader lets its pages go as it passes
/// them (a million-result log's bytes are not all held beside its replayed state); anything
/// else, or a log an append is writing now (its lock taken), read whole as every command
/// reads it.
pub(super) enum LogBytes {
    /// The map, and the file whose shared lock keeps its bytes.
    Mapped(crate::world::Map, #[allow(dead_code)] crate::world::Handle),
    Read(Vec<u8>),
}

impl LogBytes {
    pub(super) fn open(path: &Path) -> Result<LogBytes, AppError> {
        settle_log(path)?;
        if let Ok(mut file) = crate::world::REAL.open_file(path, crate::world::Open::READ) {
            let fits = file
                .metadata()
                .is_ok_and(|m| m.is_file && m.len > 0 && m.len <= context::log_limit());
            if fits && file.try_lock_shared().is_ok() {
                // (read-only, and the bytes are not truncated or rewritten in place while the
                // shared lock is held: `repair`, the one writer that truncates, locks the log
                // exclusively; `append` writes past the mapped length)
                if let Ok(map) = file.map() {
                    return Ok(LogBytes::Mapped(map, file));
                }
            }
        }
        read_file(path).map(LogBytes::Read)
    }

    pub(super) fn bytes(&self) -> &[u8] {
        match self {
            LogBytes::Mapped(m, _) => m,
            LogBytes::Read(b) => b,
        }
    }
}

/// Read, validate and replay the log streamed, with its head walked on the way (the reader's:
/// the last hash when every event carries its hash, else walked over the lines as they are
/// parsed); a mapped log's pages are let go behind the reader.
pub(super) fn load_with_head(log: &LogBytes) -> Result<(Loaded, crate::integrity::Head), AppError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let bytes = log.bytes();
    // The bytes let go so far (a multiple of the page size).
    let released = AtomicUsize::new(0);
    let let_go = |read: &[u8]| {
        let LogBytes::Mapped(map, _) = log else {
            return;
        };
        let end = (read.as_ptr() as usize + read.len()).saturating_sub(map.as_ptr() as usize);
        let end = end.min(map.len()) & !((4 << 10) - 1);
        let from = released.fetch_max(end, Ordering::Relaxed);
        if end > from {
            // (the pages are dropped from this process and read again from the file, unchanged
            // under the shared lock, should anything look at them again)
            map.let_go(from, end - from);
        }
    };
    let how = LoadLog {
        head: true,
        ..LoadLog::default()
    };
    let l = how.bytes_with(bytes, Some(&let_go))?;
    crate::memory::memory("reading and replaying");
    let head =
        crate::integrity::head_known(bytes, l.count, l.head.as_deref()).map_err(bad_request)?;
    Ok((l, head))
}
