//! The audit cache (`audit::cache`): an audit answered from it is the audit answered the long
//! way, for every ruling of the demos and fixtures and for points of their logs; a cache is
//! used only for the exact bytes it was made from, and a damaged one is never used.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};

mod common;

use frekans::audit::cache::{log_key, AuditCache, NO_MATCH};
use frekans::audit::Question;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("frekans-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The audit caches the first audits of two logs leave (`prefix`'s and `whole`'s).
fn first_caches(prefix: &[u8], whole: &[u8]) -> (AuditCache, AuditCache) {
    let q0 = Question::AsOf(0);
    let cache = |bytes: &[u8], tag: &str| {
        let dir = temp_dir(tag);
        frekans::app::audit_bytes(bytes, &q0, Some(common::test_store(&dir))).unwrap();
        let c = AuditCache::load(common::test_store(&dir), &log_key(bytes)).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        c
    };
    (cache(prefix, "first-a"), cache(whole, "first-b"))
}

/// The questions asked of a log: each of its rulings, and points of the log.
fn questions(bytes: &[u8]) -> Vec<Question> {
    let (_, _, mut qs, last) = common::replayed(bytes, "log");
    for k in [0, last / 3, last / 2, last - 5, last - 1, last] {
        qs.push(Question::AsOf(k));
    }
    qs
}

/// Every question, answered from the cache (when it can be) and the long way, gives the same
/// audit; and the first audit of a log leaves the cache the next one reads.
#[test]
fn cached_audits_equal_the_long_way() {
    let dir = temp_dir("audit-cache");
    let (mut asked, mut from_cache) = (0, 0);
    for log in common::audited_logs() {
        let bytes = std::fs::read(&log).unwrap();
        let key = log_key(&bytes);
        assert!(AuditCache::load(common::test_store(&dir), &key).is_none());
        for (n, q) in questions(&bytes).into_iter().enumerate() {
            let long = frekans::app::audit_bytes(&bytes, &q, None).unwrap();
            // The first question makes the cache; every later one may read it.
            let via =
                frekans::app::audit_bytes(&bytes, &q, Some(common::test_store(&dir))).unwrap();
            assert_eq!(via, long, "{} {q:?} (cache {})", log.display(), n > 0);
            let cache = AuditCache::load(common::test_store(&dir), &key)
                .unwrap_or_else(|| panic!("{}: no cache after an audit", log.display()));
            if let Some(a) = common::audit_cached(&bytes, cache, &q).unwrap() {
                assert_eq!(a, long, "{} {q:?}: from the cache", log.display());
                from_cache += 1;
            } else if matches!(q, Question::Ruling(_)) {
                // A ruling (but on a fouled board) never needs the whole log, in a team
                // session either (its session is replayed and re-scored whole).
                assert!(
                    log.ends_with("EBU-FOULED/events.jsonl"),
                    "{} {q:?}",
                    log.display()
                );
            }
            asked += 1;
        }
    }
    // Fouled boards and points of the log before declarations are answered the long way; the
    // rest from the cache.
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
    frekans::app::audit_bytes(&bytes, &q, Some(common::test_store(&dir))).unwrap();
    assert!(AuditCache::load(common::test_store(&dir), &log_key(&bytes)).is_some());
    // The same text with one character of a note changed, and with one more line.
    let text = String::from_utf8(bytes.clone()).unwrap();
    let edited = text.replacen("\"TD\"", "\"Td\"", 1);
    assert_ne!(edited, text, "the log has a director named TD");
    let mut appended = bytes.clone();
    appended.extend_from_slice(b"// a comment appended\n");
    for other in [edited.as_bytes(), &appended[..]] {
        assert_ne!(log_key(other), log_key(&bytes));
        assert!(AuditCache::load(common::test_store(&dir), &log_key(other)).is_none());
        let a = frekans::app::audit_bytes(other, &q, Some(common::test_store(&dir))).unwrap();
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
    frekans::app::audit_bytes(&bytes, &q, Some(common::test_store(&dir))).unwrap();
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
        assert!(
            AuditCache::load(common::test_store(&dir), &key).is_none(),
            "{} bytes",
            d.len()
        );
        let a = frekans::app::audit_bytes(&bytes, &q, Some(common::test_store(&dir))).unwrap();
        assert_eq!(a, want);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A postcard varint (`n` as 7-bit groups, low first) and where it ends in `b` at `at`.
fn varint_at(b: &[u8], at: usize) -> (u64, usize) {
    let (mut n, mut i) = (0u64, at);
    loop {
        n |= u64::from(b[i] & 0x7f) << (7 * (i - at));
        i += 1;
        if b[i - 1] & 0x80 == 0 {
            return (n, i);
        }
    }
}

fn varint(mut n: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
    out
}

/// A cache file's parts: where the four lengths are, and where each part starts and ends.
fn parts_of(file: &[u8]) -> (usize, Vec<(usize, usize)>) {
    // (the magic, then the program and the log's key, each a varint length and its bytes)
    let mut at = 16;
    for _ in 0..2 {
        let (n, end) = varint_at(file, at);
        at = end + n as usize;
    }
    let lens_at = at;
    let mut start = lens_at + 32;
    let parts = (0..4)
        .map(|i| {
            let n = u64::from_le_bytes(
                file[lens_at + 8 * i..lens_at + 8 * i + 8]
                    .try_into()
                    .unwrap(),
            );
            let p = (start, start + n as usize);
            start = p.1;
            p
        })
        .collect();
    (lens_at, parts)
}

/// A cache file is its parts as the store writes them: decoded and encoded again, the same
/// bytes (the sums in a fixed order), and what another format of the file wrote is not read.
#[test]
fn a_cache_file_decodes_and_encodes_to_the_same_bytes() {
    let dir = temp_dir("audit-cache-codec");
    let (bytes, q) = small();
    frekans::app::audit_bytes(&bytes, &q, Some(common::test_store(&dir))).unwrap();
    let file = std::fs::read(only_cache_file(&dir)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let key = log_key(&bytes);
    let c = AuditCache::from_bytes(&file, &key, "test").expect("the cache as written");
    assert!(
        c.to_bytes(&key, "test") == file,
        "encoded again, other bytes"
    );
    let (_, parts) = parts_of(&file);
    assert_eq!(parts[3].1 + 16, file.len(), "the parts end at the checksum");
    // The format before this one (bincode's, magic ending in 2) is refused, not misread.
    let mut older = file.clone();
    older[15] = 2;
    AuditCache::reseal(&mut older);
    assert!(AuditCache::from_bytes(&older, &key, "test").is_none());
}

/// A forger's count of items (of the standings: a million times more than the part holds, or
/// just as many as its bytes) is refused when the bytes run out, without reserving the room
/// it claims; so is a part with bytes left over after its items.
#[test]
fn a_forged_count_in_a_cache_file_is_refused() {
    let dir = temp_dir("audit-cache-count");
    let (bytes, q) = small();
    frekans::app::audit_bytes(&bytes, &q, Some(common::test_store(&dir))).unwrap();
    let file = std::fs::read(only_cache_file(&dir)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let key = log_key(&bytes);
    let (lens_at, parts) = parts_of(&file);
    let (start, end) = parts[2];
    let (count, items) = varint_at(&file, start);
    assert!(count > 0, "the small log has standings");
    let with_part = |part: Vec<u8>| {
        let mut f = file[..start].to_vec();
        f[lens_at + 16..lens_at + 24].copy_from_slice(&(part.len() as u64).to_le_bytes());
        f.extend_from_slice(&part);
        f.extend_from_slice(&file[end..]);
        AuditCache::reseal(&mut f);
        f
    };
    let body = &file[items..end];
    for forged in [1 << 40, u64::MAX >> 1, body.len() as u64, count + 1] {
        let mut part = varint(forged);
        part.extend_from_slice(body);
        let f = with_part(part);
        let t = std::time::Instant::now();
        assert!(
            AuditCache::from_bytes(&f, &key, "test").is_none(),
            "{forged}"
        );
        assert!(t.elapsed() < std::time::Duration::from_secs(2), "{forged}");
    }
    let mut longer = file[start..end].to_vec();
    longer.push(0);
    assert!(AuditCache::from_bytes(&with_part(longer), &key, "test").is_none());
    // (the part as it was, put back the same way: read)
    let same = with_part(file[start..end].to_vec());
    assert!(AuditCache::from_bytes(&same, &key, "test").is_some());
}

/// A bad question is refused the same way with or without the cache.
#[test]
fn bad_questions_from_the_cache() {
    let dir = temp_dir("audit-cache-bad");
    let (bytes, q) = small();
    frekans::app::audit_bytes(&bytes, &q, Some(common::test_store(&dir))).unwrap();
    for q in [Question::Ruling("R99".into()), Question::AsOf(100_000)] {
        let with =
            frekans::app::audit_bytes(&bytes, &q, Some(common::test_store(&dir))).unwrap_err();
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
        frekans::app::audit_bytes(log.as_bytes(), &q, Some(common::test_store(&dir))).unwrap();
    }
    let n = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(n, frekans::audit::cache::KEEP);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The temporary file of a writer killed mid-write (`append` killed while it leaves the cache)
/// is removed once stale; a fresh one, perhaps a live writer's, is left.
#[test]
fn stale_temporary_files_are_removed() {
    let dir = temp_dir("audit-cache-tmp");
    let (stale, fresh) = (dir.join(".abc.1.tmp"), dir.join(".abc.2.tmp"));
    for f in [&stale, &fresh] {
        std::fs::write(f, b"half a cache").unwrap();
    }
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    let (bytes, q) = small();
    frekans::app::audit_bytes(&bytes, &q, Some(common::test_store(&dir))).unwrap();
    assert!(!stale.exists(), "a stale temporary file was left");
    assert!(fresh.exists(), "a fresh temporary file was removed");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A log file whose status (device, inode, size, times) is unchanged since its key was recorded
/// is not hashed again; a write to it, even of the same length with its modification time put
/// back, changes its status (the change time), and it is hashed and read afresh. (The store's
/// clock is a fake world's, moved on rather than slept on.)
#[test]
fn an_unchanged_file_is_known_by_its_status() {
    use frekans::audit::cache::{Clock, FileStat};
    use frekans::world::{Fake, World};
    let dir = temp_dir("audit-cache-stat");
    let cache = dir.join("cache");
    let log = dir.join("log.jsonl");
    let (bytes, q) = small();
    std::fs::write(&log, &bytes).unwrap();
    let fake = std::sync::Arc::new(Fake::at(std::time::SystemTime::now()));
    let clock: Clock = fake.clone();
    let audit = |store: Option<frekans::audit::cache::Store>| {
        frekans::app::audit(&log, &q, None, store).unwrap().audit
    };
    let status = || {
        FileStat::of(&frekans::world::Handle::disk(
            std::fs::File::open(&log).unwrap(),
        ))
        .unwrap()
    };
    let key = log_key(&bytes);
    // A status is recorded only once it has settled: not at once ...
    let first = audit(Some(common::test_store(&cache).with_clock(&clock)));
    assert_eq!(
        status().recorded_key(&cache),
        None,
        "recorded before it settled"
    );
    // ... but once the clock has moved on.
    fake.advance(frekans::audit::cache::SETTLED + std::time::Duration::from_secs(2));
    assert!(fake.now() > std::time::SystemTime::now());
    let second = audit(Some(common::test_store(&cache).with_clock(&clock)));
    assert_eq!(status().recorded_key(&cache), Some(key.clone()));
    let (k, hashed) = common::test_store(&cache).key(&bytes, Some(status()));
    assert_eq!((k, hashed), (key.clone(), None), "hashed again");
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
    assert_eq!(status().recorded_key(&cache), None, "an edited file known");
    let (k, hashed) = common::test_store(&cache).key(edited.as_bytes(), Some(status()));
    assert_eq!(Some(&k), hashed.as_ref());
    assert_ne!(k, key);
    let third = audit(Some(common::test_store(&cache).with_clock(&clock)));
    assert_eq!(third, audit(None));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The cache of a log carried across lines appended to it (results, rulings, corrections,
/// withdrawals, deals) is the cache made afresh from the longer log, and answers every question
/// as the long way does. Lines that declare something are not carried, nor results that change
/// a comparison group's N (a session still in play: every board of the group is scored anew):
/// those go the long way.
#[test]
fn a_cache_is_carried_across_appended_lines() {
    let root = common::root();
    let cases = [
        // (the last round of S3 ends at line 1922; a ruling and the deals follow)
        (
            root.join("events/mazovia-pairs-2026.jsonl"),
            None,
            vec![1700, 1800, 1922, 1924, 1940],
        ),
        (root.join("tests/data/audit-small.jsonl"), None, vec![6]),
        // (the final's last results from line 1025, ruling R6 at 1033, then the deals of
        // every board)
        (
            root.join("events/polish-teams-2026.jsonl"),
            None,
            vec![1000, 1024, 1032, 1033, 1040],
        ),
        // (the log up to R6 and R6 alone appended: its match's lines of the other boards are
        // read with the ruled board's)
        (
            root.join("events/polish-teams-2026.jsonl"),
            Some(1033),
            vec![1032],
        ),
    ];
    let mut carried = 0;
    for (log, end, cuts) in cases {
        let whole = std::fs::read_to_string(&log).unwrap();
        let text: String = match end {
            Some(n) => whole.split_inclusive('\n').take(n).collect(),
            None => whole,
        };
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for cut in cuts {
            let prefix: String = lines[..cut].concat();
            let (old, fresh) = first_caches(prefix.as_bytes(), text.as_bytes());
            let what = format!("{} cut at line {cut}", log.display());
            let Some(ext) = frekans::audit::extend_cache(text.as_bytes(), old) else {
                // Only results of a pairs session still in play (N grows) may not be carried.
                assert!(
                    cut < 1922 && !log.ends_with("polish-teams-2026.jsonl"),
                    "{what}: not carried"
                );
                continue;
            };
            assert_eq!(ext.last_seq, fresh.last_seq, "{what}");
            assert_eq!(
                (ext.newlines, ext.len),
                (fresh.newlines, fresh.len),
                "{what}"
            );
            assert_eq!(ext.boards, fresh.boards, "{what}");
            assert_eq!(ext.decl, fresh.decl, "{what}");
            assert_eq!(ext.rulings, fresh.rulings, "{what}");
            // Each line's team match: as a fresh cache has it, or (a ruling appended) of no
            // known match, read with any.
            let of = |c: &AuditCache, i: usize, j: usize| {
                let t = c.matches.get(i, j);
                (t != NO_MATCH).then(|| c.matches.ids[t as usize].clone())
            };
            for (i, (_, lines)) in fresh.boards.iter().enumerate() {
                for j in 0..lines.len() {
                    let e = of(&ext, i, j);
                    assert!(
                        e.is_none() || e == of(&fresh, i, j),
                        "{what}: board {i} line {j}"
                    );
                }
            }
            assert_eq!(ext.fields, fresh.fields, "{what}");
            let sorted = |mut v: Vec<frekans::audit::cache::BoardN>| {
                v.sort();
                v
            };
            assert_eq!(
                sorted(ext.board_ns.clone()),
                sorted(fresh.board_ns.clone()),
                "{what}"
            );
            assert_eq!(ext.standings, fresh.standings, "{what}");
            let groups = |c: &AuditCache| -> Vec<_> {
                c.sums
                    .to_groups()
                    .into_iter()
                    .map(|(k, v)| (k, v.into_iter().cloned().collect::<Vec<_>>()))
                    .collect()
            };
            assert_eq!(groups(&ext), groups(&fresh), "{what}");
            for q in questions(text.as_bytes()).into_iter().take(12) {
                let long = frekans::app::audit_bytes(text.as_bytes(), &q, None).unwrap();
                if let Some(a) = common::audit_cached(text.as_bytes(), ext.clone(), &q).unwrap() {
                    assert_eq!(a, long, "{what} {q:?}");
                }
            }
            carried += 1;
        }
    }
    assert!(carried >= 10, "{carried}");
    // A declaration appended (a penalty) is not carried.
    let log = root.join("events/mazovia-pairs-2026.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let prefix: String = lines[..1673].concat();
    let upto: String = lines[..1674].concat();
    let a = temp_dir("carry-decl");
    frekans::app::audit_bytes(
        prefix.as_bytes(),
        &Question::AsOf(0),
        Some(common::test_store(&a)),
    )
    .unwrap();
    let old = AuditCache::load(common::test_store(&a), &log_key(prefix.as_bytes())).unwrap();
    assert!(lines[1673].contains("\"penalty\""));
    assert!(frekans::audit::extend_cache(upto.as_bytes(), old).is_none());
    let _ = std::fs::remove_dir_all(&a);
}

/// A director appends a ruling and audits it: the audit carries the previous audit's cache on
/// (the log is not read whole) and answers as the long way does.
#[test]
fn an_audit_after_an_append_carries_the_cache_on() {
    let dir = temp_dir("carry-cli");
    let cache = dir.join("cache");
    let log = dir.join("log.jsonl");
    let text =
        std::fs::read_to_string(common::root().join("events/mazovia-pairs-2026.jsonl")).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    std::fs::write(&log, lines[..1922].concat()).unwrap();
    let audit = |extra: &[&str]| {
        cli_audit(
            &cache,
            &log,
            &[&["--as-of", "1500", "--format", "json"], extra].concat(),
        )
    };
    let carried = "carried on";
    let (_, err) = audit(&[]);
    assert!(!err.contains(carried), "{err}");
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        f.write_all(lines[1922..].concat().as_bytes()).unwrap();
    }
    let (after, err) = audit(&[]);
    assert!(err.contains(carried), "{err}");
    let (long, _) = audit(&["--no-cache"]);
    assert_eq!(after, long);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `frekans ARGS` with its audit cache in `cache`, which must succeed: (standard output,
/// standard error).
fn cli(cache: &Path, args: &[&std::ffi::OsStr]) -> (String, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_frekans"))
        .env("FREKANS_AUDIT_CACHE", cache)
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

/// `frekans -v audit LOG ARGS` with its cache in `cache`: (standard output, standard error).
fn cli_audit(cache: &Path, log: &Path, args: &[&str]) -> (String, String) {
    let mut all = vec!["-v".as_ref(), "audit".as_ref(), log.as_os_str()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    cli(cache, &all)
}

/// `score` leaves the audit cache the first audit of the log would (the same file, byte for
/// byte), made while its events stream by, in batches of any size.
#[test]
fn score_leaves_the_cache_the_first_audit_would() {
    let dir = temp_dir("score-cache");
    for (n, log) in common::audited_logs().into_iter().enumerate() {
        let bytes = std::fs::read(&log).unwrap();
        let key = log_key(&bytes);
        let (by_audit, by_score) = (dir.join(format!("audit{n}")), dir.join(format!("score{n}")));
        let (_, _, _, last) = common::replayed(&bytes, "log");
        frekans::app::audit_bytes(
            &bytes,
            &Question::AsOf(last),
            Some(common::test_store(&by_audit)),
        )
        .unwrap();
        let out = dir.join(format!("out{n}"));
        frekans::app::score(&log, &out, false, Some(common::test_store(&by_score))).unwrap();
        let file = format!("{key}.audit");
        let expected = std::fs::read(by_audit.join(&file)).unwrap();
        assert_eq!(
            std::fs::read(by_score.join(&file)).unwrap(),
            expected,
            "{}",
            log.display()
        );
        // The same cache made from batches of 1 and 7 lines.
        for batch in [1, 7] {
            let how = frekans::app::LoadLog {
                batch,
                index: true,
                ..Default::default()
            };
            let mut l = how.bytes(&bytes).unwrap();
            let scored = frekans::pipeline::score(&l.state).unwrap();
            let other = dir.join(format!("batch{n}-{batch}"));
            let b = l.index.take().unwrap();
            b.finish(&l.state, &scored)
                .unwrap()
                .save(common::test_store(&other), &key)
                .unwrap();
            assert_eq!(
                std::fs::read(other.join(&file)).unwrap(),
                expected,
                "{} in batches of {batch}",
                log.display()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The nightly run, then a director's audit: `frekans score` (or `bulletin`) leaves the cache,
/// and the audit answers from it (without reading the log whole) what `--no-cache` answers;
/// with `--no-cache`, they write nothing into the cache directory.
#[test]
fn an_audit_after_score_answers_from_the_cache() {
    let dir = temp_dir("score-cli");
    let log = common::root().join("events/mazovia-pairs-2026.jsonl");
    for command in ["score", "bulletin"] {
        let cache = dir.join(format!("cache-{command}"));
        let run = |extra: &[&str], out: &str| {
            let out = dir.join(format!("{command}-{out}"));
            let mut args = vec![
                "-q".as_ref(),
                command.as_ref(),
                log.as_os_str(),
                "--out".as_ref(),
                out.as_os_str(),
            ];
            args.extend(extra.iter().map(std::ffi::OsStr::new));
            cli(&cache, &args);
        };
        run(&["--no-cache"], "a");
        assert!(!cache.exists(), "{command} --no-cache wrote the cache");
        run(&[], "b");
        assert_answered_from_the_cache(&cache, &log, "R8");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A director appends a ruling and audits it at once: `frekans append` leaves the new log's
/// cache (made while it validates the log), so the audit answers from it, as `--no-cache`
/// does; `append --no-cache` leaves none.
#[test]
fn an_audit_after_append_answers_from_the_cache() {
    let dir = temp_dir("append-cli");
    let cache = dir.join("cache");
    let log = dir.join("log.jsonl");
    std::fs::copy(common::root().join("events/mazovia-pairs-2026.jsonl"), &log).unwrap();
    let append = |event: &str, extra: &[&str]| {
        let mut args = vec!["append".as_ref(), log.as_os_str(), event.as_ref()];
        args.extend(extra.iter().map(std::ffi::OsStr::new));
        let (out, _) = cli(&cache, &args);
        assert!(out.starts_with("appended event"), "{out}");
    };
    append(
        r#"{"type":"ruling","id":"R19","session":"S3","board":6,"ns":"B1","ew":"B23","score":"A+/A-","supersedes":"R18","law":"12C2(a)","by":"TD"}"#,
        &["--no-cache"],
    );
    assert!(!cache.exists(), "append --no-cache wrote the cache");
    append(
        r#"{"type":"ruling","id":"R20","session":"S3","board":6,"ns":"B1","ew":"B23","score":"A/A","supersedes":"R19","law":"12C2(a)","by":"TD"}"#,
        &[],
    );
    for ruling in ["R20", "R18"] {
        assert_answered_from_the_cache(&cache, &log, ruling);
    }
    // The next append carries that cache on (the new line's board re-scored, the log not
    // scored whole), and the audit answers from it as the long way does.
    let (_, err) = cli(
        &cache,
        &[
            "-v".as_ref(),
            "append".as_ref(),
            log.as_os_str(),
            r#"{"type":"ruling","id":"R21","session":"S3","board":6,"ns":"B1","ew":"B23","score":"A-/A+","supersedes":"R20","law":"12C2(a)","by":"TD"}"#.as_ref(),
        ],
    );
    assert!(err.contains("carried on"), "{err}");
    for ruling in ["R21", "R20"] {
        assert_answered_from_the_cache(&cache, &log, ruling);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `frekans audit LOG --ruling ID --format json` is answered from the cache in `cache` (the log
/// not read whole), as `--no-cache` answers it.
fn assert_answered_from_the_cache(cache: &Path, log: &Path, ruling: &str) {
    let (from_cache, err) = cli_audit(cache, log, &["--ruling", ruling, "--format", "json"]);
    assert!(
        err.contains("answered from the audit cache"),
        "{ruling}: {err}"
    );
    let (long, _) = cli_audit(
        cache,
        log,
        &["--ruling", ruling, "--format", "json", "--no-cache"],
    );
    assert_eq!(from_cache, long, "{ruling}");
}

/// Synthetic championships full of rulings of every kind (artificial, not played, assigned,
/// weighted, split, subsequent damage, withdrawn, appealed) and corrections, in team matches
/// and at matchpoints: every ruling, and points of the log, answered from the cache as the long
/// way answers them; and the cache carried across the log's last lines as one made afresh.
#[test]
fn synthetic_logs_full_of_rulings_answer_from_the_cache_as_the_long_way() {
    use frekans::synth::{self, Spec, SynthForm};
    for form in [SynthForm::Teams, SynthForm::Mp] {
        let spec = Spec {
            sessions: 2,
            sections: 2,
            boards: 6,
            tables: 4,
            form,
            rulings: 0.3,
            corrections: 0.1,
            seed: 7,
            deals: true,
            ..Spec::default()
        };
        let mut bytes = Vec::new();
        synth::write_log(&spec, &mut bytes).unwrap();
        let what = form.name();
        let dir = temp_dir(&format!("synth-{what}"));
        let key = log_key(&bytes);
        let (mut rulings, mut from_cache) = (0, 0);
        for q in questions(&bytes) {
            let long = frekans::app::audit_bytes(&bytes, &q, None).unwrap();
            let via =
                frekans::app::audit_bytes(&bytes, &q, Some(common::test_store(&dir))).unwrap();
            assert_eq!(via, long, "{what} {q:?}");
            let cache = AuditCache::load(common::test_store(&dir), &key).unwrap();
            let cached = common::audit_cached(&bytes, cache, &q).unwrap();
            if matches!(q, Question::Ruling(_)) {
                rulings += 1;
                assert!(
                    cached.is_some(),
                    "{what} {q:?}: not answered from the cache"
                );
            }
            if let Some(a) = cached {
                assert_eq!(a, long, "{what} {q:?}: from the cache");
                from_cache += 1;
            }
        }
        assert!(
            rulings > 20 && from_cache > rulings,
            "{what}: {from_cache} of {rulings}"
        );
        // The last lines appended one at a time (the rulings, withdrawals and corrections at
        // the end of the last session): each carried cache as one made afresh.
        let text = String::from_utf8(bytes).unwrap();
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let mut carried = 0;
        for cut in lines.len() - 12..lines.len() {
            let (prefix, upto) = (lines[..cut].concat(), lines[..=cut].concat());
            let (old, fresh) = first_caches(prefix.as_bytes(), upto.as_bytes());
            if let Some(ext) = frekans::audit::extend_cache(upto.as_bytes(), old) {
                assert_eq!(ext.standings, fresh.standings, "{what} line {}", cut + 1);
                assert_eq!(ext.boards, fresh.boards, "{what} line {}", cut + 1);
                carried += 1;
            }
        }
        assert!(carried >= 6, "{what}: {carried} carried");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
