//! The USEBIO 1.0/1.1/1.2 reader: an XML results file (EBUScore, ScoreBridge, Compscore,
//! Pianola, RealBridge, BBO Extractor...) turned into the log's own events, one session per
//! USEBIO `SESSION` (or the `EVENT` itself when it holds no `SESSION`).
//!
//! What the file says about the form (`EVENT_TYPE`, `BOARD_SCORING_METHOD`,
//! `MATCH_SCORING_METHOD`, `SCORING_METHOD`) sets the session's form; `--form`, `--compare`
//! and `--options` fill in what it does not say (interface.md, "Import and export"). Both
//! nestings are read (participants and boards straight under `EVENT`, or under
//! `SESSION` › `SECTION`); `BOARD`s inside a `HANDSET` hold hands and become `deal` events.
//! The points a producer printed (`NS_MATCH_POINTS`...) are not read: frekans scores again.
//! Every problem names the element path (`USEBIO/EVENT/BOARD[3]/TRAVELLER_LINE[2]/SCORE`).

mod form;
mod line;
mod note;
mod seated;
mod session;
mod tree;
mod twice;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use super::{Ev, Parsed, Problem, Read, Request};
use crate::export::notes::SessionNote;
use crate::score::Form;
use form::{boards_value, form_of, iso_date, numbers_repeat};
use tree::{Element, Tl, TlPath};

/// Read one USEBIO file (see the module's documentation).
pub fn read(bytes: &[u8], file: &str, req: &Request) -> Result<Read, Vec<Problem>> {
    read_parsed(bytes, file, req).map(Parsed::into_read)
}

/// [`read`], the tables' results as rows.
pub(crate) fn read_parsed(bytes: &[u8], file: &str, req: &Request) -> Result<Parsed, Vec<Problem>> {
    let fail = |at: String, message: String| {
        vec![Problem {
            file: file.to_string(),
            at,
            message,
        }]
    };
    let text = tracing::info_span!("usebio_decode")
        .in_scope(|| tree::decode(bytes))
        .map_err(|e| fail(e.at, e.message))?;
    let root = tracing::info_span!("usebio_tree")
        .in_scope(|| tree::parse(&text))
        .map_err(|e| fail(e.at, e.message))?;
    let mut cx = Cx::new(file, req);
    tracing::info_span!("usebio_events").in_scope(|| cx.root(&root));
    super::file::drop_aside(root);
    if !cx.problems.is_empty() {
        cx.problems.sort_by_key(|a| form::natural(&a.at));
        cx.problems.dedup();
        return Err(cx.problems);
    }
    Ok(Parsed {
        events: cx.events,
        skipped: cx.skipped,
        notices: cx.notices,
        origins: Vec::new(),
    })
}

/// A participant as the file declares it: (section, number as written, players, team name,
/// path).
type Declared = (Option<String>, String, Vec<Value>, Option<String>, String);

struct Cx<'a> {
    file: &'a str,
    req: &'a Request,
    problems: Vec<Problem>,
    skipped: Vec<Problem>,
    /// Lines taken by their score alone, their play unreadable (`Read::notices`).
    notices: Vec<Problem>,
    events: Vec<Ev>,
    /// Participants declared so far: id → (players, path where first declared).
    declared: crate::hash::FxMap<String, (Vec<Value>, String)>,
    rulings: usize,
    sessions: usize,
    /// The sessions' notes frekans's export wrote (`note`), by session id.
    notes: BTreeMap<String, crate::export::notes::SessionNote>,
    /// Matches of the sessions read so far: a match's id is `M` and its number in the file
    /// (ids unique in the whole championship, as an import keeps them).
    match_base: usize,
    /// The kind of the event being read when it seats four players (`EVENT_TYPE="INDIVIDUAL"`).
    seated: Option<&'static crate::kind::Plug>,
}

/// One traveller line read: the table's result (when one was played or a score given) and its
/// artificial score (when the file gives one).
struct Line<'t> {
    board: u32,
    ns: &'t str,
    ew: &'t str,
    section: Option<&'t str>,
    /// What was played (`None`: nothing, only an artificial score), and the lead.
    play: Option<Play>,
    lead: Option<&'t str>,
    /// The adjusted score: (its `score` or `subsequent_damage` field, the file's token, law).
    artificial: Option<Box<(Map<String, Value>, String, String)>>,
    path: TlPath<'t>,
    /// Teams: the match (its number: `M1` is 1) and room.
    team: Option<(usize, &'static str)>,
    /// An individual event's South and West (`ns` is North, `ew` East).
    others: Option<[&'t str; 2]>,
}

/// A table's play: passed out, a contract by a declarer with the tricks taken, or NS's points.
enum Play {
    Pass,
    Contract(crate::bridge::Bid, crate::bridge::Seat, u8),
    Score(i32),
}

/// Participants' ids by their numbers as a unit (section) of a session writes them.
struct Resolver<'s> {
    ids: &'s crate::hash::FxMap<(Option<&'s str>, &'s str), String>,
    /// Whether the file declares participants (else a number is the id).
    declared: bool,
    section: Option<&'s str>,
}

impl<'s> Resolver<'s> {
    fn get(&self, n: &'s str) -> Option<&'s str> {
        if !self.declared {
            return Some(n);
        }
        self.ids
            .get(&(self.section, n))
            .or_else(|| self.ids.get(&(None, n)))
            .map(String::as_str)
    }
}

impl<'a> Cx<'a> {
    /// A reader of `file` that has read nothing yet (no allocation).
    fn new(file: &'a str, req: &'a Request) -> Cx<'a> {
        Cx {
            file,
            req,
            problems: Vec::new(),
            skipped: Vec::new(),
            notices: Vec::new(),
            events: Vec::new(),
            declared: Default::default(),
            rulings: 0,
            sessions: 0,
            notes: BTreeMap::new(),
            match_base: 0,
            seated: None,
        }
    }

    fn problem(&mut self, at: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem {
            file: self.file.to_string(),
            at: at.into(),
            message: message.into(),
        });
    }

    /// A problem with one traveller line: skipped under `--lenient`, refused otherwise.
    fn line_problem(&mut self, at: impl Into<String>, message: impl Into<String>) {
        let p = Problem {
            file: self.file.to_string(),
            at: at.into(),
            message: message.into(),
        };
        if self.req.lenient {
            self.skipped.push(p);
        } else {
            self.problems.push(p);
        }
    }

    fn root(&mut self, root: &Element) {
        if root.name != "USEBIO" {
            self.problem(
                root.path.clone(),
                format!(
                    "expected the root element <USEBIO>, found <{}>",
                    super::clip_text(&root.name)
                ),
            );
            return;
        }
        if let Some(v) = root.attr("Version") {
            if !matches!(v, "1.0" | "1.1" | "1.2") {
                self.problem(
                    root.path.clone(),
                    format!(
                        "Version {}: expected USEBIO 1.0, 1.1 or 1.2",
                        crate::import::quote(v)
                    ),
                );
            }
        }
        let events: Vec<&Element> = root.all("EVENT").collect();
        if events.is_empty() {
            self.problem("USEBIO/EVENT", "missing; expected an EVENT element");
            return;
        }
        self.championship(root, events[0]);
        self.notes = self.session_notes(root);
        let hands_root: Vec<&Element> = root.all("HANDSET").collect();
        for ev in events {
            self.event(ev, &hands_root);
        }
    }

    fn championship(&mut self, root: &Element, ev: &Element) {
        let mut c = Map::new();
        c.insert("type".into(), json!("championship"));
        if let Some(n) = ev
            .text_of("EVENT_DESCRIPTION")
            .or_else(|| ev.text_of("TITLE"))
        {
            c.insert("name".into(), json!(n));
        }
        if let Some(d) = ev.text_of("DATE") {
            c.insert("date".into(), json!(iso_date(d)));
        }
        let place = ev
            .text_of("VENUE")
            .or_else(|| root.child("CLUB").and_then(|c| c.text_of("CLUB_NAME")));
        if let Some(p) = place {
            c.insert("place".into(), json!(p));
        }
        if c.len() > 1 {
            self.events.push(Ev::Json(Value::Object(c)));
        }
    }

    fn event(&mut self, ev: &Element, hands_root: &[&Element]) {
        self.seated = seated::kind_of(ev);
        let form = match self.seated {
            Some(k) => seated::form_of(k, form_of(ev, self.req).ok(), self.req.form.as_deref())
                .map(|f| (f, false)),
            None => form_of(ev, self.req),
        };
        let (form, knockout) = match form {
            Ok(f) => f,
            Err(m) => {
                self.problem(ev.path.clone(), m.to_string());
                return;
            }
        };
        let mut hands: Vec<&Element> = hands_root.to_vec();
        hands.extend(ev.all("HANDSET"));
        let mut sessions: Vec<&Element> = ev.all("SESSION").collect();
        let whole = sessions.is_empty();
        if whole {
            sessions.push(ev);
        }
        // Where numbers repeat across the sections of a session, every id of the file is the
        // section followed by the number (the same pair keeps its id from session to session).
        let prefix = tracing::info_span!("usebio_repeat")
            .in_scope(|| sessions.iter().any(|s| numbers_repeat(s)));
        for s in sessions {
            let mut h = hands.clone();
            if !whole {
                h.extend(s.all("HANDSET"));
            }
            self.session(ev, s, form, knockout, prefix, &h);
        }
    }

    /// One session (a SESSION, or the EVENT itself): its session event, participants,
    /// matches, deals, results and rulings.
    #[allow(clippy::too_many_arguments)]
    fn session(
        &mut self,
        ev: &Element,
        el: &Element,
        form: Form,
        knockout: bool,
        prefix: bool,
        hands: &[&Element],
    ) {
        self.sessions += 1;
        let sid = format!("S{}", self.sessions);
        let note = note::of(&self.notes, el).cloned();
        let note = note.as_ref();
        let form = note::form(note, form);
        let units = self.units(el);
        let team = crate::kind::of(form).in_matches;
        let _participants = tracing::info_span!("usebio_participants").entered();
        // Participants: (section, number as written) → id.
        let numbers = self.declared_numbers(&units, form);
        let (ids, participants) = self.participant_ids(&numbers, prefix, team);
        let declared = !numbers.is_empty();
        drop(_participants);
        let (lines, mut matches) =
            self.session_lines(&units, (&ids, declared), form, (&sid, knockout));
        // A board twice at one table, or a pair at two tables of one board.
        let lines = tracing::info_span!("usebio_twice").in_scope(|| self.played_once(lines));
        let Some(boards) = self.session_boards(el, &lines, note, &mut matches) else {
            return;
        };

        // The session.
        let (compare, options) = self.compare_options(form, note, &units, &lines);
        let _head = tracing::info_span!("usebio_head").entered();
        let mut s = Map::new();
        s.insert("type".into(), json!("session"));
        s.insert("id".into(), json!(sid));
        let name = el
            .attr("SESSION_ID")
            .map(|n| format!("Session {n}"))
            .or_else(|| ev.text_of("EVENT_DESCRIPTION").map(str::to_string));
        if let Some(n) = name {
            s.insert("name".into(), json!(n));
        }
        s.insert("form".into(), json!(form.name()));
        s.insert("boards".into(), boards_value(&boards));
        if let Some(k) = self
            .seated
            .filter(|k| !std::ptr::eq(*k, crate::kind::of(form)))
        {
            s.insert("kind".into(), json!(k.declared));
        }
        if !team {
            s.insert("compare".into(), json!(compare));
        }
        if !options.is_empty() {
            s.insert("options".into(), Value::Object(options));
        }
        if let Some(n) = note {
            note::session(n, &mut s);
        }
        self.events.push(Ev::Json(Value::Object(s)));
        self.participant_events(participants, team);
        // Each match's id, by its number in the session (`Line::team`).
        let match_ids: Vec<String> = matches
            .iter()
            .map(|m| m["id"].as_str().unwrap_or_default().to_string())
            .collect();
        self.match_base += matches.len();
        for m in matches {
            self.events.push(Ev::Json(m));
        }
        for (board, pbn) in self.deals(hands, &boards) {
            let mut d = json!({"type": "deal", "session": sid, "board": board, "pbn": pbn});
            note::deal(note, board, &mut d);
            self.events.push(Ev::Json(d));
        }
        // Each table's event made apart (in parallel: a million lines), added in the lines'
        // order (rayon's `par_extend` keeps it), then the rulings.
        drop(_head);
        let _rows = tracing::info_span!("usebio_rows").entered();
        {
            use rayon::prelude::*;
            self.events.par_extend(
                lines
                    .par_iter()
                    .filter_map(|l| line::result_row(l, &sid, &match_ids).map(Ev::Row)),
            );
        }
        self.ruling_events(lines, &sid);
        if let Some(n) = note {
            self.events
                .extend(note::events(n, &sid).into_iter().map(Ev::Json));
        }
    }

    /// A session's boards: its lines', its note's and its matches'; `None` (a problem) when
    /// it has no traveller lines.
    fn session_boards(
        &mut self,
        el: &Element,
        lines: &[Line],
        note: Option<&SessionNote>,
        matches: &mut [Value],
    ) -> Option<BTreeSet<u32>> {
        // (a board's lines follow one another: each run's board inserted once)
        let mut boards: BTreeSet<u32> = BTreeSet::new();
        for (i, l) in lines.iter().enumerate() {
            if i == 0 || lines[i - 1].board != l.board {
                boards.insert(l.board);
            }
        }
        if boards.is_empty() {
            self.problem(
                el.path.clone(),
                "no traveller lines; expected BOARD elements with TRAVELLER_LINEs",
            );
            return None;
        }
        if let Some(n) = note {
            note::matches(n, matches, &mut boards);
        }
        // A match's boards are the session's even when none of a board's lines were kept (read
        // leniently): found by the usebio fuzz target, a match naming a board its session lacked.
        for m in matches.iter() {
            boards.extend(crate::event::read::parse_boards(&m["boards"]).unwrap_or_default());
        }
        Some(boards)
    }

    /// A session's `compare` (`--compare`, else its note's, else what its lines say) and its
    /// `options` (its note's, and `--options` over them).
    fn compare_options(
        &mut self,
        form: Form,
        note: Option<&SessionNote>,
        units: &[(Option<String>, &Element)],
        lines: &[Line],
    ) -> (String, Map<String, Value>) {
        if let Some(c) = &self.req.compare {
            if c != "section" && c != "field" {
                self.problem("--compare", format!("{c:?}: expected section or field"));
            }
        }
        let compare = match note.filter(|_| self.req.compare.is_none()) {
            Some(n) => n.compare.clone().unwrap_or("section".into()),
            None => {
                tracing::info_span!("usebio_compare").in_scope(|| self.compare(form, units, lines))
            }
        };
        let mut options = note.map(|n| n.options.clone()).unwrap_or_default();
        for (k, v) in &self.req.options {
            options.insert(k.clone(), v.clone());
        }
        let (_, errs) = form.read_options(&options);
        for e in errs {
            self.problem("--options", format!("{}: {}", e.option, e.message));
        }
        (compare, options)
    }

    /// The `pair` or `team` event of each participant not declared in an earlier session; one
    /// declared again with other players is a problem.
    fn participant_events(&mut self, participants: Vec<(String, &Declared)>, team: bool) {
        for (id, (section, _, pl, name, path)) in participants {
            if let Some((first_players, first_path)) = self.declared.get(&id) {
                if first_players != pl {
                    self.problem(
                        path.clone(),
                        format!("{id} is declared with other players than at {first_path}"),
                    );
                }
                continue;
            }
            if self.seated.is_some() {
                let p = seated::player_event(&id, section.as_deref(), pl);
                self.declared.insert(id, (pl.clone(), path.clone()));
                self.events.push(Ev::Json(p));
                continue;
            }
            let mut p = Map::new();
            p.insert("type".into(), json!(if team { "team" } else { "pair" }));
            p.insert("id".into(), json!(id));
            if let Some(n) = name {
                p.insert("name".into(), json!(n));
            }
            if let Some(s) = section {
                if !team {
                    p.insert("section".into(), json!(s));
                }
            }
            p.insert("players".into(), json!(pl));
            self.declared.insert(id, (pl.clone(), path.clone()));
            self.events.push(Ev::Json(Value::Object(p)));
        }
    }

    /// A `ruling` event for each line with an artificial score.
    fn ruling_events(&mut self, lines: Vec<Line>, sid: &str) {
        let mut rulings = Vec::new();
        for l in lines {
            if let Some((score, token, law)) = l.artificial.map(|a| *a) {
                self.rulings += 1;
                let mut r = Map::new();
                r.insert("type".into(), json!("ruling"));
                r.insert("id".into(), json!(format!("R{}", self.rulings)));
                r.insert("session".into(), json!(sid));
                r.insert("board".into(), json!(l.board));
                match l.others {
                    // (by North where the line's result made the table; all four seats where
                    // the ruling makes it)
                    Some(_) if l.play.is_some() => {
                        r.insert("north".into(), json!(l.ns));
                    }
                    Some([s, w]) => {
                        for (k, v) in [("north", l.ns), ("south", s), ("east", l.ew), ("west", w)] {
                            r.insert(k.into(), json!(v));
                        }
                    }
                    None => {
                        r.insert("ns".into(), json!(l.ns));
                        r.insert("ew".into(), json!(l.ew));
                    }
                }
                r.extend(score);
                r.insert("law".into(), json!(law));
                r.insert("note".into(), json!(format!("imported: {token}")));
                rulings.push(Ev::Json(Value::Object(r)));
            }
        }
        self.events.extend(rulings);
    }

    #[allow(clippy::too_many_arguments)]
    fn team_match<'t>(
        &mut self,
        m: &'t Element,
        sid: &str,
        resolve: &Resolver<'t>,
        knockout: bool,
        seen: &mut BTreeMap<(String, String, Vec<u32>), String>,
        matches: &mut Vec<Value>,
        lines: &mut Vec<Line<'t>>,
    ) {
        let team = |name: &str, cx: &mut Cx| -> Option<&'t str> {
            let Some(t) = m.text_of(name) else {
                cx.problem(m.path_of(name), "missing; expected a team id");
                return None;
            };
            let id = resolve.get(t);
            if id.is_none() {
                cx.problem(
                    m.path_of(name),
                    format!("team {t} is not declared in PARTICIPANTS"),
                );
            }
            id
        };
        let (Some(home), Some(away)) = (team("TEAM", self), team("OPPOSING_TEAM", self)) else {
            return;
        };
        let home_no = m.text_of("TEAM").unwrap_or_default().to_string();
        let mut boards: Vec<(u32, &Element)> = Vec::new();
        for b in m.all("BOARD") {
            if let Some(n) = self.board_number(b) {
                boards.push((n, b));
            }
        }
        let numbers: Vec<u32> = boards.iter().map(|(n, _)| *n).collect();
        let key = if home <= away {
            (home.to_string(), away.to_string(), numbers.clone())
        } else {
            (away.to_string(), home.to_string(), numbers.clone())
        };
        if seen.contains_key(&key) {
            // The same match listed again from the other team's side.
            return;
        }
        let number = matches.len() + 1;
        let mid = format!("M{}", self.match_base + number);
        seen.insert(key, mid.clone());
        let mut set: BTreeSet<u32> = numbers.iter().copied().collect();
        if set.is_empty() {
            if let (Some(a), Some(b)) = (
                m.text_of("START_BOARD_NUMBER")
                    .and_then(|s| s.parse::<u32>().ok()),
                m.text_of("END_BOARD_NUMBER")
                    .and_then(|s| s.parse::<u32>().ok()),
            ) {
                set = (a..=b.min(a.saturating_add(1000))).collect();
            }
        }
        if set.is_empty() {
            self.problem(
                m.path.clone(),
                "a match without boards; expected BOARD elements",
            );
            return;
        }
        matches.push(json!({
            "type": "match", "session": sid, "id": mid, "home": home, "away": away,
            "boards": boards_value(&set), "knockout": knockout,
        }));
        for (board, b) in boards {
            for tl in b.lines() {
                let dir = tl.text_of("DIRECTION").map(str::to_ascii_uppercase);
                let home_ns = match dir.as_deref() {
                    Some("NS" | "N-S" | "N") => true,
                    Some("EW" | "E-W" | "E") => false,
                    Some(d) => {
                        self.line_problem(
                            tl.path_of("DIRECTION"),
                            format!(
                                "{}: expected NS or EW (the side the match's TEAM sat)",
                                crate::import::quote(d)
                            ),
                        );
                        continue;
                    }
                    None => {
                        // Without DIRECTION: the NS pair number `1-1-2` names its team.
                        let ns_no = tl.text_of("NS_PAIR_NUMBER").unwrap_or_default();
                        let ns_team = ns_no.split('-').next().unwrap_or_default();
                        if ns_team.is_empty() {
                            self.line_problem(
                                tl.path_of("DIRECTION"),
                                "missing; expected NS or EW (which side the match's TEAM sat)",
                            );
                            continue;
                        }
                        ns_team == home_no
                    }
                };
                let (ns, ew, room) = if home_ns {
                    (home, away, "open")
                } else {
                    (away, home, "closed")
                };
                if let Some(l) = self.line(tl, board, (ns, ew), None, Some((number, room))) {
                    lines.push(l);
                }
            }
        }
    }

    fn board_number(&mut self, b: &Element) -> Option<u32> {
        match b
            .text_of("BOARD_NUMBER")
            .map(|t| (t, super::board_number(t)))
        {
            Some((_, Some(n))) => Some(n),
            Some((t, None)) => {
                let m = format!(
                    "{}: expected a board number 1-{}",
                    crate::import::quote(t),
                    super::MAX_BOARD
                );
                self.line_problem(b.path_of("BOARD_NUMBER"), m);
                None
            }
            None => {
                self.line_problem(
                    b.path_of("BOARD_NUMBER"),
                    "missing; expected the board's number",
                );
                None
            }
        }
    }

    fn pair_of<'t>(&mut self, tl: Tl<'t>, name: &str, resolve: &Resolver<'t>) -> Option<&'t str> {
        let Some(n) = tl.text_of(name) else {
            self.line_problem(tl.path_of(name), "missing; expected a pair number");
            return None;
        };
        let id = resolve.get(n);
        if id.is_none() {
            self.line_problem(
                tl.path_of(name),
                format!("pair {n} is not declared in PARTICIPANTS (of this section)"),
            );
        }
        id
    }
}

#[cfg(test)]
mod tests;
