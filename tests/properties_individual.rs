//! Property tests of individual sessions (issue 38; docs/event-log.md "Individual events"), on
//! random individual movements with rulings of every kind, corrections and penalties
//! (`synth --kind individual`, any size, seed, form and comparison): the two players of a side
//! always have the same board score; a plain board's matchpoints sum to n(n − 1) over each seat's
//! rows; nothing depends on the thread count or on the order of a board's results in the log; and
//! each board is scored exactly as the pairs session whose NS pair is the table's North and EW
//! pair its East scores it, North's and East's scores being those pairs'.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;

use frekans::app::load_bytes;
use frekans::export::rows::{build, Tables};
use frekans::num::Q;
use frekans::pipeline;
use frekans::replay::{ReplayScope, State};
use frekans::synth::{self, Spec, SynthForm};
use proptest::prelude::*;
use serde_json::Value;

fn run(text: &str) -> (State, Tables) {
    let l = load_bytes(text.as_bytes(), &ReplayScope::default())
        .unwrap_or_else(|e| panic!("log refused: {e}\n--- log ---\n{text}"));
    let scored = pipeline::score(&l.state).expect("scored");
    let tables = build(&l.state, &scored);
    (l.state, tables)
}

/// (session, board, participant) → exact score (a player plays a board once).
fn scores(t: &Tables) -> BTreeMap<(String, i32, String), String> {
    let mut m = BTreeMap::new();
    for r in &t.scores {
        let k = (r.session.clone(), r.board, r.participant.clone());
        assert!(
            m.insert(k.clone(), r.score_exact.clone()).is_none(),
            "two rows for {k:?}"
        );
    }
    m
}

fn log(form: SynthForm, tables: u32, boards: u32, field: bool, rulings: f64, seed: u64) -> String {
    let spec = Spec {
        sessions: 1,
        sections: 2,
        boards,
        tables,
        form,
        compare_field: field,
        rulings,
        corrections: 0.05,
        seed,
        kind: frekans::kind::named("individual"),
        ..Spec::default()
    };
    let mut out = Vec::new();
    synth::write_log(&spec, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn json(l: &str) -> Option<Value> {
    l.starts_with('{').then(|| serde_json::from_str(l).unwrap())
}

/// The pairs log of the same championship: every player a pair, each table's NS pair its North
/// and EW pair its East (South and West left out), penalties left out.
fn as_pairs(text: &str) -> String {
    let mut east: BTreeMap<(String, i64, String), String> = BTreeMap::new();
    let mut out = String::new();
    for l in text.lines() {
        let Some(mut v) = json(l) else { continue };
        let o = v.as_object_mut().unwrap();
        match o["type"].as_str().unwrap() {
            "session" => {
                o.remove("kind");
            }
            "player" => {
                o.insert("type".into(), "pair".into());
                let name = o.remove("name").unwrap();
                o.remove("member");
                o.insert("players".into(), serde_json::json!([name, "Partner"]));
            }
            "penalty" => continue,
            "result" | "ruling" => {
                let key = |o: &serde_json::Map<String, Value>| {
                    (
                        o["session"].as_str().unwrap().to_string(),
                        o["board"].as_i64().unwrap(),
                        o["north"].as_str().unwrap().to_string(),
                    )
                };
                let k = key(o);
                let e = match o.get("east") {
                    Some(e) => e.as_str().unwrap().to_string(),
                    None => east[&k].clone(),
                };
                east.insert(k.clone(), e.clone());
                for seat in ["north", "south", "east", "west"] {
                    o.remove(seat);
                }
                o.insert("ns".into(), k.2.into());
                o.insert("ew".into(), e.into());
            }
            _ => {}
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out
}

/// Each board's result lines in the reverse order, in the places the board's results held.
fn reversed_within_boards(text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut at: BTreeMap<(String, i64), Vec<usize>> = BTreeMap::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(v) = json(l).filter(|v| v["type"] == "result") {
            at.entry((
                v["session"].as_str().unwrap().to_string(),
                v["board"].as_i64().unwrap(),
            ))
            .or_default()
            .push(i);
        }
    }
    for idx in at.values() {
        let rev: Vec<String> = idx.iter().rev().map(|&i| lines[i].clone()).collect();
        for (&i, l) in idx.iter().zip(rev) {
            lines[i] = l;
        }
    }
    lines.join("\n") + "\n"
}

fn form_of(i: usize) -> SynthForm {
    [SynthForm::Mp, SynthForm::Ximp, SynthForm::Butler][i]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn sides_share_a_score_and_plain_boards_sum_to_n_n_minus_1(
        form in 0usize..3, tables in 2u32..7, boards in 2u32..7, field: bool,
        rulings in 0.0f64..0.4, seed in 0u64..1_000_000,
    ) {
        let text = log(form_of(form), tables, boards, field, rulings, seed);
        let (state, t) = run(&text);
        let m = scores(&t);
        // (session, board, group) -> (tables, ruled, sum of each seat's rows)
        let mut plain: BTreeMap<(usize, u32, Option<String>), (i64, bool, [Q; 4])> = BTreeMap::new();
        for (_, tb) in state.tables.iter() {
            let o = tb.others.as_ref().expect("a seated table");
            let sid = state.sessions[tb.session].def.id.clone();
            let get = |p: frekans::score::PId| {
                let id = state.participant(p).id.clone();
                m[&(sid.clone(), tb.board as i32, id)].clone()
            };
            prop_assert_eq!(get(tb.ns), get(o[0]), "North and South");
            prop_assert_eq!(get(tb.ew), get(o[1]), "East and West");
            let group = (!field).then(|| tb.section.as_deref().unwrap_or("").to_string());
            let e = plain.entry((tb.session, tb.board, group)).or_insert((0, false, [Q::ZERO; 4]));
            e.0 += 1;
            e.1 |= tb.ruling(&state).is_some();
            for (i, p) in [tb.ns, o[0], tb.ew, o[1]].into_iter().enumerate() {
                e.2[i] += Q::parse(&get(p)).unwrap();
            }
        }
        if form == 0 {
            for ((_, b, _), (n, ruled, sums)) in plain {
                if !ruled {
                    for s in sums {
                        prop_assert_eq!(s, Q::int(n * (n - 1)), "board {}", b);
                    }
                }
            }
        }
    }

    #[test]
    fn threads_and_the_order_of_a_boards_results_change_nothing(
        form in 0usize..3, tables in 2u32..6, boards in 2u32..5, field: bool,
        rulings in 0.0f64..0.4, seed in 0u64..1_000_000,
    ) {
        // (no corrections: they name results by their place in the log)
        let text = log(form_of(form), tables, boards, field, rulings, seed)
            .lines()
            .filter(|l| !l.contains(r#""type":"correction""#))
            .collect::<Vec<_>>()
            .join("\n");
        let with = |k: usize, text: &str| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(k).build().unwrap();
            pool.install(|| run(text).1)
        };
        let one = with(1, &text);
        let three = with(3, &text);
        prop_assert_eq!(&one.scores, &three.scores);
        prop_assert_eq!(&one.standings, &three.standings);
        let other = with(2, &reversed_within_boards(&text));
        prop_assert_eq!(scores(&one), scores(&other));
        let rows = |t: &Tables| {
            let mut v: Vec<String> = t.standings.iter().map(|r| format!("{r:?}")).collect();
            v.sort();
            v
        };
        prop_assert_eq!(rows(&one), rows(&other));
    }

    #[test]
    fn a_board_scores_as_the_pairs_session_of_north_and_east(
        form in 0usize..3, tables in 2u32..6, boards in 2u32..5, field: bool,
        rulings in 0.0f64..0.4, seed in 0u64..1_000_000,
    ) {
        let text = log(form_of(form), tables, boards, field, rulings, seed);
        let (state, ind) = run(&text);
        let (_, pairs) = run(&as_pairs(&text));
        let (a, b) = (scores(&ind), scores(&pairs));
        for (_, tb) in state.tables.iter() {
            let sid = state.sessions[tb.session].def.id.clone();
            for p in [tb.ns, tb.ew] {
                let k = (sid.clone(), tb.board as i32, state.participant(p).id.clone());
                prop_assert_eq!(&a[&k], &b[&k], "{:?}", k);
            }
        }
    }
}
