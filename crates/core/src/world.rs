//! The outside world, behind one interface (as typst's `World`): the clock, the environment,
//! files and the programs frekans runs (`typst`, mdbtools' `mdb-tables` and `mdb-export`).
//! [`Real`] is the one implementation that touches the machine (the only code of the library
//! that calls `std::fs`, `std::process`, `std::env` or the system clock; `clippy.toml`'s
//! `disallowed-methods` keeps them out of everything else); the binary's `main` builds it into
//! `app::Context`, which carries it into the library's calls. [`Fake`] is a world of memory for
//! tests where the real program is not the point: files in a map, a clock that stands still,
//! programs that are closures.
//!
//! Its methods are called a few times per file or per program run, never per line: a log is
//! read through the one `BufRead` [`World::open`] gives.
#![allow(clippy::disallowed_methods)]

pub mod fake;
pub mod handle;

use std::ffi::{OsStr, OsString};
use std::fmt::Debug;
use std::io::{self, BufRead, Write};
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::SystemTime;

pub use fake::Fake;
pub use handle::{Handle, Map, Meta, Open};

/// The clock, the environment, files and processes of one run (shared by threads, and by a
/// caller that catches a reader's panic).
pub trait World: Debug + Send + Sync + RefUnwindSafe + UnwindSafe {
    /// The time now.
    fn now(&self) -> SystemTime;
    /// A variable of the environment (`None`: unset).
    fn var(&self, key: &str) -> Option<OsString>;
    /// The system's temporary directory.
    fn temp_dir(&self) -> PathBuf;
    /// The running program's executable.
    fn current_exe(&self) -> io::Result<PathBuf>;

    /// A whole file's bytes.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// A file to read streamed.
    fn open(&self, path: &Path) -> io::Result<Box<dyn BufRead + Send>>;
    /// Write `bytes` as the file at `path` (made or truncated).
    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()>;
    /// Make the directory `path`, exclusively (an error if it is there).
    fn create_dir(&self, path: &Path) -> io::Result<()>;
    /// Make the directory `path` and its missing parents.
    fn create_dir_all(&self, path: &Path) -> io::Result<()>;
    /// A fresh directory of a unique name in `parent`, made exclusively (never one planted in
    /// a shared temporary directory); the real world clears stale ones of killed runs
    /// (`outfile::create_tmp_dir`).
    fn create_tmp_dir(&self, parent: &Path, what: &str) -> io::Result<PathBuf>;
    /// Remove a file.
    fn remove_file(&self, path: &Path) -> io::Result<()>;
    /// Remove an empty directory.
    fn remove_dir(&self, path: &Path) -> io::Result<()>;
    /// Remove a directory and all it holds.
    fn remove_dir_all(&self, path: &Path) -> io::Result<()>;
    /// Rename `from` to `to` (atomically, on one file system), replacing a file at `to`.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// The names in a directory, sorted.
    fn list(&self, dir: &Path) -> io::Result<Vec<OsString>>;
    /// A path's metadata, following links.
    fn metadata(&self, path: &Path) -> io::Result<Meta>;
    /// A path's own metadata (a link's, not its target's).
    fn symlink_metadata(&self, path: &Path) -> io::Result<Meta>;
    /// Open the file at `path` as `how` says.
    fn open_file(&self, path: &Path, how: Open) -> io::Result<Handle>;
    /// A second name `to` for the file `from` (an error if `to` is there).
    fn hard_link(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// The directory `dir`'s entries on to lasting storage (after a file in it was made,
    /// renamed or removed: `fsync` of the directory).
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
    /// Whether `path` is a file.
    fn is_file(&self, path: &Path) -> bool {
        self.metadata(path).is_ok_and(|m| m.is_file)
    }

    /// Run `program` with `args` (never through a shell), `stdin` on its standard input
    /// (none: nothing), and wait for it: its status and what it printed.
    fn run(&self, program: &Path, args: &[&OsStr], stdin: Option<&[u8]>) -> io::Result<Output>;
}

/// The machine itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct Real;

/// The real world, for callers that are given none (a library caller's default).
pub static REAL: Real = Real;

impl World for Real {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
    fn var(&self, key: &str) -> Option<OsString> {
        std::env::var_os(key)
    }
    fn temp_dir(&self) -> PathBuf {
        std::env::temp_dir()
    }
    fn current_exe(&self) -> io::Result<PathBuf> {
        std::env::current_exe()
    }
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }
    fn open(&self, path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
        Ok(Box::new(io::BufReader::with_capacity(
            1 << 20,
            std::fs::File::open(path)?,
        )))
    }
    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        std::fs::write(path, bytes)
    }
    fn create_dir(&self, path: &Path) -> io::Result<()> {
        std::fs::create_dir(path)
    }
    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        std::fs::create_dir_all(path)
    }
    fn create_tmp_dir(&self, parent: &Path, what: &str) -> io::Result<PathBuf> {
        crate::outfile::create_tmp_dir(parent, what).map_err(|e| io::Error::other(format!("{e:#}")))
    }
    fn remove_file(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }
    fn remove_dir(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_dir(path)
    }
    fn remove_dir_all(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_dir_all(path)
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }
    fn list(&self, dir: &Path) -> io::Result<Vec<OsString>> {
        let mut names = std::fs::read_dir(dir)?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<io::Result<Vec<_>>>()?;
        names.sort();
        Ok(names)
    }
    fn metadata(&self, path: &Path) -> io::Result<Meta> {
        std::fs::metadata(path).map(|m| Meta::of(&m))
    }
    fn symlink_metadata(&self, path: &Path) -> io::Result<Meta> {
        std::fs::symlink_metadata(path).map(|m| Meta::of(&m))
    }
    fn open_file(&self, path: &Path, how: Open) -> io::Result<Handle> {
        let mut o = std::fs::OpenOptions::new();
        o.read(how.read)
            .write(how.write)
            .append(how.append)
            .create(how.create)
            .create_new(how.create_new)
            .truncate(how.truncate);
        if let Some(mode) = how.mode {
            std::os::unix::fs::OpenOptionsExt::mode(&mut o, mode);
        }
        if how.no_follow {
            std::os::unix::fs::OpenOptionsExt::custom_flags(
                &mut o,
                libc::O_NONBLOCK | libc::O_NOFOLLOW,
            );
        }
        o.open(path).map(Handle::disk)
    }
    fn hard_link(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::hard_link(from, to)
    }
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        // (a bare file name's parent is empty: the working directory)
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        std::fs::File::open(dir)?.sync_all()
    }
    fn run(&self, program: &Path, args: &[&OsStr], stdin: Option<&[u8]>) -> io::Result<Output> {
        let mut cmd = std::process::Command::new(program);
        cmd.args(args);
        let Some(input) = stdin else {
            return cmd.output();
        };
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let mut pipe = child.stdin.take().expect("a piped stdin");
        // (written on its own thread: a child that prints before it reads all its input would
        // otherwise wait on a full stdout pipe while we wait on its full stdin)
        let input = input.to_vec();
        let writer = std::thread::spawn(move || pipe.write_all(&input));
        let out = child.wait_with_output()?;
        let _ = writer.join();
        Ok(out)
    }
}
