//! The USEBIO reader on small files written by hand from the documented structure
//! (interop-formats.md, the USEBIO 1.2 element notes): both nestings, teams matches,
//! encodings, adjusted scores, and every refusal with its element path.

use super::line::artificial_of;
use super::*;

fn req() -> Request {
    Request::default()
}

fn ok(xml: &[u8]) -> Vec<Value> {
    match read(xml, "t.xml", &req()) {
        Ok(r) => r.events,
        Err(p) => panic!("refused: {p:?}"),
    }
}

fn err(xml: &[u8]) -> Vec<String> {
    match read(xml, "t.xml", &req()) {
        Ok(r) => panic!("accepted: {:?}", r.events),
        Err(p) => p.iter().map(|p| p.to_string()).collect(),
    }
}

fn of_type<'a>(ev: &'a [Value], t: &str) -> Vec<&'a Value> {
    ev.iter().filter(|e| e["type"] == t).collect()
}

/// The events as a log: it must pass the log's own reader and replay.
fn check_log(ev: &[Value]) -> crate::replay::State {
    let text: String = ev.iter().map(|e| format!("{e}\n")).collect();
    let read = crate::event::read_log(text.as_bytes());
    let (state, errors) = crate::replay::replay(&read.events, &Default::default());
    let all: Vec<_> = read
        .errors
        .iter()
        .chain(&errors)
        .map(|e| e.to_string())
        .collect();
    assert!(
        all.is_empty(),
        "the imported log is invalid: {all:?}\n{text}"
    );
    state
}

/// Pairs under EVENT: `1NS` numbers, a doubled contract, a passed-out board, a bare score,
/// `A6040`, a HANDSET.
const PAIRS: &str = include_str!("../../../../../tests/data/usebio/pairs.xml");

#[test]
fn pairs_under_event() {
    let ev = ok(PAIRS.as_bytes());
    assert_eq!(
        ev[0],
        json!({"type":"championship","name":"Tuesday Pairs","date":"2026-11-03","place":"Test Club"})
    );
    assert_eq!(
        ev[1],
        json!({"type":"session","id":"S1","name":"Tuesday Pairs","form":"mp","boards":"1-2","compare":"section"})
    );
    let pairs = of_type(&ev, "pair");
    assert_eq!(pairs.len(), 4);
    assert_eq!(
        *pairs[0],
        json!({"type":"pair","id":"1NS","players":["Ann & Co","Bob"]})
    );
    let results = of_type(&ev, "result");
    assert_eq!(
        *results[0],
        json!({"type":"result","session":"S1","board":1,"ns":"1NS","ew":"1EW","contract":"4SX","declarer":"N","tricks":10,"lead":"H5"})
    );
    assert_eq!(results[1]["contract"], "PASS");
    // A bare score where only a score is given; the artificial score has no result.
    assert_eq!(
        *results[2],
        json!({"type":"result","session":"S1","board":2,"ns":"2NS","ew":"1EW","score":-100})
    );
    assert_eq!(results.len(), 3);
    assert_eq!(
        of_type(&ev, "ruling"),
        vec![
            &json!({"type":"ruling","id":"R1","session":"S1","board":2,"ns":"1NS","ew":"2EW","score":"A+/A-","law":"12C","note":"imported: A6040"})
        ]
    );
    assert_eq!(
        of_type(&ev, "deal"),
        vec![
            &json!({"type":"deal","session":"S1","board":1,"pbn":"N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"})
        ]
    );
    let state = check_log(&ev);
    assert_eq!(state.rulings.len(), 1);
}

#[test]
fn named_averages_and_other_splits() {
    assert_eq!(artificial_of("5050").as_deref(), Some("A"));
    assert_eq!(artificial_of("6060").as_deref(), Some("A+"));
    assert_eq!(artificial_of("4060").as_deref(), Some("A-/A+"));
    assert_eq!(artificial_of("7030").as_deref(), Some("70%/30%"));
    assert_eq!(artificial_of("4545").as_deref(), Some("45%"));
    assert_eq!(artificial_of("604"), None);
    assert_eq!(artificial_of("60x0"), None);
}

fn sections(compare_tops: bool) -> String {
    // Two sections of two tables, numbers 1 and 2 in each; matchpoints on a top of 2 (by
    // section) or 6 (across the field of four tables).
    let (a, b) = if compare_tops { ("6", "0") } else { ("2", "0") };
    let section = |id: &str, names: [&str; 4]| {
        format!(
            r#"<SECTION SECTION_ID="{id}"><PARTICIPANTS>
              <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><PLAYER><PLAYER_NAME>{}</PLAYER_NAME></PLAYER></PAIR>
              <PAIR><PAIR_NUMBER>2</PAIR_NUMBER><PLAYER><PLAYER_NAME>{}</PLAYER_NAME></PLAYER></PAIR>
              <PAIR><PAIR_NUMBER>3</PAIR_NUMBER><PLAYER><PLAYER_NAME>{}</PLAYER_NAME></PLAYER></PAIR>
              <PAIR><PAIR_NUMBER>4</PAIR_NUMBER><PLAYER><PLAYER_NAME>{}</PLAYER_NAME></PLAYER></PAIR>
            </PARTICIPANTS>
            <BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
              <TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>3</EW_PAIR_NUMBER><CONTRACT>3NT</CONTRACT><PLAYED_BY>S</PLAYED_BY><TRICKS>9</TRICKS><SCORE>400</SCORE><NS_MATCH_POINTS>{a}</NS_MATCH_POINTS><EW_MATCH_POINTS>{b}</EW_MATCH_POINTS></TRAVELLER_LINE>
              <TRAVELLER_LINE><NS_PAIR_NUMBER>2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>4</EW_PAIR_NUMBER><CONTRACT>1N</CONTRACT><PLAYED_BY>W</PLAYED_BY><TRICKS>7</TRICKS><SCORE>-90</SCORE><NS_MATCH_POINTS>0</NS_MATCH_POINTS><EW_MATCH_POINTS>{a}</EW_MATCH_POINTS></TRAVELLER_LINE>
            </BOARD></SECTION>"#,
            names[0], names[1], names[2], names[3]
        )
    };
    format!(
        r#"<USEBIO Version="1.1"><EVENT EVENT_TYPE="MP_PAIRS"><SESSION SESSION_ID="1">{}{}</SESSION></EVENT></USEBIO>"#,
        section("A", ["a1", "a2", "a3", "a4"]),
        section("B", ["b1", "b2", "b3", "b4"])
    )
}

#[test]
fn sections_with_repeated_numbers() {
    let ev = ok(sections(true).as_bytes());
    let ids: Vec<&str> = of_type(&ev, "pair")
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]);
    assert_eq!(of_type(&ev, "pair")[4]["section"], "B");
    assert_eq!(of_type(&ev, "pair")[4]["players"], json!(["b1"]));
    let r = of_type(&ev, "result");
    assert_eq!(
        (r[2]["ns"].as_str(), r[2]["section"].as_str()),
        (Some("B1"), Some("B"))
    );
    assert_eq!(r[1]["contract"], "1NT");
    // A top of 6 is the whole field's (four tables): compared across the field.
    assert_eq!(ev[0]["compare"], "field");
    assert_eq!(ok(sections(false).as_bytes())[0]["compare"], "section");
    // --compare decides when given.
    let r = Request {
        compare: Some("section".into()),
        ..req()
    };
    assert_eq!(
        read(sections(true).as_bytes(), "t", &r).unwrap().events[0]["compare"],
        "section"
    );
    check_log(&ev);
}

const TEAMS: &str = r#"<?xml version="1.0" encoding="iso-8859-1"?>
<USEBIO Version="1.2"><EVENT EVENT_TYPE="TEAMS">
  <BOARD_SCORING_METHOD>IMPS</BOARD_SCORING_METHOD><MATCH_SCORING_METHOD>VPS</MATCH_SCORING_METHOD>
  <SESSION SESSION_ID="1"><PARTICIPANTS>
    <TEAM TEAM_ID="1" TEAM_NAME="L\xe9on"><PAIR><PAIR_NUMBER>1-1-2</PAIR_NUMBER><PLAYER><PLAYER_NAME>Jos\xe9</PLAYER_NAME></PLAYER></PAIR>
      <PAIR><PAIR_NUMBER>1-3-4</PAIR_NUMBER><PLAYER><PLAYER_NAME>Zo\xeb</PLAYER_NAME></PLAYER></PAIR></TEAM>
    <TEAM TEAM_ID="2" TEAM_NAME=""><PAIR><PAIR_NUMBER>2-1-2</PAIR_NUMBER><PLAYER><PLAYER_NAME>Kim</PLAYER_NAME></PLAYER></PAIR></TEAM>
  </PARTICIPANTS>
  <MATCH><ROUND_NUMBER>1</ROUND_NUMBER><TEAM>1</TEAM><OPPOSING_TEAM>2</OPPOSING_TEAM><TEAM_SCORE>12</TEAM_SCORE><OPPOSING_TEAM_SCORE>8</OPPOSING_TEAM_SCORE>
    <BOARD><BOARD_NUMBER>1</BOARD_NUMBER><IMPS>1</IMPS>
      <TRAVELLER_LINE><DIRECTION>EW</DIRECTION><NS_PAIR_NUMBER>2-1-2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1-3-4</EW_PAIR_NUMBER><CONTRACT>4H</CONTRACT><PLAYED_BY>E</PLAYED_BY><TRICKS>11</TRICKS><SCORE>-450</SCORE></TRAVELLER_LINE>
      <TRAVELLER_LINE><DIRECTION>NS</DIRECTION><NS_PAIR_NUMBER>1-1-2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2-3-4</EW_PAIR_NUMBER><CONTRACT>3NT</CONTRACT><PLAYED_BY>E</PLAYED_BY><TRICKS>11</TRICKS><SCORE>-460</SCORE></TRAVELLER_LINE>
    </BOARD>
    <BOARD><BOARD_NUMBER>2</BOARD_NUMBER>
      <TRAVELLER_LINE><DIRECTION>NS</DIRECTION><NS_PAIR_NUMBER>1-1-2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2-3-4</EW_PAIR_NUMBER><SCORE>A5050</SCORE></TRAVELLER_LINE>
      <TRAVELLER_LINE><DIRECTION>EW</DIRECTION><NS_PAIR_NUMBER>2-1-2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1-3-4</EW_PAIR_NUMBER><CONTRACT>2S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>8</TRICKS><SCORE>110</SCORE></TRAVELLER_LINE>
    </BOARD>
  </MATCH>
  </SESSION></EVENT></USEBIO>
"#;

fn latin1(s: &str) -> Vec<u8> {
    // The test text spells Latin-1 bytes as \xNN.
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') {
            out.push(u8::from_str_radix(&s[i + 2..i + 4], 16).unwrap());
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn teams_match_in_latin1() {
    let ev = ok(&latin1(TEAMS));
    assert_eq!(ev[0]["form"], "teams");
    assert!(ev[0].get("compare").is_none());
    let teams = of_type(&ev, "team");
    assert_eq!(
        *teams[0],
        json!({"type":"team","id":"1","name":"Léon","players":["José","Zoë"]})
    );
    assert_eq!(
        of_type(&ev, "match"),
        vec![
            &json!({"type":"match","session":"S1","id":"M1","home":"1","away":"2","boards":"1-2","knockout":false})
        ]
    );
    let r = of_type(&ev, "result");
    // DIRECTION EW: the match's TEAM sat EW, so the away team is NS: the closed room.
    assert_eq!(
        (
            r[0]["ns"].as_str(),
            r[0]["room"].as_str(),
            r[0]["score"].as_i64()
        ),
        (Some("2"), Some("closed"), None)
    );
    assert_eq!(
        (r[1]["ns"].as_str(), r[1]["room"].as_str()),
        (Some("1"), Some("open"))
    );
    assert_eq!(
        of_type(&ev, "ruling")[0]["score"],
        "A",
        "A5050 is average for both"
    );
    let state = check_log(&ev);
    assert_eq!(state.matches.len(), 1);
    // Without the declaration the Latin-1 bytes are not UTF-8: refused, with the line.
    let undeclared = latin1(&TEAMS.replace(r#" encoding="iso-8859-1""#, ""));
    let e = err(&undeclared);
    assert!(
        e[0].contains("line 5") && e[0].contains("not valid UTF-8"),
        "{e:?}"
    );
}

#[test]
fn the_latin1_fixture_is_this_text() {
    // tests/data/usebio/teams-latin1.xml (a fuzzing seed, and checked against the DTD) is TEAMS.
    assert_eq!(
        include_bytes!("../../../../../tests/data/usebio/teams-latin1.xml").as_slice(),
        latin1(TEAMS).as_slice()
    );
}

#[test]
fn knockout_and_board_a_match() {
    let ko = TEAMS.replace(r#"EVENT_TYPE="TEAMS""#, r#"EVENT_TYPE="KO""#);
    assert_eq!(of_type(&ok(&latin1(&ko)), "match")[0]["knockout"], true);
    let pab = TEAMS.replace("<BOARD_SCORING_METHOD>IMPS", "<BOARD_SCORING_METHOD>PAB");
    assert_eq!(ok(&latin1(&pab))[0]["form"], "bam");
}

#[test]
fn forms_from_the_event() {
    let with = |ty: &str, bsm: &str| {
        let x = PAIRS
            .replace(r#"EVENT_TYPE="PAIRS""#, &format!(r#"EVENT_TYPE="{ty}""#))
            .replace(
                "<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>",
                bsm,
            );
        ok(x.as_bytes())
            .iter()
            .find(|e| e["type"] == "session")
            .unwrap()["form"]
            .clone()
    };
    assert_eq!(
        with(
            "PAIRS",
            "<BOARD_SCORING_METHOD>CROSS_IMPS</BOARD_SCORING_METHOD>"
        ),
        "ximp"
    );
    assert_eq!(
        with("BUTLER_PAIRS", "<SCORING_METHOD>IMPS</SCORING_METHOD>"),
        "butler"
    );
    assert_eq!(with("CROSS_IMP", ""), "ximp");
    assert_eq!(with("MP_PAIRS", ""), "mp");
    assert_eq!(with("PAIRS", ""), "mp");
    // Silent: --form decides, with --options merged in.
    let x = PAIRS.replace(
        "<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>",
        "",
    );
    let mut options = Map::new();
    options.insert("ximp_normalize".into(), json!("comparisons"));
    let r = Request {
        form: Some("ximp".into()),
        options,
        ..req()
    };
    let ev = read(x.as_bytes(), "t", &r).unwrap().events;
    assert_eq!(ev[1]["form"], "ximp");
    assert_eq!(ev[1]["options"], json!({"ximp_normalize":"comparisons"}));
    // An option of another form is refused, naming it.
    let e = read(PAIRS.as_bytes(), "t", &r).unwrap_err();
    assert_eq!(e[0].at, "--options");
    assert!(e[0].message.contains("ximp_normalize"), "{e:?}");
}

/// An individual event in the USEBIO specimen's layout (PLAYERs, four seats a line, the
/// EVENT_TYPE repeated on PARTICIPANTS and BOARD), read into players and results by seat.
const INDIVIDUAL: &str = r#"<USEBIO Version="1.1"><EVENT EVENT_TYPE="INDIVIDUAL">
<PARTICIPANTS EVENT_TYPE="INDIVIDUAL">
<PLAYER><PLAYER_NUMBER>2</PLAYER_NUMBER><PLACE>1</PLACE><PLAYER_NAME>B</PLAYER_NAME><NATIONAL_ID_NUMBER>0042</NATIONAL_ID_NUMBER></PLAYER>
<PLAYER><PLAYER_NUMBER>1</PLAYER_NUMBER><PLAYER_NAME>A</PLAYER_NAME></PLAYER>
<PLAYER><PLAYER_NUMBER>3</PLAYER_NUMBER></PLAYER>
<PLAYER><PLAYER_NUMBER>4</PLAYER_NUMBER></PLAYER>
</PARTICIPANTS>
<BOARD EVENT_TYPE="INDIVIDUAL"><BOARD_NUMBER>7</BOARD_NUMBER>
<TRAVELLER_LINE><N_PLAYER_NUMBER>1</N_PLAYER_NUMBER><S_PLAYER_NUMBER>2</S_PLAYER_NUMBER><E_PLAYER_NUMBER>3</E_PLAYER_NUMBER><W_PLAYER_NUMBER>4</W_PLAYER_NUMBER><SCORE>-50</SCORE><NS_MATCH_POINTS>0</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS></TRAVELLER_LINE>
</BOARD></EVENT></USEBIO>"#;

#[test]
fn individual_players_by_seat() {
    let ev = ok(INDIVIDUAL.as_bytes());
    assert_eq!(ev[0]["kind"], "individual");
    assert_eq!(ev[0]["form"], "mp");
    assert_eq!(
        ev[1],
        json!({"type":"player","id":"2","name":"B","member":"0042"})
    );
    assert_eq!(ev[2], json!({"type":"player","id":"1","name":"A"}));
    assert_eq!(ev[3], json!({"type":"player","id":"3"}));
    let r = &of_type(&ev, "result")[0];
    let keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["type", "session", "board", "north", "south", "east", "west", "score"]
    );
    assert_eq!(
        (&r["north"], &r["west"], &r["score"]),
        (&json!("1"), &json!("4"), &json!(-50))
    );
    check_log(&ev);
}

#[test]
fn individual_seats_refused_by_name() {
    // A seat naming no PLAYER, a seat left out: the board, the line and the seat element (and,
    // the file's only line refused, no traveller lines).
    let x = INDIVIDUAL.replace("<S_PLAYER_NUMBER>2<", "<S_PLAYER_NUMBER>101<");
    let e = err(x.as_bytes());
    assert!(
        e.iter()
            .any(|e| e.contains("BOARD[1]/TRAVELLER_LINE[1]/S_PLAYER_NUMBER")
                && e.contains("board 7")
                && e.contains("101")),
        "{e:?}"
    );
    let x = INDIVIDUAL.replace("<E_PLAYER_NUMBER>3</E_PLAYER_NUMBER>", "");
    let e = err(x.as_bytes());
    assert!(
        e.iter()
            .any(|e| e.contains("TRAVELLER_LINE[1]/E_PLAYER_NUMBER: board 7: missing")),
        "{e:?}"
    );
    // A player in two seats; a PAIR in an individual event.
    let x = INDIVIDUAL.replace("<W_PLAYER_NUMBER>4<", "<W_PLAYER_NUMBER>1<");
    let e = err(x.as_bytes());
    assert!(
        e.iter().any(|e| e.contains("player 1 in two seats")),
        "{e:?}"
    );
    let x = PAIRS.replace(r#"EVENT_TYPE="PAIRS""#, r#"EVENT_TYPE="INDIVIDUAL""#);
    let e = err(x.as_bytes());
    assert!(
        e.iter()
            .any(|e| e.contains("a PAIR in an individual event")),
        "{e:?}"
    );
}

#[test]
fn score_contradicting_its_contract() {
    let x = PAIRS.replace("<SCORE>590</SCORE>", "<SCORE>620</SCORE>");
    assert_eq!(
        err(x.as_bytes()),
        ["t.xml: USEBIO/EVENT/BOARD[1]/TRAVELLER_LINE[1]/SCORE: 620 contradicts 4SX by N with 10 tricks on board 1 (vulnerable: None), which scores 590 for NS"]
    );
}

#[test]
fn bad_lines_named_by_path() {
    let cases = [
        (
            PAIRS.replace("<EW_PAIR_NUMBER>2EW</EW_PAIR_NUMBER>\n        <CONTRACT>PASS", "<EW_PAIR_NUMBER>9EW</EW_PAIR_NUMBER>\n        <CONTRACT>PASS"),
            "USEBIO/EVENT/BOARD[1]/TRAVELLER_LINE[2]/EW_PAIR_NUMBER: pair 9EW is not declared",
        ),
        (
            PAIRS.replace("<NS_PAIR_NUMBER>2NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1EW</EW_PAIR_NUMBER>", "<NS_PAIR_NUMBER>1NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1EW</EW_PAIR_NUMBER>"),
            "USEBIO/EVENT/BOARD[2]/TRAVELLER_LINE[2]: board 2 played twice by pair 1NS (first at USEBIO/EVENT/BOARD[2]/TRAVELLER_LINE[1])",
        ),
        (
            // The EW pair of the first table sits EW again at the second.
            PAIRS.replace("<NS_PAIR_NUMBER>2NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1EW</EW_PAIR_NUMBER>", "<NS_PAIR_NUMBER>2NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2EW</EW_PAIR_NUMBER>"),
            "USEBIO/EVENT/BOARD[2]/TRAVELLER_LINE[2]: board 2 played twice by pair 2EW (first at USEBIO/EVENT/BOARD[2]/TRAVELLER_LINE[1])",
        ),
        (
            PAIRS.replace("<TRICKS>10</TRICKS>", "<TRICKS>14</TRICKS>"),
            "USEBIO/EVENT/BOARD[1]/TRAVELLER_LINE[1]/TRICKS: \"14\": expected the tricks declarer took, 0-13",
        ),
        (
            PAIRS.replace("<CONTRACT>4Sx</CONTRACT>", "<CONTRACT>8S</CONTRACT>"),
            "USEBIO/EVENT/BOARD[1]/TRAVELLER_LINE[1]/CONTRACT: expected a contract",
        ),
        (
            PAIRS.replace("<SCORE>A6040</SCORE>", "<SCORE>AVE+</SCORE>"),
            "USEBIO/EVENT/BOARD[2]/TRAVELLER_LINE[1]/SCORE: \"AVE+\": expected NS points or an adjusted score such as A6040",
        ),
        (
            PAIRS.replace("<SCORE>-100</SCORE>", ""),
            "USEBIO/EVENT/BOARD[2]/TRAVELLER_LINE[2]: no result; expected CONTRACT, PLAYED_BY and TRICKS, or a SCORE",
        ),
        (
            PAIRS.replace("<BOARD_NUMBER>2</BOARD_NUMBER>", "<BOARD_NUMBER>two</BOARD_NUMBER>"),
            "USEBIO/EVENT/BOARD[2]/BOARD_NUMBER: \"two\": expected a board number",
        ),
        (
            PAIRS.replace("<CLUBS>5432</CLUBS>", "<CLUBS>543</CLUBS>"),
            "USEBIO/HANDSET[1]/BOARD[1]: the hands are not a deal",
        ),
        (PAIRS[..PAIRS.len() / 2].to_string(), "ends inside <"),
        (PAIRS.replace("</BOARD_NUMBER>", "</BOARD_NUMBR>"), "line 17: not well-formed XML"),
        (PAIRS.replace("<USEBIO Version=\"1.2\">", "<USEBIO Version=\"2.0\">"), "USEBIO: Version \"2.0\""),
        (PAIRS.replace("EVENT", "EVT"), "USEBIO/EVENT: missing; expected an EVENT element"),
    ];
    for (xml, want) in cases {
        // (strict: a line whose play cannot be read is not taken by its score)
        let strict = Request {
            strict: true,
            ..req()
        };
        let e = match read(xml.as_bytes(), "t.xml", &strict) {
            Ok(r) => panic!("accepted: {:?}", r.events),
            Err(p) => p.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        };
        assert!(
            e.iter().any(|m| m.contains(want)),
            "want {want:?}, got {e:?}"
        );
    }
}

/// Issue 33: a line whose play cannot be read (an impossible contract, declarer or tricks)
/// but whose score can is taken by its score alone, with a notice at the field that could not
/// be read; one without a score is refused there.
#[test]
fn slips_are_taken_by_their_score() {
    for (from, to, at) in [
        (
            "<TRICKS>10</TRICKS>",
            "<TRICKS>14</TRICKS>",
            "TRAVELLER_LINE[1]/TRICKS",
        ),
        (
            "<CONTRACT>4Sx</CONTRACT>",
            "<CONTRACT>42</CONTRACT>",
            "TRAVELLER_LINE[1]/CONTRACT",
        ),
        (
            "<PLAYED_BY>N</PLAYED_BY>",
            "<PLAYED_BY>Q</PLAYED_BY>",
            "TRAVELLER_LINE[1]/PLAYED_BY",
        ),
    ] {
        assert!(PAIRS.contains(from), "{from}");
        let x = PAIRS.replacen(from, to, 1);
        let r = read(x.as_bytes(), "t.xml", &req()).unwrap();
        assert_eq!(r.notices.len(), 1, "{:?}", r.notices);
        let n = r.notices[0].to_string();
        assert!(
            n.starts_with(&format!("t.xml: USEBIO/EVENT/BOARD[1]/{at}: ")),
            "{n}"
        );
        assert!(n.ends_with("taken by its score alone (590 for NS)"), "{n}");
        let line = r
            .events
            .iter()
            .find(|e| e["type"] == "result" && e["board"] == 1 && e["ns"] == "1NS")
            .unwrap();
        assert_eq!(line["score"], 590, "{line}");
        assert!(line.get("contract").is_none(), "{line}");
        check_log(&r.events);
        let x = x.replacen("<SCORE>590</SCORE>", "", 1);
        let e = err(x.as_bytes());
        assert!(e.iter().any(|m| m.contains(at)), "{e:?}");
    }
}

#[test]
fn lenient_skips_bad_lines_and_says_so() {
    let x = PAIRS.replace("<SCORE>590</SCORE>", "<SCORE>620</SCORE>");
    let r = Request {
        lenient: true,
        ..req()
    };
    let read = read(x.as_bytes(), "t.xml", &r).unwrap();
    assert_eq!(read.skipped.len(), 1);
    assert_eq!(
        read.skipped[0].at,
        "USEBIO/EVENT/BOARD[1]/TRAVELLER_LINE[1]/SCORE"
    );
    assert_eq!(of_type(&read.events, "result").len(), 2);
}

#[test]
fn several_sessions_declare_their_pairs_once() {
    let x = sections(false).replace(
        "</SESSION>",
        "</SESSION><SESSION SESSION_ID=\"2\">__</SESSION>",
    );
    // The second session: section A again (same pairs, same players).
    let second = {
        let s = sections(false);
        let a = s.find("<SECTION SECTION_ID=\"A\">").unwrap();
        let b = s.find("<SECTION SECTION_ID=\"B\">").unwrap();
        s[a..b].to_string()
    };
    let x = x.replace("__", &second);
    let ev = ok(x.as_bytes());
    let sessions: Vec<&str> = of_type(&ev, "session")
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(sessions, ["S1", "S2"]);
    assert_eq!(of_type(&ev, "pair").len(), 8);
    check_log(&ev);
}

#[test]
fn hands_boards_are_not_results() {
    // The HANDSET's BOARD has no traveller line: only a deal, never a board of results.
    let ev = ok(PAIRS.as_bytes());
    assert_eq!(ev[1]["boards"], "1-2");
    assert_eq!(of_type(&ev, "deal").len(), 1);
}

#[test]
fn rulings_frekans_wrote_in_notes_are_read_back() {
    // A weighted ruling, and a structured subsequent damage, as `frekans export` writes them.
    let weighted = PAIRS.replace(
        "<SCORE>-100</SCORE>",
        "<SCORE>-100</SCORE><NOTES>frekans adjusted score: (60%+620&amp;40%-100)/(+620); law: 12C1(c); ruling R7</NOTES>",
    );
    let ev = ok(weighted.as_bytes());
    let r = of_type(&ev, "ruling");
    assert_eq!(r[1]["score"], "(60%+620&40%-100)/(+620)");
    assert_eq!(r[1]["law"], "12C1(c)");
    assert_eq!(r[1]["ns"], "2NS");
    // The played result stays beside it.
    assert_eq!(of_type(&ev, "result")[2]["score"], -100);
    let sd = PAIRS.replace(
        "<SCORE>-100</SCORE>",
        "<SCORE>-100</SCORE><NOTES>frekans subsequent damage: side EW, before -140, after_infraction +130, after_loss +510, offenders -140</NOTES>",
    );
    let ev = ok(sd.as_bytes());
    assert_eq!(
        of_type(&ev, "ruling")[1]["subsequent_damage"],
        json!({"side":"EW","before":"-140","after_infraction":"+130","after_loss":"+510","offenders":"-140"})
    );
    check_log(&ev);
    // Other notes are only notes; a damaged frekans note is refused by its path.
    assert_eq!(
        of_type(
            &ok(PAIRS
                .replace(
                    "<SCORE>-100</SCORE>",
                    "<SCORE>-100</SCORE><NOTES>Director called</NOTES>"
                )
                .as_bytes()),
            "ruling"
        )
        .len(),
        1
    );
    let bad = PAIRS.replace(
        "<SCORE>-100</SCORE>",
        "<SCORE>-100</SCORE><NOTES>frekans adjusted score: 160%</NOTES>",
    );
    let e = err(bad.as_bytes());
    assert!(
        e[0].contains("USEBIO/EVENT/BOARD[2]/TRAVELLER_LINE[2]/NOTES"),
        "{e:?}"
    );
}

#[test]
fn a_team_plays_a_board_once_in_each_seat() {
    // A second match in which team 1 sits NS on board 1 again: refused by its path.
    let second = r#"<MATCH><TEAM>1</TEAM><OPPOSING_TEAM>2</OPPOSING_TEAM>
    <BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
      <TRAVELLER_LINE><DIRECTION>NS</DIRECTION><CONTRACT>PASS</CONTRACT></TRAVELLER_LINE>
    </BOARD></MATCH></SESSION>"#;
    let x = TEAMS.replace("</SESSION>", second);
    let e = err(&latin1(&x));
    assert!(
        e.iter().any(|m| m.contains("USEBIO/EVENT/SESSION[1]/MATCH[2]/BOARD[1]/TRAVELLER_LINE[1]: board 1 played twice by team 1 sitting NS")),
        "{e:?}"
    );
}

/// An element without a name (`<>`, `<` then a space) is refused at its line, not at an empty
/// place (found twice by the usebio fuzz target: inside a truncated file, and as the root).
#[test]
fn a_truncated_nameless_element_is_refused_with_a_place() {
    for (xml, line) in [
        (&b"<USEBIO><EVENT><>"[..], "line 1"),
        (b"<\n/>,R", "line 1"),
        (b"<USEBIO>\n<EVENT>\n< />", "line 3"),
        (b"<\0\n/>,R", "line 1"),
    ] {
        let problems = match read(xml, "t.xml", &req()) {
            Ok(r) => panic!("accepted: {:?}", r.events),
            Err(p) => p,
        };
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].at, line, "{problems:?}");
        assert!(
            problems[0].message.contains("without a name"),
            "{problems:?}"
        );
    }
}

/// Read leniently, a team board whose every line is refused is still the match's and so the
/// session's: the events are a valid log (found by the usebio fuzz target, which had a match
/// declare board 1 in a session of boards 2-2).
#[test]
fn a_match_board_without_kept_lines_stays_in_its_session() {
    let x = TEAMS
        .replace("<CONTRACT>4H</CONTRACT>", "<CONTRACT>4Hxyz</CONTRACT>")
        .replace("<CONTRACT>3NT</CONTRACT>", "<CONTRACT>3xyzNT</CONTRACT>");
    // (strict: a line whose contract cannot be read is not taken by its score)
    let r = Request {
        lenient: true,
        strict: true,
        ..req()
    };
    let read = read(&latin1(&x), "t.xml", &r).unwrap();
    assert_eq!(read.skipped.len(), 2, "{:?}", read.skipped);
    let session = of_type(&read.events, "session")[0].clone();
    assert_eq!(session["boards"], "1-2");
    assert_eq!(of_type(&read.events, "match")[0]["boards"], "1-2");
    check_log(&read.events);
}

/// A root element of another name, even without children, is refused at a place (found by the
/// usebio fuzz target: a childless root had dropped its path).
#[test]
fn a_wrong_root_is_refused_at_its_name() {
    for xml in [&b"<FOO/>"[..], b"<FOO></FOO>", b"<FOO><BAR/></FOO>"] {
        let problems = match read(xml, "t.xml", &req()) {
            Ok(r) => panic!("accepted: {:?}", r.events),
            Err(p) => p,
        };
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].at, "FOO", "{problems:?}");
        assert!(
            problems[0]
                .message
                .contains("expected the root element <USEBIO>"),
            "{problems:?}"
        );
    }
}

/// A board of 1,000 traveller lines (their events made in parallel): the results come in the
/// lines' order, each with its own line's pairs and score, then the adjusted scores' rulings
/// in the lines' order. Pairs 2k-1 and 2k sit at line k, which scores 10·k (NS); every 97th
/// line is an A6040.
#[test]
fn many_lines_keep_their_order() {
    let mut x = String::from(
        r#"<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>"#,
    );
    for k in 1..=1000 {
        let score = if k % 97 == 0 {
            "A6040".to_string()
        } else {
            (10 * k).to_string()
        };
        x.push_str(&format!(
            "<TRAVELLER_LINE><NS_PAIR_NUMBER>{}</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{}</EW_PAIR_NUMBER><SCORE>{score}</SCORE></TRAVELLER_LINE>",
            2 * k - 1,
            2 * k
        ));
    }
    x.push_str("</BOARD></EVENT></USEBIO>");
    let ev = ok(x.as_bytes());
    let results = of_type(&ev, "result");
    let played: Vec<i64> = (1..=1000).filter(|k| k % 97 != 0).collect();
    assert_eq!(results.len(), played.len());
    for (r, k) in results.iter().zip(&played) {
        assert_eq!(
            (&r["ns"], &r["ew"], &r["score"]),
            (
                &json!((2 * k - 1).to_string()),
                &json!((2 * k).to_string()),
                &json!(10 * k)
            ),
            "{r}"
        );
    }
    let rulings = of_type(&ev, "ruling");
    let adjusted: Vec<String> = (1..=1000)
        .filter(|k| k % 97 == 0)
        .map(|k| (2 * k - 1).to_string())
        .collect();
    let ns: Vec<&str> = rulings.iter().map(|r| r["ns"].as_str().unwrap()).collect();
    assert_eq!(ns, adjusted);
    // The results before the rulings, as one reading adds them.
    let first_ruling = ev.iter().position(|e| e["type"] == "ruling").unwrap();
    let last_result = ev.iter().rposition(|e| e["type"] == "result").unwrap();
    assert!(last_result < first_ruling);
}

/// Elements nested at most `MAX_XML_DEPTH` deep (the root counts): one more is refused at its
/// line, whatever its name, in the one reading and in a big file's parts alike.
#[test]
fn nesting_is_bounded() {
    let nested = |name: &str, depth: usize| {
        let mut x = String::from("<USEBIO>\n");
        x.push_str(&format!("<{name}>").repeat(depth - 1));
        x.push_str(&format!("</{name}>").repeat(depth - 1));
        x.push_str("</USEBIO>");
        x
    };
    let max = crate::limits::MAX_XML_DEPTH;
    for name in ["EVENT", "X"] {
        assert!(tree::parse(&nested(name, max)).is_ok(), "{name}");
        let e = tree::parse(&nested(name, max + 1)).unwrap_err();
        assert_eq!(e.at, "line 2");
        assert!(
            e.message
                .starts_with(&format!("<{name}> is nested 33 elements deep")),
            "{}",
            e.message
        );
    }
}
