//! Parquet through polars: the only polars user. Writes every table of a run into a directory
//! that appears whole or not at all (written beside it, then renamed into place).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use polars::prelude::*;

use super::rows::Tables;

macro_rules! frame {
    ($rows:expr, { $($name:literal : $get:expr),+ $(,)? }) => {{
        let rows = $rows;
        let columns: Vec<Column> = vec![
            $( Series::new($name.into(), rows.iter().map($get).collect::<Vec<_>>()).into_column() ),+
        ];
        DataFrame::new(rows.len(), columns)
    }};
}

/// The Parquet files of a run: (file name, frame).
pub fn frames(t: &Tables) -> PolarsResult<Vec<(&'static str, DataFrame)>> {
    let scores = frame!(&t.scores, {
        "session": |r| r.session.clone(),
        "section": |r| r.section.clone(),
        "board": |r| r.board,
        "participant": |r| r.participant.clone(),
        "side": |r| r.side.to_string(),
        "opponent": |r| r.opponent.clone(),
        "score": |r| r.score,
        "top": |r| r.top,
        "pct": |r| r.pct,
        "adjusted": |r| r.adjusted,
        "ns_points": |r| r.ns_points,
        "score_exact": |r| r.score_exact.clone(),
        "artificial_pct": |r| r.artificial_pct,
    })?;
    let frequencies = frame!(&t.frequencies, {
        "session": |r| r.session.clone(),
        "section": |r| r.section.clone(),
        "board": |r| r.board,
        "line": |r| r.line.to_string(),
        "ns_points": |r| r.ns_points,
        "count": |r| r.count,
        "mp_ns": |r| r.mp_ns,
        "mp_ew": |r| r.mp_ew,
        "group": |r| r.group,
    })?;
    let boards = frame!(&t.boards, {
        "session": |r| r.session.clone(),
        "section": |r| r.section.clone(),
        "board": |r| r.board,
        "results": |r| r.results,
        "mean": |r| r.mean,
        "dispersion": |r| r.dispersion,
        "dispersion_imp": |r| r.dispersion_imp,
        "dispersion_mp": |r| r.dispersion_mp,
        "datum": |r| r.datum,
        "field": |r| r.field,
        "tables": |r| r.tables,
    })?;
    let standings = frame!(&t.standings, {
        "session": |r| r.session.clone(),
        "section": |r| r.section.clone(),
        "participant": |r| r.participant.clone(),
        "rank": |r| r.rank,
        "rank_to": |r| r.rank_to,
        "total": |r| r.total,
        "max": |r| r.max,
        "pct": |r| r.pct,
        "boards": |r| r.boards,
        "players": |r| r.players.clone(),
        "penalties": |r| r.penalties,
    })?;
    let rulings = frame!(&t.rulings, {
        "ruling": |r| r.ruling.clone(),
        "session": |r| r.session.clone(),
        "board": |r| r.board,
        "ns": |r| r.ns.clone(),
        "ew": |r| r.ew.clone(),
        "score": |r| r.score.clone(),
        "law": |r| r.law.clone(),
        "seq": |r| r.seq,
        "by": |r| r.by.clone(),
        "at": |r| r.at.clone(),
        "note": |r| r.note.clone(),
        "supersedes": |r| r.supersedes.clone(),
    })?;
    let mut out = vec![
        ("scores.parquet", scores),
        ("frequencies.parquet", frequencies),
        ("boards.parquet", boards),
        ("standings.parquet", standings),
        ("rulings.parquet", rulings),
    ];
    if let Some(m) = &t.matches {
        let matches = frame!(m, {
            "session": |r| r.session.clone(),
            "match": |r| r.match_id.clone(),
            "home": |r| r.home.clone(),
            "away": |r| r.away.clone(),
            "imp_home": |r| r.imp_home,
            "imp_away": |r| r.imp_away,
            "vp_home": |r| r.vp_home,
            "vp_away": |r| r.vp_away,
            "boards": |r| r.boards,
            "scored": |r| r.scored,
        })?;
        out.push(("matches.parquet", matches));
    }
    if let Some(d) = &t.deals {
        let deals = frame!(d, {
            "session": |r| r.session.clone(),
            "board": |r| r.board,
            "dealer": |r| r.dealer.clone(),
            "vul": |r| r.vul.to_string(),
            "pbn": |r| r.pbn.clone(),
            "dd_N": |r| r.dd_n.clone(),
            "dd_E": |r| r.dd_e.clone(),
            "dd_S": |r| r.dd_s.clone(),
            "dd_W": |r| r.dd_w.clone(),
            "par_score": |r| r.par_score,
            "par_contracts": |r| r.par_contracts.clone(),
        })?;
        out.push(("deals.parquet", deals));
    }
    Ok(out)
}

/// Serialize one frame to Parquet bytes.
pub fn to_bytes(df: &mut DataFrame) -> PolarsResult<Vec<u8>> {
    let mut buf = Vec::new();
    ParquetWriter::new(&mut buf)
        .with_compression(ParquetCompression::Zstd(None))
        .finish(df)?;
    Ok(buf)
}

/// Write `files` into `out` atomically: a sibling temporary directory is filled and synced,
/// then renamed into place (an existing `out` is replaced only once the new one is complete).
pub fn write_dir(out: &Path, files: Vec<(String, Vec<u8>)>) -> Result<()> {
    if out.exists() && !out.is_dir() {
        anyhow::bail!("{} exists and is not a directory; give --out a directory (it is written whole or not at all)", out.display());
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).with_context(|| format!("cannot create {}", parent.display()))?;
    let name = out
        .file_name()
        .with_context(|| format!("{} is not a directory name", out.display()))?
        .to_string_lossy()
        .to_string();
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    let result = (|| -> Result<()> {
        fs::create_dir(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        for (file, bytes) in &files {
            let path = tmp.join(file);
            fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
            fs::File::open(&path)?.sync_all()?;
        }
        if out.exists() {
            // Keep everything else a user put there (a bulletin, notes): move our files in.
            let old = parent.join(format!(".{name}.old-{}", std::process::id()));
            fs::rename(out, &old)
                .with_context(|| format!("cannot move {} aside", out.display()))?;
            if let Err(e) = fs::rename(&tmp, out) {
                let _ = fs::rename(&old, out);
                return Err(e).with_context(|| format!("cannot rename into {}", out.display()));
            }
            // Carry over files of the old directory that this run does not produce.
            for entry in fs::read_dir(&old)? {
                let entry = entry?;
                let target = out.join(entry.file_name());
                if !target.exists() {
                    let _ = fs::rename(entry.path(), target);
                }
            }
            let _ = fs::remove_dir_all(&old);
        } else {
            fs::rename(&tmp, out)
                .with_context(|| format!("cannot rename into {}", out.display()))?;
        }
        if let Ok(d) = fs::File::open(&parent) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
}

/// Serialize every table and write the directory.
pub fn write(out: &Path, t: &Tables) -> Result<()> {
    let mut files = Vec::new();
    for (name, mut df) in anyhow::Context::context(frames(t), "cannot build the output tables")? {
        let bytes = anyhow::Context::with_context(to_bytes(&mut df), || {
            format!("cannot serialize {name}")
        })?;
        files.push((name.to_string(), bytes));
    }
    write_dir(out, files)
}

/// `audit --out DIR`: audit_standings.parquet and audit_boards.parquet.
pub fn write_audit(out: &Path, a: &crate::audit::Audit) -> Result<()> {
    let st = &a.standings;
    let mut standings = frame!(st, {
        "session": |r| r.session.clone(),
        "section": |r| r.section.clone(),
        "participant": |r| r.participant.clone(),
        "total_before": |r| r.total_before,
        "total_after": |r| r.total_after,
        "delta": |r| r.delta(),
        "pct_before": |r| r.pct_before,
        "pct_after": |r| r.pct_after,
        "rank_before": |r| r.rank_before,
        "rank_after": |r| r.rank_after,
    })
    .map_err(anyhow::Error::new)?;
    let b = &a.boards;
    let mut boards = frame!(b, {
        "session": |r| r.session.clone(),
        "section": |r| r.section.clone(),
        "board": |r| r.board,
        "participant": |r| r.participant.clone(),
        "side": |r| r.side.clone(),
        "score_before": |r| r.score_before,
        "score_after": |r| r.score_after,
    })
    .map_err(anyhow::Error::new)?;
    let files = vec![
        (
            "audit_standings.parquet".to_string(),
            to_bytes(&mut standings).map_err(anyhow::Error::new)?,
        ),
        (
            "audit_boards.parquet".to_string(),
            to_bytes(&mut boards).map_err(anyhow::Error::new)?,
        ),
    ];
    write_dir(out, files)
}
