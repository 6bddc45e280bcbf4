//! A federation's championships as one dataset (docs/dataset.md): each table a directory of
//! Hive partitions (`season=…/championship=…/part-0.parquet`) that plain Parquet readers glob,
//! and a Delta Lake table (`_delta_log/`) that Delta readers read with snapshots and time
//! travel; a manifest of what each championship was made from. Every change is one
//! transaction under the dataset's lock: its plan written first (`_frekans/pending.json`), then
//! the Delta commits, the Hive files and the manifest, so that a run killed anywhere is finished
//! by the next ([`Locked::finish_pending`]).

pub mod delta;
pub mod frames;
pub mod layout;
mod plan;

use frekans_core::world::{Open, World, REAL};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Context, Result};
use serde::{Deserialize, Serialize};

pub use plan::{plan_add, plan_remove, Added};

/// The dataset's tables, in the order they are written.
pub const TABLES: [&str; 10] = [
    "championships",
    "sessions",
    "results",
    "scores",
    "standings",
    "boards",
    "matches",
    "rulings",
    "deals",
    "players",
];

/// The dataset's own directory: the manifest, the pending transaction, staged files.
pub const OWN: &str = "_frekans";
const LOCK: &str = ".frekans-lock";
const MANIFEST: &str = "manifest.json";
const PENDING: &str = "pending.json";

/// A table's file of one championship.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// The store file's name (in `<table>/_store/`).
    pub file: String,
    pub size: u64,
    pub rows: u64,
}

/// What the dataset holds of one championship.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub season: i32,
    /// `YYYY-MM-DD`, when known.
    pub date: Option<String>,
    /// The log it was made from, as given to `dataset add`.
    pub log: String,
    /// The log's head (crate::integrity): a log with the same head is unchanged.
    pub head: String,
    pub events: u64,
    pub added_at: String,
    /// The version that last changed it.
    pub version: u64,
    pub tables: BTreeMap<String, FileEntry>,
}

impl Entry {
    /// Rows in all its tables.
    pub fn rows(&self) -> u64 {
        self.tables.values().map(|f| f.rows).sum()
    }
}

/// A table's Delta identity and columns, as its latest `metaData` says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableMeta {
    pub id: String,
    pub schema: String,
}

/// `_frekans/manifest.json`: the dataset as of its latest version.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema_version: String,
    /// The latest version (the same in every table's Delta log); none before the first add.
    pub version: Option<u64>,
    pub tables: BTreeMap<String, TableMeta>,
    pub championships: BTreeMap<String, Entry>,
}

/// One change of a table's Hive partitions: `file` linked as the championship's current file,
/// or, when `None`, its partition removed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiveOp {
    pub table: String,
    pub season: i32,
    pub championship: String,
    pub file: Option<String>,
}

/// `_frekans/pending.json`: a transaction planned whole, written before any of it is done.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub version: u64,
    /// Each table's commit file, as written.
    pub commits: BTreeMap<String, String>,
    /// In order: removals first.
    pub hive: Vec<HiveOp>,
    pub manifest: Manifest,
}

/// A dataset directory under its exclusive lock (held until dropped).
pub struct Locked {
    pub dir: PathBuf,
    _lock: frekans_core::world::Handle,
    /// The directory did not exist before this run.
    pub created: bool,
}

/// Take the exclusive lock of dataset `dir` (made when `create` and it does not exist),
/// waiting for any other run; `None` when it does not exist and `create` is false.
pub fn lock(dir: &Path, create: bool) -> Result<Option<Locked>> {
    let created = !dir.exists();
    if created {
        if !create {
            return Ok(None);
        }
        REAL.create_dir_all(dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let path = dir.join(LOCK);
    loop {
        let how = Open {
            read: false,
            write: true,
            create: true,
            ..Open::READ
        };
        let mut f = REAL
            .open_file(&path, how)
            .with_context(|| format!("cannot open {}", path.display()))?;
        f.lock()
            .with_context(|| format!("cannot lock {}", path.display()))?;
        // The lock file may have been removed while we waited (a failed first add takes its
        // directory away): then lock the one there now.
        let same = match (f.metadata(), REAL.metadata(&path)) {
            (Ok(a), Ok(b)) => a.file_id.is_some() && a.file_id == b.file_id,
            _ => false,
        };
        if same {
            return Ok(Some(Locked {
                dir: dir.to_path_buf(),
                _lock: f,
                created,
            }));
        }
        if !dir.exists() {
            if !create {
                return Ok(None);
            }
            REAL.create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
    }
}

/// The manifest of `dir` (empty when there is none yet).
pub fn read_manifest(dir: &Path) -> Result<Manifest> {
    let path = dir.join(OWN).join(MANIFEST);
    match REAL.read(&path) {
        Ok(b) => serde_json::from_slice(&b)
            .with_context(|| format!("{} is not a frekans manifest", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Manifest {
            schema_version: delta::SCHEMA_VERSION.to_string(),
            ..Default::default()
        }),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Whether `dir` has a transaction to finish.
pub fn has_pending(dir: &Path) -> bool {
    dir.join(OWN).join(PENDING).exists()
}

/// Try the lock of an existing dataset without waiting (`list` finishing a killed run's
/// transaction when no other run is at work).
pub fn try_lock(dir: &Path) -> Option<Locked> {
    let how = Open {
        read: false,
        write: true,
        ..Open::READ
    };
    let mut f = REAL.open_file(&dir.join(LOCK), how).ok()?;
    f.try_lock().ok()?;
    Some(Locked {
        dir: dir.to_path_buf(),
        _lock: f,
        created: false,
    })
}

impl Locked {
    fn own(&self) -> PathBuf {
        self.dir.join(OWN)
    }

    /// Finish the transaction a killed run left (`pending.json`), if any, and remove its
    /// staged files and temporaries; `true` if there was one.
    pub fn finish_pending(&self) -> Result<bool> {
        self.clean_staging();
        let path = self.own().join(PENDING);
        let bytes = match REAL.read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let p: Pending = serde_json::from_slice(&bytes)
            .with_context(|| format!("{} is not a frekans transaction", path.display()))?;
        tracing::warn!(
            "finishing version {} of the dataset {}, which a run killed before its end began",
            p.version,
            self.dir.display()
        );
        self.apply(&p)?;
        Ok(true)
    }

    /// Do transaction `p`: write it down, then each table's commit, the Hive files, the
    /// manifest; then forget it. Every step can be done again (a rerun after a kill).
    pub fn commit(&self, p: &Pending) -> Result<()> {
        let own = self.own();
        REAL.create_dir_all(&own)
            .with_context(|| format!("cannot create {}", own.display()))?;
        let text = serde_json::to_vec_pretty(p).map_err(crate::error::Failed::foreign)?;
        layout::write_atomic(&own.join(PENDING), &text)?;
        self.apply(p)
    }

    fn apply(&self, p: &Pending) -> Result<()> {
        for (table, text) in &p.commits {
            delta::write_commit(&layout::table_dir(&self.dir, table), p.version, text)?;
        }
        for op in &p.hive {
            match &op.file {
                Some(f) => {
                    layout::link_current(&self.dir, &op.table, op.season, &op.championship, f)?
                }
                None => {
                    layout::remove_partition(&self.dir, &op.table, op.season, &op.championship)?
                }
            }
        }
        let own = self.own();
        let text = serde_json::to_vec_pretty(&p.manifest).map_err(crate::error::Failed::foreign)?;
        layout::write_atomic(&own.join(MANIFEST), &text)?;
        REAL.remove_file(&own.join(PENDING))
            .with_context(|| format!("cannot remove {}", own.join(PENDING).display()))?;
        crate::outfile::sync_dir(&own);
        Ok(())
    }

    /// Remove the staged files of killed runs (under the lock, no other run has any).
    pub fn clean_staging(&self) {
        layout::remove_temporaries(&self.own());
        if let Ok(names) = REAL.list(&self.own()) {
            for name in names {
                if name.to_string_lossy().starts_with("staging.") {
                    let _ = REAL.remove_dir_all(&self.own().join(name));
                }
            }
        }
    }

    /// A new directory for the files of this run, before they are committed.
    pub fn staging(&self) -> Result<PathBuf> {
        let own = self.own();
        REAL.create_dir_all(&own)
            .with_context(|| format!("cannot create {}", own.display()))?;
        let s = own.join(format!(
            "staging.{}.{:x}",
            std::process::id(),
            crate::outfile::salt()
        ));
        REAL.create_dir(&s)
            .with_context(|| format!("cannot create {}", s.display()))?;
        Ok(s)
    }

    /// Move a staged file into its table's store (kept as it is when the store has it: the
    /// same name is the same bytes).
    pub fn store(&self, staged: &Path, table: &str, name: &str) -> Result<()> {
        let store = layout::table_dir(&self.dir, table).join(layout::STORE);
        REAL.create_dir_all(&store)
            .with_context(|| format!("cannot create {}", store.display()))?;
        let to = store.join(name);
        if to.exists() {
            return Ok(());
        }
        REAL.rename(staged, &to)
            .with_context(|| format!("cannot move {} to {}", staged.display(), to.display()))?;
        crate::outfile::sync_dir(&store);
        Ok(())
    }

    /// Undo what a failed run made: its staged files, and the dataset directory itself when
    /// this run made it (and nothing else is in it).
    pub fn abandon(self, staging: Option<&Path>) {
        if let Some(s) = staging {
            let _ = REAL.remove_dir_all(s);
        }
        let own = self.own();
        let _ = REAL.remove_dir(&own);
        if self.created {
            let _ = REAL.remove_file(&self.dir.join(LOCK));
            let _ = REAL.remove_dir(&self.dir);
        }
    }
}

/// Refuse a championship id that cannot name a partition.
pub fn check_id(id: &str, from: &str) -> std::result::Result<(), BadId> {
    if !layout::valid_id(id) {
        return Err(BadId {
            id: id.to_string(),
            from: from.to_string(),
        });
    }
    Ok(())
}

/// A championship id that cannot name a partition, and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadId {
    pub id: String,
    pub from: String,
}

impl std::fmt::Display for BadId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: \"{}\" cannot be a championship id (letters, digits, '.', '_' and '-', at most 100, starting with a letter or digit); give one with --id",
            self.from, self.id
        )
    }
}

impl std::error::Error for BadId {}
