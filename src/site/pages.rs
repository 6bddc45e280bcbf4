//! The website's pages: the view model (as JSON data, control characters escaped as in the PDF,
//! `crate::text`) rendered through the templates of `templates/`, with minijinja's HTML
//! auto-escaping (every template is named `*.html`), and the addresses of `super`.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use anyhow::{Context, Result};
use minijinja::Environment;
use serde_json::{json, Map, Value};

use super::{board_href, card_href, session_href, slug};
use crate::report::view::{Bulletin, ParticipantView};

/// The templates, by name (the `.html` suffix turns on HTML escaping).
const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("templates/base.html")),
    ("macros.html", include_str!("templates/macros.html")),
    ("index.html", include_str!("templates/index.html")),
    ("session.html", include_str!("templates/session.html")),
    ("overall.html", include_str!("templates/overall.html")),
    ("card.html", include_str!("templates/card.html")),
    ("board.html", include_str!("templates/board.html")),
    ("rulings.html", include_str!("templates/rulings.html")),
];

/// Rows of standings on one page (a 100,000-pair field's standings are paged: no page over 1 MB).
const STANDINGS_PER_PAGE: usize = 1000;
/// Scorecard links on one page of the index.
const CARDS_PER_PAGE: usize = 2000;
/// Rulings on one page of the rulings.
const RULINGS_PER_PAGE: usize = 200;
/// Movers shown under a ruling.
const MOVERS_PER_RULING: usize = 10;
/// Adjusted scores shown on a board's page (all of them are in scores.parquet).
const ADJUSTED_PER_BOARD: usize = 100;

/// The address of page `k` (from 0) of a paged page `base` (`sessions/S1`): `base.html`, then
/// `base-p2.html`... (`-` is never in a slug, so no id's page is taken).
fn paged(base: &str, k: usize) -> String {
    if k == 0 {
        format!("{base}.html")
    } else {
        format!("{base}-p{}.html", k + 1)
    }
}

/// The links between the pages of a paged page, from page `k` of `n` (file names: the pages
/// are in one directory).
fn pager(base: &str, k: usize, n: usize) -> Value {
    if n < 2 {
        return Value::Null;
    }
    let name = base.rsplit('/').next().unwrap_or(base);
    Value::from(
        (0..n)
            .map(|i| json!({"href": paged(name, i), "label": i + 1, "current": i == k}))
            .collect::<Vec<_>>(),
    )
}

/// The style sheet: phone first, no web fonts, no script.
const STYLE: &str = include_str!("templates/style.css");

/// Render every page of the site, handing each to `sink` (its path under the output directory,
/// its bytes) as soon as it is made, in no particular order; returns the number of board pages.
/// Nothing proportional to the whole field is made per page, and no page is kept: a writer that
/// streams pages holds one at a time (a 100,000-pair field's scorecards are turned into page
/// data one participant at a time).
pub fn render_each(
    model: &Bulletin,
    participants: &[ParticipantView],
    lang: &str,
    sink: &mut dyn FnMut(String, Vec<u8>) -> Result<()>,
) -> Result<usize> {
    let teams: Arc<HashSet<String>> = Arc::new(
        participants
            .iter()
            .filter(|p| p.team)
            .map(|p| p.id.clone())
            .collect(),
    );
    let mut env = Environment::new();
    for (name, src) in TEMPLATES {
        env.add_template(name, src)
            .with_context(|| format!("template {name}"))?;
    }
    // HTML-escaped as minijinja does, but `/` left as it is (addresses stay readable).
    env.set_formatter(|out, state, value| match value.as_str() {
        Some(s)
            if !value.is_safe() && matches!(state.auto_escape(), minijinja::AutoEscape::Html) =>
        {
            out.write_str(&escape_html(s)).map_err(|e| {
                minijinja::Error::new(minijinja::ErrorKind::WriteFailure, e.to_string())
            })
        }
        _ => minijinja::escape_formatter(out, state, value),
    });
    let t = teams.clone();
    env.add_filter("card", move |id: String| card_href(&id, t.contains(&id)));
    env.add_filter("slug", |id: String| slug(&id));
    env.add_filter("contract", contract_markup);

    let mut data = serde_json::to_value(model)?;
    crate::text::escape_json(&mut data);
    let labels = super::labels::labels(lang);
    let sessions = data["sessions"].as_array().cloned().unwrap_or_default();
    let overall = data["overall"].as_array().cloned().unwrap_or_default();
    let mut rulings = data["rulings"].as_array().cloned().unwrap_or_default();

    let base = json!({
        "lang": lang,
        "L": labels,
        "ch": data["championship"],
        "has_overall": !overall.is_empty(),
        "has_rulings": !rulings.is_empty(),
        "suit_names": [labels["spades"], labels["hearts"], labels["diamonds"], labels["clubs"]],
    });
    let page = |root: &str, extra: Value| -> Value {
        let mut m: Map<String, Value> = base.as_object().cloned().unwrap_or_default();
        m.insert("root".into(), Value::from(root));
        if let Value::Object(e) = extra {
            m.extend(e);
        }
        Value::Object(m)
    };
    let render = |name: &str, ctx: &Value| -> Result<Vec<u8>> {
        Ok(env
            .get_template(name)?
            .render(minijinja::value::Serde(ctx))
            .with_context(|| format!("rendering {name}"))?
            .into_bytes())
    };

    // Each board's page: every scored part of a board (a team board's matches) on one page.
    let mut board_pages: BTreeMap<(usize, String), Vec<Value>> = BTreeMap::new();
    let mut session_boards: Vec<Vec<(String, String)>> = Vec::new();
    for (i, s) in sessions.iter().enumerate() {
        let sid = s["id"].as_str().unwrap_or_default();
        // A team board's rooms, from its match's sheet: (match, board) → the match's row.
        let mut rooms: BTreeMap<(&str, u64), Value> = BTreeMap::new();
        for m in s["matches"].as_array().into_iter().flatten() {
            let id = m["match"].as_str().unwrap_or_default();
            for r in m["sheet"].as_array().into_iter().flatten() {
                let n = r["board"].as_u64().unwrap_or_default();
                let row = json!({"home": m["home"], "away": m["away"],
                    "home_id": m["home_id"], "away_id": m["away_id"],
                    "open": r["open"], "closed": r["closed"],
                    "score_home": r["home"], "score_away": r["away"]});
                rooms.insert((id, n), row);
            }
        }
        let mut order: Vec<(Option<String>, u64, String)> = Vec::new();
        for b in s["boards"].as_array().into_iter().flatten() {
            let section = b["section"].as_str().map(str::to_string);
            let n = b["board"].as_u64().unwrap_or_default();
            let href = board_href(sid, section.as_deref(), n as u32);
            if !board_pages.contains_key(&(i, href.clone())) {
                order.push((section, n, href.clone()));
            }
            let mut b = b.clone();
            if let Some(m) = b["match"].as_str() {
                if let Some(r) = rooms.get(&(m, n)) {
                    b["rooms"] = r.clone();
                }
            }
            let shown = b["adjusted"].as_array().map_or(0, Vec::len);
            if shown > ADJUSTED_PER_BOARD {
                b["adjusted_total"] = Value::from(shown);
                if let Some(a) = b["adjusted"].as_array_mut() {
                    a.truncate(ADJUSTED_PER_BOARD);
                }
            }
            board_pages.entry((i, href)).or_default().push(b);
        }
        order.sort();
        session_boards.push(
            order
                .into_iter()
                .map(|(sec, n, href)| {
                    let label = match sec {
                        Some(x) => format!("{x} {n}"),
                        None => n.to_string(),
                    };
                    (href, label)
                })
                .collect(),
        );
    }
    let mut boards = 0;
    for (i, list) in session_boards.iter().enumerate() {
        let s = &sessions[i];
        let sid = s["id"].as_str().unwrap_or_default();
        for (k, (href, _)) in list.iter().enumerate() {
            let parts = &board_pages[&(i, href.clone())];
            let first = &parts[0];
            let ctx = page(
                "../",
                json!({"page": {
                    "session": sid,
                    "session_href": session_href(sid),
                    "teams": s["teams"],
                    "unit": if s["form"] == "teams" { "IMP" } else { labels["bp"] },
                    "section": first["section"],
                    "board": first["board"],
                    "parts": parts,
                    "prev": k.checked_sub(1).map(|p| format!("../{}", list[p].0)),
                    "next": list.get(k + 1).map(|n| format!("../{}", n.0)),
                }}),
            );
            sink(href.clone(), render("board.html", &ctx)?)?;
            boards += 1;
        }
        let links: Vec<Value> = list
            .iter()
            .map(|(href, label)| json!({"href": href, "label": label}))
            .collect();
        // The standings, paged: each page holds up to STANDINGS_PER_PAGE rows of its groups.
        // (each page's rows referenced, not copied: a 100,000-pair group is 100 pages)
        let mut pages: Vec<Vec<(&Value, &[Value])>> = vec![Vec::new()];
        let mut on_page = 0;
        for g in s["standings"].as_array().into_iter().flatten() {
            let rows = g["rows"].as_array().map_or(&[][..], Vec::as_slice);
            for chunk in rows.chunks(STANDINGS_PER_PAGE) {
                if on_page > 0 && on_page + chunk.len() > STANDINGS_PER_PAGE {
                    pages.push(Vec::new());
                    on_page = 0;
                }
                on_page += chunk.len();
                pages.last_mut().expect("a page").push((g, chunk));
            }
        }
        let base = session_href(sid);
        let base = base.trim_end_matches(".html");
        let n = pages.len();
        // The session without its boards and standings (the page has its own rows; the boards
        // are linked, `board_links`).
        let mut bare: Map<String, Value> = Map::new();
        for (key, v) in s.as_object().into_iter().flatten() {
            if key != "standings" && key != "boards" {
                bare.insert(key.clone(), v.clone());
            }
        }
        for (k, groups) in pages.into_iter().enumerate() {
            let mut sp = bare.clone();
            let groups: Vec<Value> = groups
                .into_iter()
                .map(|(g, chunk)| {
                    let mut part: Map<String, Value> = g
                        .as_object()
                        .into_iter()
                        .flatten()
                        .filter(|(key, _)| *key != "rows")
                        .map(|(key, v)| (key.clone(), v.clone()))
                        .collect();
                    part.insert("rows".into(), Value::from(chunk.to_vec()));
                    Value::Object(part)
                })
                .collect();
            sp.insert("standings".into(), Value::from(groups));
            if k > 0 {
                sp.insert("matches".into(), Value::Array(Vec::new()));
            }
            let ctx = page(
                "../",
                json!({"s": sp, "board_links": links, "pages_nav": pager(base, k, n)}),
            );
            sink(paged(base, k), render("session.html", &ctx)?)?;
        }
    }

    // Scorecards, each board linking to its page (one participant's page data at a time); and
    // where each ruling's board page is (the section of its NS pair's row).
    let mut section_of: BTreeMap<(String, u64, String), Option<String>> = rulings
        .iter()
        .map(|r| {
            let key = (
                r["session"].as_str().unwrap_or_default().to_string(),
                r["board"].as_u64().unwrap_or_default(),
                r["ns"].as_str().unwrap_or_default().to_string(),
            );
            (key, None)
        })
        .collect();
    let mut shown_people = Vec::new();
    for person in participants {
        if person.cards.is_empty() {
            continue;
        }
        let mut p = serde_json::to_value(person)?;
        crate::text::escape_json(&mut p);
        let id = p["id"].as_str().unwrap_or_default().to_string();
        let team = p["team"].as_bool().unwrap_or(false);
        for c in p["cards"].as_array_mut().into_iter().flatten() {
            let sid = c["session"].as_str().unwrap_or_default().to_string();
            for r in c["rows"].as_array_mut().into_iter().flatten() {
                let section = r["section"].as_str().map(str::to_string);
                let n = r["board"].as_u64().unwrap_or_default();
                r["href"] = Value::from(board_href(&sid, section.as_deref(), n as u32));
                if let Some(x) = section_of.get_mut(&(sid.clone(), n, id.clone())) {
                    *x = section;
                }
            }
        }
        let ctx = page("../", json!({"p": p}));
        sink(card_href(&id, team), render("card.html", &ctx)?)?;
        shown_people.push(json!({"id": p["id"], "name": p["name"], "cards": true}));
    }

    for r in &mut rulings {
        // The biggest movers only (the audit lists five per standings group: a field of many
        // sections would list hundreds a ruling); `frekans audit` tells the rest.
        if let Some(shown) = r
            .get_mut("changes")
            .and_then(|c| c.get_mut("shown"))
            .and_then(Value::as_array_mut)
        {
            shown.truncate(MOVERS_PER_RULING);
        }
        let sid = r["session"].as_str().unwrap_or_default().to_string();
        let n = r["board"].as_u64().unwrap_or_default();
        let ns = r["ns"].as_str().unwrap_or_default().to_string();
        let section = section_of.get(&(sid.clone(), n, ns)).cloned().flatten();
        r["href"] = Value::from(board_href(&sid, section.as_deref(), n as u32));
        let status = r["status"].as_str().unwrap_or_default();
        r["status_text"] = Value::from(match status.split_once(':') {
            Some((_, by)) => format!("{} {by}", labels["superseded_by"]),
            None => labels.get(status).copied().unwrap_or(status).to_string(),
        });
    }
    let n = rulings.len().div_ceil(RULINGS_PER_PAGE);
    for (k, chunk) in rulings.chunks(RULINGS_PER_PAGE).enumerate() {
        let ctx = page(
            "",
            json!({"rulings": chunk, "pages_nav": pager("rulings", k, n)}),
        );
        sink(paged("rulings", k), render("rulings.html", &ctx)?)?;
    }
    if !overall.is_empty() {
        let overall_teams = overall
            .iter()
            .all(|r| r["id"].as_str().is_some_and(|id| teams.contains(id)));
        let n = overall.len().div_ceil(STANDINGS_PER_PAGE);
        for (k, chunk) in overall.chunks(STANDINGS_PER_PAGE).enumerate() {
            let ctx = page(
                "",
                json!({"overall": chunk, "overall_teams": overall_teams,
                       "pages_nav": pager("overall", k, n)}),
            );
            sink(paged("overall", k), render("overall.html", &ctx)?)?;
        }
    }
    let index_sessions: Vec<Value> = sessions
        .iter()
        .map(|s| {
            let sid = s["id"].as_str().unwrap_or_default();
            // Boards played (by number: a board of two sections is one board).
            let numbers: std::collections::BTreeSet<u64> = s["boards"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|b| b["board"].as_u64())
                .collect();
            json!({"id": sid, "name": s["name"], "form": s["form"],
                   "href": session_href(sid), "boards": numbers.len()})
        })
        .collect();
    // The index, its list of scorecards paged (the sessions on every page).
    let cards = shown_people;
    let n = cards.len().div_ceil(CARDS_PER_PAGE).max(1);
    for k in 0..n {
        let chunk = &cards
            [(k * CARDS_PER_PAGE).min(cards.len())..((k + 1) * CARDS_PER_PAGE).min(cards.len())];
        let ctx = page(
            "",
            json!({"sessions": index_sessions, "participants": chunk,
                   "rulings_count": rulings.len(), "pages_nav": pager("index", k, n)}),
        );
        sink(paged("index", k), render("index.html", &ctx)?)?;
    }
    sink("style.css".into(), STYLE.as_bytes().to_vec())?;
    Ok(boards)
}

/// Text as HTML: `&`, `<`, `>`, `"` and `'` as entities (safe in text and quoted attributes).
fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A contract or par text (`4S N =`, `5HX-E -300`) as HTML: escaped, each suit letter after a
/// level shown as its symbol (hearts and diamonds red, by the style sheet), with its name for
/// screen readers in the `title`.
fn contract_markup(text: String) -> minijinja::Value {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 32);
    for (k, &c) in chars.iter().enumerate() {
        let after_level = k > 0 && matches!(chars[k - 1], '1'..='7');
        let ends = chars
            .get(k + 1)
            .is_none_or(|n| matches!(n, ' ' | '-' | 'X'));
        let symbol = match c {
            'S' => Some(("♠", "s1")),
            'H' => Some(("♥", "s2")),
            'D' => Some(("♦", "s3")),
            'C' => Some(("♣", "s4")),
            _ => None,
        };
        match symbol {
            Some((sym, class)) if after_level && ends => {
                out.push_str(&format!("<span class=\"{class}\">{sym}</span>"));
            }
            _ => out.push_str(&escape_html(c.encode_utf8(&mut [0; 4]))),
        }
    }
    minijinja::Value::from_safe_string(out)
}

#[cfg(test)]
mod tests {
    use super::contract_markup;

    #[test]
    fn contracts_get_suit_symbols_and_nothing_else_is_markup() {
        assert_eq!(
            contract_markup("4S N =".into()).to_string(),
            "4<span class=\"s1\">♠</span> N ="
        );
        assert_eq!(
            contract_markup("5HX-E -300".into()).to_string(),
            "5<span class=\"s2\">♥</span>X-E -300"
        );
        assert_eq!(contract_markup("3NT S -1".into()).to_string(), "3NT S -1");
        assert_eq!(
            contract_markup("<b>4S</b>".into()).to_string(),
            "&lt;b&gt;4S&lt;/b&gt;"
        );
    }
}
