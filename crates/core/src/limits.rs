//! The documented limits on what frekans takes in (README, "Limits"; `--help`): a log of at
//! most [`MAX_LOG_BYTES`] (4 GiB unless `FREKANS_MAX_LOG_MIB` says otherwise, which
//! `app::Context` reads), an event given
//! to `append` of at most [`MAX_EVENT_BYTES`] (an event line's own limit), and at most
//! [`MAX_THREADS`] worker threads; a file `import` reads of at most [`MAX_IMPORT_BYTES`], a
//! USEBIO file's elements nested at most [`MAX_XML_DEPTH`] deep, a spreadsheet's row of at most
//! [`MAX_CSV_ROW_BYTES`]; a key file of at most [`MAX_KEY_BYTES`], a head file of at most
//! [`MAX_HEAD_BYTES`] and a `.sig` file of at most [`MAX_SIG_BYTES`] (docs/interop.md,
//! docs/integrity.md). Each is enforced while reading, so an endless input (`/dev/zero`, a
//! runaway pipe) stops there with a message instead of growing until the machine runs out of
//! memory; a regular file's length is checked before it is read at all.

use std::io::Read;

/// The largest log read, unless `FREKANS_MAX_LOG_MIB` sets another (in MiB): 4 GiB, some 20
/// million results (a million-result log is about 200 MB).
pub const MAX_LOG_BYTES: u64 = 4 << 30;

/// The largest event `append` takes (from its argument or standard input): one event line's
/// limit, 1 MiB.
pub const MAX_EVENT_BYTES: u64 = crate::event::read::MAX_LINE as u64;

/// The most worker threads `--threads` sets.
pub const MAX_THREADS: usize = 1024;

/// The largest file `import` reads (PBN, USEBIO, CSV, BWS): 1 GiB. The biggest file measured,
/// a 476 MB USEBIO championship of a million traveller lines, peaks at about 2 GB while
/// imported (`git show be4e385:docs/benchmarks.md`); a club's file is kilobytes, a national championship's
/// megabytes. Twice the biggest measured, and a quarter of the log's own limit.
pub const MAX_IMPORT_BYTES: u64 = 1 << 30;

/// How deep a USEBIO file's elements may nest: 32. A real file nests 8 at most
/// (`USEBIO/EVENT/SESSION/SECTION/PARTICIPANTS/PAIR/PLAYER/PLAYER_NAME`); each element of the
/// tree keeps its path, so nesting without a bound made memory grow with its square.
pub const MAX_XML_DEPTH: usize = 32;

/// The longest row of a spreadsheet import (one table's traveller line, its physical lines
/// together when a quoted cell holds a line break): 64 KiB, a thousand times a real row.
pub const MAX_CSV_ROW_BYTES: usize = 64 << 10;

/// The largest key file (`sign --key`, `check --key`): 64 KiB. A key file is one line of 87
/// bytes (`frekans-ed25519-secret` and 64 hex digits).
pub const MAX_KEY_BYTES: u64 = 64 << 10;

/// The largest head file (`check --head-file`): 64 KiB. A head is one line of some 90 bytes
/// (`check`'s `head: N HASH`).
pub const MAX_HEAD_BYTES: u64 = 64 << 10;

/// The largest checkpoint file (`LOG.sig`, read by `check --key`): 64 MiB, some 250,000
/// checkpoints of 240 bytes (a log signed every hour for 28 years).
pub const MAX_SIG_BYTES: u64 = 64 << 20;

/// The file at `path` read whole, failing (`ErrorKind::InvalidData`, the message naming the
/// file as `what` and the limit) when it holds more than `limit` bytes: a regular file's
/// length is checked before a byte is read; anything else (a pipe, `/dev/zero`) is read up to
/// the limit and no further, in a buffer that never grows past it.
pub fn read_file_bounded(
    world: &dyn crate::world::World,
    path: &std::path::Path,
    limit: u64,
    what: &str,
    how: &str,
) -> std::io::Result<Vec<u8>> {
    let file = world.open_file(path, crate::world::Open::READ)?;
    let meta = file.metadata()?;
    if meta.is_file && meta.len > limit {
        return Err(too_long(what, Some(meta.len), limit, how));
    }
    read_bounded(
        file,
        if meta.is_file { meta.len } else { 0 },
        limit,
        what,
        how,
    )
}

/// The error of an input longer than `limit` (`len`, when known).
pub fn too_long(what: &str, len: Option<u64>, limit: u64, how: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "{what} is {}longer than {} ({limit} bytes), the most frekans reads{how}",
            len.map(|n| format!("{n} bytes long, ")).unwrap_or_default(),
            human(limit)
        ),
    )
}

/// Read `r` to its end, failing once more than `limit` bytes came (`what` names the input and
/// `how` says how to raise the limit, in the message). `size` is what the input is expected to
/// hold (a file's length; 0 when unknown): the buffer is made that big at once, as `fs::read`
/// does, so a big log is not copied through doubling buffers (a 256 MiB log peaked at 777 MiB
/// with them, against 704 MiB allowed by `tests/hostile.rs`).
pub fn read_bounded(
    r: impl Read,
    size: u64,
    limit: u64,
    what: &str,
    how: &str,
) -> std::io::Result<Vec<u8>> {
    let cap = limit.saturating_add(1);
    let mut bytes = Vec::with_capacity(size.min(limit).saturating_add(1) as usize);
    let mut r = r.take(cap);
    loop {
        if bytes.len() == bytes.capacity() {
            // (grown by doubling, but never past the limit and a byte: an endless input of a
            // 1 GiB limit stops at 1 GiB, its last growth from 512 MiB holding 1.5 GiB for the
            // copy, where a doubling `read_to_end` would go on to 2 GiB and beyond)
            let room = (bytes.capacity() as u64)
                .max(8 << 10)
                .min(cap - bytes.len() as u64);
            if room == 0 {
                break;
            }
            bytes.reserve_exact(room as usize);
        }
        // (what fits in the room reserved: `read_to_end` never grows a buffer it exactly
        // fills from a reader that then ends)
        let spare = (bytes.capacity() - bytes.len()) as u64;
        let n = (&mut r).take(spare).read_to_end(&mut bytes)? as u64;
        if n < spare {
            break;
        }
    }
    if bytes.len() as u64 > limit {
        return Err(too_long(what, None, limit, how));
    }
    Ok(bytes)
}

/// `n` bytes in KiB, MiB or GiB.
pub fn human(n: u64) -> String {
    if n >= 1 << 30 && n.is_multiple_of(1 << 30) {
        format!("{} GiB", n >> 30)
    } else if n < 1 << 20 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{:.0} MiB", n as f64 / (1u64 << 20) as f64)
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    /// An input longer than the limit is refused whatever its size, one at the limit read whole;
    /// the buffer never holds more than the limit and a byte.
    #[test]
    fn reads_stop_at_the_limit() {
        for (len, limit) in [
            (0, 0),
            (10, 10),
            (11, 10),
            (100_000, 99_999),
            (100_000, 100_000),
        ] {
            let data = vec![7u8; len];
            for size in [0, len as u64, limit] {
                let r = read_bounded(&data[..], size, limit, "x", "");
                match r {
                    Ok(b) => {
                        assert!(len as u64 <= limit);
                        assert_eq!(b, data);
                        assert!(b.capacity() as u64 <= limit + 1, "{}", b.capacity());
                    }
                    Err(e) => {
                        assert!(len as u64 > limit, "{e}");
                        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
                    }
                }
            }
        }
        let e = read_bounded(std::io::repeat(0), 0, 3 << 20, "the input", "").unwrap_err();
        assert!(e.to_string().contains("longer than 3 MiB"), "{e}");
        assert_eq!(human(64 << 10), "64 KiB");
        assert_eq!(human(1 << 30), "1 GiB");
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_file_is_read_to_the_limit() {
        let e = read_file_bounded(
            &crate::world::Real,
            std::path::Path::new("/dev/zero"),
            1 << 20,
            "/dev/zero",
            "",
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("/dev/zero is longer than 1 MiB"),
            "{e}"
        );
    }
}
