//! Files in and out: synthetic championships, USEBIO and PBN export, and import of other programs' results into a new log or an existing one.

use super::*;
use crate::score::Form;

/// `frekans synth`: the championship of `spec` written to `out` (whole or not at all: written
/// beside it, then renamed) or to standard output; with `OutFormat::Salliere` the boards go to
/// `out` and the names to `names`.
pub fn synth(
    spec: &crate::synth::Spec,
    format: crate::synth::OutFormat,
    out: Option<&Path>,
    names: Option<&Path>,
) -> Result<crate::synth::Summary, AppError> {
    use crate::synth::{self, OutFormat};
    use crate::world::Handle;
    use std::io::Write as _;
    spec.validate(format)
        .map_err(|m| AppError::BadRequest(format!("invalid synth request: {m}")))?;
    let _s = tracing::info_span!("synth").entered();
    // Files are written to a unique temporary beside their final name (or its symlink's
    // target), then renamed (crate::outfile).
    let create = |p: &Path| -> Result<(crate::outfile::FileOut, Handle), AppError> {
        let mut o = crate::outfile::FileOut::create(p)?;
        let f = o
            .file()
            .try_clone()
            .with_context(|| format!("cannot write {}", o.tmp().display()))?;
        Ok((o, f))
    };
    let finish = |o: crate::outfile::FileOut,
                  w: std::io::BufWriter<Handle>|
     -> Result<(), AppError> {
        w.into_inner()
            .map_err(|e| anyhow::anyhow!("cannot write {}: {}", o.tmp().display(), e.error()))?;
        o.finish()?;
        Ok(())
    };
    let buf = |f: Handle| std::io::BufWriter::with_capacity(1 << 20, f);
    // One log or PBN file: to `out` (a unique temporary, renamed), or to standard output.
    let one =
        |write: fn(&synth::Spec, &mut dyn std::io::Write) -> std::io::Result<synth::Summary>| {
            match out {
                Some(path) => {
                    let (o, f) = create(path)?;
                    let mut w = buf(f);
                    match write(spec, &mut w) {
                        Ok(s) => {
                            finish(o, w)?;
                            Ok(s)
                        }
                        Err(e) => Err(AppError::Other(
                            anyhow::Error::new(e)
                                .context(format!("cannot write {}", path.display())),
                        )),
                    }
                }
                None => {
                    let stdout = std::io::stdout();
                    let mut w = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
                    let s = write(spec, &mut w)
                        .and_then(|s| w.flush().map(|_| s))
                        .context("cannot write to standard output")?;
                    Ok(s)
                }
            }
        };
    match format {
        OutFormat::Jsonl => one(synth::write_log),
        OutFormat::Pbn => one(synth::write_pbn),
        OutFormat::Usebio => {
            // The log, scored and exported (its points are frekans's): what `export` writes of it.
            let mut log = Vec::new();
            let s = synth::write_log(spec, &mut log).context("cannot make the championship")?;
            let bytes = export_bytes(&log, "usebio", None)?;
            drop(log);
            match out {
                Some(path) => {
                    let (o, f) = create(path)?;
                    let mut w = buf(f);
                    w.write_all(&bytes)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    finish(o, w)?;
                }
                None => {
                    let mut w = std::io::stdout().lock();
                    w.write_all(&bytes)
                        .and_then(|_| w.flush())
                        .context("cannot write to standard output")?;
                }
            }
            Ok(s)
        }
        OutFormat::Salliere => {
            let Some(path) = out else {
                return Err(AppError::BadRequest(
                    "invalid synth request: --format salliere writes two files: give --out FILE (the boards; the names go to --names or FILE.names.csv)".into(),
                ));
            };
            let names_path = match names {
                Some(n) => n.to_path_buf(),
                None => {
                    let mut n = path.as_os_str().to_owned();
                    n.push(".names.csv");
                    std::path::PathBuf::from(n)
                }
            };
            let (bo, bf) = create(path)?;
            let (no, nf) = create(&names_path)?;
            let (mut bw, mut nw) = (buf(bf), buf(nf));
            match synth::write_salliere(spec, &mut bw, &mut nw) {
                Ok(s) => {
                    finish(bo, bw)?;
                    finish(no, nw)?;
                    Ok(s)
                }
                Err(e) => Err(AppError::Other(
                    anyhow::Error::new(e).context(format!("cannot write {}", path.display())),
                )),
            }
        }
    }
}

/// The line `synth` prints on standard error: what was written.
pub fn synth_summary(s: &crate::synth::Summary, to: &str) -> String {
    use crate::synth::RulingKind;
    let kinds: Vec<String> = RulingKind::ALL
        .iter()
        .zip(s.rulings.iter())
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| format!("{n} {}", k.name()))
        .collect();
    format!(
        "wrote {} lines ({} bytes) to {to}: {} participants, {} tables, {} results, {} rulings{}, {} corrections",
        s.events,
        s.bytes,
        s.participants,
        s.tables,
        s.results,
        s.ruling_total(),
        if kinds.is_empty() { String::new() } else { format!(" ({})", kinds.join(", ")) },
        s.corrections,
    ) + &if s.penalties > 0 { format!(", {} penalties", s.penalties) } else { String::new() }
}

/// `frekans export`: the scored championship (or one session of it) as USEBIO 1.2 or PBN 2.1,
/// written to `out` whole or not at all (a temporary file beside it, synced, renamed).
pub fn export(
    path: &Path,
    format: &str,
    out: &Path,
    session: Option<&str>,
) -> Result<String, AppError> {
    let bytes = export_bytes(&read_file(path)?, format, session)?;
    write_file_atomic(out, &bytes)?;
    Ok(format!(
        "wrote {} ({format}, {} bytes)\n",
        out.display(),
        bytes.len()
    ))
}

/// The bytes `frekans export` writes for a log's bytes.
pub fn export_bytes(log: &[u8], format: &str, session: Option<&str>) -> Result<Vec<u8>, AppError> {
    let l = load_bytes(log, &ReplayScope::default())?;
    let state = &l.state;
    let only = match session {
        None => None,
        Some(id) => Some(state.session_index(id).ok_or_else(|| {
            AppError::BadRequest(format!(
                "invalid export request: the log has no session {id:?}"
            ))
        })?),
    };
    let scored = pipeline::score(state)?;
    let sessions = export::results::sessions(state, &scored, only);
    for s in &sessions {
        if s.kind.seated && format == "pbn" {
            return Err(AppError::BadRequest(format!(
                "invalid export request: session {} is an {} session, and PBN 2.1 has no column for the {} in each seat (its score tables name two pairs, PairId_NS and PairId_EW); export it as usebio",
                s.id, s.kind.declared, s.kind.noun
            )));
        }
        let said = |f: Form| match format {
            "usebio" => f.spec().usebio.is_some(),
            _ => f.spec().pbn.is_some(),
        };
        if !said(s.form) {
            return Err(AppError::BadRequest(format!(
                "invalid export request: session {} is scored {}, which {format} cannot say (it holds {}); export the other sessions with --session",
                s.id,
                s.form.name(),
                Form::listed(said, Form::title, "and")
            )));
        }
    }
    let bytes = match format {
        "usebio" => export::usebio::write(state, &sessions),
        "pbn" => export::pbn::write(state, &sessions),
        f => {
            return Err(AppError::BadRequest(format!(
                "invalid export request: --format {f:?}; expected usebio or pbn"
            )))
        }
    };
    bytes.map_err(|e| AppError::Other(anyhow::anyhow!("cannot write {format}: {e}")))
}

/// Write a file whole or not at all: a unique temporary file beside it (or beside a symlink's
/// target), created exclusively, synced, renamed over it, the directory synced
/// (`outfile::FileOut`).
pub fn write_file_atomic(out: &Path, bytes: &[u8]) -> Result<(), AppError> {
    use std::io::Write as _;
    let mut o = crate::outfile::FileOut::create(out)?;
    o.file()
        .write_all(bytes)
        .with_context(|| format!("cannot write {}", o.tmp().display()))?;
    o.finish()?;
    Ok(())
}

/// What `frekans import` was asked (its flags).
#[derive(Clone, Debug, Default)]
pub struct ImportRequest {
    pub out: Option<std::path::PathBuf>,
    pub append: Option<std::path::PathBuf>,
    pub format: Option<String>,
    pub form: Option<String>,
    pub compare: Option<String>,
    pub options: Option<String>,
    pub columns: Option<String>,
    pub lenient: bool,
    pub strict: bool,
    /// The time written as each event's `at` (`Context::at`).
    pub at: String,
}

/// `frekans import`: the files read into a new log (`out`) or appended to one (`append`); a
/// report of what was written, or every problem (exit 2, nothing written).
pub fn import(
    ctx: &super::Context,
    files: &[std::path::PathBuf],
    r: &ImportRequest,
) -> Result<String, AppError> {
    use crate::import::{self, Format, ImportError};
    let bad = |m: String| AppError::BadRequest(format!("cannot import: {m}"));
    let options = match &r.options {
        None => serde_json::Map::new(),
        Some(text) => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => return Err(bad(format!("--options must be a JSON object such as '{{\"ximp_normalize\":\"comparisons\"}}', found {text:?}"))),
        },
    };
    let columns = match &r.columns {
        None => import::csv::Columns::default(),
        Some(c) => import::csv::Columns::parse(c).map_err(|e| bad(e.to_string()))?,
    };
    let opts = import::ImportOptions {
        format: r.format.as_deref().and_then(Format::parse),
        req: import::Request {
            form: r.form.clone(),
            compare: r.compare.clone(),
            options,
            lenient: r.lenient,
            strict: r.strict,
            world: ctx.world.clone(),
        },
        columns,
        now: r.at.clone(),
    };
    // (each stage of an import frees what the next allocates again)
    crate::memory::keep_freed_memory();
    let (done, to) = match (&r.out, &r.append) {
        (Some(out), None) => (import::import_new(files, out, &opts), out),
        (None, Some(log)) => (import::import_append(files, log, &opts), log),
        _ => {
            return Err(bad(
                "give --out LOG (a new log) or --append LOG (an existing one)".into(),
            ))
        }
    };
    match done {
        Ok(i) => Ok(import_report(&i, to, r.append.is_some())),
        Err(ImportError::Invalid(problems)) => {
            let mut m = format!(
                "cannot import: {} problem{}; nothing was written:\n",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            );
            for p in &problems {
                let _ = writeln!(m, "  {p}");
            }
            Err(AppError::BadRequest(m.trim_end().to_string()))
        }
        Err(ImportError::Io(e)) => Err(AppError::Other(anyhow::Error::new(e))),
    }
}

pub(super) fn import_report(i: &crate::import::Imported, to: &Path, appended: bool) -> String {
    let mut out = String::new();
    for (file, format, sessions) in &i.files {
        let _ = writeln!(
            out,
            "{file} ({}): session {}",
            format.name(),
            sessions.join(", ")
        );
    }
    if appended && i.events == 0 {
        let _ = writeln!(
            out,
            "nothing new: {} already has everything these files hold; nothing was appended",
            to.display()
        );
    } else {
        let _ = writeln!(
            out,
            "{} {} events (seq {}..={}) {} {}, {} new participants",
            if appended { "appended" } else { "wrote" },
            i.events,
            i.first_seq,
            i.first_seq + i.events.saturating_sub(1),
            if appended { "to" } else { "in" },
            to.display(),
            i.new_participants
        );
    }
    for p in &i.skipped {
        let _ = writeln!(out, "skipped: {p}");
    }
    out.push_str(&super::notices::printed_texts(&i.notices, "notice: "));
    out
}
