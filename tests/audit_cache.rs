//! The audit cache (`audit::cache`): an audit answered from it is the audit answered the long
//! way, for every ruling of the demos and fixtures and for points of their logs; a cache is
//! used only for the exact bytes it was made from, and a damaged one is never used.

use std::path::{Path, PathBuf};

mod common;

use frekans::audit::cache::{log_key, AuditCache};
use frekans::audit::Question;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("frekans-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The questions asked of a log: each of its rulings, and points of the log.
fn questions(bytes: &[u8]) -> Vec<Question> {
    let read = frekans::event::read_log(bytes);
    assert!(read.errors.is_empty());
    let (full, _) = frekans::replay::replay(&read.events, &Default::default());
    let mut qs: Vec<Question> = full
        .rulings
        .iter()
        .map(|r| Question::Ruling(r.ev.id.clone()))
        .collect();
    let last = read.events.last().unwrap().seq;
    for k in [0, last / 3, last / 2, last - 5, last - 1, last] {
        qs.push(Question::AsOf(k));
    }
    qs
}

fn logs() -> Vec<PathBuf> {
    let root = common::root();
    let mut logs = common::demo_logs();
    logs.push(root.join("tests/data/audit-small.jsonl"));
    for d in ["EBU-FOULED", "PL-SD-TEAMS-1", "HE-SPLIT-TEAMS"] {
        logs.push(root.join("fixtures").join(d).join("events.jsonl"));
    }
    logs
}

/// Every question, answered from the cache (when it can be) and the long way, gives the same
/// audit; and the first audit of a log leaves the cache the next one reads.
#[test]
fn cached_audits_equal_the_long_way() {
    let dir = temp_dir("audit-cache");
    let (mut asked, mut from_cache) = (0, 0);
    for log in logs() {
        let bytes = std::fs::read(&log).unwrap();
        let key = log_key(&bytes);
        assert!(AuditCache::load(&dir, &key).is_none());
        for (n, q) in questions(&bytes).into_iter().enumerate() {
            let long = frekans::app::audit_bytes(&bytes, &q, None).unwrap();
            // The first question makes the cache; every later one may read it.
            let via = frekans::app::audit_bytes(&bytes, &q, Some(&dir)).unwrap();
            assert_eq!(via, long, "{} {q:?} (cache {})", log.display(), n > 0);
            let cache = AuditCache::load(&dir, &key)
                .unwrap_or_else(|| panic!("{}: no cache after an audit", log.display()));
            if let Some(a) = frekans::audit::audit_cached(&bytes, cache, &q).unwrap() {
                assert_eq!(a, long, "{} {q:?}: from the cache", log.display());
                from_cache += 1;
            } else if matches!(q, Question::Ruling(_))
                && !log.to_string_lossy().contains("TEAMS")
                && !log.to_string_lossy().contains("teams")
            {
                // A pair event's rulings (but for fouled boards) never need the whole log.
                assert!(
                    log.ends_with("EBU-FOULED/events.jsonl"),
                    "{} {q:?}",
                    log.display()
                );
            }
            asked += 1;
        }
    }
    // Team sessions, fouled boards and points of the log before declarations are answered the
    // long way; the rest from the cache.
    assert!(
        asked > 60 && from_cache > 25,
        "{from_cache} of {asked} from the cache"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn small() -> (Vec<u8>, Question) {
    let log = common::root().join("tests/data/audit-small.jsonl");
    (std::fs::read(log).unwrap(), Question::Ruling("R2".into()))
}

fn only_cache_file(dir: &Path) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

/// A cache serves only the bytes it was made from: one byte changed in the log (a later
/// appended event, an edited line) gives another key, and that log is read whole.
#[test]
fn a_cache_serves_only_its_own_bytes() {
    let dir = temp_dir("audit-cache-key");
    let (bytes, q) = small();
    frekans::app::audit_bytes(&bytes, &q, Some(&dir)).unwrap();
    assert!(AuditCache::load(&dir, &log_key(&bytes)).is_some());
    // The same text with one character of a note changed, and with one more line.
    let text = String::from_utf8(bytes.clone()).unwrap();
    let edited = text.replacen("\"TD\"", "\"Td\"", 1);
    assert_ne!(edited, text, "the log has a director named TD");
    let mut appended = bytes.clone();
    appended.extend_from_slice(b"// a comment appended\n");
    for other in [edited.as_bytes(), &appended[..]] {
        assert_ne!(log_key(other), log_key(&bytes));
        assert!(AuditCache::load(&dir, &log_key(other)).is_none());
        let a = frekans::app::audit_bytes(other, &q, Some(&dir)).unwrap();
        assert_eq!(a, frekans::app::audit_bytes(other, &q, None).unwrap());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A damaged cache file (a byte flipped anywhere, cut short, emptied) is never used: the audit
/// is answered the long way, with the same answer.
#[test]
fn a_damaged_cache_is_not_used() {
    let dir = temp_dir("audit-cache-damage");
    let (bytes, q) = small();
    let want = frekans::app::audit_bytes(&bytes, &q, None).unwrap();
    frekans::app::audit_bytes(&bytes, &q, Some(&dir)).unwrap();
    let file = only_cache_file(&dir);
    let good = std::fs::read(&file).unwrap();
    let key = log_key(&bytes);
    let mut damaged: Vec<Vec<u8>> = vec![Vec::new(), good[..good.len() / 2].to_vec()];
    for at in [
        0,
        20,
        good.len() / 3,
        good.len() / 2,
        good.len() - 40,
        good.len() - 1,
    ] {
        let mut b = good.clone();
        b[at] ^= 0x10;
        damaged.push(b);
    }
    for d in damaged {
        std::fs::write(&file, &d).unwrap();
        assert!(AuditCache::load(&dir, &key).is_none(), "{} bytes", d.len());
        let a = frekans::app::audit_bytes(&bytes, &q, Some(&dir)).unwrap();
        assert_eq!(a, want);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bad question is refused the same way with or without the cache.
#[test]
fn bad_questions_from_the_cache() {
    let dir = temp_dir("audit-cache-bad");
    let (bytes, q) = small();
    frekans::app::audit_bytes(&bytes, &q, Some(&dir)).unwrap();
    for q in [Question::Ruling("R99".into()), Question::AsOf(100_000)] {
        let with = frekans::app::audit_bytes(&bytes, &q, Some(&dir)).unwrap_err();
        let without = frekans::app::audit_bytes(&bytes, &q, None).unwrap_err();
        assert_eq!(with.to_string(), without.to_string());
        assert!(
            matches!(with, frekans::app::AppError::BadRequest(_)),
            "{with}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The directory keeps the newest few cache files.
#[test]
fn old_cache_files_are_pruned() {
    let dir = temp_dir("audit-cache-prune");
    let (bytes, q) = small();
    let text = String::from_utf8(bytes).unwrap();
    for i in 0..frekans::audit::cache::KEEP + 3 {
        let log = format!("{text}// version {i}\n");
        frekans::app::audit_bytes(log.as_bytes(), &q, Some(&dir)).unwrap();
    }
    let n = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(n, frekans::audit::cache::KEEP);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A log file whose status (device, inode, size, times) is unchanged since its key was recorded
/// is not hashed again; a write to it, even of the same length with its modification time put
/// back, changes its status (the change time), and it is hashed and read afresh.
#[test]
fn an_unchanged_file_is_known_by_its_status() {
    use std::process::Command;
    let dir = temp_dir("audit-cache-stat");
    let cache = dir.join("cache");
    let log = dir.join("log.jsonl");
    let (bytes, _) = small();
    std::fs::write(&log, &bytes).unwrap();
    // A status is recorded only once it has settled.
    std::thread::sleep(frekans::audit::cache::SETTLED + std::time::Duration::from_millis(1200));
    let audit = |extra: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_frekans"))
            .env("FREKANS_AUDIT_CACHE", &cache)
            .args(["-v", "audit"])
            .arg(&log)
            .args(["--ruling", "R2", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success());
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        (String::from_utf8(o.stdout).unwrap(), err)
    };
    let known = "key from its unchanged file status";
    let (first, err) = audit(&[]);
    assert!(!err.contains(known), "{err}");
    let (second, err) = audit(&[]);
    assert!(err.contains(known), "{err}");
    assert!(err.contains("answered from the audit cache"), "{err}");
    assert_eq!(second, first);
    // The same length written in place, the modification time put back.
    let modified = std::fs::metadata(&log).unwrap().modified().unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let edited = text.replacen("\"TD\"", "\"Td\"", 1);
    assert_eq!(edited.len(), text.len());
    {
        use std::io::{Seek, Write};
        let mut f = std::fs::OpenOptions::new().write(true).open(&log).unwrap();
        f.seek(std::io::SeekFrom::Start(0)).unwrap();
        f.write_all(edited.as_bytes()).unwrap();
        f.set_modified(modified).unwrap();
    }
    let (third, err) = audit(&[]);
    assert!(!err.contains(known), "{err}");
    let (fresh, _) = audit(&["--no-cache"]);
    assert_eq!(third, fresh);
    let _ = std::fs::remove_dir_all(&dir);
}
