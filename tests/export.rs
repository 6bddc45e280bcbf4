//! The Parquet writer: scores.parquet (built straight from the scored boards, its one builder)
//! holds the columns of interface.md with the values of the `ScoreRow`s, on every demo log and
//! fixture.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

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

/// A log of both kinds: each kind's boards in its own type, whatever order the sessions are
/// declared in, and every board's rows (`Scored::boards`) with the pair boards first, as
/// scores.parquet has always listed them. Values by hand: the team board is 420 in the open room
/// against −50 in the closed one, 470 points = 10 IMPs to the home team (the WBF scale's
/// 430–490 band); the two-table MP board gives the better NS score the top, 2(N − 1) = 2.
#[test]
fn pairs_and_team_boards_are_kept_apart_pairs_first() {
    let log = r#"{"type": "session", "id": "T", "form": "teams", "boards": "1"}
{"type": "session", "id": "P", "form": "mp", "boards": "1", "compare": "field"}
{"type": "team", "id": "H", "players": ["a", "b", "c", "d"]}
{"type": "team", "id": "V", "players": ["e", "f", "g", "h"]}
{"type": "match", "session": "T", "id": "M1", "home": "H", "away": "V", "boards": "1"}
{"type": "pair", "id": "1", "players": ["i", "j"]}
{"type": "pair", "id": "101", "players": ["k", "l"]}
{"type": "pair", "id": "2", "players": ["m", "n"]}
{"type": "pair", "id": "102", "players": ["o", "p"]}
{"type": "result", "session": "T", "match": "M1", "room": "open", "board": 1, "ns": "H", "ew": "V", "score": 420}
{"type": "result", "session": "T", "match": "M1", "room": "closed", "board": 1, "ns": "V", "ew": "H", "score": -50}
{"type": "result", "session": "P", "board": 1, "table": 1, "ns": "1", "ew": "101", "score": 420}
{"type": "result", "session": "P", "board": 1, "table": 2, "ns": "2", "ew": "102", "score": -50}
"#;
    let l = frekans::app::load_bytes(log.as_bytes(), &Default::default()).unwrap();
    let st = &l.state;
    let kinds: Vec<&str> = st.sessions.iter().map(|s| s.kind.name).collect();
    assert_eq!(kinds, ["team", "pairs"]);
    let scored = frekans::pipeline::score(st).unwrap();
    let (t, p) = (0, 1);
    assert_eq!(scored.pair_boards.len(), 1);
    assert_eq!(scored.pair_boards[0].session, p);
    assert_eq!(scored.team_boards.len(), 1);
    let tb = &scored.team_boards[0];
    assert_eq!((tb.score.session, tb.match_id.as_str()), (t, "M1"));
    let q = frekans::num::Q::int;
    assert_eq!((tb.rooms.home, tb.rooms.away), (q(10), q(-10)));
    assert!(tb.export_stats);
    let sessions: Vec<usize> = scored.boards().map(|b| b.session).collect();
    assert_eq!(sessions, [p, t]);
    assert_eq!(scored.board_count(), 2);
    let scores: Vec<(usize, frekans::num::Q)> = scored
        .boards()
        .flat_map(|b| b.sides.iter().map(move |s| (b.session, s.score)))
        .collect();
    assert_eq!(
        scores,
        [
            (p, q(2)),
            (p, q(0)),
            (p, q(0)),
            (p, q(2)),
            (t, q(10)),
            (t, q(-10))
        ]
    );
    // scores.parquet lists them so.
    let t = rows::build(st, &scored);
    let listed: Vec<(&str, &str)> = t
        .scores
        .iter()
        .map(|r| (r.session.as_str(), r.participant.as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            ("P", "1"),
            ("P", "101"),
            ("P", "2"),
            ("P", "102"),
            ("T", "H"),
            ("T", "V")
        ]
    );
}
