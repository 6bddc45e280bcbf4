//! The `frekans` binary: parse the command line, set up tracing and threads, run the command,
//! map its outcome to the exit status of interface.md.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use frekans::app::{self, AppError};
use frekans::error::exit;

mod cli;

/// mimalloc: see Cargo.toml.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
use cli::{Cli, Command};

/// No transparent huge pages for this process. Where the kernel gives them (THP `always`, or
/// `madvise` with an allocator that asks), every fresh 2 MiB page is zeroed whole, and on a
/// virtual machine whose host has taken back the free huge pages (free page reporting) that
/// zeroing ran 25 times slower: an audit answered in 0.5 s one run took 1.3 s the next after a
/// pause. 4 KiB pages cost more faults but never that.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes one integer argument and touches no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Set by SIGINT and SIGTERM during `frekans live`: stop after the cycle under way.
static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

extern "C" fn on_stop(_: libc::c_int) {
    STOP.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Ctrl-C (and a service manager's SIGTERM) ask `live` to stop between cycles, never in the
/// middle of a write.
fn install_stop() {
    let handler = on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores into an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

/// Every text printed, its control characters escaped (frekans::text): names, ids and notes
/// from the log are never terminal commands.
fn esc(s: &str) -> std::borrow::Cow<'_, str> {
    frekans::text::escape_output(s)
}

fn main() -> ExitCode {
    no_huge_pages();
    let cli = Cli::parse();
    frekans::app::notices::show_all(cli.notices == "all");
    let level = match (cli.quiet, cli.verbose) {
        (true, _) => "error",
        (false, 0) => "warn",
        (false, 1) => "info",
        (false, _) => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("FREKANS_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("frekans={level}")));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_span_events(if cli.verbose > 0 {
            tracing_subscriber::fmt::format::FmtSpan::CLOSE
        } else {
            tracing_subscriber::fmt::format::FmtSpan::NONE
        })
        .with_target(false)
        .init();
    if let Some(n) = cli.threads {
        if n > frekans::limits::MAX_THREADS {
            eprintln!(
                "frekans: --threads {n}: at most {} worker threads (this machine has {} cores; the results do not depend on it)",
                frekans::limits::MAX_THREADS,
                std::thread::available_parallelism().map_or(1, |c| c.get())
            );
            return ExitCode::from(exit::INVALID_INPUT as u8);
        }
    }
    // The clock, the environment and the machine, read once (app::Context).
    let world: std::sync::Arc<dyn frekans::world::World> =
        std::sync::Arc::new(frekans::world::Real);
    let mut ctx = app::Context::of(world, false, None);
    if let Some(e) = &ctx.invalid {
        eprintln!("frekans: {}", esc(&e.to_string()));
        return ExitCode::from(exit::INVALID_INPUT as u8);
    }
    ctx.threads = cli.threads;
    // Progress bars only on a terminal, and not with --quiet or -v (the spans report instead).
    ctx.progress =
        !cli.quiet && cli.verbose == 0 && std::io::IsTerminal::is_terminal(&std::io::stderr());
    if let Err(e) = ctx.install() {
        eprintln!("frekans: {e}");
        return ExitCode::from(exit::FAILURE as u8);
    }
    let result = run(&cli, &ctx);
    let code = match result {
        Ok(()) => exit::OK,
        Err(AppError::Invalid(e)) => {
            eprint!("frekans: {}", esc(&e.to_string()));
            exit::INVALID_INPUT
        }
        Err(AppError::BadRequest(m)) => {
            eprintln!("frekans: {}", esc(&m));
            exit::INVALID_INPUT
        }
        Err(AppError::Other(e)) => {
            eprintln!("frekans: error: {}", esc(&format!("{e:#}")));
            exit::FAILURE
        }
    };
    ExitCode::from(code as u8)
}

/// `frekans dataset add|list|remove`.
fn dataset(
    cli: &Cli,
    ctx: &app::Context,
    command: &cli::DatasetCommand,
    stdout: &mut impl Write,
) -> Result<(), AppError> {
    use cli::DatasetCommand;
    match command {
        DatasetCommand::Add {
            logs,
            to,
            id,
            date,
            season,
        } => {
            let r = app::dataset_add(
                &app::DatasetAdd {
                    logs: logs.clone(),
                    to: to.clone(),
                    id: id.clone(),
                    date: date.clone(),
                    season: *season,
                },
                ctx,
            )?;
            if !cli.quiet {
                for l in &r.logs {
                    let what = match l.outcome {
                        app::Outcome::Unchanged => "unchanged".to_string(),
                        app::Outcome::Added => format!("added ({} rows)", l.rows),
                        app::Outcome::Replaced => format!("replaced ({} rows)", l.rows),
                    };
                    let _ = writeln!(
                        stdout,
                        "{}: {} (season {}): {what}",
                        l.log.display(),
                        l.id,
                        l.season
                    );
                }
                let _ = match r.version {
                    Some(v) => {
                        writeln!(stdout, "wrote version {v} of the dataset {}", to.display())
                    }
                    None => writeln!(stdout, "nothing changed in {}", to.display()),
                };
            }
        }
        DatasetCommand::List { to, json } => {
            let m = app::dataset_list(to)?;
            for (id, e) in &m.championships {
                let line = if *json {
                    let tables: serde_json::Map<String, serde_json::Value> = e
                        .tables
                        .iter()
                        .map(|(t, f)| (t.clone(), f.rows.into()))
                        .collect();
                    serde_json::json!({
                        "championship": id, "season": e.season, "date": e.date,
                        "log_head": e.head, "events": e.events, "rows": e.rows(),
                        "tables": tables, "added_at": e.added_at, "version": e.version,
                        "log": e.log,
                    })
                    .to_string()
                } else {
                    format!(
                        "{id}\t{}\t{}\t{} rows\t{}",
                        e.season,
                        &e.head[..e.head.len().min(12)],
                        e.rows(),
                        e.added_at
                    )
                };
                let _ = writeln!(stdout, "{}", esc(&line));
            }
        }
        DatasetCommand::Remove { id, to } => {
            let v = app::dataset_remove(to, id, ctx)?;
            if !cli.quiet {
                let _ = writeln!(
                    stdout,
                    "removed {} from {}: version {v}",
                    esc(id),
                    to.display()
                );
            }
        }
    }
    Ok(())
}

/// Run the command of `cli`: each group of commands by its own function.
fn run(cli: &Cli, ctx: &app::Context) -> Result<(), AppError> {
    // Each command's context: the audit cache's directory (`FREKANS_AUDIT_CACHE`, else the
    // user's cache directory) unless `--no-cache`, the `--typst` program.
    let mut stdout = std::io::stdout().lock();
    match &cli.command {
        Command::Score { .. }
        | Command::Bulletin { .. }
        | Command::Site { .. }
        | Command::Publish { .. }
        | Command::Export { .. } => reports(cli, ctx, &mut stdout),
        Command::Audit { .. } | Command::Explain { .. } => audit(cli, ctx, &mut stdout),
        Command::Append { .. }
        | Command::Repair { .. }
        | Command::Check { .. }
        | Command::Sign { .. } => log_command(cli, ctx, &mut stdout),
        Command::Import(a) => import(cli, ctx, a, &mut stdout),
        Command::Live(a) => live(cli, ctx, a),
        Command::Synth(a) => synth(cli, a),
        Command::Dataset { command } => dataset(cli, ctx, command, &mut stdout),
    }
}

/// `frekans score`, `bulletin`, `site`, `publish` and `export`: what is made from a log.
fn reports(cli: &Cli, ctx: &app::Context, stdout: &mut impl Write) -> Result<(), AppError> {
    match &cli.command {
        Command::Score {
            log,
            out,
            top,
            dd,
            no_cache,
        } => {
            let ctx = ctx.for_command(*no_cache, None);
            let report = app::score(log, out, *dd, ctx.audit_cache())?;
            if !cli.quiet {
                let _ = write!(stdout, "{}", esc(&app::summary(&report, *top)));
                let _ = writeln!(stdout, "\nwrote the Parquet tables to {}", out.display());
            }
            // The process ends here: a million tables and two million scores need not be
            // freed one by one (the files are written and synced; the OS takes the memory back).
            std::mem::forget(report);
        }
        Command::Bulletin { log, out, render } => {
            let ctx = ctx.for_command(render.no_cache, render.typst.as_deref());
            let report = app::bulletin(log, out, &render.lang, &ctx)?;
            if !cli.quiet {
                let _ = write!(stdout, "{}", esc(&app::summary(&report, 3)));
                let _ = writeln!(
                    stdout,
                    "\nwrote the Parquet tables and bulletin.pdf to {}",
                    out.display()
                );
            }
        }
        Command::Site {
            log,
            out,
            lang,
            no_cache,
        } => {
            let ctx = ctx.for_command(*no_cache, None);
            let r = app::site(log, out, lang, ctx.audit_cache())?;
            if !cli.quiet {
                let _ = writeln!(
                    stdout,
                    "wrote {} files ({} scorecards, {} boards) to {}; open {}",
                    r.pages,
                    r.participants,
                    r.boards,
                    out.display(),
                    out.join("index.html").display()
                );
            }
        }
        Command::Publish { log, out, render } => {
            let ctx = ctx.for_command(render.no_cache, render.typst.as_deref());
            let r = app::publish(log, out, &render.lang, &ctx)?;
            if !cli.quiet {
                let p = &r.published;
                let _ = write!(stdout, "{}", esc(&app::summary(&r.score, 3)));
                let _ = writeln!(
                    stdout,
                    "\npublished {} files to {} ({} rewritten, {} unchanged, {} removed): the Parquet tables, bulletin.pdf and the site ({} scorecards, {} boards); open {}",
                    p.files,
                    out.display(),
                    p.rewritten,
                    p.files - p.rewritten,
                    p.removed,
                    r.site.participants,
                    r.site.boards,
                    out.join(app::SITE_DIR).join("index.html").display()
                );
            }
            // The process ends here (see `score`).
            std::mem::forget(r);
        }
        Command::Export {
            log,
            format,
            out,
            session,
        } => {
            let text = app::export(log, format, out, session.as_deref())?;
            if !cli.quiet {
                let _ = write!(stdout, "{text}");
            }
        }
        _ => unreachable!("run sends only the report commands here"),
    }
    Ok(())
}

/// `frekans audit` and `frekans explain`: questions asked of a log.
fn audit(cli: &Cli, ctx: &app::Context, stdout: &mut impl Write) -> Result<(), AppError> {
    match &cli.command {
        Command::Audit {
            log,
            ruling,
            as_of,
            between,
            with,
            with_file,
            alternatives,
            format,
            out,
            no_cache,
        } => {
            let ctx = ctx.for_command(*no_cache, None);
            let (cache, now) = (ctx.audit_cache(), ctx.at());
            if let Some(file) = alternatives {
                let alts = app::read_proposals(file)?;
                let a = app::alternatives(log, &alts, out.as_deref(), cache, &now)?;
                if format == "json" {
                    let text = frekans::audit::alternatives::to_json(&a).to_string();
                    let _ = writeln!(stdout, "{}", frekans::text::escape_json_text(&text));
                } else {
                    let _ = write!(
                        stdout,
                        "{}",
                        esc(&frekans::audit::alternatives::to_text(&a))
                    );
                }
                std::mem::forget(a);
                return Ok(());
            }
            let proposals = proposals(with, with_file.as_deref())?;
            let answer = if !proposals.is_empty() || with_file.is_some() {
                app::whatif(log, &proposals, out.as_deref(), cache, &now)?
            } else {
                let question = audit_question(ruling.as_deref(), *as_of, between.as_deref())?;
                app::audit(log, &question, out.as_deref(), cache)?
            };
            let _span = tracing::info_span!("print").entered();
            let a = &answer.audit;
            if format == "json" {
                // (through the escaping of hidden characters serde_json leaves as they are)
                let mut buf = Vec::new();
                let _ = frekans::audit::write_json(a, &mut buf);
                let text = String::from_utf8_lossy(&buf);
                let _ = stdout.write_all(frekans::text::escape_json_text(&text).as_bytes());
            } else {
                let _ = write!(stdout, "{}", esc(&frekans::audit::to_text(a)));
            }
            // The process ends here: a big field's 300,000 deltas, and what an answer from the
            // cache was made from, need not be freed one by one.
            std::mem::forget(answer);
        }
        Command::Explain {
            log,
            session,
            board,
            section,
            with,
            with_file,
        } => {
            let proposals = proposals(with, with_file.as_deref())?;
            let now = ctx.at();
            let text = app::explain(log, session, *board, section.as_deref(), &proposals, &now)?;
            let _ = write!(stdout, "{}", esc(&text));
        }
        _ => unreachable!("run sends only audit and explain here"),
    }
    Ok(())
}

/// The proposed events of `--with EVENT_JSON...` or, if given, of `--with-file FILE`.
fn proposals(
    with: &[String],
    with_file: Option<&std::path::Path>,
) -> Result<Vec<String>, AppError> {
    Ok(match with_file {
        Some(f) => app::read_proposals(f)?.into_iter().map(|p| p.0).collect(),
        None => with.to_vec(),
    })
}

/// The question of `--ruling ID`, `--as-of SEQ` or `--between SEQ1 SEQ2` (the first given).
fn audit_question(
    ruling: Option<&str>,
    as_of: Option<usize>,
    between: Option<&[usize]>,
) -> Result<frekans::audit::Question, AppError> {
    Ok(match (ruling, as_of, between) {
        (Some(r), _, _) => frekans::audit::Question::Ruling(r.to_string()),
        (_, Some(s), _) => frekans::audit::Question::AsOf(s),
        (_, _, Some(v)) => frekans::audit::Question::Between(v[0], v[1]),
        _ => {
            return Err(AppError::BadRequest(
            "say what to audit: --ruling ID, --as-of SEQ, --between SEQ1 SEQ2, --with EVENT_JSON, --with-file FILE or --alternatives FILE".into(),
        ));
        }
    })
}

/// `frekans append`, `repair`, `check` and `sign`: the log itself, written to, checked or signed.
fn log_command(cli: &Cli, ctx: &app::Context, stdout: &mut impl Write) -> Result<(), AppError> {
    match &cli.command {
        Command::Append {
            log,
            event,
            no_cache,
        } => {
            let text = event_text(event)?;
            let ctx = ctx.for_command(*no_cache, None);
            let r = app::append(log, &text, &ctx)?;
            if !cli.quiet {
                let a = &r.appended;
                let _ = writeln!(
                    stdout,
                    "appended event {} (line {}) to {}",
                    a.seq,
                    a.line,
                    log.display()
                );
                let _ = stdout.flush();
            }
            if let Some(store) = ctx.audit_cache() {
                app::cache_appended(store, r);
            }
        }
        Command::Repair { log } => repair(log, ctx, stdout)?,
        Command::Check {
            log,
            head,
            head_file,
            key,
            sig,
        } => {
            let published = match (head, head_file) {
                (Some(h), _) => Some(h.clone()),
                (_, Some(f)) => Some(frekans::integrity::read_head_file(f)?),
                _ => None,
            };
            let proofs = app::Proofs {
                head: published,
                key: key.clone(),
                sig: sig.clone(),
            };
            let text = app::check(log, &proofs)?;
            if !cli.quiet {
                let _ = write!(stdout, "{}", esc(&text));
            }
        }
        Command::Sign {
            log,
            key,
            new_key,
            sig,
        } => {
            if let Some(secret) = new_key {
                let public = frekans::integrity::new_key(secret)?;
                if !cli.quiet {
                    let _ = writeln!(
                        stdout,
                        "wrote the secret key to {} (keep it private) and the public key to {} (publish it)",
                        secret.display(),
                        public.display()
                    );
                }
            }
            if let (Some(log), Some(key)) = (log, key) {
                let sig = sig
                    .clone()
                    .unwrap_or_else(|| frekans::integrity::sig_path(log));
                let head = app::sign(log, key, &sig)?;
                if !cli.quiet {
                    let _ = writeln!(
                        stdout,
                        "signed the head of {} after event {} ({}) into {}",
                        log.display(),
                        head.events,
                        head.hash,
                        sig.display()
                    );
                }
            }
        }
        _ => unreachable!("run sends only append, repair, check and sign here"),
    }
    Ok(())
}

/// The event of `frekans append`: the argument, or standard input's for `-`.
fn event_text(event: &str) -> Result<String, AppError> {
    if event != "-" {
        return Ok(event.to_string());
    }
    // At most one event line's limit: a huge or endless standard input stops there.
    let bytes = frekans::limits::read_bounded(
        std::io::stdin().lock(),
        0,
        frekans::limits::MAX_EVENT_BYTES,
        "the event on standard input",
        " (one event line's limit)",
    )
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => AppError::BadRequest(e.to_string()),
        _ => AppError::Other(anyhow::Error::new(e).context("cannot read standard input")),
    })?;
    String::from_utf8(bytes)
        .map_err(|_| AppError::BadRequest("the event on standard input is not UTF-8 text".into()))
}

/// `frekans repair`: a torn last line of the log moved aside.
fn repair(
    log: &std::path::Path,
    ctx: &app::Context,
    stdout: &mut impl Write,
) -> Result<(), AppError> {
    let now = ctx
        .now
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    match frekans::event::repair::repair(&*ctx.world, log, now) {
        Ok(frekans::event::repair::Repaired::Clean) => {
            let _ = writeln!(
                stdout,
                "{}: ends with a complete line; nothing to repair",
                log.display()
            );
        }
        Ok(frekans::event::repair::Repaired::NewlineAdded) => {
            let _ = writeln!(
                stdout,
                "{}: the last line was complete but lacked its newline; added it",
                log.display()
            );
        }
        Ok(frekans::event::repair::Repaired::TailMoved { side, bytes, line }) => {
            let _ = writeln!(stdout, "{}: line {line} was incomplete (a torn write); its {bytes} bytes were moved to {} and the log now ends at line {}", log.display(), side.display(), line - 1);
        }
        Err(e) => {
            return Err(AppError::Other(
                anyhow::Error::new(e).context(format!("cannot repair {}", log.display())),
            ))
        }
    }
    Ok(())
}

/// `frekans import`: other programs' files read into a new log or appended to one.
fn import(
    cli: &Cli,
    ctx: &app::Context,
    a: &cli::ImportArgs,
    stdout: &mut impl Write,
) -> Result<(), AppError> {
    let r = app::import(
        ctx,
        a.files.as_slice(),
        &app::ImportRequest {
            out: a.out.clone(),
            append: a.append.clone(),
            format: a.format.clone(),
            form: a.form.clone(),
            compare: a.compare.clone(),
            options: a.options.clone(),
            columns: a.columns.clone(),
            lenient: a.lenient,
            strict: a.strict,
            at: ctx.at(),
        },
    )?;
    if !cli.quiet {
        let _ = write!(stdout, "{r}");
    }
    Ok(())
}

/// `frekans live`: a BWS read again and again until stopped, each cycle told on standard output.
fn live(cli: &Cli, ctx: &app::Context, a: &cli::LiveArgs) -> Result<(), AppError> {
    let ctx = ctx.for_command(a.no_cache, None);
    install_stop();
    let req = app::live::LiveRequest {
        bws: a.bws.clone(),
        log: a.log.clone(),
        out: a.out.clone(),
        every: std::time::Duration::from_secs(a.every),
        hide_last: a.hide_last,
        lang: a.lang.clone(),
        cycles: a.cycles,
    };
    let now = || {
        let mut c = ctx.clone();
        c.now = c.world.now();
        c.at()
    };
    let quiet = cli.quiet;
    let mut said = |c: &app::live::Cycle| {
        if quiet {
            return;
        }
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{}", esc(&c.report));
        if let Some(p) = &c.site {
            let _ = writeln!(
                out,
                "site: {} of {} files rewritten in {}; projector page {}",
                p.rewritten,
                p.files,
                a.out.display(),
                a.out.join(frekans::site::live::LIVE_PAGE).display()
            );
        }
        if c.status.expected > 0 && (c.appended > 0 || c.site.is_some()) {
            let _ = writeln!(
                out,
                "{} of {} boards entered (round {} of {}){}",
                c.status.entered,
                c.status.expected,
                c.status.round,
                c.status.rounds,
                if c.status.complete {
                    ": the session is complete"
                } else {
                    ""
                }
            );
        }
        let _ = out.flush();
    };
    app::live::live(
        &req,
        &ctx,
        app::live::LiveIo {
            now: &now,
            stop: &STOP,
            said: &mut said,
        },
    )?;
    Ok(())
}

/// `frekans synth`: a synthetic championship, as a log or another program's files.
fn synth(cli: &Cli, a: &cli::SynthArgs) -> Result<(), AppError> {
    let options = match &a.options {
        None => None,
        Some(text) => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(m)) => Some(m),
            _ => {
                return Err(AppError::BadRequest(format!(
                    "invalid synth request: --options must be a JSON object such as '{{\"ximp_normalize\":\"comparisons\"}}', found {text:?}"
                )))
            }
        },
    };
    let spec = frekans::synth::Spec {
        sessions: a.sessions,
        sections: a.sections,
        boards: a.boards,
        tables: a.tables,
        form: frekans::synth::SynthForm::parse(&a.form).unwrap_or(frekans::synth::SynthForm::Mp),
        compare_field: a.compare == "field",
        rulings: a.rulings,
        corrections: a.corrections,
        seed: a.seed,
        deals: a.deals,
        options,
        date: a.date.clone(),
        members: a.members,
        deal_seed: a.deal_seed,
        kind: a.kind.as_deref().and_then(frekans::kind::named),
    };
    let format = match a.format.as_str() {
        "salliere" => frekans::synth::OutFormat::Salliere,
        "pbn" => frekans::synth::OutFormat::Pbn,
        "usebio" => frekans::synth::OutFormat::Usebio,
        _ => frekans::synth::OutFormat::Jsonl,
    };
    let s = app::synth(&spec, format, a.out.as_deref(), a.names.as_deref())?;
    if !cli.quiet {
        let to = a
            .out
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "standard output".into());
        eprintln!("frekans: {}", esc(&app::synth_summary(&s, &to)));
    }
    Ok(())
}
