//! The Parquet writer's fast path: scores.parquet built straight from the scored boards is the
//! same frame as the one built from `ScoreRow`s, on every demo log and fixture.

use frekans::export::{parquet, rows};

mod common;

#[test]
fn scores_frame_from_boards_equals_rows() {
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
        let t = rows::build(&l.state, &scored);
        let a = parquet::frame_of(&t, "scores.parquet").unwrap();
        let b = parquet::scores_frame(&l.state, &scored).unwrap();
        assert!(a.equals_missing(&b), "{}:\n{a}\n{b}", log.display());
        assert_eq!(a.height(), t.scores.len());
        compared += 1;
    }
    assert!(compared > 80, "{compared}");
}
