//! `frekans repair`: a log whose last line is incomplete (power lost mid-write) gets its torn
//! tail moved to a side file next to it (`LOG.torn-<seconds>`), never deleting a byte; the log
//! then ends at its last complete line. A last line that is complete but lacks its newline
//! gets the newline.
// Not yet behind the seam (`world`): this file's own reads and writes of files (locks, syncs,
// exclusive creation, links) still call std (ARCHITECTURE.md lists them).
#![allow(clippy::disallowed_methods)]

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq)]
pub enum Repaired {
    /// Nothing to do: the log ends with a complete line.
    Clean,
    /// The last line was a whole event without its newline: the newline was added.
    NewlineAdded,
    /// The torn tail (`bytes` long) was moved to `side`.
    TailMoved {
        side: PathBuf,
        bytes: usize,
        line: usize,
    },
}

fn sync_dir(path: &Path) {
    // (a bare file name is in the working directory: `.` is synced then)
    if let Ok(d) = File::open(crate::outfile::parent_of(path)) {
        let _ = d.sync_all();
    }
}

pub fn repair(path: &Path, now_secs: u64) -> std::io::Result<Repaired> {
    let mut file = OpenOptions::new().read(true).write(true).open(path)?;
    file.lock()?;
    // An append cut short: its batch removed whole (or kept whole), before anything else.
    if let super::journal::Settled::Removed {
        side,
        bytes,
        length,
    } = super::journal::recover(&mut file, path)?
    {
        let line = std::fs::read(path)?
            .iter()
            .take(length as usize)
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        let _ = file.unlock();
        return Ok(Repaired::TailMoved {
            side,
            bytes: bytes as usize,
            line,
        });
    }
    let bytes = std::fs::read(path)?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(Repaired::Clean);
    }
    let cut = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let tail = &bytes[cut..];
    let line = bytes[..cut].iter().filter(|&&b| b == b'\n').count() + 1;
    if super::json::parse_slice(tail).is_ok_and(|v| v.is_object()) {
        let mut f = OpenOptions::new().append(true).open(path)?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        return Ok(Repaired::NewlineAdded);
    }
    // Save the tail first (synced), then cut the log.
    let side = super::journal::side_file(path, &now_secs.to_string(), tail)?;
    sync_dir(path);
    file.set_len(cut as u64)?;
    file.sync_all()?;
    let _ = file.unlock();
    Ok(Repaired::TailMoved {
        side,
        bytes: tail.len(),
        line,
    })
}
