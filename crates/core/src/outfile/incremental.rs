//! `frekans site`'s and `frekans publish`'s output directory, replaced whole and rewritten only
//! where its bytes change.
//!
//! **Whole.** An existing directory is not changed file by file: its next version is built
//! beside it (a temporary directory in its parent, so on the same file system) and the two are
//! swapped in one `renameat2(RENAME_EXCHANGE)` (`swap`). A reader resolving a path under the
//! directory, at any moment, finds the old tree or the new one, never a mix; a run killed at any
//! point leaves one of the two. The old tree is kept, under the temporary's name, until the next
//! run that writes beside it (or, in `frekans live`, the next cycle), so a reader that opened
//! it, an rsync walking it, reads the whole old site to the end; a file a reader holds open
//! keeps its bytes in any case (nothing is ever rewritten in place).
//!
//! **Only what changed.** Each file put is compared with the one the directory holds under
//! that name: the same bytes are hard-linked into the new tree (the same inode, modification
//! time and all: a static host's cache, an rsync to the web server, a browser's
//! `If-Modified-Since`, `frekans live`'s projector see nothing new), and only new or different
//! files are written. Files the directory holds that this run does not write are linked into
//! the new tree too (a director's notes beside the results), but for the files of the last
//! publish's manifest ([`MANIFEST`]: what publish wrote) that it no longer makes, which are
//! left out: publish never removes a file it did not write. `frekans site`
//! ([`Incremental::begin_unlisted`]) keeps no manifest and removes nothing.
//!
//! **Never through a link.** The new tree's directories are made by this run; where the old
//! tree has a symlink (or a file) at a directory the run writes in (`pairs/`), or a directory
//! where it writes a file, the run stops before anything is touched, and says so: frekans
//! neither writes into a link's target nor drops what a user put there.
//!
//! What the swap gives the directory: a new inode. Its mode (setgid and sticky bits included),
//! group, extended attributes (ACLs) are copied from the old one, and its owner when this user
//! may; a shell or a bind mount holding the old directory keeps the old tree. Where a swap is
//! impossible (the directory is a mount point, or `/`, or its parent is not this user's to
//! write), the files are replaced in the directory one by one, as before, with a warning: each
//! file is whole, but a reader may see old and new files together for the moments of the
//! renames. A new directory (nothing there yet) is filled beside and renamed into place.
//!
//! docs/internals.md ("Output directories") has the choice and its measurements.
//!
//! Its files are the real world's (`world::REAL`).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use crate::error::{Context, Result};
use crate::world::{World, REAL};

use super::swap;
use super::{
    create_tmp_dir, parent_of, put_file, resolve, sync_dir, sync_files, temp_dir_for, PREFIX,
};

/// The manifest's name in the output directory: one path a line, the files publish wrote.
pub const MANIFEST: &str = ".frekans-publish";

const MANIFEST_HEAD: &str =
    "# frekans publish: the files it wrote here, one a line (the next publish removes only these)\n";

/// What a publish did to its directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Published {
    /// Files of the publication (the manifest not counted).
    pub files: usize,
    /// Of them, written (new or changed).
    pub rewritten: usize,
    /// Files of the last publication no longer part of this one, removed.
    pub removed: usize,
}

/// How the directory is replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// Nothing there yet: the stage, beside it, is renamed to it.
    New,
    /// An existing directory: the stage, beside it, is its next version, swapped with it.
    Swap,
    /// An existing directory that cannot be swapped: the stage is inside it, and the changed
    /// files are renamed out of it one by one.
    InPlace,
}

/// An output directory being published into: [`Incremental::begin`] (or
/// [`Incremental::begin_unlisted`]), [`Incremental::put`] every file, [`Incremental::commit`].
pub struct Incremental {
    out: PathBuf,
    /// The directory written (`out`, or its symlink's target; canonical when it exists).
    target: PathBuf,
    way: Way,
    /// A manifest is kept (publish, live) and the last one's files no longer made removed.
    listed: bool,
    /// The temporary directory: the next tree (`New`, `Swap`) or the changed files (`InPlace`).
    stage: PathBuf,
    /// After a swap the stage's name holds the old tree, kept for its readers.
    keep_stage: bool,
    /// What the last publish wrote (its manifest; empty when there is none).
    old: BTreeSet<String>,
    /// Every file of this publication.
    names: BTreeSet<String>,
    /// Every directory of this publication (each name's ancestors).
    dirs: HashSet<PathBuf>,
    /// The files written: new or different from what `out` holds.
    changed: Vec<String>,
    subdirs: BTreeSet<PathBuf>,
    /// Whether the old tree has a directory at each directory of a name (looked up once).
    old_dirs: HashMap<PathBuf, bool>,
    done: bool,
}

impl Incremental {
    /// Start publishing into `out` (through it, if it is a symlink), with a manifest
    /// (`frekans publish`, `frekans live`).
    pub fn begin(out: &Path) -> Result<Incremental> {
        Incremental::start(out, true, true)
    }

    /// Start writing `out` without a manifest (`frekans site`): every file of it this run does
    /// not write is kept.
    pub fn begin_unlisted(out: &Path) -> Result<Incremental> {
        Incremental::start(out, false, true)
    }

    /// Start writing `out`; `may_swap` false replaces an existing directory's files in place, as
    /// where no swap can be made (for the tests of that way).
    fn start(out: &Path, listed: bool, may_swap: bool) -> Result<Incremental> {
        let mut target = resolve(out)?;
        if REAL.symlink_metadata(&target).is_err() {
            swap::recover(&target);
        }
        let tag = if listed { "publish" } else { "site" };
        let (way, stage) = match REAL.symlink_metadata(&target) {
            Ok(m) if m.is_dir => {
                target = REAL
                    .canonicalize(&target)
                    .with_context(|| format!("cannot resolve {}", out.display()))?;
                let beside = if may_swap {
                    swap::stage_beside(&target)
                } else {
                    Err(swap::NoSwap::Asked)
                };
                match beside {
                    Ok(stage) => (Way::Swap, stage),
                    Err(why) => {
                        tracing::warn!(
                            "{} cannot be replaced whole ({why}): its files are replaced one by one, so a reader may see old and new files together for a moment",
                            out.display()
                        );
                        (Way::InPlace, create_tmp_dir(&target, tag)?)
                    }
                }
            }
            _ => {
                let (stage, existing) = temp_dir_for(&REAL, out, &target, tag)?;
                (if existing { Way::InPlace } else { Way::New }, stage)
            }
        };
        let old = if listed && way != Way::New {
            read_manifest(&target.join(MANIFEST))
        } else {
            BTreeSet::new()
        };
        Ok(Incremental {
            out: out.to_path_buf(),
            target,
            way,
            listed,
            stage,
            keep_stage: false,
            old,
            names: BTreeSet::new(),
            dirs: HashSet::new(),
            changed: Vec::new(),
            subdirs: BTreeSet::new(),
            old_dirs: HashMap::new(),
            done: false,
        })
    }

    /// File `name` (a relative path under `out`) of the publication: linked from `out` when it
    /// holds exactly these bytes under that name, else written.
    pub fn put(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        if !safe_name(name) || name == MANIFEST {
            return Err(crate::error::Failed::said(format!(
                "cannot publish a file named {name:?}"
            )));
        }
        if !self.names.insert(name.to_string()) {
            return Err(crate::error::Failed::said(format!(
                "{name} published twice"
            )));
        }
        let mut up = Path::new(name).parent();
        while let Some(p) = up.filter(|p| !p.as_os_str().is_empty()) {
            if !self.dirs.insert(p.to_path_buf()) {
                break;
            }
            up = p.parent();
        }
        if self.way != Way::New && self.holds(name, bytes)? {
            if self.way == Way::InPlace {
                return Ok(());
            }
            let to = self.stage.join(name);
            if let Some(sub) = Path::new(name)
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
            {
                if self.subdirs.insert(sub.to_path_buf()) {
                    REAL.create_dir_all(&self.stage.join(sub))
                        .with_context(|| {
                            format!("cannot create {}", self.stage.join(sub).display())
                        })?;
                }
            }
            // A file this user may not link (another's, with protected hard links) is written.
            if REAL.hard_link(&self.target.join(name), &to).is_ok() {
                return Ok(());
            }
        }
        put_file(&REAL, &self.stage, &mut self.subdirs, name, bytes)?;
        self.changed.push(name.to_string());
        Ok(())
    }

    /// Does the old tree hold exactly `bytes` at `name`, reached through directories only? A
    /// directory at `name`, or anything but a directory at one of its directories (a symlink
    /// included), stops the run: frekans writes neither over a directory nor through a link.
    fn holds(&mut self, name: &str, bytes: &[u8]) -> Result<bool> {
        let mut ups: Vec<&Path> = Path::new(name)
            .ancestors()
            .skip(1)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        ups.reverse();
        for up in ups {
            let present = match self.old_dirs.get(up) {
                Some(&p) => p,
                None => {
                    let path = self.target.join(up);
                    let p = match REAL.symlink_metadata(&path) {
                        Ok(m) if m.is_dir => true,
                        Ok(_) => {
                            return Err(crate::error::Failed::said(
                                not_a_directory(&path).to_string(),
                            ))
                        }
                        Err(_) => false,
                    };
                    self.old_dirs.insert(up.to_path_buf(), p);
                    p
                }
            };
            if !present {
                return Ok(false);
            }
        }
        let path = self.target.join(name);
        Ok(match REAL.symlink_metadata(&path) {
            Ok(m) if m.is_dir => {
                return Err(crate::error::Failed::said(a_directory(&path).to_string()))
            }
            Ok(m) if m.is_file && m.len == bytes.len() as u64 => {
                REAL.read(&path).is_ok_and(|b| b == bytes)
            }
            _ => false,
        })
    }

    /// Put the publication in place: the new tree swapped with the old (or renamed to a new
    /// directory, or, where no swap can be made, the changed files renamed over their names),
    /// the last publication's files that are not part of this one left out, the manifest
    /// rewritten.
    pub fn commit(mut self) -> Result<Published> {
        self.done = true;
        let result = match self.way {
            Way::New => self.commit_new(),
            Way::Swap => self.commit_swap(),
            Way::InPlace => self.commit_in_place(),
        };
        if !self.keep_stage {
            let _ = REAL.remove_dir_all(&self.stage);
        }
        if let Ok(p) = &result {
            tracing::info!(
                files = p.files,
                rewritten = p.rewritten,
                removed = p.removed,
                "published"
            );
        }
        result
    }

    fn published(&self) -> Published {
        Published {
            files: self.names.len(),
            rewritten: self.changed.len(),
            removed: 0,
        }
    }

    fn manifest(names: &BTreeSet<String>) -> String {
        let mut s = String::from(MANIFEST_HEAD);
        for n in names {
            s.push_str(n);
            s.push('\n');
        }
        s
    }

    /// Sync the stage (every file written and directory made in it) before it is put in place.
    fn sync_stage(&self) -> Result<()> {
        let listed = self.listed.then_some(MANIFEST);
        sync_files(
            &REAL,
            &self.stage,
            self.changed.iter().map(String::as_str).chain(listed),
        )?;
        for sub in &self.subdirs {
            sync_dir(&self.stage.join(sub));
        }
        sync_dir(&self.stage);
        Ok(())
    }

    /// The list of the published files (`text`) written into the new tree.
    fn put_manifest(&mut self, text: &str) -> Result<()> {
        put_file(
            &REAL,
            &self.stage,
            &mut self.subdirs,
            MANIFEST,
            text.as_bytes(),
        )
    }

    fn commit_new(&mut self) -> Result<Published> {
        if self.listed {
            let text = Incremental::manifest(&self.names);
            self.put_manifest(&text)?;
        }
        self.sync_stage()?;
        REAL.rename(&self.stage, &self.target)
            .with_context(|| format!("cannot rename into {}", self.out.display()))?;
        sync_dir(&parent_of(&self.target));
        Ok(self.published())
    }

    fn commit_swap(&mut self) -> Result<Published> {
        let mut published = self.published();
        if self.listed {
            // Linked when it lists the same files, as any unchanged file.
            let text = Incremental::manifest(&self.names);
            let (old, new) = (self.target.join(MANIFEST), self.stage.join(MANIFEST));
            if !(same_bytes(&old, text.as_bytes()) && REAL.hard_link(&old, &new).is_ok()) {
                self.put_manifest(&text)?;
            }
        }
        let (seen, removed) = self.carry()?;
        published.removed = removed;
        self.sync_stage()?;
        let retired = swap::exchange(&self.target, &self.stage)?;
        // From here on the stage's name may hold the old tree: it is kept for its readers, and
        // nothing can fail the run (the new tree is in place).
        self.keep_stage = true;
        sync_dir(&parent_of(&self.target));
        swap::late_arrivals(&retired, &self.target, &seen);
        swap::retire(&self.target, retired);
        Ok(published)
    }

    /// Link into the new tree what the old one holds that this run does not write (but for the
    /// last publication's files no longer made), give the new tree's directories the old
    /// ones' mode and owners, and refuse a symlink or file where the new tree has a directory,
    /// or a directory where it has a file. Returns every path of the old tree seen, and how
    /// many files were left out.
    fn carry(&mut self) -> Result<(HashSet<PathBuf>, usize)> {
        let mut seen = HashSet::new();
        let mut removed = 0;
        let mut old_dirs = Vec::new();
        let mut stack = vec![PathBuf::new()];
        while let Some(rel) = stack.pop() {
            let dir = self.target.join(&rel);
            let entries = REAL
                .entries(&dir)
                .with_context(|| format!("cannot read {}", dir.display()))?;
            let empty = entries.is_empty();
            for (name, is_dir) in entries {
                if swap::is_tmp(&name) {
                    continue;
                }
                let path = dir.join(&name);
                let r = rel.join(&name);
                seen.insert(r.clone());
                let key = r.to_str();
                if is_dir {
                    if key.is_some_and(|k| self.names.contains(k)) {
                        return Err(crate::error::Failed::said(a_directory(&path).to_string()));
                    }
                    stack.push(r);
                    continue;
                }
                if self.dirs.contains(&r) {
                    return Err(crate::error::Failed::said(
                        not_a_directory(&path).to_string(),
                    ));
                }
                if key.is_some_and(|k| self.names.contains(k)) {
                    continue;
                }
                if self.listed && key.is_some_and(|k| k == MANIFEST || self.old.contains(k)) {
                    removed += usize::from(key != Some(MANIFEST));
                    continue;
                }
                swap::link_or_copy(&path, &self.stage.join(&r))?;
            }
            // A user's empty directory is kept; one emptied of the files left out goes.
            if empty {
                REAL.create_dir_all(&self.stage.join(&rel))
                    .with_context(|| {
                        format!("cannot create {}", self.stage.join(&rel).display())
                    })?;
            }
            old_dirs.push(rel);
        }
        for rel in old_dirs {
            let to = self.stage.join(&rel);
            if REAL.symlink_metadata(&to).is_ok_and(|m| m.is_dir) {
                swap::copy_dir_attrs(&self.target.join(&rel), &to);
            }
        }
        Ok((seen, removed))
    }

    /// Where no swap can be made: the changed files renamed over their names in the directory.
    /// The manifest is written before the renames as the union of the old and new lists, and as
    /// the new list after the removals: a crash between them leaves a manifest that still names
    /// every file publish wrote, so the next publish removes what it should.
    fn commit_in_place(&mut self) -> Result<Published> {
        for sub in &self.subdirs {
            sync_dir(&self.stage.join(sub));
        }
        let mut published = self.published();
        let dir = self.target.clone();
        // Nothing is touched before every rename is known to have a place to go.
        for name in &self.changed {
            let to = dir.join(name);
            if REAL.symlink_metadata(&to).is_ok_and(|m| m.is_dir) {
                return Err(crate::error::Failed::said(a_directory(&to).to_string()));
            }
            let mut up = Path::new(name).parent();
            while let Some(p) = up.filter(|p| !p.as_os_str().is_empty()) {
                if REAL.symlink_metadata(&dir.join(p)).is_ok_and(|m| !m.is_dir) {
                    return Err(crate::error::Failed::said(
                        not_a_directory(&dir.join(p)).to_string(),
                    ));
                }
                up = p.parent();
            }
        }
        sync_files(&REAL, &self.stage, self.changed.iter().map(String::as_str))?;
        if self.listed {
            let union: BTreeSet<String> = self.old.union(&self.names).cloned().collect();
            self.write_manifest(&Incremental::manifest(&union))?;
        }
        let mut touched: BTreeSet<PathBuf> = BTreeSet::new();
        for name in &self.changed {
            let to = dir.join(name);
            let parent = parent_of(&to);
            REAL.create_dir_all(&parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
            REAL.rename(&self.stage.join(name), &to)
                .with_context(|| format!("cannot rename into {}", to.display()))?;
            touched.insert(parent);
        }
        for name in self.old.difference(&self.names) {
            let path = dir.join(name);
            match REAL.symlink_metadata(&path) {
                Ok(m) if !m.is_dir => {
                    REAL.remove_file(&path)
                        .with_context(|| format!("cannot remove {}", path.display()))?;
                    published.removed += 1;
                }
                _ => continue,
            }
            // Its directories, once empty (`remove_dir` refuses any other).
            let mut up = Path::new(name).parent();
            while let Some(p) = up.filter(|p| !p.as_os_str().is_empty()) {
                if REAL.remove_dir(&dir.join(p)).is_err() {
                    break;
                }
                up = p.parent();
            }
            touched.insert(parent_of(&path));
        }
        if self.listed {
            self.write_manifest(&Incremental::manifest(&self.names))?;
        }
        for d in &touched {
            sync_dir(d);
        }
        sync_dir(&dir);
        Ok(published)
    }

    /// The manifest written beside and renamed over the old one (unless it holds the same).
    fn write_manifest(&mut self, text: &str) -> Result<()> {
        if same_bytes(&self.target.join(MANIFEST), text.as_bytes()) {
            return Ok(());
        }
        let tmp = self.stage.join(MANIFEST);
        let _ = REAL.remove_file(&tmp);
        self.put_manifest(text)?;
        sync_files(&REAL, &self.stage, [MANIFEST])?;
        let to = self.target.join(MANIFEST);
        REAL.rename(&tmp, &to)
            .with_context(|| format!("cannot rename into {}", to.display()))
    }
}

/// The refusal of a directory where a file is written.
fn a_directory(path: &Path) -> String {
    format!(
        "{} is a directory; move it away (frekans writes a file of that name)",
        path.display()
    )
}

/// The refusal of a file or symlink where a directory of the output is.
fn not_a_directory(path: &Path) -> String {
    format!(
        "{} is not a directory; move it away (frekans writes files in it, and never through a link)",
        path.display()
    )
}

impl Drop for Incremental {
    fn drop(&mut self) {
        if !self.done {
            let _ = REAL.remove_dir_all(&self.stage);
        }
    }
}

/// Does the regular file `path` hold exactly `bytes`? (Its size first: a changed page is
/// rarely read.)
fn same_bytes(path: &Path, bytes: &[u8]) -> bool {
    match REAL.symlink_metadata(path) {
        Ok(m) if m.is_file && m.len == bytes.len() as u64 => {
            REAL.read(path).is_ok_and(|b| b == bytes)
        }
        _ => false,
    }
}

/// A relative path of plain names, none of them a temporary's, on one line.
fn safe_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains(['\n', '\r', '\\'])
        && Path::new(name).components().all(|c| match c {
            Component::Normal(n) => !n.to_string_lossy().starts_with(PREFIX),
            _ => false,
        })
}

/// The files the manifest at `path` names (none when there is none, or for a line that is
/// not a plain relative path: a planted manifest never names a file outside the directory).
fn read_manifest(path: &Path) -> BTreeSet<String> {
    let Ok(text) = REAL
        .read(path)
        .map_err(drop)
        .and_then(|b| String::from_utf8(b).map_err(drop))
    else {
        return BTreeSet::new();
    };
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#') && safe_name(l) && *l != MANIFEST)
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests;
