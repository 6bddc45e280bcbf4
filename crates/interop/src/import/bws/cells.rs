//! A BWS table's cells as read: text trimmed, whole numbers, yes/no flags; and what is wrong
//! with an entry's cells ([`BadCell`]).

pub(super) fn cell(row: &[String], i: Option<usize>) -> &str {
    i.and_then(|i| row.get(i)).map(|s| s.trim()).unwrap_or("")
}

/// A whole number in a cell (`None` when empty).
pub(super) fn int(row: &[String], i: Option<usize>, what: &str) -> Result<Option<i64>, BadCell> {
    let c = cell(row, i);
    if c.is_empty() {
        return Ok(None);
    }
    c.parse::<i64>().map(Some).map_err(|_| BadCell::NotInt {
        what: what.to_string(),
        found: c.to_string(),
    })
}

/// A yes/no cell as mdb-export writes it (`1`/`0`, or `TRUE`/`FALSE`).
pub(super) fn flag(row: &[String], i: Option<usize>) -> bool {
    matches!(
        cell(row, i).to_ascii_uppercase().as_str(),
        "1" | "-1" | "TRUE" | "YES"
    )
}

/// A cell of a row that cannot be taken: the column's name, and what was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum BadCell {
    #[error("{what}: expected a whole number, found {found:?}")]
    NotInt { what: String, found: String },
    #[error("{what}: expected {lo} to {hi}, found {found}")]
    Range {
        what: &'static str,
        lo: i64,
        hi: i64,
        found: i64,
    },
    #[error("{0}: empty")]
    Empty(&'static str),
    #[error("Section: {0} is not a section of the Section table")]
    Section(i64),
    #[error("West: empty beside a South player; expected the West player's number")]
    NoWest,
    #[error("South: empty beside a West player; expected the South player's number")]
    NoSouth,
}
