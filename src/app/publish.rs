//! `frekans site` (the results website from one run) and `frekans publish`, the director's
//! nightly command: from one run (one read, one scoring, one
//! double-dummy pass, the rulings audited once: [`super::run`]) the Parquet tables and the PDF
//! bulletin, exactly as `bulletin` writes them, and under `site/` the results website, exactly
//! as `site` writes it — into a directory rewritten only where its bytes change
//! (`crate::outfile::Incremental`: after one appended ruling, the pages of that board, the
//! scorecards whose scores moved, the standings, the index, the rulings, the tables and the
//! PDF; every other page keeps its file).

use super::*;

/// `frekans site LOG --out DIR [--lang en|pl]`: the run every output composes
/// (`crate::app::run`: read, score, solve the deals double dummy with the solved-deals cache of
/// `cache` and leave the log's audit cache there, as `bulletin`), the view model with its
/// rulings audited, and the site written into `out` page by page, whole or not at all: a new
/// tree built beside `out` and swapped with it, the pages whose bytes are unchanged linked from
/// the old one, every other file of `out` kept (`crate::outfile::Incremental::begin_unlisted`).
pub fn site(
    log: &Path,
    out: &Path,
    lang: &str,
    cache: Option<crate::audit::cache::Store<'_>>,
) -> Result<crate::site::SiteReport, AppError> {
    use run::Want;
    let want = Want {
        events: true,
        dd: true,
        head: false,
    };
    let mut r = run::run(log, want, cache)?;
    let model = run::view(&r, lang, &run::Limits::SITE);
    free_events(&mut r);
    let mut w = crate::outfile::Incremental::begin_unlisted(out)?;
    let report = crate::site::write_owned(&r.state, &r.scored, model, lang, &mut |name, bytes| {
        w.put(name, bytes)
    })
    .map_err(AppError::from)?;
    w.commit()?;
    Ok(report)
}

/// The run's events, needed no more once its rulings are audited, freed before the pages are
/// made (a million results' events are hundreds of MB).
fn free_events(r: &mut run::Run) {
    drop(std::mem::take(&mut r.events));
    crate::memory::release_freed_memory();
    crate::memory::memory("auditing the rulings (their events freed)");
}

/// Where the website goes in publish's directory.
pub const SITE_DIR: &str = "site";

/// What `publish` made and what it did to its directory.
pub struct PublishReport {
    pub score: ScoreReport,
    pub site: crate::site::SiteReport,
    pub published: crate::outfile::Published,
}

/// `frekans publish LOG --out DIR`: `bulletin`'s files in `out`, `site`'s in `out/site`, made
/// from one run and written where they differ from what `out` holds (a failure anywhere leaves
/// `out` as it was). With a cache directory, solved deals are read and kept there and the log's
/// audit cache is left there, as `bulletin` does.
pub fn publish(
    path: &Path,
    out: &Path,
    lang: &str,
    ctx: &super::context::Context,
) -> Result<PublishReport, AppError> {
    let want = run::Want {
        events: true,
        dd: true,
        head: true,
    };
    let mut r = run::run(path, want, ctx.audit_cache())?;
    // The site's model, its rulings audited once; the bulletin's, cut shorter, takes their
    // effects from it (the site does not show the head the bulletin prints).
    let model = run::view(&r, lang, &run::Limits::SITE);
    let files = {
        let bulletin = run::view_from(&r, lang, &run::Limits::BULLETIN, &model);
        run::bulletin_files(&r, &bulletin, (&*ctx.world, &ctx.typst))?
    };
    free_events(&mut r);
    let mut w = crate::outfile::Incremental::begin(out)?;
    for (name, bytes) in files {
        w.put(&name, &bytes)?;
    }
    let site = crate::site::write_owned(&r.state, &r.scored, model, lang, &mut |name, bytes| {
        w.put(&format!("{SITE_DIR}/{name}"), bytes)
    })
    .map_err(AppError::from)?;
    let published = {
        let _s = tracing::info_span!("publish_commit").entered();
        w.commit()?
    };
    Ok(PublishReport {
        score: ScoreReport {
            scored: r.scored,
            results: r.state.tables.len(),
            state: r.state,
        },
        site,
        published,
    })
}
