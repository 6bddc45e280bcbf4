//! The PDF bulletin, rendered by the real typst program (installed by scripts/test.sh; these
//! tests fail, never skip, without it): the demo's standings and a frequency table are in the
//! PDF's text; hostile names print literally; fonts are embedded; a missing typst is a clear
//! error with nothing written.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::path::PathBuf;
use std::process::{Command, Output};

mod common;
use common::pdftotext;

fn frekans(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .output()
        .unwrap()
}

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "frekans-bulletin-test-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn demo_bulletin_holds_the_standings_and_a_frequency_table() {
    let d = out_dir("demo");
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/events/mazovia-pairs-2026.jsonl"
    );
    let o = frekans(&["bulletin", log, "--out", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    for f in [
        "bulletin.pdf",
        "bulletin.json",
        "bulletin.typ",
        "scores.parquet",
        "standings.parquet",
    ] {
        assert!(d.join(f).is_file(), "{f} missing");
    }
    let pdf = d.join("bulletin.pdf");
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
    let t = pdftotext(&pdf);
    // The overall leader and a name with Polish diacritics; a frequency table header and row.
    assert!(t.contains("Michał Chmielewski"), "standings names missing");
    assert!(t.contains("Mazovian Pairs Championship 2026"));
    assert!(t.contains("Frequency table"), "no frequency table");
    assert!(t.contains("(60%+620&40%-100)"), "ruling notation missing");
    // Fonts embedded.
    let f = Command::new("pdffonts").arg(&pdf).output().unwrap();
    let fonts = String::from_utf8_lossy(&f.stdout);
    assert!(
        fonts
            .lines()
            .skip(2)
            .all(|l| l.split_whitespace().rev().nth(4) == Some("yes")),
        "a font is not embedded:\n{fonts}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn hostile_names_print_literally_and_polish_labels_work() {
    let d = out_dir("hostile");
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/hostile-names.jsonl"
    );
    let o = frekans(&[
        "bulletin",
        log,
        "--out",
        d.to_str().unwrap(),
        "--lang",
        "pl",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let pdf = d.join("bulletin.pdf");
    let t = pdftotext(&pdf);
    for s in [
        "#read(\"/etc/passwd\")",
        "]#set page(width: 1pt)[",
        "#pagebreak()",
        "Zażółć Gęślą",
        "Сергей Кузнецов",
        "Klasyfikacja",
        "#eval(\"1+1\")",
    ] {
        assert!(t.contains(s), "{s:?} not printed literally:\n{t}");
    }
    assert!(!t.contains("root:x:0"), "a name was executed");
    // The page is still A4 (595 x 842 pt).
    let info = Command::new("pdfinfo").arg(&pdf).output().unwrap();
    assert!(
        String::from_utf8_lossy(&info.stdout).contains("595.276 x 841.89"),
        "{}",
        String::from_utf8_lossy(&info.stdout)
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_missing_or_failing_typst_writes_nothing() {
    let d = out_dir("notypst");
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/hostile-names.jsonl"
    );
    let o = frekans(&[
        "bulletin",
        log,
        "--out",
        d.to_str().unwrap(),
        "--typst",
        "/nonexistent/typst",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("/nonexistent/typst"), "{}", text(&o));
    assert!(!d.exists(), "something was written");
    // A typst that fails: its stderr is shown.
    let fake = std::env::temp_dir().join(format!("fake-typst-{}", std::process::id()));
    std::fs::write(
        &fake,
        "#!/bin/sh\necho 'error: something broke' >&2\nexit 3\n",
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let o = frekans(&[
        "bulletin",
        log,
        "--out",
        d.to_str().unwrap(),
        "--typst",
        fake.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("something broke"), "{}", text(&o));
    assert!(!d.exists());
    let _ = std::fs::remove_file(&fake);
}

#[test]
fn same_log_same_pdf() {
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/hostile-names.jsonl"
    );
    let (a, b) = (out_dir("repro-a"), out_dir("repro-b"));
    for d in [&a, &b] {
        let o = frekans(&["bulletin", log, "--out", d.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    }
    assert_eq!(
        std::fs::read(a.join("bulletin.pdf")).unwrap(),
        std::fs::read(b.join("bulletin.pdf")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}
