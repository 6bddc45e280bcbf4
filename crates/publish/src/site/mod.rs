//! `frekans site`: the results website. Static HTML and one CSS file, no script, no server, no
//! network: it opens from disk (`file://`) and from any static host. Its content is the view
//! model of the bulletin (`crate::report::view`: built once by `report::model` and
//! `report::cards`), rendered through minijinja templates (`templates/*.html`) that escape
//! everything by default, so no name, note or ruling a user typed can become markup.
//!
//! Addresses are stable (spec: interface.md, "Results website"): `index.html`,
//! `sessions/S1.html` (standings per comparison group, matches, the boards), `overall.html`,
//! `pairs/A12.html`, `teams/T3.html` or `players/7.html` (a scorecard), `boards/S1-A-14.html` (session, section
//! when it has one, board), `rulings.html`. Ids are written into file names as they are when
//! made of ASCII letters, digits and `_`; any other byte is `~` and two hex digits (`-` is
//! `~2D`), so two ids never share a file and nothing escapes the site's directory; an id whose
//! name would pass 96 bytes is cut and ends with `~~` and a hash of it (`slug`), so that every
//! file name fits the system's 255 bytes.
//!
//! Long lists are paged so that no page passes 1 MB (`pages`): a session's and the overall
//! standings at 1,000 rows, the index's scorecards at 2,000, the rulings at 200; page k > 1 of
//! `overall.html` is `overall-pk.html` (`-` is never in a slug, so no id's page is taken).

pub mod labels;
pub mod live;
pub mod pages;

/// What `frekans site` wrote.
pub struct SiteReport {
    pub pages: usize,
    pub boards: usize,
    pub participants: usize,
}

/// Render the site of a scored championship whose view model is `model`, handing each file to
/// `put` (its path under the site's directory, its bytes) as it is made (`frekans live`).
pub fn write(
    state: &crate::replay::State,
    scored: &crate::pipeline::Scored,
    model: &crate::report::view::Bulletin,
    lang: &str,
    put: &mut (dyn FnMut(&str, &[u8]) -> crate::error::Result<()> + Send),
) -> crate::error::Result<SiteReport> {
    write_owned(state, scored, model.clone(), lang, put)
}

/// [`write`] of a model the site takes (`frekans site`, `frekans publish`): it is taken apart
/// as its pages are made, so that it and the pages' data are never held whole together. The
/// pages are made on this thread and handed to `put` on another (a few at a time, in the
/// order they are made), so that writing them overlaps making the next; the first error
/// either way stops both.
pub fn write_owned(
    state: &crate::replay::State,
    scored: &crate::pipeline::Scored,
    model: crate::report::view::Bulletin,
    lang: &str,
    put: &mut (dyn FnMut(&str, &[u8]) -> crate::error::Result<()> + Send),
) -> crate::error::Result<SiteReport> {
    let cpu = cpu_seconds();
    let participants = crate::report::cards::build(state, scored);
    let shown = participants.iter().filter(|p| !p.cards.is_empty()).count();
    let mut files = 0;
    let boards = {
        let _s = tracing::info_span!("site").entered();
        let _p = crate::progress::stage("writing the pages");
        std::thread::scope(|scope| -> crate::error::Result<usize> {
            let (tx, rx) = std::sync::mpsc::sync_channel::<(String, Vec<u8>)>(PAGES_IN_FLIGHT);
            let writer = std::thread::Builder::new()
                .name("site-writer".into())
                .spawn_scoped(scope, move || -> crate::error::Result<()> {
                    for (name, bytes) in rx {
                        put(&name, &bytes)?;
                    }
                    Ok(())
                })?;
            let made = pages::render_each(model, participants, lang, &mut |name, bytes| {
                files += 1;
                tx.send((name, bytes))
                    .map_err(|_| crate::error::Failed::said("the site's writer stopped"))
            });
            drop(tx);
            let written = match writer.join() {
                Ok(w) => w,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            // The writer's error first: a page it could not write stops the rendering.
            written?;
            made
        })?
    };
    if let (Some(a), Some(b)) = (cpu, cpu_seconds()) {
        let ms = (b - a) * 1000.0 / files.max(1) as f64;
        tracing::info!(
            pages = files,
            cpu_s = format!("{:.2}", b - a),
            cpu_ms_a_page = format!("{ms:.3}"),
            rss_mib = crate::memory::rss_mib(),
            "site: the pages made and written"
        );
    }
    Ok(SiteReport {
        pages: files,
        boards,
        participants: shown,
    })
}

/// The CPU time this process has used so far (every thread's, user and system), in seconds.
fn cpu_seconds() -> Option<f64> {
    // SAFETY: getrusage fills the struct it is given; a zeroed rusage is a valid one.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `u` is a valid, writable rusage.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return None;
    }
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    Some(t(u.ru_utime) + t(u.ru_stime))
}

/// Pages made and not yet written, at most (a scorecard is about 12 kB).
const PAGES_IN_FLIGHT: usize = 64;

/// The longest slug kept whole, in bytes: a board's file name holds two (`S1-A-14.html`), and a
/// file name may have 255 bytes.
const SLUG_MAX: usize = 96;

/// The hex digits of the id's SHA-256 a shortened slug ends with (96 bits).
const SLUG_HASH: usize = 24;

/// An id as part of a file name: ASCII letters, digits and `_` as they are, any other byte as
/// `~` and two hex digits (injective; no `/`, `.` or `-` survives). A slug longer than
/// [`SLUG_MAX`] bytes (an id of 300 characters, or of 40 written in another alphabet) would
/// make a file name the system refuses: it is cut (never inside a `~XX`) and ends with `~~`
/// and the first 24 hex digits of the id's SHA-256 — still stable, still distinct from every
/// slug kept whole (none has `~~`) and from every other shortened one (but for a collision of
/// 96 bits of SHA-256).
pub fn slug(id: &str) -> String {
    let mut s = String::with_capacity(id.len());
    // Where the slug may be cut: the end of each byte's part.
    let mut cut = 0;
    let keep = SLUG_MAX - 2 - SLUG_HASH;
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b == b'_' {
            s.push(b as char);
        } else {
            s.push_str(&format!("~{b:02X}"));
        }
        if s.len() <= keep {
            cut = s.len();
        }
    }
    if s.is_empty() {
        s.push('~');
    }
    if s.len() > SLUG_MAX {
        use sha2::Digest;
        let hash = hex::encode(sha2::Sha256::digest(id.as_bytes()));
        s.truncate(cut);
        s.push_str("~~");
        s.push_str(&hash[..SLUG_HASH]);
    }
    s
}

/// A board page's address, from the site's root.
pub fn board_href(session: &str, section: Option<&str>, board: u32) -> String {
    match section {
        Some(x) => format!("boards/{}-{}-{board}.html", slug(session), slug(x)),
        None => format!("boards/{}-{board}.html", slug(session)),
    }
}

/// A scorecard's address, from the site's root: in the folder of what the participant is
/// ([`card_dir`]: `pairs`, `teams`, `players`).
pub fn card_href(id: &str, dir: &str) -> String {
    format!("{dir}/{}.html", slug(id))
}

/// The folder of a participant's scorecard: its noun's plural (a team's `teams`, a player's of
/// an individual event `players`, else `pairs`).
pub fn card_dir(team: bool, noun: Option<&str>) -> String {
    format!("{}s", if team { "team" } else { noun.unwrap_or("pair") })
}

/// A session page's address, from the site's root.
pub fn session_href(session: &str) -> String {
    format!("sessions/{}.html", slug(session))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_as_the_spec_names_them() {
        assert_eq!(board_href("S1", Some("A"), 14), "boards/S1-A-14.html");
        assert_eq!(board_href("S1", None, 3), "boards/S1-3.html");
        assert_eq!(card_href("A12", &card_dir(false, None)), "pairs/A12.html");
        assert_eq!(card_href("T3", &card_dir(true, None)), "teams/T3.html");
        assert_eq!(
            card_href("7", &card_dir(false, Some("player"))),
            "players/7.html"
        );
    }

    #[test]
    fn ids_never_collide_nor_leave_the_directory() {
        assert_eq!(slug("../x"), "~2E~2E~2Fx");
        assert_ne!(
            board_href("S1-A", None, 14),
            board_href("S1", Some("A"), 14)
        );
        assert_eq!(slug("Ł"), "~C5~81");
        assert_eq!(slug(""), "~");
    }

    /// An id too long for a file name gets a short, stable name of its own: a prefix of its
    /// slug, `~~` and a hash of the id. Ids that share the prefix get different names, and
    /// none is the name of an id kept whole.
    #[test]
    fn a_long_id_gets_a_short_stable_name() {
        let long = "P".repeat(300);
        let s = slug(&long);
        assert!(s.len() <= SLUG_MAX, "{} bytes", s.len());
        assert!(s.starts_with(&"P".repeat(70)) && s.contains("~~"), "{s}");
        assert_eq!(s, slug(&long), "stable");
        let other = format!("{}Q", "P".repeat(299));
        assert_ne!(slug(&other), s);
        assert_eq!(slug(&other)[..72], s[..72], "the same prefix, another hash");
        // Exactly at the limit: kept whole; one byte over: shortened.
        let at = "x".repeat(SLUG_MAX);
        assert_eq!(slug(&at), at);
        let over = "x".repeat(SLUG_MAX + 1);
        assert!(slug(&over).contains("~~") && slug(&over).len() <= SLUG_MAX);
        // Never cut inside an escape; no byte escaped alone as `~~`.
        let polish = "Ł".repeat(100);
        let s = slug(&polish);
        let (prefix, hash) = s.split_once("~~").unwrap();
        assert_eq!(prefix.len() % 3, 0, "{s}");
        assert!(
            prefix
                .as_bytes()
                .chunks(3)
                .all(|c| c == b"~C5" || c == b"~81"),
            "{s}"
        );
        assert_eq!(hash.len(), SLUG_HASH);
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()));
        // Every address made of the longest slugs fits in a file name.
        let name = board_href(&long, Some(&polish), 4_000_000_000);
        let file = name.rsplit('/').next().unwrap();
        assert!(file.len() <= 255, "{} bytes: {file}", file.len());
        assert!(card_href(&long, "players").len() < 255);
    }
}
