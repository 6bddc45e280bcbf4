//! An import's files read whole into memory, and its big transient values freed aside.
//!
//! A championship's USEBIO file is hundreds of MB. Read by `std::fs::read` into the
//! allocator's memory, a 476 MB file took 1.3–1.5 s of its import (each fresh 4 KiB page
//! faulted in on its own: the process runs without transparent huge pages, see `main`), its
//! longest serial step. A big file is read instead into an anonymous mapping of its size,
//! populated by the kernel in one call, by positioned reads (`pread`) of chunks on rayon's
//! threads: 0.3–0.4 s. The file itself is not mapped: a file truncated by another program while
//! mapped would kill the import with SIGBUS instead of an error. A file whose length changes
//! while it is read is read again the one way, which reads to its end as it then stands.
//!
//! No file of more than [`crate::limits::MAX_IMPORT_BYTES`] is read: a regular file's length
//! is checked before a byte is read, anything else (a pipe, `/dev/zero`) is read up to the
//! limit and refused there.

use std::path::Path;

use crate::world::{Open, World, REAL};

/// Files at least this big are read in parallel chunks into a mapping.
const PARALLEL_FROM: u64 = 64 << 20;
/// The chunk each positioned read fills.
const CHUNK: usize = 8 << 20;

/// A file's bytes: in the allocator's memory, or (a big file) in a mapping of their own, or
/// the first bytes of a mapping (a big file of no known length).
pub(super) enum Bytes {
    Vec(Vec<u8>),
    Map(memmap2::MmapMut),
    Part(memmap2::MmapMut, usize),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Vec(v) => v,
            Bytes::Map(m) => m,
            Bytes::Part(m, n) => &m[..*n],
        }
    }
}

/// The file's bytes (as `std::fs::read` gives them, and its errors), named `name` in messages:
/// at most [`crate::limits::MAX_IMPORT_BYTES`], longer files refused (exit 2).
pub(super) fn read(path: &Path, name: &str) -> Result<Bytes, super::ImportError> {
    read_within(path, name, crate::limits::MAX_IMPORT_BYTES)
}

/// [`read`] with the limit `limit`.
fn read_within(path: &Path, name: &str, limit: u64) -> Result<Bytes, super::ImportError> {
    let io = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::InvalidData {
            super::ImportError::Invalid(vec![super::Problem {
                file: name.to_string(),
                at: "file".into(),
                message: e.to_string(),
            }])
        } else {
            super::ImportError::Io(crate::error::Failed::Io {
                what: format!("cannot read {name}"),
                source: e,
            })
        }
    };
    let what = "the file";
    let how = " to import (split it, or import its sessions' files one by one)";
    #[cfg(unix)]
    {
        let file = REAL.open_file(path, Open::READ).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if meta.is_file && meta.len > limit {
            return Err(io(crate::limits::too_long(
                what,
                Some(meta.len),
                limit,
                how,
            )));
        }
        if let Some(f) = file
            .as_file()
            .filter(|_| meta.is_file && meta.len >= PARALLEL_FROM)
        {
            if let Some(bytes) = read_chunks(f, meta.len, CHUNK).map_err(io)? {
                return Ok(Bytes::Map(bytes));
            }
        }
        if !meta.is_file {
            return match read_unknown(file, limit, what, how).map_err(io)? {
                Some(bytes) => Ok(bytes),
                None => Err(io(crate::limits::too_long(what, None, limit, how))),
            };
        }
    }
    crate::limits::read_file_bounded(&REAL, path, limit, what, how)
        .map(Bytes::Vec)
        .map_err(io)
}

/// A file of no known length (a pipe, `/dev/zero`) read to its end into an anonymous mapping
/// of `limit` and a byte, whose memory is only the pages read (no buffer grown and copied, whose
/// freed copies the import's allocator keeps: `/dev/zero` peaked at twice the limit so); `None`
/// when it holds more than `limit`. What is small is copied out of the mapping. (Without room
/// for the mapping, in a process whose address space is capped: read into a buffer grown to
/// the limit, `crate::limits::read_bounded`.)
#[cfg(unix)]
fn read_unknown(
    mut file: crate::world::Handle,
    limit: u64,
    what: &str,
    how: &str,
) -> std::io::Result<Option<Bytes>> {
    use std::io::Read;
    let grown = |file| match crate::limits::read_bounded(file, 0, limit, what, how) {
        Ok(v) => Ok(Some(Bytes::Vec(v))),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Ok(None),
        Err(e) => Err(e),
    };
    let Some(mut m) = usize::try_from(limit.saturating_add(1))
        .ok()
        .and_then(|cap| memmap2::MmapOptions::new().len(cap).map_anon().ok())
    else {
        return grown(file);
    };
    let cap = m.len();
    let mut n = 0;
    while n < cap {
        match file.read(&mut m[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if n as u64 > limit {
        return Ok(None);
    }
    Ok(Some(if (n as u64) < PARALLEL_FROM {
        Bytes::Vec(m[..n].to_vec())
    } else {
        Bytes::Part(m, n)
    }))
}

/// The `len` bytes of `file` read in chunks of `chunk` in parallel; `None` when the file is no
/// longer `len` bytes long (it changed meanwhile).
#[cfg(unix)]
fn read_chunks(
    file: &std::fs::File,
    len: u64,
    chunk: usize,
) -> std::io::Result<Option<memmap2::MmapMut>> {
    use rayon::prelude::*;
    use std::os::unix::fs::FileExt;
    let Ok(n) = usize::try_from(len) else {
        return Ok(None);
    };
    if n == 0 {
        return Ok(None);
    }
    let mut bytes = memmap2::MmapOptions::new().len(n).populate().map_anon()?;
    let read = bytes
        .par_chunks_mut(chunk)
        .enumerate()
        .try_for_each(|(i, c)| file.read_exact_at(c, (i * chunk) as u64));
    match read {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let mut more = [0u8; 1];
    if file.read_at(&mut more, len)? != 0 {
        return Ok(None);
    }
    Ok(Some(bytes))
}

/// `value` dropped on a thread of its own: a file's bytes or its element tree (millions of
/// allocations) freed while the import goes on.
pub(super) fn drop_aside<T: Send + 'static>(value: T) {
    if std::thread::Builder::new()
        .name("import-free".into())
        .spawn(move || drop(value))
        .is_err()
    {
        // (no thread to be had: the value was moved into the closure the failed spawn
        // dropped, here)
    }
}

#[cfg(all(test, unix))]
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    /// Read in chunks of every size, a file gives the bytes `std::fs::read` gives; a file
    /// shorter or longer than the length asked is `None` (read again the one way).
    #[test]
    fn chunks_read_the_file_whole() {
        let path = std::env::temp_dir().join(format!("frekans-chunks-{}", std::process::id()));
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &data).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        for chunk in [1, 3, 7, 64, 999, 1000, 4096] {
            let got = read_chunks(&file, 1000, chunk).unwrap();
            assert_eq!(got.as_deref(), Some(&data[..]), "chunk {chunk}");
        }
        assert!(read_chunks(&file, 1001, 64).unwrap().is_none(), "shorter");
        assert!(read_chunks(&file, 999, 64).unwrap().is_none(), "longer");
        assert_eq!(&*read(&path, "x").unwrap(), &data[..]);
        std::fs::remove_file(&path).unwrap();
    }

    /// A file over the limit is refused (a problem of the file: exit 2) before it is read, a
    /// regular one by its length, an endless one where the limit is reached.
    #[test]
    fn files_over_the_limit_are_refused() {
        let path = std::env::temp_dir().join(format!("frekans-limit-{}", std::process::id()));
        std::fs::write(&path, [b'x'; 100]).unwrap();
        assert_eq!(read_within(&path, "f", 100).unwrap().len(), 100);
        let Err(super::super::ImportError::Invalid(p)) = read_within(&path, "f", 99) else {
            panic!("read")
        };
        assert!(p[0].message.contains("100 bytes long"), "{p:?}");
        std::fs::remove_file(&path).unwrap();
        let Err(super::super::ImportError::Invalid(p)) =
            read_within(Path::new("/dev/zero"), "/dev/zero", 1 << 20)
        else {
            panic!("read")
        };
        assert!(p[0].message.contains("longer than 1 MiB"), "{p:?}");
        // (a pipe: what it holds, under the limit)
        let mut child = std::process::Command::new("printf")
            .arg("a,b\\n1,2\\n")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let fd = std::os::fd::OwnedFd::from(out);
        let bytes = read_unknown(
            crate::world::Handle::disk(std::fs::File::from(fd)),
            100,
            "",
            "",
        )
        .unwrap()
        .unwrap();
        child.wait().unwrap();
        assert_eq!(&*bytes, b"a,b\n1,2\n");
    }
}
