//! `audit --with`, `--with-file` and `--alternatives` (what-if audits, `audit::whatif`): the
//! log mapped and its audit cache found, kept, carried on or made as an audit's, each proposal
//! checked as `append` checks it, and answered from the cache or the long way.

use std::path::Path;

use anyhow::Context;

use super::{audit_error, bad_request, export, run, AppError, LoadLog, MappedLog, Store};
use crate::world::World as _;

/// `frekans audit --with`: the standings with the proposed events `proposals` (JSON texts)
/// added at the end of the log, against the log as it is; nothing is written to the log, and
/// only the log's own audit cache is left in `cache` (see `audit::whatif`). Each proposal is
/// validated as `append` would validate it (the same errors, exit 2). Optionally Parquet in
/// `out`, as every audit writes it.
pub fn whatif(
    path: &Path,
    proposals: &[String],
    out: Option<&Path>,
    cache: Option<Store<'_>>,
    now: &str,
) -> Result<crate::audit::Answer, AppError> {
    let log = MappedLog::open(path)?;
    let bytes = log.bytes();
    let mut c = WhatIfCache::of(bytes, cache, log.stat());
    let a = whatif_one(bytes, proposals, &mut c, now)?;
    log.record(cache, c.hashed);
    if let Some(dir) = out {
        export::parquet::write_audit(dir, &a.audit.standings, &a.audit.boards)?;
    }
    Ok(a)
}

/// The audit cache a what-if answers from: that of the log (kept, carried on, or made now, as
/// the first audit of a log makes it), and the log's key when it was hashed (to record).
struct WhatIfCache {
    cache: Option<crate::audit::cache::AuditCache>,
    hashed: Option<String>,
}

impl WhatIfCache {
    fn of(
        bytes: &[u8],
        cache: Option<Store<'_>>,
        stat: Option<crate::audit::cache::FileStat>,
    ) -> WhatIfCache {
        let Some(store) = cache else {
            return WhatIfCache {
                cache: None,
                hashed: None,
            };
        };
        let crate::audit::cache::Found {
            key,
            hashed,
            cache: mut c,
        } = store.find(bytes, stat);
        if c.is_none() {
            // The first audit of these bytes: the log read, replayed and scored as `score` does
            // (the stages of `run::run`), its cache made and kept (an invalid log makes none:
            // the whole log with the proposals is then validated, as `append` would, and says
            // what is wrong).
            if let Ok(mut r) = run::replay_log(bytes, false, true) {
                if let Ok(scored) = run::score_log(&r.state) {
                    c = r.audit_cache(None, &scored);
                    store.keep(&key, c.as_ref());
                }
            }
            crate::memory::release_freed_memory();
        }
        WhatIfCache { cache: c, hashed }
    }
}

/// One what-if of the log `bytes` (see [`whatif`]).
fn whatif_one(
    bytes: &[u8],
    proposals: &[String],
    c: &mut WhatIfCache,
    now: &str,
) -> Result<crate::audit::Answer, AppError> {
    use crate::audit::{whatif, Ask, Held, Outcome, Source};
    let texts: Vec<&str> = proposals.iter().map(String::as_str).collect();
    if texts.is_empty() {
        return Err(AppError::BadRequest(
            "no proposed event: give one with --with EVENT_JSON, or a line of the --with-file or --alternatives FILE".into(),
        ));
    }
    let known = c
        .cache
        .as_ref()
        .and_then(|c| Some((c.last_seq, usize::try_from(c.newlines).ok()?)));
    let p = crate::event::append::propose(bytes, &texts, now, known).map_err(AppError::Invalid)?;
    whatif::check_kinds(&p).map_err(bad_request)?;
    if let Some(cache) = c.cache.as_mut() {
        let source = Source::Cached {
            bytes,
            cache: Held::Lent(cache),
        };
        match crate::audit::answer(Ask::WhatIf(&p), source).map_err(audit_error)? {
            Outcome::Answer(a) => {
                tracing::info!("audit: the what-if answered from the audit cache");
                return Ok(a);
            }
            Outcome::Validate => tracing::info!(
                "audit: the what-if needs the whole log validated with the proposals"
            ),
            Outcome::Cannot => {
                tracing::info!("audit: the cache cannot answer this what-if; reading the whole log")
            }
        }
    }
    // The whole log with the proposals validated as `append` validates it (`check`'s streamed
    // read and replay), then read, replayed and audited.
    let all = whatif::with_lines(bytes, &p);
    LoadLog::default().bytes(&all)?;
    let l = run::replay_log(&all, true, false)?;
    let source = Source::Replayed {
        events: &l.events,
        full: &l.state,
        scored: None,
        incremental: true,
    };
    let a = crate::audit::answer(Ask::WhatIf(&p), source).map_err(audit_error)?;
    Ok(a.answered().expect("the long way always answers"))
}

/// The proposed events of a `--with-file` or `--alternatives` FILE: each non-blank line that is
/// not a `//` comment, with where it was read ("FILE line N"), at most 64 MiB of them; a
/// byte-order mark at its start skipped, as the log's reader skips one.
pub fn read_proposals(file: &Path) -> Result<Vec<(String, String)>, AppError> {
    let f = crate::world::REAL
        .open_file(file, crate::world::Open::READ)
        .with_context(|| format!("cannot read the proposed events {}", file.display()))?;
    let size = f.len().unwrap_or(0);
    let bytes = crate::limits::read_bounded(
        f,
        size,
        64 << 20,
        &format!("the proposed events {}", file.display()),
        "",
    )
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => AppError::BadRequest(e.to_string()),
        _ => AppError::Other(anyhow::Error::new(e).context(format!(
            "cannot read the proposed events {}",
            file.display()
        ))),
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        AppError::BadRequest(format!(
            "{}: not UTF-8 text (byte {})",
            file.display(),
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(text
        .strip_prefix('\u{feff}')
        .unwrap_or(&text)
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with("//")
        })
        .map(|(i, l)| (l.to_string(), format!("{} line {}", file.display(), i + 1)))
        .collect())
}

/// `frekans audit --alternatives FILE`: each proposed ruling of `alternatives` (JSON texts,
/// with where each was read, for messages), all for the same table, audited as a what-if on
/// its own; the affected participants' places and totals under each, side by side.
pub fn alternatives(
    path: &Path,
    alternatives: &[(String, String)],
    out: Option<&Path>,
    cache: Option<Store<'_>>,
    now: &str,
) -> Result<crate::audit::alternatives::Alternatives, AppError> {
    let log = MappedLog::open(path)?;
    let bytes = log.bytes();
    crate::audit::alternatives::same_table(alternatives).map_err(bad_request)?;
    let mut c = WhatIfCache::of(bytes, cache, log.stat());
    let mut audits = Vec::with_capacity(alternatives.len());
    for (text, _) in alternatives {
        let a = whatif_one(bytes, std::slice::from_ref(text), &mut c, now)?;
        audits.push(crate::audit::alternatives::keep(a));
    }
    log.record(cache, c.hashed);
    let a = crate::audit::alternatives::Alternatives::new(audits);
    if let Some(dir) = out {
        export::parquet::write_alternatives(dir, &a.named(), &a.rows)?;
    }
    Ok(a)
}
