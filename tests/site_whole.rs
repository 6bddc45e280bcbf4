//! `frekans site` and `frekans publish` replace their directory whole (issue 34, item 2).
//!
//! - Killed (SIGKILL) at many points while they write a big site over another, the directory
//!   is exactly the old site or exactly the new one (every file, hidden ones included, and
//!   every byte), and a rerun completes and leaves no killed run's temporaries beside it. The
//!   points are not timed: strace's fault injection (`-e inject=SYSCALL:signal=KILL:when=N`)
//!   kills the run on entering the N-th call of one system call (file creation, link, write,
//!   directory read, sync, rename, removal), for N spread over the calls a whole run makes
//!   (counted first with `strace -c`), so every phase is hit, the swap and what follows it
//!   included. strace is needed: without it the tests fail, never skip.
//! - A symlink planted at a subdirectory of an existing output (`pairs/`, `boards/`,
//!   `sessions/`) is never written through: the run is refused, the directory and the link's
//!   target are as they were.
//! - A participant id too long for a file name still gets its page, under a shortened name
//!   every link of the site leads to.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::scratch::{run_in, show, tmp};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Run frekans in `dir` and insist on success.
fn ok(dir: &Path, args: &[&str]) {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", show(&o));
}

/// Every entry under `dir`, hidden ones included, by its path relative to `dir`: a file's
/// bytes, a symlink's target, a directory as `/`.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            let t = e.file_type().unwrap();
            let what = if t.is_dir() {
                stack.push(e.path());
                b"/".to_vec()
            } else if t.is_symlink() {
                let to = std::fs::read_link(e.path()).unwrap();
                format!("-> {}", to.display()).into_bytes()
            } else {
                std::fs::read(e.path()).unwrap()
            };
            out.insert(rel, what);
        }
    }
    out
}

/// frekans's temporaries in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".frekans-tmp."))
        .collect()
}

/// frekans `args` in `dir` under strace (its own cache directory, as `run_in`), with `strace`'s
/// arguments before.
fn traced(dir: &Path, strace: &[&str], args: &[&str]) -> Output {
    Command::new("strace")
        .args(["-f", "-qq"])
        .args(strace)
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .current_dir(dir)
        .env_remove("FREKANS_LOG")
        .env("FREKANS_AUDIT_CACHE", dir.join(".cache-audit"))
        .output()
        .expect("strace (Debian's strace package)")
}

/// The system calls a run is killed at: creating, writing, linking, reading directories,
/// syncing, renaming, removing.
const CALLS: [&str; 12] = [
    "openat",
    "write",
    "mkdir",
    "linkat",
    "getdents64",
    "fsync",
    "syncfs",
    "fchmodat",
    "rename",
    "renameat",
    "renameat2",
    "unlinkat",
];

/// How many times a whole run of `args` makes each of [`CALLS`] (all threads together).
fn counts(dir: &Path, args: &[&str]) -> BTreeMap<String, u64> {
    let file = dir.join("strace-counts.txt");
    let o = traced(
        dir,
        &[
            "-c",
            "-o",
            s(&file),
            "-e",
            &format!("trace={}", CALLS.join(",")),
        ],
        args,
    );
    assert!(o.status.success(), "{}", show(&o));
    let text = std::fs::read_to_string(&file).unwrap();
    let mut n = BTreeMap::new();
    for line in text.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if let Some(call) = cols.last().filter(|c| CALLS.contains(c)) {
            // % time, seconds, usecs/call, calls, [errors,] syscall
            n.insert(call.to_string(), cols[3].parse().unwrap());
        }
    }
    n
}

/// Where to kill a run: every call of [`CALLS`] at its first, last and two evenly spaced
/// invocations between.
fn points(counts: &BTreeMap<String, u64>) -> Vec<(String, u64)> {
    let mut v = Vec::new();
    for (call, &n) in counts {
        let mut at: Vec<u64> = [1, n / 3, 2 * n / 3, n]
            .into_iter()
            .filter(|&k| k >= 1)
            .collect();
        at.dedup();
        v.extend(at.into_iter().map(|k| (call.clone(), k)));
    }
    v
}

/// `cmd` (`site` or `publish`) killed at many points while it writes one of two
/// championships' output over the other's; after each kill the directory is what it was or
/// what the run makes of it, whole, and a rerun completes. What the run makes of it: `publish`
/// its output exactly (the other's files were its own, listed in its manifest, and go);
/// `site` its output over what was there (it removes nothing).
fn killed_anywhere(cmd: &str, logs: [&str; 2]) {
    let t = tmp(&format!("whole-{cmd}"));
    let d = t.path();
    let refs: Vec<BTreeMap<String, Vec<u8>>> = logs
        .iter()
        .enumerate()
        .map(|(k, log)| {
            let name = format!("ref{k}");
            ok(d, &[cmd, "-q", "--no-cache", log, "--out", &name]);
            tree(&d.join(name))
        })
        .collect();
    let only = |a: usize| {
        refs[a]
            .keys()
            .filter(|k| !refs[1 - a].contains_key(*k))
            .count()
    };
    let same = refs[0]
        .iter()
        .filter(|(k, v)| refs[1].get(*k) == Some(v))
        .count();
    assert!(
        refs[0].len() > 500 && only(0) > 0 && only(1) > 0 && same * 10 < refs[0].len(),
        "two big outputs, mostly different, each with files the other has not: {} and {} files, {} the same",
        refs[0].len(),
        refs[1].len(),
        same
    );
    let made = |before: &BTreeMap<String, Vec<u8>>, k: usize| -> BTreeMap<String, Vec<u8>> {
        if cmd == "publish" {
            return refs[k].clone();
        }
        let mut m = before.clone();
        m.extend(refs[k].iter().map(|(n, b)| (n.clone(), b.clone())));
        m
    };
    let out = d.join("out");
    ok(d, &[cmd, "-q", "--no-cache", logs[0], "--out", "out"]);
    assert!(tree(&out) == refs[0]);
    // A whole run over the other's output, counted.
    let n = counts(d, &[cmd, "-q", "--no-cache", logs[1], "--out", "out"]);
    assert!(tree(&out) == made(&refs[0], 1));
    let mut now = 1;
    let (mut kills, mut left) = (0, [0, 0]);
    for (call, when) in points(&n) {
        let next = 1 - now;
        let args = [cmd, "-q", "--no-cache", logs[next], "--out", "out"];
        let before = tree(&out);
        let after_run = made(&before, next);
        let o = traced(
            d,
            &[
                "-o",
                "/dev/null",
                "-e",
                &format!("trace={call}"),
                "-e",
                &format!("inject={call}:signal=KILL:when={when}"),
            ],
            &args,
        );
        let was_killed = o.status.signal() == Some(9) || o.status.code() == Some(137);
        let after = tree(&out);
        let new = if after == before {
            false
        } else if after == after_run {
            true
        } else {
            let like = |r: &BTreeMap<String, Vec<u8>>| {
                after.iter().filter(|(k, v)| r.get(*k) == Some(v)).count()
            };
            panic!(
                "killed at {call} call {when}: {} holds a mix: {} files, {} of them as they were, {} as the run makes them (before {} files, after {}); {}",
                out.display(),
                after.len(),
                like(&before),
                like(&after_run),
                before.len(),
                after_run.len(),
                show(&o)
            );
        };
        if was_killed {
            kills += 1;
            left[usize::from(new)] += 1;
        } else if o.status.success() {
            assert!(new, "{call} {when}: a finished run");
        }
        // (Else a child killed: typst, which `publish` runs and strace follows; nothing written.)
        // A rerun completes, and leaves at most its own old tree beside.
        ok(d, &args);
        assert!(tree(&out) == after_run, "{call} {when}: the rerun");
        let tmps = temporaries(d);
        assert!(tmps.len() <= 1, "{call} {when}: {tmps:?}");
        now = next;
    }
    eprintln!(
        "{cmd}: {} points, {kills} runs killed: {} left the directory as it was, {} as the run makes it",
        points(&n).len(),
        left[0],
        left[1]
    );
    assert!(
        kills >= 15 && left[0] > 0 && left[1] > 0,
        "{kills} runs killed: {} left the directory as it was, {} as the run makes it",
        left[0],
        left[1]
    );
}

fn synth(dir: &Path, out: &str, args: &[&str]) {
    let mut all = vec!["synth", "-q", "--out", out];
    all.extend_from_slice(args);
    ok(dir, &all);
}

/// Two championships in a directory of their own, of `8·tables` pairs each (a scorecard
/// each): in four sections and in five of 4/5 the tables, so each has pages the other has not.
fn big_logs(dir: &Path, tables: usize) -> [String; 2] {
    let mut logs = [String::new(), String::new()];
    for (k, (sections, tables)) in [(4, tables), (5, tables * 4 / 5)].into_iter().enumerate() {
        let name = dir.join(format!("big{k}.jsonl"));
        let (sections, tables, seed) = (sections.to_string(), tables.to_string(), k + 1);
        let seed = seed.to_string();
        synth(
            dir,
            s(&name),
            &[
                "--boards",
                "2",
                "--compare",
                "field",
                "--sections",
                &sections,
                "--tables",
                &tables,
                "--seed",
                &seed,
            ],
        );
        logs[k] = s(&name).to_string();
    }
    logs
}

#[test]
fn a_killed_site_leaves_the_old_site_or_the_new() {
    let t = tmp("whole-site-logs");
    let [a, b] = big_logs(t.path(), 150);
    killed_anywhere("site", [&a, &b]);
}

#[test]
fn a_killed_publish_leaves_the_old_directory_or_the_new() {
    let t = tmp("whole-publish-logs");
    let [a, b] = big_logs(t.path(), 75);
    killed_anywhere("publish", [&a, &b]);
}

/// A small championship and another weighting of its ruling (every page of the board
/// differs).
fn small_logs(dir: &Path) -> [PathBuf; 2] {
    let text =
        std::fs::read_to_string(common::root().join("tests/data/audit-small.jsonl")).unwrap();
    let other = text.replace("(60%+620&40%+420)", "(30%+620&70%+420)");
    assert_ne!(text, other);
    let logs = [dir.join("a.jsonl"), dir.join("b.jsonl")];
    std::fs::write(&logs[0], text).unwrap();
    std::fs::write(&logs[1], other).unwrap();
    logs
}

/// A symlink planted at a subdirectory of an existing output (another user's, in a shared
/// directory; or a mistake) is never written through, by `site` or `publish`: the run stops
/// with a message, before anything is touched.
#[test]
fn a_symlinked_subdirectory_is_never_written_through() {
    let t = tmp("whole-symlink");
    let d = t.path();
    let [a, b] = small_logs(d);
    for (cmd, base) in [("site", ""), ("publish", "site/")] {
        for sub in ["pairs", "boards", "sessions"] {
            let out = d.join(format!("{cmd}-{sub}"));
            ok(d, &[cmd, "-q", s(&a), "--out", s(&out)]);
            let victim = d.join(format!("victim-{cmd}-{sub}"));
            std::fs::create_dir(&victim).unwrap();
            let linked = out.join(format!("{base}{sub}"));
            for e in std::fs::read_dir(&linked).unwrap() {
                let e = e.unwrap();
                std::fs::write(victim.join(e.file_name()), b"precious").unwrap();
            }
            std::fs::remove_dir_all(&linked).unwrap();
            std::os::unix::fs::symlink(&victim, &linked).unwrap();
            let (before, kept) = (tree(&out), tree(&victim));
            assert!(!kept.is_empty());
            let o = run_in(d, &[cmd, "-q", s(&b), "--out", s(&out)]);
            assert!(!o.status.success(), "{cmd} {sub}: {}", show(&o));
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.contains("is not a directory") && err.contains(sub),
                "{cmd} {sub}: {}",
                show(&o)
            );
            assert!(
                tree(&victim) == kept,
                "{cmd} {sub}: the link's target was written"
            );
            assert!(tree(&out) == before, "{cmd} {sub}: the directory changed");
            assert!(temporaries(d).is_empty(), "{:?}", temporaries(d));
        }
    }
}

/// A participant id of 300 characters (and one of 150 two-byte letters) gets its scorecard,
/// under a shortened name; every link of the site leads to a page; the names are the same
/// when the site is written again.
#[test]
fn a_participant_id_too_long_for_a_file_name_gets_a_page() {
    let t = tmp("whole-long-id");
    let d = t.path();
    let long = format!("{}{}", "Zawodnik", "X".repeat(292));
    let polish = "Ł".repeat(150);
    assert_eq!((long.chars().count(), polish.chars().count()), (300, 150));
    let text = std::fs::read_to_string(common::root().join("tests/data/audit-small.jsonl"))
        .unwrap()
        .replace("\"101\"", &format!("\"{long}\""))
        .replace("\"102\"", &format!("\"{polish}\""));
    std::fs::write(d.join("long.jsonl"), text).unwrap();
    let o = run_in(d, &["site", "long.jsonl", "--out", "site"]);
    assert!(o.status.success(), "{}", show(&o));
    let site = d.join("site");
    let first = tree(&site);
    for name in first.keys() {
        let file = name.rsplit('/').next().unwrap();
        assert!(file.len() <= 255, "{name}");
    }
    // Each long id's scorecard: a page of its own that shows the id.
    let cards: Vec<&String> = first
        .keys()
        .filter(|k| k.starts_with("pairs/") && k.contains("~~"))
        .collect();
    assert_eq!(cards.len(), 2, "{:?}", first.keys().collect::<Vec<_>>());
    for id in [&long, &polish] {
        assert!(
            cards
                .iter()
                .any(|c| String::from_utf8_lossy(&first[*c]).contains(id.as_str())),
            "no scorecard shows {id}"
        );
    }
    // Every link of every page leads to a page of the site, the shortened names included.
    let mut to_cards = 0;
    for (name, bytes) in &first {
        if !name.ends_with(".html") {
            continue;
        }
        let page = site.join(name);
        for l in common::browser::links(&String::from_utf8_lossy(bytes)) {
            let l = l.split('#').next().unwrap();
            if l.is_empty() || l.contains("://") {
                continue;
            }
            let to = page.parent().unwrap().join(l);
            assert!(to.is_file(), "{name}: a link to {l}, which is not there");
            to_cards += usize::from(l.contains("~~"));
        }
    }
    assert!(
        to_cards >= 4,
        "the index, the session and the board link to both: {to_cards}"
    );
    // Written again: the same names and bytes.
    let o = run_in(d, &["site", "long.jsonl", "--out", "site"]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(tree(&site) == first);
}
