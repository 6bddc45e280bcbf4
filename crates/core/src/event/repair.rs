//! `frekans repair`: a log whose last line is incomplete (power lost mid-write) gets its torn
//! tail moved to a side file next to it (`LOG.torn-<seconds>`), never deleting a byte; the log
//! then ends at its last complete line. A last line that is complete but lacks its newline
//! gets the newline.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::world::{Open, World};

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

fn sync_dir(world: &dyn World, path: &Path) {
    // (a bare file name is in the working directory: `.` is synced then)
    let _ = world.sync_dir(&crate::outfile::parent_of(path));
}

/// Repair the log at `path` in `world` (`now_secs` names a torn tail's side file).
pub fn repair(world: &dyn World, path: &Path, now_secs: u64) -> std::io::Result<Repaired> {
    let mut file = world.open_file(path, Open::UPDATE)?;
    file.lock()?;
    // An append cut short: its batch removed whole (or kept whole), before anything else.
    if let super::journal::Settled::Removed {
        side,
        bytes,
        length,
    } = super::journal::recover(world, &mut file, path)?
    {
        let line = world
            .read(path)?
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
    let bytes = world.read(path)?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(Repaired::Clean);
    }
    let cut = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let tail = &bytes[cut..];
    let line = bytes[..cut].iter().filter(|&&b| b == b'\n').count() + 1;
    if super::json::parse_slice(tail).is_ok_and(|v| v.is_object()) {
        let mut f = world.open_file(
            path,
            Open {
                read: false,
                ..Open::APPEND
            },
        )?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        return Ok(Repaired::NewlineAdded);
    }
    // Save the tail first (synced), then cut the log.
    let side = super::journal::side_file(world, path, &now_secs.to_string(), tail)?;
    sync_dir(world, path);
    file.set_len(cut as u64)?;
    file.sync_all()?;
    let _ = file.unlock();
    Ok(Repaired::TailMoved {
        side,
        bytes: tail.len(),
        line,
    })
}
