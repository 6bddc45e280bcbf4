//! Scratch directories and frekans runs of the CLI tests that work in a directory of their own.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Run frekans in `dir` with a cache directory of its own (inside `dir`).
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .current_dir(dir)
        .env_remove("FREKANS_LOG")
        .env("FREKANS_AUDIT_CACHE", dir.join(".cache-audit"))
        .output()
        .expect("run frekans")
}

/// A run's status and output, for assertion messages.
pub fn show(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A fresh directory under the system's temporary directory, removed when dropped.
pub struct Tmp(PathBuf);

impl Tmp {
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A new scratch directory named by `tag`, the process and a counter.
pub fn tmp(tag: &str) -> Tmp {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let p = std::env::temp_dir().join(format!("frekans-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    // (canonical: a symlinked temporary directory would confuse the symlink tests)
    Tmp(std::fs::canonicalize(&p).unwrap())
}
