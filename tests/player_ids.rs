//! Players' federation member numbers (issue 35): `players` entries `{"name", "id"}` beside
//! plain names in the log (good and bad forms), written back unchanged by `append` (the hash
//! chain holds), kept by `import` from the files that have them (USEBIO `NATIONAL_ID_NUMBER`,
//! BWS `PlayerNumbers.Number`, Ruter's PBN `MemberID1`/`MemberID2`, a CSV `ns_player_ids`
//! column), written back by the USEBIO export, and in `standings.parquet`'s `player_ids` as
//! pyarrow reads it.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::bws::{bws, events, import_ok, s};
use common::scratch::{run_in, show, tmp};
use serde_json::{json, Value};

/// A pairs session of two tables whose pairs' players are given every way the log allows.
const LOG: &str = r#"{"type":"session","id":"S1","form":"mp","boards":"1-2"}
{"type":"pair","id":"1","players":[{"name":"Anna Nowak","id":"PL-0123"},"Jan Kowalski"]}
{"type":"pair","id":"2","players":[{"name":"Piotr Zieliński","id":"77"},{"name":"Maria Wójcik","id":null}]}
{"type":"pair","id":"3","players":["Ewa Lis","Adam Mazur"]}
{"type":"pair","id":"4"}
{"type":"result","session":"S1","board":1,"ns":"1","ew":"2","contract":"4S","declarer":"N","tricks":10}
{"type":"result","session":"S1","board":1,"ns":"3","ew":"4","contract":"3N","declarer":"S","tricks":9}
{"type":"result","session":"S1","board":2,"ns":"1","ew":"3","contract":"2H","declarer":"E","tricks":8}
{"type":"result","session":"S1","board":2,"ns":"4","ew":"2","contract":"1N","declarer":"W","tricks":7}
"#;

/// The `players` of each pair or team of a log's events, by id.
fn players_of(ev: &[Value]) -> BTreeMap<String, Value> {
    ev.iter()
        .filter(|e| e["type"] == "pair" || e["type"] == "team")
        .map(|e| (e["id"].as_str().unwrap().to_string(), e["players"].clone()))
        .collect()
}

fn python() -> String {
    std::env::var("FREKANS_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// `standings.parquet` of `dir` as pyarrow reads it: the `player_ids` column's type and each
/// row's (session, participant, player_ids).
fn standings_ids(dir: &Path) -> (String, Vec<(String, String, Value)>) {
    let script = r#"
import json, sys
import pyarrow.parquet as pq
t = pq.read_table(sys.argv[1] + "/standings.parquet")
print(json.dumps({"type": str(t.schema.field("player_ids").type),
                  "names": t.column_names, "rows": t.to_pylist()}))
"#;
    let o = Command::new(python())
        .arg("-c")
        .arg(script)
        .arg(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; run the tests through scripts/test.sh",
                python()
            )
        });
    assert!(
        o.status.success(),
        "pyarrow: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = v["names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    let players = names.iter().position(|n| *n == "players").unwrap();
    assert!(
        names.iter().position(|n| *n == "player_ids").unwrap() > players,
        "{names:?}"
    );
    let rows = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["session"].as_str().unwrap().to_string(),
                r["participant"].as_str().unwrap().to_string(),
                r["player_ids"].clone(),
            )
        })
        .collect();
    (v["type"].as_str().unwrap().to_string(), rows)
}

/// Good forms: names, objects with and without an id, mixed; the log is valid, replays the
/// names as before, and standings.parquet carries the numbers beside them (nulls where none).
#[test]
fn the_log_takes_member_numbers_beside_names_and_standings_carry_them() {
    let t = tmp("ids-log");
    let log = t.path().join("log.jsonl");
    std::fs::write(&log, LOG).unwrap();
    let o = run_in(t.path(), &["check", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));
    let st = frekans::app::load_bytes(LOG.as_bytes(), &Default::default())
        .unwrap()
        .state;
    let p1 = st.participants.iter().find(|p| p.id == "1").unwrap();
    assert_eq!(p1.players, ["Anna Nowak", "Jan Kowalski"]);
    assert_eq!(p1.player_ids, [Some("PL-0123".to_string()), None]);
    let p2 = st.participants.iter().find(|p| p.id == "2").unwrap();
    assert_eq!(p2.player_ids, [Some("77".to_string()), None]);
    let p3 = st.participants.iter().find(|p| p.id == "3").unwrap();
    assert_eq!(
        (p3.players.len(), p3.player_ids.clone()),
        (2, vec![None, None])
    );

    let out = t.path().join("out");
    let o = run_in(t.path(), &["-q", "score", s(&log), "--out", s(&out)]);
    assert!(o.status.success(), "{}", show(&o));
    let (ty, rows) = standings_ids(&out);
    assert!(
        ty.starts_with("list<") || ty.starts_with("large_list<"),
        "{ty}"
    );
    assert!(ty.contains("string"), "{ty}");
    let of = |session: &str, p: &str| {
        rows.iter()
            .find(|r| r.0 == session && r.1 == p)
            .unwrap_or_else(|| panic!("no row {session} {p}: {rows:?}"))
            .2
            .clone()
    };
    for session in ["S1", "overall"] {
        assert_eq!(of(session, "1"), json!(["PL-0123", null]));
        assert_eq!(of(session, "2"), json!(["77", null]));
        assert_eq!(of(session, "3"), json!([null, null]));
        assert_eq!(of(session, "4"), json!([]));
    }
}

/// Bad forms: each refused at its line and field, saying what was expected.
#[test]
fn bad_players_are_refused_naming_line_and_field() {
    let t = tmp("ids-bad");
    let bad = [
        (
            r#"{"type":"pair","id":"9","players":[{"name":"A","id":123}]}"#,
            "players[0].id",
            "write \"123\"",
        ),
        (
            r#"{"type":"pair","id":"9","players":["A",{"name":"B","id":""}]}"#,
            "players[1].id",
            "non-empty string",
        ),
        (
            r#"{"type":"pair","id":"9","players":[{"id":"5"}]}"#,
            "players[0].name",
            "missing",
        ),
        (
            r#"{"type":"pair","id":"9","players":[{"name":7}]}"#,
            "players[0].name",
            "name",
        ),
        (
            r#"{"type":"pair","id":"9","players":[{"name":"A","id":"5","club":"x"}]}"#,
            "players[0].club",
            "unknown field",
        ),
        (
            r#"{"type":"team","id":"9","players":[["A"]]}"#,
            "players[0]",
            "a name (a string) or",
        ),
        (
            r#"{"type":"team","id":"9","players":[{"name":"A","id":["5"]}]}"#,
            "players[0].id",
            "federation member number",
        ),
        (
            r#"{"type":"pair","id":"9","players":"A"}"#,
            "players",
            "list",
        ),
    ];
    for (line, field, phrase) in bad {
        let log = t.path().join("bad.jsonl");
        std::fs::write(
            &log,
            format!(
                "{{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\",\"boards\":\"1\"}}\n{line}\n"
            ),
        )
        .unwrap();
        let o = run_in(t.path(), &["check", s(&log)]);
        assert_eq!(o.status.code(), Some(2), "{line}: {}", show(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!("line 2: field \"{field}\"")) && err.contains(phrase),
            "{line}: expected line 2, field {field}, {phrase:?}:\n{err}"
        );
    }
}

/// `append` writes a pair with member numbers back as given: the line keeps its objects, the
/// hash chain holds, and the log checks valid.
#[test]
fn append_writes_the_objects_back_unchanged() {
    let t = tmp("ids-append");
    let log = t.path().join("log.jsonl");
    std::fs::write(
        &log,
        "{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\",\"boards\":\"1\"}\n",
    )
    .unwrap();
    let pair = r#"{"type":"pair","id":"5","players":[{"name":"Zofia \"Zosia\" Wróbel","id":"0042"},"Karol Dudek"]}"#;
    let o = run_in(t.path(), &["-q", "append", "--no-cache", s(&log), pair]);
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(
        t.path(),
        &[
            "-q",
            "append",
            "--no-cache",
            s(&log),
            r#"{"type":"pair","id":"6"}"#,
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    let ev = events(&log);
    assert!(ev[1]["hash"].is_string() && ev[2]["hash"].is_string());
    assert_eq!(
        ev[1]["players"],
        json!([{"name": "Zofia \"Zosia\" Wróbel", "id": "0042"}, "Karol Dudek"])
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains(r#""players":[{"name":"Zofia \"Zosia\" Wróbel","id":"0042"},"Karol Dudek"]"#),
        "{text}"
    );
    let o = run_in(t.path(), &["check", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));
}

/// USEBIO: `NATIONAL_ID_NUMBER` (as EBUScore and Compscore write it) kept as written, leading
/// zeros and all; `0` and none give a plain name. Exported and imported again, the numbers
/// are the same; the export is valid USEBIO 1.2.
#[test]
fn usebio_member_numbers_survive_import_export_import() {
    let t = tmp("ids-usebio");
    let fixture = common::root().join("tests/data/import/ebuscore-member-numbers.xml");
    let log = t.path().join("log.jsonl");
    import_ok(t.path(), &["-q", "import", s(&fixture), "--out", s(&log)]);
    let first = players_of(&events(&log));
    assert_eq!(
        first["1"],
        json!([{"name": "Player 1a", "id": "0512345"}, "Player 1b"])
    );
    assert_eq!(
        first["2"],
        json!([{"name": "Player 2a", "id": "900003"}, "Player 2b"])
    );
    assert_eq!(
        first["3"],
        json!([{"name": "Player 3a", "id": "900005"}, {"name": "Player 3b", "id": "900006"}])
    );
    let o = run_in(t.path(), &["check", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));

    let xml = t.path().join("export.xml");
    import_ok(
        t.path(),
        &[
            "-q",
            "export",
            "--format",
            "usebio",
            "--out",
            s(&xml),
            s(&log),
        ],
    );
    let text = std::fs::read_to_string(&xml).unwrap();
    assert!(text.contains("<NATIONAL_ID_NUMBER>0512345</NATIONAL_ID_NUMBER>"));
    assert!(!text.contains("<NATIONAL_ID_NUMBER>0</NATIONAL_ID_NUMBER>"));
    let lint = Command::new("xmllint")
        .args(["--noout", "--nonet", "--dtdvalid"])
        .arg(common::root().join("tests/data/usebio_v1_2.dtd"))
        .arg(&xml)
        .output()
        .expect("xmllint (Debian libxml2-utils)");
    assert!(
        lint.status.success(),
        "{}",
        String::from_utf8_lossy(&lint.stderr)
    );
    let again = t.path().join("again.jsonl");
    import_ok(t.path(), &["-q", "import", s(&xml), "--out", s(&again)]);
    assert_eq!(players_of(&events(&again)), first);
}

/// BWS: each seat's `PlayerNumbers.Number` is its player's member number, beside the name
/// (`PlayerNumbers.Name`, or the name `PlayerNames` gives the number).
#[test]
fn bws_player_numbers_are_kept() {
    let t = tmp("ids-bws");
    let log = t.path().join("log.jsonl");
    import_ok(
        t.path(),
        &["-q", "import", s(&bws("live1")), "--out", s(&log)],
    );
    let p = players_of(&events(&log));
    assert_eq!(
        p["1NS"],
        json!([{"name": "Anna Nowak", "id": "101"}, {"name": "Jan Kowalski", "id": "102"}])
    );
    // West of table 1: no Name in PlayerNumbers, found in PlayerNames by its number.
    assert_eq!(
        p["1EW"],
        json!([{"name": "Piotr Zieliński", "id": "103"}, {"name": "Maria Wójcik", "id": "104"}])
    );
    let o = run_in(t.path(), &["check", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));
}

/// PBN: Ruter's `TotalScoreTable` gives `MemberID1` and `MemberID2` beside `Names`.
#[test]
fn ruter_pbn_member_ids_are_kept() {
    let t = tmp("ids-pbn");
    let log = t.path().join("log.jsonl");
    let file = common::root().join("tests/data/interop/ruter-butler.pbn");
    import_ok(t.path(), &["-q", "import", s(&file), "--out", s(&log)]);
    let p = players_of(&events(&log));
    // `1  -  3 2 "N-S" ... "Magne Tønnessen - Dagfinn Iversen" ... "11925" "39066"`
    assert_eq!(
        p["3"],
        json!([{"name": "Magne Tønnessen", "id": "11925"}, {"name": "Dagfinn Iversen", "id": "39066"}])
    );
    assert!(
        p.values()
            .all(|v| v.as_array().unwrap().iter().all(|x| x["id"].is_string())),
        "{p:?}"
    );
}

/// CSV: `ns_player_ids` and `ew_player_ids` beside the names (`0` or `-`: none); as many numbers
/// as names, or the row is refused.
#[test]
fn csv_player_id_columns() {
    let t = tmp("ids-csv");
    let csv = t.path().join("t.csv");
    std::fs::write(
        &csv,
        "board,ns,ew,contract,declarer,tricks,ns_players,ew_players,ns_player_ids,ew_player_ids\n\
         1,1,2,4S,N,10,Anna - Jan,Ola - Ewa,123 - 0,- & -\n\
         1,3,4,3N,S,9,Adam - Olga,Karol - Irena,,77 & 78\n\
         2,1,3,2H,E,8,Anna - Jan,Adam - Olga,123 - 0,\n\
         2,4,2,1N,W,7,Karol - Irena,Ola - Ewa,77 & 78,\n",
    )
    .unwrap();
    let log = t.path().join("log.jsonl");
    import_ok(
        t.path(),
        &["-q", "import", s(&csv), "--form", "mp", "--out", s(&log)],
    );
    let p = players_of(&events(&log));
    assert_eq!(p["1"], json!([{"name": "Anna", "id": "123"}, "Jan"]));
    assert_eq!(p["2"], json!(["Ola", "Ewa"]));
    assert_eq!(
        p["4"],
        json!([{"name": "Karol", "id": "77"}, {"name": "Irena", "id": "78"}])
    );
    // Three numbers for two players; other numbers for a pair than before.
    for (row, phrase) in [
        ("1,1,2,4S,N,10,Anna - Jan,Ola - Ewa,1 - 2 - 3,\n", "3 member numbers for the 2 players of 1"),
        ("1,1,2,4S,N,10,Anna - Jan,Ola - Ewa,1 - 2,\n2,1,2,4S,N,10,Anna - Jan,Ola - Ewa,1 - 5,\n", "member numbers 1 - 5 here but 1 - 2"),
    ] {
        std::fs::write(&csv, format!("board,ns,ew,contract,declarer,tricks,ns_players,ew_players,ns_player_ids,ew_player_ids\n{row}")).unwrap();
        let bad = t.path().join("bad.jsonl");
        let o = run_in(t.path(), &["import", s(&csv), "--form", "mp", "--out", s(&bad)]);
        assert!(!o.status.success(), "{}", show(&o));
        assert!(String::from_utf8_lossy(&o.stderr).contains(phrase), "{phrase}: {}", show(&o));
    }
}
