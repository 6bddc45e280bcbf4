//! `frekans publish`'s output directory: rewritten only where its bytes change. Each file is
//! compared with the one there; only the new or different ones are written (to a temporary
//! directory inside the output, synced) and renamed over their names once every file has been
//! made, so an unchanged page keeps its inode and modification time (a static host's cache, an
//! rsync to the web server, a browser's `If-Modified-Since` see nothing new). Files the last
//! publish wrote and this one does not (a page that no longer exists) are removed; the list of
//! what publish wrote is kept in the directory ([`MANIFEST`]), so it never removes a file it did
//! not write (a director's notes beside the results).
//!
//! Whole or not at all, as [`super::write_dir`]: a new directory is filled beside and renamed;
//! in an existing one nothing is touched before every file has been made ([`Incremental::commit`]),
//! and an error before that (or a dropped, uncommitted writer) removes the temporary directory.
//! The manifest is written before the renames as the union of the old and new lists, and as
//! the new list after the removals: a crash between them leaves a manifest that still names
//! every file publish wrote, so the next publish removes what it should.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::{parent_of, put_file, resolve, sync_dir, sync_files, temp_dir_for, PREFIX};

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

/// An output directory being published into: [`Incremental::begin`], [`Incremental::put`]
/// every file, [`Incremental::commit`].
pub struct Incremental {
    out: PathBuf,
    target: PathBuf,
    /// The temporary directory holding the files that differ (or, for a new `out`, all).
    stage: PathBuf,
    existing: bool,
    /// What the last publish wrote (its manifest; empty when there is none).
    old: BTreeSet<String>,
    /// Every file of this publication.
    names: BTreeSet<String>,
    /// The files staged: new or different from what `out` holds.
    changed: Vec<String>,
    subdirs: BTreeSet<PathBuf>,
    done: bool,
}

impl Incremental {
    /// Start publishing into `out` (through it, if it is a symlink).
    pub fn begin(out: &Path) -> Result<Incremental> {
        let target = resolve(out)?;
        let (stage, existing) = temp_dir_for(out, &target, "publish")?;
        let old = if existing {
            read_manifest(&target.join(MANIFEST))
        } else {
            BTreeSet::new()
        };
        Ok(Incremental {
            out: out.to_path_buf(),
            target,
            stage,
            existing,
            old,
            names: BTreeSet::new(),
            changed: Vec::new(),
            subdirs: BTreeSet::new(),
            done: false,
        })
    }

    /// File `name` (a relative path under `out`) of the publication: staged when `out` does
    /// not already hold exactly these bytes under that name.
    pub fn put(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        if !safe_name(name) || name == MANIFEST {
            bail!("cannot publish a file named {name:?}");
        }
        if !self.names.insert(name.to_string()) {
            bail!("{name} published twice");
        }
        if self.existing && same_bytes(&self.target.join(name), bytes) {
            return Ok(());
        }
        put_file(&self.stage, &mut self.subdirs, name, bytes)?;
        self.changed.push(name.to_string());
        Ok(())
    }

    /// Put the publication in place: the staged files renamed over their names, the last
    /// publication's files that are not part of this one removed, the manifest rewritten.
    pub fn commit(mut self) -> Result<Published> {
        self.done = true;
        let result = self.commit_inner();
        let _ = fs::remove_dir_all(&self.stage);
        result
    }

    fn commit_inner(&mut self) -> Result<Published> {
        let manifest = |names: &BTreeSet<String>| -> String {
            let mut s = String::from(MANIFEST_HEAD);
            for n in names {
                s.push_str(n);
                s.push('\n');
            }
            s
        };
        for sub in &self.subdirs {
            sync_dir(&self.stage.join(sub));
        }
        let mut published = Published {
            files: self.names.len(),
            rewritten: self.changed.len(),
            removed: 0,
        };
        if !self.existing {
            put_file(
                &self.stage,
                &mut self.subdirs,
                MANIFEST,
                manifest(&self.names).as_bytes(),
            )?;
            let staged = self.changed.iter().map(String::as_str);
            sync_files(&self.stage, staged.chain([MANIFEST]))?;
            sync_dir(&self.stage);
            fs::rename(&self.stage, &self.target)
                .with_context(|| format!("cannot rename into {}", self.out.display()))?;
            sync_dir(&parent_of(&self.target));
            return Ok(published);
        }
        let dir = self.target.clone();
        // Nothing is touched before every rename is known to have a place to go.
        for name in &self.changed {
            let to = dir.join(name);
            if fs::symlink_metadata(&to).is_ok_and(|m| m.is_dir()) {
                bail!(
                    "{} is a directory; move it away (frekans writes a file of that name)",
                    to.display()
                );
            }
            let mut up = Path::new(name).parent();
            while let Some(p) = up.filter(|p| !p.as_os_str().is_empty()) {
                if fs::symlink_metadata(dir.join(p)).is_ok_and(|m| !m.is_dir()) {
                    bail!(
                        "{} is not a directory; move it away (frekans writes files in it)",
                        dir.join(p).display()
                    );
                }
                up = p.parent();
            }
        }
        sync_files(&self.stage, self.changed.iter().map(String::as_str))?;
        let union: BTreeSet<String> = self.old.union(&self.names).cloned().collect();
        self.write_manifest(&manifest(&union))?;
        let mut touched: BTreeSet<PathBuf> = BTreeSet::new();
        for name in &self.changed {
            let to = dir.join(name);
            let parent = parent_of(&to);
            fs::create_dir_all(&parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
            fs::rename(self.stage.join(name), &to)
                .with_context(|| format!("cannot rename into {}", to.display()))?;
            touched.insert(parent);
        }
        for name in self.old.difference(&self.names) {
            let path = dir.join(name);
            match fs::symlink_metadata(&path) {
                Ok(m) if !m.is_dir() => {
                    fs::remove_file(&path)
                        .with_context(|| format!("cannot remove {}", path.display()))?;
                    published.removed += 1;
                }
                _ => continue,
            }
            // Its directories, once empty (`remove_dir` refuses any other).
            let mut up = Path::new(name).parent();
            while let Some(p) = up.filter(|p| !p.as_os_str().is_empty()) {
                if fs::remove_dir(dir.join(p)).is_err() {
                    break;
                }
                up = p.parent();
            }
            touched.insert(parent_of(&path));
        }
        self.write_manifest(&manifest(&self.names))?;
        for d in &touched {
            sync_dir(d);
        }
        sync_dir(&dir);
        tracing::info!(
            files = published.files,
            rewritten = published.rewritten,
            removed = published.removed,
            "published"
        );
        Ok(published)
    }

    /// The manifest written beside and renamed over the old one (unless it holds the same).
    fn write_manifest(&mut self, text: &str) -> Result<()> {
        if same_bytes(&self.target.join(MANIFEST), text.as_bytes()) {
            return Ok(());
        }
        let tmp = self.stage.join(MANIFEST);
        let _ = fs::remove_file(&tmp);
        put_file(&self.stage, &mut self.subdirs, MANIFEST, text.as_bytes())?;
        sync_files(&self.stage, [MANIFEST])?;
        let to = self.target.join(MANIFEST);
        fs::rename(&tmp, &to).with_context(|| format!("cannot rename into {}", to.display()))
    }
}

impl Drop for Incremental {
    fn drop(&mut self) {
        if !self.done {
            let _ = fs::remove_dir_all(&self.stage);
        }
    }
}

/// Does the regular file `path` hold exactly `bytes`? (Its size first: a changed page is
/// rarely read.)
fn same_bytes(path: &Path, bytes: &[u8]) -> bool {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_file() && m.len() == bytes.len() as u64 => {
            fs::read(path).is_ok_and(|b| b == bytes)
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
    let Ok(text) = fs::read_to_string(path) else {
        return BTreeSet::new();
    };
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#') && safe_name(l) && *l != MANIFEST)
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(tag: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("frekans-incremental-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn publish(out: &Path, files: &[(&str, &str)]) -> Result<Published> {
        let mut w = Incremental::begin(out)?;
        for (n, b) in files {
            w.put(n, b.as_bytes())?;
        }
        w.commit()
    }

    #[test]
    fn only_changed_files_are_written_and_only_its_own_removed() {
        let base = dir("changed");
        let out = base.join("out");
        let p = publish(
            &out,
            &[("a.txt", "1"), ("s/b.html", "2"), ("s/c.html", "3")],
        )
        .unwrap();
        assert_eq!((p.files, p.rewritten, p.removed), (3, 3, 0));
        fs::write(out.join("notes.txt"), "mine").unwrap();
        let ino =
            |n: &str| std::os::unix::fs::MetadataExt::ino(&fs::metadata(out.join(n)).unwrap());
        let (a, b) = (ino("a.txt"), ino("s/b.html"));
        let p = publish(
            &out,
            &[("a.txt", "1"), ("s/b.html", "two"), ("s/d/e.html", "5")],
        )
        .unwrap();
        assert_eq!((p.files, p.rewritten, p.removed), (3, 2, 1));
        assert_eq!(ino("a.txt"), a, "an unchanged file is left as it is");
        assert_ne!(ino("s/b.html"), b);
        assert_eq!(fs::read_to_string(out.join("s/b.html")).unwrap(), "two");
        assert!(
            !out.join("s/c.html").exists(),
            "a page no longer published is removed"
        );
        assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
        // The directory of a removed page goes once empty.
        publish(&out, &[("a.txt", "1")]).unwrap();
        assert!(!out.join("s").exists());
        assert!(out.join("notes.txt").exists());
        let left: Vec<_> = fs::read_dir(&out)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left.len(), 3, "{left:?}"); // a.txt, notes.txt, the manifest
        let _ = fs::remove_dir_all(&base);
    }

    #[test]
    fn an_error_before_commit_leaves_the_directory_as_it_was() {
        let base = dir("error");
        let out = base.join("out");
        publish(&out, &[("a.txt", "1")]).unwrap();
        let mut w = Incremental::begin(&out).unwrap();
        w.put("a.txt", b"changed").unwrap();
        assert!(w.put("../x", b"").is_err());
        drop(w);
        assert_eq!(fs::read_to_string(out.join("a.txt")).unwrap(), "1");
        assert_eq!(fs::read_dir(&out).unwrap().count(), 2);
        // A new directory is not made at all.
        let fresh = base.join("fresh");
        let mut w = Incremental::begin(&fresh).unwrap();
        w.put("a.txt", b"1").unwrap();
        drop(w);
        assert!(!fresh.exists());
        assert_eq!(fs::read_dir(&base).unwrap().count(), 1);
        let _ = fs::remove_dir_all(&base);
    }

    #[test]
    fn a_planted_manifest_removes_nothing_outside() {
        let base = dir("planted");
        let out = base.join("out");
        fs::create_dir_all(&out).unwrap();
        fs::write(base.join("victim"), "x").unwrap();
        fs::write(out.join(MANIFEST), "../victim\n/etc/passwd\nkept\n").unwrap();
        fs::write(out.join("kept"), "y").unwrap();
        publish(&out, &[("a.txt", "1")]).unwrap();
        assert!(base.join("victim").exists());
        assert!(!out.join("kept").exists(), "a name it lists is removed");
        let _ = fs::remove_dir_all(&base);
    }
}
