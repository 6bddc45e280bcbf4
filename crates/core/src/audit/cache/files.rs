//! The cache directory on disk: files replaced atomically, only regular files opened, the status record, stale temporaries and old files pruned.

use super::*;

/// How old a temporary file of the cache directory must be to be taken for a killed writer's.
pub(super) const STALE: std::time::Duration = std::time::Duration::from_secs(600);

/// A status file's text (a line of under 200 bytes).
pub(super) fn read_status(path: &Path) -> Option<String> {
    String::from_utf8(read_regular(path, 4096)?).ok()
}

pub(super) fn file_of(dir: &Path, key: &str) -> PathBuf {
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
    pub(super) dev: u64,
    pub(super) ino: u64,
    pub(super) size: u64,
    pub(super) mtime: (i64, i64),
    pub(super) ctime: (i64, i64),
}

impl FileStat {
    /// The status of an open file (`None` where the platform does not give it, or the file is
    /// not a real one).
    pub fn of(file: &crate::world::Handle) -> Option<FileStat> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let m = file.as_file()?.metadata().ok()?;
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

    /// Both times at least [`SETTLED`] before `now`.
    pub(super) fn settled(&self, now: std::time::SystemTime) -> bool {
        let Ok(now) = now.duration_since(std::time::UNIX_EPOCH) else {
            return false;
        };
        let latest = self.mtime.max(self.ctime).0;
        now.as_secs() as i64 - latest > SETTLED.as_secs() as i64
    }

    pub(super) fn file(&self, dir: &Path) -> PathBuf {
        dir.join(format!("{:x}-{:x}.stat", self.dev, self.ino))
    }

    pub(super) fn text(&self, settled: bool, key: &str) -> String {
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
    /// once it has settled by `now`, for [`previous`](Self::previous) at once.
    pub fn record(&self, dir: &Path, key: &str, now: std::time::SystemTime) {
        let settled = self.settled(now);
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

/// Remove all but the newest [`KEEP`] `.audit` files of `dir`, `ours` the one just written.
pub(super) fn prune(dir: &Path, ours: &Path) {
    // The temporary files of writers killed mid-write (a live writer renames its own within
    // seconds of making it): older than `ours` by more than STALE (the file system's clock).
    use crate::world::World;
    let world = &crate::world::REAL;
    let now = world.metadata(ours).ok().and_then(|m| m.modified);
    // (an entry's own metadata, as a directory's entries give it: a link's, not its target's)
    let modified = |p: &Path| world.symlink_metadata(p).ok().and_then(|m| m.modified);
    if let (Ok(names), Some(now)) = (world.list(dir), now) {
        let stale = |p: &Path| {
            modified(p)
                .and_then(|t| now.duration_since(t).ok())
                .is_some_and(|age| age > STALE)
        };
        for name in names {
            let path = dir.join(&name);
            let name = name.to_string_lossy();
            if name.starts_with('.') && name.ends_with(".tmp") && stale(&path) {
                let _ = world.remove_file(&path);
            }
        }
    }
    for (ext, keep) in [("audit", KEEP), ("stat", 4 * KEEP)] {
        let Ok(names) = world.list(dir) else {
            return;
        };
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = names
            .iter()
            .map(|n| dir.join(n))
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .filter_map(|p| Some((modified(&p)?, p)))
            .collect();
        files.sort_by_key(|f| std::cmp::Reverse(f.0));
        for (_, p) in files.into_iter().skip(keep) {
            let _ = world.remove_file(&p);
        }
    }
}

// ---- the file format: little-endian fields, strings as length + UTF-8 ----
