//! The parallel parts of scoring and export give the same results whatever the number of
//! threads, on synthetic logs big enough that the work really splits: board tasks found over
//! several chunks of 16 Ki tables, standings of thousands of pairs (sorted, summed and put
//! together in parallel), the output rows, and scores.parquet in many row groups, each built
//! while the one before it is written.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;

use frekans::export::{parquet, rows};
use frekans::pipeline::{self, Scored};
use frekans::replay::State;
use frekans::synth::{self, Spec, SynthForm};

fn state_of(spec: &Spec) -> State {
    let mut log = Vec::new();
    synth::write_log(spec, &mut log).expect("writing to memory");
    frekans::app::LoadLog::default()
        .bytes(&log)
        .unwrap_or_else(|_| panic!("synth wrote an invalid log"))
        .state
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

/// Two carried sessions of 130 sections of 16 tables and 4 boards: 16,640 tables (two chunks
/// of board tasks), 4,160 pairs a session (standings sorted in parallel beyond 2,000).
fn spec(form: SynthForm, compare_field: bool) -> Spec {
    Spec {
        sessions: 2,
        sections: 130,
        boards: 4,
        tables: 16,
        form,
        compare_field,
        rulings: 0.02,
        corrections: 0.002,
        seed: 8,
        ..Spec::default()
    }
}

/// The board tasks are each (session, comparison group, board)'s tables in key order, in
/// (session, group, board) order, as a plain sequential grouping of the tables makes them.
#[test]
fn board_tasks_group_the_tables_as_a_sequential_walk_does() {
    for compare_field in [true, false] {
        let state = state_of(&spec(SynthForm::Mp, compare_field));
        assert!(state.fouled.is_empty());
        assert!(state.tables.len() > 16_384, "{}", state.tables.len());
        let mut want: BTreeMap<(usize, Option<String>, u32), Vec<(usize, u32, u32)>> =
            BTreeMap::new();
        for (k, t) in state.tables.iter() {
            want.entry((t.session, pipeline::group_of(&state, t), t.board))
                .or_default()
                .push(*k);
        }
        for threads in [1, 2, 3] {
            let got: Vec<_> = in_pool(threads, || {
                let (tasks, _) = pipeline::board_tasks(&state).unwrap();
                tasks
                    .iter()
                    .map(|t| {
                        let keys: Vec<(usize, u32, u32)> = t
                            .tables
                            .iter()
                            .map(|x| (x.session, x.board, x.ns))
                            .collect();
                        ((t.session, t.section.clone(), t.board), keys)
                    })
                    .collect()
            });
            let want: Vec<_> = want.clone().into_iter().collect();
            assert!(
                got == want,
                "compare_field {compare_field}, {threads} threads: {} tasks, {} expected",
                got.len(),
                want.len()
            );
        }
    }
}

/// Scoring, the output rows and scores.parquet (row groups of 5,000 rows: a dozen, each built
/// while the one before is written) are the same for 1, 2 and 3 threads, in every pair form
/// and in team matches (their tables sorted and their boards scored in parallel).
#[test]
fn scores_rows_and_parquet_do_not_depend_on_threads() {
    for (form, compare_field) in [
        (SynthForm::Mp, true),
        (SynthForm::Ximp, false),
        (SynthForm::Butler, true),
        (SynthForm::Napki, false),
        (SynthForm::Teams, false),
    ] {
        let state = state_of(&spec(form, compare_field));
        let run = |threads: usize| {
            in_pool(threads, || {
                let scored: Scored = pipeline::score(&state).unwrap();
                let t = rows::build_with(&state, &scored, false);
                let bytes = parquet::scores_bytes(&state, &scored, 5_000).unwrap();
                (scored, t, bytes)
            })
        };
        let (one, one_rows, one_bytes) = run(1);
        assert!(one.standings.len() > 8_000, "{}", one.standings.len());
        for threads in [2, 3] {
            let (s, t, bytes) = run(threads);
            let what = format!("{form:?}, {threads} threads");
            // (BoardScore has no PartialEq: its printed form, every field, is compared.)
            assert!(
                format!("{:?}", s.pair_boards) == format!("{:?}", one.pair_boards),
                "{what}: pair boards"
            );
            assert!(
                format!("{:?}", s.team_boards) == format!("{:?}", one.team_boards),
                "{what}: team boards"
            );
            assert!(s.standings == one.standings, "{what}: standings");
            assert!(s.matches == one.matches, "{what}: matches");
            assert!(s.notices == one.notices, "{what}: notices");
            assert!(t == one_rows, "{what}: rows");
            assert!(bytes == one_bytes, "{what}: scores.parquet");
        }
    }
}

/// An audit of each of a team championship's first rulings (its changed matches re-scored in
/// parallel, the standings compared in parallel) is the same for 1, 2 and 3 threads.
#[test]
fn team_audits_do_not_depend_on_threads() {
    let mut log = Vec::new();
    synth::write_log(&spec(SynthForm::Teams, false), &mut log).unwrap();
    let l = frekans::app::load_bytes(&log, &frekans::replay::ReplayScope::default())
        .unwrap_or_else(|_| panic!("synth wrote an invalid log"));
    let ids: Vec<String> = l
        .state
        .rulings
        .iter()
        .take(6)
        .map(|r| r.ev.id.clone())
        .collect();
    assert_eq!(ids.len(), 6);
    let run = |threads: usize| {
        in_pool(threads, || {
            let scored = pipeline::score(&l.state).unwrap();
            ids.iter()
                .map(|id| {
                    let q = frekans::audit::Question::Ruling(id.clone());
                    let source = frekans::audit::Source::Replayed {
                        events: &l.events,
                        full: &l.state,
                        scored: Some(&scored),
                        incremental: true,
                    };
                    let a = frekans::audit::answer(frekans::audit::Ask::Question(&q), source)
                        .unwrap()
                        .answered()
                        .unwrap()
                        .audit;
                    assert!(a.incremental, "{id}");
                    a
                })
                .collect::<Vec<_>>()
        })
    };
    let one = run(1);
    assert!(one.iter().any(|a| !a.standings.is_empty()));
    for threads in [2, 3] {
        assert!(run(threads) == one, "{threads} threads");
    }
}
