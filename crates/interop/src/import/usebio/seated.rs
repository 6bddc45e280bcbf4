//! An individual event (`EVENT_TYPE="INDIVIDUAL"`, docs/interop.md "Individual events"): its
//! PLAYERs, each a `player` event, and its traveller lines, each naming the four players by
//! seat (`N_/S_/E_/W_PLAYER_NUMBER`). What each line says is taken as written: who sat where,
//! and as many tables as the board has lines; a seat missing or naming no PLAYER of the file is
//! a problem naming the board, the line and the seat.

use serde_json::{json, Map, Value};

use super::form::{has_lines, NoForm};
use super::tree::{Element, Tl};
use super::{Cx, Declared, Line, Resolver};
use crate::kind::Plug;
use crate::score::Form;

/// The seats' elements, North, South, East, West.
const SEATS: [&str; 4] = [
    "N_PLAYER_NUMBER",
    "S_PLAYER_NUMBER",
    "E_PLAYER_NUMBER",
    "W_PLAYER_NUMBER",
];

/// The kind of an event whose EVENT_TYPE names a kind seating four players (`INDIVIDUAL`).
pub(super) fn kind_of(ev: &Element) -> Option<&'static Plug> {
    let ty = ev.attr("EVENT_TYPE")?.trim();
    crate::kind::ALL
        .iter()
        .copied()
        .find(|k| k.seated && k.declared.eq_ignore_ascii_case(ty))
}

/// The form of a seated event: the one its BOARD_SCORING_METHOD names, as a pairs event's
/// (`read`), or `--form`, each one the kind takes; else the first form the kind takes (the
/// specimen, without BOARD_SCORING_METHOD, has matchpoints only: `mp`).
pub(super) fn form_of(
    kind: &Plug,
    read: Option<(Form, bool)>,
    form: Option<&str>,
) -> Result<Form, NoForm> {
    if let Some((f, _)) = read {
        return match (kind.takes)(f) {
            true => Ok(f),
            false => Err(NoForm::NotTaken {
                kind: kind.declared,
                form: f,
            }),
        };
    }
    match form {
        Some(f) => {
            Form::parse(f)
                .filter(|&f| (kind.takes)(f))
                .ok_or_else(|| NoForm::FlagNotTaken {
                    kind: kind.declared,
                    form: f.to_string(),
                })
        }
        None => Form::ALL
            .iter()
            .copied()
            .find(|&f| (kind.takes)(f))
            .ok_or(NoForm::NoneTakes(kind.declared)),
    }
}

/// A PLAYER without its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("missing; expected the player's number")]
pub(super) struct NoNumber;

/// A PLAYER of PARTICIPANTS: its number, and its name and member number as `players` holds
/// them (`[{"name", "id"}]`, `["name"]`, or `[]` when it has no name).
pub(super) fn declared_player(section: &Option<String>, p: &Element) -> Result<Declared, NoNumber> {
    let n = p.text_of("PLAYER_NUMBER").ok_or(NoNumber)?;
    let member = p
        .text_of("NATIONAL_ID_NUMBER")
        .and_then(crate::import::draft::member_id);
    let pl = match (p.text_of("PLAYER_NAME"), member) {
        (Some(name), Some(id)) => vec![json!({"name": name, "id": id})],
        (Some(name), None) => vec![json!(name)],
        (None, Some(id)) => vec![json!({"id": id})],
        (None, None) => Vec::new(),
    };
    Ok((section.clone(), n.to_string(), pl, None, p.path.clone()))
}

/// The `player` event of a declared PLAYER: `id`, `section`, `name`, `member` (each absent
/// when unknown).
pub(super) fn player_event(id: &str, section: Option<&str>, players: &[Value]) -> Value {
    let mut p = Map::new();
    p.insert("type".into(), json!("player"));
    p.insert("id".into(), json!(id));
    if let Some(s) = section {
        p.insert("section".into(), json!(s));
    }
    let first = players.first();
    let name = first.and_then(|v| v.as_str().or_else(|| v.get("name")?.as_str()));
    if let Some(n) = name {
        p.insert("name".into(), json!(n));
    }
    if let Some(m) = first.and_then(|v| v.get("id")?.as_str()) {
        p.insert("member".into(), json!(m));
    }
    Value::Object(p)
}

impl Cx<'_> {
    /// A seated unit's traveller lines, added to `lines`: each line's four players.
    pub(super) fn seated_lines<'t>(
        &mut self,
        u: &'t Element,
        section: Option<&'t str>,
        resolve: &Resolver<'t>,
        lines: &mut Vec<Line<'t>>,
    ) {
        for b in u.all("BOARD").filter(|b| has_lines(b)) {
            let Some(board) = self.board_number(b) else {
                continue;
            };
            let tls: Vec<Tl<'t>> = b.lines().collect();
            if let Some(tables) = self.twin_tables(&tls, resolve) {
                for (i, [n, s, e, w]) in tables {
                    if let Some(mut l) = self.line(tls[i], board, (n, e), section, None) {
                        l.others = Some([s, w]);
                        lines.push(l);
                    }
                }
                self.notices.push(crate::import::Problem {
                    file: self.file.to_string(),
                    at: b.path.clone(),
                    message: format!("board {board}: its {} lines name their South and West by numbers that are not PLAYERs of the file, and each names one player of each side as N and E: each table is taken as two lines of the same score, North and East of the first, South and West of the second", tls.len()),
                });
                continue;
            }
            for tl in tls {
                let seats = SEATS.map(|s| self.seat(tl, s, board, resolve));
                let [Some(n), Some(s), Some(e), Some(w)] = seats else {
                    continue;
                };
                if let Some(mut l) = self.line(tl, board, (n, e), section, None) {
                    l.others = Some([s, w]);
                    lines.push(l);
                }
            }
        }
    }

    /// A board written as two lines a table (docs/interop.md "Individual events": the USEBIO
    /// specimen's way): every line's North and East are PLAYERs of the file, some line's South
    /// or West is not, and the lines pair in order, each with the next one of the same SCORE
    /// and NS_MATCH_POINTS whose two players are others, every player once on the board. Each
    /// pair is one table: the first line's North and East, the second's as South and West.
    /// `None` (the lines read one a table) when the board is not so, or with `--strict`.
    fn twin_tables<'t>(
        &self,
        tls: &[Tl<'t>],
        resolve: &Resolver<'t>,
    ) -> Option<Vec<(usize, [&'t str; 4])>> {
        let player = |tl: &Tl<'t>, seat: &str| tl.text_of(seat).and_then(|n| resolve.get(n));
        let ne: Vec<(&'t str, &'t str)> = tls
            .iter()
            .map(|tl| Some((player(tl, SEATS[0])?, player(tl, SEATS[2])?)))
            .collect::<Option<_>>()?;
        let seated = |tl: &Tl<'t>| player(tl, SEATS[1]).is_some() && player(tl, SEATS[3]).is_some();
        if self.req.strict || !tls.len().is_multiple_of(2) || tls.iter().all(seated) {
            return None;
        }
        let key = |tl: &Tl<'t>| (tl.text_of("SCORE"), tl.text_of("NS_MATCH_POINTS"));
        let mut used = vec![false; tls.len()];
        let mut out = Vec::with_capacity(tls.len() / 2);
        for i in 0..tls.len() {
            if used[i] {
                continue;
            }
            let others = |j: usize| {
                let (a, b) = (ne[i], ne[j]);
                a.0 != b.0 && a.0 != b.1 && a.1 != b.0 && a.1 != b.1
            };
            let j = (i + 1..tls.len())
                .find(|&j| !used[j] && key(&tls[j]) == key(&tls[i]) && others(j))?;
            used[i] = true;
            used[j] = true;
            out.push((i, [ne[i].0, ne[j].0, ne[i].1, ne[j].1]));
        }
        let mut all: Vec<&str> = out.iter().flat_map(|(_, p)| p.iter().copied()).collect();
        all.sort_unstable();
        (all.windows(2).all(|w| w[0] != w[1])).then_some(out)
    }

    /// The player of a line's seat element `name` (board `board`).
    fn seat<'t>(
        &mut self,
        tl: Tl<'t>,
        name: &str,
        board: u32,
        resolve: &Resolver<'t>,
    ) -> Option<&'t str> {
        let Some(n) = tl.text_of(name) else {
            self.line_problem(
                tl.path_of(name),
                format!("board {board}: missing; expected a player's number (the line names all four seats)"),
            );
            return None;
        };
        let id = resolve.get(n);
        if id.is_none() {
            self.line_problem(
                tl.path_of(name),
                format!(
                    "board {board}: {name} {} is not a PLAYER of the file",
                    crate::import::quote(n)
                ),
            );
        }
        id
    }
}
