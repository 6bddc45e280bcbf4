//! Where a dataset's files are: each table's directory, its Hive partitions (the file a globbing
//! reader sees), its store of data files (what the Delta log names, kept for time travel), and
//! the ids, dates and seasons that name them.

use frekans_core::world::{Open, World, REAL};
use std::path::{Path, PathBuf};

use crate::error::{Context, Result};

/// The file a Hive partition holds: the table's current rows for that championship.
pub const PART: &str = "part-0.parquet";

/// Each table's data files, named by championship and content (`.pq`: a `**/*.parquet` glob
/// never meets them; `_`: Spark, pyarrow and Delta's own listing leave the directory alone).
pub const STORE: &str = "_store";

/// The Delta log of a table.
pub const DELTA_LOG: &str = "_delta_log";

/// Whether `id` can name a championship: `[A-Za-z0-9][A-Za-z0-9._-]{0,99}` (a directory name
/// and a Hive partition value that no reader needs to escape).
pub fn valid_id(id: &str) -> bool {
    let b = id.as_bytes();
    !b.is_empty()
        && b.len() <= 100
        && b[0].is_ascii_alphanumeric()
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'))
}

/// A date `YYYY-MM-DD` (or text beginning with one: `2026-11-21T18:00:00Z`), as days since
/// 1970-01-01; `None` when it is not a calendar date.
pub fn parse_date(text: &str) -> Option<i32> {
    let head = text.get(..10)?;
    let b = head.as_bytes();
    if b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |s: &str| -> Option<u32> {
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())
            .flatten()
    };
    let (y, m, d) = (num(&head[..4])?, num(&head[5..7])?, num(&head[8..10])?);
    let month = time::Month::try_from(u8::try_from(m).ok()?).ok()?;
    let date = time::Date::from_calendar_date(y as i32, month, u8::try_from(d).ok()?).ok()?;
    // (2440588: the Julian day of 1970-01-01)
    Some(date.to_julian_day() - 2_440_588)
}

/// The year of a date given as days since 1970-01-01.
pub fn year_of(days: i32) -> i32 {
    time::Date::from_julian_day(days + 2_440_588).map_or(1970, |d| d.year())
}

/// A date given as days since 1970-01-01, as `YYYY-MM-DD`.
pub fn date_text(days: i32) -> String {
    time::Date::from_julian_day(days + 2_440_588).map_or_else(
        |_| days.to_string(),
        |d| format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day()),
    )
}

/// The directory of table `table`.
pub fn table_dir(dir: &Path, table: &str) -> PathBuf {
    dir.join(table)
}

/// The Hive partition of a championship in a table.
pub fn partition_dir(dir: &Path, table: &str, season: i32, id: &str) -> PathBuf {
    table_dir(dir, table)
        .join(format!("season={season}"))
        .join(format!("championship={id}"))
}

/// The store file name of a championship's table of these bytes: its id and the first 16 hex
/// digits of their SHA-256 (the same bytes, the same name: an unchanged table is not written
/// again).
pub fn store_name(id: &str, bytes: &[u8]) -> String {
    use sha2::Digest;
    let h = sha2::Sha256::digest(bytes);
    format!("{id}-{}.pq", &hex::encode(h)[..16])
}

/// The store file's path relative to its table's directory, as the Delta log names it.
pub fn store_path(name: &str) -> String {
    format!("{STORE}/{name}")
}

/// Make `part-0.parquet` of the partition the store file `name` (a hard link to it), replacing
/// the one there by a rename: a reader globbing the table sees the old file or the new one,
/// never neither nor both. Idempotent.
pub fn link_current(dir: &Path, table: &str, season: i32, id: &str, name: &str) -> Result<()> {
    let store = table_dir(dir, table).join(STORE).join(name);
    let part = partition_dir(dir, table, season, id);
    REAL.create_dir_all(&part)
        .with_context(|| format!("cannot create {}", part.display()))?;
    remove_temporaries(&part);
    if let (Ok(a), Ok(b)) = (REAL.metadata(&store), REAL.metadata(&part.join(PART))) {
        if a.file_id.is_some() && a.file_id == b.file_id {
            return Ok(());
        }
    }
    let tmp = part.join(format!(
        ".{PART}.tmp-{}-{:x}",
        std::process::id(),
        crate::outfile::salt()
    ));
    let _ = REAL.remove_file(&tmp);
    REAL.hard_link(&store, &tmp).with_context(|| {
        format!(
            "cannot link {} to {} (the dataset needs a file system with hard links)",
            store.display(),
            tmp.display()
        )
    })?;
    REAL.rename(&tmp, &part.join(PART)).with_context(|| {
        format!(
            "cannot rename {} to {}",
            tmp.display(),
            part.join(PART).display()
        )
    })?;
    // (a rename between two links of one file does nothing: the temporary would stay)
    let _ = REAL.remove_file(&tmp);
    crate::outfile::sync_dir(&part);
    Ok(())
}

/// Remove a championship's partition of a table (and its season's directory when it is left
/// empty). Idempotent.
pub fn remove_partition(dir: &Path, table: &str, season: i32, id: &str) -> Result<()> {
    let part = partition_dir(dir, table, season, id);
    match REAL.remove_dir_all(&part) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot remove {}", part.display())),
    }
    if let Some(season_dir) = part.parent() {
        // (fails, as it should, while another championship is in it)
        let _ = REAL.remove_dir(season_dir);
        crate::outfile::sync_dir(&table_dir(dir, table));
    }
    Ok(())
}

/// Remove the temporaries of killed runs from `dir` (`.NAME.tmp-…`: under the dataset's lock,
/// no other run has one).
pub fn remove_temporaries(dir: &Path) {
    let Ok(names) = REAL.list(dir) else { return };
    for name in names {
        let path = dir.join(&name);
        let name = name.to_string_lossy();
        if name.starts_with('.') && name.contains(".tmp-") {
            let _ = REAL.remove_file(&path);
        }
    }
}

/// Write `bytes` to a new file `path` and sync it.
pub fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut f = REAL
        .open_file(path, Open::CREATE)
        .with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Write `bytes` to `path` whole or not at all: a temporary beside it, synced, renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let parent = crate::outfile::parent_of(path);
    let tmp = parent.join(format!(
        ".{}.tmp-{}-{:x}",
        path.file_name()
            .map_or("file".into(), |n| n.to_string_lossy()),
        std::process::id(),
        crate::outfile::salt()
    ));
    write_synced(&tmp, bytes)?;
    REAL.rename(&tmp, path)
        .with_context(|| format!("cannot rename {} to {}", tmp.display(), path.display()))?;
    crate::outfile::sync_dir(&parent);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_dates() {
        assert!(valid_id("mazovia-pairs-2026"));
        assert!(valid_id("A.b_c-1"));
        assert!(!valid_id("-x"));
        assert!(!valid_id(".x"));
        assert!(!valid_id("a b"));
        assert!(!valid_id("a/b"));
        assert!(!valid_id(&"a".repeat(101)));
        assert!(valid_id(&"a".repeat(100)));
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("2026-11-21T18:00:00Z"), parse_date("2026-11-21"));
        assert_eq!(parse_date("2026-02-30"), None);
        assert_eq!(parse_date("2026-1-3"), None);
        assert_eq!(parse_date("spring 2026"), None);
        let d = parse_date("2026-11-21").unwrap();
        assert_eq!(year_of(d), 2026);
        assert_eq!(date_text(d), "2026-11-21");
    }
}
