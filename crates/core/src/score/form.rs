//! The scoring forms: what a form is (its [`Spec`]) and the one list of them ([`Form`]).
//!
//! A form is one module of [`crate::score`] holding a `pub static FORM: Spec`: its name in the
//! log, how it scores (a pairs form's board, a team form's match: its kind, `crate::kind::of`), the session options it accepts, the penalty units it takes,
//! how a board is scored and how a match finishes, and its names in the interchange formats and
//! in `explain`. The rest of the program asks the form's `Spec`, never which form it has; adding a
//! form is its module plus one line of the [`forms!`] list below.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{BoardIn, BoardScore, PId};
use crate::error::Notice;
use crate::num::Q;
use crate::options::{OptionError, Options};

/// What a `penalty` event's amount is in (C20): which a session takes is its form's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PenaltyUnit {
    PctOfTop,
    Mp,
    Imp,
    Vp,
}

impl PenaltyUnit {
    pub const ALL: [(&'static str, PenaltyUnit); 4] = [
        ("pct_of_top", PenaltyUnit::PctOfTop),
        ("mp", PenaltyUnit::Mp),
        ("imp", PenaltyUnit::Imp),
        ("vp", PenaltyUnit::Vp),
    ];

    pub fn name(self) -> &'static str {
        PenaltyUnit::ALL.iter().find(|(_, u)| *u == self).unwrap().0
    }

    /// The units a session of `form` accepts (C20).
    pub fn allowed_for(form: Form) -> &'static [PenaltyUnit] {
        form.spec().penalty_units
    }
}

/// Everything the program knows of one form.
pub struct Spec {
    /// Its name in the log's `session.form`.
    pub name: &'static str,
    /// How messages call it in words ("matchpoints", "cross-IMPs", "board-a-match"...).
    pub title: &'static str,
    /// Scores are matchpoints: they have a top and a percentage, lines are factored (C7).
    pub matchpoints: bool,
    /// The session options it accepts (what each means is said in `options.rs`).
    pub options: &'static [&'static str],
    /// The penalty units a session of it accepts (C20).
    pub penalty_units: &'static [PenaltyUnit],
    /// How its boards and matches are scored, by kind.
    pub rules: Rules,
    /// How `export --format pbn` writes it; `None`: PBN cannot say it.
    pub pbn: Option<Pbn>,
    /// How `export --format usebio` writes it; `None`: USEBIO cannot say it.
    pub usebio: Option<Usebio>,
    /// Its `ScoringType` in a Bridgemate database (as BridgeTab and others write the column);
    /// `None`: `import` does not read it from one.
    pub bws: Option<i64>,
}

/// How a form scores, by its kind: a pairs form scores a board of a comparison group; a team
/// form scores a board of a match from its two rooms and finishes the match.
pub enum Rules {
    Pairs(PairRules),
    Teams(TeamRules),
}

/// A pairs form's scoring.
pub struct PairRules {
    /// Score one board of one comparison group; `None`: this version does not score the form
    /// (a log of it is refused when scored).
    pub score: Option<fn(&BoardIn) -> BoardScore>,
    /// `explain`: the unit of a board score ("MP", "IMP"...).
    pub unit: &'static str,
    /// `explain`: the options that shape its arithmetic, as `name=value, ...`.
    pub options_text: fn(&Options) -> String,
    /// `explain`: what one component of an adjusted side's score is ("2×beaten + tied"...).
    pub component: &'static str,
    /// `explain`: each distinct result's comparisons against the others are listed (cross-IMPs).
    pub comparisons: bool,
}

/// A team form's scoring: one board of a match is scored for each team on its own
/// (`rooms::score_board`), from its part in each room; the match then finishes.
pub struct TeamRules {
    /// A team's board value of one comparison: its NS points less the other room's (NS view).
    pub board_value: fn(i64, &Options) -> Q,
    /// The value of an artificial part of `pct` percent for its team: (board value, aggregate
    /// points) (C17, C25, C26).
    pub artificial: fn(Q) -> (Q, Q),
    /// A knockout match gives both teams the average of the two calculations (Law 86B, C37).
    pub knockout_average: bool,
    /// The match's totals made into its result.
    pub finish: fn(&MatchIn, &mut Vec<Notice>) -> MatchOut,
    /// `explain`: the unit of a board score.
    pub unit: &'static str,
    /// `explain`: what one comparison of net points `d` is worth, as text.
    pub value_text: fn(i32) -> String,
    /// `explain`: each team's Patton aggregate is shown.
    pub shows_aggregate: bool,
}

/// One match's totals over its scored boards, for [`TeamRules::finish`].
pub struct MatchIn<'a> {
    pub id: &'a str,
    /// The match's line in the log (for notices).
    pub line: usize,
    pub home: PId,
    pub away: PId,
    /// Boards the match declares.
    pub boards: u32,
    /// Home's and away's board values summed, IMP penalties taken off (C18, C20).
    pub points: [Q; 2],
    /// Home's and away's aggregate contributions summed (Patton).
    pub aggregate: [Q; 2],
    pub options: &'a Options,
    /// The teams named non-offending by a structured subsequent-damage ruling of the match
    /// (asked only by a form that needs them).
    pub nos_teams: &'a dyn Fn() -> BTreeSet<PId>,
}

/// A match's result: its IMPs (or aggregates) when the form has them, and its victory points.
pub struct MatchOut {
    pub imps: Option<[Q; 2]>,
    pub vps: [Q; 2],
}

/// A form in PBN (PBN 2.1 §3.5 and the `ScoreTable` tags).
pub struct Pbn {
    /// The `Scoring` tag.
    pub scoring: &'static str,
    /// The unit of the score columns (`MP_NS`...).
    pub unit: &'static str,
    /// The total column of the `TotalScoreTable`.
    pub total: &'static str,
    /// The score table has a `ButlerDatum` column.
    pub datum: bool,
    /// What in a file says it, for `import`.
    pub read: PbnRead,
}

/// The `[Scoring]` words (PBN 2.1 §3.4.12, upper case) that say a form when a PBN file is
/// imported (`import::pbn`): a word of a form of the games' kind names it (the later form of the
/// list when a team match's tag has two).
pub struct PbnRead {
    /// Its words, each with the session option it sets (its name, its value as JSON).
    pub words: &'static [(&'static str, Option<(&'static str, &'static str)>)],
    /// Its words yield to another form's in the same tag (`MP;Butler` is Butler).
    pub yields: bool,
    /// The options a session of it read from PBN takes (name, JSON value).
    pub options: &'static [(&'static str, &'static str)],
}

/// A form in USEBIO 1.2.
pub struct Usebio {
    /// `EVENT_TYPE` of an event of it, and of a knockout event.
    pub event_type: &'static str,
    pub knockout_event_type: &'static str,
    pub board_scoring_method: &'static str,
    pub match_scoring_method: Option<&'static str>,
    /// A team board's points are `TEAM_POINTS`/`OPPOSING_TEAM_POINTS` (else `IMPS`).
    pub team_points: bool,
    /// A traveller line's NS and EW score elements, if it has them.
    pub line_points: Option<(&'static str, &'static str)>,
    /// What in a file says it, for `import` (producers' names as well as the standard's).
    pub read: UsebioRead,
}

/// The values of a USEBIO file's elements that say a form when it is imported
/// (`import::usebio`): a form of the kind the `EVENT_TYPE` says whose method names match is
/// read (the later form of the list when two do), else one whose `event_types` hold it.
pub struct UsebioRead {
    /// `BOARD_SCORING_METHOD` values.
    pub board: &'static [&'static str],
    /// `MATCH_SCORING_METHOD` values.
    pub matches: &'static [&'static str],
    /// `SCORING_METHOD` values.
    pub scoring: &'static [&'static str],
    /// `EVENT_TYPE` values that say it when no method does (and say its kind).
    pub event_types: &'static [&'static str],
    /// `EVENT_TYPE` values of a knockout event of it.
    pub knockout: &'static [&'static str],
    /// `EVENT_TYPE` values under which it is read when neither the file nor `--form` names a
    /// form (USEBIO: `PAIRS` without a method is matchpointed).
    pub unnamed: &'static [&'static str],
}

/// The list of forms: `Variant => module`, in the order they are shown and compared.
macro_rules! forms {
    ($($variant:ident => $module:ident),+ $(,)?) => {
        /// The scoring form of a session (event-log.md `session.form`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Form {
            $($variant),+
        }

        impl Form {
    /// Read the `options` object of a session of this form; every problem is reported.
    pub fn read_options(self, obj: &serde_json::Map<String, Value>) -> (Options, Vec<OptionError>) {
        let mut o = Options::default();
        let mut errors = Vec::new();
        for (name, value) in obj {
            if !crate::options::is_option(name) {
                errors.push(OptionError {
                    option: name.clone(),
                    message: format!("unknown option \"{name}\" (the session options are listed in docs/event-log.md)"),
                });
            } else if !self.accepts(name) {
                let names: Vec<_> = Form::ALL
                    .iter()
                    .filter(|f| f.accepts(name))
                    .map(|f| f.name())
                    .collect();
                errors.push(OptionError {
                    option: name.clone(),
                    message: format!(
                        "option \"{name}\" does not apply to form \"{}\" (it is an option of {})",
                        self.name(),
                        names.join(", ")
                    ),
                });
            } else if let Some(Err(m)) = crate::options::set_option(&mut o, name, value) {
                errors.push(OptionError {
                    option: name.clone(),
                    message: m.to_string(),
                });
            }
        }
        (o, errors)
    }

            /// Every form, in order.
            pub const ALL: &'static [Form] = &[$(Form::$variant),+];

            /// What the form is.
            pub fn spec(self) -> &'static Spec {
                match self {
                    $(Form::$variant => &super::$module::FORM),+
                }
            }
        }
    };
}

forms! {
    Mp => mp,
    Ximp => ximp,
    Butler => butler,
    Napki => napki,
    Teams => teams,
    Patton => patton,
    Bam => bam,
    Aggregate => aggregate,
}

impl Form {
    /// The form of a pairs session whose file names none (the older Bridgemate layout without
    /// `ScoringType`, a PBN file with matchpoint columns and no `[Scoring]`): matchpoints, the
    /// one place importers take it from.
    pub const UNNAMED: Form = Form::Mp;

    /// The form named `s` in a log.
    pub fn parse(s: &str) -> Option<Form> {
        Form::ALL.iter().copied().find(|f| f.name() == s)
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Its scores have a top: each side's maximum is kept, standings have percentages, a
    /// missed board comes through the percentage and sessions are carried by percentage.
    pub fn has_top(self) -> bool {
        self.spec().matchpoints
    }

    /// A board played at fewer tables than its field has its lines factored to the field
    /// (Neuberg, C7).
    pub fn factors_to_field(self) -> bool {
        self.spec().matchpoints
    }

    /// A pairs form's rules.
    pub fn pairs(self) -> Option<&'static PairRules> {
        match &self.spec().rules {
            Rules::Pairs(p) => Some(p),
            Rules::Teams(_) => None,
        }
    }

    /// A team form's rules.
    pub fn teams(self) -> Option<&'static TeamRules> {
        match &self.spec().rules {
            Rules::Pairs(_) => None,
            Rules::Teams(t) => Some(t),
        }
    }

    /// The forms `keep` accepts, each said by `say` (its name, its title...), as English text:
    /// "mp, ximp, butler or teams" with `last` "or". Every message that names forms takes them
    /// from here, so that a new form is in each.
    pub fn listed(
        keep: impl Fn(Form) -> bool,
        say: fn(Form) -> &'static str,
        last: &str,
    ) -> String {
        let words: Vec<&str> = Form::ALL
            .iter()
            .copied()
            .filter(|&f| keep(f))
            .map(say)
            .collect();
        words_listed(&words, last)
    }

    pub fn title(self) -> &'static str {
        self.spec().title
    }

    /// Whether a session of this form takes the option `name`.
    pub fn accepts(self, option: &str) -> bool {
        self.spec().options.contains(&option)
    }
}

/// `words` as English text: "a, b, c or d" with `last` "or" (one word alone; none: empty).
pub fn words_listed(words: &[&str], last: &str) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., end] => format!("{} {last} {end}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_parse_back() {
        let names: BTreeSet<&str> = Form::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(names.len(), Form::ALL.len());
        for &f in Form::ALL {
            assert_eq!(Form::parse(f.name()), Some(f));
        }
    }

    #[test]
    fn every_option_a_form_lists_is_an_option() {
        for &f in Form::ALL {
            for o in f.spec().options {
                assert!(
                    crate::options::is_option(o),
                    "form {} lists {o}, which options.rs does not know",
                    f.name()
                );
            }
        }
    }

    #[test]
    fn lists_in_words() {
        assert_eq!(words_listed(&[], "or"), "");
        assert_eq!(words_listed(&["mp"], "or"), "mp");
        assert_eq!(
            words_listed(&["mp", "ximp", "teams"], "and"),
            "mp, ximp and teams"
        );
        // Every form, in the list's order.
        assert_eq!(
            Form::listed(|_| true, Form::name, "or"),
            "mp, ximp, butler, napki, teams, patton, bam or aggregate"
        );
        assert_eq!(
            Form::listed(|f| f.has_top(), Form::title, "or"),
            "matchpoints"
        );
    }

    #[test]
    fn tops() {
        let mp: Vec<&str> = Form::ALL
            .iter()
            .filter(|f| f.has_top())
            .map(|f| f.name())
            .collect();
        assert_eq!(mp, ["mp"]);
    }
}
