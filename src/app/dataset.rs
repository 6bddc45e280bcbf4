//! `frekans dataset add|list|remove`: championships scored as `score` scores them (the same
//! read, replay and scoring: `run::replay_log`, `run::score_log`), one log at a time, into the
//! dataset of `crate::dataset`, under its lock, as one transaction.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::*;
use crate::dataset::{self, frames, layout, Added, Entry, FileEntry, Locked, Manifest};

/// What `dataset add` is asked.
#[derive(Clone, Debug, Default)]
pub struct DatasetAdd {
    pub logs: Vec<PathBuf>,
    pub to: PathBuf,
    /// The championship's id (one log only); else each log file's stem.
    pub id: Option<String>,
    /// The date of a championship whose log has none (`YYYY-MM-DD`).
    pub date: Option<String>,
    /// The season of a championship whose date is unknown.
    pub season: Option<i32>,
}

/// What became of one log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Its head is the one the dataset has: nothing written.
    Unchanged,
    /// New in the dataset.
    Added,
    /// In the dataset before, from another head: its files replaced.
    Replaced,
}

#[derive(Clone, Debug)]
pub struct LogOutcome {
    pub log: PathBuf,
    pub id: String,
    pub outcome: Outcome,
    /// Rows written (all tables), 0 when unchanged.
    pub rows: u64,
    pub season: i32,
}

/// What `dataset add` did.
#[derive(Clone, Debug)]
pub struct AddReport {
    pub logs: Vec<LogOutcome>,
    /// The new version, when anything changed.
    pub version: Option<u64>,
}

/// The championship id of each log: `--id` (one log only) or the file's stem; each a valid
/// id, none twice.
fn ids(req: &DatasetAdd) -> Result<Vec<String>, AppError> {
    if req.id.is_some() && req.logs.len() != 1 {
        return Err(AppError::BadRequest(
            "--id names the championship of one log; give one LOG with it".into(),
        ));
    }
    let mut out: Vec<String> = Vec::new();
    for log in &req.logs {
        let id = match &req.id {
            Some(id) => id.clone(),
            None => log
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        dataset::check_id(&id, &log.display().to_string()).map_err(bad_request)?;
        if out.contains(&id) {
            return Err(AppError::BadRequest(format!(
                "two logs would be championship \"{id}\" ({}); add them in separate runs with --id",
                log.display()
            )));
        }
        out.push(id);
    }
    Ok(out)
}

/// The `at` of the first event of a log's bytes, if it has one.
fn first_at(bytes: &[u8]) -> Option<String> {
    let line = bytes
        .split(|&c| c == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty() && !l.starts_with(b"//"))?;
    let v: serde_json::Value = serde_json::from_slice(line).ok()?;
    v.get("at")?.as_str().map(str::to_string)
}

/// Milliseconds since 1970 of the context's clock.
fn millis(ctx: &Context) -> i64 {
    ctx.now
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A new Delta table id (random: the clock, the process, the dataset's path and a counter).
fn new_uuid(dir: &Path, ms: i64) -> impl FnMut() -> String {
    use sha2::Digest;
    let seed = format!(
        "{}|{ms}|{}|{:x}",
        dir.display(),
        std::process::id(),
        crate::outfile::salt()
    );
    let mut n = 0u32;
    move || {
        n += 1;
        let h = sha2::Sha256::digest(format!("{seed}|{n}").as_bytes());
        let mut b = [0u8; 16];
        b.copy_from_slice(&h[..16]);
        dataset::delta::uuid(b)
    }
}

/// `frekans dataset add`: each log read, validated and scored (one at a time, each freed before
/// the next), its tables staged; then, if anything changed, one new version of the dataset.
/// An invalid log (exit 2) or any failure leaves the dataset as it was.
pub fn dataset_add(req: &DatasetAdd, ctx: &Context) -> Result<AddReport, AppError> {
    let ids = ids(req)?;
    let date_flag = match &req.date {
        Some(d) => Some(
            layout::parse_date(d)
                .filter(|_| d.len() == 10)
                .ok_or_else(|| {
                    AppError::BadRequest(format!("--date {d}: give a date as YYYY-MM-DD"))
                })?,
        ),
        None => None,
    };
    let locked = dataset::lock(&req.to, true)?.expect("made when missing");
    let mut staging = None;
    let r = add_locked(req, ctx, &ids, date_flag, &locked, &mut staging);
    match r {
        Ok(report) => {
            if let Some(s) = staging {
                let _ = ctx.world.remove_dir_all(&s);
            }
            Ok(report)
        }
        Err(e) => {
            locked.abandon(staging.as_deref());
            Err(e)
        }
    }
}

fn add_locked(
    req: &DatasetAdd,
    ctx: &Context,
    ids: &[String],
    date_flag: Option<i32>,
    locked: &Locked,
    staging: &mut Option<PathBuf>,
) -> Result<AddReport, AppError> {
    locked.finish_pending()?;
    let manifest = dataset::read_manifest(&req.to)?;
    let mut schemas = BTreeMap::new();
    let mut added = Vec::new();
    let mut logs = Vec::new();
    for (i, (log, id)) in req.logs.iter().zip(ids).enumerate() {
        let _p = crate::progress::stage(&format!(
            "dataset: {} ({} of {})",
            log.display(),
            i + 1,
            ids.len()
        ));
        let known = manifest.championships.get(id);
        let one = add_one(
            log,
            id,
            known,
            &Flags {
                date: date_flag,
                season: req.season,
            },
            ctx,
            locked,
            staging,
            &mut schemas,
        )?;
        let outcome = match (&one, known) {
            (None, _) => Outcome::Unchanged,
            (Some(_), None) => Outcome::Added,
            (Some(_), Some(_)) => Outcome::Replaced,
        };
        tracing::info!("dataset: {} as {id}: {outcome:?}", log.display());
        logs.push(LogOutcome {
            log: log.clone(),
            id: id.clone(),
            outcome,
            rows: one.as_ref().map_or(0, |a| a.entry.rows()),
            season: one
                .as_ref()
                .map(|a| a.entry.season)
                .or(known.map(|k| k.season))
                .unwrap_or_default(),
        });
        added.extend(one);
    }
    if added.is_empty() {
        return Ok(AddReport {
            logs,
            version: None,
        });
    }
    let _p = crate::progress::stage("dataset: committing");
    let staged = staging.as_deref().expect("a staging directory");
    for a in &added {
        for (table, f) in &a.entry.tables {
            locked.store(&staged.join(table).join(&f.file), table, &f.file)?;
        }
    }
    let ms = millis(ctx);
    let pending = dataset::plan_add(&manifest, added, &schemas, &mut new_uuid(&req.to, ms), ms)?;
    locked.commit(&pending)?;
    Ok(AddReport {
        logs,
        version: Some(pending.version),
    })
}

/// The flags that say what a log does not.
struct Flags {
    date: Option<i32>,
    season: Option<i32>,
}

/// One log into staged tables: `None` when its head is `known`'s (unchanged).
#[allow(clippy::too_many_arguments)]
fn add_one(
    log: &Path,
    id: &str,
    known: Option<&Entry>,
    flags: &Flags,
    ctx: &Context,
    locked: &Locked,
    staging: &mut Option<PathBuf>,
    schemas: &mut BTreeMap<String, String>,
) -> Result<Option<Added>, AppError> {
    let name_it = |e: AppError| match e {
        AppError::Invalid(e) => {
            AppError::BadRequest(format!("{}: {}", log.display(), e.to_string().trim_end()))
        }
        other => other,
    };
    let (_, bytes) = read_locked(log).map_err(name_it)?;
    let head = crate::integrity::head(&bytes).ok();
    if let (Some(h), Some(k)) = (&head, known) {
        if h.hash == k.head {
            return Ok(None);
        }
    }
    let replayed = run::replay_log(&bytes, false, false).map_err(name_it)?;
    let head = match head {
        Some(h) => h,
        None => crate::integrity::head(&bytes).map_err(bad_request)?,
    };
    let state = replayed.state;
    let date = (state.championship.date.as_deref())
        .and_then(layout::parse_date)
        .or(flags.date)
        .or_else(|| first_at(&bytes).as_deref().and_then(layout::parse_date));
    drop(bytes);
    crate::memory::release_freed_memory();
    let season = date.map(layout::year_of).or(flags.season).ok_or_else(|| {
        AppError::BadRequest(format!(
            "{}: the championship has no date (no `date` in its championship event, no `at` on its first event): give --date YYYY-MM-DD or --season YYYY",
            log.display()
        ))
    })?;
    let scored = run::score_log(&state)?;
    let rows = export::rows::build_with(&state, &scored, false);
    let meta = frames::Meta {
        id: id.to_string(),
        date,
        head: head.hash.clone(),
        events: head.events,
        added_at: ctx.at(),
    };
    let src = frames::Source {
        state: &state,
        scored: &scored,
        rows: &rows,
        meta: &meta,
    };
    if staging.is_none() {
        *staging = Some(locked.staging()?);
    }
    let staged = staging.as_deref().expect("made");
    let mut tables = BTreeMap::new();
    for table in dataset::TABLES {
        tables.insert(
            table.to_string(),
            stage_table(&src, table, staged, schemas)?,
        );
    }
    Ok(Some(Added {
        id: id.to_string(),
        entry: Entry {
            season,
            date: date.map(layout::date_text),
            log: log.display().to_string(),
            head: head.hash,
            events: head.events as u64,
            added_at: meta.added_at.clone(),
            version: 0,
            tables,
        },
    }))
}

/// One table of a championship serialized into the staging directory, by its store name; its
/// schema the same as every other championship's of this run.
fn stage_table(
    src: &frames::Source,
    table: &str,
    staged: &Path,
    schemas: &mut BTreeMap<String, String>,
) -> Result<FileEntry, AppError> {
    let mut df = frames::frame(src, table)
        .with_context(|| format!("cannot build the dataset's {table} table"))?;
    let schema = dataset::delta::schema_string(df.schema())?;
    match schemas.get(table) {
        Some(s) if *s != schema => {
            return Err(AppError::Other(anyhow::anyhow!(
                "the dataset's {table} table came out with other columns for {}: {schema}",
                src.meta.id
            )))
        }
        Some(_) => {}
        None => {
            schemas.insert(table.to_string(), schema);
        }
    }
    let bytes = export::parquet::to_bytes(&mut df)
        .with_context(|| format!("cannot serialize the dataset's {table} table"))?;
    let name = layout::store_name(&src.meta.id, &bytes);
    let dir = staged.join(table);
    crate::world::REAL
        .create_dir_all(&dir)
        .with_context(|| format!("cannot create {}", dir.display()))?;
    layout::write_synced(&dir.join(&name), &bytes)?;
    Ok(FileEntry {
        file: name,
        size: bytes.len() as u64,
        rows: df.height() as u64,
    })
}

/// `frekans dataset remove`: championship `id` taken out of the dataset at `dir` as a new
/// version; returns it.
pub fn dataset_remove(dir: &Path, id: &str, ctx: &Context) -> Result<u64, AppError> {
    let Some(locked) = dataset::lock(dir, false)? else {
        return Err(AppError::BadRequest(format!(
            "no dataset at {}",
            dir.display()
        )));
    };
    locked.finish_pending()?;
    let manifest = dataset::read_manifest(dir)?;
    if !manifest.championships.contains_key(id) {
        return Err(AppError::BadRequest(format!(
            "the dataset at {} has no championship \"{id}\" (`frekans dataset list --to {}` names those it has)",
            dir.display(),
            dir.display()
        )));
    }
    let pending = dataset::plan_remove(&manifest, id, millis(ctx));
    locked.commit(&pending)?;
    Ok(pending.version)
}

/// `frekans dataset list`: the dataset's manifest (a transaction a killed run left finished
/// first, unless another run is at work).
pub fn dataset_list(dir: &Path) -> Result<Manifest, AppError> {
    if !dir.is_dir() {
        return Err(AppError::BadRequest(format!(
            "no dataset at {}",
            dir.display()
        )));
    }
    if dataset::has_pending(dir) {
        if let Some(l) = dataset::try_lock(dir) {
            l.finish_pending()?;
        }
    }
    Ok(dataset::read_manifest(dir)?)
}
