//! Criterion benchmarks of the scoring kernels (issue 8): one board of one comparison group,
//! scored by the public `score::*::score_board` of each form, at n = 1,000 and 50,000 results.
//! The tables are a field's traveller from `synth::board_points` (realistic ties and spread);
//! the `adjusted` variants put a weighted ruling (60%/40% of two results) on 1% of the tables.
//!
//!     cargo bench --bench kernels                 # all
//!     cargo bench --bench kernels -- mp/50000     # one
//!
//! Whole-process figures (reading, replay, export) are scripts/bench.sh's; see docs/benchmarks.md.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use frekans::adjust::Component;
use frekans::num::Q;
use frekans::options::Options;
use frekans::score::Form;
use frekans::score::{self, BoardIn, Dist, TableIn};

/// `n` tables of board 5 (a field's traveller); every 100th with a weighted ruling if `adjusted`.
fn tables(n: usize, adjusted: bool) -> Vec<TableIn> {
    let pts = frekans::synth::board_points(5, n, 2026);
    pts.iter()
        .enumerate()
        .map(|(i, &p)| {
            let ns = 2 * i as u32;
            let mut t = TableIn::plain(ns, ns + 1, p);
            if adjusted && i % 100 == 50 {
                let other = pts[(i * 7 + 3) % n];
                if other != p {
                    let d = Dist::Weighted(vec![
                        Component {
                            weight: Q::new(3, 5),
                            points: p,
                        },
                        Component {
                            weight: Q::new(2, 5),
                            points: other,
                        },
                    ]);
                    t.ns_score = d.clone();
                    t.ew_score = d.clone();
                    t.ns_freq = d.clone();
                    t.ew_freq = d;
                    t.adjusted = true;
                }
            }
            t
        })
        .collect()
}

fn bench_form(
    c: &mut Criterion,
    name: &str,
    form: Form,
    kernel: fn(&BoardIn) -> score::BoardScore,
) {
    let opts = Options::default();
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for &n in &[1_000usize, 50_000] {
        for adjusted in [false, true] {
            let board = BoardIn {
                session: 0,
                section: None,
                board: 5,
                field: n as u32,
                form,
                options: &opts,
                tables: tables(n, adjusted),
                part: 0,
            };
            g.throughput(Throughput::Elements(n as u64));
            let id = if adjusted {
                BenchmarkId::new("adjusted", n)
            } else {
                BenchmarkId::from_parameter(n)
            };
            g.bench_with_input(id, &board, |b, board| b.iter(|| kernel(board)));
        }
    }
    g.finish();
}

fn kernels(c: &mut Criterion) {
    bench_form(c, "mp", Form::Mp, score::mp::score_board);
    bench_form(c, "ximp", Form::Ximp, score::ximp::score_board);
    bench_form(c, "butler", Form::Butler, score::butler::score_board);
    bench_form(c, "napki", Form::Napki, score::napki::score_board);
}

criterion_group!(benches, kernels);
criterion_main!(benches);
