//! Helpers shared by integration tests (`mod common;`).
// (each test binary uses some of these helpers, none all of them)
#![allow(dead_code)]

pub mod browser;
pub mod bws;
pub mod scratch;

use std::path::{Path, PathBuf};

/// The audit cache directory `dir` as the tests' build keeps it (`audit::cache::Store`).
pub fn test_store(dir: &Path) -> frekans_core::audit::cache::Store<'_> {
    frekans_core::audit::cache::Store::new(dir, "test")
}

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The demo championships: every `events/*.jsonl`, in name order.
pub fn demo_logs() -> Vec<PathBuf> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(root().join("events"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    logs.sort();
    logs
}

/// Every golden fixture's log, `fixtures/*/events.jsonl`, in name order.
#[allow(dead_code)]
pub fn fixture_logs() -> Vec<PathBuf> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("events.jsonl"))
        .filter(|p| p.is_file())
        .collect();
    logs.sort();
    logs
}

/// The logs the audit tests ask questions of: the demo championships, `audit-small`, and the
/// fixtures with a fouled board and with team sessions.
#[allow(dead_code)]
pub fn audited_logs() -> Vec<PathBuf> {
    let mut logs = demo_logs();
    logs.push(root().join("tests/data/audit-small.jsonl"));
    // (and every team-form fixture with a ruling: teams, Patton, BAM)
    for d in [
        "EBU-FOULED",
        "PL-SD-TEAMS-1",
        "HE-SPLIT-TEAMS",
        "BAM-1",
        "HE-WEIGHTED-TEAMS",
        "PL-SD-TEAMS-2",
        "PL-SD-TEAMS-3",
        "PL-SPLIT-TEAMS-1",
        "PL-SPLIT-TEAMS-2",
        "PL-W-TEAMS-1",
        "RU-PATTON",
        "RU-PATTON-ALT",
        "RU-PATTON-ART",
        "RU-TEAMS-1",
        "RU-TEAMS-2",
        "TEAMS-ART",
        "TEAMS-VP-NOS",
    ] {
        logs.push(root().join("fixtures").join(d).join("events.jsonl"));
    }
    logs
}

/// A log read and replayed whole (both without errors: `what` names it when they are not):
/// its events, its replay, a question for each of its rulings, and its last seq.
#[allow(dead_code)]
pub fn replayed(
    bytes: &[u8],
    what: &str,
) -> (
    Vec<frekans_core::event::Envelope>,
    frekans_core::replay::State,
    Vec<frekans_core::audit::Question>,
    usize,
) {
    let read = frekans_core::event::read_log(bytes);
    assert!(read.errors.is_empty(), "{what}");
    let (full, errors) =
        frekans_core::replay::replay(&read.events, &frekans_core::replay::ReplayScope::default());
    assert!(errors.is_empty(), "{what}");
    let rulings = full
        .rulings
        .iter()
        .map(|r| frekans_core::audit::Question::Ruling(r.ev.id.clone()))
        .collect();
    let last = read.events.last().unwrap().seq;
    (read.events, full, rulings, last)
}

/// The audit as the JSON object of interface.md, made field by field with `serde_json::json!`:
/// the oracle the library's one serializer (`frekans_core::audit::write_json`, streamed) is
/// checked against.
pub fn audit_json(a: &frekans_core::audit::Audit) -> serde_json::Value {
    use serde_json::json;
    let question = match &a.question {
        frekans_core::audit::Question::Ruling(id) => json!({"ruling": id}),
        frekans_core::audit::Question::AsOf(s) => json!({"as_of": s}),
        frekans_core::audit::Question::Between(x, y) => json!({"between": [x, y]}),
        frekans_core::audit::Question::With(v) => json!({ "with": v }),
    };
    let standings: Vec<_> = a
        .standings
        .iter()
        .map(|s| {
            json!({"session": &*s.session, "section": s.section.as_deref(), "participant": &*s.participant,
                   "total_before": s.total_before, "total_after": s.total_after,
                   "pct_before": s.pct_before, "pct_after": s.pct_after,
                   "rank_before": s.rank_before, "rank_after": s.rank_after,
                   "delta": s.delta()})
        })
        .collect();
    let boards: Vec<_> = a
        .boards
        .iter()
        .map(|b| {
            json!({"session": b.session, "section": b.section, "board": b.board, "participant": b.participant,
                   "side": b.side, "score_before": b.score_before, "score_after": b.score_after})
        })
        .collect();
    let rulings: Vec<_> = a
        .rulings
        .iter()
        .map(|r| json!({"ruling": r.id, "session": r.session, "board": r.board, "score": r.score, "law": r.law, "by": r.by, "note": r.note, "seq": r.seq}))
        .collect();
    json!({"audit": question, "standings": standings, "boards": boards, "rulings": rulings})
}

/// Every file under `dir`, recursively, in path order.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every file under `dir` (recursively) as (path from the repository's root, text); files that
/// are not text skipped.
pub fn texts_under(dir: &Path) -> Vec<(String, String)> {
    files_under(dir)
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            Some((p.strip_prefix(root()).unwrap().display().to_string(), text))
        })
        .collect()
}

/// The source folders of the workspace: the binary's `src/` and each crate's `crates/*/src/`.
pub fn source_roots() -> Vec<std::path::PathBuf> {
    let mut roots = vec![root().join("src")];
    let mut crates: Vec<std::path::PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .collect();
    crates.sort();
    roots.extend(crates);
    roots
}

/// Every source file of the workspace, as (path from the repository's root, text).
pub fn sources() -> Vec<(String, String)> {
    source_roots().iter().flat_map(|r| texts_under(r)).collect()
}

/// A PDF's text as `pdftotext -layout` lays it out (pages separated by form feeds).
pub fn pdftotext(pdf: &Path) -> String {
    let o = std::process::Command::new("pdftotext")
        .arg("-layout")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils, installed by scripts/test.sh)");
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// `q` answered by `audit::answer` the long way, from the log `events` replayed whole (`full`),
/// reusing `scored` when given; `incremental` off: both sides scored whole.
pub fn audit_replayed(
    events: &[frekans_core::event::Envelope],
    full: &frekans_core::replay::State,
    scored: Option<&frekans_core::pipeline::Scored>,
    q: &frekans_core::audit::Question,
    incremental: bool,
) -> Result<frekans_core::audit::Audit, frekans_core::audit::AuditError> {
    use frekans_core::audit::{answer, Ask, Source};
    let source = Source::Replayed {
        events,
        full,
        scored,
        incremental,
    };
    let a = answer(Ask::Question(q), source)?.answered();
    Ok(a.expect("the long way always answers").audit)
}

/// `q` answered by `audit::answer` from the audit cache `c` of the log `bytes`; `None` when the
/// cache cannot answer it.
pub fn audit_cached(
    bytes: &[u8],
    c: frekans_core::audit::cache::AuditCache,
    q: &frekans_core::audit::Question,
) -> Result<Option<frekans_core::audit::Audit>, frekans_core::audit::AuditError> {
    use frekans_core::audit::{answer, Ask, Held, Source};
    let source = Source::Cached {
        bytes,
        cache: Held::Owned(Box::new(c)),
    };
    Ok(answer(Ask::Question(q), source)?
        .answered()
        .map(|a| a.audit))
}
