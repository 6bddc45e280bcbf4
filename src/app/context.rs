//! What a command takes from outside the program — the clock, the environment, the machine —
//! read once here, when `main` builds the [`Context`] from a [`World`] (the real one; a test's
//! fake), and handed down as plain values and that world: nothing below `app` reads the clock
//! or an environment variable, or runs a program but through the world it is given, so every
//! stage can be run (and tested) with any time, cache directory or renderer.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use crate::world::World;

/// The outside world of one command.
#[derive(Clone, Debug)]
pub struct Context {
    /// The world the command runs in: files, programs, the clock ([`crate::world::Real`] in
    /// the binary).
    pub world: Arc<dyn World>,
    /// When the command started: the `at` of every event it appends ([`Context::at`]) and the
    /// time the audit cache's status records are dated against.
    pub now: SystemTime,
    /// The audit cache's directory (`FREKANS_AUDIT_CACHE`, else the user's cache directory);
    /// `None` with `--no-cache` or where none can be named.
    pub cache: Option<PathBuf>,
    /// Worker threads (`--threads`; default: one per core).
    pub threads: Option<usize>,
    /// Draw progress bars (a terminal, and neither `--quiet` nor `-v`).
    pub progress: bool,
    /// How the bulletin is rendered.
    pub typst: Typst,
    /// The largest log read ([`crate::limits::MAX_LOG_BYTES`], or `FREKANS_MAX_LOG_MIB` MiB).
    pub max_log_bytes: u64,
    /// A variable of the environment set to what frekans cannot take (`FREKANS_MAX_LOG_MIB=abc`),
    /// and why: `main` refuses to run with it (exit 2) rather than ignore it.
    pub invalid: Option<BadLogLimit>,
    /// The build of the running program, which the audit caches it writes and reads are of
    /// (`audit::cache::Store`): its executable's size and modification time (empty where they
    /// cannot be read).
    pub build: String,
}

pub use crate::report::Typst;

/// The variables of the environment a context reads.
type Env<'a> = &'a dyn Fn(&str) -> Option<std::ffi::OsString>;

impl Context {
    /// The context of this process: the system clock now, the process's environment.
    pub fn from_process(no_cache: bool, typst_flag: Option<&Path>) -> Context {
        Context::of(Arc::new(crate::world::Real), no_cache, typst_flag)
    }

    /// The context of `world`: its clock now, its environment, its running build.
    pub fn of(world: Arc<dyn World>, no_cache: bool, typst_flag: Option<&Path>) -> Context {
        let env = |k: &str| world.var(k);
        let set = |k: &str| env(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let cache = if no_cache {
            None
        } else {
            set("FREKANS_AUDIT_CACHE")
                .or_else(|| set("XDG_CACHE_HOME").map(|d| d.join("frekans").join("audit")))
                .or_else(|| set("HOME").map(|d| d.join(".cache").join("frekans").join("audit")))
        };
        let (max_log_bytes, invalid) = match max_log_bytes(&env) {
            Ok(n) => (n, None),
            Err(e) => (crate::limits::MAX_LOG_BYTES, Some(e)),
        };
        let epoch = env("SOURCE_DATE_EPOCH")
            .and_then(|v| v.into_string().ok())
            .unwrap_or_else(|| "0".to_string());
        Context {
            now: world.now(),
            cache,
            threads: None,
            progress: false,
            typst: Typst {
                program: find_typst(&*world, typst_flag),
                epoch,
                tmp: world.temp_dir(),
            },
            max_log_bytes,
            invalid,
            build: running_build(&*world),
            world,
        }
    }

    /// [`Context::now`] as the log writes times: RFC 3339 UTC to the second.
    pub fn at(&self) -> String {
        let secs = self
            .now
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        crate::event::append::rfc3339(secs)
    }

    /// This context for a command given `--no-cache` (no cache directory) and `--typst` (that
    /// program).
    pub fn for_command(&self, no_cache: bool, typst: Option<&Path>) -> Context {
        let mut c = self.clone();
        if no_cache {
            c.cache = None;
        }
        if let Some(p) = typst {
            c.typst.program = Some(p.to_path_buf());
        }
        c
    }

    /// The audit cache's directory, if any.
    pub fn cache(&self) -> Option<&Path> {
        self.cache.as_deref()
    }

    /// The audit cache's directory as this build keeps it, if any.
    pub fn audit_cache(&self) -> Option<crate::audit::cache::Store<'_>> {
        self.cache
            .as_deref()
            .map(|dir| crate::audit::cache::Store::new(dir, &self.build).with_clock(&self.world))
    }

    /// Set up the machine as the context says: the worker threads, the progress bars and the
    /// largest log read.
    pub fn install(&self) -> Result<(), NotInstalled> {
        crate::progress::enable(self.progress);
        LOG_LIMIT.store(self.max_log_bytes, std::sync::atomic::Ordering::Relaxed);
        if let Some(n) = self.threads {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build_global()
                .map_err(|e| NotInstalled::Threads(n, e.to_string()))?;
        }
        Ok(())
    }
}

/// Why the machine cannot be set up as a context says ([`Context::install`]).
#[derive(Debug)]
pub enum NotInstalled {
    /// The threads asked for, and what rayon said.
    Threads(usize, String),
}

impl std::fmt::Display for NotInstalled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotInstalled::Threads(n, e) => write!(f, "cannot set up {n} threads: {e}"),
        }
    }
}

impl std::error::Error for NotInstalled {}

/// A `FREKANS_MAX_LOG_MIB` that is not a whole number of MiB, at least 1 (its text, clipped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLogLimit(pub String);

impl std::fmt::Display for BadLogLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "FREKANS_MAX_LOG_MIB={:?}: expected the size of the largest log frekans reads, in MiB (a whole number, at least 1; unset: {})",
            self.0,
            crate::limits::MAX_LOG_BYTES >> 20
        )
    }
}

impl std::error::Error for BadLogLimit {}

/// The largest log read: [`crate::limits::MAX_LOG_BYTES`], or `FREKANS_MAX_LOG_MIB` MiB (set
/// and not empty); `Err` (what is wrong) when that is not a whole number of MiB, at least 1.
fn max_log_bytes(env: Env) -> Result<u64, BadLogLimit> {
    let Some(v) = env("FREKANS_MAX_LOG_MIB").filter(|v| !v.is_empty()) else {
        return Ok(crate::limits::MAX_LOG_BYTES);
    };
    let text = v.to_string_lossy();
    match text.trim().parse::<u64>() {
        Ok(m) if m > 0 => Ok(m.saturating_mul(1 << 20)),
        _ => Err(BadLogLimit(crate::error::clip(&text))),
    }
}

/// The largest log `app`'s readers take, as the command's [`Context`] says
/// ([`Context::install`] sets it; a library caller that installs none gets
/// [`crate::limits::MAX_LOG_BYTES`]).
static LOG_LIMIT: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(crate::limits::MAX_LOG_BYTES);

/// [`Context::max_log_bytes`] of the context installed, for `app`'s readers of a log that are
/// not given one (a library caller's `load`).
pub(crate) fn log_limit() -> u64 {
    LOG_LIMIT.load(std::sync::atomic::Ordering::Relaxed)
}

/// The running program's build: its executable's size and modification time, as
/// `SIZE:NANOSECONDS` (empty where they cannot be read).
fn running_build(world: &dyn World) -> String {
    match world.current_exe().and_then(|p| world.metadata(&p)) {
        Ok(m) => {
            let t = m
                .modified
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("{}:{t}", m.len)
        }
        Err(_) => String::new(),
    }
}

/// Find the `typst` program: the flag, `FREKANS_TYPST`, `PATH`, then the project's tools cache
/// (`$FREKANS_CACHE/tools/bin`, default `~/.cache/frekans/tools/bin`, where `scripts/env.sh`
/// installs it).
fn find_typst(world: &dyn World, flag: Option<&Path>) -> Option<PathBuf> {
    let env = |k: &str| world.var(k);
    if let Some(p) = flag {
        return Some(p.to_path_buf());
    }
    if let Some(p) = env("FREKANS_TYPST") {
        return Some(PathBuf::from(p));
    }
    if let Some(path) = env("PATH") {
        for dir in std::env::split_paths(&path) {
            let c = dir.join("typst");
            if world.is_file(&c) {
                return Some(c);
            }
        }
    }
    let cache = env("FREKANS_CACHE")
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|h| PathBuf::from(h).join(".cache/frekans")));
    cache
        .map(|c| c.join("tools/bin/typst"))
        .filter(|p| world.is_file(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> Context {
        let mut w = crate::world::Fake::at(
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000),
        );
        for (k, v) in vars {
            w = w.env(k, v);
        }
        Context::of(Arc::new(w), false, None)
    }

    #[test]
    fn the_environment_is_read_here_and_only_as_given() {
        let c = with(&[
            ("FREKANS_AUDIT_CACHE", "/c"),
            ("FREKANS_MAX_LOG_MIB", "3"),
            ("SOURCE_DATE_EPOCH", "42"),
            ("FREKANS_TYPST", "/bin/typst-x"),
        ]);
        assert_eq!(c.cache(), Some(Path::new("/c")));
        assert_eq!(c.max_log_bytes, 3 << 20);
        assert_eq!(c.typst.epoch, "42");
        assert_eq!(c.typst.program.as_deref(), Some(Path::new("/bin/typst-x")));
        assert_eq!(c.at(), "2027-01-15T08:00:00Z");
        let d = with(&[("HOME", "/home/td"), ("XDG_CACHE_HOME", "")]);
        assert_eq!(d.cache(), Some(Path::new("/home/td/.cache/frekans/audit")));
        assert_eq!(d.max_log_bytes, crate::limits::MAX_LOG_BYTES);
        assert_eq!(d.typst.epoch, "0");
        assert!(d.typst.program.is_none());
        assert!(with(&[]).cache().is_none());
        assert!(c.invalid.is_none() && d.invalid.is_none());
    }

    /// Issue 34: `FREKANS_MAX_LOG_MIB=abc` was ignored silently.
    #[test]
    fn a_log_limit_that_is_no_number_is_refused() {
        for bad in ["abc", "12x", "-1", "0", "1.5", " "] {
            let c = with(&[("FREKANS_MAX_LOG_MIB", bad)]);
            let e = c.invalid.expect(bad).to_string();
            assert!(
                e.starts_with("FREKANS_MAX_LOG_MIB=") && e.contains("in MiB"),
                "{e}"
            );
            assert_eq!(c.max_log_bytes, crate::limits::MAX_LOG_BYTES);
        }
        let c = with(&[("FREKANS_MAX_LOG_MIB", " 7 ")]);
        assert_eq!((c.max_log_bytes, c.invalid), (7 << 20, None));
        assert!(with(&[("FREKANS_MAX_LOG_MIB", "")]).invalid.is_none());
    }
}
