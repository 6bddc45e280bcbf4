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
pub mod tmp;

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
    /// (`world::tmp::create_tmp_dir`).
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
    /// The names in a directory, sorted, each with whether it is itself a directory (not a
    /// link to one): a walk of a tree without a `stat` of each name.
    fn entries(&self, dir: &Path) -> io::Result<Vec<(OsString, bool)>>;
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
    /// `path` with every link and `.`/`..` resolved (it must exist).
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf>;
    /// What the symbolic link `path` points to.
    fn read_link(&self, path: &Path) -> io::Result<PathBuf>;
    /// Make the symbolic link `link` pointing to `target`.
    fn symlink(&self, target: &Path, link: &Path) -> io::Result<()>;
    /// Copy the regular file `from`'s bytes and permissions to `to`.
    fn copy(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Set `path`'s permission bits (setgid and sticky included) to `mode`.
    fn set_mode(&self, path: &Path, mode: u32) -> io::Result<()>;
    /// Give `path` (itself, not a link's target) the owner `uid` and group `gid` (`None`:
    /// unchanged).
    fn lchown(&self, path: &Path, uid: Option<u32>, gid: Option<u32>) -> io::Result<()>;
    /// `path`'s own extended attributes (ACLs among them), names and values, those that could
    /// be read (none where the system has none).
    fn xattrs(&self, path: &Path) -> io::Result<Vec<(Vec<u8>, Vec<u8>)>>;
    /// Set `path`'s own extended attribute `name` to `value`.
    fn set_xattr(&self, path: &Path, name: &[u8], value: &[u8]) -> io::Result<()>;
    /// Everything written to the file system `dir` is on to lasting storage (Linux's
    /// `syncfs`; `Unsupported` elsewhere, where the caller syncs file by file).
    fn sync_fs(&self, dir: &Path) -> io::Result<()>;
    /// Exchange `from` and `to` (both there) in one step (`renameat2(RENAME_EXCHANGE)`);
    /// `Unsupported` where the system or file system cannot (the caller renames twice).
    fn rename_exchange(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Whether `path` is the root of a mount (a bind mount included).
    fn is_mount_point(&self, path: &Path) -> bool;
    /// The working directory.
    fn current_dir(&self) -> io::Result<PathBuf>;
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
        tmp::create_tmp_dir(self, parent, what).map_err(|e| io::Error::other(format!("{e:#}")))
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
    fn entries(&self, dir: &Path) -> io::Result<Vec<(OsString, bool)>> {
        let mut all = std::fs::read_dir(dir)?
            .map(|e| {
                let e = e?;
                Ok((e.file_name(), e.file_type()?.is_dir()))
            })
            .collect::<io::Result<Vec<_>>>()?;
        all.sort();
        Ok(all)
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
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }
    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::read_link(path)
    }
    fn symlink(&self, target: &Path, link: &Path) -> io::Result<()> {
        std::os::unix::fs::symlink(target, link)
    }
    fn copy(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::copy(from, to).map(|_| ())
    }
    fn set_mode(&self, path: &Path, mode: u32) -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    }
    fn lchown(&self, path: &Path, uid: Option<u32>, gid: Option<u32>) -> io::Result<()> {
        std::os::unix::fs::lchown(path, uid, gid)
    }
    fn xattrs(&self, path: &Path) -> io::Result<Vec<(Vec<u8>, Vec<u8>)>> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{lgetxattr, llistxattr};
            let mut names = vec![0u8; 1 << 16];
            let n = llistxattr(path, &mut names[..])?;
            let mut value = vec![0u8; 1 << 16];
            let mut all = Vec::new();
            for name in names[..n].split(|b| *b == 0).filter(|s| !s.is_empty()) {
                if let Ok(len) = lgetxattr(path, name, &mut value[..]) {
                    all.push((name.to_vec(), value[..len].to_vec()));
                }
            }
            Ok(all)
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = path;
            Ok(Vec::new())
        }
    }
    fn set_xattr(&self, path: &Path, name: &[u8], value: &[u8]) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            Ok(rustix::fs::lsetxattr(
                path,
                name,
                value,
                rustix::fs::XattrFlags::empty(),
            )?)
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (path, name, value);
            Err(io::ErrorKind::Unsupported.into())
        }
    }
    fn sync_fs(&self, dir: &Path) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            Ok(rustix::fs::syncfs(&std::fs::File::open(dir)?)?)
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = dir;
            Err(io::ErrorKind::Unsupported.into())
        }
    }
    fn rename_exchange(&self, from: &Path, to: &Path) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{renameat_with, RenameFlags, CWD};
            use rustix::io::Errno;
            match renameat_with(CWD, from, CWD, to, RenameFlags::EXCHANGE) {
                Ok(()) => Ok(()),
                Err(e) if [Errno::INVAL, Errno::NOSYS, Errno::OPNOTSUPP].contains(&e) => Err(
                    io::Error::new(io::ErrorKind::Unsupported, io::Error::from(e)),
                ),
                Err(e) => Err(e.into()),
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (from, to);
            Err(io::ErrorKind::Unsupported.into())
        }
    }
    fn is_mount_point(&self, path: &Path) -> bool {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{statx, AtFlags, StatxAttributes, StatxFlags, CWD};
            let flags = AtFlags::SYMLINK_NOFOLLOW | AtFlags::NO_AUTOMOUNT;
            if let Ok(s) = statx(CWD, path, flags, StatxFlags::empty()) {
                if s.stx_attributes_mask.contains(StatxAttributes::MOUNT_ROOT) {
                    return s.stx_attributes.contains(StatxAttributes::MOUNT_ROOT);
                }
            }
        }
        use std::os::unix::fs::MetadataExt;
        match (
            std::fs::symlink_metadata(path),
            path.parent().map(std::fs::metadata),
        ) {
            (Ok(m), Some(Ok(p))) => m.dev() != p.dev(),
            _ => false,
        }
    }
    fn current_dir(&self) -> io::Result<PathBuf> {
        std::env::current_dir()
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
