//! The cache's life cycle as a command goes through it: the log's key (recorded under its
//! file's status, or hashed), its cache found (the one kept for these bytes, or that of the log
//! before lines appended since, carried on and kept), and a cache kept or carried across one
//! appended line.

use super::*;

/// A log's cache as a store has it: the log's key, the key again when it was hashed (for the
/// caller to record under the file's status once the file is read), and the cache, when the
/// store has one for these bytes or can carry one on to them.
pub struct Found {
    pub key: String,
    pub hashed: Option<String>,
    pub cache: Option<AuditCache>,
}

impl Store<'_> {
    /// The way in: the key of the log `bytes` (its file of status `stat`) and its cache.
    pub fn find(self, bytes: &[u8], stat: Option<FileStat>) -> Found {
        let (key, hashed) = self.key(bytes, stat);
        let cache = self.kept(bytes, &key, stat);
        Found { key, hashed, cache }
    }

    /// The key of the log `bytes`: recorded in the store under the file's status `stat`, or
    /// hashed (then also returned second, for the caller to record).
    pub fn key(self, bytes: &[u8], stat: Option<FileStat>) -> (String, Option<String>) {
        match stat.and_then(|s| s.recorded_key(self.dir)) {
            Some(k) => {
                tracing::info!("audit: the log's key from its unchanged file status");
                (k, None)
            }
            None => {
                let _s = tracing::info_span!("hash").entered();
                let k = log_key(bytes);
                (k.clone(), Some(k))
            }
        }
    }

    /// The audit cache of the log `bytes` (of key `key`, its file of status `stat`): the one
    /// kept for these bytes, or, for a log with lines appended since its last audit, that
    /// audit's cache carried on (and kept for these bytes); `None` when there is neither.
    pub fn kept(self, bytes: &[u8], key: &str, stat: Option<FileStat>) -> Option<AuditCache> {
        let c = {
            let _s = tracing::info_span!("cache").entered();
            // (a cache of another length is another log's: a status file edited to name it)
            AuditCache::load(self, key).filter(|c| c.fits(bytes))
        };
        if c.is_some() {
            return c;
        }
        // A log with lines appended since its last audit: that audit's cache, carried on.
        let (old_key, old_size) = stat?.previous(self.dir)?;
        let old_size = usize::try_from(old_size).ok()?;
        if old_size >= bytes.len() || log_key(&bytes[..old_size]) != old_key {
            return None;
        }
        let _s = tracing::info_span!("extend").entered();
        let old = AuditCache::load(self, &old_key).filter(|c| c.fits(&bytes[..old_size]))?;
        let new = crate::audit::extend_cache(bytes, old)?;
        tracing::info!("audit: the cache of the log before its last lines, carried on");
        self.keep(key, Some(&new));
        Some(new)
    }

    /// Save `cache` (`None`: an event's line could not be placed) as the audit cache of the
    /// log whose key is `key`; `false`, with a warning, when it is not kept (never an error:
    /// the next audit answers the long way).
    pub fn keep(self, key: &str, cache: Option<&AuditCache>) -> bool {
        let _s = tracing::info_span!("cache_write").entered();
        let Some(c) = cache else {
            tracing::warn!("audit cache not kept: a line could not be placed");
            return false;
        };
        match c.save(self, key) {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!("audit cache not written to {}: {e}", self.dir.display());
                false
            }
        }
    }

    /// The audit cache of `all` (a log and one new line) carried on from that of the log
    /// before the line, when the store has it and it can be carried (see
    /// `audit::extend_cache`).
    pub fn carried(self, all: &[u8]) -> Option<AuditCache> {
        let _s = tracing::info_span!("carry").entered();
        // (the log before the new line: up to the newline that ends its last line)
        let before = match memchr::memrchr(b'\n', all.strip_suffix(b"\n")?) {
            Some(i) => &all[..=i],
            None => return None,
        };
        let old = AuditCache::load(self, &log_key(before))?;
        crate::audit::extend_cache(all, old)
    }
}
