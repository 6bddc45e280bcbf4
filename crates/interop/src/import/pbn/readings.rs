//! The PBN reader's two ways of reading rows compared on generated, damaged files: rows read
//! in small parallel chunks with their pairs taken from the first reading's slots (the
//! reader's own way) give the very events, places, skipped rows and problems of rows read in
//! one piece, each pair made from its row's cells and declared to the draft (the plain way).

use proptest::prelude::*;
use proptest::strategy::ValueTree;

use crate::import::Request;

/// A cell drawn from `set` by `i` (from its first `tidy` cells, which are right, when
/// given).
fn pick<'a>(set: &[&'a str], i: usize, tidy: Option<usize>) -> &'a str {
    set[i % tidy.unwrap_or(set.len()).min(set.len())]
}

const SECTIONS: &[&str] = &[
    "A", "B", "A", "B", "A", "B", "-", "\"A\"", "\" A\"", "\"\"", "?", "B",
];
const NUMBERS: &[&str] = &[
    "1", "2", "3", "4", "5", "6", "7", "8", "1", "2", "3", "4", "-", "?", "\"1\"", "\" 2\"",
    "\"\"", "A1",
];
/// Contract, declarer, result, Score_NS and Score_EW: right at any vulnerability, or not (a
/// score that contradicts its contract, a contract that cannot be read: refused without a
/// score, taken by its score with a notice beside one).
const PLAYS: &[&str] = &[
    "1NT N 7 90 -",
    "2H S 8 110 -",
    "1S E 7 - 80",
    "1NT N 7 90 -",
    "2H S 8 110 -",
    "1S E 7 - 80",
    "PASS - - - -",
    "1NT N 8 150 -",
    "A - - A+ A-",
    "x9 N 8 - -",
    "2h s = \"110\" -",
    "1S E 7 - 90",
    "42 S 12 480 -",
];
const NAMES: &[&str] = &["\"Anna - Jan\"", "-", "\"Anna - Jan\"", "\"X & Y\""];
const MULTIPLICITY: &[&str] = &["1", "1", "2", "-", "x"];

/// A ScoreTable's layout: which of the optional columns it has.
#[derive(Debug, Clone)]
struct Layout {
    section: bool,
    ns: bool,
    ew: bool,
    names: bool,
    mult: bool,
}

fn layout() -> impl Strategy<Value = Layout> {
    (
        any::<bool>(),
        prop::bool::weighted(0.9),
        prop::bool::weighted(0.9),
        prop::bool::weighted(0.2),
        prop::bool::weighted(0.15),
    )
        .prop_map(|(section, ns, ew, names, mult)| Layout {
            section,
            ns,
            ew,
            names,
            mult,
        })
}

/// One game: its board (as written), the layout of its ScoreTable, its rows (each cell an
/// index into its column's set; a token dropped or added now and then), and whether a second
/// ScoreTable follows.
fn game() -> impl Strategy<Value = (usize, Layout, Vec<(Vec<usize>, u8)>, bool)> {
    (
        0usize..7,
        layout(),
        prop::collection::vec((prop::collection::vec(0usize..1000, 7), 0u8..40), 0..14),
        prop::bool::weighted(0.1),
    )
}

/// (`tidy`: only right cells, no damage.)
fn table(l: &Layout, rows: &[(Vec<usize>, u8)], tidy: bool) -> String {
    let mut cols = Vec::new();
    let mut sets: Vec<(&[&str], usize)> = Vec::new();
    for (on, name, set, right) in [
        (l.section, "Section", SECTIONS, 6),
        (l.ns, "PairId_NS", NUMBERS, 12),
        (l.ew, "PairId_EW", NUMBERS, 12),
        (l.names, "Names_NS", NAMES, 1),
        (l.names, "Names_EW", NAMES, 1),
        (l.mult, "Multiplicity", MULTIPLICITY, 2),
        (true, "Contract;Declarer;Result;Score_NS;Score_EW", PLAYS, 7),
    ] {
        if on {
            cols.push(name);
            sets.push((set, right));
        }
    }
    let mut t = format!("[ScoreTable \"{}\"]\n", cols.join(";"));
    for (cells, damage) in rows {
        let mut row: Vec<&str> = sets
            .iter()
            .zip(cells)
            .map(|(&(s, right), &i)| pick(s, i, tidy.then_some(right)))
            .collect();
        match if tidy { u8::MAX } else { *damage } {
            0 => {
                row.pop();
            }
            1 => row.push("1"),
            2 => row.push("\"open"),
            _ => {}
        }
        t.push_str(&row.join(" "));
        t.push('\n');
    }
    t
}

/// A file of `games`, then (perhaps) a TotalScoreTable naming some pairs (`tidy`: only right
/// cells).
fn file(games: &[(usize, Layout, Vec<(Vec<usize>, u8)>, bool)], totals: u8, tidy: bool) -> String {
    let mut t = String::from("% PBN 2.1\n[Event \"E\"]\n[Scoring \"MP\"]\n");
    for (board, l, rows, second) in games {
        let board = pick(
            &["1", "2", "3", "2", "1", "4", "x"],
            *board,
            tidy.then_some(6),
        );
        t.push_str(&format!("[Board \"{board}\"]\n"));
        t.push_str(&table(l, rows, tidy));
        if *second {
            t.push_str(&table(l, &rows[rows.len() / 2..], tidy));
        }
        t.push('\n');
    }
    match totals % 3 {
        1 => {
            t.push_str("[Event \"#\"]\n[TotalScoreTable \"PairId;Names\"]\n");
            for n in ["1", "2", "A1", "4"] {
                t.push_str(&format!("{n} \"P{n} - Q{n}\"\n"));
            }
        }
        2 => {
            t.push_str("[Event \"#\"]\n[TotalScoreTable \"PairId;Direction;Names\"]\n");
            for (n, d) in [("1", "N-S"), ("2", "E-W"), ("3", "N-S"), ("1", "E-W")] {
                t.push_str(&format!("{n} {d} \"P{n}{d} - Q\"\n"));
            }
        }
        _ => {}
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn slots_and_chunks_read_as_the_plain_reading(
        games in prop::collection::vec(game(), 1..5),
        totals in 0u8..3,
        tidy in prop::bool::weighted(0.3),
    ) {
        let text = file(&games, totals, tidy);
        for lenient in [false, true] {
            let req = Request { lenient, ..Request::default() };
            let plain = super::read_chunked(text.as_bytes(), "t.pbn", &req, (usize::MAX, false));
            let own = super::read_chunked(text.as_bytes(), "t.pbn", &req, (3, true));
            prop_assert_eq!(format!("{:?}", own), format!("{:?}", plain), "{}", text);
        }
    }
}

/// The generated files are not all refused: some are read whole, many with rows skipped,
/// many refused (the comparison above compares readings, not only refusals).
#[test]
fn generated_files_are_read_and_refused() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = (
        prop::collection::vec(game(), 1..5),
        0u8..3,
        prop::bool::weighted(0.3),
    );
    let (mut read, mut skipped, mut refused) = (0, 0, 0);
    for _ in 0..300 {
        let (games, totals, tidy) = strategy.new_tree(&mut runner).unwrap().current();
        let text = file(&games, totals, tidy);
        let req = Request {
            lenient: true,
            ..Request::default()
        };
        match super::read_chunked(text.as_bytes(), "t.pbn", &req, (3, true)) {
            Ok(p) if p.skipped.is_empty() => read += 1,
            Ok(_) => skipped += 1,
            Err(_) => refused += 1,
        }
    }
    assert!(
        read >= 5 && skipped >= 100 && refused >= 50,
        "{read} {skipped} {refused}"
    );
}
