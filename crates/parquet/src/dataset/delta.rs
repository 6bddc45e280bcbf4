//! The Delta Lake transaction log of each table, written by frekans itself after the Delta
//! protocol (github.com/delta-io/delta, PROTOCOL.md): reader version 1, writer version 2; one
//! commit file `_delta_log/%020d.json` a version, each line one action (`commitInfo`,
//! `protocol`, `metaData`, `add`, `remove`), created only if no file of that version exists
//! (put-if-absent: written whole under a temporary name, then hard-linked to its name).

use frekans_core::world::{World, REAL};
use std::path::Path;

use crate::error::{Context, Result};
use polars::prelude::{DataType, Schema};
use serde_json::{json, Value};

use super::layout::DELTA_LOG;

/// The dataset's schema version, in each table's `metaData.configuration` and the manifest.
pub const SCHEMA_VERSION: &str = "1";

/// The Delta type of a polars column type.
fn delta_type(t: &DataType) -> Result<Value> {
    Ok(match t {
        DataType::String => json!("string"),
        DataType::Boolean => json!("boolean"),
        DataType::Int32 => json!("integer"),
        DataType::Int64 => json!("long"),
        DataType::Float64 => json!("double"),
        DataType::Date => json!("date"),
        DataType::List(inner) => json!({
            "type": "array",
            "elementType": delta_type(inner)?,
            "containsNull": true,
        }),
        other => {
            return Err(crate::error::Failed::said(format!(
                "no Delta type for a column of {other:?}"
            )))
        }
    })
}

/// `metaData.schemaString` of a table whose files have the columns of `schema`: those columns,
/// then the partition columns `season` (integer) and `championship` (string).
pub fn schema_string(schema: &Schema) -> Result<String> {
    let mut fields = Vec::new();
    for (name, t) in schema.iter() {
        fields.push(json!({"name": name.as_str(), "type": delta_type(t)?, "nullable": true, "metadata": {}}));
    }
    fields.push(json!({"name": "season", "type": "integer", "nullable": true, "metadata": {}}));
    fields
        .push(json!({"name": "championship", "type": "string", "nullable": true, "metadata": {}}));
    Ok(json!({"type": "struct", "fields": fields}).to_string())
}

/// The partition values of a championship's files.
fn partition_values(season: i32, id: &str) -> Value {
    json!({"season": season.to_string(), "championship": id})
}

/// The actions that create a table: its protocol and metadata.
pub fn create_actions(table: &str, schema: &str, uuid: &str, ms: i64) -> Vec<Value> {
    vec![
        json!({"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}}),
        metadata_action(table, schema, uuid, ms),
    ]
}

/// A `metaData` action (a new table, or a table whose columns changed).
pub fn metadata_action(table: &str, schema: &str, uuid: &str, ms: i64) -> Value {
    json!({"metaData": {
        "id": uuid,
        "name": table,
        "format": {"provider": "parquet", "options": {}},
        "schemaString": schema,
        "partitionColumns": ["season", "championship"],
        "configuration": {"frekans.schemaVersion": SCHEMA_VERSION},
        "createdTime": ms,
    }})
}

/// An `add` action: the store file `path` (relative to the table) of `rows` rows.
pub fn add_action(path: &str, season: i32, id: &str, size: u64, rows: u64, ms: i64) -> Value {
    json!({"add": {
        "path": path,
        "partitionValues": partition_values(season, id),
        "size": size,
        "modificationTime": ms,
        "dataChange": true,
        "stats": json!({"numRecords": rows}).to_string(),
    }})
}

/// A `remove` action of a file an earlier version added.
pub fn remove_action(path: &str, season: i32, id: &str, size: u64, ms: i64) -> Value {
    json!({"remove": {
        "path": path,
        "deletionTimestamp": ms,
        "dataChange": true,
        "extendedFileMetadata": true,
        "partitionValues": partition_values(season, id),
        "size": size,
    }})
}

/// The `commitInfo` action of a version.
pub fn commit_info(operation: &str, parameters: Value, ms: i64) -> Value {
    json!({"commitInfo": {
        "timestamp": ms,
        "operation": operation,
        "operationParameters": parameters,
        "engineInfo": concat!("frekans/", env!("CARGO_PKG_VERSION")),
        "clientVersion": concat!("frekans-", env!("CARGO_PKG_VERSION")),
        "isBlindAppend": false,
    }})
}

/// A UUID (version 4 layout) from 16 bytes.
pub fn uuid(bytes: [u8; 16]) -> String {
    let mut b = bytes;
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex::encode(b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// The commit file of `version`, relative to the table's directory.
pub fn commit_name(version: u64) -> String {
    format!("{version:020}.json")
}

/// Write version `version` of the table at `table_dir`: its actions, one JSON line each.
/// Put-if-absent: the file is written whole under a temporary name, synced, then hard-linked
/// to its name, which fails if the version exists. A version that exists with these very
/// lines (a run finishing what a killed one began) is left as it is; with other lines it is
/// an error (another writer took the version).
pub fn write_commit(table_dir: &Path, version: u64, text: &str) -> Result<()> {
    let log = table_dir.join(DELTA_LOG);
    REAL.create_dir_all(&log)
        .with_context(|| format!("cannot create {}", log.display()))?;
    let path = log.join(commit_name(version));
    if let Ok(Ok(existing)) = REAL.read(&path).map(String::from_utf8) {
        if existing == text {
            return Ok(());
        }
        return Err(crate::error::Failed::said(format!(
            "{} exists and is not the commit this run makes: another program wrote version {version} of the table",
            path.display()
        )));
    }
    super::layout::remove_temporaries(&log);
    let tmp = log.join(format!(
        ".{}.tmp-{}-{:x}",
        commit_name(version),
        std::process::id(),
        crate::outfile::salt()
    ));
    super::layout::write_synced(&tmp, text.as_bytes())?;
    let linked = REAL.hard_link(&tmp, &path);
    let _ = REAL.remove_file(&tmp);
    match linked {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return write_commit(table_dir, version, text);
        }
        Err(e) => return Err(e).with_context(|| format!("cannot create {}", path.display())),
    }
    crate::outfile::sync_dir(&log);
    Ok(())
}

/// The lines of a commit.
pub fn commit_text(actions: &[Value]) -> String {
    let mut s = String::new();
    for a in actions {
        s.push_str(&a.to_string());
        s.push('\n');
    }
    s
}
