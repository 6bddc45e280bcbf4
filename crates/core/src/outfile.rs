//! Output paths: every file and directory frekans writes for a user (`score`/`bulletin`/`audit
//! --out DIR`, `synth --out FILE`, `site`, `publish`, `live`) goes through here, so that a run
//! touches nothing it does not own.
//!
//! - Temporary names are unique (process id, a random number, a counter) and created exclusively
//!   (`mkdir`, `O_CREAT|O_EXCL`): a name planted in advance, a symlink included, is never
//!   written through; the next name is tried instead.
//! - A symlinked output is written through to its target, as a user who made the link expects;
//!   the link itself and everything else beside the target are left alone. A dangling link is
//!   refused with a message. A symlink *inside* an output directory, where frekans writes a
//!   directory of its own (`pairs/`), is refused: nothing is written through it.
//! - `site`, `publish` and `live` replace their directory whole: the next version is built
//!   beside it and swapped with it in one rename ([`Incremental`]), the files whose bytes are
//!   unchanged hard-linked from the old version (their inode and times kept), and `publish`
//!   removes only files it wrote before (its manifest).
//! - `score`, `bulletin` and `audit` keep an existing output directory's inode, so its mode,
//!   owner, ACLs, setgid and sticky bits (see [`write_dir`]): their few files are renamed into it.
//! - Temporaries of a killed run (their process id no longer alive, or a day older than the
//!   temporary just made: the file system's clock, not the program's) are removed by the next
//!   run that writes beside them.
//!
//! Every file operation goes through a [`World`] (`world::REAL` for the functions given none).

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Context, Result};
use crate::world::tmp::{self, alive, clean_stale, tmp_name, PREFIX};
use crate::world::{Handle, Open, World, REAL};

pub use crate::world::tmp::salt;

pub(crate) mod cache;
mod incremental;
mod swap;
pub use incremental::{Incremental, Published, MANIFEST};

/// Where writing `out` really goes: `out` itself, or the target of the symlink `out` (resolved
/// whole). A dangling symlink is refused.
pub fn resolve(out: &Path) -> Result<PathBuf> {
    resolve_in(&REAL, out)
}

/// [`resolve`] in the world `w`.
pub fn resolve_in(w: &dyn World, out: &Path) -> Result<PathBuf> {
    match w.symlink_metadata(out) {
        Ok(m) if m.is_symlink => w.canonicalize(out).with_context(|| {
            format!(
                "{} is a symbolic link to {}, which does not exist; create the target or give another path",
                out.display(),
                w.read_link(out).map_or_else(|_| "?".into(), |t| t.display().to_string())
            )
        }),
        _ => Ok(out.to_path_buf()),
    }
}

/// The directory `path` is in (`.` for a bare name).
pub fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Make a new directory of a unique temporary name in `parent` (never an existing one, never
/// through a link), with the mode a plain `mkdir` gives (0777 less the umask); stale
/// temporaries of killed runs are removed from `parent` on the way.
pub fn create_tmp_dir(parent: &Path, what: &str) -> Result<PathBuf> {
    tmp::create_tmp_dir(&REAL, parent, what)
}

/// Create a new file of a unique temporary name in `parent`, exclusively (`O_CREAT|O_EXCL`,
/// which also refuses a planted symlink); stale temporaries of killed runs are removed from
/// `parent` on the way.
pub fn create_tmp_file(parent: &Path, what: &str) -> Result<(PathBuf, Handle)> {
    create_tmp_file_in(&REAL, parent, what)
}

/// [`create_tmp_file`] in the world `w`.
pub fn create_tmp_file_in(w: &dyn World, parent: &Path, what: &str) -> Result<(PathBuf, Handle)> {
    for _ in 0..64 {
        let p = parent.join(tmp_name(what));
        match w.open_file(&p, Open::CREATE_NEW_RW) {
            Ok(f) => {
                clean_stale(w, parent, &p);
                return Ok((p, f));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", p.display())),
        }
    }
    Err(crate::error::Failed::said(format!(
        "cannot create a temporary file in {}",
        parent.display()
    )))
}

/// Sync directory `dir` (the names created, renamed or removed in it made durable).
pub fn sync_dir(dir: &Path) {
    sync_dir_in(&REAL, dir);
}

/// [`sync_dir`] in the world `w` (an empty path is the working directory's: `.`).
fn sync_dir_in(w: &dyn World, dir: &Path) {
    let _ = w.sync_dir(dir);
}

/// A file written to a temporary of its directory, then renamed over its final name
/// ([`FileOut::create`], [`FileOut::finish`]). Dropped unfinished, the temporary is removed.
pub struct FileOut<'w> {
    world: &'w dyn World,
    tmp: PathBuf,
    to: PathBuf,
    file: Option<Handle>,
}

impl FileOut<'static> {
    /// Start writing `out` (through it, if it is a symlink); the temporary is beside the real
    /// target.
    pub fn create(out: &Path) -> Result<FileOut<'static>> {
        FileOut::create_in(&REAL, out)
    }
}

impl<'w> FileOut<'w> {
    /// [`FileOut::create`] in the world `w`.
    pub fn create_in(w: &'w dyn World, out: &Path) -> Result<FileOut<'w>> {
        let to = resolve_in(w, out)?;
        if w.metadata(&to).is_ok_and(|m| m.is_dir) {
            return Err(crate::error::Failed::said(format!(
                "{} is a directory; give a file name (it is written whole or not at all)",
                out.display()
            )));
        }
        let dir = parent_of(&to);
        let what = to
            .file_name()
            .map_or_else(|| OsString::from("out"), |n| n.to_owned());
        let (tmp, file) = create_tmp_file_in(w, &dir, &what.to_string_lossy())?;
        Ok(FileOut {
            world: w,
            tmp,
            to,
            file: Some(file),
        })
    }

    /// The temporary file (written through a `BufWriter` by the caller).
    pub fn file(&mut self) -> &mut Handle {
        self.file.as_mut().expect("an unfinished FileOut")
    }

    /// The temporary's path (for messages).
    pub fn tmp(&self) -> &Path {
        &self.tmp
    }

    /// Sync and rename into place. An existing file keeps its permission bits.
    pub fn finish(mut self) -> Result<()> {
        let w = self.world;
        let mut f = self.file.take().expect("an unfinished FileOut");
        if let Ok(m) = w.metadata(&self.to) {
            let _ = f.set_mode(m.mode);
        }
        f.sync_all()
            .with_context(|| format!("cannot write {}", self.tmp.display()))?;
        drop(f);
        w.rename(&self.tmp, &self.to).with_context(|| {
            format!(
                "cannot rename {} to {}",
                self.tmp.display(),
                self.to.display()
            )
        })?;
        sync_dir_in(w, &parent_of(&self.to));
        Ok(())
    }
}

impl Drop for FileOut<'_> {
    fn drop(&mut self) {
        if self.file.is_some() {
            let _ = self.world.remove_file(&self.tmp);
        }
    }
}

/// Write `files` (name, bytes) into directory `out`.
///
/// A new `out` (nothing there yet) is written whole or not at all: a temporary directory
/// beside it is filled and synced, then renamed to `out`.
///
/// An existing `out` (or the directory a symlinked `out` points to) is kept, and only the
/// files of `files` are replaced in it: they are written and synced in a temporary directory
/// made inside `out` (so on the same file system, whatever is mounted where), then each renamed
/// over its name, and the temporary removed. This is the way of `score`, `bulletin` and
/// `audit`, a handful of tables whose renames take microseconds; the website's hundreds of
/// thousands of pages (`site`, `publish`, `live`) are swapped in whole instead ([`Incremental`],
/// which weighs the two). Keeping `out` keeps its inode: its mode (2775, 1777), owner and group,
/// ACLs and extended attributes, which an ordinary user cannot copy for an owner other than
/// themselves (a director writing into a club's shared directory); a bind mount, a shell's
/// working directory or a web server watching `out` keep seeing it. What it gives up: every
/// file is still whole (each is renamed only once written and synced), every failure before the
/// renames leaves `out` as it was, but a crash during the renames can leave some files of the
/// new run beside some of the old, each whole, and the next run replaces them all.
/// Files of `out` that this run does not write (a user's notes, a bulletin) are left alone.
pub fn write_dir(out: &Path, files: Vec<(String, Vec<u8>)>) -> Result<()> {
    write_dir_in(&REAL, out, files)
}

/// [`write_dir`] in the world `world`.
pub fn write_dir_in(world: &dyn World, out: &Path, files: Vec<(String, Vec<u8>)>) -> Result<()> {
    let mut w = DirWriter::begin_in(world, out)?;
    for (name, bytes) in &files {
        w.put(name, bytes)?;
    }
    w.finish()
}

/// [`write_dir`] one file at a time (the files need not all be held):
/// [`DirWriter::begin_in`], [`DirWriter::put`] each file, [`DirWriter::finish`]. Each file is
/// written in the temporary directory as it is put, and all are synced in `finish`, before any
/// reaches `out`. Dropped unfinished (an error on the way), the temporary directory is removed and
/// `out` is as it was.
pub struct DirWriter<'w> {
    world: &'w dyn World,
    /// `out` as given (for messages).
    out: PathBuf,
    /// Where the files go: the directory `out` (or its symlink's target).
    target: PathBuf,
    /// The temporary directory being filled.
    tmp: PathBuf,
    /// `out` existed: its contents are replaced (else `tmp` is renamed to it).
    existing: bool,
    /// The names put, in order, and the subdirectories made for them.
    names: Vec<String>,
    subdirs: std::collections::BTreeSet<PathBuf>,
    done: bool,
}

/// The temporary directory a whole-directory output `out` (resolved to `target`) is made in:
/// inside `target` when it is a directory already (`true`: its contents are then replaced), else
/// beside it (its parent made); stale temporaries of killed runs are cleaned there first. `tag`
/// names the temporary inside an existing directory.
pub(crate) fn temp_dir_for(
    w: &dyn World,
    out: &Path,
    target: &Path,
    tag: &str,
) -> Result<(PathBuf, bool)> {
    let tmp_dir = |parent: &Path, what: &str| {
        w.create_tmp_dir(parent, what)
            .map_err(crate::error::Failed::foreign)
    };
    match w.symlink_metadata(target) {
        Ok(m) if m.is_dir => Ok((tmp_dir(target, tag)?, true)),
        Ok(_) => Err(crate::error::Failed::said(format!(
            "{} exists and is not a directory; give --out a directory (it is written whole or not at all)",
            out.display()
        ))),
        Err(_) => {
            let parent = parent_of(target);
            w.create_dir_all(&parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
            let name = target
                .file_name()
                .with_context(|| format!("{} is not a directory name", out.display()))?
                .to_string_lossy()
                .to_string();
            Ok((tmp_dir(&parent, &name)?, false))
        }
    }
}

impl<'w> DirWriter<'w> {
    /// Start writing into `out` in the world `w`: the temporary directory is made (inside an
    /// existing `out`, beside a new one).
    pub fn begin_in(w: &'w dyn World, out: &Path) -> Result<DirWriter<'w>> {
        let target = resolve_in(w, out)?;
        let (tmp, existing) = temp_dir_for(w, out, &target, "out")?;
        Ok(DirWriter {
            world: w,
            out: out.to_path_buf(),
            target,
            tmp,
            existing,
            names: Vec::new(),
            subdirs: Default::default(),
            done: false,
        })
    }

    /// Write file `name` (a path under `out`; its subdirectories are made); it is synced with
    /// the others in `finish`.
    pub fn put(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        put_file(self.world, &self.tmp, &mut self.subdirs, name, bytes)?;
        self.names.push(name.to_string());
        Ok(())
    }

    /// Put every file in place: the temporary directory renamed to a new `out`, or each file
    /// renamed over its name in an existing one.
    pub fn finish(mut self) -> Result<()> {
        self.done = true;
        let w = self.world;
        if let Err(e) = sync_files(w, &self.tmp, self.names.iter().map(String::as_str)) {
            let _ = w.remove_dir_all(&self.tmp);
            return Err(e);
        }
        for sub in &self.subdirs {
            sync_dir_in(w, &self.tmp.join(sub));
        }
        sync_dir_in(w, &self.tmp);
        if !self.existing {
            let result = w
                .rename(&self.tmp, &self.target)
                .with_context(|| format!("cannot rename into {}", self.out.display()));
            if result.is_err() {
                let _ = w.remove_dir_all(&self.tmp);
            } else {
                sync_dir_in(w, &parent_of(&self.target));
            }
            return result;
        }
        let (dir, tmp) = (&self.target, &self.tmp);
        let result = (|| -> Result<()> {
            for name in &self.names {
                let to = dir.join(name);
                if w.symlink_metadata(&to).is_ok_and(|m| m.is_dir) {
                    return Err(crate::error::Failed::said(format!(
                        "{} is a directory; move it away (frekans writes a file of that name)",
                        to.display()
                    )));
                }
            }
            for name in &self.names {
                let to = dir.join(name);
                if let Some(sub) = Path::new(name)
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                {
                    w.create_dir_all(&dir.join(sub))
                        .with_context(|| format!("cannot create {}", dir.join(sub).display()))?;
                }
                w.rename(&tmp.join(name), &to)
                    .with_context(|| format!("cannot rename into {}", to.display()))?;
            }
            Ok(())
        })();
        let _ = w.remove_dir_all(tmp);
        sync_dir_in(w, dir);
        result
    }
}

impl Drop for DirWriter<'_> {
    fn drop(&mut self) {
        if !self.done {
            let _ = self.world.remove_dir_all(&self.tmp);
        }
    }
}

/// Write file `name` into the directory `dir` being filled (created exclusively; its
/// subdirectories, recorded in `subdirs`, made on the way). It is not synced here: the caller
/// syncs every file it put with [`sync_files`] before any is renamed into place.
pub(crate) fn put_file(
    w: &dyn World,
    dir: &Path,
    subdirs: &mut std::collections::BTreeSet<PathBuf>,
    name: &str,
    bytes: &[u8],
) -> Result<()> {
    let path = dir.join(name);
    // A site's pages are in subdirectories (`boards/S1-3.html`), made fresh here.
    if let Some(sub) = Path::new(name)
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
    {
        if subdirs.insert(sub.to_path_buf()) {
            w.create_dir_all(&dir.join(sub))
                .with_context(|| format!("cannot create {}", dir.join(sub).display()))?;
        }
    }
    let mut f = w
        .open_file(&path, Open::CREATE_NEW)
        .with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Make the files `names` put in `dir` durable, before they are renamed into place. On Linux one
/// `syncfs` of `dir`'s file system: a site of 100,000 pages synced file by file spent more time
/// in `fsync` than in rendering (measured: `git show be4e385:docs/benchmarks.md`); elsewhere each file is synced.
pub(crate) fn sync_files<'a>(
    w: &dyn World,
    dir: &Path,
    names: impl IntoIterator<Item = &'a str>,
) -> Result<()> {
    match w.sync_fs(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {}
        done => return done.with_context(|| format!("cannot sync {}", dir.display())),
    }
    for name in names {
        let path = dir.join(name);
        w.open_file(&path, Open::READ)
            .and_then(|mut f| f.sync_all())
            .with_context(|| format!("cannot sync {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_name_is_in_the_working_directory() {
        assert_eq!(parent_of(Path::new("log.jsonl")), Path::new("."));
        assert_eq!(parent_of(Path::new("a/log.jsonl")), Path::new("a"));
        assert_eq!(parent_of(Path::new("/log.jsonl")), Path::new("/"));
    }
}
