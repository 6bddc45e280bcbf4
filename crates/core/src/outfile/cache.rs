//! Files of a cache directory (the audit cache, the solved deals): replaced whole, and read only when they are regular files.

use std::path::{Path, PathBuf};

use crate::world::{Handle, Open, World, REAL};

/// Bytes as lower-case hex.
pub(crate) fn hex(b: &[u8]) -> String {
    hex::encode(b)
}

/// Write `bytes` as `dir/name` whole or not at all: to a temporary file of `dir` (`.NAME.PID.tmp`,
/// which the cache's owner removes once stale should the writer be killed), renamed into place.
pub(crate) fn replace_file(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    replace_file_with(dir, name, |f| std::io::Write::write_all(f, bytes))
}

/// [`replace_file`] of what `write` writes to the temporary file (opened to read it back too).
pub(crate) fn replace_file_with(
    dir: &Path,
    name: &str,
    write: impl FnOnce(&mut Handle) -> std::io::Result<()>,
) -> std::io::Result<()> {
    REAL.create_dir_all(dir)?;
    let (tmp, mut f) = create_tmp(dir, name)?;
    let written = write(&mut f).and_then(|()| REAL.rename(&tmp, &dir.join(name)));
    if written.is_err() {
        let _ = REAL.remove_file(&tmp);
    }
    written
}

/// A new temporary file of `dir` for `name` (`.NAME.PID-N.tmp`), created exclusively: a name
/// planted there (a symlink included) is never written through.
fn create_tmp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, Handle)> {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    loop {
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(
            ".{name}.{}-{n}-{:x}.tmp",
            std::process::id(),
            crate::outfile::salt()
        ));
        match REAL.open_file(&tmp, Open::CREATE_NEW_RW) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1 << 20 => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Open `path` for reading only when it is a regular file (not a FIFO, a device, a socket or a
/// symlink planted in the cache directory): checked before opening without following a link,
/// opened without blocking and without following a link, and checked again on the handle.
pub(crate) fn open_regular(path: &Path) -> Option<Handle> {
    let m = REAL.symlink_metadata(path).ok()?;
    if !m.is_file || m.is_symlink {
        return None;
    }
    let how = Open {
        no_follow: true,
        ..Open::READ
    };
    let f = REAL.open_file(path, how).ok()?;
    f.metadata().ok()?.is_file.then_some(f)
}

/// A regular file's text ([`open_regular`]), at most `limit` bytes of it.
pub(crate) fn read_regular(path: &Path, limit: u64) -> Option<Vec<u8>> {
    let f = open_regular(path)?;
    let mut v = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(f, limit + 1), &mut v).ok()?;
    (v.len() as u64 <= limit).then_some(v)
}
