//! Issue 34: every input has a documented size limit (crates/core/src/limits.rs, docs/interop.md "Limits",
//! docs/integrity.md) checked before it is read whole; an endless one (`/dev/zero`) is read to
//! the limit and no further; a USEBIO file's nesting is bounded, so its tree's memory is linear
//! in the file; what a message quotes of a file is clipped. Each run here is capped in address
//! space (`ulimit -v`): before the fixes they aborted (exit 134) or grew until killed.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::scratch::{show, tmp};

const GIB: u64 = 1 << 30;
const MIB: u64 = 1 << 20;

/// `frekans ARGS` in `dir`, its address space capped at `cap` bytes; the run and how long it
/// took.
fn capped(dir: &Path, cap: u64, args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", cap / 1024))
        .arg(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .current_dir(dir)
        .env_remove("FREKANS_LOG")
        .env("FREKANS_AUDIT_CACHE", dir.join(".cache-audit"))
        .output()
        .expect("run frekans");
    (o, start.elapsed())
}

fn refused(o: &Output, phrases: &[&str]) {
    assert_eq!(o.status.code(), Some(2), "{}", show(o));
    let err = String::from_utf8_lossy(&o.stderr);
    for p in phrases {
        assert!(err.contains(p), "{p:?} not in: {}", show(o));
    }
    assert!(err.len() < 4096, "a short message: {} bytes", err.len());
}

/// A sparse file of `len` bytes (all zeros, nothing on disk).
fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

/// An import file over 1 GiB is refused by its length before a byte is read: a 2 GB sparse
/// file read as CSV had aborted (exit 134), the whole file in memory and then its one row.
#[test]
fn an_import_file_over_the_limit_is_refused_unread() {
    let t = tmp("bounded-import");
    let big = t.path().join("big.csv");
    for len in [GIB + 1, 2_000_000_000] {
        sparse(&big, len);
        for format in [&["--format", "csv"][..], &[]] {
            let mut args = vec!["import", "big.csv", "--out", "log.jsonl"];
            args.extend(format);
            let (o, took) = capped(t.path(), 512 * MIB, &args);
            refused(
                &o,
                &[
                    "big.csv: file: the file is",
                    &format!("{len} bytes long"),
                    "longer than 1 GiB (1073741824 bytes), the most frekans reads to import",
                ],
            );
            assert!(took < Duration::from_secs(10), "{took:?}");
            assert!(!t.path().join("log.jsonl").exists());
        }
    }
    assert_eq!(frekans_core::limits::MAX_IMPORT_BYTES, GIB);
}

/// An endless input (`/dev/zero`) is read up to the limit and refused there (into a mapping
/// of the limit, its memory the pages read): before, it grew until memory ran out. (The cap
/// leaves room for the mapping beside the allocator's own reservations.)
#[test]
fn an_endless_import_stops_at_the_limit() {
    let t = tmp("bounded-zero");
    let (o, _) = capped(
        t.path(),
        3 * GIB,
        &[
            "import",
            "/dev/zero",
            "--format",
            "csv",
            "--out",
            "log.jsonl",
        ],
    );
    refused(&o, &["/dev/zero: file:", "longer than 1 GiB"]);
}

/// A CSV under the size limit whose one row is the whole file (zeros, or a quote never
/// closed) is refused at its line without reading the row into memory.
#[test]
fn a_csv_row_is_bounded() {
    let t = tmp("bounded-row");
    sparse(&t.path().join("zeros.csv"), 200 * MIB);
    let (o, _) = capped(
        t.path(),
        768 * MIB,
        &[
            "import",
            "zeros.csv",
            "--format",
            "csv",
            "--out",
            "log.jsonl",
        ],
    );
    refused(
        &o,
        &[
            "zeros.csv: line 1: a row of 209715200 bytes",
            "more than the 64 KiB",
        ],
    );
}

/// Elements nested without end: a 1.1 MB USEBIO file nested 73,000 deep needed 10.3 GB (each
/// element's path from the root) and deeper ones aborted. Nesting beyond 32 is refused at its
/// line, in memory of the file's size; 32 deep is read.
#[test]
fn usebio_nesting_is_bounded() {
    let t = tmp("bounded-nest");
    let nested = |name: &str, n: usize| {
        let mut x = String::from("<?xml version=\"1.0\"?>\n<USEBIO Version=\"1.2\">");
        for _ in 0..n {
            x.push_str(&format!("<{name}>"));
        }
        for _ in 0..n {
            x.push_str(&format!("</{name}>"));
        }
        x.push_str("</USEBIO>\n");
        x
    };
    for (name, n) in [("EVENT", 73_000), ("X", 300_000)] {
        let f = t.path().join(format!("deep-{name}.xml"));
        std::fs::write(&f, nested(name, n)).unwrap();
        assert!(std::fs::metadata(&f).unwrap().len() > 1_000_000);
        let (o, took) = capped(
            t.path(),
            512 * MIB,
            &["import", f.to_str().unwrap(), "--out", "log.jsonl"],
        );
        refused(
            &o,
            &[
                &format!("deep-{name}.xml: line 2: <{name}> is nested 33 elements deep"),
                "more than the 32 frekans reads",
            ],
        );
        assert!(took < Duration::from_secs(10), "{took:?}");
    }
    // 32 deep (the root and 31 EVENTs): read, whatever the reader then says of its shape.
    let f = t.path().join("at-limit.xml");
    std::fs::write(&f, nested("EVENT", 31)).unwrap();
    let (o, _) = capped(
        t.path(),
        512 * MIB,
        &["import", f.to_str().unwrap(), "--out", "log.jsonl"],
    );
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("nested"),
        "{}",
        show(&o)
    );
    assert_eq!(frekans_core::limits::MAX_XML_DEPTH, 32);
}

/// A root element of another name is refused at once, its name clipped: a 1 MB name before
/// 60,000 children was the start of each child's path.
#[test]
fn a_long_root_name_is_refused_at_once() {
    let t = tmp("bounded-root");
    let name = "R".repeat(1 << 20);
    let mut x = format!("<{name}>");
    for _ in 0..60_000 {
        x.push_str("<EVENT/>");
    }
    x.push_str(&format!("</{name}>"));
    std::fs::write(t.path().join("root.xml"), x).unwrap();
    let (o, _) = capped(
        t.path(),
        512 * MIB,
        &[
            "import",
            "root.xml",
            "--format",
            "usebio",
            "--out",
            "log.jsonl",
        ],
    );
    refused(
        &o,
        &[
            "expected the root element <USEBIO>, found <RRRR",
            "characters cut",
        ],
    );
}

/// A PBN error quoting a 20 MB line quoted it whole: messages clip what they quote.
#[test]
fn messages_clip_what_they_quote() {
    let t = tmp("bounded-quote");
    let long = "x".repeat(20 << 20);
    let cases = [
        // a quoted token never closed, on a row of a score table
        format!(
            "% PBN 2.1\n[Board \"1\"]\n[ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result\"]\n1 2 \"{long}\n"
        ),
        // a tag's value never closed
        format!("% PBN 2.1\n[Board \"1\"]\n[Event \"{long}\n"),
        // a board number
        format!("% PBN 2.1\n[Board \"{long}\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ 5432.5432.5432.5 T987.T987.T987.T 6.6.6.JT98765432\"]\n"),
    ];
    for (i, text) in cases.iter().enumerate() {
        let f = format!("long{i}.pbn");
        std::fs::write(t.path().join(&f), text).unwrap();
        let (o, _) = capped(t.path(), 1024 * MIB, &["import", &f, "--out", "log.jsonl"]);
        refused(&o, &[&format!("{f}: line"), "characters cut"]);
    }
}

/// Key, head and checkpoint files: each has a limit, checked before it is read (a regular
/// file by its length) and while it is read (`/dev/zero`).
#[test]
fn key_head_and_sig_files_are_bounded() {
    let t = tmp("bounded-keys");
    let d = t.path();
    let log = d.join("log.jsonl");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/audit-small.jsonl"),
        &log,
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(["sign", "--new-key", "k"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(["sign", "log.jsonl", "--key", "k"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    sparse(&d.join("huge"), 4 * GIB);
    let cap = 768 * MIB;
    let cases: [(&[&str], &[&str]); 8] = [
        (
            &["check", "log.jsonl", "--head-file", "/dev/zero"],
            &["cannot read the head file /dev/zero", "longer than 64 KiB"],
        ),
        (
            &["check", "log.jsonl", "--head-file", "huge"],
            &[
                "cannot read the head file huge",
                "4294967296 bytes long, longer than 64 KiB",
            ],
        ),
        (
            &["check", "log.jsonl", "--key", "/dev/zero"],
            &["cannot read the key /dev/zero", "longer than 64 KiB"],
        ),
        (
            &["check", "log.jsonl", "--key", "huge"],
            &["cannot read the key huge", "4294967296 bytes long"],
        ),
        (
            &["check", "log.jsonl", "--key", "k.pub", "--sig", "/dev/zero"],
            &[
                "cannot read the signed checkpoints /dev/zero",
                "longer than 64 MiB",
            ],
        ),
        (
            &["check", "log.jsonl", "--key", "k.pub", "--sig", "huge"],
            &[
                "cannot read the signed checkpoints huge",
                "4294967296 bytes long, longer than 64 MiB",
            ],
        ),
        (
            &["sign", "log.jsonl", "--key", "/dev/zero", "--sig", "s.sig"],
            &["cannot read the key /dev/zero", "longer than 64 KiB"],
        ),
        (
            &["sign", "log.jsonl", "--key", "huge", "--sig", "s.sig"],
            &["cannot read the key huge", "4294967296 bytes long"],
        ),
    ];
    for (args, want) in cases {
        let (o, took) = capped(d, cap, args);
        refused(&o, want);
        assert!(took < Duration::from_secs(10), "{args:?}: {took:?}");
    }
    // The files as they are read: within their limits.
    let (o, _) = capped(d, cap, &["check", "log.jsonl", "--key", "k.pub"]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        !d.join("s.sig").exists(),
        "nothing signed with a refused key"
    );
}
