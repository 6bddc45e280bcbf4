//! Temporary names (`.frekans-tmp.PID.SALT-N.WHAT`), unique and made exclusively, and the
//! removal of those a killed run left (`outfile` writes through them; the real world's
//! `create_tmp_dir` is [`create_tmp_dir`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::World;
use crate::error::{Context, Result};

/// Every temporary name starts with this (then the process id, a dot, and whatever is unique).
pub(crate) const PREFIX: &str = ".frekans-tmp.";

/// Past this age a temporary is taken for a killed run's even when its process id is alive
/// again (reused by another process).
const STALE: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh temporary name for `what` (a file or directory name, kept for a reader of `ls`):
/// the process id, a number drawn at random once per process (the standard library's hasher
/// keys, from the system's random source: a reused process id does not meet its predecessor's
/// names) and a counter.
pub(crate) fn tmp_name(what: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{PREFIX}{}.{:x}-{n}.{what}", std::process::id(), salt())
}

/// A number drawn at random once per process, for temporary names.
pub fn salt() -> u32 {
    static SALT: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *SALT.get_or_init(|| {
        use std::hash::{BuildHasher, Hasher};
        std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish() as u32
    })
}

/// Is process `pid` alive (on this machine)?
pub(crate) fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Remove the temporaries of killed runs from `dir`: our prefix, and a process id that is no
/// longer alive (or modified more than [`STALE`] before `ours`, the temporary this run just
/// made there). Never follows a symlink (a link is removed as a link; `remove_dir_all` does
/// not descend through links).
pub(crate) fn clean_stale(w: &dyn World, dir: &Path, ours: &Path) {
    let Some(now) = w.symlink_metadata(ours).ok().and_then(|m| m.modified) else {
        return;
    };
    let Ok(names) = w.list(dir) else {
        return;
    };
    for name in names {
        let path = dir.join(&name);
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
            continue;
        };
        let Some(pid) = rest.split('.').next().and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(meta) = w.symlink_metadata(&path) else {
            continue;
        };
        let old = meta
            .modified
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|a| a > STALE);
        if pid == std::process::id() as i32 || (alive(pid) && !old) {
            continue;
        }
        let _ = if meta.is_dir {
            w.remove_dir_all(&path)
        } else {
            w.remove_file(&path)
        };
    }
}

/// Make, in the world `w`, a new directory of a unique temporary name in `parent` (never an existing one, never
/// through a link), with the mode a plain `mkdir` gives (0777 less the umask); stale
/// temporaries of killed runs are removed from `parent` on the way.
pub fn create_tmp_dir(w: &dyn World, parent: &Path, what: &str) -> Result<PathBuf> {
    for _ in 0..64 {
        let p = parent.join(tmp_name(what));
        match w.create_dir(&p) {
            Ok(()) => {
                clean_stale(w, parent, &p);
                return Ok(p);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", p.display())),
        }
    }
    Err(crate::error::Failed::said(format!(
        "cannot create a temporary directory in {}",
        parent.display()
    )))
}
