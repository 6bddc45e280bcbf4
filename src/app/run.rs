//! One run: the stages every command that writes results composes, the same way and once —
//! read (under the log's shared lock) → replay → score → [double dummy] — and what is built from
//! them for more than one output: the view model with the rulings audited ([`view`]) and the
//! bulletin's files ([`bulletin_files`]). `score`, `bulletin`, `site` and `publish` are this
//! run and their own serializer (Parquet, the PDF, the pages); `publish` runs it once for all
//! three.

use super::*;
pub use crate::report::model::Limits;
use crate::report::view::Bulletin;

/// What a run must make besides the scoring.
#[derive(Clone, Copy, Debug, Default)]
pub struct Want {
    /// Keep the log's events (the rulings' audits need them); otherwise the log is streamed and
    /// no event is kept once replayed.
    pub events: bool,
    /// Solve every deal double dummy (with the solved deals of the cache directory).
    pub dd: bool,
    /// The log's head (crate::integrity), which the bulletin prints.
    pub head: bool,
}

/// A log read, validated, replayed and scored once; what every output is made from.
pub struct Run {
    pub state: State,
    pub scored: Scored,
    /// The log's events when [`Want::events`], else none.
    pub events: Vec<Envelope>,
    /// Every deal's double-dummy table and par when [`Want::dd`].
    pub deals: Option<Vec<crate::dd::BoardDd>>,
    /// The log's head when [`Want::head`].
    pub head: Option<crate::integrity::Head>,
    /// The audit cache being saved on another thread (joined when the run is dropped).
    _cache_job: crate::audit::cache::Saving,
}

/// A log's bytes validated and replayed whole: its state, its events when they were kept, and,
/// when it was streamed with an index, the audit cache's index of its lines.
pub(super) struct Replayed {
    pub(super) state: State,
    pub(super) events: Vec<Envelope>,
    index: Option<CacheBuilder>,
}

/// The replay stage: the log's bytes `b` read, validated and replayed, its events kept when
/// `events`; otherwise streamed (no event kept once replayed), with `index` the audit cache's
/// index of its lines made on the way.
pub(super) fn replay_log(b: &[u8], events: bool, index: bool) -> Result<Replayed, AppError> {
    let how = LoadLog {
        keep_events: events,
        index: index && !events,
        ..LoadLog::default()
    };
    let l = how.bytes(b)?;
    if !events {
        crate::memory::memory("reading and replaying");
    }
    Ok(Replayed {
        state: l.state,
        events: l.events,
        index: l.index,
    })
}

/// The scoring stage: every board and standing of a replay.
pub(super) fn score_log(state: &State) -> Result<Scored, AppError> {
    Ok(pipeline::score(state)?)
}

impl Replayed {
    /// The audit cache of this replay scored into `scored`: made from its index, or, when its
    /// events were kept, from them and the log's `bytes`; `None` when there is neither or an
    /// event's line cannot be placed.
    pub(super) fn audit_cache(
        &mut self,
        bytes: Option<&[u8]>,
        scored: &Scored,
    ) -> Option<crate::audit::cache::AuditCache> {
        match (self.index.take(), bytes) {
            (Some(index), _) => index.finish(&self.state, scored),
            (None, Some(b)) => {
                crate::audit::cache::AuditCache::build(b, &self.events, &self.state, scored)
            }
            (None, None) => None,
        }
    }
}

/// Read the log at `path` under its shared lock, validate and replay it (streamed unless
/// `want.events`), score it, and solve its deals when asked. With a cache directory, the log's
/// audit cache is left there (saved on another thread while the caller makes its outputs), as
/// the first audit of the log would leave it, and solved deals are taken from and kept in its
/// `dd/`.
pub fn run(path: &Path, want: Want, cache: Option<Store<'_>>) -> Result<Run, AppError> {
    let (log, bytes) = read_locked(path)?;
    let mut bytes = Some(bytes);
    let b = bytes.as_deref().expect("the log's bytes");
    // The audit cache's index of the log's lines is made on the way when it is streamed.
    let mut replayed = replay_log(b, want.events, cache.is_some())?;
    let head = if want.head {
        Some(crate::integrity::head(b).map_err(bad_request)?)
    } else {
        None
    };
    let key = cache.map(|_| {
        let _s = tracing::info_span!("hash").entered();
        crate::audit::cache::log_key(b)
    });
    if !want.events {
        // Streamed: the log's bytes are freed before scoring.
        drop(bytes.take());
        crate::memory::release_freed_memory();
        crate::memory::memory("freeing the log's bytes");
    }
    let scored = score_log(&replayed.state)?;
    crate::memory::release_freed_memory();
    crate::memory::memory("scoring");
    let cache_job = match (cache, key) {
        (Some(store), Some(key)) => {
            let c = replayed.audit_cache(bytes.take().as_deref(), &scored);
            store.keep_beside(key, c, Some(log))
        }
        _ => crate::audit::cache::Saving::none(),
    };
    drop(bytes);
    let Replayed { state, events, .. } = replayed;
    let deals = if want.dd {
        let _p =
            crate::progress::stage(&format!("double-dummy solving {} deals", state.deals.len()));
        Some(double_dummy(&state, cache.map(|s| s.dir))?)
    } else {
        None
    };
    Ok(Run {
        state,
        scored,
        events,
        deals,
        head,
        _cache_job: cache_job,
    })
}

/// The view model of the bulletin (`Limits::BULLETIN`) or the website (`Limits::SITE`) in
/// `lang`: the scored championship cut to `limits`, the log's head when the run has it, and
/// the rulings in force audited for what they changed (every one within
/// [`crate::report::cut::AuditBudget::VIEW`]: `audit::ruling_effects`; needs [`Want::events`]).
pub fn view(run: &Run, lang: &str, limits: &Limits) -> Bulletin {
    let mut model = unaudited_view(run, lang, limits);
    {
        let _s = tracing::info_span!("ruling_effects").entered();
        let _p = crate::progress::stage("auditing the rulings");
        crate::report::model::add_ruling_effects(
            &mut model,
            &run.events,
            &run.state,
            &run.scored,
            crate::report::cut::AuditBudget::VIEW,
        );
    }
    // (each ruling's board scored again: freed before the pages are made)
    crate::memory::release_freed_memory();
    model
}

/// [`view`] with other limits, the rulings' effects taken from `audited` (a view of the same
/// run, with limits that cut no more rulings: publish's site model) instead of auditing them
/// again. The same model as [`view`] gives: the rulings audited are the first in force in
/// log order within the same budget either way, and a list cut shorter holds a prefix of them.
pub fn view_from(run: &Run, lang: &str, limits: &Limits, audited: &Bulletin) -> Bulletin {
    let mut model = unaudited_view(run, lang, limits);
    let changes: std::collections::HashMap<&str, &Option<crate::report::view::Changes>> = audited
        .rulings
        .iter()
        .map(|r| (r.id.as_str(), &r.changes))
        .collect();
    for r in &mut model.rulings {
        if let Some(c) = changes.get(r.id.as_str()) {
            r.changes = (*c).clone();
        }
    }
    model
}

/// The view model of a run under `limits`, its head set when the run has one, its rulings not
/// yet audited.
fn unaudited_view(run: &Run, lang: &str, limits: &Limits) -> Bulletin {
    let deals = run.deals.as_deref().unwrap_or_default();
    let mut model = crate::report::model::build_with(&run.state, &run.scored, deals, lang, limits);
    if let Some(head) = &run.head {
        // The head the bulletin was made from (crate::integrity): a reader holds the log to it.
        let text = if lang == "pl" {
            format!(
                "Sporządzono z {} zdarzeń dziennika; jego skrót (SHA-256):",
                head.events
            )
        } else {
            format!(
                "Made from the first {} events of the log, whose head (SHA-256) is:",
                head.events
            )
        };
        model.head = Some(crate::report::view::Head {
            events: head.events,
            hash: head.hash.clone(),
            text,
        });
    }
    model
}

/// What `bulletin` writes: the Parquet tables of `score --dd`, bulletin.json (the view model),
/// bulletin.typ (the template) and bulletin.pdf (rendered by typst), by name.
pub fn bulletin_files(
    run: &Run,
    model: &Bulletin,
    (world, typst): (&dyn crate::world::World, &crate::report::Typst),
) -> Result<Vec<(String, Vec<u8>)>, AppError> {
    let mut data = serde_json::to_value(model).map_err(anyhow::Error::new)?;
    // Control characters of names and notes shown as text in the PDF (crate::text).
    crate::text::escape_json(&mut data);
    let pdf = {
        let _s = tracing::info_span!("render").entered();
        let _p = crate::progress::stage("rendering the bulletin with typst");
        crate::report::render(world, typst, &data)?
    };
    let mut files = parquet_files(run)?;
    files.push((
        "bulletin.json".to_string(),
        serde_json::to_vec_pretty(&data).map_err(anyhow::Error::new)?,
    ));
    files.push((
        "bulletin.typ".to_string(),
        crate::report::TEMPLATE.as_bytes().to_vec(),
    ));
    files.push(("bulletin.pdf".to_string(), pdf));
    Ok(files)
}

/// The Parquet tables of the run (deals.parquet when it solved the deals), by name.
pub fn parquet_files(run: &Run) -> Result<Vec<(String, Vec<u8>)>, AppError> {
    let tables = rows(run);
    Ok(export::parquet::scored_files(
        &run.state,
        &run.scored,
        &tables,
    )?)
}

/// The output rows of the run but scores.parquet's (written straight from the boards), with
/// the deals' when it solved them.
pub fn rows(run: &Run) -> export::rows::Tables {
    let _s = tracing::info_span!("rows").entered();
    let _p = crate::progress::stage("building the output tables");
    let mut t = export::rows::build_with(&run.state, &run.scored, false);
    t.deals = run
        .deals
        .as_ref()
        .map(|d| export::rows::deals(&run.state, d));
    t
}
