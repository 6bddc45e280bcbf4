//! Double dummy and par (crates/core/src/dd.rs):
//! - the published tables and par of real deals: spec/samples/sample_dd_par.pbn (copied to
//!   fixtures/reference/; deals by Big Deal, tables and par by bcdd);
//! - two deals worked by hand;
//! - par against an independent minimax over the auction, on many tables;
//! - `score --dd` writes deals.parquet with the published values, read back by pyarrow, the same
//!   bytes for 1 and 2 threads;
//! - invalid deals are refused with their line.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use frekans_core::bridge::{declarer_score, Contract, Doubling, Seat, Strain, Vul};
use frekans_core::dd::{self, DdTable};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// The published sample

#[derive(Debug)]
struct Published {
    board: String,
    dealer: Seat,
    vul: Vul,
    pbn: String,
    /// From OptimumResultTable.
    table: DdTable,
    /// The Ability tag: N, E, S, W rows of hex digits.
    ability: [String; 4],
    /// OptimumScore, NS view.
    score: i32,
    /// Minimax, e.g. "3HDN-100".
    minimax: String,
}

fn tag<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let rest = line
        .strip_prefix('[')?
        .strip_prefix(name)?
        .strip_prefix(" \"")?;
    rest.strip_suffix("\"]")
}

fn seat(s: &str) -> Seat {
    match s {
        "N" => Seat::N,
        "E" => Seat::E,
        "S" => Seat::S,
        "W" => Seat::W,
        _ => panic!("seat {s:?}"),
    }
}

fn strain(s: &str) -> Strain {
    match s {
        "C" => Strain::C,
        "D" => Strain::D,
        "H" => Strain::H,
        "S" => Strain::S,
        "NT" | "N" => Strain::N,
        _ => panic!("strain {s:?}"),
    }
}

/// Every deal of the sample file, with what it publishes about it. (The excerpt repeats
/// `[Board "1"]`, `[Board "2"]` for each of its source files; a record starts at `[Deal]`.)
fn published() -> Vec<Published> {
    let path = format!(
        "{}/fixtures/reference/sample_dd_par.pbn",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out: Vec<Published> = Vec::new();
    let (mut board, mut dealer, mut vul) = (String::new(), Seat::N, Vul::None);
    for line in text.lines() {
        let line = line.trim();
        if let Some(v) = tag(line, "Board") {
            board = v.to_string();
        } else if let Some(v) = tag(line, "Dealer") {
            dealer = seat(v);
        } else if let Some(v) = tag(line, "Vulnerable") {
            vul = Vul::parse(v).unwrap();
        } else if let Some(v) = tag(line, "Deal") {
            out.push(Published {
                board: board.clone(),
                dealer,
                vul,
                pbn: v.to_string(),
                table: DdTable::default(),
                ability: Default::default(),
                score: i32::MIN,
                minimax: String::new(),
            });
        } else if let Some(v) = tag(line, "Ability") {
            let p = out.last_mut().unwrap();
            for (k, part) in v.split_whitespace().enumerate() {
                let (s, hex) = part.split_once(':').unwrap();
                assert_eq!(s, ["N", "E", "S", "W"][k]);
                p.ability[k] = hex.to_string();
            }
        } else if let Some(v) = tag(line, "OptimumScore") {
            let n = v.strip_prefix("NS ").expect("NS view");
            out.last_mut().unwrap().score = n.parse().unwrap();
        } else if let Some(v) = tag(line, "Minimax") {
            out.last_mut().unwrap().minimax = v.to_string();
        } else if let Some(p) = out.last_mut() {
            // A row of the OptimumResultTable: "N S 9".
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() == 3 && !line.starts_with('[') && !line.starts_with('%') {
                let (s, st, n) = (seat(f[0]), strain(f[1]), f[2].parse::<u8>().unwrap());
                let k = dd::STRAINS.iter().position(|x| *x == st).unwrap();
                p.table.tricks[k][s as usize] = n;
            }
        }
    }
    for p in &out {
        assert!(!p.minimax.is_empty() && p.score != i32::MIN, "{p:?}");
        // The file's two forms of the table agree with each other.
        let from_ability =
            DdTable::from_hex([&p.ability[0], &p.ability[1], &p.ability[2], &p.ability[3]])
                .unwrap();
        assert_eq!(from_ability, p.table, "board {}: Ability v table", p.board);
    }
    out
}

/// Run `f` on a thread with the solver's stack (as frekans's own pool does).
fn on_solver_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(dd::SOLVER_STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn sample_has_eight_deals() {
    let p = published();
    assert_eq!(p.len(), 8);
    assert_eq!(
        p[0].pbn,
        "N:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75 Q863.QJ3.T763.63"
    );
    assert_eq!(p[0].table.hex(Seat::N), "89797");
}

#[test]
fn published_double_dummy_tables() {
    let published = published();
    let pbns: Vec<String> = published.iter().map(|p| p.pbn.clone()).collect();
    let tables = on_solver_thread(move || {
        let mut solver = dd::new_solver();
        pbns.iter()
            .map(|p| dd::solve(&mut solver, &dd::Deal::parse(p).unwrap()))
            .collect::<Vec<_>>()
    });
    for (p, t) in published.iter().zip(&tables) {
        for (k, s) in [Seat::N, Seat::E, Seat::S, Seat::W].iter().enumerate() {
            assert_eq!(
                t.hex(*s),
                p.ability[k],
                "deal {} ({}), declarer {s}: tricks NT S H D C",
                p.pbn,
                p.board
            );
        }
    }
}

/// Minimax "3HDN-100": level, strain, `D` when doubled, declarer, score (NS view).
fn minimax(m: &str) -> (u8, Strain, bool, Seat, i32) {
    let c: Vec<char> = m.chars().collect();
    let level = c[0].to_digit(10).unwrap() as u8;
    let st = strain(&c[1].to_string());
    let doubled = c[2] == 'D' && "NESW".contains(c[3]);
    let at = if doubled { 3 } else { 2 };
    let decl = seat(&c[at].to_string());
    let score = m[at + 1..].parse().unwrap();
    (level, st, doubled, decl, score)
}

#[test]
fn published_par() {
    for p in published() {
        let par = dd::par(&p.table, p.vul, p.dealer).unwrap();
        assert_eq!(
            par.score, p.score,
            "deal {} ({}): par score",
            p.pbn, p.board
        );
        let (level, st, doubled, decl, score) = minimax(&p.minimax);
        assert_eq!(score, p.score, "Minimax and OptimumScore agree");
        // The Minimax contract is one of ours: same level, strain, doubling and declarer.
        let ours = par
            .contracts
            .iter()
            .find(|c| c.strain == st && c.declarer == decl)
            .unwrap_or_else(|| panic!("{}: {} not in {:?}", p.board, p.minimax, par));
        assert_eq!(ours.doubled, doubled, "{}", p.minimax);
        assert_eq!(ours.level, level, "{}", p.minimax);
        assert_eq!(ours.tricks, p.table.get(st, decl));
    }
}

/// The par contracts of the sample deals, worked out by hand from their published tables (in
/// each, the level is the lowest that reaches the par score, as bcdd's Minimax names it).
const PAR_BY_HAND: [&str; 8] = [
    // NS take 9 tricks in ♠ and EW can make nothing: 1♠+2 = 140 (3♠ scores the same).
    "1S-N 1S-S",
    // NS (vulnerable) take 11 in ♠: game, 4♠+1 = 650; 3NT+1 = 630; EW's sacrifice 5♦X (7
    // tricks) would cost 800.
    "4S-N 4S-S",
    // EW make 2NT (120) or 3♦ (110); NS sacrifice in 3♥ doubled by N (8 tricks; S takes 7),
    // -100; over it EW would go down in 3NT or 4♦, so they double: -100.
    "3HX-N -100",
    // EW (not vulnerable) take 9 in ♥ and ♠ (140), 10 in ♣ (130); NS make 2♦ (8 tricks), so
    // EW bid 2♥ or 2♠, +1; NS's 3♦X vulnerable would cost 200.
    "2H-E 2H-W 2S-E 2S-W",
    // EW take 10 in NT: 3NT+1 = 430 (4♥, 4♠ = 420, W's 5♦ = 400); NS make nothing.
    "3NT-E 3NT-W",
    // EW take 9 in NT, ♥ and ♣: 3NT = 400; NS (vulnerable) have 5 tricks at most.
    "3NT-E 3NT-W",
    // EW make 3♣ (110); NS take 8 in ♦: 3♦X -1 = -100, and EW's 4♣ would be down one.
    "3DX-N 3DX-S -100",
    // NS (vulnerable) take 10 in ♦ (130), EW 9 in ♣ (3♣ = 110, dealer E): over 3♦ EW's 4♣X
    // costs 100, so NS bid 4♦ (=, 130); 5♣X would cost 300.
    "4D-N 4D-S",
];

#[test]
fn published_par_contract_texts() {
    for (p, want) in published().iter().zip(PAR_BY_HAND) {
        let par = dd::par(&p.table, p.vul, p.dealer).unwrap();
        assert_eq!(par.contracts_text(), want, "deal {} ({})", p.pbn, p.board);
    }
}

// ---------------------------------------------------------------------------------------------
// Deals worked by hand

#[test]
fn hand_checked_deals() {
    // 1. Each hand a 13-card suit: N ♠, E ♥, S ♦, W ♣. In NT the opening leader runs his suit:
    //    nobody takes a trick. With trumps, the side holding them ruffs every trick (13), the
    //    other side takes none.
    let suits = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    // 2. NS hold every card above every EW card of the same suit (N the tops, S the next):
    //    NS take 13 in every strain, EW none.
    let tops = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 65.8765.8765.876 432.432.432.5432";
    let tables = on_solver_thread(move || {
        let mut solver = dd::new_solver();
        [suits, tops].map(|p| dd::solve(&mut solver, &dd::Deal::parse(p).unwrap()))
    });
    // Rows NT S H D C.
    assert_eq!(
        [Seat::N, Seat::E, Seat::S, Seat::W].map(|s| tables[0].hex(s)),
        ["0D0D0", "00D0D", "0D0D0", "00D0D"]
    );
    assert_eq!(
        [Seat::N, Seat::E, Seat::S, Seat::W].map(|s| tables[1].hex(s)),
        ["DDDDD", "00000", "DDDDD", "00000"]
    );
    // Par 1: NS bid 7♠ (EW's 7♥ makes too, but 7♠ outranks it; 7NT by EW would be down 13):
    // 1510 not vulnerable, 2210 vulnerable.
    let p = dd::par(&tables[0], Vul::None, Seat::N).unwrap();
    assert_eq!((p.score, p.contracts_text().as_str()), (1510, "7S-N 7S-S"));
    let p = dd::par(&tables[0], Vul::NS, Seat::E).unwrap();
    assert_eq!((p.score, p.contracts_text().as_str()), (2210, "7S-N 7S-S"));
    // Par 2: 7NT by N or S: 1520 / 2220.
    let p = dd::par(&tables[1], Vul::EW, Seat::W).unwrap();
    assert_eq!(
        (p.score, p.contracts_text().as_str()),
        (1520, "7NT-N 7NT-S")
    );
    let p = dd::par(&tables[1], Vul::All, Seat::S).unwrap();
    assert_eq!(
        (p.score, p.contracts_text().as_str()),
        (2220, "7NT-N 7NT-S")
    );
    // Rotated: the same deal with EW holding the tops gives EW's 7NT.
    let rotated = DdTable {
        tricks: tables[1].tricks.map(|r| [r[1], r[0], r[3], r[2]]),
    };
    let p = dd::par(&rotated, Vul::None, Seat::N).unwrap();
    assert_eq!(
        (p.score, p.contracts_text().as_str()),
        (-1520, "7NT-E 7NT-W")
    );
    // Both sides take 7 tricks in NT from either seat, 6 in every suit: the dealer's side bids
    // 1NT first and keeps it (the other side's 2-level sacrifice, 6 tricks, costs 300).
    let hot = DdTable::from_hex(["76666", "76666", "76666", "76666"]).unwrap();
    let p = dd::par(&hot, Vul::None, Seat::N).unwrap();
    assert_eq!((p.score, p.contracts_text().as_str()), (90, "1NT-N 1NT-S"));
    let p = dd::par(&hot, Vul::None, Seat::W).unwrap();
    assert_eq!((p.score, p.contracts_text().as_str()), (-90, "1NT-E 1NT-W"));
    // A table where nobody can take seven tricks in anything: passed out.
    let flat = DdTable::from_hex(["66666", "66666", "66666", "66666"]).unwrap();
    let p = dd::par(&flat, Vul::None, Seat::N).unwrap();
    assert_eq!((p.score, p.contracts_text().as_str()), (0, "pass"));
}

#[test]
fn deal_parse_accepts_what_the_reader_accepts() {
    // Lower-case ranks and any first seat: the same deal.
    let a =
        dd::Deal::parse("N:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75 Q863.QJ3.T763.63")
            .unwrap();
    let b =
        dd::Deal::parse("S:j72.a854.a8.aj75 q863.qj3.t763.63 at94.97.kq954.94 k5.kt62.j2.kqt82")
            .unwrap();
    assert_eq!(a, b);
    for bad in [
        "N:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75",
        "N:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75 Q863.QJ3.T763.6A",
        "X:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75 Q863.QJ3.T763.63",
    ] {
        assert!(dd::Deal::parse(bad).is_err(), "{bad}");
    }
}

// ---------------------------------------------------------------------------------------------
// Par against an independent minimax over the auction

const BIDS: usize = 35;

/// The auction as a two-player game: the dealer's side bids first; each side in turn passes or
/// bids higher; a pass after the other side's bid ends the auction, two passes with no bid pass
/// the deal out. The final contract is played by the side's better declarer in that strain,
/// doubled when it fails. NS maximise the NS score, EW minimise it.
fn minimax_par(t: &DdTable, vul: Vul, dealer: Seat) -> i32 {
    const ORDER: [Strain; 5] = [Strain::C, Strain::D, Strain::H, Strain::S, Strain::N];
    let value = |bid: usize, side: usize| -> i32 {
        let level = (bid / 5 + 1) as u8;
        let strain = ORDER[bid % 5];
        let (a, b) = if side == 0 {
            (Seat::N, Seat::S)
        } else {
            (Seat::E, Seat::W)
        };
        let tricks = t.get(strain, a).max(t.get(strain, b));
        let doubling = if tricks < 6 + level {
            Doubling::Doubled
        } else {
            Doubling::Undoubled
        };
        let c = Contract {
            level,
            strain,
            doubling,
        };
        let own = declarer_score(c, vul.is_vul(a), tricks);
        if side == 0 {
            own
        } else {
            -own
        }
    };
    // memo[last bid + 1][holder][to move]: value once a bid stands (index 0: no bid yet).
    fn go(
        last: Option<(usize, usize)>,
        to_move: usize,
        passes: u8,
        value: &dyn Fn(usize, usize) -> i32,
        memo: &mut std::collections::HashMap<(Option<(usize, usize)>, usize, u8), i32>,
    ) -> i32 {
        if let Some(v) = memo.get(&(last, to_move, passes)) {
            return *v;
        }
        let pass = match last {
            Some((b, s)) => value(b, s),
            None if passes == 1 => 0,
            None => go(None, 1 - to_move, 1, value, memo),
        };
        let first = last.map_or(0, |(b, _)| b + 1);
        let mut best = pass;
        for b in first..BIDS {
            let v = go(Some((b, to_move)), 1 - to_move, 0, value, memo);
            best = if to_move == 0 {
                best.max(v)
            } else {
                best.min(v)
            };
        }
        memo.insert((last, to_move, passes), best);
        best
    }
    let mut memo = std::collections::HashMap::new();
    go(None, usize::from(!dealer.is_ns()), 0, &value, &mut memo)
}

/// Plausible tables: per strain, the two partners within a trick of each other and the other
/// side's tricks near 13 minus theirs.
fn random_table(seed: &mut u64) -> DdTable {
    let mut next = |n: u64| {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) % n
    };
    let mut t = DdTable::default();
    for row in t.tricks.iter_mut() {
        let ns = next(14) as i32;
        let ew = (13 - ns + next(3) as i32 - 1).clamp(0, 13);
        let jitter = |x: i32, d: u64| (x - d as i32).clamp(0, 13) as u8;
        row[0] = jitter(ns, next(2));
        row[2] = jitter(ns, next(2));
        row[1] = jitter(ew, next(2));
        row[3] = jitter(ew, next(2));
    }
    t
}

#[test]
fn par_equals_an_auction_minimax() {
    let mut seed = 7;
    let mut checked = 0;
    let mut tables: Vec<DdTable> = published().iter().map(|p| p.table).collect();
    // A "hot" table, where the side that bids first gets the contract.
    tables.push(DdTable::from_hex(["76666", "76666", "76666", "76666"]).unwrap());
    tables.extend((0..1500).map(|_| random_table(&mut seed)));
    for t in &tables {
        for vul in [Vul::None, Vul::NS, Vul::EW, Vul::All] {
            for dealer in Seat::ALL {
                let ours = dd::par(t, vul, dealer).unwrap_or_else(|e| panic!("{t:?}: {e}"));
                let want = minimax_par(t, vul, dealer);
                assert_eq!(
                    ours.score,
                    want,
                    "table {:?} vul {vul} dealer {dealer}: par {:?}",
                    [Seat::N, Seat::E, Seat::S, Seat::W].map(|s| t.hex(s)),
                    ours
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, (8 + 1 + 1500) * 16);
}

// ---------------------------------------------------------------------------------------------
// The command line: score --dd, deals.parquet, threads, invalid deals

/// `frekans ARGS` with a cache directory of its own (each run solves its deals: none is taken
/// from another run's cache).
fn frekans(args: &[&str]) -> Output {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let cache = scratch(&format!("cache-{n}"));
    let o = Command::new(env!("CARGO_BIN_EXE_frekans"))
        .env("FREKANS_AUDIT_CACHE", &cache)
        .args(args)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&cache);
    o
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("frekans-dd-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A pairs session of 8 boards, one table each, with the sample's deals as boards 1-8 (dealer
/// and vulnerability as published).
fn sample_log(dir: &Path) -> PathBuf {
    let mut lines = vec![r#"{"type":"session","id":"S1","form":"mp","boards":"1-8"}"#.to_string()];
    for (k, p) in published().iter().enumerate() {
        let b = k + 1;
        lines.push(format!(
            r#"{{"type":"result","session":"S1","board":{b},"table":1,"ns":"1","ew":"2","score":{}}}"#,
            p.score
        ));
        lines.push(format!(
            r#"{{"type":"deal","session":"S1","board":{b},"pbn":"{}","dealer":"{}","vul":"{}"}}"#,
            p.pbn, p.dealer, p.vul
        ));
    }
    let path = dir.join("events.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

fn python() -> String {
    std::env::var("FREKANS_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// deals.parquet as pyarrow reads it: schema and rows.
fn read_deals(dir: &Path) -> Value {
    const READER: &str = r#"
import json, sys
import pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
print(json.dumps({"schema": [[f.name, str(f.type)] for f in t.schema], "rows": t.to_pylist()}))
"#;
    let o = Command::new(python())
        .arg("-c")
        .arg(READER)
        .arg(dir.join("deals.parquet"))
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; run the tests through scripts/test.sh",
                python()
            )
        });
    assert!(
        o.status.success(),
        "pyarrow failed (scripts/test.sh installs it): {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn score_dd_writes_the_published_deals() {
    let d = scratch("published");
    let log = sample_log(&d);
    let out = d.join("out");
    let o = frekans(&[
        "-q",
        "score",
        log.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--dd",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v = read_deals(&out);
    let names: Vec<&str> = v["schema"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c[0].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "session",
            "board",
            "dealer",
            "vul",
            "pbn",
            "dd_N",
            "dd_E",
            "dd_S",
            "dd_W",
            "par_score",
            "par_contracts"
        ]
    );
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    for (k, (p, want)) in published().iter().zip(PAR_BY_HAND).enumerate() {
        let r = &rows[k];
        assert_eq!(r["session"], "S1");
        assert_eq!(r["board"], k as u64 + 1);
        assert_eq!(r["dealer"], p.dealer.to_string());
        assert_eq!(r["vul"], p.vul.as_str());
        assert_eq!(r["pbn"], p.pbn.as_str());
        for (j, s) in ["dd_N", "dd_E", "dd_S", "dd_W"].iter().enumerate() {
            assert_eq!(r[*s], p.ability[j].as_str(), "board {}: {s}", k + 1);
        }
        assert_eq!(r["par_score"], p.score, "board {}", k + 1);
        assert_eq!(r["par_contracts"], want, "board {}", k + 1);
    }
    // Without --dd, no deals.parquet (and the directory is replaced whole).
    let out2 = d.join("out2");
    let o = frekans(&[
        "-q",
        "score",
        log.to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(out2.join("scores.parquet").is_file());
    assert!(!out2.join("deals.parquet").exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn dd_output_does_not_depend_on_the_thread_count() {
    let d = scratch("threads");
    let log = sample_log(&d);
    let mut bytes = Vec::new();
    for threads in ["1", "2", "3"] {
        let out = d.join(format!("out{threads}"));
        let o = frekans(&[
            "-q",
            "--threads",
            threads,
            "score",
            log.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--dd",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        bytes.push(std::fs::read(out.join("deals.parquet")).unwrap());
    }
    assert_eq!(bytes[0], bytes[1], "1 v 2 threads");
    assert_eq!(bytes[0], bytes[2], "1 v 3 threads");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn invalid_deals_are_refused_with_their_line() {
    let d = scratch("invalid");
    let good = "N:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75 Q863.QJ3.T763.63";
    let cases = [
        // The ♠A twice (and the ♠Q missing).
        (
            "N:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75 A863.QJ3.T763.63",
            "card SA appears twice",
        ),
        // North 14 cards, West 12.
        (
            "N:AT943.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75 Q86.QJ3.T763.63",
            "has 14 cards",
        ),
        // 51 cards: West's ♣3 missing.
        (
            "N:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75 Q863.QJ3.T763.6",
            "has 12 cards",
        ),
        // Three hands.
        (
            "N:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75",
            "found 3 hands",
        ),
        // Not a rank.
        (
            "N:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75 Q863.QJ3.T763.6X",
            "\"X\" is not a card rank",
        ),
        // Three suits in a hand.
        (
            "N:AT94.97.KQ954.94 K5.KT62.J2.KQT82 J72.A854.A8.AJ75 Q863.QJ3.T76363",
            "does not have four suits",
        ),
    ];
    for (k, (pbn, why)) in cases.iter().enumerate() {
        let log = d.join(format!("bad{k}.jsonl"));
        let lines = [
            r#"{"type":"session","id":"S1","form":"mp","boards":"1-2"}"#.to_string(),
            r#"{"type":"result","session":"S1","board":1,"table":1,"ns":"1","ew":"2","score":100}"#
                .to_string(),
            format!(r#"{{"type":"deal","session":"S1","board":1,"pbn":"{good}"}}"#),
            format!(r#"{{"type":"deal","session":"S1","board":2,"pbn":"{pbn}"}}"#),
        ];
        std::fs::write(&log, lines.join("\n") + "\n").unwrap();
        let out = d.join(format!("out{k}"));
        let o = frekans(&[
            "score",
            log.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--dd",
        ]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{pbn}: {t}");
        assert!(t.contains("line 4: field \"pbn\""), "{pbn}: {t}");
        assert!(t.contains(why), "{pbn}: expected {why:?} in {t}");
        assert!(!out.exists(), "nothing written for an invalid log");
    }
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------------------------------------
// The bulletin (real typst, found as tests/bulletin.rs finds it)

#[test]
fn bulletin_shows_the_double_dummy_table_and_par() {
    let d = scratch("bulletin");
    let log = sample_log(&d);
    let out = d.join("out");
    let o = frekans(&[
        "-q",
        "bulletin",
        log.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(out.join("deals.parquet").is_file());
    // The view model: tricks (rows N S E W, columns NT S H D C) and par as published.
    let json: Value =
        serde_json::from_slice(&std::fs::read(out.join("bulletin.json")).unwrap()).unwrap();
    let boards = json["sessions"][0]["boards"].as_array().unwrap();
    for (k, (p, want)) in published().iter().zip(PAR_BY_HAND).enumerate() {
        let dd = &boards[k]["dd"];
        for (row, seat) in [(0, 0), (1, 2), (2, 1), (3, 3)] {
            assert_eq!(dd["rows"][row]["seat"], ["N", "E", "S", "W"][seat]);
            let tricks: Vec<String> = p.ability[seat]
                .chars()
                .map(|c| c.to_digit(16).unwrap().to_string())
                .collect();
            assert_eq!(
                dd["rows"][row]["tricks"],
                serde_json::json!(tricks),
                "board {}",
                k + 1
            );
        }
        let score = if p.score > 0 {
            format!("+{}", p.score)
        } else {
            p.score.to_string()
        };
        assert_eq!(dd["par_score"], score.as_str());
        assert_eq!(dd["par_text"], want);
    }
    // The PDF: the table's label, and par with suit symbols and results.
    let o = Command::new("pdftotext")
        .arg(out.join("bulletin.pdf"))
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils, installed by scripts/test.sh)");
    assert!(o.status.success());
    let pdf = String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(pdf.contains("Double-dummy tricks"), "{pdf}");
    for par in [
        // (printed as every contract of the bulletin is: level, suit, declarer, result)
        "Par +140: 1♠ N +2, 1♠ S +2",
        "Par +650: 4♠ N +1, 4♠ S +1",
        "Par -100: 3♥× N -1",
        "Par -140: 2♥ E +1, 2♥ W +1, 2♠ E +1, 2♠ W +1",
        "Par +130: 4♦ N, 4♦ S",
    ] {
        assert!(pdf.contains(par), "{par:?} not in the PDF text:\n{pdf}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Deals solved once are kept (one file each under the cache directory) and taken from there by
/// the next run: a table planted for a deal is what comes back for it. A damaged file is not
/// used: the deal is solved again and its file written again. Without a cache, nothing is kept.
#[test]
fn solved_deals_are_kept_between_runs() {
    let d = scratch("kept");
    let log = sample_log(&d);
    let bytes = std::fs::read(&log).unwrap();
    let l = frekans_core::load::load_bytes(&bytes, &frekans_core::replay::ReplayScope::default())
        .unwrap_or_else(|_| panic!("the sample log is valid"));
    let cache = d.join("solved");
    let plain = dd::solve_state(&l.state, None).unwrap();
    assert!(!cache.exists());
    let first = dd::solve_state(&l.state, Some(&cache)).unwrap();
    assert_eq!(first, plain);
    let files = || -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(&cache)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        v
    };
    assert_eq!(files().len(), 8, "{:?}", files());
    // A table planted for deal 1 comes back: the cache is read, not the solver run.
    let planted = DdTable::from_hex(["77777", "66666", "77777", "66666"]).unwrap();
    assert_ne!(planted, plain[0].dd.table);
    dd::solved::put(&cache, &plain[0].pbn, &planted);
    let again = dd::solve_state(&l.state, Some(&cache)).unwrap();
    assert_eq!(again[0].dd.table, planted);
    assert_eq!(again[1..], plain[1..]);
    // Every file damaged (one digit of its table changed): all solved again, all rewritten.
    for f in files() {
        let mut t = std::fs::read(&f).unwrap();
        t[0] = if t[0] == b'0' { b'1' } else { b'0' };
        std::fs::write(&f, t).unwrap();
    }
    assert!(dd::solved::get(&cache, &plain[0].pbn).is_none());
    assert_eq!(dd::solve_state(&l.state, Some(&cache)).unwrap(), plain);
    for b in &plain {
        assert_eq!(dd::solved::get(&cache, &b.pbn), Some(b.dd.table));
    }
    assert_eq!(files().len(), 8, "{:?}", files());
    let _ = std::fs::remove_dir_all(&d);
}
