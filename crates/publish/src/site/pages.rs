//! The website's pages: the view model (as JSON data, control characters escaped as in the PDF,
//! `crate::text`) rendered through the templates of `templates/`, with minijinja's HTML
//! auto-escaping (every template is named `*.html`), and the addresses of `super`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use crate::error::{Context, Foreign, Result};
use minijinja::{Environment, Value as MjValue};
use serde_json::{json, Map, Value};

use super::{board_href, card_dir, card_href, session_href, slug};
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

/// A value of the view model as a template's value.
fn mj<T: serde::Serialize + ?Sized>(x: &T) -> MjValue {
    MjValue::from(minijinja::value::Serde(x))
}

/// A part of the view model as JSON data, its control characters escaped (`crate::text`); the
/// part itself is dropped once converted.
fn data_of<T: serde::Serialize>(x: T) -> Result<Value> {
    let mut v = serde_json::to_value(&x)?;
    drop(x);
    crate::text::escape_json(&mut v);
    Ok(v)
}

/// The templates and what every page's context holds (`lang`, `L`, `ch`, `has_overall`,
/// `has_rulings`, `suit_names`), made into template values once: a page's context is these
/// (shared, not copied) and the page's own values.
struct Renderer {
    env: Environment<'static>,
    base: BTreeMap<&'static str, MjValue>,
}

impl Renderer {
    fn new(dirs: Arc<HashMap<String, String>>) -> Result<Renderer> {
        let mut env = Environment::new();
        for (name, src) in TEMPLATES {
            env.add_template(name, src)
                .foreign()
                .with_context(|| format!("template {name}"))?;
        }
        // HTML-escaped as minijinja does, but `/` left as it is (addresses stay readable).
        env.set_formatter(|out, state, value| match value.as_str() {
            Some(s)
                if !value.is_safe()
                    && matches!(state.auto_escape(), minijinja::AutoEscape::Html) =>
            {
                write_escaped(out, s).map_err(|e| {
                    minijinja::Error::new(minijinja::ErrorKind::WriteFailure, e.to_string())
                })
            }
            _ => minijinja::escape_formatter(out, state, value),
        });
        env.add_filter("card", move |id: String| {
            card_href(&id, dirs.get(&id).map_or("pairs", String::as_str))
        });
        env.add_filter("slug", |id: String| slug(&id));
        env.add_filter("contract", contract_markup);
        Ok(Renderer {
            env,
            base: BTreeMap::new(),
        })
    }

    /// Template `name` rendered with the common values, `root` (the way from the page to the
    /// site's root) and the page's own values.
    fn render(&self, name: &str, root: &str, own: &[(&'static str, MjValue)]) -> Result<Vec<u8>> {
        let mut ctx = self.base.clone();
        ctx.insert("root", MjValue::from(root));
        for (k, v) in own {
            ctx.insert(*k, v.clone());
        }
        Ok(self
            .env
            .get_template(name)
            .foreign()?
            .render(MjValue::from_object(ctx))
            .foreign()
            .with_context(|| format!("rendering {name}"))?
            .into_bytes())
    }
}

/// Render every page of the site, handing each to `sink` (its path under the output directory,
/// its bytes) as soon as it is made, in no particular order; returns the number of board pages.
/// Nothing proportional to the whole field is made per page, and no page is kept: a writer that
/// streams pages holds one at a time (a 100,000-pair field's scorecards are turned into page
/// data one participant at a time, each dropped once its page is made). The model is taken
/// apart as it is turned into page data, so that it and its data are not held whole together.
pub fn render_each(
    model: Bulletin,
    participants: Vec<ParticipantView>,
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
    // (the scorecards' folders of the participants not in `pairs/`)
    let dirs: Arc<HashMap<String, String>> = Arc::new(
        participants
            .iter()
            .filter(|p| p.team || p.noun.is_some())
            .map(|p| (p.id.clone(), card_dir(p.team, p.noun)))
            .collect(),
    );
    let mut r = Renderer::new(dirs)?;
    let Bulletin {
        championship,
        sessions,
        overall,
        overall_noun,
        rulings,
        ..
    } = model;
    let units: Vec<Option<&str>> = sessions.iter().map(|s| s.board_unit).collect();
    let mut sessions: Vec<Value> = sessions.into_iter().map(data_of).collect::<Result<_>>()?;
    let overall: Vec<Value> = overall.into_iter().map(data_of).collect::<Result<_>>()?;
    let mut rulings: Vec<Value> = rulings.into_iter().map(data_of).collect::<Result<_>>()?;
    let labels = super::labels::labels(lang);
    let suit_names = [
        labels["spades"],
        labels["hearts"],
        labels["diamonds"],
        labels["clubs"],
    ];
    r.base = BTreeMap::from([
        ("lang", MjValue::from(lang)),
        ("L", mj(&labels)),
        ("ch", mj(&data_of(championship)?)),
        ("has_overall", MjValue::from(!overall.is_empty())),
        ("has_rulings", MjValue::from(!rulings.is_empty())),
        ("suit_names", mj(&suit_names)),
    ]);
    let index_sessions = index_sessions(&sessions);
    let boards = session_pages(&r, &mut sessions, &units, &labels, sink)?;
    drop(sessions);
    let (section_of, shown_people) = card_pages(&r, participants, &rulings, sink)?;
    ruling_pages(&r, &mut rulings, &section_of, &labels, sink)?;
    if !overall.is_empty() {
        let overall_teams = overall
            .iter()
            .all(|r| r["id"].as_str().is_some_and(|id| teams.contains(id)));
        let n = overall.len().div_ceil(STANDINGS_PER_PAGE);
        for (k, chunk) in overall.chunks(STANDINGS_PER_PAGE).enumerate() {
            let own = [
                ("overall", mj(chunk)),
                ("overall_teams", MjValue::from(overall_teams)),
                ("overall_noun", MjValue::from(overall_noun)),
                ("pages_nav", mj(&pager("overall", k, n))),
            ];
            sink(paged("overall", k), r.render("overall.html", "", &own)?)?;
        }
    }
    // The index, its list of scorecards paged (the sessions on every page).
    let cards = shown_people;
    let n = cards.len().div_ceil(CARDS_PER_PAGE).max(1);
    let index_sessions = mj(&index_sessions);
    for k in 0..n {
        let chunk = &cards
            [(k * CARDS_PER_PAGE).min(cards.len())..((k + 1) * CARDS_PER_PAGE).min(cards.len())];
        let own = [
            ("sessions", index_sessions.clone()),
            ("participants", mj(chunk)),
            ("cards_noun", MjValue::from(overall_noun)),
            ("rulings_count", mj(&rulings.len())),
            ("pages_nav", mj(&pager("index", k, n))),
        ];
        sink(paged("index", k), r.render("index.html", "", &own)?)?;
    }
    sink("style.css".into(), STYLE.as_bytes().to_vec())?;
    Ok(boards)
}

/// The index's list of sessions: each with its address and the boards played (by number: a
/// board of two sections is one board).
fn index_sessions(sessions: &[Value]) -> Vec<Value> {
    sessions
        .iter()
        .map(|s| {
            let sid = s["id"].as_str().unwrap_or_default();
            let numbers: std::collections::BTreeSet<u64> = s["boards"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|b| b["board"].as_u64())
                .collect();
            json!({"id": sid, "name": s["name"], "form": s["form"],
                   "href": session_href(sid), "boards": numbers.len()})
        })
        .collect()
}

/// Each session's board pages (every scored part of a board, a team board's matches, on one
/// page; the boards taken out of the session's data) and its standings, paged. Returns the
/// number of board pages.
fn session_pages(
    r: &Renderer,
    sessions: &mut [Value],
    units: &[Option<&str>],
    labels: &BTreeMap<&'static str, &'static str>,
    sink: &mut dyn FnMut(String, Vec<u8>) -> Result<()>,
) -> Result<usize> {
    let mut boards = 0;
    for (s, unit) in sessions.iter_mut().zip(units) {
        let (mut pages, list) = board_parts(s);
        let sid = s["id"].as_str().unwrap_or_default();
        for (k, (href, _)) in list.iter().enumerate() {
            let parts = pages.remove(href).unwrap_or_default();
            let first = parts.first().unwrap_or(&Value::Null);
            let (section, board) = (first["section"].clone(), first["board"].clone());
            let mut page = Map::new();
            page.insert("session".into(), Value::from(sid));
            page.insert("session_href".into(), Value::from(session_href(sid)));
            page.insert("teams".into(), s["teams"].clone());
            page.insert("noun".into(), s["noun"].clone());
            let unit = unit.unwrap_or(labels["bp"]);
            page.insert("unit".into(), Value::from(unit));
            page.insert("section".into(), section);
            page.insert("board".into(), board);
            page.insert("parts".into(), Value::Array(parts));
            let prev = k.checked_sub(1).map(|p| format!("../{}", list[p].0));
            page.insert("prev".into(), Value::from(prev));
            let next = list.get(k + 1).map(|n| format!("../{}", n.0));
            page.insert("next".into(), Value::from(next));
            let own = [("page", mj(&page))];
            sink(href.clone(), r.render("board.html", "../", &own)?)?;
            boards += 1;
        }
        standings_pages(r, s, &list, sink)?;
    }
    Ok(boards)
}

/// A session's boards, taken out of its data: each board page's parts by address, and the
/// addresses in order with their labels.
#[allow(clippy::type_complexity)]
fn board_parts(s: &mut Value) -> (BTreeMap<String, Vec<Value>>, Vec<(String, String)>) {
    let sid = s["id"].as_str().unwrap_or_default().to_string();
    let taken = match s.get_mut("boards").map(Value::take) {
        Some(Value::Array(a)) => a,
        _ => Vec::new(),
    };
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
    let mut pages: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut order: Vec<(Option<String>, u64, String)> = Vec::new();
    for mut b in taken {
        let section = b["section"].as_str().map(str::to_string);
        let n = b["board"].as_u64().unwrap_or_default();
        let href = board_href(&sid, section.as_deref(), n as u32);
        if !pages.contains_key(&href) {
            order.push((section, n, href.clone()));
        }
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
        pages.entry(href).or_default().push(b);
    }
    order.sort();
    let list = order
        .into_iter()
        .map(|(sec, n, href)| {
            let label = match sec {
                Some(x) => format!("{x} {n}"),
                None => n.to_string(),
            };
            (href, label)
        })
        .collect();
    (pages, list)
}

/// A session's standings, paged: each page holds up to STANDINGS_PER_PAGE rows of its groups
/// (each page's rows referenced, not copied: a 100,000-pair group is 100 pages).
fn standings_pages(
    r: &Renderer,
    s: &Value,
    list: &[(String, String)],
    sink: &mut dyn FnMut(String, Vec<u8>) -> Result<()>,
) -> Result<()> {
    let sid = s["id"].as_str().unwrap_or_default();
    let links: Vec<Value> = list
        .iter()
        .map(|(href, label)| json!({"href": href, "label": label}))
        .collect();
    let links = mj(&links);
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
        let own = [
            ("s", mj(&sp)),
            ("board_links", links.clone()),
            ("pages_nav", mj(&pager(base, k, n))),
        ];
        sink(paged(base, k), r.render("session.html", "../", &own)?)?;
    }
    Ok(())
}

/// Where each ruling's board page is: the section of its NS pair's row, by (session, board,
/// NS pair).
type SectionOf = BTreeMap<(String, u64, String), Option<String>>;

/// Scorecards, each board linking to its page (one participant's page data at a time, each
/// participant dropped once its page is made); and where each ruling's board page is. Returns
/// that and the index's list of the participants shown.
fn card_pages(
    r: &Renderer,
    participants: Vec<ParticipantView>,
    rulings: &[Value],
    sink: &mut dyn FnMut(String, Vec<u8>) -> Result<()>,
) -> Result<(SectionOf, Vec<Value>)> {
    let mut section_of: SectionOf = rulings
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
        let mut p = data_of(person)?;
        let id = p["id"].as_str().unwrap_or_default().to_string();
        let dir = card_dir(p["team"].as_bool().unwrap_or(false), p["noun"].as_str());
        for c in p["cards"].as_array_mut().into_iter().flatten() {
            let sid = c["session"].as_str().unwrap_or_default().to_string();
            for r in c["rows"].as_array_mut().into_iter().flatten() {
                let section = r["section"].as_str().map(str::to_string);
                let n = r["board"].as_u64().unwrap_or_default();
                r["href"] = Value::from(board_href(&sid, section.as_deref(), n as u32));
                if !section_of.is_empty() {
                    if let Some(x) = section_of.get_mut(&(sid.clone(), n, id.clone())) {
                        *x = section;
                    }
                }
            }
        }
        let own = [("p", mj(&p))];
        sink(card_href(&id, &dir), r.render("card.html", "../", &own)?)?;
        shown_people.push(json!({"id": p["id"], "name": p["name"], "cards": true}));
    }
    Ok((section_of, shown_people))
}

/// The rulings' pages: each ruling's biggest movers, its board page and its status in words.
fn ruling_pages(
    r: &Renderer,
    rulings: &mut [Value],
    section_of: &SectionOf,
    labels: &BTreeMap<&'static str, &'static str>,
    sink: &mut dyn FnMut(String, Vec<u8>) -> Result<()>,
) -> Result<()> {
    for r in rulings.iter_mut() {
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
        let own = [
            ("rulings", mj(chunk)),
            ("pages_nav", mj(&pager("rulings", k, n))),
        ];
        sink(paged("rulings", k), r.render("rulings.html", "", &own)?)?;
    }
    Ok(())
}

/// Text as HTML into `out`: `&`, `<`, `>`, `"` and `'` as entities (safe in text and quoted
/// attributes), the rest as it is, in runs.
fn write_escaped(out: &mut dyn std::fmt::Write, s: &str) -> std::fmt::Result {
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        out.write_str(&s[from..i])?;
        out.write_str(entity)?;
        from = i + 1;
    }
    out.write_str(&s[from..])
}

/// A contract or par text (`4S N =`, `5HX-E -300`) as HTML: escaped, each suit letter after a
/// level shown as its symbol (hearts and diamonds red, by the style sheet), with its name for
/// screen readers in the `title`.
fn contract_markup(text: String) -> minijinja::Value {
    let mut out = String::with_capacity(text.len() + 32);
    let mut before: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let after_level = before.is_some_and(|b| matches!(b, '1'..='7'));
        let ends = chars.peek().is_none_or(|n| matches!(n, ' ' | '-' | 'X'));
        let symbol = match c {
            'S' => Some("<span class=\"s1\">♠</span>"),
            'H' => Some("<span class=\"s2\">♥</span>"),
            'D' => Some("<span class=\"s3\">♦</span>"),
            'C' => Some("<span class=\"s4\">♣</span>"),
            _ => None,
        };
        match symbol {
            Some(span) if after_level && ends => out.push_str(span),
            _ => {
                let _ = write_escaped(&mut out, c.encode_utf8(&mut [0; 4]));
            }
        }
        before = Some(c);
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
