//! The new log `frekans import --out` writes: its events sealed straight into a temporary file
//! beside it (a batch of lines at a time, written by a thread while the next batch is made:
//! a million events' text is never held in memory), the file then validated where it lies
//! (mapped, not read back), and only then synced and linked into place — or removed, so that
//! nothing half-written is ever left under the log's name or beside it.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::world::{Handle, World, REAL};

use super::ev::{seal_to, SealError};
use super::Ev;

/// A new log being written: its temporary, removed when dropped before [`NewLog::commit`].
pub(super) struct NewLog {
    tmp: PathBuf,
    file: Handle,
    dir: PathBuf,
    committed: bool,
}

/// Why the log could not be linked into place.
pub(super) enum CommitError {
    /// `out` appeared meanwhile (nothing is replaced).
    Exists,
    Io(std::io::Error),
}

/// The directory `out` is written in.
pub(super) fn dir_of(out: &Path) -> PathBuf {
    out.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

impl NewLog {
    /// A unique temporary beside `out`, created exclusively (never through a planted name or
    /// symlink).
    pub fn create(out: &Path) -> crate::error::Result<NewLog> {
        let dir = dir_of(out);
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| "log".into());
        let (tmp, file) = crate::outfile::create_tmp_file(&dir, &name)?;
        Ok(NewLog {
            tmp,
            file,
            dir,
            committed: false,
        })
    }

    /// Writes `bytes` at the end of the temporary.
    pub fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.file.write_all(bytes)
    }

    /// `events` sealed as a new log's (`ev::seal_all` of them) into the temporary: the lines
    /// are made a batch at a time and written by a second thread meanwhile. An event the log
    /// cannot hold is reported before a write error.
    pub fn seal(&mut self, events: &[Ev], now: &str) -> Result<(), SealError> {
        let f = &mut self.file;
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::sync_channel::<String>(2);
            let writer = scope.spawn(move || -> std::io::Result<()> {
                for batch in rx {
                    f.write_all(batch.as_bytes())?;
                }
                Ok(())
            });
            let sealed = seal_to(events, 0, None, now, |batch| {
                tx.send(batch)
                    .map_err(|_| std::io::Error::other("the log's writer stopped"))
            });
            drop(tx);
            let written = writer.join().expect("the log's writer does not panic");
            match (sealed, written) {
                (Err(e @ SealError::Event(..)), _) => Err(e),
                (_, Err(e)) => Err(SealError::Io(e)),
                (sealed, Ok(())) => sealed,
            }
        })
    }

    /// `check` the temporary's bytes where they lie (mapped; its pages are those the writes
    /// just left in the page cache).
    pub fn check<T>(&self, check: impl FnOnce(&[u8]) -> T) -> std::io::Result<T> {
        if self.file.is_empty()? {
            return Ok(check(&[]));
        }
        // (the temporary was created exclusively by this process and nothing else writes it
        // while it is mapped: its name is unique and unpublished; it is linked into place only
        // after the map is dropped)
        let map = self.file.map_populated()?;
        Ok(check(&map))
    }

    /// Synced, linked into place as `out` (which fails if `out` appeared meanwhile), the
    /// temporary removed and the directory synced.
    pub fn commit(mut self, out: &Path) -> Result<(), CommitError> {
        let linked = (|| -> std::io::Result<()> {
            self.file.sync_all()?;
            match REAL.hard_link(&self.tmp, out) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
                // (a file system without hard links)
                Err(_) if !out.exists() => {
                    REAL.rename(&self.tmp, out)?;
                    self.committed = true;
                    Ok(())
                }
                Err(e) => Err(e),
            }
        })();
        match linked {
            Ok(()) => {
                if !self.committed {
                    let _ = REAL.remove_file(&self.tmp);
                    self.committed = true;
                }
                crate::outfile::sync_dir(&self.dir);
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(CommitError::Exists),
            Err(e) => Err(CommitError::Io(e)),
        }
    }
}

impl Drop for NewLog {
    fn drop(&mut self) {
        if !self.committed {
            let _ = REAL.remove_file(&self.tmp);
        }
    }
}
