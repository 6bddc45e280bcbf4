//! `frekans synth` (issue 8): the same seed writes the same bytes, another seed other bytes;
//! every log it writes reads and replays with no error (and no notice) in every form; it writes
//! every ruling kind when asked, and the number of tables asked; salliere's CSV holds the same
//! results; bad arguments exit 2 and write nothing.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::process::Command;

use frekans_core::adjust::Part;
use frekans_core::event::{read_log, Event};
use frekans_core::replay::{replay, ReplayScope, RulingStatus, State};
use frekans_core::synth::{self, OutFormat, RulingKind, Spec, SynthForm};

fn log_of(spec: &Spec) -> (Vec<u8>, synth::Summary) {
    let mut out = Vec::new();
    let s = synth::write_log(spec, &mut out).expect("writing to memory");
    (out, s)
}

/// Reads and replays `bytes` as `frekans check` does; panics with the first errors.
fn checked(bytes: &[u8]) -> (Vec<frekans_core::event::Envelope>, State) {
    let read = read_log(bytes);
    let (state, mut errors) = replay(&read.events, &ReplayScope::default());
    errors.extend(read.errors);
    assert!(
        errors.is_empty(),
        "synth wrote an invalid log: {:?}",
        &errors[..errors.len().min(5)]
    );
    (read.events, state)
}

fn small(form: SynthForm) -> Spec {
    Spec {
        sessions: 2,
        sections: 3,
        boards: 8,
        tables: 6,
        form,
        rulings: 0.15,
        corrections: 0.05,
        seed: 42,
        deals: true,
        ..Spec::default()
    }
}

#[test]
fn same_seed_same_bytes_other_seed_other_bytes() {
    let spec = small(SynthForm::Mp);
    let (a, _) = log_of(&spec);
    let (b, _) = log_of(&spec);
    assert!(a == b, "two runs with seed 42 differ");
    let (c, _) = log_of(&Spec {
        seed: 43,
        ..spec.clone()
    });
    assert!(a != c, "seeds 42 and 43 wrote the same log");
    // The salliere writer too.
    let sal = |spec: &Spec| {
        let (mut bo, mut na) = (Vec::new(), Vec::new());
        synth::write_salliere(spec, &mut bo, &mut na).unwrap();
        (bo, na)
    };
    let plain = Spec {
        rulings: 0.0,
        corrections: 0.0,
        sessions: 1,
        ..spec
    };
    assert_eq!(sal(&plain), sal(&plain));
}

#[test]
fn every_form_and_comparison_passes_check_without_notices() {
    for form in [
        SynthForm::Mp,
        SynthForm::Ximp,
        SynthForm::Butler,
        SynthForm::Napki,
        SynthForm::Teams,
    ] {
        for compare_field in [false, true] {
            let spec = Spec {
                compare_field,
                ..small(form)
            };
            let (bytes, summary) = log_of(&spec);
            let (events, state) = checked(&bytes);
            assert!(
                state.notices.is_empty(),
                "{form:?}: notices {:?}",
                &state.notices[..state.notices.len().min(3)]
            );
            assert_eq!(events.len() as u64, summary.events);
            // Every table asked for: boards × tables × sections × sessions (teams: two rooms).
            let per_section = if form == SynthForm::Teams { 12 } else { 6 };
            assert_eq!(
                state.tables.len() as u64,
                2 * 3 * per_section * 8,
                "{form:?}"
            );
            assert_eq!(summary.tables, state.tables.len() as u64);
            assert_eq!(
                summary.results,
                events
                    .iter()
                    .filter(|e| matches!(e.event, Event::Result(_)))
                    .count() as u64
            );
            assert_eq!(state.sessions.len(), 2);
            assert_eq!(state.deals.len(), 2 * 8, "a deal per board per session");
        }
    }
}

#[test]
fn every_ruling_kind_is_written_and_means_what_it_says() {
    let spec = Spec {
        rulings: 0.2,
        ..small(SynthForm::Mp)
    };
    let (bytes, summary) = log_of(&spec);
    let (events, state) = checked(&bytes);
    for k in RulingKind::ALL {
        assert!(summary.rulings[k as usize] > 0, "no {} ruling", k.name());
    }
    let rulings = &state.rulings;
    let has = |f: &dyn Fn(&frekans_core::replay::RulingRecord) -> bool| rulings.iter().any(f);
    let is_art = |p: &Part| p.is_artificial();
    let comps = |p: &Part| p.components().len();
    assert!(
        has(&|r| is_art(&r.ev.score.ns) && is_art(&r.ev.score.ew)),
        "artificial"
    );
    assert!(
        has(&|r| !r.ev.score.is_split() && comps(&r.ev.score.ns) == 1),
        "assigned"
    );
    assert!(
        has(&|r| r.ev.sd.is_none() && !r.ev.score.is_split() && comps(&r.ev.score.ns) >= 2),
        "weighted"
    );
    assert!(
        has(&|r| r.ev.score.is_split() && !is_art(&r.ev.score.ns) && !is_art(&r.ev.score.ew)),
        "split"
    );
    assert!(
        has(&|r| is_art(&r.ev.score.ns) != is_art(&r.ev.score.ew)),
        "mixed"
    );
    assert!(has(&|r| r.ev.sd.is_some()), "subsequent damage");
    assert!(
        has(&|r| matches!(r.status, RulingStatus::Withdrawn { .. })),
        "withdrawn"
    );
    assert!(
        has(&|r| matches!(r.status, RulingStatus::Superseded { .. })),
        "superseded"
    );
    assert!(has(&|r| r.ev.supersedes.is_some()), "an appeal");
    // Not played: a table with a ruling and no result.
    assert!(
        state
            .tables
            .values()
            .any(|t| t.played.is_none() && !t.rulings.is_empty()),
        "a ruled table that did not play the board"
    );
    // The corrections name real results, and change them.
    let corrections = events
        .iter()
        .filter(|e| matches!(e.event, Event::Correction(_)))
        .count() as u64;
    assert_eq!(corrections, summary.corrections);
    assert!(corrections > 0);
    // About the share asked: 20% of 2 × 3 × 6 × 8 = 288 tables, appeals not counted twice.
    let n = summary.ruling_total();
    assert!((30..=90).contains(&n), "{n} rulings for 20% of 288 tables");
}

#[test]
fn no_rulings_when_none_asked() {
    let spec = Spec {
        rulings: 0.0,
        corrections: 0.0,
        ..small(SynthForm::Ximp)
    };
    let (bytes, summary) = log_of(&spec);
    let (events, state) = checked(&bytes);
    assert_eq!(summary.ruling_total(), 0);
    assert!(state.rulings.is_empty());
    assert!(!events
        .iter()
        .any(|e| matches!(e.event, Event::Correction(_))));
    assert_eq!(summary.results, 2 * 3 * 6 * 8);
}

#[test]
fn scores_are_realistic() {
    // A field spreads around each board's contract: many tables share a score, a board has
    // several different scores, and the usual ones are games and partscores, not slams.
    let spec = Spec {
        sessions: 1,
        sections: 1,
        tables: 200,
        boards: 16,
        rulings: 0.0,
        corrections: 0.0,
        deals: false,
        ..small(SynthForm::Mp)
    };
    let (bytes, _) = log_of(&spec);
    let (_, state) = checked(&bytes);
    for b in 1..=16u32 {
        let mut pts: Vec<i32> = state
            .tables
            .values()
            .filter(|t| t.board == b)
            .map(|t| t.played.as_ref().unwrap().ns_points)
            .collect();
        assert_eq!(pts.len(), 200);
        pts.sort_unstable();
        let distinct = {
            let mut d = pts.clone();
            d.dedup();
            d.len()
        };
        assert!(
            (3..=60).contains(&distinct),
            "board {b}: {distinct} distinct scores"
        );
        let median = pts[100].abs();
        assert!(median <= 1600, "board {b}: median {median}");
    }
}

#[test]
fn salliere_csv_holds_the_same_results() {
    let spec = Spec {
        sessions: 1,
        rulings: 0.0,
        corrections: 0.0,
        compare_field: true,
        ..small(SynthForm::Mp)
    };
    spec.validate(OutFormat::Salliere).unwrap();
    let (mut boards, mut names) = (Vec::new(), Vec::new());
    let s = synth::write_salliere(&spec, &mut boards, &mut names).unwrap();
    let (_, state) = checked(&log_of(&spec).0);
    let boards = String::from_utf8(boards).unwrap();
    let names = String::from_utf8(names).unwrap();
    assert_eq!(boards.lines().count() as u64, s.results);
    assert_eq!(boards.lines().count(), state.tables.len());
    assert_eq!(names.lines().count(), state.participants.len());
    // Each CSV line is the table of the log with the same NS pair on that board, and scores
    // the same by Law 77.
    for line in boards.lines() {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 6, "{line}");
        let board: u32 = f[0].parse().unwrap();
        let ns = state.pid(f[1]).unwrap();
        let t = state.tables.get(&(0, board, ns)).expect("table in the log");
        assert_eq!(state.participant(t.ew).id, f[2]);
        let p = t.played.as_ref().unwrap();
        let bid = if f[3] == "P" {
            frekans_core::bridge::Bid::Pass
        } else {
            frekans_core::bridge::parse_contract(f[3]).unwrap()
        };
        let seat = frekans_core::bridge::parse_seat(f[4]).unwrap();
        let tricks: u8 = f[5].parse().unwrap();
        assert_eq!(
            frekans_core::bridge::ns_points(bid, seat, tricks, frekans_core::bridge::vul_of(board)),
            p.ns_points,
            "{line}"
        );
    }
    // Sections compared apart: salliere's "A:7" board numbers.
    let sec = Spec {
        compare_field: false,
        ..spec
    };
    let (mut b2, mut n2) = (Vec::new(), Vec::new());
    synth::write_salliere(&sec, &mut b2, &mut n2).unwrap();
    assert!(String::from_utf8(b2).unwrap().starts_with("A:1,A1,"));
}

#[test]
fn salliere_refuses_what_it_cannot_score() {
    let ok = Spec {
        sessions: 1,
        rulings: 0.0,
        corrections: 0.0,
        ..small(SynthForm::Mp)
    };
    assert!(ok.validate(OutFormat::Salliere).is_ok());
    for bad in [
        Spec {
            rulings: 0.01,
            ..ok.clone()
        },
        Spec {
            sessions: 2,
            ..ok.clone()
        },
        Spec {
            form: SynthForm::Butler,
            ..ok.clone()
        },
    ] {
        assert!(bad.validate(OutFormat::Salliere).is_err(), "{bad:?}");
        assert!(bad.validate(OutFormat::Jsonl).is_ok(), "{bad:?}");
    }
}

/// The refusals name the forms each format can hold, from the forms' own list: USEBIO 1.2
/// holds every form synth writes (napki by frekans's own name, its session note saying it);
/// salliere matchpoints and cross-IMPs.
#[test]
fn refusals_name_the_forms_a_format_holds() {
    let napki = Spec {
        sessions: 1,
        rulings: 0.0,
        corrections: 0.0,
        ..small(SynthForm::Napki)
    };
    assert!(napki.validate(OutFormat::Usebio).is_ok());
    assert_eq!(
        napki.validate(OutFormat::Salliere).unwrap_err().to_string(),
        "salliere scores pairs at matchpoints or cross-IMPs; --form napki has no salliere form"
    );
}

// ---------------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------------

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_frekans"))
}

fn temp(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("frekans-synth-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

fn run(args: &[&str]) -> std::process::Output {
    bin().args(args).output().unwrap()
}

#[test]
fn cli_writes_a_log_that_check_accepts() {
    let dir = temp("ok");
    let log = dir.join("s.jsonl");
    let l = log.to_str().unwrap();
    const ARGS: [&str; 11] = [
        "synth",
        "--sections",
        "2",
        "--tables",
        "5",
        "--boards",
        "6",
        "--rulings",
        "0.2",
        "--seed",
        "9",
    ];
    let o = run(&[&ARGS[..], &["--out", l]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("60 tables"), "{err}");
    let c = run(&["check", l]);
    assert_eq!(
        c.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&c.stderr)
    );
    // Standard output gives the same bytes as --out.
    let o2 = run(&[&ARGS[..], &["-q"]].concat());
    assert!(o2.status.success());
    assert!(o2.stderr.is_empty(), "--quiet prints nothing");
    assert!(o2.stdout == std::fs::read(&log).unwrap());
    assert!(!Path::new(&format!("{l}.partial")).exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn cli_salliere_writes_boards_and_names() {
    let dir = temp("sal");
    let b = dir.join("boards.csv");
    let o = run(&[
        "synth",
        "--format",
        "salliere",
        "--rulings",
        "0",
        "--corrections",
        "0",
        "--tables",
        "4",
        "--boards",
        "3",
        "--sections",
        "1",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&b).unwrap().lines().count(), 12);
    let names = dir.join("boards.csv.names.csv");
    assert_eq!(std::fs::read_to_string(names).unwrap().lines().count(), 8);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn cli_bad_arguments_exit_2_and_write_nothing() {
    let dir = temp("bad");
    let out = dir.join("x.jsonl");
    let o = out.to_str().unwrap();
    for (args, says) in [
        (vec!["--tables", "0"], "at least 1"),
        (vec!["--tables", "1"], "at least 2"),
        (vec!["--boards", "0"], "at least 1"),
        (vec!["--rulings", "1.5"], "between 0 and 1"),
        (vec!["--corrections=-0.1"], "between 0 and 1"),
        (vec!["--rulings", "0.7", "--corrections", "0.5"], "exceed 1"),
        (vec!["--form", "bridge"], "invalid value"),
        (vec!["--compare", "room"], "invalid value"),
        (vec!["--sessions", "many"], "invalid value"),
        (vec!["--options", "[1,2]"], "JSON object"),
        (vec!["--format", "salliere"], "--rulings 0"),
        (
            vec![
                "--format",
                "salliere",
                "--rulings",
                "0",
                "--corrections",
                "0",
                "--form",
                "napki",
            ],
            "no salliere form",
        ),
        (
            vec!["--sections", "100000", "--tables", "1000", "--boards", "99"],
            "at most",
        ),
    ] {
        let mut all = vec!["synth"];
        all.extend(args.iter().copied());
        all.extend(["--out", o]);
        let r = run(&all);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote a file");
    }
    // Without --out the salliere form names what is missing.
    let r = run(&[
        "synth",
        "--format",
        "salliere",
        "--rulings",
        "0",
        "--corrections",
        "0",
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("--out"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn cli_help_shows_examples() {
    let o = run(&["synth", "--help"]);
    assert!(o.status.success());
    let h = String::from_utf8_lossy(&o.stdout);
    for s in [
        "--rulings",
        "--compare",
        "--format",
        "Examples:",
        "frekans synth --sections 3125",
    ] {
        assert!(h.contains(s), "help lacks {s}");
    }
}

#[test]
fn cli_usebio_is_the_export_of_the_log_and_imports_back() {
    let dir = temp("usebio");
    let (log, xml, back) = (
        dir.join("s.jsonl"),
        dir.join("s.xml"),
        dir.join("back.jsonl"),
    );
    let spec = [
        "synth",
        "--sections",
        "2",
        "--tables",
        "4",
        "--boards",
        "3",
        "--rulings",
        "0.2",
        "--seed",
        "5",
        "--form",
        "ximp",
    ];
    let ok = |o: std::process::Output| {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o
    };
    ok(run(&[&spec[..], &["--out", log.to_str().unwrap()]].concat()));
    ok(run(&[
        &spec[..],
        &["--format", "usebio", "--out", xml.to_str().unwrap()],
    ]
    .concat()));
    // The same bytes as the log exported; and to standard output.
    let e = dir.join("e.xml");
    ok(run(&[
        "export",
        log.to_str().unwrap(),
        "--format",
        "usebio",
        "--out",
        e.to_str().unwrap(),
    ]));
    let written = std::fs::read(&xml).unwrap();
    assert!(written.starts_with(b"<?xml"), "not USEBIO");
    assert!(
        std::fs::read(e).unwrap() == written,
        "synth --format usebio differs from export"
    );
    let stdout = ok(run(&[&spec[..], &["--format", "usebio", "-q"]].concat()));
    assert!(stdout.stdout == written);
    // It imports back (the sections compared apart, as the log says: the file's cross-IMPs do
    // not say it) into a log that scores the same standings.
    ok(run(&[
        "import",
        xml.to_str().unwrap(),
        "--compare",
        "section",
        "--out",
        back.to_str().unwrap(),
    ]));
    let standings = |l: &Path, out: &str| {
        let o = ok(run(&[
            "score",
            l.to_str().unwrap(),
            "--out",
            dir.join(out).to_str().unwrap(),
        ]));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains("24 results"), "{text}");
        text.lines()
            .filter(|l| !l.starts_with("wrote "))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(standings(&back, "o2"), standings(&log, "o1"));
    // napki, which USEBIO has no name for: written by frekans's own (`NAPKI`), the session's
    // note saying the form to frekans's import.
    let n = dir.join("n.xml");
    ok(run(&[
        &spec[..11],
        &[
            "--form",
            "napki",
            "--format",
            "usebio",
            "--out",
            n.to_str().unwrap(),
        ],
    ]
    .concat()));
    let text = std::fs::read_to_string(&n).unwrap();
    assert!(text.contains("<BOARD_SCORING_METHOD>NAPKI</BOARD_SCORING_METHOD>"));
    assert!(text.contains("&quot;form&quot;:&quot;napki&quot;"));
    let _ = std::fs::remove_dir_all(dir);
}

/// `--members`: players drawn from a federation, each member number always with the same name
/// and the same partner, never seated twice in one championship; `--date` the championship's.
#[test]
fn members_are_a_federations_players() {
    let mut seen: std::collections::BTreeMap<String, String> = Default::default();
    let mut partner: std::collections::BTreeMap<String, String> = Default::default();
    for (seed, form) in [
        (1, SynthForm::Mp),
        (2, SynthForm::Mp),
        (3, SynthForm::Teams),
    ] {
        let spec = Spec {
            sections: 2,
            tables: 5,
            boards: 3,
            form,
            seed,
            members: Some(100),
            date: Some("2025-04-05".into()),
            ..Spec::default()
        };
        spec.validate(OutFormat::Jsonl).unwrap();
        let (bytes, _) = log_of(&spec);
        let (events, _) = checked(&bytes);
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains(r#""date":"2025-04-05""#));
        let mut here = std::collections::BTreeSet::new();
        for l in text.lines().filter(|l| l.contains(r#""players":[{"#)) {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let ps = v["players"].as_array().unwrap();
            for (i, p) in ps.iter().enumerate() {
                let id = p["id"].as_str().unwrap().to_string();
                let n: u32 = id.parse().unwrap();
                assert!((100_001..=100_100).contains(&n), "{id}");
                assert!(here.insert(id.clone()), "member {id} seated twice");
                let name = p["name"].as_str().unwrap().to_string();
                assert_eq!(seen.entry(id.clone()).or_insert(name.clone()), &name);
                // partners: 2k+1 and 2k+2, seated side by side
                let mate = ps[i ^ 1]["id"].as_str().unwrap().to_string();
                assert_eq!(partner.entry(id.clone()).or_insert(mate.clone()), &mate);
                assert_eq!(
                    (n - 100_001) / 2,
                    (mate.parse::<u32>().unwrap() - 100_001) / 2
                );
            }
        }
        assert!(!here.is_empty());
        assert!(events.len() > 10);
    }
    let too_few = Spec {
        sections: 2,
        tables: 5,
        members: Some(39),
        ..Spec::default()
    };
    let e = too_few.validate(OutFormat::Jsonl).unwrap_err().to_string();
    assert!(e.contains("fewer than the 40 players"), "{e}");
    let bad_date = Spec {
        date: Some("5 April".into()),
        ..Spec::default()
    };
    assert!(bad_date.validate(OutFormat::Jsonl).is_err());
}

/// `--deal-seed`: two clubs playing one deal set (a simultaneous pairs) have the same deals and
/// their own results.
#[test]
fn a_deal_seed_is_a_shared_deal_set() {
    let club = |seed| {
        let (bytes, _) = log_of(&Spec {
            sections: 1,
            tables: 4,
            boards: 4,
            seed,
            deals: true,
            deal_seed: Some(77),
            ..Spec::default()
        });
        checked(&bytes);
        let text = String::from_utf8(bytes).unwrap();
        let of = |ty: &str| -> Vec<String> {
            text.lines()
                .filter(|l| l.contains(&format!(r#""type":"{ty}""#)))
                .map(str::to_string)
                .collect()
        };
        (of("deal"), of("result"))
    };
    let (d1, r1) = club(1);
    let (d2, r2) = club(2);
    assert_eq!(d1.len(), 4);
    assert_eq!(d1, d2, "the same deal set");
    assert_ne!(r1, r2, "each club its own results");
    let (d3, _) = log_of(&Spec {
        deals: true,
        ..Spec::default()
    });
    assert!(!String::from_utf8(d3).unwrap().contains(&d1[0]));
}
