//! Parquet through polars: the only polars user. Writes every table of a run into a directory
//! that appears whole or not at all (written beside it, then renamed into place).

use std::path::Path;

use crate::error::Result;
use polars::prelude::*;

use super::audit_rows::{AlternativeRow, BoardDelta, StandingDelta};
use super::rows::Tables;
use crate::pipeline::Scored;
use crate::replay::State;
use crate::score::{BoardScore, SideScore};

macro_rules! frame {
    ($rows:expr, { $($name:literal : $get:expr),+ $(,)? }) => {{
        let rows = $rows;
        let columns: Vec<Column> = vec![
            $( Series::new($name.into(), rows.iter().map($get).collect::<Vec<_>>()).into_column() ),+
        ];
        DataFrame::new(rows.len(), columns)
    }};
}

/// The Parquet files of a run, in order.
pub fn names(t: &Tables) -> Vec<&'static str> {
    let mut v = vec![
        "scores.parquet",
        "frequencies.parquet",
        "boards.parquet",
        "standings.parquet",
        "rulings.parquet",
    ];
    if t.matches.is_some() {
        v.push("matches.parquet");
    }
    if t.deals.is_some() {
        v.push("deals.parquet");
    }
    v
}

/// One table of a run as a frame (strings borrowed from the rows, not copied); every table
/// but scores.parquet, whose one builder works from the scored boards ([`scores_frame`],
/// [`scores_bytes`]: millions of rows, no row struct each).
pub fn frame_of(t: &Tables, name: &str) -> PolarsResult<DataFrame> {
    Ok(match name {
        "frequencies.parquet" => frame!(&t.frequencies, {
            "session": |r| r.session.as_str(),
            "section": |r| r.section.as_deref(),
            "board": |r| r.board,
            "line": |r| r.line,
            "ns_points": |r| r.ns_points,
            "count": |r| r.count,
            "mp_ns": |r| r.mp_ns,
            "mp_ew": |r| r.mp_ew,
            "group": |r| r.group,
        })?,
        "boards.parquet" => frame!(&t.boards, {
            "session": |r| r.session.as_str(),
            "section": |r| r.section.as_deref(),
            "board": |r| r.board,
            "results": |r| r.results,
            "mean": |r| r.mean,
            "dispersion": |r| r.dispersion,
            "dispersion_imp": |r| r.dispersion_imp,
            "dispersion_mp": |r| r.dispersion_mp,
            "datum": |r| r.datum,
            "field": |r| r.field,
            "tables": |r| r.tables,
        })?,
        "standings.parquet" => {
            let mut df = frame!(&t.standings, {
                "session": |r| r.session.as_str(),
                "section": |r| r.section.as_deref(),
                "participant": |r| r.participant.as_str(),
                "rank": |r| r.rank,
                "rank_to": |r| r.rank_to,
                "total": |r| r.total,
                "max": |r| r.max,
                "pct": |r| r.pct,
                "boards": |r| r.boards,
                "players": |r| r.players.as_str(),
                "penalties": |r| r.penalties,
            })?;
            let ids = t.standings.iter().map(|r| Some(r.player_ids.as_slice()));
            df.with_column(player_ids_column("player_ids", ids)?)?;
            df
        }
        "rulings.parquet" => frame!(&t.rulings, {
            "ruling": |r| r.ruling.as_str(),
            "session": |r| r.session.as_str(),
            "board": |r| r.board,
            "ns": |r| r.ns.as_str(),
            "ew": |r| r.ew.as_str(),
            "score": |r| r.score.as_str(),
            "law": |r| r.law.as_deref(),
            "seq": |r| r.seq,
            "by": |r| r.by.as_deref(),
            "at": |r| r.at.as_deref(),
            "note": |r| r.note.as_deref(),
            "supersedes": |r| r.supersedes.as_deref(),
        })?,
        "matches.parquet" => frame!(t.matches.as_deref().unwrap_or_default(), {
            "session": |r| r.session.as_str(),
            "match": |r| r.match_id.as_str(),
            "home": |r| r.home.as_str(),
            "away": |r| r.away.as_str(),
            "imp_home": |r| r.imp_home,
            "imp_away": |r| r.imp_away,
            "vp_home": |r| r.vp_home,
            "vp_away": |r| r.vp_away,
            "boards": |r| r.boards,
            "scored": |r| r.scored,
        })?,
        "deals.parquet" => frame!(t.deals.as_deref().unwrap_or_default(), {
            "session": |r| r.session.as_str(),
            "board": |r| r.board,
            "dealer": |r| r.dealer.as_str(),
            "vul": |r| r.vul,
            "pbn": |r| r.pbn.as_str(),
            "dd_N": |r| r.dd_n.as_str(),
            "dd_E": |r| r.dd_e.as_str(),
            "dd_S": |r| r.dd_s.as_str(),
            "dd_W": |r| r.dd_w.as_str(),
            "par_score": |r| r.par_score,
            "par_contracts": |r| r.par_contracts.as_str(),
        })?,
        other => panic!("no table {other} here (scores.parquet: scores_frame)"),
    })
}

/// A `list<string>` column of players' member numbers, one list a row (null where the row names
/// no participant known): standings.parquet's `player_ids` and the dataset's `<col>_player_ids`.
pub fn player_ids_column<'r>(
    name: &str,
    rows: impl ExactSizeIterator<Item = Option<&'r [Option<String>]>>,
) -> PolarsResult<Column> {
    let mut b = ListStringChunkedBuilder::new(name.into(), rows.len(), rows.len() * 2);
    for ids in rows {
        match ids {
            Some(ids) => b.append_trusted_len_iter(ids.iter().map(Option::as_deref)),
            None => b.append_null(),
        }
    }
    Ok(b.finish().into_series().into_column())
}

/// Serialize one frame to Parquet bytes.
pub fn to_bytes(df: &mut DataFrame) -> PolarsResult<Vec<u8>> {
    let mut buf = Vec::new();
    ParquetWriter::new(&mut buf)
        .with_compression(ParquetCompression::Zstd(None))
        .finish(df)?;
    Ok(buf)
}

/// Write `files` into `out` (see [`crate::outfile::write_dir`]: a new directory whole or not
/// at all, an existing one keeping its mode and owner, a symlinked one written through).
pub fn write_dir(out: &Path, files: Vec<(String, Vec<u8>)>) -> Result<()> {
    crate::outfile::write_dir(out, files)
}

/// The sides of every board, board after board: the rows of scores.parquet.
fn score_sides(scored: &Scored) -> impl Iterator<Item = (&BoardScore, &SideScore)> + '_ {
    scored
        .boards()
        .flat_map(|b| b.sides.iter().map(move |s| (b, s)))
}

/// A frame of these rows: the naming columns and the number columns built at once, each
/// column one array built in row order (the same frame whatever the number of threads).
fn scores_batch(state: &State, sides: &[(&BoardScore, &SideScore)]) -> PolarsResult<DataFrame> {
    let n = sides.len();
    let (mut columns, values) = rayon::join(
        || {
            let mut session = Vec::with_capacity(n);
            let mut section = Vec::with_capacity(n);
            let mut board = Vec::with_capacity(n);
            let mut participant = Vec::with_capacity(n);
            let mut side = Vec::with_capacity(n);
            let mut opponent = Vec::with_capacity(n);
            for &(b, s) in sides {
                let v = super::rows::score_names(state, b, s);
                session.push(v.session);
                section.push(v.section);
                board.push(v.board);
                participant.push(v.participant);
                side.push(v.side);
                opponent.push(v.opponent);
            }
            vec![
                Series::new("session".into(), session).into_column(),
                Series::new("section".into(), section).into_column(),
                Series::new("board".into(), board).into_column(),
                Series::new("participant".into(), participant).into_column(),
                Series::new("side".into(), side).into_column(),
                Series::new("opponent".into(), opponent).into_column(),
            ]
        },
        || {
            use std::fmt::Write;
            let mut score = Vec::with_capacity(n);
            let mut top = Vec::with_capacity(n);
            let mut pct = Vec::with_capacity(n);
            let mut adjusted = Vec::with_capacity(n);
            let mut ns_points = Vec::with_capacity(n);
            // The exact scores printed into one buffer (not a String each), cut up afterwards.
            let mut exact_text = String::with_capacity(n * 16);
            let mut exact_end = Vec::with_capacity(n);
            let mut artificial = Vec::with_capacity(n);
            for &(_, s) in sides {
                let v = super::rows::score_values(s);
                score.push(v.score);
                top.push(v.top);
                pct.push(v.pct);
                adjusted.push(v.adjusted);
                ns_points.push(v.ns_points);
                let _ = write!(exact_text, "{}", v.exact);
                exact_end.push(exact_text.len());
                artificial.push(v.artificial_pct);
            }
            let mut start = 0;
            let exact: Vec<&str> = exact_end
                .iter()
                .map(|&end| {
                    let s = &exact_text[start..end];
                    start = end;
                    s
                })
                .collect();
            vec![
                Series::new("score".into(), score).into_column(),
                Series::new("top".into(), top).into_column(),
                Series::new("pct".into(), pct).into_column(),
                Series::new("adjusted".into(), adjusted).into_column(),
                Series::new("ns_points".into(), ns_points).into_column(),
                Series::new("score_exact".into(), exact).into_column(),
                Series::new("artificial_pct".into(), artificial).into_column(),
            ]
        },
    );
    columns.extend(values);
    DataFrame::new(n, columns)
}

/// scores.parquet as one frame, built straight from the scored boards (its one column list,
/// in [`scores_batch`]; `tests/export.rs` checks it holds the `ScoreRow`s' values).
pub fn scores_frame(state: &State, scored: &Scored) -> PolarsResult<DataFrame> {
    let sides: Vec<_> = score_sides(scored).collect();
    scores_batch(state, &sides)
}

/// The row groups polars's `ParquetWriter::finish` makes of a one-chunk frame of `height` rows
/// with row groups of `size`: `height / size` groups (at least one) of equal length, the last
/// taking the remainder.
fn row_groups(height: usize, size: usize) -> Vec<usize> {
    let target = height / size;
    if target <= 1 {
        return vec![height];
    }
    let len = height / target;
    let mut v = vec![len; target - 1];
    v.push(height - len * (target - 1));
    v
}

/// polars's row group size when none is given (`ParquetWriter::finish`).
pub const ROW_GROUP: usize = 512 * 512;

/// scores.parquet as bytes, one row group at a time: only the row group being written and the
/// next one, built meanwhile on another thread (`rayon::join`), are in memory, whatever the
/// number of results. The row groups are those `to_bytes(scores_frame(..))` makes (`row_group`
/// rows at most, [`ROW_GROUP`] there), so the bytes are the same, whatever the number of
/// threads (with one, the next row group is built after the current one is written).
pub fn scores_bytes(state: &State, scored: &Scored, row_group: usize) -> PolarsResult<Vec<u8>> {
    let n: usize = scored.boards().map(|b| b.sides.len()).sum();
    let mut sides = score_sides(scored);
    let mut next_sides = |len: usize| -> Vec<_> { sides.by_ref().take(len).collect() };
    let mut groups = row_groups(n, row_group).into_iter();
    let mut current = scores_batch(state, &next_sides(groups.next().unwrap_or(0)))?;
    // The output's final size is about 6 bytes a row: reserved so that it is not copied as
    // it grows.
    let mut buf = Vec::with_capacity(n * 8);
    let mut writer = ParquetWriter::new(&mut buf)
        .with_compression(ParquetCompression::Zstd(None))
        .batched(current.schema())?;
    for len in groups {
        let (written, next) = rayon::join(
            || writer.write_batch(&current),
            || scores_batch(state, &next_sides(len)),
        );
        written?;
        current = next?;
    }
    writer.write_batch(&current)?;
    drop(current);
    writer.finish()?;
    drop(writer);
    Ok(buf)
}

/// Serialize every table of a scoring run and write the directory; `t` is built without its
/// scores rows (`rows::build_with(.., false)`), scores.parquet coming from the boards. Returns
/// the files written, for a caller that adds its own (the bulletin).
pub fn scored_files(state: &State, scored: &Scored, t: &Tables) -> Result<Vec<(String, Vec<u8>)>> {
    // scores.parquet (millions of rows) is serialized while the small tables are, on the other
    // thread; each file's bytes are its own, so the order of work changes nothing.
    let names = names(t);
    let (scores, others) = rayon::join(
        || {
            names.contains(&"scores.parquet").then(|| {
                crate::error::Context::with_context(
                    scores_bytes(state, scored, ROW_GROUP).map_err(crate::error::Failed::foreign),
                    || "cannot serialize scores.parquet".to_string(),
                )
            })
        },
        || -> Result<Vec<(&str, Vec<u8>)>> {
            let mut files = Vec::new();
            for &name in names.iter().filter(|&&n| n != "scores.parquet") {
                let built = frame_of(t, name);
                let mut df = crate::error::Context::context(
                    built.map_err(crate::error::Failed::foreign),
                    "cannot build the output tables",
                )?;
                let bytes = crate::error::Context::with_context(
                    to_bytes(&mut df).map_err(crate::error::Failed::foreign),
                    || format!("cannot serialize {name}"),
                )?;
                files.push((name, bytes));
            }
            Ok(files)
        },
    );
    let mut scores = scores.transpose()?;
    let mut others = others?.into_iter();
    let mut files = Vec::new();
    for name in names {
        let bytes = if name == "scores.parquet" {
            scores.take().expect("scores.parquet serialized once")
        } else {
            others.next().expect("one file a name").1
        };
        files.push((name.to_string(), bytes));
    }
    Ok(files)
}

/// [`scored_files`] written to `out`, whole or not at all.
pub fn write_scored(out: &Path, state: &State, scored: &Scored, t: &Tables) -> Result<()> {
    write_dir(out, scored_files(state, scored, t)?)
}

/// `audit --out DIR`: audit_standings.parquet and audit_boards.parquet.
pub fn write_audit(out: &Path, st: &[StandingDelta], b: &[BoardDelta]) -> Result<()> {
    let mut standings = frame!(st, {
        "session": |r| r.session.to_string(),
        "section": |r| r.section.as_deref().map(str::to_string),
        "participant": |r| r.participant.to_string(),
        "total_before": |r| r.total_before,
        "total_after": |r| r.total_after,
        "delta": |r| r.delta(),
        "pct_before": |r| r.pct_before,
        "pct_after": |r| r.pct_after,
        "rank_before": |r| r.rank_before,
        "rank_after": |r| r.rank_after,
    })
    .map_err(crate::error::Failed::foreign)?;
    let mut boards = frame!(b, {
        "session": |r| r.session.clone(),
        "section": |r| r.section.clone(),
        "board": |r| r.board,
        "participant": |r| r.participant.clone(),
        "side": |r| r.side.clone(),
        "score_before": |r| r.score_before,
        "score_after": |r| r.score_after,
    })
    .map_err(crate::error::Failed::foreign)?;
    let files = vec![
        (
            "audit_standings.parquet".to_string(),
            to_bytes(&mut standings).map_err(crate::error::Failed::foreign)?,
        ),
        (
            "audit_boards.parquet".to_string(),
            to_bytes(&mut boards).map_err(crate::error::Failed::foreign)?,
        ),
    ];
    write_dir(out, files)
}

/// `audit --alternatives FILE --out DIR`: audit_alternatives.parquet, one row per affected
/// participant per standings group per alternative (`alternative`: its place in FILE, from 1;
/// `ruling` and `score`: `named`, its ruling's id and adjusted score), with the standing before
/// and under that alternative.
pub fn write_alternatives(
    out: &Path,
    named: &[(String, String)],
    rows: &[AlternativeRow],
) -> Result<()> {
    let long: Vec<(usize, &AlternativeRow)> = rows
        .iter()
        .flat_map(|r| (0..r.after.len()).map(move |k| (k, r)))
        .collect();
    let mut df = frame!(long, {
        "alternative": |(k, _)| *k as i32 + 1,
        "ruling": |(k, _)| named[*k].0.clone(),
        "score": |(k, _)| named[*k].1.clone(),
        "session": |(_, r)| r.session.to_string(),
        "section": |(_, r)| r.section.as_deref().map(str::to_string),
        "participant": |(_, r)| r.participant.to_string(),
        "total_before": |(_, r)| r.total_before,
        "total_after": |(k, r)| r.after[*k].total,
        "delta": |(k, r)| r.after[*k].delta,
        "pct_before": |(_, r)| r.pct_before,
        "pct_after": |(k, r)| r.after[*k].pct,
        "rank_before": |(_, r)| r.rank_before,
        "rank_after": |(k, r)| r.after[*k].rank,
    })
    .map_err(crate::error::Failed::foreign)?;
    write_dir(
        out,
        vec![(
            "audit_alternatives.parquet".to_string(),
            to_bytes(&mut df).map_err(crate::error::Failed::foreign)?,
        )],
    )
}
