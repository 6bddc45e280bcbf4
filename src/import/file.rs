//! An import's files read whole into memory, and its big transient values freed aside.
//!
//! A championship's USEBIO file is hundreds of MB. Read by `std::fs::read` into the
//! allocator's memory, a 476 MB file took 1.3–1.5 s of its import (each fresh 4 KiB page
//! faulted in on its own: the process runs without transparent huge pages, see `main`), its
//! longest serial step. A big file is read instead into an anonymous mapping of its size,
//! populated by the kernel in one call, by positioned reads (`pread`) of chunks on rayon's
//! threads: 0.3–0.4 s. The file itself is not mapped: a file truncated by another program while
//! mapped would kill the import with SIGBUS instead of an error. A file whose length changes
//! while it is read is read again the one way (`std::fs::read`), which reads to its end as it
//! then stands.

use std::path::Path;

/// Files at least this big are read in parallel chunks into a mapping.
const PARALLEL_FROM: u64 = 64 << 20;
/// The chunk each positioned read fills.
const CHUNK: usize = 8 << 20;

/// A file's bytes: in the allocator's memory, or (a big file) in a mapping of their own.
pub(super) enum Bytes {
    Vec(Vec<u8>),
    Map(memmap2::MmapMut),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Vec(v) => v,
            Bytes::Map(m) => m,
        }
    }
}

/// The file's bytes (as `std::fs::read` gives them, and its errors).
pub(super) fn read(path: &Path) -> std::io::Result<Bytes> {
    #[cfg(unix)]
    {
        let file = std::fs::File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_file() && meta.len() >= PARALLEL_FROM {
            if let Some(bytes) = read_chunks(&file, meta.len(), CHUNK)? {
                return Ok(Bytes::Map(bytes));
            }
        }
    }
    std::fs::read(path).map(Bytes::Vec)
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
        assert_eq!(&*read(&path).unwrap(), &data[..]);
        std::fs::remove_file(&path).unwrap();
    }
}
