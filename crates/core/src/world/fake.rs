//! A world of memory for tests: files and directories in a map, a clock that moves only when
//! told ([`Fake::advance`]), the environment given, and programs that are closures over the
//! arguments, the input and the fake's own files (a fake `typst` writes its PDF there).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Output};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use super::handle::{Handle, Meta, Open, Virtual};
use super::World;

/// A fake program: given its arguments, its input and the files, it answers as a process would.
pub type Program = Arc<
    dyn Fn(&[OsString], Option<&[u8]>, &Files) -> io::Result<Output>
        + Send
        + Sync
        + RefUnwindSafe
        + UnwindSafe,
>;

/// The fake's files and directories.
#[derive(Debug, Default)]
pub struct Files {
    files: Mutex<BTreeMap<PathBuf, (Vec<u8>, SystemTime)>>,
    dirs: Mutex<BTreeSet<PathBuf>>,
    /// The locks held: of each path, the handles (by number) that hold one, and whether
    /// exclusively.
    locks: Mutex<BTreeMap<PathBuf, Vec<(u64, bool)>>>,
    /// What fails: an operation (`"sync"`, `"write"`, `"rename"`, `"hard_link"`, `"open"`,
    /// `"sync_dir"`, `"sync_fs"`, `"copy"`) on a path.
    fails: Mutex<BTreeSet<(String, PathBuf)>>,
    handles: std::sync::atomic::AtomicU64,
}

impl Files {
    /// The bytes of the file at `path`, if there is one.
    pub fn get(&self, path: &Path) -> Option<Vec<u8>> {
        self.files.lock().unwrap().get(path).map(|(b, _)| b.clone())
    }

    /// Put a file (its parents made).
    pub fn put(&self, path: &Path, bytes: &[u8], at: SystemTime) {
        if let Some(p) = path.parent() {
            self.mkdirs(p);
        }
        self.files
            .lock()
            .unwrap()
            .insert(path.to_path_buf(), (bytes.to_vec(), at));
    }

    fn mkdirs(&self, path: &Path) {
        let mut d = self.dirs.lock().unwrap();
        for a in path.ancestors() {
            if !a.as_os_str().is_empty() {
                d.insert(a.to_path_buf());
            }
        }
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.dirs.lock().unwrap().contains(path)
    }

    /// An error if `op` on `path` is to fail.
    fn check(&self, op: &str, path: &Path) -> io::Result<()> {
        if self
            .fails
            .lock()
            .unwrap()
            .contains(&(op.to_string(), path.to_path_buf()))
        {
            return Err(io::Error::other(format!(
                "{op} {}: failed (as the fake world was told)",
                path.display()
            )));
        }
        Ok(())
    }

    /// Every path held, files and directories.
    pub fn paths(&self) -> Vec<PathBuf> {
        let mut all: Vec<PathBuf> = self.files.lock().unwrap().keys().cloned().collect();
        all.extend(self.dirs.lock().unwrap().iter().cloned());
        all.sort();
        all
    }
}

/// A world of memory.
pub struct Fake {
    now: Mutex<SystemTime>,
    vars: BTreeMap<String, OsString>,
    programs: BTreeMap<PathBuf, Program>,
    tmp: PathBuf,
    counter: Mutex<u64>,
    /// Its files.
    pub files: Arc<Files>,
    /// Every program run: its path and arguments, in order.
    pub runs: Mutex<Vec<(PathBuf, Vec<OsString>)>>,
}

impl fmt::Debug for Fake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fake")
            .field("now", &self.now)
            .field("vars", &self.vars)
            .field("programs", &self.programs.keys().collect::<Vec<_>>())
            .field("files", &self.files)
            .finish()
    }
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("{}: No such file or directory", path.display()),
    )
}

/// An exit status of code `code` (as `wait` reports a normal exit).
pub fn exit_status(code: i32) -> ExitStatus {
    std::os::unix::process::ExitStatusExt::from_raw(code << 8)
}

/// A program's answer: `code`, and what it printed.
pub fn output(code: i32, stdout: &[u8], stderr: &[u8]) -> io::Result<Output> {
    Ok(Output {
        status: exit_status(code),
        stdout: stdout.to_vec(),
        stderr: stderr.to_vec(),
    })
}

impl Fake {
    /// A world at `now` with no files, no variables and no programs; its temporary directory
    /// `/tmp` (there).
    pub fn at(now: SystemTime) -> Fake {
        let f = Fake {
            now: Mutex::new(now),
            vars: BTreeMap::new(),
            programs: BTreeMap::new(),
            tmp: PathBuf::from("/tmp"),
            counter: Mutex::new(0),
            files: Arc::default(),
            runs: Mutex::new(Vec::new()),
        };
        f.files.mkdirs(Path::new("/tmp"));
        f
    }

    /// With the variable `key` set to `value`.
    pub fn env(mut self, key: &str, value: &str) -> Fake {
        self.vars.insert(key.to_string(), value.into());
        self
    }

    /// With the program at `path` answering as `run` does.
    pub fn program(
        mut self,
        path: impl Into<PathBuf>,
        run: impl Fn(&[OsString], Option<&[u8]>, &Files) -> io::Result<Output>
            + Send
            + Sync
            + RefUnwindSafe
            + UnwindSafe
            + 'static,
    ) -> Fake {
        self.programs.insert(path.into(), Arc::new(run));
        self
    }

    /// With the file at `path` holding `bytes`.
    pub fn file(self, path: impl AsRef<Path>, bytes: &[u8]) -> Fake {
        let now = *self.now.lock().unwrap();
        self.files.put(path.as_ref(), bytes, now);
        self
    }

    /// Make `op` (`"sync"`, `"write"`, `"rename"`, `"hard_link"`, `"open"`, `"sync_dir"`) on
    /// `path` fail from now on.
    pub fn fail(&self, op: &str, path: impl AsRef<Path>) {
        self.files
            .fails
            .lock()
            .unwrap()
            .insert((op.to_string(), path.as_ref().to_path_buf()));
    }

    /// Make `op` on `path` succeed again (as [`Fake::fail`] was told).
    pub fn mend(&self, op: &str, path: impl AsRef<Path>) {
        self.files
            .fails
            .lock()
            .unwrap()
            .remove(&(op.to_string(), path.as_ref().to_path_buf()));
    }

    /// Whether a handle holds a lock of `path`.
    pub fn locked(&self, path: impl AsRef<Path>) -> bool {
        self.files
            .locks
            .lock()
            .unwrap()
            .get(path.as_ref())
            .is_some_and(|l| !l.is_empty())
    }

    /// Move the clock on by `by` (no sleep).
    pub fn advance(&self, by: Duration) {
        *self.now.lock().unwrap() += by;
    }
}

impl World for Fake {
    fn now(&self) -> SystemTime {
        *self.now.lock().unwrap()
    }
    fn var(&self, key: &str) -> Option<OsString> {
        self.vars.get(key).cloned()
    }
    fn temp_dir(&self) -> PathBuf {
        self.tmp.clone()
    }
    fn current_exe(&self) -> io::Result<PathBuf> {
        Err(not_found(Path::new("the fake world's executable")))
    }
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.files.get(path).ok_or_else(|| not_found(path))
    }
    fn open(&self, path: &Path) -> io::Result<Box<dyn io::BufRead + Send>> {
        Ok(Box::new(io::Cursor::new(self.read(path)?)))
    }
    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        match path.parent() {
            Some(p) if !p.as_os_str().is_empty() && !self.files.is_dir(p) => Err(not_found(p)),
            _ => {
                self.files.put(path, bytes, self.now());
                Ok(())
            }
        }
    }
    fn create_dir(&self, path: &Path) -> io::Result<()> {
        if self.files.is_dir(path) || self.files.get(path).is_some() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{}: File exists", path.display()),
            ));
        }
        self.create_dir_all(path)
    }
    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        self.files.mkdirs(path);
        Ok(())
    }
    fn create_tmp_dir(&self, parent: &Path, what: &str) -> io::Result<PathBuf> {
        let mut n = self.counter.lock().unwrap();
        *n += 1;
        let p = parent.join(format!(".frekans-tmp.{what}-{n}"));
        self.create_dir(&p)?;
        Ok(p)
    }
    fn remove_file(&self, path: &Path) -> io::Result<()> {
        match self.files.files.lock().unwrap().remove(path) {
            Some(_) => Ok(()),
            None => Err(not_found(path)),
        }
    }
    fn remove_dir(&self, path: &Path) -> io::Result<()> {
        if self.files.paths().iter().any(|p| p.parent() == Some(path)) {
            return Err(io::Error::new(
                io::ErrorKind::DirectoryNotEmpty,
                format!("{}: Directory not empty", path.display()),
            ));
        }
        match self.files.dirs.lock().unwrap().remove(path) {
            true => Ok(()),
            false => Err(not_found(path)),
        }
    }
    fn remove_dir_all(&self, path: &Path) -> io::Result<()> {
        if !self.files.is_dir(path) {
            return Err(not_found(path));
        }
        self.files
            .files
            .lock()
            .unwrap()
            .retain(|p, _| !p.starts_with(path));
        self.files
            .dirs
            .lock()
            .unwrap()
            .retain(|p| !p.starts_with(path));
        Ok(())
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.files.check("rename", from)?;
        let bytes = self.read(from)?;
        self.remove_file(from)?;
        self.files.put(to, &bytes, self.now());
        Ok(())
    }
    fn list(&self, dir: &Path) -> io::Result<Vec<OsString>> {
        if !self.files.is_dir(dir) {
            return Err(not_found(dir));
        }
        let mut names: Vec<OsString> = self
            .files
            .paths()
            .iter()
            .filter(|p| p.parent() == Some(dir))
            .filter_map(|p| p.file_name().map(OsStr::to_os_string))
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }
    fn entries(&self, dir: &Path) -> io::Result<Vec<(OsString, bool)>> {
        Ok(self
            .list(dir)?
            .into_iter()
            .map(|n| {
                let d = self.files.is_dir(&dir.join(&n));
                (n, d)
            })
            .collect())
    }
    fn metadata(&self, path: &Path) -> io::Result<Meta> {
        if let Some((b, at)) = self.files.files.lock().unwrap().get(path) {
            return Ok(Meta {
                len: b.len() as u64,
                is_file: true,
                is_dir: false,
                modified: Some(*at),
                is_symlink: false,
                file_id: None,
                mode: 0o644,
                uid: 0,
                gid: 0,
            });
        }
        if self.files.is_dir(path) {
            return Ok(Meta {
                len: 0,
                is_file: false,
                is_dir: true,
                modified: None,
                is_symlink: false,
                file_id: None,
                mode: 0o755,
                uid: 0,
                gid: 0,
            });
        }
        Err(not_found(path))
    }
    fn symlink_metadata(&self, path: &Path) -> io::Result<Meta> {
        self.metadata(path)
    }
    fn open_file(&self, path: &Path, how: Open) -> io::Result<Handle> {
        self.files.check("open", path)?;
        let there = self.files.get(path).is_some();
        if how.create_new && (there || self.files.is_dir(path)) {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{}: File exists", path.display()),
            ));
        }
        if !there {
            if !(how.create || how.create_new) {
                return Err(not_found(path));
            }
            self.write(path, b"")?;
        } else if how.truncate {
            self.files.put(path, b"", self.now());
        }
        Ok(Handle::memory(Box::new(MemFile {
            files: self.files.clone(),
            path: path.to_path_buf(),
            pos: 0,
            how,
            id: self
                .files
                .handles
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            at: self.now(),
        })))
    }
    fn hard_link(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.files.check("hard_link", from)?;
        if self.files.get(to).is_some() || self.files.is_dir(to) {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{}: File exists", to.display()),
            ));
        }
        // (a copy: the fake's files are not shared between names)
        let bytes = self.read(from)?;
        self.write(to, &bytes)
    }
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.files.check("sync_dir", dir)
    }
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        // (the fake has no links: a path that is there is its own)
        self.metadata(path).map(|_| path.to_path_buf())
    }
    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        self.metadata(path)?;
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a symbolic link", path.display()),
        ))
    }
    fn symlink(&self, _target: &Path, link: &Path) -> io::Result<()> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("{}: the fake world has no links", link.display()),
        ))
    }
    fn copy(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.files.check("copy", from)?;
        let bytes = self.read(from)?;
        self.write(to, &bytes)
    }
    fn set_mode(&self, path: &Path, _mode: u32) -> io::Result<()> {
        self.metadata(path).map(|_| ())
    }
    fn lchown(&self, path: &Path, _uid: Option<u32>, _gid: Option<u32>) -> io::Result<()> {
        self.metadata(path).map(|_| ())
    }
    fn xattrs(&self, path: &Path) -> io::Result<Vec<(Vec<u8>, Vec<u8>)>> {
        self.metadata(path).map(|_| Vec::new())
    }
    fn set_xattr(&self, path: &Path, _name: &[u8], _value: &[u8]) -> io::Result<()> {
        self.metadata(path).map(|_| ())
    }
    fn sync_fs(&self, dir: &Path) -> io::Result<()> {
        self.files.check("sync_fs", dir)
    }
    fn rename_exchange(&self, _from: &Path, _to: &Path) -> io::Result<()> {
        Err(io::ErrorKind::Unsupported.into())
    }
    fn is_mount_point(&self, _path: &Path) -> bool {
        false
    }
    fn current_dir(&self) -> io::Result<PathBuf> {
        Ok(PathBuf::from("/"))
    }
    fn run(&self, program: &Path, args: &[&OsStr], stdin: Option<&[u8]>) -> io::Result<Output> {
        let args: Vec<OsString> = args.iter().map(|a| a.to_os_string()).collect();
        self.runs
            .lock()
            .unwrap()
            .push((program.to_path_buf(), args.clone()));
        match self.programs.get(program) {
            Some(p) => p(&args, stdin, &self.files),
            None => Err(io::Error::new(
                io::ErrorKind::NotFound,
                "No such file or directory (os error 2)",
            )),
        }
    }
}

/// A fake world's open file: read and written in its files' map at once (its writes are
/// there for every reader before a sync; a sync fails only when told to).
#[derive(Debug)]
struct MemFile {
    files: Arc<Files>,
    path: PathBuf,
    pos: u64,
    how: Open,
    id: u64,
    at: SystemTime,
}

impl MemFile {
    /// `f` of its bytes (`written`: its modification time moved to the handle's).
    fn with<T>(&self, written: bool, f: impl FnOnce(&mut Vec<u8>) -> T) -> io::Result<T> {
        let mut files = self.files.files.lock().unwrap();
        let (bytes, at) = files
            .get_mut(&self.path)
            .ok_or_else(|| not_found(&self.path))?;
        if written {
            *at = (*at).max(self.at);
        }
        Ok(f(bytes))
    }
}

impl io::Read for MemFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.how.read {
            return Err(io::Error::other("not open for reading"));
        }
        let pos = self.pos as usize;
        let n = self.with(false, |b| {
            let from = pos.min(b.len());
            let n = buf.len().min(b.len() - from);
            buf[..n].copy_from_slice(&b[from..from + n]);
            n
        })?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl io::Write for MemFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !(self.how.write || self.how.append) {
            return Err(io::Error::other("not open for writing"));
        }
        self.files.check("write", &self.path)?;
        let (append, pos) = (self.how.append, self.pos as usize);
        let end = self.with(true, |b| {
            let at = if append { b.len() } else { pos };
            if b.len() < at + buf.len() {
                b.resize(at + buf.len(), 0);
            }
            b[at..at + buf.len()].copy_from_slice(buf);
            at + buf.len()
        })?;
        self.pos = end as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl io::Seek for MemFile {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        let len = self.size()?;
        let to = match pos {
            io::SeekFrom::Start(n) => Some(n),
            io::SeekFrom::End(d) => len.checked_add_signed(d),
            io::SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = to.ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
        Ok(self.pos)
    }
}

impl Virtual for MemFile {
    fn size(&self) -> io::Result<u64> {
        self.with(false, |b| b.len() as u64)
    }
    fn set_len(&mut self, len: u64) -> io::Result<()> {
        self.with(true, |b| b.resize(len as usize, 0))
    }
    fn sync(&mut self) -> io::Result<()> {
        self.files.check("sync", &self.path)
    }
    fn lock(&mut self, exclusive: bool) -> io::Result<()> {
        self.files.check("lock", &self.path)?;
        let mut locks = self.files.locks.lock().unwrap();
        let held = locks.entry(self.path.clone()).or_default();
        held.retain(|&(id, _)| id != self.id);
        if held.iter().any(|&(_, x)| x || exclusive) {
            return Err(io::Error::new(
                io::ErrorKind::WouldBlock,
                format!("{}: locked by another", self.path.display()),
            ));
        }
        held.push((self.id, exclusive));
        Ok(())
    }
    fn unlock(&mut self) -> io::Result<()> {
        if let Some(held) = self.files.locks.lock().unwrap().get_mut(&self.path) {
            held.retain(|&(id, _)| id != self.id);
        }
        Ok(())
    }
    fn contents(&self) -> io::Result<Vec<u8>> {
        self.with(false, |b| b.clone())
    }
    fn meta(&self) -> io::Result<Meta> {
        let len = self.size()?;
        Ok(Meta {
            len,
            is_file: true,
            is_dir: false,
            modified: Some(self.at),
            is_symlink: false,
            file_id: None,
            mode: 0o644,
            uid: 0,
            gid: 0,
        })
    }
}

impl Drop for MemFile {
    fn drop(&mut self) {
        let _ = Virtual::unlock(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fake_world_keeps_its_files_and_its_clock() {
        let t = std::time::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let w = Fake::at(t).env("HOME", "/home/td").file("/d/a", b"x");
        assert_eq!(w.read(Path::new("/d/a")).unwrap(), b"x");
        assert!(w.write(Path::new("/nowhere/b"), b"y").is_err());
        w.write(Path::new("/d/b"), b"y").unwrap();
        assert_eq!(w.list(Path::new("/d")).unwrap(), ["a", "b"]);
        w.advance(Duration::from_secs(5));
        assert_eq!(w.now(), t + Duration::from_secs(5));
        assert_eq!(w.var("HOME").unwrap(), "/home/td");
        let d = w.create_tmp_dir(Path::new("/tmp"), "x").unwrap();
        w.write(&d.join("f"), b"z").unwrap();
        w.remove_dir_all(&d).unwrap();
        assert!(!w.files.paths().iter().any(|p| p.starts_with(&d)));
        let w = w.program("/bin/t", |a, _, _| output(3, b"", a[0].as_encoded_bytes()));
        let out = w
            .run(Path::new("/bin/t"), &[OsStr::new("e")], None)
            .unwrap();
        assert_eq!((out.status.code(), &out.stderr[..]), (Some(3), &b"e"[..]));
        assert!(w.run(Path::new("/bin/none"), &[], None).is_err());
    }
}
