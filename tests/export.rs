//! The Parquet writer: scores.parquet (built straight from the scored boards, its one builder)
//! holds the columns of interface.md with the values of the `ScoreRow`s, on every demo log and
//! fixture.

use frekans::export::{parquet, rows};

mod common;

/// Every demo log and fixture that scores, loaded and scored, handed to `check` (at least 80:
/// the fixtures of refused logs are left out).
fn each_scored(
    mut check: impl FnMut(&std::path::Path, &frekans::app::Loaded, &frekans::pipeline::Scored),
) {
    let mut logs = common::demo_logs();
    logs.extend(common::fixture_logs());
    let mut compared = 0;
    for log in logs {
        let Ok(l) = frekans::app::load(&log, &Default::default()) else {
            continue; // fixtures of refused logs
        };
        let Ok(scored) = frekans::pipeline::score(&l.state) else {
            continue;
        };
        check(&log, &l, &scored);
        compared += 1;
    }
    assert!(compared > 80, "{compared}");
}

#[test]
fn scores_frame_from_boards_equals_rows() {
    each_scored(|log, l, scored| {
        use polars::prelude::*;
        let t = rows::build(&l.state, scored);
        let r = &t.scores;
        // The columns of interface.md, spelled here apart from the writer's.
        let a = df!(
            "session" => r.iter().map(|r| r.session.as_str()).collect::<Vec<_>>(),
            "section" => r.iter().map(|r| r.section.as_deref()).collect::<Vec<_>>(),
            "board" => r.iter().map(|r| r.board).collect::<Vec<_>>(),
            "participant" => r.iter().map(|r| r.participant.as_str()).collect::<Vec<_>>(),
            "side" => r.iter().map(|r| r.side).collect::<Vec<_>>(),
            "opponent" => r.iter().map(|r| r.opponent.as_str()).collect::<Vec<_>>(),
            "score" => r.iter().map(|r| r.score).collect::<Vec<_>>(),
            "top" => r.iter().map(|r| r.top).collect::<Vec<_>>(),
            "pct" => r.iter().map(|r| r.pct).collect::<Vec<_>>(),
            "adjusted" => r.iter().map(|r| r.adjusted).collect::<Vec<_>>(),
            "ns_points" => r.iter().map(|r| r.ns_points).collect::<Vec<_>>(),
            "score_exact" => r.iter().map(|r| r.score_exact.as_str()).collect::<Vec<_>>(),
            "artificial_pct" => r.iter().map(|r| r.artificial_pct).collect::<Vec<_>>(),
        )
        .unwrap();
        let b = parquet::scores_frame(&l.state, scored).unwrap();
        assert!(a.equals_missing(&b), "{}:\n{a}\n{b}", log.display());
        assert_eq!(a.height(), t.scores.len());
    });
}

/// scores.parquet written one row group at a time (`scores_bytes`) is the same bytes as the
/// whole frame written at once with the same row group size: with polars's default (one row
/// group on these logs) and with row groups of a few rows (many batches, a remainder), on
/// every demo log and fixture.
#[test]
fn scores_written_in_row_groups_equal_the_whole_frame() {
    use polars::prelude::{ParquetCompression, ParquetWriter};
    each_scored(|log, l, scored| {
        for size in [parquet::ROW_GROUP, 4, 64] {
            let mut df = parquet::scores_frame(&l.state, scored).unwrap();
            let mut whole = Vec::new();
            ParquetWriter::new(&mut whole)
                .with_compression(ParquetCompression::Zstd(None))
                .with_row_group_size(Some(size))
                .finish(&mut df)
                .unwrap();
            let batched = parquet::scores_bytes(&l.state, scored, size).unwrap();
            assert!(whole == batched, "{} (row groups of {size})", log.display());
        }
    });
}

/// The standings' sums added up in parallel over participants are the same whatever the number
/// of threads (one thread adds everything in board order), on every demo log and fixture.
#[test]
fn standings_sums_do_not_depend_on_threads() {
    each_scored(|log, l, scored| {
        let standings = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let sums = frekans::standings::sums(&l.state, &scored.pair_boards, &scored.matches);
                let mut notices = Vec::new();
                let st = frekans::standings::finish(&l.state, sums, &scored.fields, &mut notices);
                (st, notices)
            })
        };
        let one = standings(1);
        assert_eq!(one.0, scored.standings, "{}", log.display());
        for threads in [2, 3, 5] {
            assert!(
                one == standings(threads),
                "{} ({threads} threads)",
                log.display()
            );
        }
    });
}
