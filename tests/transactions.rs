//! Appends are transactions (docs/integrity.md): `import --append` killed with SIGKILL at many
//! instants, or failing on a full disk (a file-size limit set on the process: writes past it
//! fail as on a full file system), leaves the log exactly as it was or with the whole import,
//! never part of it, as the next command to read it sees it; re-running the import after a
//! kill gives one session, not two. `append` and `sign` on a full disk leave their files as
//! they were.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use common::scratch::{run_in, show, tmp};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// frekans in `dir`, its files no larger than `limit` bytes where given (RLIMIT_FSIZE, SIGXFSZ
/// ignored: a write past the limit fails with EFBIG, as a full disk fails one with ENOSPC).
fn frekans(dir: &Path, args: &[&str], limit: Option<u64>) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_frekans"));
    c.args(args)
        .current_dir(dir)
        .env("FREKANS_AUDIT_CACHE", dir.join(".cache-audit"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(limit) = limit {
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            c.pre_exec(move || {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let r = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &r) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    c
}

/// A results file of `results` tables (synth's PBN) and a log holding one other session.
fn setup(dir: &Path, results: u32) -> (PathBuf, PathBuf) {
    let pbn = dir.join("big.pbn");
    let o = run_in(
        dir,
        &[
            "synth",
            "--format",
            "pbn",
            "--sections",
            &(results / 240).max(1).to_string(),
            "--tables",
            "10",
            "--boards",
            "24",
            "--rulings",
            "0",
            "--corrections",
            "0",
            "--out",
            s(&pbn),
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let log = dir.join("log.jsonl");
    let small = dir.join("small.pbn");
    let o = run_in(
        dir,
        &[
            "synth",
            "--format",
            "pbn",
            "--sections",
            "1",
            "--tables",
            "3",
            "--boards",
            "2",
            "--rulings",
            "0",
            "--corrections",
            "0",
            "--out",
            s(&small),
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(dir, &["import", s(&small), "--out", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));
    (pbn, log)
}

/// The sessions of a log (after `check`, which settles an append cut short).
fn sessions(dir: &Path, log: &Path) -> usize {
    let o = run_in(dir, &["check", s(log)]);
    assert!(o.status.success(), "the log must stay valid: {}", show(&o));
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.contains("\"type\":\"session\""))
        .count()
}

#[test]
fn an_import_killed_anywhere_is_in_the_log_whole_or_not_at_all() {
    let t = tmp("tx-kill");
    let dir = t.path();
    let (pbn, log) = setup(dir, 48_000);
    let old = std::fs::read(&log).unwrap();
    // The whole import once, timed, to aim the kills across it.
    let whole_log = dir.join("whole.jsonl");
    std::fs::copy(&log, &whole_log).unwrap();
    let start = Instant::now();
    let o = run_in(dir, &["import", s(&pbn), "--append", s(&whole_log)]);
    assert!(o.status.success(), "{}", show(&o));
    let took = start.elapsed();
    let whole = std::fs::read(&whole_log).unwrap();
    assert!(whole.len() > old.len() + 100_000);
    let (mut none, mut all) = (0, 0);
    let kills = 24;
    for i in 0..kills {
        std::fs::write(&log, &old).unwrap();
        let mut child = frekans(dir, &["import", s(&pbn), "--append", s(&log)], None)
            .spawn()
            .unwrap();
        if i % 2 == 0 {
            // From early in the reading to past the end of the write.
            std::thread::sleep(took.mul_f64(0.3 + 0.8 * i as f64 / kills as f64));
        } else {
            // Aimed at the write: as soon as the log starts growing, after a few microseconds
            // more each time.
            let start = Instant::now();
            while std::fs::metadata(&log).map_or(0, |m| m.len()) == old.len() as u64
                && child.try_wait().unwrap().is_none()
                && start.elapsed() < took * 3
            {
                std::hint::spin_loop();
            }
            std::thread::sleep(std::time::Duration::from_micros(40 * i as u64));
        }
        let _ = child.kill();
        let _ = child.wait();
        let n = sessions(dir, &log);
        let now = std::fs::read(&log).unwrap();
        // (hash chains and `at` differ between runs: compare the events' count and the bytes
        // before the import)
        assert!(now.starts_with(&old), "kill {i}: the old log altered");
        let lines = |b: &[u8]| b.iter().filter(|&&c| c == b'\n').count();
        if now.len() == old.len() {
            none += 1;
            assert_eq!(n, 1);
        } else {
            all += 1;
            assert_eq!(
                lines(&now),
                lines(&whole),
                "kill {i}: part of the import is in the log"
            );
            assert_eq!(n, 2);
        }
        // Re-running the import after the kill: the file's session once, never twice (an
        // import that landed whole is recognised by the file's digest in its session's note).
        let o = run_in(dir, &["import", s(&pbn), "--append", s(&log)]);
        assert!(o.status.success(), "{}", show(&o));
        assert_eq!(sessions(dir, &log), 2, "kill {i}: rerun after the kill");
        if now.len() != old.len() {
            assert!(
                String::from_utf8_lossy(&o.stdout).contains("already in the log"),
                "kill {i}: {}",
                show(&o)
            );
        }
    }
    assert!(
        none > 0,
        "no kill came before the write ({none} none, {all} whole)"
    );
}

/// A full disk in the middle of the import's write: exit 1, the log exactly as it was.
#[test]
fn an_import_on_a_full_disk_leaves_the_log_as_it_was() {
    let t = tmp("tx-full");
    let dir = t.path();
    let (pbn, log) = setup(dir, 2_400);
    let old = std::fs::read(&log).unwrap();
    for extra in [0u64, 100, 5_000, 50_000] {
        let o = frekans(
            dir,
            &["import", s(&pbn), "--append", s(&log)],
            Some(old.len() as u64 + extra),
        )
        .output()
        .unwrap();
        assert_eq!(o.status.code(), Some(1), "{}", show(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("cannot append"),
            "{}",
            show(&o)
        );
        assert_eq!(std::fs::read(&log).unwrap(), old, "{extra}: the log grew");
        assert!(!dir.join("log.jsonl.pending").exists());
        assert_eq!(sessions(dir, &log), 1);
    }
    // `append` of one event likewise.
    let line = r#"{"type":"championship","name":"x"}"#;
    let o = frekans(dir, &["append", s(&log), line], Some(old.len() as u64 + 10))
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(0), "{}", show(&o));
    assert_eq!(std::fs::read(&log).unwrap(), old);
}

/// `sign` on a full disk leaves LOG.sig as it was; a later sign and `check --key` work.
#[test]
fn a_checkpoint_on_a_full_disk_is_not_torn() {
    let t = tmp("tx-sig");
    let dir = t.path();
    let (_, log) = setup(dir, 240);
    let key = dir.join("k");
    let o = run_in(dir, &["sign", s(&log), "--new-key", s(&key)]);
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(dir, &["sign", s(&log), "--key", s(&key)]);
    assert!(o.status.success(), "{}", show(&o));
    let sig = dir.join("log.jsonl.sig");
    let before = std::fs::read(&sig).unwrap();
    let o = frekans(
        dir,
        &["sign", s(&log), "--key", s(&key)],
        Some(before.len() as u64 + 20),
    )
    .output()
    .unwrap();
    assert_ne!(o.status.code(), Some(0), "{}", show(&o));
    assert_eq!(
        std::fs::read(&sig).unwrap(),
        before,
        "the checkpoints file torn"
    );
    let o = run_in(dir, &["sign", s(&log), "--key", s(&key)]);
    assert!(o.status.success(), "{}", show(&o));
    let public = format!("{}.pub", s(&key));
    let o = run_in(dir, &["check", s(&log), "--key", &public]);
    assert!(o.status.success(), "{}", show(&o));
}

/// The record `event::journal` writes before a batch of `batch` after `before` bytes.
fn record(before: usize, batch: &[u8]) -> String {
    use sha2::Digest as _;
    format!(
        "frekans-pending 1 {before} {} {}\n",
        batch.len(),
        hex::encode(sha2::Sha256::digest(batch))
    )
}

/// Kill it while it writes, on purpose: a batch record left behind with part of the batch is
/// removed whole by the next reader (and `repair` says where the bytes went).
#[test]
fn a_batch_left_half_written_is_removed_by_the_next_reader() {
    let t = tmp("tx-half");
    let dir = t.path();
    let (_, log) = setup(dir, 240);
    let old = std::fs::read(&log).unwrap();
    let batch =
        b"{\"type\":\"championship\",\"name\":\"a\"}\n{\"type\":\"championship\",\"name\":\"b\"}\n";
    std::fs::write(dir.join("log.jsonl.pending"), record(old.len(), batch)).unwrap();
    let mut torn = old.clone();
    torn.extend_from_slice(&batch[..40]);
    std::fs::write(&log, &torn).unwrap();
    let o = run_in(dir, &["check", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(std::fs::read(&log).unwrap(), old);
    let side = dir.join(format!("log.jsonl.torn-at-{}", old.len()));
    assert_eq!(std::fs::read(side).unwrap(), &batch[..40], "no byte lost");
    // Same through `repair`.
    std::fs::write(dir.join("log.jsonl.pending"), record(old.len(), batch)).unwrap();
    std::fs::write(&log, &torn).unwrap();
    let o = run_in(dir, &["repair", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(std::fs::read(&log).unwrap(), old);
    assert!(!dir.join("log.jsonl.pending").exists());
}
