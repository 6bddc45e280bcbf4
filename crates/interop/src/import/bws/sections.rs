//! A BWS database's sections (`Section`): their letters, and the form their `ScoringType`
//! gives.

use std::collections::BTreeMap;

use super::{cell, int, problem, BadCell, Database, Problem, Request};
use crate::score::Form;

/// Sections' letters by ID, the session's form with where the file gives it, and notices
/// (where, message) for the report.
pub(super) type Sections = (
    BTreeMap<i64, String>,
    Option<(String, String)>,
    Vec<(String, String)>,
);

/// Sections' letters by ID, the session's form (and where the file gives it), and the notices
/// said on it.
pub(super) fn sections(db: &Database, req: &Request) -> Result<Sections, Vec<Problem>> {
    let file = db.file;
    let one = |p: Problem| vec![p];
    // Sections: ID → letters (`Letter`, space-padded to its width, as Bridgemate Control
    // Software writes it; `Letters` read too), and the scoring type.
    let sections = db.export("Section").map_err(one)?;
    let c = sections.need(&["ID"], file).map_err(one)?;
    let letter = sections.col("Letter").or_else(|| sections.col("Letters"));
    if letter.is_none() {
        return Err(one(problem(
            file,
            "Section",
            format!(
                "no column Letter (a Bridgemate Section table names each section's letter in Letter; this one has {})",
                sections.headers.join(", ")
            ),
        )));
    }
    let scoring = sections.col("ScoringType");
    let mut letters: BTreeMap<i64, String> = BTreeMap::new();
    let mut form: Option<(String, String)> = None;
    for (i, row) in sections.rows.iter().enumerate() {
        let id = int(row, Some(c[0]), "ID")
            .and_then(|v| v.ok_or(BadCell::Empty("ID")))
            .map_err(|m| one(problem(file, &sections.at(i), m.to_string())))?;
        let l = cell(row, letter);
        letters.insert(
            id,
            if l.is_empty() {
                id.to_string()
            } else {
                l.to_string()
            },
        );
        if let Ok(Some(t)) = int(row, scoring, "ScoringType") {
            // The codes as the programs that write the column use them (BridgeTab's settings,
            // a Danish DBF tool: 1 matchpoints, 2 Butler, 3 cross-IMPs, 4 teams); Bridgemate's
            // developer's guide does not document the column (docs/interop.md). Each form's
            // code is its `Spec`'s `bws`.
            let code = Form::ALL.iter().find(|f| f.spec().bws == Some(t));
            let f = match code {
                Some(f) => f.name(),
                None => {
                    return Err(one(problem(
                        file,
                        &sections.at(i),
                        format!("ScoringType {t}: only pairs sessions are read (1 matchpoints, 2 Butler, 3 cross-IMPs); a teams session (4) is not: import the teams' results from the scoring program's USEBIO or PBN"),
                    )))
                }
            };
            form.get_or_insert((f.to_string(), sections.at(i)));
        }
    }
    // The older layout (the developer's guide of 2013 and before) has no ScoringType: a pairs
    // session at matchpoints unless the director says otherwise (`--form`).
    let mut notices = Vec::new();
    if form.is_none() && req.form.is_none() {
        form = Some((Form::UNNAMED.name().into(), "Section".into()));
        notices.push((
            "Section".to_string(),
            if scoring.is_none() {
                "no ScoringType column (the older Bridgemate layout): scored at matchpoints; give --form to score it otherwise".to_string()
            } else {
                "no section gives a ScoringType: scored at matchpoints; give --form to score it otherwise".to_string()
            },
        ));
    }
    Ok((letters, form, notices))
}
