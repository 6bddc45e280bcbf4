//! A transaction planned whole before any of it is written: each table's Delta commit, the Hive
//! partitions to link or remove, and the manifest after it.

use std::collections::BTreeMap;

use crate::error::Result;
use serde_json::{json, Value};

use super::delta;
use super::{Entry, HiveOp, Manifest, Pending, TableMeta, TABLES};

/// A championship scored by this run, its tables staged: its new entry (its `version` is set
/// by the plan).
pub struct Added {
    pub id: String,
    pub entry: Entry,
}

/// The transaction that puts `added` into the dataset of `manifest`; `schemas` are the tables'
/// Delta schemas (from this run's frames), `uuids` new table ids should a table be created,
/// `ms` the time in milliseconds since 1970.
pub fn plan_add(
    manifest: &Manifest,
    added: Vec<Added>,
    schemas: &BTreeMap<String, String>,
    uuids: &mut dyn FnMut() -> String,
    ms: i64,
) -> Result<Pending> {
    let version = manifest.version.map_or(0, |v| v + 1);
    let mut next = manifest.clone();
    next.version = Some(version);
    let mut commits = BTreeMap::new();
    let mut hive = Vec::new();
    let mut links = Vec::new();
    let ids: Vec<&str> = added.iter().map(|a| a.id.as_str()).collect();
    for table in TABLES {
        let mut actions = Vec::new();
        let schema = schemas.get(table).cloned().unwrap_or_default();
        match manifest.tables.get(table) {
            None => {
                let id = uuids();
                actions.extend(delta::create_actions(table, &schema, &id, ms));
                next.tables
                    .insert(table.to_string(), TableMeta { id, schema });
            }
            Some(m) if !schema.is_empty() && m.schema != schema => {
                // (columns added by a newer frekans: a Delta reader gives older files nulls)
                actions.push(delta::metadata_action(table, &schema, &m.id, ms));
                next.tables.insert(
                    table.to_string(),
                    TableMeta {
                        id: m.id.clone(),
                        schema,
                    },
                );
            }
            Some(_) => {}
        }
        let mut removed = 0;
        for a in &added {
            let new = &a.entry.tables[table];
            let old = manifest.championships.get(&a.id);
            let old_file = old.and_then(|o| o.tables.get(table).map(|f| (o.season, f)));
            if old_file.is_some_and(|(s, f)| s == a.entry.season && f.file == new.file) {
                continue;
            }
            if let Some((season, f)) = old_file {
                removed += 1;
                actions.push(delta::remove_action(
                    &super::layout::store_path(&f.file),
                    season,
                    &a.id,
                    f.size,
                    ms,
                ));
                if season != a.entry.season {
                    hive.push(op(table, season, &a.id, None));
                }
            }
            actions.push(delta::add_action(
                &super::layout::store_path(&new.file),
                a.entry.season,
                &a.id,
                new.size,
                new.rows,
                ms,
            ));
            links.push(op(table, a.entry.season, &a.id, Some(new.file.clone())));
        }
        let params = if removed == 0 {
            json!({"mode": "Append", "partitionBy": r#"["season","championship"]"#})
        } else {
            json!({"mode": "Overwrite", "partitionBy": r#"["season","championship"]"#,
                   "predicate": predicate(&ids)})
        };
        actions.insert(0, delta::commit_info("WRITE", params, ms));
        commits.insert(table.to_string(), delta::commit_text(&actions));
    }
    hive.extend(links);
    for mut a in added {
        a.entry.version = version;
        next.championships.insert(a.id, a.entry);
    }
    Ok(Pending {
        version,
        commits,
        hive,
        manifest: next,
    })
}

/// The transaction that takes championship `id` out of the dataset of `manifest` (which has
/// it).
pub fn plan_remove(manifest: &Manifest, id: &str, ms: i64) -> Pending {
    let version = manifest.version.map_or(0, |v| v + 1);
    let mut next = manifest.clone();
    next.version = Some(version);
    let entry = next
        .championships
        .remove(id)
        .expect("the manifest has the championship");
    let mut commits = BTreeMap::new();
    let mut hive = Vec::new();
    for table in TABLES {
        let params = json!({"predicate": predicate(&[id])});
        let mut actions = vec![delta::commit_info("DELETE", params, ms)];
        if let Some(f) = entry.tables.get(table) {
            actions.push(delta::remove_action(
                &super::layout::store_path(&f.file),
                entry.season,
                id,
                f.size,
                ms,
            ));
        }
        hive.push(op(table, entry.season, id, None));
        commits.insert(table.to_string(), delta::commit_text(&actions));
    }
    Pending {
        version,
        commits,
        hive,
        manifest: next,
    }
}

fn op(table: &str, season: i32, id: &str, file: Option<String>) -> HiveOp {
    HiveOp {
        table: table.to_string(),
        season,
        championship: id.to_string(),
        file,
    }
}

/// The predicate of a commit touching these championships (for readers of the history).
fn predicate(ids: &[&str]) -> Value {
    let list: Vec<String> = ids.iter().map(|i| format!("'{i}'")).collect();
    json!(format!("championship IN ({})", list.join(", ")))
}
