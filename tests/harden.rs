//! Regression tests of issue 19: output paths that touch nothing they do not own, text from the
//! log never a terminal command, limits, the small slips (BOM, synth --options, exit statuses,
//! repair of a bare name), the audit cache against planted files (a forger: tests/forger.rs).
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;
use common::root;
use common::scratch::{run_in, show, Tmp};

fn small_log() -> PathBuf {
    root().join("tests/data/audit-small.jsonl")
}

fn tmp() -> Tmp {
    common::scratch::tmp("harden")
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

// ---- 1. output paths ----

#[test]
fn score_through_a_symlinked_out_moves_nothing() {
    let t = tmp();
    let d = t.path();
    std::fs::create_dir(d.join("elsewhere")).unwrap();
    std::fs::write(d.join("elsewhere/precious"), b"keep me").unwrap();
    symlink("elsewhere", d.join("out")).unwrap();
    let log = small_log();
    let o = run_in(d, &["score", log.to_str().unwrap(), "--out", "out"]);
    assert!(o.status.success(), "{}", show(&o));
    // The link is still a link, its target kept the user's file and got the tables.
    assert!(std::fs::symlink_metadata(d.join("out"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read(d.join("elsewhere/precious")).unwrap(),
        b"keep me"
    );
    assert!(d.join("elsewhere/standings.parquet").is_file());
    // Nothing else appeared beside them (no temporaries, no moved-aside directories).
    assert_eq!(
        names(d),
        [".cache-audit", "elsewhere", "out"],
        "{:?}",
        names(d)
    );
    assert!(!names(&d.join("elsewhere"))
        .iter()
        .any(|n| n.starts_with('.')));
}

#[test]
fn an_existing_out_keeps_its_mode_and_other_files() {
    let t = tmp();
    let d = t.path();
    let log = small_log();
    for mode in [0o1777, 0o2775, 0o700] {
        let out = d.join(format!("out{mode:o}"));
        std::fs::create_dir(&out).unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(mode)).unwrap();
        std::fs::write(out.join("notes.txt"), b"mine").unwrap();
        let ino = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&out).unwrap());
        for _ in 0..2 {
            let o = run_in(
                d,
                &[
                    "score",
                    log.to_str().unwrap(),
                    "--out",
                    out.to_str().unwrap(),
                ],
            );
            assert!(o.status.success(), "{}", show(&o));
        }
        let m = std::fs::metadata(&out).unwrap();
        assert_eq!(
            m.permissions().mode() & 0o7777,
            mode,
            "mode of {}",
            out.display()
        );
        assert_eq!(
            std::os::unix::fs::MetadataExt::ino(&m),
            ino,
            "the same directory"
        );
        assert_eq!(std::fs::read(out.join("notes.txt")).unwrap(), b"mine");
        assert!(out.join("standings.parquet").is_file());
    }
}

#[test]
fn a_dangling_symlinked_out_is_refused() {
    let t = tmp();
    let d = t.path();
    symlink("nowhere", d.join("out")).unwrap();
    let log = small_log();
    let o = run_in(d, &["score", log.to_str().unwrap(), "--out", "out"]);
    assert!(!o.status.success(), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("does not exist"),
        "{}",
        show(&o)
    );
    assert!(!d.join("nowhere").exists());
}

/// A process id that is not alive: a child that has exited and been reaped.
fn dead_pid() -> u32 {
    let mut c = Command::new("true").spawn().unwrap();
    let pid = c.id();
    c.wait().unwrap();
    pid
}

#[test]
fn a_killed_runs_temporaries_are_cleaned_by_the_next_run() {
    let t = tmp();
    let d = t.path();
    let pid = dead_pid();
    // A killed run's staging directory beside a new output, and one inside an existing output.
    let beside = d.join(format!(".frekans-tmp.{pid}.1-0.out"));
    std::fs::create_dir(&beside).unwrap();
    std::fs::write(beside.join("scores.parquet"), b"half").unwrap();
    let log = small_log();
    let o = run_in(d, &["score", log.to_str().unwrap(), "--out", "out"]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(!beside.exists(), "{:?}", names(d));
    let inside = d.join(format!("out/.frekans-tmp.{pid}.2-0.out"));
    std::fs::create_dir(&inside).unwrap();
    let o = run_in(d, &["score", log.to_str().unwrap(), "--out", "out"]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(!inside.exists(), "{:?}", names(&d.join("out")));
    // A live process's temporary (ours) is left alone.
    let live = d.join(format!(".frekans-tmp.{}.3-0.out", std::process::id()));
    std::fs::create_dir(&live).unwrap();
    let o = run_in(d, &["score", log.to_str().unwrap(), "--out", "out2"]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(live.exists());
}

#[test]
fn synth_never_writes_through_a_planted_symlink() {
    let t = tmp();
    let d = t.path();
    std::fs::write(d.join("victim"), b"untouched").unwrap();
    // The old fixed temporary name, and a guess at a new one of ours.
    symlink("victim", d.join("log.jsonl.partial")).unwrap();
    let o = run_in(
        d,
        &[
            "synth",
            "--sections",
            "1",
            "--tables",
            "3",
            "--boards",
            "2",
            "--out",
            "log.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(std::fs::read(d.join("victim")).unwrap(), b"untouched");
    assert!(std::fs::read(d.join("log.jsonl")).unwrap().len() > 100);
}

#[test]
fn synth_through_a_symlinked_out_writes_its_target() {
    let t = tmp();
    let d = t.path();
    std::fs::create_dir(d.join("real")).unwrap();
    std::fs::write(d.join("real/log.jsonl"), b"old").unwrap();
    std::fs::set_permissions(
        d.join("real/log.jsonl"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    symlink("real/log.jsonl", d.join("link.jsonl")).unwrap();
    let o = run_in(
        d,
        &[
            "synth",
            "--sections",
            "1",
            "--tables",
            "3",
            "--boards",
            "2",
            "--out",
            "link.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    assert!(std::fs::symlink_metadata(d.join("link.jsonl"))
        .unwrap()
        .file_type()
        .is_symlink());
    let m = std::fs::metadata(d.join("real/log.jsonl")).unwrap();
    assert!(m.len() > 100);
    assert_eq!(m.permissions().mode() & 0o777, 0o640);
    assert_eq!(names(&d.join("real")), ["log.jsonl"]);
}

#[test]
fn synth_leaves_nothing_when_it_fails() {
    // --format salliere refused (no --out): no file at all. And a directory as --out.
    let t = tmp();
    let d = t.path();
    std::fs::create_dir(d.join("dir")).unwrap();
    let o = run_in(d, &["synth", "--out", "dir"]);
    assert!(!o.status.success(), "{}", show(&o));
    assert_eq!(names(d), ["dir"]);
    assert!(names(&d.join("dir")).is_empty());
}

#[allow(dead_code)]
fn stdin_run(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut c = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .current_dir(dir)
        .env_remove("FREKANS_LOG")
        .env("FREKANS_AUDIT_CACHE", dir.join(".cache-audit"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut i = c.stdin.take().unwrap();
    let _ = i.write_all(input);
    drop(i);
    c.wait_with_output().unwrap()
}

// ---- 2. text from the log is never a terminal command ----

/// A log whose names, ids and notes carry escape sequences: erase line, cursor up, OSC 0
/// (window title) and OSC 52 (clipboard), a bare CR, a C1 CSI.
fn hostile_log(dir: &Path) -> PathBuf {
    let text = r#"{"type":"championship","name":"Cup \u001b]0;owned\u0007"}
{"type":"session","id":"S1\u001b[2K","form":"mp","boards":"1-1"}
{"type":"pair","id":"1","players":["Ann\u001b[2K\r\u001b[1A","Bob\u001b]52;c;ZWNobyBwd25lZA==\u0007"]}
{"type":"pair","id":"2\u009b1A","players":["Cy","Di"]}
{"type":"pair","id":"3","players":["Ed","Fi"]}
{"type":"pair","id":"4","players":["Gu","Ha"]}
{"type":"result","session":"S1\u001b[2K","board":1,"ns":"1","ew":"3","score":620}
{"type":"result","session":"S1\u001b[2K","board":1,"ns":"2\u009b1A","ew":"4","score":420}
{"type":"ruling","id":"R1\u001b[2K","session":"S1\u001b[2K","board":1,"ns":"2\u009b1A","ew":"4","score":"(+400)","law":"16B","by":"TD\u001b]0;x\u0007","note":"n\u001b[1A"}
"#;
    let p = dir.join("hostile.jsonl");
    std::fs::write(&p, text).unwrap();
    p
}

fn assert_no_control(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\t')
        .collect();
    assert!(
        bad.is_empty(),
        "{what}: raw control characters {bad:?} in\n{text}"
    );
}

#[test]
fn control_characters_from_the_log_are_printed_escaped() {
    let t = tmp();
    let d = t.path();
    let log = hostile_log(d);
    let log = log.to_str().unwrap();
    let runs: Vec<(&str, Vec<&str>)> = vec![
        ("check", vec!["check", log]),
        ("score", vec!["score", log, "--out", "out"]),
        ("audit", vec!["audit", log, "--ruling", "R1\u{1b}[2K"]),
        (
            "audit json",
            vec!["audit", log, "--ruling", "R1\u{1b}[2K", "--format", "json"],
        ),
        (
            "explain",
            vec!["explain", log, "--session", "S1\u{1b}[2K", "--board", "1"],
        ),
        // errors naming the log's text: an unknown ruling, an unknown session, a bad append
        ("audit error", vec!["audit", log, "--ruling", "R9\u{1b}[2K"]),
        (
            "explain error",
            vec![
                "explain",
                log,
                "--session",
                "S9\u{1b}]0;x\u{7}",
                "--board",
                "1",
            ],
        ),
        (
            "append error",
            vec![
                "append",
                log,
                "{\"type\":\"pair\",\"id\":\"1\",\"players\":[\"x\u{1b}[2K\",\"y\"]}",
            ],
        ),
    ];
    for (what, args) in runs {
        let o = run_in(d, &args);
        assert_no_control(&format!("{what} stdout"), &o.stdout);
        assert_no_control(&format!("{what} stderr"), &o.stderr);
        if what == "check" || what == "explain" || what == "audit" || what == "score" {
            assert!(o.status.success(), "{what}: {}", show(&o));
            let all = String::from_utf8_lossy(&o.stdout);
            if what != "check" {
                assert!(all.contains("\\u{1b}"), "{what}: {all}");
            }
        }
    }
    // A bad log's errors quote the values escaped too.
    let bad = d.join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\u{1b}[2K\",\"boards\":\"1\"}\n",
    )
    .unwrap();
    let o = run_in(d, &["check", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert_no_control("check error", &o.stderr);
}

// ---- 3. limits ----

#[test]
fn threads_are_bounded() {
    let t = tmp();
    let log = small_log();
    let o = run_in(
        t.path(),
        &["--threads", "10000", "check", log.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("at most 1024"),
        "{}",
        show(&o)
    );
    let o = run_in(
        t.path(),
        &["--threads", "1024", "check", log.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", show(&o));
}

#[test]
fn an_endless_log_stops_at_the_limit() {
    let t = tmp();
    let o = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(["check", "/dev/zero"])
        .env("FREKANS_MAX_LOG_MIB", "64")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("/dev/zero") && e.contains("64 MiB"), "{e}");
    drop(t);
}

#[test]
fn a_huge_event_on_standard_input_stops_at_the_limit() {
    let t = tmp();
    let d = t.path();
    let log = d.join("log.jsonl");
    std::fs::copy(small_log(), &log).unwrap();
    let before = std::fs::read(&log).unwrap();
    let mut big = b"{\"type\":\"championship\",\"name\":\"".to_vec();
    big.resize(3 << 20, b'a');
    let o = stdin_run(d, &["append", "log.jsonl", "-"], &big);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("1 MiB"),
        "{}",
        show(&o)
    );
    assert_eq!(std::fs::read(&log).unwrap(), before);
}

// ---- 4. the small slips ----

#[test]
fn append_after_a_byte_order_mark_and_a_comment() {
    let t = tmp();
    let d = t.path();
    for start in ["// a comment\n", "\n", "   \n"] {
        let log = d.join("bom.jsonl");
        let mut b = b"\xEF\xBB\xBF".to_vec();
        b.extend_from_slice(start.as_bytes());
        b.extend_from_slice(
            b"{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\",\"boards\":\"1-1\"}\n",
        );
        std::fs::write(&log, &b).unwrap();
        let o = run_in(
            d,
            &[
                "append",
                "bom.jsonl",
                r#"{"type":"result","session":"S1","board":1,"ns":"1","ew":"2","score":620}"#,
            ],
        );
        assert!(o.status.success(), "{start:?}: {}", show(&o));
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("appended event 2"),
            "{}",
            show(&o)
        );
        let o = run_in(d, &["check", "bom.jsonl"]);
        assert!(o.status.success(), "{start:?}: {}", show(&o));
    }
}

#[test]
fn synth_options_are_checked_against_the_form() {
    let t = tmp();
    let d = t.path();
    for (form, options, phrase) in [
        (
            "mp",
            r#"{"ximp_normalize":"comparisons"}"#,
            "does not apply to form",
        ),
        ("mp", r#"{"no_such_option":1}"#, "unknown option"),
        ("ximp", r#"{"ximp_normalize":"sideways"}"#, "ximp_normalize"),
    ] {
        let o = run_in(
            d,
            &[
                "synth",
                "--form",
                form,
                "--options",
                options,
                "--out",
                "x.jsonl",
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{form} {options}: {}", show(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(phrase),
            "{}",
            show(&o)
        );
        assert!(!d.join("x.jsonl").exists());
    }
    // A right one is written, and the log passes check.
    let o = run_in(
        d,
        &[
            "synth",
            "--form",
            "ximp",
            "--sections",
            "1",
            "--tables",
            "3",
            "--boards",
            "2",
            "--options",
            r#"{"ximp_normalize":"comparisons"}"#,
            "--out",
            "x.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(d, &["check", "x.jsonl"]);
    assert!(o.status.success(), "{}", show(&o));
}

#[test]
fn a_bad_request_exits_2_everywhere() {
    let t = tmp();
    let d = t.path();
    let log = d.join("log.jsonl");
    std::fs::copy(small_log(), &log).unwrap();
    let log = log.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["explain", log, "--session", "S9", "--board", "1"],
        vec!["explain", log, "--session", "S1", "--board", "7"],
        vec!["audit", log, "--ruling", "R9"],
        vec!["audit", log, "--as-of", "999"],
        vec!["audit", log],
        vec!["synth", "--tables", "0"],
        vec!["append", log, "not json"],
    ];
    for args in cases {
        let o = run_in(d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", show(&o));
    }
}

// ---- 5. the audit cache against planted files ----

/// Run frekans with the audit cache `cache`, killed after 60 s (a test that would block forever).
fn run_with_cache(cache: &Path, args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .env_remove("FREKANS_LOG")
        .env("FREKANS_AUDIT_CACHE", cache)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while c.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = c.kill();
            panic!("frekans {args:?} blocked for a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    c.wait_with_output().unwrap()
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o600) },
        0,
        "mkfifo {}",
        p.display()
    );
}

#[test]
fn a_fifo_in_the_cache_never_blocks_an_audit() {
    let t = tmp();
    let d = t.path();
    let log = d.join("log.jsonl");
    std::fs::copy(small_log(), &log).unwrap();
    let cache = d.join("cache");
    std::fs::create_dir(&cache).unwrap();
    let key = frekans::audit::cache::log_key(&std::fs::read(&log).unwrap());
    mkfifo(&cache.join(format!("{key}.audit")));
    let m = std::fs::metadata(&log).unwrap();
    use std::os::unix::fs::MetadataExt;
    mkfifo(&cache.join(format!("{:x}-{:x}.stat", m.dev(), m.ino())));
    let o = run_with_cache(&cache, &["audit", log.to_str().unwrap(), "--ruling", "R2"]);
    assert!(o.status.success(), "{}", show(&o));
    let long = run_with_cache(
        &d.join("none"),
        &[
            "audit",
            log.to_str().unwrap(),
            "--ruling",
            "R2",
            "--no-cache",
        ],
    );
    assert_eq!(o.stdout, long.stdout);
}

/// The first audit's cache of `log` in `dir`: its path and bytes.
fn first_cache(log: &Path, dir: &Path) -> (PathBuf, Vec<u8>) {
    let bytes = std::fs::read(log).unwrap();
    frekans::app::audit_bytes(
        &bytes,
        &frekans::audit::Question::AsOf(0),
        Some(common::test_store(dir)),
    )
    .unwrap();
    let p = dir.join(format!("{}.audit", frekans::audit::cache::log_key(&bytes)));
    let b = std::fs::read(&p).unwrap();
    (p, b)
}

/// Every single-byte alteration of a cache file, its checksum made right again: decoding it and
/// auditing from it never panics, and what decodes is answered as the long way answers or
/// refused (the caller then goes the long way).
#[test]
fn an_altered_cache_never_panics() {
    use frekans::audit::cache::AuditCache;
    use frekans::audit::Question;
    for rel in [
        "tests/data/audit-small.jsonl",
        "fixtures/RU-TEAMS-1/events.jsonl",
        "fixtures/EBU-FOULED/events.jsonl",
    ] {
        let t = tmp();
        let log = root().join(rel);
        let bytes = std::fs::read(&log).unwrap();
        let key = frekans::audit::cache::log_key(&bytes);
        let (_, orig) = first_cache(&log, t.path());
        let (_, _, mut qs, last) = common::replayed(&bytes, rel);
        qs.push(Question::AsOf(last / 2));
        let c = AuditCache::load(common::test_store(t.path()), &key).expect("the cache as made");
        assert_eq!(c.why_not(), None, "{rel}: the cache as made");
        let step = (orig.len() / 1500).max(1);
        let mut decoded = 0;
        for i in (0..orig.len() - 16).step_by(step) {
            for f in [|b: u8| b ^ 0x01, |b: u8| b ^ 0x80, |_| 0xff, |_| 0x00] {
                let mut m = orig.clone();
                m[i] = f(m[i]);
                if m == orig {
                    continue;
                }
                AuditCache::reseal(&mut m);
                if std::env::var_os("HARDEN_TRACE").is_some() {
                    eprintln!("{rel} byte {i} -> {}", m[i]);
                }
                let r = std::panic::catch_unwind(|| {
                    let Some(c) = AuditCache::from_bytes(&m, &key, "test") else {
                        return false;
                    };
                    for q in &qs {
                        let _ = common::audit_cached(&bytes, c.clone(), q);
                    }
                    true
                });
                match r {
                    Ok(d) => decoded += usize::from(d),
                    Err(_) => panic!("{rel}: byte {i} altered: a panic"),
                }
            }
        }
        assert!(
            decoded > 0,
            "{rel}: no alteration decoded (the test tests nothing)"
        );
    }
}

/// A status file edited to give another log's key: that log's cache is not used.
#[test]
fn an_edited_status_file_serves_no_other_logs_cache() {
    let t = tmp();
    let d = t.path();
    let cache = d.join("cache");
    std::fs::create_dir(&cache).unwrap();
    // Log A: audit-small; log B: the same with R2 withdrawn (longer).
    let a = d.join("a.jsonl");
    std::fs::copy(small_log(), &a).unwrap();
    let b = d.join("b.jsonl");
    let mut bb = std::fs::read(small_log()).unwrap();
    bb.extend_from_slice(
        br#"{"type":"result","session":"S1","board":1,"ns":"5","ew":"105","score":-200}
"#,
    );
    std::fs::write(&b, &bb).unwrap();
    let key_a = frekans::audit::cache::log_key(&std::fs::read(&a).unwrap());
    let key_b = frekans::audit::cache::log_key(&bb);
    // Both audited (caches made); B's status recorded once settled (the store's clock a fake
    // world's, moved on rather than slept on).
    let fake = std::sync::Arc::new(frekans::world::Fake::at(std::time::SystemTime::now()));
    let clock: frekans::audit::cache::Clock = fake.clone();
    let store = || Some(frekans::audit::cache::Store::new(&cache, "test").with_clock(&clock));
    let q = frekans::audit::Question::Ruling("R2".into());
    for l in [&a, &b] {
        frekans::app::audit(l, &q, None, store()).unwrap();
    }
    fake.advance(frekans::audit::cache::SETTLED + std::time::Duration::from_secs(2));
    frekans::app::audit(&b, &q, None, store()).unwrap();
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(&b).unwrap();
    let stat = cache.join(format!("{:x}-{:x}.stat", m.dev(), m.ino()));
    let text = std::fs::read_to_string(&stat).unwrap();
    assert!(text.contains(&key_b), "{text}");
    std::fs::write(&stat, text.replace(&key_b, &key_a)).unwrap();
    let o = frekans::app::audit(&b, &q, None, store()).unwrap().audit;
    let long = frekans::app::audit(&b, &q, None, None).unwrap().audit;
    assert_eq!(o, long);
}

/// The bulletin's data (what the PDF is rendered from) holds the log's text escaped, and the
/// head it was made from.
#[test]
fn the_bulletin_shows_control_characters_as_text_and_its_head() {
    let t = tmp();
    let d = t.path();
    let log = hostile_log(d);
    let o = run_in(d, &["bulletin", log.to_str().unwrap(), "--out", "b"]);
    assert!(o.status.success(), "{}", show(&o));
    let json = std::fs::read_to_string(d.join("b/bulletin.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut strings = Vec::new();
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| {
                out.push(k.clone());
                walk(x, out)
            }),
            _ => {}
        }
    }
    walk(&v, &mut strings);
    for s in &strings {
        assert!(
            !s.chars().any(char::is_control),
            "raw control characters in {s:?}"
        );
    }
    assert!(
        strings
            .iter()
            .any(|s| s.contains("Ann\\u{1b}[2K\\u{d}\\u{1b}[1A")),
        "{json}"
    );
    let head = frekans::integrity::head(&std::fs::read(&log).unwrap()).unwrap();
    assert_eq!(v["head"]["events"], 9);
    assert_eq!(v["head"]["hash"], head.hash.as_str());
    assert!(d.join("b/bulletin.pdf").is_file());
}
