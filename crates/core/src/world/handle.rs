//! An open file of a world ([`Handle`]): read, written and sought as a `std::fs::File` is, with
//! the locks, syncs, length and map the log's writers and readers need. The real world's is a
//! `std::fs::File` (its reads and writes are the file's own, no copy, no lock of ours); a fake
//! world's is a [`Virtual`] file of memory.

use std::fmt::Debug;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::time::SystemTime;

/// What a file's metadata tells the callers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meta {
    pub len: u64,
    pub is_file: bool,
    pub is_dir: bool,
    /// When it was last written (`None` where the system does not say).
    pub modified: Option<SystemTime>,
    /// Whether it is a symbolic link (only ever of [`super::World::symlink_metadata`]).
    pub is_symlink: bool,
    /// Its device and inode (unix): two names of one file have the same (`None`: a fake's).
    pub file_id: Option<(u64, u64)>,
    /// Its permission bits (setgid and sticky included) and its owner and group (unix; a
    /// fake's: 0o644 or 0o755, root's).
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
}

impl Meta {
    /// The metadata `std` gives.
    pub fn of(m: &std::fs::Metadata) -> Meta {
        Meta {
            len: m.len(),
            is_file: m.is_file(),
            is_dir: m.is_dir(),
            modified: m.modified().ok(),
            is_symlink: m.file_type().is_symlink(),
            file_id: {
                use std::os::unix::fs::MetadataExt;
                Some((m.dev(), m.ino()))
            },
            mode: std::os::unix::fs::MetadataExt::mode(m) & 0o7777,
            uid: std::os::unix::fs::MetadataExt::uid(m),
            gid: std::os::unix::fs::MetadataExt::gid(m),
        }
    }
}

/// How a file is opened: `std::fs::OpenOptions`'s choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Open {
    pub read: bool,
    pub write: bool,
    pub append: bool,
    pub create: bool,
    /// Made exclusively: an error (`AlreadyExists`) if anything is at the path.
    pub create_new: bool,
    pub truncate: bool,
    /// The permissions of a file made (unix; default 0o666 less the umask).
    pub mode: Option<u32>,
    /// Opened neither through a symbolic link nor waiting on a FIFO (unix: `O_NOFOLLOW`,
    /// `O_NONBLOCK`): a name planted in a cache directory is not followed.
    pub no_follow: bool,
}

impl Open {
    /// To read.
    pub const READ: Open = Open {
        read: true,
        write: false,
        append: false,
        create: false,
        create_new: false,
        truncate: false,
        mode: None,
        no_follow: false,
    };
    /// To read and write in place.
    pub const UPDATE: Open = Open {
        write: true,
        ..Open::READ
    };
    /// To read, and write at the end.
    pub const APPEND: Open = Open {
        append: true,
        ..Open::READ
    };
    /// Made, or cut to nothing, to write.
    pub const CREATE: Open = Open {
        read: false,
        write: true,
        create: true,
        truncate: true,
        ..Open::READ
    };
    /// Made exclusively, to read and write.
    pub const CREATE_NEW_RW: Open = Open {
        read: true,
        write: true,
        create_new: true,
        ..Open::READ
    };
    /// Made exclusively, to write.
    pub const CREATE_NEW: Open = Open {
        read: false,
        write: true,
        create_new: true,
        ..Open::READ
    };

    /// These choices, a file made with permissions `mode`.
    pub const fn mode(self, mode: u32) -> Open {
        Open {
            mode: Some(mode),
            ..self
        }
    }
}

/// A file of memory, as a fake world opens it.
pub trait Virtual: Read + Write + Seek + Send + Sync + Debug {
    /// Its length.
    fn size(&self) -> io::Result<u64>;
    /// Cut or extend it to `len` bytes.
    fn set_len(&mut self, len: u64) -> io::Result<()>;
    /// Its bytes on to lasting storage.
    fn sync(&mut self) -> io::Result<()>;
    /// Take its lock (`exclusive` or shared); a fake never waits: a lock held by another
    /// handle is refused (`WouldBlock`).
    fn lock(&mut self, exclusive: bool) -> io::Result<()>;
    /// Let its lock go.
    fn unlock(&mut self) -> io::Result<()>;
    /// All its bytes.
    fn contents(&self) -> io::Result<Vec<u8>>;
    /// Its metadata.
    fn meta(&self) -> io::Result<Meta>;
}

/// An open file.
#[derive(Debug)]
pub struct Handle(Inner);

#[derive(Debug)]
enum Inner {
    Disk(std::fs::File),
    Memory(Box<dyn Virtual>),
}

impl Handle {
    /// The real file `file`.
    pub fn disk(file: std::fs::File) -> Handle {
        Handle(Inner::Disk(file))
    }

    /// The file of memory `file`.
    pub fn memory(file: Box<dyn Virtual>) -> Handle {
        Handle(Inner::Memory(file))
    }

    /// The real file, where it is one (what needs the system's own file: its status for the
    /// audit cache, a crate that writes only to a `std::fs::File`).
    pub fn as_file(&self) -> Option<&std::fs::File> {
        match &self.0 {
            Inner::Disk(f) => Some(f),
            Inner::Memory(_) => None,
        }
    }

    /// Its length.
    pub fn len(&self) -> io::Result<u64> {
        match &self.0 {
            Inner::Disk(f) => f.metadata().map(|m| m.len()),
            Inner::Memory(m) => m.size(),
        }
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> io::Result<bool> {
        self.len().map(|n| n == 0)
    }

    /// Its metadata.
    pub fn metadata(&self) -> io::Result<Meta> {
        match &self.0 {
            Inner::Disk(f) => f.metadata().map(|m| Meta::of(&m)),
            Inner::Memory(m) => m.meta(),
        }
    }

    /// A second handle of the same open file (its position shared; a fake's cannot be).
    pub fn try_clone(&self) -> io::Result<Handle> {
        match &self.0 {
            Inner::Disk(f) => f.try_clone().map(Handle::disk),
            Inner::Memory(_) => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "a fake file has one handle",
            )),
        }
    }

    /// Set its permission bits to `mode` (a fake's have none).
    pub fn set_mode(&self, mode: u32) -> io::Result<()> {
        match &self.0 {
            Inner::Disk(f) => {
                use std::os::unix::fs::PermissionsExt;
                f.set_permissions(std::fs::Permissions::from_mode(mode))
            }
            Inner::Memory(_) => Ok(()),
        }
    }

    /// Cut or extend it to `len` bytes.
    pub fn set_len(&mut self, len: u64) -> io::Result<()> {
        match &mut self.0 {
            Inner::Disk(f) => f.set_len(len),
            Inner::Memory(m) => m.set_len(len),
        }
    }

    /// Its bytes and metadata on to lasting storage (`fsync`).
    pub fn sync_all(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Inner::Disk(f) => f.sync_all(),
            Inner::Memory(m) => m.sync(),
        }
    }

    /// Its exclusive lock, waited for (a fake's refused when held).
    pub fn lock(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Inner::Disk(f) => f.lock(),
            Inner::Memory(m) => m.lock(true),
        }
    }

    /// Its shared lock, waited for (a fake's refused when held exclusively).
    pub fn lock_shared(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Inner::Disk(f) => f.lock_shared(),
            Inner::Memory(m) => m.lock(false),
        }
    }

    /// Its exclusive lock, if no one holds a lock of it now.
    pub fn try_lock(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Inner::Disk(f) => f.try_lock().map_err(try_lock_error),
            Inner::Memory(m) => m.lock(true),
        }
    }

    /// Its shared lock, if no one holds its exclusive lock now.
    pub fn try_lock_shared(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Inner::Disk(f) => f.try_lock_shared().map_err(try_lock_error),
            Inner::Memory(m) => m.lock(false),
        }
    }

    /// Let its lock go (also let go when it is closed).
    pub fn unlock(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Inner::Disk(f) => f.unlock(),
            Inner::Memory(m) => m.unlock(),
        }
    }

    /// Its bytes as they are now: a real file mapped read-only (not read: a log of hundreds of
    /// megabytes is paged in as it is read, and let go behind, [`Map::let_go`]), a fake's
    /// copied.
    ///
    /// The caller holds a lock that keeps the file from being cut or rewritten in place while
    /// the map lives (frekans's writers only append past its end, or lock it exclusively).
    pub fn map(&self) -> io::Result<Map> {
        match &self.0 {
            // SAFETY: read-only; the caller's lock keeps the mapped bytes as they are (above).
            Inner::Disk(f) => unsafe { memmap2::Mmap::map(f) }.map(Map::Mapped),
            Inner::Memory(m) => m.contents().map(Map::Owned),
        }
    }
}

impl Handle {
    /// [`Handle::map`] with its pages read in at once (`MAP_POPULATE`): bytes about to be read
    /// whole, as they lie in the page cache.
    pub fn map_populated(&self) -> io::Result<Map> {
        match &self.0 {
            // SAFETY: read-only; the caller keeps the mapped bytes as they are (see `map`).
            Inner::Disk(f) => {
                unsafe { memmap2::MmapOptions::new().populate().map(f) }.map(Map::Mapped)
            }
            Inner::Memory(m) => m.contents().map(Map::Owned),
        }
    }
}

/// A refused `try_lock` as an `io::Error` (`WouldBlock` when another holds the lock).
fn try_lock_error(e: std::fs::TryLockError) -> io::Error {
    match e {
        std::fs::TryLockError::Error(e) => e,
        std::fs::TryLockError::WouldBlock => io::ErrorKind::WouldBlock.into(),
    }
}

/// A file's bytes, as [`Handle::map`] gives them.
#[derive(Debug)]
pub enum Map {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Map {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Map::Mapped(m) => m,
            Map::Owned(b) => b,
        }
    }
}

impl Map {
    /// The pages of `from..from + len` let go (read again from the file should anything look
    /// at them): a reader that has passed them.
    pub fn let_go(&self, from: usize, len: usize) {
        if let Map::Mapped(m) = self {
            // SAFETY: a read-only map of a file kept as it is (see `Handle::map`): the pages
            // are read again from the file should anything look at them again.
            let _ =
                unsafe { m.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, from, len) };
        }
    }
}

macro_rules! each {
    ($self:ident, $f:ident => $e:expr) => {
        match &mut $self.0 {
            Inner::Disk($f) => $e,
            Inner::Memory($f) => $e,
        }
    };
}

impl Read for Handle {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        each!(self, f => f.read(buf))
    }
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        each!(self, f => f.read_to_end(buf))
    }
}

impl Write for Handle {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        each!(self, f => f.write(buf))
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        each!(self, f => f.write_all(buf))
    }
    fn flush(&mut self) -> io::Result<()> {
        each!(self, f => f.flush())
    }
}

impl Seek for Handle {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        each!(self, f => f.seek(pos))
    }
}
