//! Appends as transactions: before a batch of lines is written to a file that is only ever
//! appended to (the log, its `.sig` checkpoints), the file's length before the batch and the
//! batch's length and SHA-256 are recorded in `FILE.pending` (written and synced first); the
//! batch is written and synced; the record is removed. A write that fails cuts the file back to
//! its length before the batch. A process killed (or a machine stopped) in between leaves the
//! record behind: whoever next takes the file's exclusive lock ([`recover`]: every append,
//! `repair`; [`settle`]: every command that reads the log, before it reads) finds it and either
//! keeps the batch, when the file holds exactly the recorded bytes after the recorded length,
//! or moves whatever follows that length to `FILE.torn-at-<length>` (no byte is deleted) and cuts
//! the file back. A batch is thus in the file whole or not at all, whatever the instant of the
//! kill. A record that is itself torn was never followed by a write (the batch is written only
//! once the record is synced) and is removed.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::world::{Handle, Open, World};

use sha2::{Digest, Sha256};

/// The record of the batch being appended to `file`.
pub fn path_of(file: &Path) -> PathBuf {
    let mut name = file
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".pending");
    file.with_file_name(name)
}

fn sync_dir(world: &dyn World, file: &Path) {
    let _ = world.sync_dir(&crate::outfile::parent_of(file));
}

fn hex_sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Write `batch` at the end of `file` (open for writing, its exclusive lock held; `path` its
/// name) as one transaction: recorded, written, synced, the record removed. On an error the
/// file is cut back to its length before the batch and the record removed.
pub fn append_batch(
    world: &dyn World,
    file: &mut Handle,
    path: &Path,
    batch: &[u8],
) -> std::io::Result<()> {
    let before = file.seek(SeekFrom::End(0))?;
    let record = path_of(path);
    let begun = (|| {
        let mut r = world.open_file(&record, Open::CREATE)?;
        writeln!(
            r,
            "frekans-pending 1 {before} {} {}",
            batch.len(),
            hex_sha256(batch)
        )?;
        r.sync_all()?;
        sync_dir(world, path);
        Ok(())
    })();
    if let Err(e) = begun {
        // (nothing was written to the file yet)
        let _ = world.remove_file(&record);
        return Err(e);
    }
    let written = file.write_all(batch).and_then(|()| file.sync_all());
    if let Err(e) = written {
        let cut = file.set_len(before).and_then(|()| file.sync_all());
        if cut.is_ok() {
            let _ = world.remove_file(&record);
            sync_dir(world, path);
        }
        // (a cut that failed leaves the record: the next to open the file cuts it back)
        return Err(e);
    }
    world.remove_file(&record)?;
    sync_dir(world, path);
    Ok(())
}

/// What [`recover`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settled {
    /// No interrupted batch.
    Clean,
    /// The interrupted batch was whole in the file: kept.
    Kept,
    /// The interrupted batch's `bytes` that were in the file were moved to `side` and the file
    /// cut back to `length`.
    Removed {
        side: PathBuf,
        bytes: u64,
        length: u64,
    },
}

/// Settle an interrupted batch of `file` (`path` its name; open for reading and writing, its
/// exclusive lock held).
pub fn recover(world: &dyn World, file: &mut Handle, path: &Path) -> std::io::Result<Settled> {
    let record = path_of(path);
    let text = match world.read(&record) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Settled::Clean),
        Err(e) => return Err(e),
    };
    let fields: Vec<&str> = std::str::from_utf8(&text)
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let parsed = match fields.as_slice() {
        ["frekans-pending", "1", before, n, sha] if text.ends_with(b"\n") => before
            .parse::<u64>()
            .ok()
            .zip(n.parse::<u64>().ok())
            .map(|(b, n)| (b, n, *sha)),
        _ => None,
    };
    let Some((before, n, sha)) = parsed else {
        // A torn record: the batch was never begun.
        world.remove_file(&record)?;
        sync_dir(world, path);
        return Ok(Settled::Clean);
    };
    let len = file.len()?;
    if len <= before {
        world.remove_file(&record)?;
        sync_dir(world, path);
        return Ok(Settled::Clean);
    }
    let mut tail = Vec::with_capacity((len - before) as usize);
    file.seek(SeekFrom::Start(before))?;
    file.read_to_end(&mut tail)?;
    if tail.len() as u64 == n && hex_sha256(&tail) == sha {
        world.remove_file(&record)?;
        sync_dir(world, path);
        return Ok(Settled::Kept);
    }
    // Part of a batch (or more than it): moved aside whole, the file cut back.
    let side = side_file(world, path, &format!("at-{before}"), &tail)?;
    sync_dir(world, path);
    file.set_len(before)?;
    file.sync_all()?;
    world.remove_file(&record)?;
    sync_dir(world, path);
    Ok(Settled::Removed {
        side,
        bytes: tail.len() as u64,
        length: before,
    })
}

/// `FILE.torn-<tag>` (or `-1`, `-2`... when taken) holding `bytes`, synced.
pub(crate) fn side_file(
    world: &dyn World,
    path: &Path,
    tag: &str,
    bytes: &[u8],
) -> std::io::Result<PathBuf> {
    let mut n = 0;
    loop {
        let name = format!(
            "{}.torn-{tag}{}",
            path.file_name()
                .map(|f| f.to_string_lossy().to_string())
                .unwrap_or_default(),
            if n == 0 {
                String::new()
            } else {
                format!("-{n}")
            }
        );
        let p = path.with_file_name(name);
        match world.open_file(&p, Open::CREATE_NEW) {
            Ok(mut f) => {
                f.write_all(bytes)?;
                f.sync_all()?;
                return Ok(p);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Before a file is read: an interrupted batch settled ([`recover`]) under the file's
/// exclusive lock, taken only when a record is there (an append under way holds the lock: this
/// waits for it, and finds its record gone).
pub fn settle(world: &dyn World, path: &Path) -> std::io::Result<Settled> {
    if world.metadata(&path_of(path)).is_err() {
        return Ok(Settled::Clean);
    }
    let mut file = world.open_file(path, Open::UPDATE)?;
    file.lock()?;
    let r = recover(world, &mut file, path);
    let _ = file.unlock();
    r
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;
    use crate::world::Real;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("frekans-journal-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn open(p: &Path) -> Handle {
        Real.open_file(p, Open::UPDATE).unwrap()
    }

    #[test]
    fn a_whole_batch_is_written_and_leaves_no_record() {
        let d = scratch("whole");
        let p = d.join("log.jsonl");
        std::fs::write(&p, b"a\n").unwrap();
        append_batch(&Real, &mut open(&p), &p, b"b\nc\n").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"a\nb\nc\n");
        assert!(!path_of(&p).exists());
        assert_eq!(settle(&Real, &p).unwrap(), Settled::Clean);
        let _ = std::fs::remove_dir_all(&d);
    }

    /// Every instant of a kill: the record written, then any prefix of the batch.
    #[test]
    fn a_batch_cut_anywhere_is_removed_whole_and_a_whole_one_kept() {
        let d = scratch("cut");
        let p = d.join("log.jsonl");
        let batch = b"{\"x\":1}\n{\"x\":2}\n";
        for k in 0..=batch.len() {
            std::fs::write(&p, b"old\n").unwrap();
            std::fs::write(
                path_of(&p),
                format!(
                    "frekans-pending 1 4 {} {}\n",
                    batch.len(),
                    hex_sha256(batch)
                ),
            )
            .unwrap();
            let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
            f.write_all(&batch[..k]).unwrap();
            drop(f);
            let s = settle(&Real, &p).unwrap();
            let now = std::fs::read(&p).unwrap();
            if k == batch.len() {
                assert_eq!(s, Settled::Kept);
                assert_eq!(now, [&b"old\n"[..], batch].concat());
            } else if k == 0 {
                assert_eq!(s, Settled::Clean);
                assert_eq!(now, b"old\n");
            } else {
                let Settled::Removed {
                    side,
                    bytes,
                    length,
                } = s
                else {
                    panic!("{k}: {s:?}")
                };
                assert_eq!((bytes, length), (k as u64, 4));
                assert_eq!(std::fs::read(&side).unwrap(), &batch[..k], "no byte lost");
                std::fs::remove_file(side).unwrap();
                assert_eq!(now, b"old\n");
            }
            assert!(!path_of(&p).exists());
        }
        // A torn record: the batch never begun.
        std::fs::write(&p, b"old\n").unwrap();
        std::fs::write(path_of(&p), b"frekans-pending 1 4").unwrap();
        assert_eq!(settle(&Real, &p).unwrap(), Settled::Clean);
        assert_eq!(std::fs::read(&p).unwrap(), b"old\n");
        let _ = std::fs::remove_dir_all(&d);
    }
}
