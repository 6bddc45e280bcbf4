//! The Parquet writer's fast path: scores.parquet built straight from the scored boards is the
//! same frame as the one built from `ScoreRow`s, on every demo log and fixture.

use frekans::export::{parquet, rows};

#[test]
fn scores_frame_from_boards_equals_rows() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut logs: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("events"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    logs.extend(
        std::fs::read_dir(root.join("fixtures"))
            .unwrap()
            .flatten()
            .map(|e| e.path().join("events.jsonl"))
            .filter(|p| p.is_file()),
    );
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
