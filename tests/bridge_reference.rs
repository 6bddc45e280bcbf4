//! Reference checks for the bridge primitives: the Law 77 table, the Law 2 cycle and the
//! Law 78B IMP scale against the spec's tables (fixtures/reference/, copied from
//! spec/samples/), plus the cross-checks and parsing cases listed in laws-and-formats.md §1.1
//! and event-log.md.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use frekans_core::bridge::*;
use frekans_core::num::Q;

fn reference(name: &str) -> Vec<Vec<String>> {
    let path = format!("{}/fixtures/reference/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    lines.next().expect("header row");
    lines
        .map(|l| l.split(',').map(|f| f.trim().to_string()).collect())
        .collect()
}

fn contract(level: u8, strain: Strain, doubling: Doubling) -> Contract {
    Contract {
        level,
        strain,
        doubling,
    }
}

fn strain_of(s: &str) -> Strain {
    match s {
        "C" => Strain::C,
        "D" => Strain::D,
        "H" => Strain::H,
        "S" => Strain::S,
        "N" | "NT" => Strain::N,
        _ => panic!("strain {s:?} in law77_scores.csv"),
    }
}

#[test]
fn law77_every_row() {
    let rows = reference("law77_scores.csv");
    // 7 levels × 5 strains × 3 doublings × 2 vulnerabilities × 14 trick counts.
    assert_eq!(rows.len(), 7 * 5 * 3 * 2 * 14);
    let mut bad = Vec::new();
    for r in &rows {
        let level: u8 = r[0].parse().expect("level");
        let doubling = match r[2].as_str() {
            "-" => Doubling::Undoubled,
            "X" => Doubling::Doubled,
            "XX" => Doubling::Redoubled,
            other => panic!("risk {other:?}"),
        };
        let vulnerable = match r[3].as_str() {
            "NV" => false,
            "V" => true,
            other => panic!("vul {other:?}"),
        };
        let tricks: u8 = r[4].parse().expect("tricks");
        let want: i32 = r[5].parse().expect("declarer_score");
        let c = contract(level, strain_of(&r[1]), doubling);
        let got = declarer_score(c, vulnerable, tricks);
        if got != want {
            bad.push(format!(
                "{} {} tricks {tricks}: got {got}, want {want}",
                c, r[3]
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn law77_cross_checks() {
    use Doubling::*;
    use Strain::*;
    assert_eq!(declarer_score(contract(1, H, Redoubled), false, 7), 520);
    assert_eq!(declarer_score(contract(1, H, Redoubled), true, 7), 720);
    assert_eq!(declarer_score(contract(1, N, Redoubled), false, 7), 560);
    assert_eq!(declarer_score(contract(2, C, Doubled), false, 8), 180);
    assert_eq!(declarer_score(contract(2, H, Doubled), false, 8), 470);
    assert_eq!(declarer_score(contract(7, N, Redoubled), true, 0), -7600);
}

#[test]
fn law2_boards_1_to_32_and_beyond() {
    let rows = reference("board_dealer_vul.csv");
    assert_eq!(rows.len(), 32);
    for r in &rows {
        let board: u32 = r[0].parse().expect("board");
        let dealer = parse_seat(&r[1]).expect("dealer");
        let vul = Vul::parse(&r[2]).expect("vul");
        assert_eq!(dealer_of(board), dealer, "dealer of board {board}");
        assert_eq!(vul_of(board), vul, "vul of board {board}");
        assert_eq!(vul_of(board).as_str(), r[2], "vul name of board {board}");
    }
    // Board 33 = board 1, 48 = 16, 64 = 16.
    assert_eq!((dealer_of(33), vul_of(33)), (Seat::N, Vul::None));
    assert_eq!((dealer_of(48), vul_of(48)), (Seat::W, Vul::EW));
    assert_eq!((dealer_of(64), vul_of(64)), (Seat::W, Vul::EW));
    assert_eq!((dealer_of(39), vul_of(39)), (Seat::S, Vul::All)); // = board 7
}

#[test]
fn imp_scale_band_edges() {
    let rows = reference("imp_scale.csv");
    assert_eq!(rows.len(), 25);
    for r in &rows {
        let from: i32 = r[0].parse().expect("diff_from");
        let to: Option<i32> = if r[1].is_empty() {
            None
        } else {
            Some(r[1].parse().expect("diff_to"))
        };
        let imps: i32 = r[2].parse().expect("imps");
        let mut edges = vec![from];
        match to {
            Some(t) => edges.push(t),
            None => edges.extend([from + 10, 7600, 100_000]),
        }
        for d in edges {
            assert_eq!(imp(d), imps, "imp({d})");
            assert_eq!(imp(-d), -imps, "imp({})", -d);
            for how in [ImpLookup::NearestTen, ImpLookup::BandFloor] {
                assert_eq!(imp_of_q(Q::from(d), how), imps, "{d} {how:?}");
                assert_eq!(imp_of_q(Q::from(-d), how), -imps, "{} {how:?}", -d);
            }
        }
    }
}

#[test]
fn imp_lookup_for_off_ten_differences() {
    // scoring-methods.md §0: 18 → 1 IMP by nearest_ten, 0 by band_floor; 15 → 20 → 1.
    assert_eq!(imp_of_q(Q::from(18), ImpLookup::NearestTen), 1);
    assert_eq!(imp_of_q(Q::from(18), ImpLookup::BandFloor), 0);
    assert_eq!(imp_of_q(Q::from(15), ImpLookup::NearestTen), 1);
    assert_eq!(imp_of_q(Q::from(15), ImpLookup::BandFloor), 0);
    assert_eq!(imp_of_q(Q::from(25), ImpLookup::BandFloor), 1);
    assert_eq!(imp_of_q(Q::from(-18), ImpLookup::NearestTen), -1);
    // §8 NAP-U34 flat board: saldo ±98.1 / ±49.0 → impy ±3 / ±2 (band_floor ±3 / ±1).
    let s98 = Q::new(981, 10);
    let s49 = Q::new(49, 1);
    assert_eq!(imp_of_q(s98, ImpLookup::NearestTen), 3);
    assert_eq!(imp_of_q(-s98, ImpLookup::NearestTen), -3);
    assert_eq!(imp_of_q(s49, ImpLookup::NearestTen), 2);
    assert_eq!(imp_of_q(s98, ImpLookup::BandFloor), 3);
    assert_eq!(imp_of_q(-s49, ImpLookup::BandFloor), -1);
    // §8 NAP-U12 swingy board: saldo 430.9 → +10, −205.2 → −5, −282.1 → −7, 25.6 → +1.
    assert_eq!(imp_of_q(Q::new(4309, 10), ImpLookup::NearestTen), 10);
    assert_eq!(imp_of_q(Q::new(-2052, 10), ImpLookup::NearestTen), -5);
    assert_eq!(imp_of_q(Q::new(-2821, 10), ImpLookup::NearestTen), -7);
    assert_eq!(imp_of_q(Q::new(256, 10), ImpLookup::NearestTen), 1);
    assert_eq!(ImpLookup::parse("nearest_ten"), Some(ImpLookup::NearestTen));
    assert_eq!(ImpLookup::parse("band_floor"), Some(ImpLookup::BandFloor));
    assert_eq!(ImpLookup::parse("lower"), None);
}

#[test]
fn ns_points_signs() {
    let four_h = Bid::Contract(contract(4, Strain::H, Doubling::Undoubled));
    // Board 2 (NS vulnerable): N makes 4H vul, E makes 4H not vul.
    assert_eq!(ns_points(four_h, Seat::N, 10, vul_of(2)), 620);
    assert_eq!(ns_points(four_h, Seat::S, 9, vul_of(2)), -100);
    assert_eq!(ns_points(four_h, Seat::E, 10, vul_of(2)), -420);
    assert_eq!(ns_points(four_h, Seat::W, 9, vul_of(2)), 50);
    // Board 3 (EW vulnerable).
    assert_eq!(ns_points(four_h, Seat::W, 11, vul_of(3)), -650);
    assert_eq!(ns_points(four_h, Seat::E, 8, vul_of(3)), 200);
    let three_nt_x = Bid::Contract(contract(3, Strain::N, Doubling::Doubled));
    assert_eq!(ns_points(three_nt_x, Seat::E, 6, Vul::All), 800);
    assert_eq!(ns_points(three_nt_x, Seat::W, 9, Vul::None), -550);
    for seat in [Seat::N, Seat::E, Seat::S, Seat::W] {
        for vul in [Vul::None, Vul::NS, Vul::EW, Vul::All] {
            assert_eq!(ns_points(Bid::Pass, seat, 0, vul), 0);
        }
    }
}

#[test]
fn parse_contract_accepts() {
    let ok = |s: &str, level: u8, strain: Strain, doubling: Doubling| {
        assert_eq!(
            parse_contract(s),
            Ok(Bid::Contract(contract(level, strain, doubling))),
            "{s:?}"
        );
    };
    ok("4HX", 4, Strain::H, Doubling::Doubled);
    ok("4♥x", 4, Strain::H, Doubling::Doubled);
    ok("3NT", 3, Strain::N, Doubling::Undoubled);
    ok("3N", 3, Strain::N, Doubling::Undoubled);
    ok("3BA", 3, Strain::N, Doubling::Undoubled);
    ok("3SA", 3, Strain::N, Doubling::Undoubled);
    ok("3S", 3, Strain::S, Doubling::Undoubled);
    ok("7NTXX", 7, Strain::N, Doubling::Redoubled);
    ok("1♣", 1, Strain::C, Doubling::Undoubled);
    ok("2♦xx", 2, Strain::D, Doubling::Redoubled);
    ok("6♠", 6, Strain::S, Doubling::Undoubled);
    ok("  5c ", 5, Strain::C, Doubling::Undoubled);
    assert_eq!(parse_contract("pass"), Ok(Bid::Pass));
    assert_eq!(parse_contract("PASS"), Ok(Bid::Pass));
    assert_eq!(parse_contract("Pass"), Ok(Bid::Pass));
    assert_eq!(parse_contract("AP"), Ok(Bid::Pass));
    assert_eq!(parse_contract("P"), Ok(Bid::Pass));
}

#[test]
fn parse_contract_rejects() {
    for s in [
        "8H",
        "0S",
        "4HXXX",
        "4 H",
        "",
        "4Z",
        "   ",
        "H4",
        "4HD",
        "4HR",
        // (longer than any contract: uppercased apart from the short ones)
        "4HXXXXXXXXXX",
        "7♠♠♠♠",
        "passpasspass",
    ] {
        let e = parse_contract(s).expect_err(s).to_string();
        assert!(e.contains("expected"), "{s:?}: {e}");
    }
}

#[test]
fn display_is_canonical() {
    for (input, shown) in [
        ("4hx", "4HX"),
        ("3N", "3NT"),
        ("3sa", "3NT"),
        ("7ntxx", "7NTXX"),
        ("1♣", "1C"),
        ("pass", "PASS"),
        ("AP", "PASS"),
    ] {
        let b = parse_contract(input).expect(input);
        assert_eq!(b.to_string(), shown, "{input:?}");
        assert_eq!(b.text(&mut [0; 8]), shown, "{input:?}");
    }
}

#[test]
fn seats_and_result_offsets() {
    assert_eq!(parse_seat("N"), Ok(Seat::N));
    assert_eq!(parse_seat("e"), Ok(Seat::E));
    assert_eq!(parse_seat("s"), Ok(Seat::S));
    assert_eq!(parse_seat("W"), Ok(Seat::W));
    assert!(parse_seat("X").is_err());
    assert!(Seat::N.is_ns() && Seat::S.is_ns() && !Seat::E.is_ns() && !Seat::W.is_ns());
    assert_eq!(Seat::W.letter(), 'W');
    assert_eq!(parse_result_offset("="), Ok(0));
    assert_eq!(parse_result_offset("+1"), Ok(1));
    assert_eq!(parse_result_offset("+6"), Ok(6));
    assert_eq!(parse_result_offset("-1"), Ok(-1));
    assert_eq!(parse_result_offset("-13"), Ok(-13));
    assert_eq!(parse_result_offset("−2"), Ok(-2));
    assert_eq!(parse_result_offset("–2"), Ok(-2));
    for s in ["+7", "-14", "0", "", "+", "x"] {
        assert!(parse_result_offset(s).is_err(), "{s:?}");
    }
}
