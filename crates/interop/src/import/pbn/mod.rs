//! PBN 2.x files (interop-formats.md), of three kinds, told apart by what their games hold:
//!
//! - **Score tables**: each game's `ScoreTable` (one row per table, or one row per distinct
//!   result with `Multiplicity`) becomes the session's results and artificial scores,
//!   `[Deal]`/`[Dealer]`/`[Vulnerable]` its `deal` events, `[Scoring]` its form and options,
//!   `[Event]`/`[Date]`/`[Site]` the championship; `TotalScoreTable`s are read for the pairs'
//!   names (their totals are the producer's, for comparison, not events). The games' own
//!   `[Contract]`... tags are then not read (BridgeComposer leaves them empty).
//! - **Games per table** (no ScoreTable; games with `[Contract]`, `[Result]` or `[Score]`):
//!   each game is one table's result (`games`): a team match when the games give `[Room]`
//!   (teams, a `match` per pair of teams, each result's room), a pairs session otherwise.
//! - **Hand records** (no ScoreTable, no game with a play: a dealing machine's file, Big
//!   Deal's, BridgeComposer's hand records): only `deal` events (`board`, `pbn`, and
//!   `dealer` and `vul` where the file gives them), with **no `session` field and no session
//!   event**: whoever adds them to a log (`import::merge`) gives them the session they belong
//!   to, beside a results file or in the log they are appended to.
//!
//! The text itself (games, tags, tables, inheritance) is `lex`, read one game at a time, twice
//! (`first`, then the rows).

mod first;
mod games;
mod lex;
mod note;
mod play;
#[cfg(test)]
mod readings;
mod rows;
mod slots;
mod teams;

use serde_json::{Map, Value};

use super::draft::Draft;
use super::{decode_text, Parsed, Problem, Read, Request};
use crate::bridge::{parse_seat, vul_of, Vul};
use crate::score::Form;

/// Read a PBN file: the log's events of its one session.
pub fn read(bytes: &[u8], file: &str, req: &Request) -> Result<Read, Vec<Problem>> {
    read_parsed(bytes, file, req).map(Parsed::into_read)
}

/// [`read`], with each event's line. The file is read twice, one game at a time (nothing of
/// its million rows held whole): first what the whole file says (`first`: the championship,
/// names, how numbers become ids; every lexical problem), then each game's rows.
pub(crate) fn read_parsed(bytes: &[u8], file: &str, req: &Request) -> Result<Parsed, Vec<Problem>> {
    read_chunked(bytes, file, req, (rows::CHUNK, true))
}

/// [`read_parsed`], a ScoreTable's rows read apart in chunks of `chunk` rows, their pairs
/// taken from their slots or not (`rows::Pairs::slots`).
fn read_chunked(
    bytes: &[u8],
    file: &str,
    req: &Request,
    (chunk, slots): (usize, bool),
) -> Result<Parsed, Vec<Problem>> {
    let (text, mixed) = decode_text(bytes);
    let problem = |line: usize, message: String| Problem {
        file: file.to_string(),
        at: format!("line {line}"),
        message,
    };
    let mut d = Draft::new(file, req);
    if let Some(m) = mixed {
        d.slip(&m.at(), m.slip());
    }
    let s = d.session();
    let mut first = first::First::default();
    let span = tracing::info_span!("pbn_first").entered();
    lex::each(&text, |g| first.game(&g, &mut d)).map_err(|errors| {
        errors
            .into_iter()
            .map(|(l, m)| problem(l, m.to_string()))
            .collect::<Vec<_>>()
    })?;
    drop(span);
    first.championship(&mut d, s);
    if !first.score_tables {
        if first.played {
            // Each table a game of its own.
            let _span = tracing::info_span!("pbn_games").entered();
            let mut games = games::Games::new(s, first.rooms);
            lex::each(&text, |g| games.game(&mut d, req, &g))
                .expect("the file was read once already");
            return d.finish(req);
        }
        // Hand records alone: the deals, for whatever session they are put in.
        lex::each(&text, |g| {
            if g.value("Deal").is_some() {
                if let Some(board) = board_of(&mut d, &g, ("a [Deal]", g.line)) {
                    deal_of(&mut d, s, &g, board);
                }
            }
        })
        .expect("the file was read once already");
        return d.finish_deals();
    }
    let ids = Ids {
        prefix: first.prefix(),
        per_direction: first.per_direction(),
        names_by_direction: first
            .names
            .keys()
            .any(|k| k.ends_with("NS") || k.ends_with("EW")),
    };
    let names = first.names;
    // (the names' addresses, as `Draft::pair_named` keeps them, to their member numbers)
    let member_ids: crate::hash::FxMap<usize, &[Option<String>]> = first
        .member_ids
        .iter()
        .filter_map(|(k, ids)| Some((names.get(k)?.as_ptr() as usize, ids.as_slice())))
        .collect();
    let mut key = String::new();
    let known = slots::Known::new(
        first.slots,
        |section, number, dir| ids.id(section, number, dir),
        |number, dir| match rows::players_of(Some(number), None, dir, (&ids, &names), &mut key) {
            std::borrow::Cow::Borrowed(n) => n,
            std::borrow::Cow::Owned(_) => &[],
        },
    );
    let mut st = Games {
        s,
        pairs: rows::Pairs {
            ids: &ids,
            names: &names,
            known: &known,
            slots,
        },
        numbers: rows::Numbers::new(&known),
        recorded: (first.recorded, 0),
        scoring: None,
        mp_columns: None,
        chunk,
        noted: Default::default(),
    };
    let span = tracing::info_span!("pbn_rows").entered();
    lex::each(&text, |g| st.game(&mut d, req, g)).expect("the file was read once already");
    drop(span);
    // No [Scoring] anywhere, but matchpoint columns: a matchpoint session.
    if let (None, Some(line)) = (st.scoring, st.mp_columns) {
        let ss = d.session_mut(s);
        ss.form = Some((Form::UNNAMED.name().into(), format!("line {line}")));
        ss.options
            .insert("neuberg_small_field".into(), Value::from("off"));
    }
    d.player_ids_of_names(|from| member_ids.get(&from).copied());
    let _span = tracing::info_span!("pbn_finish").entered();
    d.finish(req)
}

/// The second reading: what the games read so far said, and how ids are made.
struct Games<'p> {
    s: usize,
    pairs: rows::Pairs<'p>,
    numbers: rows::Numbers,
    /// The first reading's slots of the rows read (`First::recorded`), and how many of them
    /// the games so far have had.
    recorded: (Vec<[u32; 2]>, usize),
    /// The first `[Scoring]` and its line.
    scoring: Option<(String, usize)>,
    /// The line of the first ScoreTable with matchpoint or percentage columns.
    mp_columns: Option<usize>,
    /// Rows read apart in chunks of this many (`rows::CHUNK`).
    chunk: usize,
    /// What frekans's notes said (`note`): sessions, team sessions.
    noted: note::Noted,
}

impl<'p> Games<'p> {
    /// One game: its form, board, deal and ScoreTable rows.
    fn game(&mut self, d: &mut Draft, req: &Request, g: lex::Game<'p>) {
        self.frekans_session(d, &g);
        let s = self.s;
        let Some(table) = g
            .tables
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case("ScoreTable"))
        else {
            return;
        };
        let (all, done) = &mut self.recorded;
        let recorded = &all[*done..*done + table.rows().len()];
        *done += table.rows().len();
        scoring(&mut self.scoring, (d, s), req, &g, false);
        let Some(board) = board_of(d, &g, ("a ScoreTable", table.line)) else {
            return;
        };
        let Some(vul) = deal_of(d, s, &g, board) else {
            return;
        };
        if self.mp_columns.is_none()
            && (table.col("MP_NS").is_some() || table.col("Percentage_NS").is_some())
        {
            self.mp_columns = Some(table.line);
        }
        if self.noted.team {
            teams::totals(d, &g);
            teams::rows((d, &mut self.noted.tables), s, table, (board, vul));
            return;
        }
        rows::rows(
            (d, &mut self.numbers),
            s,
            (table, recorded),
            (board, vul),
            &self.pairs,
            self.chunk,
        );
    }
}

/// A game's `[Scoring]` as session `s`'s form and options: the first one read (`first`, with
/// its line) sets them, every later one must be the same (one file is one session). `teams`:
/// the games are a team match's (`[Room]`): IMPs are `teams`, `BAM` is `bam`.
fn scoring(
    first: &mut Option<(String, usize)>,
    (d, s): (&mut Draft, usize),
    req: &Request,
    g: &lex::Game,
    teams: bool,
) {
    let at = |l: usize| format!("line {l}");
    let Some(tag) = g.tag("Scoring").filter(|t| !t.value.trim().is_empty()) else {
        return;
    };
    match first {
        None => {
            let read = if teams {
                team_scoring(&tag.value)
                    .map(|f| (f, Map::new()))
                    .map_err(|e| e.to_string())
            } else {
                scoring_tag(&tag.value)
            };
            match read {
                Ok((form, options)) => {
                    let ss = d.session_mut(s);
                    ss.form = Some((form.to_string(), at(tag.line)));
                    ss.options = options;
                    // (what PBN's producers mean by the form: mp, Neuberg's formula for a line
                    // of any size, interop-formats.md)
                    let read = Form::parse(form).and_then(|f| f.spec().pbn.as_ref());
                    for (name, value) in read.map_or(&[][..], |p| p.read.options) {
                        ss.options.insert((*name).into(), json_of(value));
                    }
                }
                Err(m) => {
                    if req.form.is_none() {
                        d.fail(&at(tag.line), m);
                    }
                }
            }
            *first = Some((tag.value.clone(), tag.line));
        }
        Some((v, l)) if !v.trim().eq_ignore_ascii_case(tag.value.trim()) => {
            let m = format!("[Scoring \"{}\"] differs from [Scoring \"{v}\"] at line {l}: one file is one session, scored one way", tag.value);
            d.fail(&at(tag.line), m);
        }
        _ => {}
    }
}

/// A team match's `[Scoring]` that names no team form (its value).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("[Scoring \"{0}\"]: the games of a team match (they give [Room]) are scored by IMPs (IMP) or board-a-match (BAM); give --form")]
struct NotTeamScoring(String);

/// `[Scoring]` of a team match's games: `IMP` (its modifiers aside) is `teams`, `BAM`
/// (board-a-match) is `bam`.
fn team_scoring(value: &str) -> Result<&'static str, NotTeamScoring> {
    let fields: Vec<String> = value
        .split([';', ','])
        .map(|f| f.trim().to_ascii_uppercase())
        .filter(|f| !f.is_empty())
        .collect();
    // (each team form's words, `score::form::PbnRead`; the later form of the list first)
    let named = Form::ALL.iter().rev().find(|&&f| {
        crate::kind::of(f).in_matches
            && read_of(f)
                .is_some_and(|r| r.words.iter().any(|(w, _)| fields.iter().any(|x| x == w)))
    });
    if let Some(f) = named {
        Ok(f.name())
    } else {
        Err(NotTeamScoring(value.to_string()))
    }
}

/// A game's board number (`[Board]`, 1–10000); `None`, with the problem, when it is missing
/// (`what`, at `line`, needed it) or cannot be read.
fn board_of(d: &mut Draft, g: &lex::Game, (what, line): (&str, usize)) -> Option<u32> {
    let at = |l: usize| format!("line {l}");
    let Some(board) = g.value("Board") else {
        d.fail(&at(line), format!("{what} in a game without [Board]"));
        return None;
    };
    match super::board_number(board) {
        Some(b) => Some(b),
        None => {
            let line = g.tag("Board").map(|t| t.line).unwrap_or(g.line);
            d.fail(
                &at(line),
                format!(
                    "[Board]: expected a board number 1-{}, found {}",
                    super::MAX_BOARD,
                    crate::import::quote(board)
                ),
            );
            None
        }
    }
}

/// A game's vulnerability (`[Vulnerable]`, else the board number's), its `[Deal]` (with
/// `[Dealer]` and the `[Vulnerable]` given) added to session `s` as the board's deal; `None`,
/// with the problem, when `[Vulnerable]` cannot be read.
fn deal_of(d: &mut Draft, s: usize, g: &lex::Game, board: u32) -> Option<Vul> {
    let at = |l: usize| format!("line {l}");
    let vul = match g.value("Vulnerable") {
        None => vul_of(board),
        Some(v) => match Vul::parse(v) {
            Ok(v) => v,
            Err(m) => {
                d.fail(
                    &at(g.tag("Vulnerable").unwrap().line),
                    format!("[Vulnerable]: {m}"),
                );
                return None;
            }
        },
    };
    let dealer = match g.value("Dealer").map(parse_seat) {
        Some(Err(m)) => {
            d.fail(&at(g.tag("Dealer").unwrap().line), format!("[Dealer]: {m}"));
            None
        }
        Some(Ok(x)) => Some(x),
        None => None,
    };
    if let Some(deal) = g.value("Deal") {
        let line = g.tag("Deal").unwrap().line;
        let vul_given = g.value("Vulnerable").map(|_| vul);
        d.deal(s, board, deal, dealer, vul_given, &at(line));
    }
    Some(vul)
}

/// How a file's pair numbers become ids.
pub(super) struct Ids {
    /// Numbers repeat across sections: the section goes before the number (`A12`).
    pub prefix: bool,
    /// NS and EW pairs are numbered each from 1: the direction goes after it (`1NS`).
    pub per_direction: bool,
    /// Some TotalScoreTable name is keyed by a number and a direction (`1NS`): only then is
    /// a pair's name looked up by its number and direction.
    pub names_by_direction: bool,
}

impl Ids {
    pub fn id(&self, section: Option<&str>, raw: &str, dir: &str) -> String {
        let mut id = match (section, self.prefix) {
            (Some(sec), true) => format!("{sec}{raw}"),
            _ => raw.to_string(),
        };
        if self.per_direction {
            id.push_str(dir);
        }
        id
    }
}

/// A form's `[Scoring]` words.
fn read_of(f: Form) -> Option<&'static crate::score::form::PbnRead> {
    f.spec().pbn.as_ref().map(|p| &p.read)
}

/// A value of a form's tables, written as JSON there.
fn json_of(text: &str) -> Value {
    serde_json::from_str(text).expect("the forms' tables hold JSON")
}

/// `[Scoring]`: a base (`MP`, `MatchPoints`, `IMP`...) and modifiers (PBN 2.1 §3.4.12) → the
/// form and the options that say what the file says. `MP1`/`MP2` differ only in the scale
/// (2/1/0 or 1/½/0 a comparison), not in the ranking: both are `mp`.
pub fn scoring_tag(value: &str) -> Result<(&'static str, Map<String, Value>), String> {
    let mut form: Option<&'static str> = None;
    let mut imp = false;
    let mut options = Map::new();
    let mut median = false;
    for f in value
        .split([';', ','])
        .map(str::trim)
        .filter(|f| !f.is_empty())
    {
        let word = f.to_ascii_uppercase();
        // (a pairs form's words, `score::form::PbnRead`)
        let named = Form::ALL.iter().find_map(|&f| {
            let read = read_of(f).filter(|_| !crate::kind::of(f).in_matches)?;
            let (_, option) = read.words.iter().find(|(w, _)| *w == word)?;
            Some((f, read.yields, option))
        });
        if let Some((f, yields, option)) = named {
            if yields {
                form.get_or_insert(f.name());
            } else {
                form = Some(f.name());
            }
            if let Some((name, value)) = option {
                options.insert((*name).into(), json_of(value));
            }
            continue;
        }
        match word.as_str() {
            "IMP" | "IMPS" => imp = true,
            "MEAN" => {}
            "MEDIAN" => median = true,
            other => {
                return Err(format!(
                    "[Scoring \"{value}\"]: \"{other}\" is not a scoring frekans reads (MP, MatchPoints, MP1, MP2, IMP with Butler, Butler-2, Cross, Cross1 or Cross2, Mean, Median, Napki); give --form"
                ))
            }
        }
    }
    if median {
        // (the datum of a form that has one: Butler's)
        if !form
            .and_then(Form::parse)
            .is_some_and(|f| f.accepts("butler_trim"))
        {
            return Err(format!(
                "[Scoring \"{value}\"]: Median is a Butler datum; give --form"
            ));
        }
        // The datum of the middle result(s): all but a sliver of weight trimmed from each end
        // leaves the median of any board of fewer than 500,000 results (exact rationals).
        options.insert(
            "butler_trim".into(),
            serde_json::json!({"per_side": 0.499999, "mode": "fractional"}),
        );
    }
    match form {
        Some(f) => Ok((f, options)),
        None if imp => Err(format!(
            "[Scoring \"{value}\"]: IMPs without Butler or Cross do not say how pairs are compared; give --form butler or --form ximp"
        )),
        None => Err(format!("[Scoring \"{value}\"]: no scoring base (MP or IMP); give --form")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoring_tags() {
        assert_eq!(scoring_tag("MatchPoints;MP1").unwrap().0, "mp");
        assert_eq!(scoring_tag("MP").unwrap().0, "mp");
        let (f, o) = scoring_tag("IMP;Butler-2;Mean").unwrap();
        assert_eq!(f, "butler");
        assert_eq!(o["butler_trim"], serde_json::json!({"count": 1}));
        let (f, o) = scoring_tag("IMP;Cross1").unwrap();
        assert_eq!(f, "ximp");
        assert_eq!(o["ximp_normalize"], "results");
        assert_eq!(
            scoring_tag("IMP;Cross2").unwrap().1["ximp_normalize"],
            "comparisons"
        );
        assert_eq!(scoring_tag("IMP;Cross").unwrap().1["ximp_normalize"], "sum");
        assert_eq!(
            scoring_tag("IMP;Butler").unwrap().1["butler_trim"],
            serde_json::json!({"count": 0})
        );
        assert!(scoring_tag("IMP").is_err());
        assert!(scoring_tag("Rubber").is_err());
    }

    /// A passed-out board's score written as `PASS` in Score_NS (BridgeComposer) is 0 points;
    /// beside a contract that made, it is refused as any contradicting score is.
    #[test]
    fn pass_as_a_score_is_zero() {
        let file = |c2: &str| {
            format!(
                "% PBN 2.1\n[Event \"E\"]\n[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Scoring \"MP;MP1\"]\n\
                 [ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW\"]\n\
                 1 1 4S N 10 420 -\n2 2 {c2} PASS -\n"
            )
        };
        let req = crate::import::Request::default();
        let got =
            read(file("Pass - -").as_bytes(), "t.pbn", &req).expect("a passed-out board reads");
        let results: Vec<_> = got
            .events
            .iter()
            .filter(|e| e["type"] == "result")
            .collect();
        assert_eq!(results.len(), 2, "{:?}", got.events);
        assert!(
            results[1]["contract"] == "PASS" || results[1]["score"] == 0,
            "{:?}",
            results[1]
        );
        let bad = read(file("3NT N 9").as_bytes(), "t.pbn", &req);
        assert!(
            bad.is_err(),
            "3NT= (400) with a score of PASS must be refused"
        );
    }
}
