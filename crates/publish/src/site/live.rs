//! The projector page of a session being played (`frekans live`): `live.html`, in large type,
//! with the running standings of the session and the travellers of the boards every table has
//! played, the latest finished first (a board some table has still to play is never shown: the
//! screen would tell that table), refreshing itself every few seconds without script
//! (`<meta http-equiv="refresh">`). The standings can be hidden for the last rounds, as the
//! table terminals allow. Rendered through minijinja with HTML auto-escaping, so no name a
//! user typed becomes markup.

use crate::error::{Context, Foreign, Result};
use minijinja::Environment;
use serde_json::{json, Value};

use crate::report::view::Bulletin;

/// The page's file name in the site's directory.
pub const LIVE_PAGE: &str = "live.html";

const TEMPLATE: &str = include_str!("templates/live.html");

/// Boards shown (the latest finished) at most.
const LATEST_BOARDS: usize = 8;

/// Where the session stands, as the live run knows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveStatus {
    /// The last round entered and the movement's rounds (0 when unknown).
    pub round: u32,
    pub rounds: u32,
    /// Tables' boards entered, of those the movement has (0 when unknown).
    pub entered: usize,
    pub expected: usize,
    pub complete: bool,
    /// Hide the standings while the round is one of the last `hide_last` (until complete).
    pub hide_last: u32,
    /// Seconds between refreshes of the page.
    pub refresh: u64,
    /// The boards finished, latest first: (section, board).
    pub finished: Vec<(Option<String>, u32)>,
}

fn labels(lang: &str) -> Value {
    if lang == "pl" {
        json!({
            "live": "Na żywo", "results": "Wyniki", "complete": "Sesja zakończona",
            "round": "Runda", "of": "z", "entered": "wyników", "standings": "Klasyfikacja",
            "hidden": "Klasyfikacja ukryta do końca sesji", "section": "Sektor", "pair": "Para",
            "score": "Wynik", "latest": "Rozdania rozegrane", "board": "Rozdanie",
            "contract": "Kontrakt", "points": "Zapis", "none_yet": "Żadne rozdanie nie zostało jeszcze rozegrane przy wszystkich stołach."
        })
    } else {
        json!({
            "live": "Live", "results": "Results", "complete": "Session complete",
            "round": "Round", "of": "of", "entered": "results in", "standings": "Standings",
            "hidden": "Standings hidden until the end of the session", "section": "Section",
            "pair": "Pair", "score": "Score", "latest": "Boards played at every table", "board": "Board",
            "contract": "Contract", "points": "Points", "none_yet": "No board has been played at every table yet."
        })
    }
}

/// The page's labels, with the participants' nouns of a seated session (an individual's:
/// "Player") beside "Pair".
fn live_labels(lang: &str) -> Value {
    let mut l = labels(lang);
    if let Value::Object(m) = &mut l {
        for (k, v) in crate::report::seated::labels(lang) {
            m.entry(*k).or_insert_with(|| Value::from(*v));
        }
    }
    l
}

/// Whether the standings are hidden: the round being played is one of the last `hide_last`
/// and the session is not over.
pub fn hidden(s: &LiveStatus) -> bool {
    s.hide_last > 0 && !s.complete && s.rounds > 0 && s.round + s.hide_last > s.rounds
}

/// The page of the last session of `model`: its standings (unless [`hidden`]) and the boards
/// the status says are finished (every table that plays them has entered them: a board still
/// to be played somewhere is never shown), the latest first.
pub fn page(model: &Bulletin, status: &LiveStatus, lang: &str) -> Result<Vec<u8>> {
    let latest = &status.finished;
    let mut env = Environment::new();
    env.add_template("live.html", TEMPLATE)
        .foreign()
        .context("template live.html")?;
    let session = model.sessions.last();
    // (a session compared across the field has one traveller of a board for every section)
    let mut boards: Vec<&crate::report::view::BoardView> = Vec::new();
    for (section, board) in latest {
        let found = session.and_then(|s| {
            s.boards
                .iter()
                .find(|b| b.board == *board && (b.section.is_none() || b.section == *section))
        });
        if let Some(b) = found.filter(|b| !boards.iter().any(|x| std::ptr::eq(*x, *b))) {
            boards.push(b);
        }
        if boards.len() == LATEST_BOARDS {
            break;
        }
    }
    let mut data = json!({
        "lang": lang,
        "L": live_labels(lang),
        "ch": model.championship,
        "session": session,
        "latest": boards,
        "hidden": hidden(status),
        "complete": status.complete,
        "progress": {
            "round": status.round, "rounds": status.rounds,
            "entered": status.entered, "expected": status.expected,
        },
        "refresh": status.refresh.max(1),
    });
    crate::text::escape_json(&mut data);
    Ok(env
        .get_template("live.html")
        .foreign()?
        .render(minijinja::value::Serde(&data))
        .foreign()
        .context("rendering live.html")?
        .into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standings_hidden_only_in_the_last_rounds_until_complete() {
        let mut s = LiveStatus {
            round: 7,
            rounds: 9,
            hide_last: 2,
            ..LiveStatus::default()
        };
        assert!(!hidden(&s), "round 7 of 9 is not one of the last 2");
        s.round = 8;
        assert!(hidden(&s));
        s.complete = true;
        assert!(!hidden(&s), "the session over, the standings are shown");
        s.complete = false;
        s.hide_last = 0;
        assert!(!hidden(&s));
    }
}
