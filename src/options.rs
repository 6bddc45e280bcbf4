//! Session scoring options: their names, values, defaults and the forms they belong to.
//!
//! Options live in the log's `session` event (`"options": {...}`) so that a replay is
//! self-contained. Every option has a documented default (scoring-methods.md §9,
//! adjusted-scores.md §11). An unknown name, an option of another form or a bad value is an
//! error naming the line and the option.

use serde_json::Value;

/// The scoring form of a session (event-log.md `session.form`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    Mp,
    Ximp,
    Butler,
    Napki,
    Teams,
    Patton,
    Bam,
    Aggregate,
}

impl Form {
    pub const ALL: [(&'static str, Form); 8] = [
        ("mp", Form::Mp),
        ("ximp", Form::Ximp),
        ("butler", Form::Butler),
        ("napki", Form::Napki),
        ("teams", Form::Teams),
        ("patton", Form::Patton),
        ("bam", Form::Bam),
        ("aggregate", Form::Aggregate),
    ];

    pub fn parse(s: &str) -> Option<Form> {
        Form::ALL.iter().find(|(n, _)| *n == s).map(|(_, f)| *f)
    }

    pub fn name(self) -> &'static str {
        Form::ALL.iter().find(|(_, f)| *f == self).unwrap().0
    }

    /// Forms scored in matchpoints (scores have a top and a percentage).
    pub fn is_mp(self) -> bool {
        self == Form::Mp
    }
}

/// How the comparison field of a session is formed (C1: default `section`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Compare {
    #[default]
    Section,
    Field,
}

macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        pub enum $name { $($(#[$vm])* $variant),+ }
        impl $name {
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            pub fn parse(s: &str) -> Option<Self> {
                match s { $($text => Some(Self::$variant),)+ _ => None }
            }
            pub fn name(self) -> &'static str {
                match self { $(Self::$variant => $text),+ }
            }
        }
    };
}

named_enum!(
    /// adjusted-scores §2.3 of scoring-methods.md: how adjusted tables enter the matchpoint tables.
    MpAdjustedMethod {
        #[default]
        PerLineWeighted = "per_line_weighted",
        Fractional = "fractional",
        PerLineFullEntries = "per_line_full_entries",
    }
);

named_enum!(
    /// adjusted-scores.md §5.7, A2, C11: how the field is scored after subsequent damage.
    SdMethod {
        #[default]
        Universal = "universal",
        Simplified = "simplified",
    }
);

named_enum!(
    /// scoring-methods.md §2.4, C9: the value of an artificial matchpoint score.
    MpArtificial {
        #[default]
        Fixed = "fixed",
        SessionBounded = "session_bounded",
    }
);

named_enum!(
    /// scoring-methods.md §2.2, C8: the small-field table for lines of fewer than 4 results.
    NeubergSmallField {
        #[default]
        HeTable = "he_table",
        Off = "off",
    }
);

named_enum!(
    /// adjusted-scores.md §11: how a line with fewer results than the field is factored.
    Factoring {
        #[default]
        Neuberg = "neuberg",
    }
);

named_enum!(
    /// adjusted-scores.md N6: the check that a split score's two sides sum to at most top.
    SplitCheck {
        #[default]
        Warn = "warn",
        Off = "off",
    }
);

/// The options of one session, every one with its default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    pub mp_adjusted_method: MpAdjustedMethod,
    pub sd_method: SdMethod,
    pub mp_artificial: MpArtificial,
    pub neuberg_small_field: NeubergSmallField,
    pub factoring: Factoring,
    pub split_check: SplitCheck,
    pub imp_lookup: crate::bridge::ImpLookup,
}

/// An option that could not be accepted: the option's name and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub option: String,
    pub message: String,
}

type Setter = fn(&mut Options, &Value) -> Result<(), String>;

fn named<T>(v: &Value, parse: fn(&str) -> Option<T>, names: &[&str]) -> Result<T, String> {
    let expected = names
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ");
    match v {
        Value::String(s) => {
            parse(s).ok_or_else(|| format!("expected one of {expected}, found \"{s}\""))
        }
        other => Err(format!("expected one of {expected}, found {other}")),
    }
}

const MP: &[Form] = &[Form::Mp];
const ALL_PAIR_FORMS: &[Form] = &[Form::Mp, Form::Ximp, Form::Butler, Form::Napki];

/// Every option: name, the forms it belongs to, how to set it.
const OPTIONS: &[(&str, &[Form], Setter)] = &[
    ("mp_adjusted_method", MP, |o, v| {
        o.mp_adjusted_method = named(v, MpAdjustedMethod::parse, MpAdjustedMethod::NAMES)?;
        Ok(())
    }),
    ("sd_method", ALL_PAIR_FORMS, |o, v| {
        o.sd_method = named(v, SdMethod::parse, SdMethod::NAMES)?;
        Ok(())
    }),
    ("mp_artificial", MP, |o, v| {
        o.mp_artificial = named(v, MpArtificial::parse, MpArtificial::NAMES)?;
        Ok(())
    }),
    ("neuberg_small_field", MP, |o, v| {
        o.neuberg_small_field = named(v, NeubergSmallField::parse, NeubergSmallField::NAMES)?;
        Ok(())
    }),
    ("factoring", MP, |o, v| {
        o.factoring = named(v, Factoring::parse, Factoring::NAMES)?;
        Ok(())
    }),
    ("split_check", ALL_PAIR_FORMS, |o, v| {
        o.split_check = named(v, SplitCheck::parse, SplitCheck::NAMES)?;
        Ok(())
    }),
    ("imp_lookup", ALL_PAIR_FORMS, |o, v| {
        o.imp_lookup = named(
            v,
            crate::bridge::ImpLookup::parse,
            &["nearest_ten", "band_floor"],
        )?;
        Ok(())
    }),
];

impl Options {
    /// Read the `options` object of a session of `form`; every problem is reported.
    pub fn from_json(
        form: Form,
        obj: &serde_json::Map<String, Value>,
    ) -> (Options, Vec<OptionError>) {
        let mut o = Options::default();
        let mut errors = Vec::new();
        for (name, value) in obj {
            match OPTIONS.iter().find(|(n, _, _)| n == name) {
                None => errors.push(OptionError {
                    option: name.clone(),
                    message: format!("unknown option \"{name}\" (see scoring-methods.md §9)"),
                }),
                Some((_, forms, set)) => {
                    if !forms.contains(&form) {
                        let names: Vec<_> = forms.iter().map(|f| f.name()).collect();
                        errors.push(OptionError {
                            option: name.clone(),
                            message: format!(
                                "option \"{name}\" does not apply to form \"{}\" (it is an option of {})",
                                form.name(),
                                names.join(", ")
                            ),
                        });
                    } else if let Err(m) = set(&mut o, value) {
                        errors.push(OptionError {
                            option: name.clone(),
                            message: m,
                        });
                    }
                }
            }
        }
        (o, errors)
    }
}
