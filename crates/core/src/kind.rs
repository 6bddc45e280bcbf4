//! The kinds of session, as plugs: what differs between a session played by pairs and one played
//! in team matches (and any later kind) is its kind's [`Plug`], chosen once from the form's `Spec`
//! ([`of`]).
//!
//! A kind is one child module holding a `pub static PLUG: Plug` (`kind::pairs`, `kind::teams`):
//! what a session of it declares and how replay checks its tables, its session finish (pairs:
//! `mp_artificial: session_bounded`, the personal average), which penalties come off its
//! matches, its names in the interchange formats and what the view shows of it. The rest of the
//! program asks the plug a question (`in_matches`, `seats`, `finish`...), never which kind it is;
//! how a board is scored stays the form's (`score::form::Rules`). Adding a kind is its module,
//! a `Rules` of its own and one line of [`of`].

pub mod individual;
pub mod pairs;
pub mod teams;

use crate::num::Total;
use crate::options::Options;
use crate::score::form::{Form, PenaltyUnit, Rules};
use crate::score::BoardScore;

/// Everything the program knows of one kind of session.
pub struct Plug {
    /// Its name in messages ("a pairs session") and files.
    pub name: &'static str,
    /// Its name as a session's `kind` declares it.
    pub declared: &'static str,
    /// What one participant of it is ("pair", "team", "player").
    pub noun: &'static str,
    /// Its results name the four players by seat (`north`, `south`, `east`, `west`), each side
    /// two participants credited with the side's score; otherwise a side is one participant
    /// (`ns`, `ew`).
    pub seated: bool,
    /// Whether a session of `form` may declare this kind (every form may its own, [`of`]).
    pub takes: fn(Form) -> bool,
    /// Its boards are played in matches of two rooms: a result names its match and room, a
    /// `match` event declares one, a ruling with no result creates its table in the match, a
    /// board's scores depend on every board of its match and a participant's standing is its
    /// matches' result. Otherwise each board of a comparison group is scored on its own.
    pub in_matches: bool,
    /// The seat keys of a table's plays in the replay: (NS, EW).
    pub seats: (u8, u8),
    /// Why a `fouled` event is refused in a session of it; `None`: the board's groups are scored
    /// apart (C30).
    pub fouled_refused: Option<&'static str>,
    /// The penalty unit that comes off its matches before they finish rather than off the
    /// standings (C18, C20).
    pub match_penalty: Option<PenaltyUnit>,
    /// What it does when its session's boards are scored, before they are summed.
    pub finish: Finish,
    /// How many players one participant of it is (`synth`).
    pub players: usize,
    /// Its PBN `Competition` tag.
    pub pbn_competition: &'static str,
    /// Its participant's USEBIO element (`PAIR`, `TEAM`).
    pub usebio_participant: &'static str,
    /// The view shows each participant's running chart over the session's boards.
    pub running_charts: bool,
}

/// A kind's session finish: what is done to its scored boards and to its standings' totals.
pub struct Finish {
    /// On every scored pair board of the log, given each session's options when the session is
    /// of this kind (else `None`).
    pub boards: fn(sessions: &[Option<&Options>], boards: &mut [BoardScore]),
    /// On a member of a comparison group who played `boards` of the `most` anyone in its group
    /// played, before penalties: changes `total` and says whether it did (for the notice).
    pub member: fn(form: Form, boards: u32, most: u32, total: &mut Total) -> bool,
}

impl PartialEq for Plug {
    fn eq(&self, other: &Plug) -> bool {
        std::ptr::eq(self, other)
    }
}

impl std::fmt::Debug for Plug {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Every kind, in order.
pub const ALL: [&Plug; 3] = [&pairs::PLUG, &teams::PLUG, &individual::PLUG];

/// The kind of a session of `form`: the one place a kind is chosen, from how the form scores.
pub fn of(form: Form) -> &'static Plug {
    match form.spec().rules {
        Rules::Pairs(_) => &pairs::PLUG,
        Rules::Teams(_) => &teams::PLUG,
    }
}

/// The kind a session declares (`"kind"`), by its declared name.
pub fn named(name: &str) -> Option<&'static Plug> {
    ALL.into_iter().find(|k| k.declared == name)
}

/// Why a session of a form may not declare a kind ([`declared`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotItsKind<'k> {
    /// No kind has this name.
    #[error("expected {kinds}, found \"{0}\"", kinds = or_list(ALL.iter().map(|k| k.declared)))]
    Unknown(&'k str),
    /// A kind (declared name) that is no form's own (an individual's), not taken by this form.
    #[error("an {kind} session is scored at {}; form \"{}\" cannot be {kind}", taken_by(.kind), .form.name())]
    Elsewhere { kind: &'static str, form: Form },
    /// Another form's own kind.
    #[error("form \"{}\" is a {} form: its kind is \"{}\" (or leave \"kind\" out), found \"{kind}\"", .form.name(), own(.form).name, own(.form).declared)]
    Other { form: Form, kind: &'k str },
}

/// `"a", "b" or "c"`.
fn or_list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<String> = names.map(|n| format!("\"{n}\"")).collect();
    let (last, rest) = names.split_last().expect("a name");
    format!("{} or {last}", rest.join(", "))
}

/// The forms that take the kind declared as `kind`, as [`or_list`].
fn taken_by(kind: &str) -> String {
    let plug = named(kind).expect("a kind");
    or_list(
        Form::ALL
            .iter()
            .filter(|&&f| (plug.takes)(f))
            .map(|f| f.name()),
    )
}

fn own(form: &Form) -> &'static Plug {
    of(*form)
}

/// The kind of a session of `form` that declares `kind`: `Err` says why it may not.
pub fn declared(form: Form, kind: &str) -> Result<&'static Plug, NotItsKind<'_>> {
    let Some(plug) = named(kind) else {
        return Err(NotItsKind::Unknown(kind));
    };
    let own = of(form);
    if plug == own || (plug.takes)(form) {
        return Ok(plug);
    }
    if Form::ALL.iter().all(|&f| of(f) != plug) {
        return Err(NotItsKind::Elsewhere {
            kind: plug.declared,
            form,
        });
    }
    Err(NotItsKind::Other { form, kind })
}

/// What a participant is called in a standing (`"pair"`, `"team"`, `"player"`): a team's
/// (`team`: declared one), else the kind's of its standing's session, or overall (`session`
/// `None`) the seated kind's that every session of the championship (`kinds`) is of (an
/// individual championship's players), else a pair's.
pub fn noun(
    team: bool,
    session: Option<&'static Plug>,
    kinds: impl IntoIterator<Item = &'static Plug>,
) -> &'static str {
    match session {
        _ if team => teams::PLUG.noun,
        Some(k) => k.noun,
        None => all_seated(kinds).map_or(pairs::PLUG.noun, |k| k.noun),
    }
}

/// The seated kind (an individual's) that every one of `kinds` (a championship's sessions')
/// is, if any.
pub fn all_seated(kinds: impl IntoIterator<Item = &'static Plug>) -> Option<&'static Plug> {
    let mut kinds = kinds.into_iter();
    let first = kinds.next()?;
    (first.seated && kinds.all(|k| k == first)).then_some(first)
}

/// Every kind's session finish on the scored pair boards (`pipeline`), each on the sessions of it.
pub fn finish_boards(kinds: &[&'static Plug], options: &[&Options], boards: &mut [BoardScore]) {
    for plug in ALL {
        let mine: Vec<Option<&Options>> = kinds
            .iter()
            .zip(options)
            .map(|(k, o)| (*k == plug).then_some(*o))
            .collect();
        if mine.iter().any(Option::is_some) {
            (plug.finish.boards)(&mine, boards);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        // scoring-methods.md: matches of two rooms for teams, Patton and board-a-match.
        let teams: Vec<&str> = Form::ALL
            .iter()
            .filter(|&&f| of(f).in_matches)
            .map(|f| f.name())
            .collect();
        assert_eq!(teams, ["teams", "patton", "bam"]);
        assert!(ALL
            .iter()
            .all(|k| ALL.iter().filter(|o| *o == k).count() == 1));
    }
}
