//! One function per command, composing the stages. The binary maps their results to exit codes.

use crate::world::World as _;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context as _;

use crate::audit::cache::{CacheBuilder, Store};
use crate::error::{InvalidLog, Notice};
use crate::event::Envelope;
use crate::export;
use crate::pipeline::{self, Scored};
use crate::replay::{ReplayScope, State};
use crate::score::{BoardScore, TeamBoardScore};

mod append;
mod audit_run;
pub mod context;
mod dataset;
mod interchange;
pub mod live;
mod loading;
pub mod notices;
mod publish;
pub mod run;
mod whatif;

use append::*;
pub use append::{append, cache_appended, AppendedLog};
use audit_run::*;
pub use audit_run::{audit, audit_bytes};
pub use context::Context;
pub use dataset::{
    dataset_add, dataset_list, dataset_remove, AddReport, DatasetAdd, LogOutcome, Outcome,
};
pub use interchange::{
    export, export_bytes, import, synth, synth_summary, write_file_atomic, ImportRequest,
};
use loading::*;
pub use loading::{load, load_bytes, LoadLog, Loaded};
pub use publish::{publish, site, PublishReport, SITE_DIR};
pub use whatif::{alternatives, read_proposals, whatif};

/// Why a command failed: the log is invalid (exit 2), or something else (exit 1).
#[derive(Debug)]
pub enum AppError {
    Invalid(InvalidLog),
    /// The command asks for something the log does not have (exit 2, like invalid input).
    BadRequest(String),
    Other(anyhow::Error),
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::Invalid(e) => write!(f, "{e}"),
            AppError::BadRequest(m) => f.write_str(m),
            AppError::Other(e) => write!(f, "{e:#}"),
        }
    }
}

/// A library's typed error refused as a bad request (exit 2), shown as it says it.
pub(crate) fn bad_request(e: impl std::fmt::Display) -> AppError {
    AppError::BadRequest(e.to_string())
}

impl From<InvalidLog> for AppError {
    fn from(e: InvalidLog) -> AppError {
        AppError::Invalid(e)
    }
}

impl From<anyhow::Error> for AppError {
    fn from(e: anyhow::Error) -> AppError {
        AppError::Other(e)
    }
}

/// The library's typed errors that are failures (exit 1), each shown with its chain of causes
/// (`{:#}`) as it was.
macro_rules! failures {
    ($($t:ty),* $(,)?) => {
        $(impl From<$t> for AppError {
            fn from(e: $t) -> AppError {
                AppError::Other(anyhow::Error::new(e))
            }
        })*
    };
}

failures!(crate::report::RenderError, crate::error::Failed);

impl From<pipeline::ScoreError> for AppError {
    fn from(e: pipeline::ScoreError) -> AppError {
        AppError::Other(anyhow::Error::new(e))
    }
}

impl From<crate::integrity::Failure> for AppError {
    /// A key, head or checkpoint file that cannot be read or written is a failure (exit 1, as
    /// a log that cannot be read); what it holds refused is a bad request (exit 2).
    fn from(e: crate::integrity::Failure) -> AppError {
        match e {
            crate::integrity::Failure::Io(m) => AppError::Other(anyhow::anyhow!(m)),
            crate::integrity::Failure::Refused(m) => AppError::BadRequest(m),
        }
    }
}

/// What `check` is also asked to prove (crate::integrity): that the log extends a published
/// head, and that its signed checkpoints are a key's and hold.
#[derive(Clone, Debug, Default)]
pub struct Proofs {
    pub head: Option<String>,
    pub key: Option<std::path::PathBuf>,
    pub sig: Option<std::path::PathBuf>,
}

/// `frekans check`: a one-paragraph report of a valid log, its head, and what `proofs` asked.
pub fn check(path: &Path, proofs: &Proofs) -> Result<String, AppError> {
    use crate::integrity;
    let log = LogBytes::open(path)?;
    // Every head on the way only when a proof needs them.
    let (l, head, heads) = if proofs.head.is_some() || proofs.key.is_some() {
        let l = LoadLog::default().bytes(log.bytes())?;
        crate::memory::memory("reading and replaying");
        let heads = integrity::heads(log.bytes()).map_err(bad_request)?;
        let head = integrity::Head {
            events: heads.len(),
            hash: heads
                .last()
                .map_or(crate::event::chain::GENESIS, String::as_str)
                .to_string(),
        };
        (l, head, heads)
    } else {
        let (l, head) = load_with_head(&log)?;
        (l, head, Vec::new())
    };
    drop(log);
    let mut proved = Vec::new();
    if let Some(text) = &proofs.head {
        let (n, hash) = integrity::parse_head(text).map_err(AppError::BadRequest)?;
        let at = integrity::extends(&heads, n, &hash).map_err(|e| {
            AppError::BadRequest(format!(
                "{} does not extend the published head: {e}",
                path.display()
            ))
        })?;
        proved.push(format!("extends the published head {hash} (event {at})"));
    }
    if let Some(key) = &proofs.key {
        let sig = proofs
            .sig
            .clone()
            .unwrap_or_else(|| integrity::sig_path(path));
        let last = integrity::verify(&heads, key, &sig).map_err(|e| {
            AppError::from(e.map(|m| format!("{}: signed checkpoints: {m}", path.display())))
        })?;
        proved.push(format!(
            "every signed checkpoint of {} holds (the latest at event {}, {})",
            sig.display(),
            last.events,
            last.hash
        ));
    }
    let st = &l.state;
    let mut out = String::new();
    let played = st.tables.values().filter(|t| t.played.is_some()).count();
    let in_force = st
        .rulings
        .iter()
        .filter(|r| r.status == crate::replay::RulingStatus::InForce)
        .count();
    let _ = writeln!(
        out,
        "{}: valid, {} events: {} sessions, {} participants, {} results, {} rulings ({} in force), {} penalties",
        path.display(),
        l.count,
        st.sessions.len(),
        st.participants.len(),
        played,
        st.rulings.len(),
        in_force,
        st.penalties.len()
    );
    let notices: Vec<&Notice> = st.notices.iter().collect();
    out.push_str(&notices::printed(&notices, "notice: "));
    let _ = writeln!(out, "head: {head}");
    for p in proved {
        let _ = writeln!(out, "{p}");
    }
    Ok(out)
}

/// `frekans sign`: the log (valid) signed at its head with the secret key `key`, the
/// checkpoint appended to `sig`.
pub fn sign(path: &Path, key: &Path, sig: &Path) -> Result<crate::integrity::Head, AppError> {
    let log = LogBytes::open(path)?;
    let (_, head) = load_with_head(&log)?;
    crate::integrity::sign(&head, key, sig)?;
    Ok(head)
}

/// What `score` did, for the terminal.
pub struct ScoreReport {
    pub scored: Scored,
    /// The replayed state; `score` frees its tables once the output rows are built (the
    /// Parquet files need only the boards and the participants), `results` says how many.
    pub state: State,
    /// The tables (results) of the log.
    pub results: usize,
}

/// The double-dummy table and par of every board with a `deal` event (deals.parquet); with
/// `cache` (the audit cache's directory), deals solved by an earlier run are taken from its
/// `dd` directory and new ones kept there.
pub fn double_dummy(
    state: &State,
    cache: Option<&Path>,
) -> Result<Vec<crate::dd::BoardDd>, AppError> {
    let _s = tracing::info_span!("double_dummy", deals = state.deals.len()).entered();
    let dir = cache.map(|d| d.join("dd"));
    crate::dd::solve_state(state, dir.as_deref())
        .map_err(|m| AppError::Other(anyhow::anyhow!(m.to_string())))
}

/// `frekans score`: replay, score, write the Parquet tables to `out` (with deals.parquet when
/// `dd`); with a cache directory, also leave the log's audit cache there (as the first audit
/// of the log would: the next `audit` is answered from it).
pub fn score(
    path: &Path,
    out: &Path,
    dd: bool,
    cache: Option<Store<'_>>,
) -> Result<ScoreReport, AppError> {
    // Streamed: no event is kept once replayed, and the log's bytes are freed before scoring.
    let want = run::Want {
        dd,
        ..Default::default()
    };
    let mut r = run::run(path, want, cache)?;
    let tables = run::rows(&r);
    // The tables (a million results: about a quarter of the memory) are not needed any more:
    // freed before the Parquet stage, the run's peak.
    let results = r.state.tables.len();
    drop(std::mem::take(&mut r.state.tables));
    {
        let _s = tracing::info_span!("parquet").entered();
        let _p = crate::progress::stage("writing Parquet");
        export::parquet::write_scored(out, &r.state, &r.scored, &tables)?;
    }
    crate::memory::memory("writing Parquet");
    Ok(ScoreReport {
        scored: r.scored,
        state: r.state,
        results,
    })
}

/// The short summary printed after `score`: each standings group's leaders, and the notices.
pub fn summary(r: &ScoreReport, lines_per_group: usize) -> String {
    let st = &r.state;
    let mut out = String::new();
    let boards = r.scored.board_count();
    let _ = writeln!(
        out,
        "scored {} sessions, {} boards (per comparison group), {} results, {} rulings in force",
        st.sessions.len(),
        boards,
        r.results,
        st.rulings
            .iter()
            .filter(|x| x.status == crate::replay::RulingStatus::InForce)
            .count()
    );
    let mut last: Option<(Option<usize>, Option<String>)> = None;
    let mut shown = 0;
    for s in &r.scored.standings {
        let group_section = if s.session.is_some()
            && st.sessions[s.session.unwrap()].def.compare == crate::options::Compare::Section
        {
            s.section.clone()
        } else {
            None
        };
        let key = (s.session, group_section.clone());
        if last.as_ref() != Some(&key) {
            let name = match s.session {
                Some(i) => format!("session {}", st.sessions[i].def.id),
                None => "overall".to_string(),
            };
            let sec = group_section
                .map(|x| format!(", section {x}"))
                .unwrap_or_default();
            let _ = writeln!(out, "\n{name}{sec}:");
            last = Some(key);
            shown = 0;
        }
        if shown >= lines_per_group {
            continue;
        }
        shown += 1;
        let p = st.participant(s.participant);
        let place = if s.rank == s.rank_to {
            format!("{}", s.rank)
        } else {
            format!("{}-{}", s.rank, s.rank_to)
        };
        let value = match s.pct() {
            Some(p) => format!("{:>7.2}%", p),
            None => format!("{:>8.2}", s.total.to_f64()),
        };
        let who = match &p.name {
            Some(n) => n.clone(),
            None => p.players.join(" – "),
        };
        // One line per pair: a line break in a name or id shown escaped too (crate::text).
        let (id, who) = (crate::text::escape(&p.id), crate::text::escape(&who));
        let _ = writeln!(out, "  {place:>5}  {id:<6} {value}  {who}");
    }
    let knockouts: Vec<_> = r
        .scored
        .matches
        .iter()
        .filter(|m| st.matches[&(m.session, m.match_id.clone())].def.knockout)
        .collect();
    if !knockouts.is_empty() {
        let _ = writeln!(out, "\nknockout matches:");
        for m in knockouts {
            let (h, a) = (&st.participant(m.home).id, &st.participant(m.away).id);
            let imps = match (m.imp_home, m.imp_away) {
                (Some(x), Some(y)) => format!(
                    "{} : {} IMPs",
                    crate::explain::show(x),
                    crate::explain::show(y)
                ),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "  {} {}: {h} v {a}  {imps} over {} boards",
                st.sessions[m.session].def.id, m.match_id, m.scored
            );
        }
    }
    if !r.scored.notices.is_empty() {
        let _ = writeln!(out, "\n{} notice(s):", r.scored.notices.len());
        let mut notices: Vec<&Notice> = r.scored.notices.iter().collect();
        notices.sort();
        out.push_str(&notices::printed(&notices, "  "));
    }
    out
}

/// `frekans explain`: score the session's boards and explain one of them.
///
/// With `proposals` (JSON texts, as `audit --with` takes them), the board as it would be with
/// them added at the end of the log: they are checked as `append` checks them (the same errors)
/// and never written.
pub fn explain(
    path: &Path,
    session: &str,
    board: u32,
    section: Option<&str>,
    proposals: &[String],
    now: &str,
) -> Result<String, AppError> {
    let mut head = String::new();
    let l = if proposals.is_empty() {
        load(path, &ReplayScope::default())?
    } else {
        use crate::audit::whatif;
        let bytes = read_file(path)?;
        let texts: Vec<&str> = proposals.iter().map(String::as_str).collect();
        let p =
            crate::event::append::propose(&bytes, &texts, now, None).map_err(AppError::Invalid)?;
        whatif::check_kinds(&p).map_err(bad_request)?;
        let all = whatif::with_lines(&bytes, &p);
        LoadLog::default().bytes(&all)?;
        let _ = writeln!(
            head,
            "What-if: the board with {} proposed event{} added at the end of the log (seq {} on; nothing written):",
            p.objects.len(),
            if p.objects.len() == 1 { "" } else { "s" },
            p.first_seq
        );
        for o in &p.objects {
            let _ = writeln!(head, "  proposed: {}", serde_json::Value::Object(o.clone()));
        }
        head.push('\n');
        load_bytes(&all, &ReplayScope::default())?
    };
    let st = &l.state;
    // (a session, board or section the log does not have is a bad request: exit 2)
    let s = st.session_index(session).ok_or_else(|| {
        AppError::BadRequest(format!("no session \"{session}\" in {}", path.display()))
    })?;
    // Score everything (the session's standings re-value artificial scores under
    // `mp_artificial: session_bounded`), then show the board.
    let scored = pipeline::score(st)?;
    let this = |b: &BoardScore| b.session == s && b.board == board;
    let text = if st.sessions[s].kind.in_matches {
        let boards: Vec<&TeamBoardScore> = scored
            .team_boards
            .iter()
            .filter(|t| this(&t.score))
            .collect();
        (!boards.is_empty()).then(|| crate::explain::team_boards(st, &boards))
    } else {
        let boards: Vec<&BoardScore> = scored.pair_boards.iter().filter(|b| this(b)).collect();
        (!boards.is_empty()).then(|| crate::explain::pair_boards(st, &boards, section))
    };
    let Some(text) = text else {
        return Err(AppError::BadRequest(format!(
            "board {board} of session \"{session}\" has no results"
        )));
    };
    let text = if text.is_empty() { text } else { head + &text };
    if text.is_empty() {
        return Err(AppError::BadRequest(format!(
            "board {board} of session \"{session}\" was not played in section \"{}\"",
            section.unwrap_or("")
        )));
    }
    Ok(text)
}

/// `frekans bulletin`: everything `score --dd` writes, plus bulletin.json, bulletin.typ and
/// bulletin.pdf, in one directory written whole or not at all; with a cache directory, also
/// the log's audit cache, as `score` leaves it.
pub fn bulletin(
    path: &Path,
    out: &Path,
    lang: &str,
    ctx: &Context,
) -> Result<ScoreReport, AppError> {
    let want = run::Want {
        events: true,
        dd: true,
        head: true,
    };
    let r = run::run(path, want, ctx.audit_cache())?;
    let model = run::view(&r, lang, &run::Limits::BULLETIN);
    let files = run::bulletin_files(&r, &model, (&*ctx.world, &ctx.typst))?;
    export::parquet::write_dir(out, files)?;
    Ok(ScoreReport {
        scored: r.scored,
        results: r.state.tables.len(),
        state: r.state,
    })
}
