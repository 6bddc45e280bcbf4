//! `frekans live` as a director uses it: a session is played into its BWS step by step (each
//! step a state of the file as Bridgemate Control Software writes it, made by
//! `tools/make_bws_fixtures.py --steps`: the movement first, then one entry at a time, with an
//! entry erased and entered again, a result re-entered, a table erased and entered again), and
//! `frekans live` runs beside it. After each step: the log passes `check`, its standings are
//! those of a full import of that state scored (but where an entry was erased after it was
//! imported: the log keeps it, as an append-only log does, and says so), the projector page
//! says how many boards are in, and no page whose bytes did not change was rewritten. `live`
//! is killed outright in the middle and started again: nothing is lost. It stops by itself when
//! the movement's last board is in, and cleanly on Ctrl-C.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::scratch::{run_in, show, tmp};
use frekans::app::load_bytes;
use frekans::export::rows::build;
use frekans::pipeline;
use frekans::replay::ReplayScope;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The steps of the session, written into `dir` by the fixture writer (Python, as the
/// fixtures are; it writes Access databases itself).
fn steps(dir: &Path) -> Vec<PathBuf> {
    let o = Command::new("python3")
        .arg(common::root().join("tools/make_bws_fixtures.py"))
        .arg("--steps")
        .arg(dir)
        .output()
        .expect("python3");
    assert!(o.status.success(), "the step writer: {o:?}");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    assert_eq!(v.len(), 15, "step-00 to step-14: {v:?}");
    v
}

/// Each participant's session total (exact), of a log.
fn totals(log: &Path) -> BTreeMap<String, String> {
    let Ok(bytes) = std::fs::read(log) else {
        return BTreeMap::new();
    };
    let Ok(l) = load_bytes(&bytes, &ReplayScope::default()) else {
        return BTreeMap::new();
    };
    let scored = pipeline::score(&l.state).unwrap();
    build(&l.state, &scored)
        .standings
        .iter()
        .filter(|r| r.session != "overall")
        .map(|r| (r.participant.clone(), format!("{:.6}", r.total)))
        .collect()
}

/// A fresh import of one state, scored.
fn imported(dir: &Path, bws: &Path, k: usize) -> BTreeMap<String, String> {
    let log = dir.join(format!("fresh-{k}.jsonl"));
    let o = run_in(dir, &["import", s(bws), "--out", s(&log)]);
    assert!(o.status.success(), "{}", show(&o));
    totals(&log)
}

/// ReceivedData of a state: (tables with an entry standing, whether its last entry erases one).
fn entries(bws: &Path) -> (usize, bool) {
    let o = Command::new("mdb-export")
        .arg(bws)
        .arg("ReceivedData")
        .output()
        .unwrap();
    let mut r = csv::Reader::from_reader(o.stdout.as_slice());
    let h = r.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (id, erased) = (col("ID"), col("Erased"));
    let key = [col("Section"), col("Table"), col("Round"), col("Board")];
    let mut rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    rows.sort_by_key(|x| x[id].parse::<i64>().unwrap());
    let mut last = BTreeMap::new();
    for x in &rows {
        last.insert(key.map(|k| x[k].to_string()), x[erased] == *"1");
    }
    let standing = last.values().filter(|e| !**e).count();
    (standing, rows.last().is_some_and(|x| x[erased] == *"1"))
}

/// Every file of the site: its bytes, inode and modification time.
type Files = BTreeMap<PathBuf, (Vec<u8>, u64, i64, i64)>;

fn files(dir: &Path) -> Files {
    common::files_under(dir)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != ".frekans-publish"))
        .map(|p| {
            let m = std::fs::metadata(&p).unwrap();
            let bytes = std::fs::read(&p).unwrap();
            (p, (bytes, m.ino(), m.mtime(), m.mtime_nsec()))
        })
        .collect()
}

struct Live {
    child: Child,
    out: PathBuf,
}

impl Live {
    fn start(dir: &Path, n: usize) -> Live {
        let out = dir.join(format!("live-{n}.out"));
        let child = Command::new(env!("CARGO_BIN_EXE_frekans"))
            .args([
                "live",
                "session.bws",
                "--log",
                "log.jsonl",
                "--out",
                "site",
                "--every",
                "1",
            ])
            .current_dir(dir)
            .env("FREKANS_AUDIT_CACHE", dir.join(".cache-audit"))
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        Live { child, out }
    }

    /// The "site:" lines printed so far (one a cycle that wrote the pages).
    fn renders(&self) -> usize {
        std::fs::read_to_string(&self.out)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("site: "))
            .count()
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "waited 30 s for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_session_followed_while_it_is_played() {
    let t = tmp("live");
    let dir = t.path();
    let steps = steps(&dir.join("steps"));
    let bws = dir.join("session.bws");
    let log = dir.join("log.jsonl");
    let site = dir.join("site");
    std::fs::copy(&steps[0], &bws).unwrap();
    let mut live = Live::start(dir, 0);
    wait_for("the first pages", || live.renders() >= 1);
    // What the log must score after each step: a fresh import's, but where the last entry
    // erased a table already imported (the log keeps it: the step before's).
    let mut expected = BTreeMap::new();
    for (k, step) in steps.iter().enumerate().skip(1) {
        let before = files(&site);
        let renders = live.renders();
        let (standing, erases) = entries(step);
        if !erases {
            expected = imported(dir, step, k);
        }
        // Written in place, as Bridgemate Control Software writes its database.
        std::fs::write(&bws, std::fs::read(step).unwrap()).unwrap();
        if k == 7 {
            // Killed outright (SIGKILL) whatever it is doing, then started again.
            std::thread::sleep(Duration::from_millis(300));
            drop(live);
            live = Live::start(dir, k);
        }
        let page = site.join("live.html");
        wait_for(&format!("step {k}: the log and the pages"), || {
            (k == 7 || live.renders() > renders)
                && totals(&log) == expected
                && std::fs::read_to_string(&page)
                    .is_ok_and(|p| p.contains(&format!("{standing}/9 ")))
        });
        if k == 7 {
            wait_for("the restarted run's pages", || live.renders() >= 1);
        }
        let o = run_in(dir, &["check", s(&log)]);
        assert!(o.status.success(), "step {k}: {}", show(&o));
        if k == 9 {
            // Round 3 begun at table 1 only: board 3 has been played at every table, boards 1
            // and 2 have not (tables 2 and 3 still play them): only board 3's traveller shows.
            let p = std::fs::read_to_string(&page).unwrap();
            assert!(p.contains("<strong>Board 3 "), "{p}");
            assert!(
                !p.contains("<strong>Board 1 ") && !p.contains("<strong>Board 2 "),
                "{p}"
            );
        }
        // No page whose bytes are the same was written again.
        let after = files(&site);
        let mut changed = 0;
        for (p, (bytes, ino, sec, nsec)) in &after {
            match before.get(p) {
                Some((b, i, s0, n0)) if b == bytes => assert_eq!(
                    (i, s0, n0),
                    (ino, sec, nsec),
                    "step {k}: {} was rewritten with the same bytes",
                    p.display()
                ),
                _ => changed += 1,
            }
        }
        assert!(changed > 0, "step {k}: the projector page at least changed");
    }
    // The last board is in: live stops by itself, the page says the session is complete.
    let start = Instant::now();
    let status = loop {
        if let Some(st) = live.child.try_wait().unwrap() {
            break st;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "live did not stop"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    let page = std::fs::read_to_string(site.join("live.html")).unwrap();
    assert!(page.contains("Session complete"), "{page}");
    assert!(
        page.contains("<meta http-equiv=\"refresh\" content=\"1\">"),
        "{page}"
    );
    assert_eq!(totals(&log), imported(dir, &steps[14], 99));
    let printed = std::fs::read_to_string(&live.out).unwrap();
    assert!(printed.contains("9 of 9 boards entered"), "{printed}");
}

/// Ctrl-C: `live` stops after the cycle under way, exit 0, the log whole.
#[test]
fn ctrl_c_stops_cleanly() {
    let t = tmp("live-int");
    let dir = t.path();
    let steps = steps(&dir.join("steps"));
    std::fs::copy(&steps[3], dir.join("session.bws")).unwrap();
    let mut live = Live::start(dir, 0);
    wait_for("the first pages", || live.renders() >= 1);
    // SAFETY: a signal to our own child process.
    unsafe {
        libc::kill(live.child.id() as libc::pid_t, libc::SIGINT);
    }
    let start = Instant::now();
    let status = loop {
        if let Some(st) = live.child.try_wait().unwrap() {
            break st;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "live did not stop on SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    let o = run_in(dir, &["check", "log.jsonl"]);
    assert!(o.status.success(), "{}", show(&o));
}

/// What a director gets wrong: no such BWS (exit 2, said), nothing made.
#[test]
fn a_missing_database_is_refused() {
    let t = tmp("live-bad");
    let o = run_in(
        t.path(),
        &["live", "nope.bws", "--log", "l.jsonl", "--out", "site"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nope.bws: no such file"));
    assert!(!t.path().join("l.jsonl").exists());
    assert!(!t.path().join("site").exists());
}
