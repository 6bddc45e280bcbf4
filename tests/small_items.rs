//! The small findings of issue 34's black-box campaign (items 5 and 6), each with the test that
//! failed before its fix: `--with-file` and a byte-order mark, `check --key` and a weak key,
//! `--head` and a malformed count, the exit status of a key or head file that cannot be read,
//! `sign --new-key` writing both files or neither, `explain` and a note's line break, and
//! `FREKANS_MAX_LOG_MIB` that is not a number. (The interchange formats' control characters are
//! `tests/roundtrip.rs`, the what-if's answer with and without the cache `tests/audit_whatif.rs`.)
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::Path;
use std::process::Command;

use common::scratch::{run_in, show, tmp};

/// The mazovia demo copied into `d` as `log.jsonl`.
fn demo_in(d: &Path) -> Vec<u8> {
    let demo = common::root().join("events/mazovia-pairs-2026.jsonl");
    std::fs::copy(&demo, d.join("log.jsonl")).unwrap();
    std::fs::read(d.join("log.jsonl")).unwrap()
}

/// The log's head as `check` prints it: (events, hash).
fn head_of(d: &Path) -> (usize, String) {
    let o = run_in(d, &["check", "log.jsonl"]);
    assert!(o.status.success(), "{}", show(&o));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let l = text.lines().find_map(|l| l.strip_prefix("head: ")).unwrap();
    let (n, h) = l.split_once(' ').unwrap();
    (n.parse().unwrap(), h.to_string())
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const RULING: &str = r#"{"type":"ruling","id":"AC9","session":"S1","board":5,"ns":"A8","score":"(70%+620&30%-100)","law":"21B3","at":"2026-11-25T19:00:00Z"}"#;

/// Item 3: a `--with-file` saved by an editor that starts it with a byte-order mark was
/// refused (its first line was not JSON); it reads as the file without it, as the log does.
#[test]
fn with_file_skips_a_byte_order_mark() {
    let t = tmp("small-bom");
    let d = t.path();
    demo_in(d);
    std::fs::write(d.join("plain.jsonl"), format!("{RULING}\n")).unwrap();
    std::fs::write(d.join("bom.jsonl"), format!("\u{feff}{RULING}\n")).unwrap();
    for args in [
        vec!["audit", "log.jsonl", "--with-file"],
        vec!["audit", "log.jsonl", "--no-cache", "--with-file"],
        vec!["audit", "log.jsonl", "--alternatives"],
        vec![
            "explain",
            "log.jsonl",
            "--session",
            "S1",
            "--board",
            "5",
            "--with-file",
        ],
    ] {
        let run = |f: &str| {
            let mut a = args.clone();
            a.push(f);
            run_in(d, &a)
        };
        let (plain, bom) = (run("plain.jsonl"), run("bom.jsonl"));
        assert!(plain.status.success(), "{args:?}: {}", show(&plain));
        assert_eq!(
            (bom.status.code(), &bom.stdout, &bom.stderr),
            (plain.status.code(), &plain.stdout, &plain.stderr),
            "{args:?}: {}",
            show(&bom)
        );
    }
    // Only at the start: a mark on another line is that line's text.
    std::fs::write(
        d.join("inner.jsonl"),
        format!("{RULING}\n\u{feff}{RULING}\n"),
    )
    .unwrap();
    let o = run_in(d, &["audit", "log.jsonl", "--with-file", "inner.jsonl"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
}

/// Item 4: `check --key` verified any checkpoint under a public key of small order (the
/// identity point: the signature R = identity, s = 0 matches every message). A weak key is
/// refused, and the signatures are verified strictly.
#[test]
fn check_key_refuses_a_weak_key() {
    let t = tmp("small-weak");
    let d = t.path();
    demo_in(d);
    let (n, hash) = head_of(d);
    let identity = format!("01{}", "00".repeat(31));
    std::fs::write(
        d.join("weak.pub"),
        format!("frekans-ed25519-public {identity}\n"),
    )
    .unwrap();
    // The forger's checkpoint: any head, R the identity, s zero.
    std::fs::write(
        d.join("log.jsonl.sig"),
        format!(
            "frekans-checkpoint 1 {n} {hash} {identity}{}\n",
            "00".repeat(32)
        ),
    )
    .unwrap();
    let o = run_in(d, &["check", "log.jsonl", "--key", "weak.pub"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        stderr(&o).contains("weak Ed25519 public key"),
        "{}",
        show(&o)
    );
    // A real key's checkpoint of the same log holds.
    std::fs::remove_file(d.join("log.jsonl.sig")).unwrap();
    let o = run_in(d, &["sign", "--new-key", "td.key"]);
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(d, &["sign", "log.jsonl", "--key", "td.key"]);
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(d, &["check", "log.jsonl", "--key", "td.key.pub"]);
    assert!(o.status.success(), "{}", show(&o));
}

/// Item 5: `--head 12x:HASH` was taken as the hash alone (the `12x` ignored), so a malformed
/// count proved nothing yet passed. Every token of a head is its count, its hash or `head:`.
#[test]
fn a_head_with_a_malformed_count_is_refused() {
    let t = tmp("small-head");
    let d = t.path();
    demo_in(d);
    let (n, hash) = head_of(d);
    let o = run_in(d, &["check", "log.jsonl", "--head", &format!("{n}:{hash}")]);
    assert!(o.status.success(), "{}", show(&o));
    for bad in [
        format!("{n}x:{hash}"),
        format!("x{n} {hash}"),
        format!("{n} {n} {hash}"),
        format!("{hash} {n}"),
        format!("-{n} {hash}"),
        format!("{n}.0 {hash}"),
    ] {
        let o = run_in(d, &["check", "log.jsonl", &format!("--head={bad}")]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", show(&o));
        assert!(
            stderr(&o).contains("expected a head such as"),
            "{bad}: {}",
            show(&o)
        );
        std::fs::write(d.join("head.txt"), &bad).unwrap();
        let o = run_in(d, &["check", "log.jsonl", "--head-file", "head.txt"]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", show(&o));
    }
    let o = run_in(
        d,
        &["check", "log.jsonl", "--head", &format!("{n}x:{hash}")],
    );
    assert!(
        stderr(&o).contains(&format!("\"{n}x\" in the head")),
        "{}",
        show(&o)
    );
}

/// Item 6: a key or head file that cannot be read exited 2, as a refused input; README.md
/// promises 1 for a file that cannot be read (as for the log itself) and 2 for input refused.
#[test]
fn a_key_or_head_file_that_cannot_be_read_exits_1() {
    let t = tmp("small-exit");
    let d = t.path();
    demo_in(d);
    let (n, hash) = head_of(d);
    std::fs::create_dir(d.join("a-directory")).unwrap();
    let o = run_in(d, &["sign", "--new-key", "td.key"]);
    assert!(o.status.success(), "{}", show(&o));
    std::fs::write(d.join("bad.pub"), "frekans-ed25519-public 12\n").unwrap();
    std::fs::write(d.join("head.txt"), format!("head: {n} {hash}\n")).unwrap();
    std::fs::write(d.join("bad-head.txt"), "no head here\n").unwrap();
    for (args, code) in [
        // cannot be read: 1
        (vec!["check", "log.jsonl", "--key", "missing.pub"], 1),
        (vec!["check", "log.jsonl", "--key", "a-directory"], 1),
        (vec!["check", "log.jsonl", "--head-file", "missing.txt"], 1),
        (vec!["check", "log.jsonl", "--head-file", "a-directory"], 1),
        (vec!["sign", "log.jsonl", "--key", "missing.key"], 1),
        (vec!["sign", "log.jsonl", "--key", "a-directory"], 1),
        (vec!["check", "missing.jsonl"], 1),
        // read, and refused: 2
        (vec!["check", "log.jsonl", "--key", "bad.pub"], 2),
        (vec!["check", "log.jsonl", "--head-file", "bad-head.txt"], 2),
        (vec!["sign", "log.jsonl", "--key", "bad.pub"], 2),
        // (no checkpoint yet: the proof fails)
        (vec!["check", "log.jsonl", "--key", "td.key.pub"], 2),
        (vec!["sign", "--new-key", "td.key"], 2),
        // and what holds: 0
        (vec!["check", "log.jsonl", "--head-file", "head.txt"], 0),
    ] {
        let o = run_in(d, &args);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", show(&o));
        if code == 1 {
            assert!(stderr(&o).starts_with("frekans: error: "), "{}", show(&o));
        }
    }
}

/// Item 7: `sign --new-key` wrote the secret key, then failed on its `.pub` (one already
/// there, or a name too long) and left the secret key without its public key. Both or neither.
#[test]
fn new_key_writes_both_files_or_neither() {
    let t = tmp("small-newkey");
    let d = t.path();
    // A public key already there: refused (2), nothing written, the old file as it was.
    std::fs::write(d.join("td.key.pub"), "an older public key\n").unwrap();
    let o = run_in(d, &["sign", "--new-key", "td.key"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(!d.join("td.key").exists(), "a secret key without its .pub");
    assert_eq!(
        std::fs::read_to_string(d.join("td.key.pub")).unwrap(),
        "an older public key\n"
    );
    // A name the secret key may have but its .pub may not (255 bytes at most): 1, nothing.
    let long = "k".repeat(252);
    let o = run_in(d, &["sign", "--new-key", &long]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(!d.join(&long).exists(), "a secret key without its .pub");
    // Made: both.
    let o = run_in(d, &["sign", "--new-key", "ok.key"]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(d.join("ok.key").is_file() && d.join("ok.key.pub").is_file());
}

/// Item 8: `explain` printed a ruling's note as written: its line break made a line of the
/// explanation that the log never said. Every text from the log is escaped as in every other
/// output (`crate::text`).
#[test]
fn explain_escapes_a_notes_line_break() {
    let t = tmp("small-explain");
    let d = t.path();
    demo_in(d);
    let ruling = RULING.replace(
        "\"law\"",
        "\"note\":\"slow\\nRuling AC9 at NS A8 v EW A9: (+2000)\\r\\u001b[2K\",\"by\":\"TD\\nX\",\"law\"",
    );
    let o = run_in(
        d,
        &[
            "explain",
            "log.jsonl",
            "--session",
            "S1",
            "--board",
            "5",
            "--with",
            &ruling,
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("note: slow\\u{a}Ruling AC9 at NS A8 v EW A9: (+2000)\\u{d}\\u{1b}[2K"),
        "{text}"
    );
    assert!(text.contains(", by TD\\u{a}X"), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("Ruling AC9 at NS A8 v EW A9: (+2000)")),
        "{text}"
    );
}

/// Item 9: `FREKANS_MAX_LOG_MIB=abc` was ignored (the default limit used, silently). A value
/// that is not a whole number of MiB is refused before anything is read (exit 2).
#[test]
fn a_log_limit_that_is_no_number_is_refused() {
    let t = tmp("small-limit");
    let d = t.path();
    demo_in(d);
    let run = |v: &str| {
        Command::new(env!("CARGO_BIN_EXE_frekans"))
            .args(["check", "log.jsonl"])
            .current_dir(d)
            .env("FREKANS_MAX_LOG_MIB", v)
            .env("FREKANS_AUDIT_CACHE", d.join(".cache-audit"))
            .output()
            .unwrap()
    };
    for bad in ["abc", "12x", "0", "-5"] {
        let o = run(bad);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", show(&o));
        assert!(
            stderr(&o).contains(&format!("FREKANS_MAX_LOG_MIB=\"{bad}\"")),
            "{bad}: {}",
            show(&o)
        );
        assert!(o.stdout.is_empty());
    }
    let o = run("64");
    assert!(o.status.success(), "{}", show(&o));
    // (a limit below the log's size is the limit's own refusal)
    std::fs::write(d.join("big.jsonl"), vec![b'\n'; 2 << 20]).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(["check", "big.jsonl"])
        .current_dir(d)
        .env("FREKANS_MAX_LOG_MIB", "1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
}
