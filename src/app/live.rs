//! `frekans live SESSION.bws --log LOG --out DIR`: a session followed while it is played. Every
//! `--every` seconds the BWS that Bridgemate Control Software keeps open (and writes to) is
//! copied aside — read again when it changed while being copied, so a copy is never of a file
//! caught mid-write — and the copy imported exactly as `import --append` imports it (all or
//! nothing: a copy mdbtools cannot read is tried again at the next cycle, never half-imported).
//! When something was appended, the results website is written into `DIR` through
//! `outfile::Incremental` (only the pages whose bytes changed are rewritten) with the projector
//! page `live.html` (`site::live`). It stops when the movement's last board is entered or when
//! asked to (`stop`: Ctrl-C), between cycles: a stop never interrupts a write, and a `live`
//! killed outright loses nothing (the log and the site are each written whole or not at all)
//! and carries on where it was when started again.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{run, AppError};
use crate::import::{self, ImportError};
use crate::site::live::{LiveStatus, LIVE_PAGE};
use crate::world::World;

/// What `frekans live` was asked.
#[derive(Clone, Debug)]
pub struct LiveRequest {
    pub bws: PathBuf,
    pub log: PathBuf,
    pub out: PathBuf,
    /// Between two reads of the BWS.
    pub every: Duration,
    /// Hide the standings on the projector page for the last N rounds.
    pub hide_last: u32,
    pub lang: String,
    /// Stop after this many cycles (`--cycles`; none: until complete or stopped).
    pub cycles: Option<u64>,
}

/// What one cycle did.
#[derive(Clone, Debug, Default)]
pub struct Cycle {
    /// Events appended to the log (0: nothing new).
    pub appended: usize,
    /// Files of the site rewritten (new or changed), and in all; `None`: not rendered.
    pub site: Option<crate::outfile::Published>,
    pub status: LiveStatus,
    /// The import's lines (what was appended, its notices), or why the BWS could not be read
    /// this time.
    pub report: String,
    /// The BWS could not be read or imported this time (tried again at the next cycle).
    pub failed: bool,
}

/// The outside world of a live run: the clock of each cycle's events and where to say what
/// happened.
pub struct LiveIo<'a> {
    /// The `at` of the events a cycle appends (RFC 3339, now).
    pub now: &'a dyn Fn() -> String,
    /// Set to stop after the cycle under way (Ctrl-C).
    pub stop: &'a AtomicBool,
    /// Each cycle, as it ends.
    pub said: &'a mut dyn FnMut(&Cycle),
}

/// Follow the session until its last board is entered, `stop` is set or `cycles` are done.
/// Returns the cycles run.
pub fn live(req: &LiveRequest, ctx: &super::Context, io: LiveIo<'_>) -> Result<u64, AppError> {
    if !ctx.world.is_file(&req.bws) {
        return Err(AppError::BadRequest(format!(
            "cannot follow {}: no such file (the session's Bridgemate BWS database)",
            req.bws.display()
        )));
    }
    let mut done = 0;
    // Where the session stood when the pages were last written (none yet this run).
    let mut shown: Option<LiveStatus> = None;
    let mut seen = None;
    loop {
        let started = Instant::now();
        let c = cycle(req, ctx, (io.now)(), shown.as_ref(), &mut seen)?;
        if c.site.is_some() {
            shown = Some(c.status.clone());
        }
        done += 1;
        (io.said)(&c);
        // (complete, and the pages say so)
        if shown.as_ref().is_some_and(|s| s.complete)
            || req.cycles.is_some_and(|n| done >= n)
            || io.stop.load(Ordering::SeqCst)
        {
            return Ok(done);
        }
        // Sleep out the interval in short steps, so that Ctrl-C stops within a fifth of a second.
        while started.elapsed() < req.every {
            if io.stop.load(Ordering::SeqCst) {
                return Ok(done);
            }
            std::thread::sleep(
                (req.every - started.elapsed().min(req.every)).min(Duration::from_millis(200)),
            );
        }
    }
}

/// The size and modification time of a file: when they are what the last cycle imported, the
/// BWS has not been written since and the cycle has nothing to do.
pub type Stamp = (u64, Option<std::time::SystemTime>);

fn stamp(world: &dyn World, p: &Path) -> std::io::Result<Stamp> {
    world.metadata(p).map(|m| (m.len, m.modified))
}

/// One cycle: the BWS copied aside and imported; the site rewritten where it changed when the
/// log grew or the session's progress moved since the pages were last written (`shown`; none:
/// the first cycle of a run, which writes them). `seen`: the BWS's [`Stamp`] when last
/// imported whole and where the session stood (set here); an unchanged BWS is not read again.
pub fn cycle(
    req: &LiveRequest,
    ctx: &super::Context,
    at: String,
    shown: Option<&LiveStatus>,
    seen: &mut Option<(Stamp, LiveStatus)>,
) -> Result<Cycle, AppError> {
    let mut c = Cycle::default();
    let render = shown.is_none();
    if let (false, Ok(now), Some((was, status))) =
        (render, stamp(&*ctx.world, &req.bws), seen.as_ref())
    {
        if now == *was {
            c.status = status.clone();
            return Ok(c);
        }
    }
    let dir = ctx
        .world
        .create_tmp_dir(&ctx.world.temp_dir(), "frekans-live")
        .map_err(|e| AppError::Other(anyhow::Error::new(e)))?;
    let _cleanup = RemoveOnDrop(&*ctx.world, dir.clone());
    let name = req
        .bws
        .file_name()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("session.bws"));
    let copy = dir.join(name);
    let copied = match snapshot(&*ctx.world, &req.bws, &copy) {
        Ok(s) => s,
        Err(e) => {
            c.failed = true;
            c.report = format!(
                "cannot read {} this time ({e}); trying again in {} s",
                req.bws.display(),
                req.every.as_secs()
            );
            return Ok(c);
        }
    };
    let label = req.bws.display().to_string();
    let named = |mut p: import::Problem| {
        p.file = label.clone();
        p
    };
    match import::bws::progress(&*ctx.world, &copy, &label) {
        Ok(p) => {
            c.status = LiveStatus {
                round: p.round,
                rounds: p.rounds,
                entered: p.entered,
                expected: p.expected,
                complete: p.complete(),
                hide_last: req.hide_last,
                refresh: req.every.as_secs().max(1),
                // (the sections as the log names them: a section of one letter is the BWS's)
                finished: p
                    .finished
                    .into_iter()
                    .map(|(sec, b, _)| (Some(sec), b))
                    .collect(),
            }
        }
        Err(ps) => {
            c.failed = true;
            c.report = failed_read(req, ps.into_iter().map(named).collect());
            return Ok(c);
        }
    }
    let opts = import::ImportOptions {
        format: Some(import::Format::Bws),
        req: import::Request {
            world: ctx.world.clone(),
            ..import::Request::default()
        },
        columns: import::csv::Columns::default(),
        now: at,
    };
    let files = [copy.clone()];
    let done = if req.log.exists() {
        import::import_append(&files, &req.log, &opts)
    } else {
        import::import_new(&files, &req.log, &opts)
    };
    match done {
        Ok(i) => {
            c.appended = i.events;
            c.report = imported_lines(&i, &label).replace(&copy.display().to_string(), &label);
            *seen = Some((copied, c.status.clone()));
        }
        Err(ImportError::Invalid(ps)) => {
            c.failed = true;
            c.report = failed_read(req, ps.into_iter().map(named).collect());
            return Ok(c);
        }
        Err(ImportError::Io(e)) => return Err(AppError::Other(anyhow::Error::new(e))),
    }
    if c.appended > 0 || shown != Some(&c.status) || !req.out.join(LIVE_PAGE).is_file() {
        c.site = Some(write_site(req, ctx, &c.status)?);
    }
    Ok(c)
}

/// The site and the projector page, written where their bytes changed.
fn write_site(
    req: &LiveRequest,
    ctx: &super::Context,
    status: &LiveStatus,
) -> Result<crate::outfile::Published, AppError> {
    let want = run::Want {
        events: true,
        dd: true,
        head: false,
    };
    let r = run::run(&req.log, want, ctx.audit_cache())?;
    let model = run::view(&r, &req.lang, &run::Limits::SITE);
    let mut w = crate::outfile::Incremental::begin(&req.out)?;
    crate::site::write(
        &r.state,
        &r.scored,
        &model,
        &req.lang,
        &mut |name, bytes| w.put(name, bytes),
    )
    .map_err(AppError::from)?;
    let page = crate::site::live::page(&model, status, &req.lang).map_err(AppError::from)?;
    w.put(LIVE_PAGE, &page)?;
    Ok(w.commit()?)
}

/// Copy `from` to `to` whole: read again (up to five times, a tenth of a second apart) while its
/// size or modification time changes during the copy, which means it was being written. The
/// copy's [`Stamp`] of `from`.
fn snapshot(world: &dyn World, from: &Path, to: &Path) -> std::io::Result<Stamp> {
    let mut last_err = None;
    for _ in 0..5 {
        let before = stamp(world, from)?;
        let bytes = world.read(from)?;
        let after = stamp(world, from)?;
        if before == after && bytes.len() as u64 == after.0 {
            world.write(to, &bytes)?;
            return Ok(after);
        }
        last_err = Some(std::io::Error::other("it changed while being read"));
        std::thread::sleep(Duration::from_millis(100));
    }
    Err(last_err.expect("tried"))
}

fn failed_read(req: &LiveRequest, problems: Vec<import::Problem>) -> String {
    let mut s = format!(
        "{} cannot be imported this time; nothing was appended, trying again in {} s:\n",
        req.bws.display(),
        req.every.as_secs()
    );
    for p in problems {
        s.push_str(&format!("  {p}\n"));
    }
    s
}

fn imported_lines(i: &import::Imported, shown: &str) -> String {
    let mut s = String::new();
    if i.events > 0 {
        s.push_str(&format!(
            "appended {} events (seq {}..={})\n",
            i.events,
            i.first_seq,
            i.first_seq + i.events - 1
        ));
    }
    for p in &i.skipped {
        let mut p = p.clone();
        p.file = shown.to_string();
        s.push_str(&format!("skipped: {p}\n"));
    }
    for n in &i.notices {
        s.push_str(&format!("notice: {n}\n"));
    }
    s
}

struct RemoveOnDrop<'a>(&'a dyn World, PathBuf);

impl Drop for RemoveOnDrop<'_> {
    fn drop(&mut self) {
        let _ = self.0.remove_dir_all(&self.1);
    }
}
