//! The documented limits on what frekans takes in (README, "Limits"; `--help`): a log of at
//! most [`MAX_LOG_BYTES`] (4 GiB unless `FREKANS_MAX_LOG_MIB` says otherwise, which
//! `app::Context` reads), an event given
//! to `append` of at most [`MAX_EVENT_BYTES`] (an event line's own limit), and at most
//! [`MAX_THREADS`] worker threads. Each is enforced while reading, so an endless input
//! (`/dev/zero`, a runaway pipe) stops there with a message instead of growing until the
//! machine runs out of memory.

use std::io::Read;

/// The largest log read, unless `FREKANS_MAX_LOG_MIB` sets another (in MiB): 4 GiB, some 20
/// million results (a million-result log is about 200 MB).
pub const MAX_LOG_BYTES: u64 = 4 << 30;

/// The largest event `append` takes (from its argument or standard input): one event line's
/// limit, 1 MiB.
pub const MAX_EVENT_BYTES: u64 = crate::event::read::MAX_LINE as u64;

/// The most worker threads `--threads` sets.
pub const MAX_THREADS: usize = 1024;

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
    let mut bytes = Vec::with_capacity(size.min(limit).saturating_add(1) as usize);
    r.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "{what} is longer than {} ({limit} bytes), the most frekans reads{how}",
                human(limit)
            ),
        ));
    }
    Ok(bytes)
}

/// `n` bytes in MiB or GiB.
fn human(n: u64) -> String {
    if n >= 1 << 30 && n.is_multiple_of(1 << 30) {
        format!("{} GiB", n >> 30)
    } else {
        format!("{:.0} MiB", n as f64 / (1u64 << 20) as f64)
    }
}
