//! The log as an official record: `append` (validated, locked, durable, hash-chained), tamper
//! evidence in `check`, torn writes and `repair`, and appends killed with SIGKILL.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const LOG: &str = r#"{"type":"session","id":"S1","form":"mp","boards":"1-2"}
{"type":"result","session":"S1","board":1,"ns":"1","ew":"101","score":620}
{"type":"result","session":"S1","board":1,"ns":"2","ew":"102","score":420}
{"type":"result","session":"S1","board":1,"ns":"3","ew":"103","score":100}
"#;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("frekans-durable-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn frekans(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn result(board: u32, ns: u32, score: i32) -> String {
    format!(
        r#"{{"type":"result","session":"S1","board":{board},"ns":"{ns}","ew":"{}","score":{score}}}"#,
        100 + ns
    )
}

fn log_with(d: &Path) -> PathBuf {
    let p = d.join("log.jsonl");
    std::fs::write(&p, LOG).unwrap();
    p
}

#[test]
fn append_fills_in_seq_time_and_hash_and_check_verifies_the_chain() {
    let d = dir("append");
    let p = log_with(&d);
    let ps = p.to_str().unwrap();
    for (i, ev) in [result(2, 1, 450), result(2, 2, 420), r#"{"type":"ruling","id":"R1","session":"S1","board":2,"ns":"2","ew":"102","score":"(60%+450&40%-50)"}"#.to_string()].iter().enumerate() {
        let o = frekans(&["append", ps, ev]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert!(text(&o).contains(&format!("appended event {}", 5 + i)), "{}", text(&o));
    }
    let body = std::fs::read_to_string(&p).unwrap();
    let last: serde_json::Value = serde_json::from_str(body.lines().last().unwrap()).unwrap();
    assert_eq!(last["seq"], 7);
    assert!(last["at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(last["hash"].as_str().unwrap().len(), 64);
    let o = frekans(&["check", ps]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // Altering a hashed line is caught at that line.
    let altered = body.replace("\"score\":450", "\"score\":480");
    std::fs::write(&p, &altered).unwrap();
    let o = frekans(&["check", ps]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("line 5: field \"hash\": the hash chain breaks here"),
        "{}",
        text(&o)
    );

    // Removing a hashed line breaks the chain at the next one.
    let lines: Vec<&str> = body.lines().collect();
    let removed: String = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 5)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    std::fs::write(&p, &removed).unwrap();
    let o = frekans(&["check", ps]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("line 6: field \"hash\""), "{}", text(&o));

    // Inserting an unhashed line after the chain started.
    let mut inserted: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    inserted.insert(5, result(2, 3, 100));
    std::fs::write(&p, inserted.join("\n") + "\n").unwrap();
    let o = frekans(&["check", ps]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("line 6: field \"hash\": missing"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_refused_event_changes_nothing_and_says_why() {
    let d = dir("refused");
    let p = log_with(&d);
    let ps = p.to_str().unwrap();
    let before = std::fs::read(&p).unwrap();
    for (ev, want) in [
        (result(1, 1, 100), "pair \"1\" already played board 1"),
        (r#"{"type":"ruling","id":"R1","session":"S1","board":1,"ns":"2","ew":"102","score":"(50%+420&40%-100)"}"#.to_string(), "90%"),
        (r#"{"type":"ruling","id":"R1","session":"S9","board":1,"ns":"2","score":"(+420)"}"#.to_string(), "unknown session"),
        (r#"{"type":"ruling_withdrawn","ruling":"R7"}"#.to_string(), "no ruling \"R7\""),
        ("{not json".to_string(), "not valid JSON"),
        (r#"{"type":"result","session":"S1","board":2,"ns":"4","ew":"104","score":420,"seq":3}"#.to_string(), "field \"seq\""),
    ] {
        let o = frekans(&["append", ps, &ev]);
        assert_eq!(o.status.code(), Some(2), "{ev}: {}", text(&o));
        assert!(text(&o).contains(want), "{ev}: {}", text(&o));
        assert_eq!(std::fs::read(&p).unwrap(), before, "{ev} changed the log");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn concurrent_appends_never_interleave_or_lose_an_event() {
    let d = dir("concurrent");
    let p = log_with(&d);
    let ps = p.to_str().unwrap().to_string();
    let children: Vec<_> = (0..12u32)
        .map(|k| {
            let ev = result(2, 10 + k, 10 * k as i32);
            Command::new(env!("CARGO_BIN_EXE_frekans"))
                .args(["append", &ps, &ev])
                // (the audit cache `append` leaves once it has acknowledged: in the test's dir)
                .env("FREKANS_AUDIT_CACHE", d.join("cache"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let body = std::fs::read_to_string(&p).unwrap();
    assert_eq!(body.lines().count(), 4 + 12);
    for k in 0..12u32 {
        assert!(
            body.contains(&format!("\"ns\":\"{}\"", 10 + k)),
            "event {k} lost"
        );
    }
    let o = frekans(&["check", &ps]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_torn_last_line_is_reported_and_repaired_without_losing_a_byte() {
    let d = dir("torn");
    let p = log_with(&d);
    let ps = p.to_str().unwrap();
    let torn = r#"{"type":"result","session":"S1","board":2,"ns":"1","ew":"1"#;
    let mut body = std::fs::read(&p).unwrap();
    body.extend_from_slice(torn.as_bytes());
    std::fs::write(&p, &body).unwrap();
    let o = frekans(&["check", ps]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("line 5") && text(&o).contains("cut off"),
        "{}",
        text(&o)
    );
    let o = frekans(&["repair", ps]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("line 5 was incomplete"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&p).unwrap(), LOG);
    let side: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|x| x.to_string_lossy().contains(".torn-"))
        .collect();
    assert_eq!(side.len(), 1);
    assert_eq!(std::fs::read_to_string(&side[0]).unwrap(), torn);
    assert_eq!(frekans(&["check", ps]).status.code(), Some(0));
    // Appending to a torn log is refused until it is repaired.
    std::fs::write(&p, &body).unwrap();
    let o = frekans(&["append", ps, &result(2, 1, 100)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("repair"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&d);
}

/// Appends killed with SIGKILL at random moments: the log is always readable or repairable, and
/// every append that reported success is there.
#[test]
fn sigkill_during_appends_loses_nothing_acknowledged() {
    let d = dir("kill");
    let p = log_with(&d);
    let ps = p.to_str().unwrap().to_string();
    let mut acknowledged = Vec::new();
    let mut state = 0x2545_f491_u64;
    for k in 0..40u32 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let ev = result(2, 200 + k, 10 * (k as i32 % 50));
        let mut child = Command::new(env!("CARGO_BIN_EXE_frekans"))
            .args(["append", &ps, &ev])
            .env("FREKANS_AUDIT_CACHE", d.join("cache"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_micros(state % 4000));
        let _ = child.kill();
        let o = child.wait_with_output().unwrap();
        if o.status.success() {
            acknowledged.push(200 + k);
        }
        // Readable, or repairable to readable.
        if frekans(&["check", &ps]).status.code() != Some(0) {
            let r = frekans(&["repair", &ps]);
            assert_eq!(r.status.code(), Some(0), "{}", text(&r));
            let c = frekans(&["check", &ps]);
            assert_eq!(c.status.code(), Some(0), "after repair: {}", text(&c));
        }
    }
    let body = std::fs::read_to_string(&p).unwrap();
    for ns in &acknowledged {
        assert!(
            body.contains(&format!("\"ns\":\"{ns}\"")),
            "acknowledged append {ns} lost"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}
