//! The outside world faked (`world::Fake`) where the real program is not the point: the
//! bulletin's typst that fails or succeeds, the Bridgemate reader's mdbtools that are missing,
//! fail or print what they print, and the context's clock and environment. (The real typst and
//! the real `.bws` fixtures are tests/bulletin.rs's and tests/bws_real.rs's.)
#![allow(clippy::disallowed_methods)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use frekans::app::{self, AppError, Context};
use frekans::import;
use frekans::world::fake::{output, Files};
use frekans::world::Fake;

fn t0() -> std::time::SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_800_000_000)
}

fn log() -> &'static str {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/hostile-names.jsonl"
    )
}

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("frekans-world-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The context of a fake world whose typst (`/fake/typst`) answers as `typst` does.
fn with_typst(
    typst: impl Fn(&[OsString], Option<&[u8]>, &Files) -> std::io::Result<std::process::Output>
        + Send
        + Sync
        + std::panic::RefUnwindSafe
        + std::panic::UnwindSafe
        + 'static,
) -> (Arc<Fake>, Context) {
    let w = Arc::new(Fake::at(t0()).program("/fake/typst", typst));
    let ctx = Context::of(w.clone(), true, Some(Path::new("/fake/typst")));
    (w, ctx)
}

#[test]
fn a_failing_typst_is_a_clear_failure_and_nothing_is_written() {
    let (w, ctx) = with_typst(|_, _, _| output(3, b"", b"error: something broke\n"));
    let d = out_dir("failing-typst");
    match app::bulletin(Path::new(log()), &d, "en", &ctx) {
        Err(AppError::Other(e)) => assert_eq!(
            format!("{e:#}"),
            "typst failed (exit status: 3):\nerror: something broke\n"
        ),
        Err(e) => panic!("not a failure (exit 1): {e}"),
        Ok(_) => panic!("a failing typst rendered a bulletin"),
    }
    assert!(!d.exists(), "something was written");
    // Its work directory is gone: the fake world holds only its temporary directory.
    assert_eq!(w.files.paths(), [PathBuf::from("/"), PathBuf::from("/tmp")]);
    assert_eq!(w.runs.lock().unwrap().len(), 1);
}

#[test]
fn a_typst_that_cannot_be_run_names_itself() {
    let w = Arc::new(Fake::at(t0()));
    let ctx = Context::of(w, true, Some(Path::new("/nonexistent/typst")));
    let d = out_dir("no-typst");
    let e = app::bulletin(Path::new(log()), &d, "en", &ctx)
        .err()
        .unwrap();
    assert!(matches!(e, AppError::Other(_)));
    assert_eq!(
        e.to_string(),
        "cannot run /nonexistent/typst: No such file or directory (os error 2)"
    );
    assert!(!d.exists());
}

#[test]
fn the_bulletin_is_what_typst_made_of_the_template_and_the_data() {
    let (w, ctx) = with_typst(|args, _, files| {
        // compile --root WORK --ignore-system-fonts --creation-timestamp 0 TYP PDF
        assert_eq!(args[0], "compile");
        assert_eq!(args[4..6], ["--creation-timestamp", "0"]);
        let work = Path::new(&args[2]);
        let data = files.get(&work.join("bulletin.json")).expect("the data");
        let typ = files.get(Path::new(&args[6])).expect("the template");
        assert_eq!(typ, frekans::report::TEMPLATE.as_bytes());
        let pdf = [b"%PDF-fake ".as_slice(), &data[..8]].concat();
        files.put(Path::new(&args[7]), &pdf, UNIX_EPOCH);
        output(0, b"", b"")
    });
    let d = out_dir("fake-pdf");
    app::bulletin(Path::new(log()), &d, "en", &ctx).unwrap();
    let pdf = std::fs::read(d.join("bulletin.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF-fake {"), "{pdf:?}");
    assert_eq!(w.files.paths(), [PathBuf::from("/"), PathBuf::from("/tmp")]);
    let _ = std::fs::remove_dir_all(&d);
}

/// A fake mdbtools: `mdb-tables` lists `tables`, `mdb-export` prints `export(table)`.
fn mdb(tables: &'static str, export: fn(&str) -> &'static str) -> Fake {
    Fake::at(t0())
        .program("mdb-tables", move |_, _, _| {
            output(0, tables.as_bytes(), b"")
        })
        .program("mdb-export", move |args, _, _| {
            let table = args.last().unwrap().to_str().unwrap();
            output(0, export(table).as_bytes(), b"")
        })
}

fn read_bws(world: Fake) -> Result<Vec<serde_json::Value>, Vec<String>> {
    let world = Arc::new(world);
    let req = import::Request {
        world: world.clone(),
        ..import::Request::default()
    };
    let read = import::bws::read(Path::new("-s.bws"), "s.bws", &req);
    // (a path that starts with `-` is given as `./-s.bws`, never as an option)
    for (_, args) in world.runs.lock().unwrap().iter() {
        assert!(args.iter().any(|a| a == "./-s.bws"), "{args:?}");
    }
    read.map(|p| p.values())
        .map_err(|ps| ps.iter().map(|p| p.to_string()).collect())
}

#[test]
fn mdbtools_missing_or_failing_are_said() {
    let e = read_bws(Fake::at(t0())).unwrap_err();
    assert_eq!(e.len(), 1);
    assert!(
        e[0].starts_with("s.bws: file: cannot read a Bridgemate BWS database: the program mdb-tables (Debian's mdbtools) is not installed"),
        "{e:?}"
    );
    let w = Fake::at(t0()).program("mdb-tables", |_, _, _| output(1, b"", b"File not found\n"));
    assert_eq!(
        read_bws(w).unwrap_err(),
        ["s.bws: file: mdb-tables cannot read it as a Microsoft Access database (File not found)"]
    );
}

#[test]
fn what_mdb_export_prints_is_read_or_refused() {
    let w = mdb("Tables\n", |_| "");
    assert_eq!(
        read_bws(w).unwrap_err(),
        [
            "s.bws: Section: no Section table: not a Bridgemate BWS database (its tables: Tables)",
            "s.bws: ReceivedData: no ReceivedData table: not a Bridgemate BWS database (its tables: Tables)"
        ]
    );
    let w = mdb("Section\nReceivedData\n", |t| match t {
        "Section" => "ID,Letter\n1,A\n",
        _ => "ID,Section,Table\n1,1,1\n",
    });
    let e = read_bws(w).unwrap_err();
    assert!(
        e.iter()
            .any(|m| m.starts_with("s.bws: ReceivedData: no column Round, Board, PairNS")),
        "{e:?}"
    );
    let w = mdb("Section\nReceivedData\n", |t| {
        match t {
        "Section" => "ID,Letter\n1,A\n",
        _ => "ID,Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard,Remarks,Erased\n\
              1,1,1,1,1,1,2,1,N,3 NT,=,,,0\n\
              2,1,2,1,1,3,4,3,N,4 S,-1,,,0\n",
    }
    });
    let read = read_bws(w).unwrap_or_else(|e| panic!("{e:?}"));
    let results = read.iter().filter(|e| e["type"] == "result").count();
    assert_eq!(results, 2, "{read:?}");
}

#[test]
fn a_context_is_its_worlds_clock_and_environment() {
    let w = Fake::at(t0())
        .env("FREKANS_AUDIT_CACHE", "/c")
        .env("SOURCE_DATE_EPOCH", "42")
        .file("/home/td/.cache/frekans/tools/bin/typst", b"");
    let w = Arc::new(w.env("HOME", "/home/td"));
    let ctx = Context::of(w.clone(), false, None);
    assert_eq!(ctx.at(), "2027-01-15T08:00:00Z");
    assert_eq!(ctx.cache(), Some(Path::new("/c")));
    assert_eq!(ctx.typst.epoch, "42");
    assert_eq!(
        ctx.typst.program.as_deref(),
        Some(Path::new("/home/td/.cache/frekans/tools/bin/typst"))
    );
    // The clock moves when told, not by sleeping.
    w.advance(Duration::from_secs(61));
    assert_eq!(Context::of(w, false, None).at(), "2027-01-15T08:01:01Z");
}

// ---- the log's transactions (`event::append`, `event::journal`, `event::repair`) in a fake
// world: a lock held, a write or a sync that fails.

const SESSION: &str = "{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\",\"boards\":\"1-1\"}\n";
const RESULT: &str =
    r#"{"type":"result","session":"S1","board":1,"ns":"1","ew":"101","score":620}"#;
const NOW: &str = "2027-01-15T08:00:00Z";

fn append(w: &Fake) -> Result<frekans::event::append::Appended, String> {
    frekans::event::append::append(w, Path::new("/c/log.jsonl"), RESULT, NOW, 1 << 20)
        .map_err(|e| format!("{e:?}"))
}

fn bytes(w: &Fake, p: &str) -> Option<Vec<u8>> {
    w.files.get(Path::new(p))
}

/// An append waits for no one in a fake world: a log locked by another is refused (nothing
/// written), and appended to once the lock is let go.
#[test]
fn an_append_to_a_locked_log_is_refused_and_writes_nothing() {
    use frekans::world::{Open, World};
    let w = Fake::at(t0()).file("/c/log.jsonl", SESSION.as_bytes());
    let mut other = w
        .open_file(Path::new("/c/log.jsonl"), Open::UPDATE)
        .unwrap();
    other.lock().unwrap();
    assert!(w.locked("/c/log.jsonl"));
    let e = append(&w).unwrap_err();
    assert!(e.contains("WouldBlock") || e.contains("locked"), "{e}");
    assert_eq!(bytes(&w, "/c/log.jsonl").unwrap(), SESSION.as_bytes());
    drop(other);
    assert!(!w.locked("/c/log.jsonl"));
    let a = append(&w).unwrap();
    assert_eq!(a.seq, 2);
    let text = String::from_utf8(bytes(&w, "/c/log.jsonl").unwrap()).unwrap();
    assert!(text.starts_with(SESSION) && text.ends_with("\n"), "{text}");
    assert_eq!(text.lines().count(), 2);
    assert!(text.contains(NOW), "{text}");
    assert!(
        bytes(&w, "/c/log.jsonl.pending").is_none(),
        "the record left"
    );
    assert!(!w.locked("/c/log.jsonl"), "the lock kept");
}

/// A write that fails cuts the log back to what it was and leaves no record; a record whose
/// sync fails is removed before the log is touched.
#[test]
fn a_failed_write_leaves_the_log_as_it_was() {
    for (op, path) in [("write", "/c/log.jsonl"), ("sync", "/c/log.jsonl.pending")] {
        let w = Fake::at(t0()).file("/c/log.jsonl", SESSION.as_bytes());
        w.fail(op, path);
        let e = append(&w).unwrap_err();
        assert!(e.contains("as the fake world was told"), "{op}: {e}");
        assert_eq!(
            bytes(&w, "/c/log.jsonl").unwrap(),
            SESSION.as_bytes(),
            "{op}"
        );
        assert!(
            bytes(&w, "/c/log.jsonl.pending").is_none(),
            "{op}: the record left"
        );
        w.mend(op, path);
        append(&w).unwrap();
    }
}

/// A sync of the log that fails: the batch is cut off again, but that cut is not known to be
/// on the disk either, so the record stays; the next reader settles it (the log as it was,
/// the record gone) before it reads.
#[test]
fn a_failed_sync_is_settled_by_the_next_reader() {
    use frekans::event::journal::{settle, Settled};
    let w = Fake::at(t0()).file("/c/log.jsonl", SESSION.as_bytes());
    w.fail("sync", "/c/log.jsonl");
    append(&w).unwrap_err();
    assert_eq!(bytes(&w, "/c/log.jsonl").unwrap(), SESSION.as_bytes());
    assert!(
        bytes(&w, "/c/log.jsonl.pending").is_some(),
        "no record kept"
    );
    w.mend("sync", "/c/log.jsonl");
    assert_eq!(
        settle(&w, Path::new("/c/log.jsonl")).unwrap(),
        Settled::Clean
    );
    assert!(bytes(&w, "/c/log.jsonl.pending").is_none());
    assert_eq!(bytes(&w, "/c/log.jsonl").unwrap(), SESSION.as_bytes());
    // A batch cut short (the record written, half the batch): moved aside whole.
    let half = &RESULT.as_bytes()[..20];
    let record = format!(
        "frekans-pending 1 {} {} {}\n",
        SESSION.len(),
        RESULT.len() + 1,
        "0".repeat(64)
    );
    let w = Fake::at(t0())
        .file("/c/log.jsonl", &[SESSION.as_bytes(), half].concat())
        .file("/c/log.jsonl.pending", record.as_bytes());
    let s = settle(&w, Path::new("/c/log.jsonl")).unwrap();
    let side = PathBuf::from(format!("/c/log.jsonl.torn-at-{}", SESSION.len()));
    assert_eq!(
        s,
        Settled::Removed {
            side: side.clone(),
            bytes: 20,
            length: SESSION.len() as u64
        }
    );
    assert_eq!(w.files.get(&side).unwrap(), half);
    assert_eq!(bytes(&w, "/c/log.jsonl").unwrap(), SESSION.as_bytes());
}

/// `repair` in a fake world: a torn last line moved to its side file, never deleted.
#[test]
fn repair_moves_a_torn_tail_aside() {
    use frekans::event::repair::{repair, Repaired};
    let torn = "{\"type\":\"res";
    let w = Fake::at(t0()).file("/c/log.jsonl", format!("{SESSION}{torn}").as_bytes());
    let r = repair(&w, Path::new("/c/log.jsonl"), 77).unwrap();
    assert_eq!(
        r,
        Repaired::TailMoved {
            side: PathBuf::from("/c/log.jsonl.torn-77"),
            bytes: torn.len(),
            line: 2
        }
    );
    assert_eq!(bytes(&w, "/c/log.jsonl.torn-77").unwrap(), torn.as_bytes());
    assert_eq!(bytes(&w, "/c/log.jsonl").unwrap(), SESSION.as_bytes());
    assert_eq!(
        repair(&w, Path::new("/c/log.jsonl"), 78).unwrap(),
        Repaired::Clean
    );
}

/// A fake world's open file: read, sought, written at its end, cut, mapped; an exclusive
/// file made once only.
#[test]
fn a_fake_file_handle_is_a_file() {
    use frekans::world::{Open, World};
    use std::io::{Read, Seek, SeekFrom, Write};
    let w = Fake::at(t0()).file("/d/f", b"abc");
    let mut h = w.open_file(Path::new("/d/f"), Open::APPEND).unwrap();
    h.write_all(b"de").unwrap();
    h.seek(SeekFrom::Start(1)).unwrap();
    let mut s = String::new();
    h.read_to_string(&mut s).unwrap();
    assert_eq!(s, "bcde");
    assert_eq!(h.len().unwrap(), 5);
    h.set_len(2).unwrap();
    assert_eq!(&*h.map().unwrap(), b"ab");
    h.sync_all().unwrap();
    let mut shared = w.open_file(Path::new("/d/f"), Open::READ).unwrap();
    shared.try_lock_shared().unwrap();
    assert!(
        h.try_lock().is_err(),
        "an exclusive lock beside a shared one"
    );
    assert!(h.try_lock_shared().is_ok());
    assert!(w.open_file(Path::new("/d/f"), Open::CREATE_NEW).is_err());
    assert!(w.open_file(Path::new("/d/none"), Open::READ).is_err());
    w.open_file(Path::new("/d/g"), Open::CREATE_NEW).unwrap();
    assert_eq!(bytes(&w, "/d/g").unwrap(), b"");
    w.hard_link(Path::new("/d/f"), Path::new("/d/h")).unwrap();
    assert!(w.hard_link(Path::new("/d/f"), Path::new("/d/g")).is_err());
}

/// The files of `w` under `dir`, with their bytes.
fn tree(w: &Fake, dir: &str) -> Vec<(PathBuf, Vec<u8>)> {
    w.files
        .paths()
        .into_iter()
        .filter(|p| p.starts_with(dir))
        .map(|p| {
            let b = w.files.get(&p).unwrap_or_default();
            (p, b)
        })
        .collect()
}

/// An output directory whose second file fails to be written, or whose files fail to sync, is
/// as it was: no file of the run in it, none half-written, no temporary left; the next run
/// replaces the files it writes and leaves the others alone.
#[test]
fn an_output_directory_failing_halfway_is_as_it_was() {
    use frekans::outfile::write_dir_in;
    let w = Fake::at(t0())
        .file("/o/a.txt", b"old a")
        .file("/o/b.txt", b"old b")
        .file("/o/notes", b"a user's");
    let before = tree(&w, "/o");
    let files = || {
        vec![
            ("a.txt".to_string(), b"new a".to_vec()),
            ("b.txt".to_string(), b"new b".to_vec()),
            ("c/d.txt".to_string(), b"new d".to_vec()),
        ]
    };
    w.fail("write", "/o/.frekans-tmp.out-1/b.txt");
    let e = write_dir_in(&w, Path::new("/o"), files()).unwrap_err();
    assert!(
        format!("{e:#}").contains("as the fake world was told"),
        "{e:#}"
    );
    assert_eq!(tree(&w, "/o"), before, "the write");
    w.fail("sync_fs", "/o/.frekans-tmp.out-2");
    let e = write_dir_in(&w, Path::new("/o"), files()).unwrap_err();
    assert!(format!("{e:#}").contains("cannot sync"), "{e:#}");
    assert_eq!(tree(&w, "/o"), before, "the sync");
    write_dir_in(&w, Path::new("/o"), files()).unwrap();
    let after = tree(&w, "/o");
    let file = |p: &str| {
        after
            .iter()
            .find(|(q, _)| q == Path::new(p))
            .map(|(_, b)| b)
    };
    assert_eq!(file("/o/a.txt").unwrap(), b"new a");
    assert_eq!(file("/o/c/d.txt").unwrap(), b"new d");
    assert_eq!(file("/o/notes").unwrap(), b"a user's");
    assert!(
        after
            .iter()
            .all(|(p, _)| !p.to_string_lossy().contains(".frekans-tmp.")),
        "{after:?}"
    );
}

/// A new output directory whose files fail to sync is not made, nor its temporary left; a file
/// output given up halfway (its writer's error) leaves no file and no temporary.
#[test]
fn a_new_output_failing_halfway_is_not_there() {
    use frekans::outfile::{write_dir_in, FileOut};
    use std::io::Write as _;
    let w = Fake::at(t0()).file("/site/keep", b"x");
    w.fail("sync_fs", "/site/.frekans-tmp.out-1");
    let files = vec![("a.txt".to_string(), b"a".to_vec())];
    assert!(write_dir_in(&w, Path::new("/site/out"), files).is_err());
    assert_eq!(
        w.files.paths(),
        [
            Path::new("/"),
            Path::new("/site"),
            Path::new("/site/keep"),
            Path::new("/tmp")
        ]
    );
    let mut o = FileOut::create_in(&w, Path::new("/site/x.jsonl")).unwrap();
    o.file().write_all(b"half a line").unwrap();
    assert!(w.files.get(o.tmp()).is_some());
    drop(o);
    assert_eq!(
        w.files.paths(),
        [
            Path::new("/"),
            Path::new("/site"),
            Path::new("/site/keep"),
            Path::new("/tmp")
        ]
    );
    let mut o = FileOut::create_in(&w, Path::new("/site/x.jsonl")).unwrap();
    o.file().write_all(b"whole\n").unwrap();
    o.finish().unwrap();
    assert_eq!(w.files.get(Path::new("/site/x.jsonl")).unwrap(), b"whole\n");
}
