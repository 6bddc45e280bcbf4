//! The directory swap of [`super::Incremental`]: a new tree built beside the output directory
//! (in its parent, so on the same file system) takes the output's name in one
//! `renameat2(RENAME_EXCHANGE)`, and the old tree, now under the temporary's name, is kept until
//! the next run (a reader that opened it, an rsync under way, finishes reading the whole old
//! site). Where the exchange is not supported (another system, a file system without it) two
//! renames do it, the old tree moved aside first: a run killed between the two leaves no
//! directory at the output's name, only the old tree under a name [`recover`] finds and puts
//! back.
// Not yet behind the seam (`world`): this file's own reads and writes of files (locks, syncs,
// exclusive creation, links) still call std (ARCHITECTURE.md lists them).
#![allow(clippy::disallowed_methods)]

use std::collections::HashSet;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Context, Result};

use super::{alive, create_tmp_dir, parent_of, tmp_name, PREFIX};

/// Is `name` one of frekans's temporaries (never a user's file, never carried into a new tree)?
pub(super) fn is_tmp(name: &std::ffi::OsStr) -> bool {
    name.to_str().is_some_and(|n| n.starts_with(PREFIX))
}

/// A new temporary directory beside the existing directory `real` (canonical), to build its
/// next tree in; or why `real` cannot be replaced by a swap: it is `/`, a mount point (a rename
/// cannot move it), the working directory (or holds it), in a directory this user cannot write
/// (nor rename in: a sticky directory and another user's `real`).
pub(super) fn stage_beside(real: &Path) -> std::result::Result<PathBuf, NoSwap> {
    let Some(parent) = real.parent() else {
        return Err(NoSwap::Root);
    };
    let name = real
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().to_string());
    if mount_root(real) {
        return Err(NoSwap::MountPoint);
    }
    // A shell there would be left in the old tree, and show it (`ls`, `xdg-open index.html`).
    if std::env::current_dir().is_ok_and(|c| c.starts_with(real)) {
        return Err(NoSwap::WorkingDirectory);
    }
    let (m, pm) = match (fs::symlink_metadata(real), fs::metadata(parent)) {
        (Ok(m), Ok(pm)) => (m, pm),
        _ => return Err(NoSwap::Unreadable(parent.to_path_buf())),
    };
    // SAFETY: geteuid has no preconditions and cannot fail.
    let euid = unsafe { libc::geteuid() };
    if pm.mode() & 0o1000 != 0 && euid != 0 && m.uid() != euid && pm.uid() != euid {
        return Err(NoSwap::Sticky(parent.to_path_buf()));
    }
    create_tmp_dir(parent, &name).map_err(|e| NoSwap::Stage(format!("{e:#}")))
}

/// Why a directory cannot be replaced by a swap ([`stage_beside`]).
#[derive(Debug, thiserror::Error)]
pub(super) enum NoSwap {
    /// The caller did not ask for a swap.
    #[error("asked")]
    Asked,
    #[error("it is the root directory")]
    Root,
    #[error("it is a mount point")]
    MountPoint,
    #[error("it is the working directory")]
    WorkingDirectory,
    #[error("{} cannot be read", .0.display())]
    Unreadable(PathBuf),
    #[error("{} is sticky and the directory is another user's", .0.display())]
    Sticky(PathBuf),
    /// The temporary directory beside it cannot be made (the failure's chain, as shown).
    #[error("{0}")]
    Stage(String),
}

/// Is `path` the root of a mount (a bind mount included)?
fn mount_root(path: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{statx, AtFlags, StatxAttributes, StatxFlags, CWD};
        let flags = AtFlags::SYMLINK_NOFOLLOW | AtFlags::NO_AUTOMOUNT;
        if let Ok(s) = statx(CWD, path, flags, StatxFlags::empty()) {
            if s.stx_attributes_mask.contains(StatxAttributes::MOUNT_ROOT) {
                return s.stx_attributes.contains(StatxAttributes::MOUNT_ROOT);
            }
        }
    }
    match (fs::symlink_metadata(path), path.parent().map(fs::metadata)) {
        (Ok(m), Some(Ok(p))) => m.dev() != p.dev(),
        _ => false,
    }
}

/// Make `to` (a new path of the tree being built) the same file as `from` (of the old tree): a
/// hard link, so the file keeps its inode and times; a copy where a link is refused (another
/// user's file, with `fs.protected_hardlinks`): a regular file's bytes and mode, a symlink's
/// target.
pub(super) fn link_or_copy(from: &Path, to: &Path) -> Result<()> {
    if let Some(p) = to.parent() {
        fs::create_dir_all(p).with_context(|| format!("cannot create {}", p.display()))?;
    }
    let linked = fs::hard_link(from, to);
    if linked.is_ok() {
        return Ok(());
    }
    let m =
        fs::symlink_metadata(from).with_context(|| format!("cannot read {}", from.display()))?;
    let copied = if m.file_type().is_symlink() {
        fs::read_link(from).and_then(|t| std::os::unix::fs::symlink(t, to))
    } else if m.is_file() {
        fs::copy(from, to).map(|_| ())
    } else {
        linked
    };
    copied.with_context(|| {
        format!(
            "cannot keep {} (a file frekans did not write) in the new directory",
            from.display()
        )
    })
}

/// Give directory `to` what it can of `from`'s: its extended attributes (ACLs), group (and
/// owner, when this user may), and mode (setgid and sticky bits included). Best effort: what
/// the system refuses stays as made.
pub(super) fn copy_dir_attrs(from: &Path, to: &Path) {
    let Ok(m) = fs::symlink_metadata(from) else {
        return;
    };
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{lgetxattr, llistxattr, lsetxattr, XattrFlags};
        let mut names = vec![0u8; 1 << 16];
        if let Ok(n) = llistxattr(from, &mut names[..]) {
            let mut value = vec![0u8; 1 << 16];
            for name in names[..n].split(|b| *b == 0).filter(|s| !s.is_empty()) {
                if let Ok(len) = lgetxattr(from, name, &mut value[..]) {
                    let _ = lsetxattr(to, name, &value[..len], XattrFlags::empty());
                }
            }
        }
    }
    if std::os::unix::fs::lchown(to, Some(m.uid()), Some(m.gid())).is_err() {
        let _ = std::os::unix::fs::lchown(to, None, Some(m.gid()));
    }
    let _ = fs::set_permissions(to, fs::Permissions::from_mode(m.mode() & 0o7777));
}

/// Put the tree `stage` at `target` (both in one directory), in one step: returns where the old
/// tree now is.
pub(super) fn exchange(target: &Path, stage: &Path) -> Result<PathBuf> {
    exchange_with(target, stage, true)
}

/// [`exchange`], by `renameat2(RENAME_EXCHANGE)` when `atomic` and the system has it, else by two
/// renames.
pub(super) fn exchange_with(target: &Path, stage: &Path, atomic: bool) -> Result<PathBuf> {
    #[cfg(target_os = "linux")]
    if atomic {
        use rustix::fs::{renameat_with, RenameFlags, CWD};
        use rustix::io::Errno;
        match renameat_with(CWD, stage, CWD, target, RenameFlags::EXCHANGE) {
            Ok(()) => return Ok(stage.to_path_buf()),
            Err(e) if [Errno::INVAL, Errno::NOSYS, Errno::OPNOTSUPP].contains(&e) => {}
            Err(e) => {
                return Err(std::io::Error::from(e)).with_context(|| {
                    format!(
                        "cannot exchange {} with {}",
                        target.display(),
                        stage.display()
                    )
                })
            }
        }
    }
    let _ = atomic;
    let name = target
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().to_string());
    let old = parent_of(target).join(tmp_name(&format!("{name}.old")));
    fs::rename(target, &old).with_context(|| format!("cannot move {} aside", target.display()))?;
    if let Err(e) = fs::rename(stage, target) {
        let _ = fs::rename(&old, target);
        return Err(e).with_context(|| format!("cannot rename into {}", target.display()));
    }
    Ok(old)
}

/// After the swap: what was made in the old tree while the new one was being built (a file a
/// user saved into the output directory then, not among the `seen` paths the new tree was
/// built from) is moved into the new tree, unless the new tree has that name.
pub(super) fn late_arrivals(retired: &Path, target: &Path, seen: &HashSet<PathBuf>) {
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let Ok(rd) = fs::read_dir(retired.join(&rel)) else {
            continue;
        };
        for e in rd.flatten() {
            if is_tmp(&e.file_name()) {
                continue;
            }
            let r = rel.join(e.file_name());
            if seen.contains(&r) {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(r);
                }
                continue;
            }
            let to = target.join(&r);
            let moved = if fs::symlink_metadata(&to).is_ok() {
                Err(std::io::Error::from(std::io::ErrorKind::AlreadyExists))
            } else {
                to.parent()
                    .map_or(Ok(()), fs::create_dir_all)
                    .and_then(|()| fs::rename(e.path(), &to))
            };
            if let Err(err) = moved {
                tracing::warn!(
                    "{} appeared while the directory was replaced and could not be kept: {err} (it is in {})",
                    to.display(),
                    e.path().display()
                );
            }
        }
    }
}

/// The old trees this process swapped out, by the directory they were swapped out of: each is
/// removed when the same directory is replaced again (`frekans live`, a run a cycle), so one
/// old tree at most is kept; a finished run's are removed by the next run that writes beside
/// them (they are temporaries of a process no longer alive).
static RETIRED: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());

/// Keep `retired`, the old tree just swapped out of `target`, and remove the one before it.
pub(super) fn retire(target: &Path, retired: PathBuf) {
    let mut kept = RETIRED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = kept.iter().position(|(t, _)| t == target) {
        let (_, before) = kept.swap_remove(i);
        if before != retired {
            let _ = fs::remove_dir_all(before);
        }
    }
    kept.push((target.to_path_buf(), retired));
}

/// A run killed between the two renames of [`exchange_with`]'s fallback left no directory at
/// `target` and the old tree beside it (`….NAME.old`, of a process no longer alive): it is put
/// back (the newest, should there be several), so the next run replaces it as any other.
pub(super) fn recover(target: &Path) {
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let suffix = format!(".{name}.old");
    let parent = parent_of(target);
    let Ok(rd) = fs::read_dir(&parent) else {
        return;
    };
    let newest = rd
        .flatten()
        .filter(|e| {
            let n = e.file_name();
            let Some(rest) = n.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
                return false;
            };
            let pid = rest.split('.').next().and_then(|p| p.parse::<i32>().ok());
            rest.ends_with(&suffix)
                && pid.is_some_and(|p| p != std::process::id() as i32 && !alive(p))
                && e.file_type().is_ok_and(|t| t.is_dir())
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max();
    if let Some((_, old)) = newest {
        if fs::rename(&old, target).is_ok() {
            tracing::warn!(
                "{} was being replaced when its writer was killed: its last whole version is back",
                target.display()
            );
        }
    }
}
