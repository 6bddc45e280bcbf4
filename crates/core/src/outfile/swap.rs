//! The directory swap of [`super::Incremental`]: a new tree built beside the output directory
//! (in its parent, so on the same file system) takes the output's name in one
//! `renameat2(RENAME_EXCHANGE)`, and the old tree, now under the temporary's name, is kept until
//! the next run (a reader that opened it, an rsync under way, finishes reading the whole old
//! site). Where the exchange is not supported (another system, a file system without it) two
//! renames do it, the old tree moved aside first: a run killed between the two leaves no
//! directory at the output's name, only the old tree under a name [`recover`] finds and puts
//! back.
//!
//! Its files are the real world's (`world::REAL`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Context, Result};
use crate::world::{World, REAL};

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
    if REAL.is_mount_point(real) {
        return Err(NoSwap::MountPoint);
    }
    // A shell there would be left in the old tree, and show it (`ls`, `xdg-open index.html`).
    if REAL.current_dir().is_ok_and(|c| c.starts_with(real)) {
        return Err(NoSwap::WorkingDirectory);
    }
    let (m, pm) = match (REAL.symlink_metadata(real), REAL.metadata(parent)) {
        (Ok(m), Ok(pm)) => (m, pm),
        _ => return Err(NoSwap::Unreadable(parent.to_path_buf())),
    };
    // SAFETY: geteuid has no preconditions and cannot fail.
    let euid = unsafe { libc::geteuid() };
    if pm.mode & 0o1000 != 0 && euid != 0 && m.uid != euid && pm.uid != euid {
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

/// Make `to` (a new path of the tree being built) the same file as `from` (of the old tree): a
/// hard link, so the file keeps its inode and times; a copy where a link is refused (another
/// user's file, with `fs.protected_hardlinks`): a regular file's bytes and mode, a symlink's
/// target.
pub(super) fn link_or_copy(from: &Path, to: &Path) -> Result<()> {
    if let Some(p) = to.parent() {
        REAL.create_dir_all(p)
            .with_context(|| format!("cannot create {}", p.display()))?;
    }
    let linked = REAL.hard_link(from, to);
    if linked.is_ok() {
        return Ok(());
    }
    let m = REAL
        .symlink_metadata(from)
        .with_context(|| format!("cannot read {}", from.display()))?;
    let copied = if m.is_symlink {
        REAL.read_link(from).and_then(|t| REAL.symlink(&t, to))
    } else if m.is_file {
        REAL.copy(from, to)
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
    let Ok(m) = REAL.symlink_metadata(from) else {
        return;
    };
    for (name, value) in REAL.xattrs(from).unwrap_or_default() {
        let _ = REAL.set_xattr(to, &name, &value);
    }
    if REAL.lchown(to, Some(m.uid), Some(m.gid)).is_err() {
        let _ = REAL.lchown(to, None, Some(m.gid));
    }
    let _ = REAL.set_mode(to, m.mode & 0o7777);
}

/// Put the tree `stage` at `target` (both in one directory), in one step: returns where the old
/// tree now is.
pub(super) fn exchange(target: &Path, stage: &Path) -> Result<PathBuf> {
    exchange_with(target, stage, true)
}

/// [`exchange`], by `renameat2(RENAME_EXCHANGE)` when `atomic` and the system has it, else by two
/// renames.
pub(super) fn exchange_with(target: &Path, stage: &Path, atomic: bool) -> Result<PathBuf> {
    if atomic {
        match REAL.rename_exchange(stage, target) {
            Ok(()) => return Ok(stage.to_path_buf()),
            Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {}
            Err(e) => {
                return Err(e).with_context(|| {
                    format!(
                        "cannot exchange {} with {}",
                        target.display(),
                        stage.display()
                    )
                })
            }
        }
    }
    let name = target
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().to_string());
    let old = parent_of(target).join(tmp_name(&format!("{name}.old")));
    REAL.rename(target, &old)
        .with_context(|| format!("cannot move {} aside", target.display()))?;
    if let Err(e) = REAL.rename(stage, target) {
        let _ = REAL.rename(&old, target);
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
        let dir = retired.join(&rel);
        let Ok(names) = REAL.list(&dir) else {
            continue;
        };
        for name in names {
            if is_tmp(&name) {
                continue;
            }
            let (path, r) = (dir.join(&name), rel.join(&name));
            if seen.contains(&r) {
                if REAL.symlink_metadata(&path).is_ok_and(|m| m.is_dir) {
                    stack.push(r);
                }
                continue;
            }
            let to = target.join(&r);
            let moved = if REAL.symlink_metadata(&to).is_ok() {
                Err(std::io::Error::from(std::io::ErrorKind::AlreadyExists))
            } else {
                to.parent()
                    .map_or(Ok(()), |p| REAL.create_dir_all(p))
                    .and_then(|()| REAL.rename(&path, &to))
            };
            if let Err(err) = moved {
                tracing::warn!(
                    "{} appeared while the directory was replaced and could not be kept: {err} (it is in {})",
                    to.display(),
                    path.display()
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
            let _ = REAL.remove_dir_all(&before);
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
    let Ok(names) = REAL.list(&parent) else {
        return;
    };
    let newest = names
        .iter()
        .filter(|n| {
            let Some(rest) = n.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
                return false;
            };
            let pid = rest.split('.').next().and_then(|p| p.parse::<i32>().ok());
            rest.ends_with(&suffix)
                && pid.is_some_and(|p| p != std::process::id() as i32 && !alive(p))
        })
        .filter_map(|n| {
            let path = parent.join(n);
            let m = REAL.symlink_metadata(&path).ok().filter(|m| m.is_dir)?;
            Some((m.modified?, path))
        })
        .max();
    if let Some((_, old)) = newest {
        if REAL.rename(&old, target).is_ok() {
            tracing::warn!(
                "{} was being replaced when its writer was killed: its last whole version is back",
                target.display()
            );
        }
    }
}
