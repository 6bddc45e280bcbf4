//! Regression tests of issue 19, a forger caught: `check` prints the log's head, `check --head`
//! holds the log to a head published earlier, and `frekans sign` / `check --key` to the chief
//! director's Ed25519 checkpoints, even when every hash was recomputed (docs/integrity.md).
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
mod common;
use common::scratch::{run_in, show, Tmp};
use std::process::{Command, Output, Stdio};

fn tmp() -> Tmp {
    common::scratch::tmp("forger")
}

/// A log of five events appended by `frekans append` (hashed), in `d`.
fn appended_log(d: &Path) -> PathBuf {
    let log = d.join("log.jsonl");
    std::fs::write(&log, b"").unwrap();
    for e in [
        r#"{"type":"session","id":"S1","form":"mp","boards":"1-1"}"#,
        r#"{"type":"result","session":"S1","board":1,"ns":"1","ew":"101","score":620}"#,
        r#"{"type":"result","session":"S1","board":1,"ns":"2","ew":"102","score":420}"#,
        r#"{"type":"result","session":"S1","board":1,"ns":"3","ew":"103","score":100}"#,
        r#"{"type":"result","session":"S1","board":1,"ns":"4","ew":"104","score":-100}"#,
    ] {
        let o = run_in(d, &["--quiet", "append", "log.jsonl", e, "--no-cache"]);
        assert!(o.status.success(), "{}", show(&o));
    }
    log
}

/// The head `check` prints: its last `head: N HASH` line.
fn printed_head(o: &Output) -> String {
    let text = String::from_utf8_lossy(&o.stdout);
    let l = text
        .lines()
        .find_map(|l| l.strip_prefix("head: "))
        .unwrap_or_else(|| panic!("no head in {}", show(o)));
    l.to_string()
}

/// The log rewritten by a forger who knows the chain: every hash recomputed (python's hashlib,
/// not frekans: sha256(previous + "\n" + the line without its hash)).
fn forge(log: &Path, edit: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(log).unwrap();
    let lines: Vec<String> = text.lines().map(edit).filter(|l| !l.is_empty()).collect();
    let script = r#"
import hashlib, json, sys
prev = "0" * 64
out = []
for line in sys.stdin.read().splitlines():
    ev = json.loads(line)
    ev.pop("hash", None)
    canon = json.dumps(ev, separators=(",", ":"), ensure_ascii=False)
    prev = hashlib.sha256((prev + "\n" + canon).encode()).hexdigest()
    ev["hash"] = prev
    out.append(json.dumps(ev, separators=(",", ":"), ensure_ascii=False))
sys.stdout.write("\n".join(out) + "\n")
"#;
    use std::io::Write;
    let mut c = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    c.stdin
        .take()
        .unwrap()
        .write_all(lines.join("\n").as_bytes())
        .unwrap();
    let o = c.wait_with_output().unwrap();
    assert!(o.status.success());
    std::fs::write(log, o.stdout).unwrap();
}

#[test]
fn check_holds_the_log_to_a_published_head() {
    let t = tmp();
    let d = t.path();
    let log = appended_log(d);
    let o = run_in(d, &["check", "log.jsonl"]);
    assert!(o.status.success(), "{}", show(&o));
    let head = printed_head(&o);
    // The head is event 5's hash, as the chain defines it.
    let last: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(head, format!("5 {}", last["hash"].as_str().unwrap()));
    std::fs::write(d.join("head.txt"), format!("head: {head}\n")).unwrap();
    // Appending keeps it extended.
    let o = run_in(
        d,
        &[
            "--quiet",
            "append",
            "log.jsonl",
            r#"{"type":"result","session":"S1","board":1,"ns":"5","ew":"105","score":-200}"#,
            "--no-cache",
        ],
    );
    assert!(o.status.success(), "{}", show(&o));
    for args in [
        vec!["check", "log.jsonl", "--head", &head],
        vec!["check", "log.jsonl", "--head-file", "head.txt"],
    ] {
        let o = run_in(d, &args);
        assert!(o.status.success(), "{args:?}: {}", show(&o));
        assert!(String::from_utf8_lossy(&o.stdout).contains("extends the published head"));
    }
    let good = std::fs::read(&log).unwrap();
    // Three forgeries `check` alone lets pass: trailing events deleted; a result edited and
    // the chain recomputed; every hash stripped and a result edited.
    type Forge<'a> = Box<dyn Fn(&Path) + 'a>;
    let forgeries: Vec<(&str, Forge<'_>)> = vec![
        (
            "trailing events deleted",
            Box::new(|l: &Path| {
                let text = String::from_utf8(good.clone()).unwrap();
                let keep: Vec<&str> = text.lines().take(3).collect();
                std::fs::write(l, keep.join("\n") + "\n").unwrap();
            }),
        ),
        (
            "edited and rehashed",
            Box::new(|l: &Path| {
                std::fs::write(l, &good).unwrap();
                forge(l, |x| x.replace("\"score\":420", "\"score\":450"));
            }),
        ),
        (
            "hashes stripped and edited",
            Box::new(|l: &Path| {
                let text = String::from_utf8(good.clone()).unwrap();
                let out: Vec<String> = text
                    .lines()
                    .map(|x| {
                        let mut v: serde_json::Value = serde_json::from_str(x).unwrap();
                        v.as_object_mut().unwrap().remove("hash");
                        v.to_string().replace("\"score\":100", "\"score\":130")
                    })
                    .collect();
                std::fs::write(l, out.join("\n") + "\n").unwrap();
            }),
        ),
    ];
    for (what, f) in &forgeries {
        f(&log);
        let o = run_in(d, &["check", "log.jsonl"]);
        assert!(
            o.status.success(),
            "{what}: check alone passes it: {}",
            show(&o)
        );
        let o = run_in(d, &["check", "log.jsonl", "--head", &head]);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", show(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("does not extend the published head"),
            "{}",
            show(&o)
        );
    }
}

#[test]
fn signed_checkpoints_catch_a_rewritten_history() {
    let t = tmp();
    let d = t.path();
    let log = appended_log(d);
    let o = run_in(d, &["sign", "--new-key", "director.key"]);
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(
        std::fs::metadata(d.join("director.key"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o600
    );
    // Never overwritten.
    let o = run_in(d, &["sign", "--new-key", "director.key"]);
    assert!(!o.status.success(), "{}", show(&o));
    // No checkpoint yet: --key fails.
    let o = run_in(d, &["check", "log.jsonl", "--key", "director.key.pub"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let o = run_in(d, &["sign", "log.jsonl", "--key", "director.key"]);
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(d, &["check", "log.jsonl", "--key", "director.key.pub"]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("every signed checkpoint"));
    // Another key's public key does not verify it.
    let o = run_in(d, &["sign", "--new-key", "other.key"]);
    assert!(o.status.success(), "{}", show(&o));
    let o = run_in(d, &["check", "log.jsonl", "--key", "other.key.pub"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    // The history rewritten with every hash recomputed: caught.
    let good = std::fs::read(&log).unwrap();
    forge(&log, |x| x.replace("\"score\":420", "\"score\":450"));
    let o = run_in(d, &["check", "log.jsonl"]);
    assert!(
        o.status.success(),
        "check alone passes the forgery: {}",
        show(&o)
    );
    let o = run_in(d, &["check", "log.jsonl", "--key", "director.key.pub"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("does not hold"),
        "{}",
        show(&o)
    );
    // ... and a checkpoint forged to match it (its head replaced) fails its signature.
    std::fs::write(&log, &good).unwrap();
    let sig = std::fs::read_to_string(d.join("log.jsonl.sig")).unwrap();
    forge(&log, |x| x.replace("\"score\":420", "\"score\":450"));
    let o = run_in(d, &["check", "log.jsonl"]);
    let new_head = printed_head(&o);
    let old_hash = sig.split_whitespace().nth(3).unwrap().to_string();
    let new_hash = new_head.split(' ').nth(1).unwrap();
    std::fs::write(d.join("log.jsonl.sig"), sig.replace(&old_hash, new_hash)).unwrap();
    let o = run_in(d, &["check", "log.jsonl", "--key", "director.key.pub"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("forged or altered"),
        "{}",
        show(&o)
    );
}

#[test]
fn the_bulletin_data_names_its_head() {
    // (the PDF needs typst; the data it is rendered from is checked here)
    let t = tmp();
    let d = t.path();
    let log = appended_log(d);
    let bytes = std::fs::read(&log).unwrap();
    let head = frekans_core::integrity::head(&bytes).unwrap();
    let last: serde_json::Value =
        serde_json::from_str(std::str::from_utf8(&bytes).unwrap().lines().last().unwrap()).unwrap();
    assert_eq!(head.events, 5);
    assert_eq!(head.hash, last["hash"].as_str().unwrap());
}
