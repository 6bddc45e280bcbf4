//! What a USEBIO event says about itself (its form), and small readings of the file's
//! values (board lists, dates, participant numbers).

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::tree::Element;
use crate::import::draft::member_id;
use crate::import::Request;
use crate::score::Form;

/// Whether a participant's number appears in two sections of a session.
pub(super) fn numbers_repeat(session: &Element) -> bool {
    // (each number's first section: a hundred thousand pairs looked up, not ordered)
    let mut section_of: crate::hash::FxMap<&str, &str> = Default::default();
    for sec in session.all("SECTION") {
        let id = sec.attr("SECTION_ID").unwrap_or_default();
        for parts in sec.all("PARTICIPANTS") {
            for p in &parts.children {
                let n = match p.name.as_str() {
                    "PAIR" => p.text_of("PAIR_NUMBER"),
                    "TEAM" => p.attr("TEAM_ID"),
                    _ => None,
                };
                if let Some(n) = n {
                    if *section_of.entry(n).or_insert(id) != id {
                        return true;
                    }
                }
            }
        }
    }
    false
}

pub(super) fn has_lines(b: &Element) -> bool {
    !b.lines.is_empty()
}

/// The players of a PAIR or TEAM as the log's `players` holds them: each name, or
/// `{"name", "id"}` with the player's federation member number (`NATIONAL_ID_NUMBER`, as
/// EBUScore and Compscore write it; none when empty or 0).
pub(super) fn players(p: &Element) -> Vec<Value> {
    p.all("PLAYER")
        .filter_map(|pl| {
            let name = pl.text_of("PLAYER_NAME")?;
            Some(match pl.text_of("NATIONAL_ID_NUMBER").and_then(member_id) {
                Some(id) => json!({"name": name, "id": id}),
                None => json!(name),
            })
        })
        .collect()
}

/// The session's `boards`: a range when the numbers run on, else the list.
pub(super) fn boards_value(boards: &BTreeSet<u32>) -> Value {
    let (first, last) = match (boards.first(), boards.last()) {
        (Some(&a), Some(&b)) => (a, b),
        _ => return json!([]),
    };
    if (last - first + 1) as usize == boards.len() {
        json!(format!("{first}-{last}"))
    } else {
        json!(boards.iter().collect::<Vec<_>>())
    }
}

/// `dd/mm/yyyy` → `yyyy-mm-dd`; anything else as written.
pub(super) fn iso_date(d: &str) -> String {
    let parts: Vec<&str> = d.split('/').collect();
    if let [dd, mm, yyyy] = parts[..] {
        if let (Ok(dd), Ok(mm), Ok(yyyy)) =
            (dd.parse::<u32>(), mm.parse::<u32>(), yyyy.parse::<u32>())
        {
            if (1..=31).contains(&dd) && (1..=12).contains(&mm) && (1000..=9999).contains(&yyyy) {
                return format!("{yyyy:04}-{mm:02}-{dd:02}");
            }
        }
    }
    d.to_string()
}

/// Why an event's form cannot be told, or is not one its kind is scored at.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum NoForm {
    /// `--form` that names no form.
    #[error("--form {0:?}: expected a form of event-log.md ({forms})", forms = Form::listed(|_| true, Form::name, "or"))]
    NotAForm(String),
    /// An EVENT_TYPE (quoted) that does not say how it is scored.
    #[error(
        "EVENT_TYPE {0} with no BOARD_SCORING_METHOD: cannot tell how it is scored; give --form"
    )]
    Unsaid(String),
    /// A seated kind's event (the kind's declared name) scored at a form it does not take.
    #[error("an {kind} event scored {}: an {kind} event is scored at {}", .form.name(), taken_by(.kind))]
    NotTaken { kind: &'static str, form: Form },
    /// `--form` not a form the seated kind takes.
    #[error("--form {form:?}: an {kind} event is scored at {}", taken_by(.kind))]
    FlagNotTaken { kind: &'static str, form: String },
    #[error("no form takes {0}")]
    NoneTakes(&'static str),
}

/// The forms the kind declared as `kind` takes, as English text ("mp or ximp").
fn taken_by(kind: &str) -> String {
    let plug = crate::kind::named(kind).expect("a kind");
    Form::listed(|f| (plug.takes)(f), Form::name, "or")
}

/// The form the event declares, and whether its matches are knockout matches; `--form`
/// where the file is silent.
pub(super) fn form_of(ev: &Element, req: &Request) -> Result<(Form, bool), NoForm> {
    let up = |s: Option<&str>| s.unwrap_or_default().trim().to_ascii_uppercase();
    let ty = up(ev.attr("EVENT_TYPE"));
    let bsm = up(ev.text_of("BOARD_SCORING_METHOD"));
    let msm = up(ev.text_of("MATCH_SCORING_METHOD"));
    let sm = up(ev.text_of("SCORING_METHOD"));
    // Each form says what in a file names it (`score::form::UsebioRead`): the kind the
    // EVENT_TYPE says (the first kind's when none does), then a form of that kind named by its
    // methods, else by the EVENT_TYPE.
    let read = |f: Form| f.spec().usebio.as_ref().map(|u| &u.read);
    let knockout = Form::ALL
        .iter()
        .any(|&f| read(f).is_some_and(|r| r.knockout.contains(&ty.as_str())));
    let kind = Form::ALL
        .iter()
        .find(|&&f| read(f).is_some_and(|r| r.event_types.contains(&ty.as_str())))
        .map_or(crate::kind::ALL[0], |&f| crate::kind::of(f));
    let of_kind = || {
        Form::ALL
            .iter()
            .copied()
            .filter(|&f| crate::kind::of(f) == kind)
            .filter_map(|f| Some((f, read(f)?)))
    };
    let declared = of_kind()
        .rev()
        .find(|(_, r)| {
            r.board.contains(&bsm.as_str())
                || r.matches.contains(&msm.as_str())
                || r.scoring.contains(&sm.as_str())
        })
        .or_else(|| of_kind().find(|(_, r)| r.event_types.contains(&ty.as_str())))
        .map(|(f, _)| f);
    if let Some(f) = declared {
        return Ok((f, knockout));
    }
    if let Some(f) = &req.form {
        return Form::parse(f)
            .map(|f| (f, knockout))
            .ok_or_else(|| NoForm::NotAForm(f.clone()));
    }
    let unnamed = Form::ALL
        .iter()
        .find(|&&f| read(f).is_some_and(|r| r.unnamed.contains(&ty.as_str())));
    match unnamed {
        // USEBIO: PAIRS without BOARD_SCORING_METHOD is a matchpointed pairs event.
        Some(&f) => Ok((f, knockout)),
        None => Err(NoForm::Unsaid(crate::import::quote(&ty))),
    }
}

/// Sort key of a path: its numbers compared as numbers (`BOARD[10]` after `BOARD[9]`).
pub(super) fn natural(s: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut num: Option<u64> = None;
    for c in s.chars() {
        if let Some(d) = c.to_digit(10) {
            num = Some(num.unwrap_or(0).saturating_mul(10).saturating_add(d as u64));
        } else {
            if let Some(n) = num.take() {
                out.push((std::mem::take(&mut word), n));
            }
            word.push(c);
        }
    }
    out.push((word, num.unwrap_or(0)));
    out
}
