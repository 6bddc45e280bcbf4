// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]
use super::*;
use std::fs;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};

fn dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("frekans-incremental-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    fs::canonicalize(d).unwrap()
}

fn write(out: &Path, listed: bool, swap: bool, files: &[(&str, &str)]) -> Result<Published> {
    let mut w = Incremental::start(out, listed, swap)?;
    for (n, b) in files {
        w.put(n, b.as_bytes())?;
    }
    w.commit()
}

fn publish(out: &Path, files: &[(&str, &str)]) -> Result<Published> {
    write(out, true, true, files)
}

fn ino(p: &Path) -> u64 {
    fs::symlink_metadata(p).unwrap().ino()
}

/// Every file under `dir` (temporaries and the manifest too) with its bytes.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                let bytes = fs::read(e.path()).unwrap_or_default();
                out.push((e.path().strip_prefix(dir).unwrap().to_path_buf(), bytes));
            }
        }
    }
    out.sort();
    out
}

/// Swapped or replaced in place, the same outcome: only what changed is written, only the
/// publication's own files are removed.
#[test]
fn only_changed_files_are_written_and_only_its_own_removed() {
    for swap in [true, false] {
        let base = dir(if swap { "changed" } else { "changed-in-place" });
        let out = base.join("out");
        let publish = |files: &[(&str, &str)]| write(&out, true, swap, files).unwrap();
        let p = publish(&[("a.txt", "1"), ("s/b.html", "2"), ("s/c.html", "3")]);
        assert_eq!((p.files, p.rewritten, p.removed), (3, 3, 0));
        fs::write(out.join("notes.txt"), "mine").unwrap();
        let (a, b, notes) = (
            ino(&out.join("a.txt")),
            ino(&out.join("s/b.html")),
            ino(&out.join("notes.txt")),
        );
        let p = publish(&[("a.txt", "1"), ("s/b.html", "two"), ("s/d/e.html", "5")]);
        assert_eq!((p.files, p.rewritten, p.removed), (3, 2, 1));
        assert_eq!(
            ino(&out.join("a.txt")),
            a,
            "an unchanged file is left as it is"
        );
        assert_eq!(ino(&out.join("notes.txt")), notes, "a user's file too");
        assert_ne!(ino(&out.join("s/b.html")), b);
        assert_eq!(fs::read_to_string(out.join("s/b.html")).unwrap(), "two");
        assert!(
            !out.join("s/c.html").exists(),
            "a page no longer published is removed"
        );
        assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
        // The directory of a removed page goes once empty.
        publish(&[("a.txt", "1")]);
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

/// The swap: the directory holds the old tree until the one rename, then the new; a reader
/// that has the old directory open (an rsync under way) still reads the whole old tree after
/// it, until the next run.
#[test]
fn a_reader_of_the_old_tree_reads_it_whole() {
    let base = dir("reader");
    let out = base.join("out");
    let old: Vec<(String, String)> = (0..50)
        .map(|k| (format!("p/{k}.html"), format!("old {k}")))
        .collect();
    let as_refs = |v: &[(String, String)]| -> Vec<(String, String)> { v.to_vec() };
    let files = |v: &[(String, String)]| {
        let mut w = Incremental::begin_unlisted(&out).unwrap();
        for (n, b) in v {
            w.put(n, b.as_bytes()).unwrap();
        }
        w
    };
    files(&as_refs(&old)).commit().unwrap();
    let before = tree(&out);
    let reader = fs::File::open(&out).unwrap();
    let held = fs::File::open(out.join("p/7.html")).unwrap();
    let new: Vec<(String, String)> = (0..60)
        .map(|k| (format!("p/{k}.html"), format!("new {k}")))
        .collect();
    let w = files(&new);
    // Everything is made, nothing is yet in place.
    assert_eq!(tree(&out), before);
    w.commit().unwrap();
    assert_eq!(fs::read_to_string(out.join("p/7.html")).unwrap(), "new 7");
    assert_eq!(tree(&out).len(), 60);
    // The reader's directory is the old tree, whole.
    let fd = std::os::fd::AsRawFd::as_raw_fd(&reader);
    let through = PathBuf::from(format!("/proc/self/fd/{fd}"));
    assert_eq!(tree(&through), before);
    assert_eq!(std::io::read_to_string(held).unwrap(), "old 7");
    let _ = fs::remove_dir_all(&base);
}

/// A symlink (or a file) planted where the output has a directory of its own is never
/// written through: the run stops, the directory and the link's target are as they were.
#[test]
fn a_symlinked_subdirectory_is_refused() {
    for (listed, swap) in [(false, true), (true, true), (true, false), (false, false)] {
        let base = dir("symlinked");
        let out = base.join("out");
        write(
            &out,
            listed,
            swap,
            &[("pairs/A1.html", "1"), ("index.html", "i")],
        )
        .unwrap();
        let victim = base.join("victim");
        fs::create_dir(&victim).unwrap();
        fs::write(victim.join("A1.html"), "precious").unwrap();
        fs::remove_dir_all(out.join("pairs")).unwrap();
        symlink(&victim, out.join("pairs")).unwrap();
        let before = tree(&out);
        let e = write(
            &out,
            listed,
            swap,
            &[("pairs/A1.html", "2"), ("index.html", "j")],
        )
        .unwrap_err();
        assert!(format!("{e:#}").contains("is not a directory"), "{e:#}");
        assert_eq!(
            fs::read_to_string(victim.join("A1.html")).unwrap(),
            "precious"
        );
        assert_eq!(tree(&out), before);
        assert!(fs::symlink_metadata(out.join("pairs"))
            .unwrap()
            .is_symlink());
        // Nor is a directory written over by a file.
        fs::remove_file(out.join("pairs")).unwrap();
        fs::remove_file(out.join("index.html")).unwrap();
        fs::create_dir_all(out.join("index.html/x")).unwrap();
        let e = write(&out, listed, swap, &[("index.html", "j")]).unwrap_err();
        assert!(format!("{e:#}").contains("is a directory"), "{e:#}");
        assert!(out.join("index.html/x").is_dir());
        let _ = fs::remove_dir_all(&base);
    }
}

/// The swapped-in directory has the old one's mode (setgid, sticky bits) and keeps a
/// user's empty directory and symlinks; the manifest's files no longer made go.
#[test]
fn the_new_directory_keeps_the_old_ones_mode_and_a_users_files() {
    let base = dir("mode");
    for mode in [0o2775, 0o1777, 0o700] {
        let out = base.join(format!("out{mode:o}"));
        publish(&out, &[("a.html", "1"), ("s/b.html", "2")]).unwrap();
        fs::set_permissions(&out, fs::Permissions::from_mode(mode)).unwrap();
        fs::set_permissions(out.join("s"), fs::Permissions::from_mode(0o750)).unwrap();
        fs::create_dir(out.join("empty")).unwrap();
        symlink("a.html", out.join("link")).unwrap();
        fs::write(out.join("s/mine.txt"), "mine").unwrap();
        publish(&out, &[("a.html", "1"), ("s/c.html", "3")]).unwrap();
        let m = |p: &str| fs::symlink_metadata(out.join(p)).unwrap().mode() & 0o7777;
        assert_eq!(m(""), mode);
        assert_eq!(m("s"), 0o750);
        assert!(out.join("empty").is_dir());
        assert_eq!(
            fs::read_link(out.join("link")).unwrap(),
            Path::new("a.html")
        );
        assert_eq!(fs::read_to_string(out.join("s/mine.txt")).unwrap(), "mine");
        assert!(!out.join("s/b.html").exists());
    }
    let _ = fs::remove_dir_all(&base);
}

/// Only one old tree is kept by a process replacing the same directory again and again
/// (`frekans live`), and a finished run's is removed by the next run.
#[test]
fn one_old_tree_is_kept() {
    let base = dir("retired");
    let out = base.join("out");
    for k in 0..5 {
        publish(&out, &[("a.html", &k.to_string())]).unwrap();
    }
    let beside: Vec<_> = fs::read_dir(&base)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        beside.len(),
        2,
        "the directory and one old tree: {beside:?}"
    );
    let _ = fs::remove_dir_all(&base);
}

/// Without the exchange (another system), two renames; a run killed between them leaves
/// the old tree beside, which the next run puts back before it writes.
#[test]
fn a_run_killed_between_two_renames_is_undone() {
    let base = dir("two-renames");
    let out = base.join("out");
    publish(&out, &[("a.html", "old")]).unwrap();
    let stage = base.join("stage");
    fs::create_dir(&stage).unwrap();
    fs::write(stage.join("a.html"), "new").unwrap();
    let old = swap::exchange_with(&out, &stage, false).unwrap();
    assert_eq!(fs::read_to_string(out.join("a.html")).unwrap(), "new");
    assert_eq!(fs::read_to_string(old.join("a.html")).unwrap(), "old");
    // Killed between the two: the old tree aside (a dead process's), nothing at `out`.
    fs::remove_dir_all(&out).unwrap();
    let dead = {
        let mut c = std::process::Command::new("true").spawn().unwrap();
        let pid = c.id();
        c.wait().unwrap();
        pid
    };
    let aside = base.join(format!("{PREFIX}{dead}.1-0.out.old"));
    fs::rename(&old, &aside).unwrap();
    let w = Incremental::begin(&out).unwrap();
    assert_eq!(fs::read_to_string(out.join("a.html")).unwrap(), "old");
    drop(w);
    assert!(!aside.exists());
    let _ = fs::remove_dir_all(&base);
}

/// What a user saved into the directory while the new tree was being made is moved into
/// it after the swap (unless the new tree has that name).
#[test]
fn a_file_saved_during_the_swap_is_kept() {
    let base = dir("late");
    let (retired, target) = (base.join("retired"), base.join("target"));
    for d in [&retired, &target] {
        fs::create_dir_all(d.join("s")).unwrap();
    }
    fs::write(retired.join("s/seen.html"), "old").unwrap();
    fs::write(retired.join("s/late.txt"), "late").unwrap();
    fs::write(retired.join("taken"), "late").unwrap();
    fs::write(target.join("taken"), "new").unwrap();
    let seen: HashSet<PathBuf> = ["s", "s/seen.html"].iter().map(PathBuf::from).collect();
    swap::late_arrivals(&retired, &target, &seen);
    assert_eq!(
        fs::read_to_string(target.join("s/late.txt")).unwrap(),
        "late"
    );
    assert_eq!(fs::read_to_string(target.join("taken")).unwrap(), "new");
    assert!(!target.join("s/seen.html").exists());
    let _ = fs::remove_dir_all(&base);
}
