//! `frekans synth --kind individual` (issue 38): a valid individual movement (four players a
//! table, every player once a round, a board at most once, partners changing every round),
//! players declared with names and member numbers, rulings of every kind named by North (those
//! creating a table with all four seats), corrections and penalties on one player; every log
//! checks clean; other forms and formats are refused.

use std::collections::{BTreeMap, BTreeSet};

use frekans_core::event::read_log;
use frekans_core::replay::{replay, ReplayScope, State};
use frekans_core::synth::{self, OutFormat, RulingKind, Spec, SynthForm};

fn individual(form: SynthForm) -> Spec {
    Spec {
        sessions: 2,
        sections: 2,
        boards: 10,
        tables: 5,
        form,
        rulings: 0.2,
        corrections: 0.05,
        seed: 38,
        members: Some(500),
        kind: frekans_core::kind::named("individual"),
        ..Spec::default()
    }
}

fn checked(bytes: &[u8]) -> State {
    let read = read_log(bytes);
    let (state, mut errors) = replay(&read.events, &ReplayScope::default());
    errors.extend(read.errors);
    assert!(
        errors.is_empty(),
        "synth wrote an invalid log: {:?}",
        &errors[..errors.len().min(5)]
    );
    state
}

fn lines(bytes: &[u8], ty: &str) -> Vec<serde_json::Value> {
    let tag = format!(r#""type":"{ty}""#);
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| l.contains(&tag))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn s(v: &serde_json::Value, k: &str) -> String {
    v[k].as_str().unwrap_or_default().to_string()
}

#[test]
fn an_individual_movement_checks_clean_in_each_form() {
    for form in [SynthForm::Mp, SynthForm::Ximp, SynthForm::Butler] {
        for compare_field in [false, true] {
            let spec = Spec {
                compare_field,
                ..individual(form)
            };
            assert!(spec.validate(OutFormat::Jsonl).is_ok());
            let mut bytes = Vec::new();
            let summary = synth::write_log(&spec, &mut bytes).unwrap();
            let state = checked(&bytes);
            // Every table asked for, 4 players a table; each player declared with a member number.
            assert_eq!(state.tables.len() as u64, 2 * 2 * 5 * 10, "{form:?}");
            assert_eq!(summary.tables, state.tables.len() as u64);
            let players = lines(&bytes, "player");
            assert_eq!(players.len(), 2 * 4 * 5);
            assert_eq!(summary.participants, 40);
            assert!(players.iter().all(|p| !s(p, "name").is_empty()));
            let members: BTreeSet<String> = players.iter().map(|p| s(p, "member")).collect();
            assert_eq!(members.len(), 40, "a member seated once");
            assert!(
                summary.rulings.iter().all(|&n| n > 0),
                "{:?}",
                summary.rulings
            );
            assert!(summary.penalties > 0 && summary.corrections > 0);
            let bytes_again = {
                let mut b = Vec::new();
                synth::write_log(&spec, &mut b).unwrap();
                b
            };
            assert!(bytes == bytes_again, "the same seed, the same bytes");
        }
    }
}

#[test]
fn the_movement_seats_everyone_once_a_round_and_changes_partners() {
    let spec = Spec {
        rulings: 0.0,
        corrections: 0.0,
        ..individual(SynthForm::Mp)
    };
    let mut bytes = Vec::new();
    synth::write_log(&spec, &mut bytes).unwrap();
    // (session, round) -> the players seated; (session, board) -> the players who played it;
    // (session, round, player) -> partner.
    let mut seated: BTreeMap<(String, i64), BTreeSet<(String, i64)>> = BTreeMap::new();
    let mut played: BTreeSet<(String, i64, String)> = BTreeSet::new();
    let mut partner: BTreeMap<(String, i64, String), String> = BTreeMap::new();
    for r in lines(&bytes, "result") {
        let (sid, round, board) = (
            s(&r, "session"),
            r["round"].as_i64().unwrap(),
            r["board"].as_i64().unwrap(),
        );
        let seats = ["north", "south", "east", "west"].map(|k| s(&r, k));
        assert_eq!(seats.iter().collect::<BTreeSet<_>>().len(), 4, "{r}");
        assert!(r.get("ns").is_none() && r.get("ew").is_none());
        for (i, p) in seats.iter().enumerate() {
            assert!(
                played.insert((sid.clone(), board, p.clone())),
                "{p} plays board {board} twice"
            );
            let mate = &seats[i ^ 1];
            let old = partner.insert((sid.clone(), round, p.clone()), mate.clone());
            assert!(
                old.is_none_or(|o| &o == mate),
                "{p} has two partners in round {round}"
            );
            let table = r["table"].as_i64().unwrap();
            // A player sits at one table a round.
            let here = seated.entry((sid.clone(), round)).or_default();
            here.insert((p.clone(), table));
        }
    }
    for ((sid, round), at) in &seated {
        let who: BTreeSet<&String> = at.iter().map(|(p, _)| p).collect();
        assert_eq!(
            who.len(),
            at.len(),
            "{sid} round {round}: a player at two tables"
        );
        assert_eq!(who.len(), 2 * 4 * 5, "everyone seated in round {round}");
    }
    for ((sid, round, p), mate) in &partner {
        if let Some(next) = partner.get(&(sid.clone(), round + 1, p.clone())) {
            assert_ne!(
                next,
                mate,
                "{p} keeps partner {mate} in rounds {round} and {}",
                round + 1
            );
        }
    }
}

#[test]
fn rulings_name_north_and_a_table_not_played_has_four_seats() {
    let spec = Spec {
        rulings: 0.5,
        corrections: 0.0,
        ..individual(SynthForm::Mp)
    };
    let mut bytes = Vec::new();
    let summary = synth::write_log(&spec, &mut bytes).unwrap();
    checked(&bytes);
    let results: BTreeSet<(String, i64, String)> = lines(&bytes, "result")
        .iter()
        .map(|r| (s(r, "session"), r["board"].as_i64().unwrap(), s(r, "north")))
        .collect();
    let mut created = 0;
    for r in lines(&bytes, "ruling") {
        assert!(r.get("ns").is_none() && !s(&r, "north").is_empty(), "{r}");
        let key = (
            s(&r, "session"),
            r["board"].as_i64().unwrap(),
            s(&r, "north"),
        );
        if !results.contains(&key) {
            created += 1;
            assert!(
                ["south", "east", "west"]
                    .iter()
                    .all(|k| !s(&r, k).is_empty()),
                "{r}"
            );
        }
    }
    assert!(created > 0 && created as u64 >= summary.rulings[RulingKind::NotPlayed as usize]);
    for p in lines(&bytes, "penalty") {
        assert!(s(&p, "participant").starts_with(['A', 'B']), "{p}");
        assert!(
            p.get("pct_of_top").is_some() || p.get("mp").is_some(),
            "{p}"
        );
    }
}

#[test]
fn other_forms_and_formats_are_refused() {
    let napki = Spec {
        form: SynthForm::Napki,
        ..individual(SynthForm::Mp)
    };
    let e = napki.validate(OutFormat::Jsonl).unwrap_err().to_string();
    assert!(e.contains("\"mp\", \"ximp\" or \"butler\""), "{e}");
    let plain = Spec {
        sessions: 1,
        rulings: 0.0,
        corrections: 0.0,
        members: None,
        ..individual(SynthForm::Mp)
    };
    for f in [OutFormat::Pbn, OutFormat::Salliere, OutFormat::Usebio] {
        assert!(plain.validate(f).is_err(), "{f:?}");
    }
    // 40 players need 40 members.
    let few = Spec {
        members: Some(39),
        ..individual(SynthForm::Mp)
    };
    assert!(few
        .validate(OutFormat::Jsonl)
        .unwrap_err()
        .to_string()
        .contains("40 players"));
    // A form's own kind named is the form's log, byte for byte.
    let pairs = |kind| {
        let mut b = Vec::new();
        synth::write_log(
            &Spec {
                kind,
                ..Spec::default()
            },
            &mut b,
        )
        .unwrap();
        b
    };
    assert!(pairs(None) == pairs(frekans_core::kind::named("pairs")));
}
