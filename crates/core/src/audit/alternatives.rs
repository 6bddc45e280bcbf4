//! `audit --alternatives`: several proposed rulings for one table, each audited as a what-if on
//! its own (`audit::whatif`), and the affected participants' places and totals under each put
//! side by side, so that an appeals committee sees where the weights begin to change a place.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{Audit, Question, StandingDelta};

pub use crate::export::audit_rows::{After, AlternativeRow as Row};

/// The alternatives' what-ifs and their standings side by side.
#[derive(Clone, Debug, PartialEq)]
pub struct Alternatives {
    /// Each alternative's what-if, in the order given: its question, standings and rulings (its
    /// boards and what it was made from are let go once it is made, see [`keep`]).
    pub audits: Vec<Audit>,
    /// Every participant whose total or place any alternative changes, group by group
    /// (sessions by id, then section, overall last), by place before.
    pub rows: Vec<Row>,
}

/// Why proposed alternatives are not rulings for one table ([`same_table`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NotOneTable {
    #[error("--alternatives: the file holds no proposed ruling")]
    Empty,
    #[error(
        "{at}: expected a \"ruling\" (--alternatives compares proposed rulings for one table)"
    )]
    NotRuling { at: String },
    #[error("{at}: a ruling for another table than {first}'s (session {}, board {}, NS {}): the alternatives must be for the same table", .table[0], .table[1], .table[2])]
    Other {
        at: String,
        first: String,
        /// The first alternative's session, board and NS pair.
        table: Box<[serde_json::Value; 3]>,
    },
}

/// `Ok` when every alternative (its JSON text and where it was read) that reads as a JSON object
/// is a ruling for the same table (session, board and NS pair) as the first; what is wrong
/// otherwise, naming the alternative. (Text that is not a JSON object is refused by `append`'s
/// checks, with its error, when the alternative is proposed.)
pub fn same_table(alternatives: &[(String, String)]) -> Result<(), NotOneTable> {
    if alternatives.is_empty() {
        return Err(NotOneTable::Empty);
    }
    let mut first: Option<(&str, [serde_json::Value; 3])> = None;
    for (text, at) in alternatives {
        let Ok(serde_json::Value::Object(o)) = serde_json::from_str(text.trim()) else {
            continue;
        };
        if o.get("type").and_then(|t| t.as_str()) != Some("ruling") {
            return Err(NotOneTable::NotRuling { at: at.clone() });
        }
        let table = ["session", "board", "ns"].map(|k| o.get(k).cloned().unwrap_or_default());
        match &first {
            None => first = Some((at, table)),
            Some((where_first, t)) if *t != table => {
                return Err(NotOneTable::Other {
                    at: at.clone(),
                    first: where_first.to_string(),
                    table: Box::new(t.clone()),
                })
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// What an alternative's what-if keeps once made: its question, standings and rulings (the
/// side-by-side table shows places and totals; `--with` its ruling shows its boards). At a
/// million results each what-if's boards and replays are hundreds of megabytes.
pub fn keep(a: super::Answer) -> Audit {
    Audit {
        boards: Vec::new(),
        ..a.audit
    }
}

/// A standings group's key for ordering: sessions by id, then section; overall last.
fn group(s: &StandingDelta) -> (bool, Arc<str>, Option<Arc<str>>) {
    let overall = &*s.session == "overall";
    (
        overall,
        s.session.clone(),
        if overall { None } else { s.section.clone() },
    )
}

impl Alternatives {
    /// Each alternative's ruling: its id and normalised adjusted score.
    pub fn named(&self) -> Vec<(String, String)> {
        self.audits
            .iter()
            .map(|x| {
                x.rulings
                    .first()
                    .map(|r| (r.id.clone(), r.score.clone()))
                    .unwrap_or_default()
            })
            .collect()
    }

    /// The side-by-side table of the alternatives' what-ifs `audits`.
    pub fn new(audits: Vec<Audit>) -> Alternatives {
        type Key = ((bool, Arc<str>, Option<Arc<str>>), Arc<str>);
        // Each participant of a changed group: its standing before and under each alternative
        // that lists it (a group an alternative does not change is listed by it unchanged).
        let mut rows: BTreeMap<Key, (Row, Vec<Option<After>>, bool)> = BTreeMap::new();
        let n = audits.len();
        for (k, a) in audits.iter().enumerate() {
            for s in &a.standings {
                let e = rows
                    .entry((group(s), s.participant.clone()))
                    .or_insert_with(|| {
                        (
                            Row {
                                session: s.session.clone(),
                                section: s.section.clone(),
                                participant: s.participant.clone(),
                                players: s.players.clone(),
                                noun: s.noun,
                                total_before: s.total_before,
                                pct_before: s.pct_before,
                                rank_before: s.rank_before,
                                after: Vec::new(),
                            },
                            vec![None; n],
                            false,
                        )
                    });
                e.1[k] = Some(After {
                    total: s.total_after,
                    pct: s.pct_after,
                    rank: s.rank_after,
                    delta: s.delta(),
                });
                e.2 |= s.delta().is_none_or(|d| d != 0.0) || s.rank_before != s.rank_after;
            }
        }
        let mut out: Vec<Row> = rows
            .into_values()
            .filter(|(_, _, moved)| *moved)
            .map(|(mut row, after, _)| {
                row.after = after
                    .into_iter()
                    .map(|a| {
                        a.unwrap_or(After {
                            total: row.total_before,
                            pct: row.pct_before,
                            rank: row.rank_before,
                            delta: Some(0.0),
                        })
                    })
                    .collect();
                row
            })
            .collect();
        // (stable: within a group, by place before, then id as the map had them)
        out.sort_by(|x, y| {
            let gx = (
                &*x.session == "overall",
                x.session.clone(),
                x.section.clone(),
            );
            let gy = (
                &*y.session == "overall",
                y.session.clone(),
                y.section.clone(),
            );
            let gx = (gx.0, gx.1, if gx.0 { None } else { gx.2 });
            let gy = (gy.0, gy.1, if gy.0 { None } else { gy.2 });
            gx.cmp(&gy).then(
                x.rank_before
                    .unwrap_or(i32::MAX)
                    .cmp(&y.rank_before.unwrap_or(i32::MAX)),
            )
        });
        Alternatives { audits, rows: out }
    }

    /// The proposed rulings, as given.
    pub fn proposals(&self) -> Vec<&serde_json::Value> {
        self.audits
            .iter()
            .filter_map(|a| match &a.question {
                Question::With(v) => v.first(),
                _ => None,
            })
            .collect()
    }
}

/// The alternatives as one JSON object: `{"audit": {"alternatives": [...]}, "standings": [...]}`,
/// each standing with its `total_before`, `pct_before`, `rank_before` and, under each
/// alternative in order, `{"total_after", "pct_after", "rank_after", "delta"}`; `rulings`: each
/// alternative's ruling as an audit lists it.
pub fn to_json(a: &Alternatives) -> serde_json::Value {
    use serde_json::json;
    let standings: Vec<_> = a
        .rows
        .iter()
        .map(|r| {
            let after: Vec<_> = r
                .after
                .iter()
                .map(|x| json!({"total_after": x.total, "pct_after": x.pct, "rank_after": x.rank, "delta": x.delta}))
                .collect();
            json!({"session": &*r.session, "section": r.section.as_deref(), "participant": &*r.participant,
                   "total_before": r.total_before, "pct_before": r.pct_before, "rank_before": r.rank_before,
                   "alternatives": after})
        })
        .collect();
    let rulings: Vec<_> = a
        .audits
        .iter()
        .map(|x| {
            x.rulings.first().map(|r| json!({"ruling": r.id, "session": r.session, "board": r.board, "score": r.score, "law": r.law, "by": r.by, "note": r.note, "seq": r.seq}))
        })
        .collect();
    json!({"audit": {"alternatives": a.proposals()}, "standings": standings, "rulings": rulings})
}

fn cell(total: Option<f64>, pct: Option<f64>, rank: Option<i32>) -> String {
    let place = rank.map_or("-".to_string(), |r| r.to_string());
    let value = match (pct, total) {
        (Some(p), _) => format!("{p:.2}%"),
        (None, Some(t)) => format!("{t:.2}"),
        (None, None) => "-".into(),
    };
    format!("{place:>6} {value:>9}")
}

/// The alternatives as a readable table: each group's affected participants, their place and
/// total (or percentage) before and under each alternative.
pub fn to_text(a: &Alternatives) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Alternatives: {} proposed ruling{}, each added on its own at the end of the log (nothing written), against the log as it is.",
        a.audits.len(),
        if a.audits.len() == 1 { "" } else { "s" }
    );
    for (k, (p, x)) in a.proposals().iter().zip(&a.audits).enumerate() {
        let _ = writeln!(out, "  A{}: {p}", k + 1);
        for r in &x.rulings {
            let _ = writeln!(
                out,
                "      {}",
                super::output::ruling_text(r, " if appended", false)
            );
        }
    }
    if a.rows.is_empty() {
        let _ = writeln!(out, "\nNo alternative changes a total or a place.");
        return out;
    }
    let mut last: Option<(String, Option<String>)> = None;
    for r in &a.rows {
        let overall = &*r.session == "overall";
        let g = (
            r.session.to_string(),
            if overall {
                None
            } else {
                r.section.as_deref().map(str::to_string)
            },
        );
        if last.as_ref() != Some(&g) {
            let sec =
                g.1.as_ref()
                    .map(|x| format!(", section {x}"))
                    .unwrap_or_default();
            let head = if overall {
                "overall".to_string()
            } else {
                format!("session {}", g.0)
            };
            let _ = writeln!(out, "\n{head}{sec} (place and score):");
            let _ = write!(out, "  {:<8} {:>16}", r.noun, "before");
            for k in 0..r.after.len() {
                let _ = write!(out, " {:>16}", format!("A{}", k + 1));
            }
            let _ = writeln!(out, "  players");
            last = Some(g);
        }
        let _ = write!(
            out,
            "  {:<8} {:>16}",
            r.participant,
            cell(r.total_before, r.pct_before, r.rank_before)
        );
        for x in &r.after {
            let _ = write!(out, " {:>16}", cell(x.total, x.pct, x.rank));
        }
        let _ = writeln!(out, "  {}", r.players);
    }
    let _ = writeln!(
        out,
        "\n(each alternative on its own: `frekans audit LOG --with '<its ruling>'` shows its boards)"
    );
    out
}
