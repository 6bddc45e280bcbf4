//! Session scoring options: their names, values and defaults (which forms take each is said by
//! each form's `score::form::Spec`).
//!
//! Options live in the log's `session` event (`"options": {...}`) so that a replay is
//! self-contained. Every option has a documented default (scoring-methods.md §9,
//! adjusted-scores.md §11). An unknown name, an option of another form or a bad value is an
//! error naming the line and the option.

use serde_json::Value;

use crate::num::Q;

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

named_enum!(
    /// scoring-methods.md §3: how adjusted tables enter other pairs' cross-IMP comparisons.
    XimpAdjustedMethod {
        #[default]
        PerLineWeighted = "per_line_weighted",
        Fractional = "fractional",
    }
);

named_enum!(
    /// scoring-methods.md §3, C12: the value of an artificial score at cross-IMPs.
    XimpArtificial {
        #[default]
        PerComparison = "per_comparison",
        Flat = "flat",
    }
);

named_enum!(
    /// scoring-methods.md §3, C12: a cross-IMP board score as a sum, or an average.
    XimpNormalize {
        #[default]
        Sum = "sum",
        Comparisons = "comparisons",
        Results = "results",
    }
);

named_enum!(
    /// scoring-methods.md §0: rounding the Butler datum.
    DatumRound {
        #[default]
        Nearest10 = "nearest_10",
        None = "none",
    }
);

named_enum!(
    /// scoring-methods.md §0: a datum ending in 5 rounds to the even ten, or away from zero.
    DatumTie {
        #[default]
        HalfEven = "half_even",
        HalfAwayFromZero = "half_away_from_zero",
    }
);

named_enum!(
    /// scoring-methods.md §8: which column is the napki score.
    NapOutput {
        #[default]
        Napki = "napki",
        Netto = "netto",
        Impy = "impy",
    }
);

named_enum!(
    /// scoring-methods.md §8, C29: the 2004 mean-deviation rule or the 2013 pairwise readings.
    NapVariant {
        #[default]
        MeanDeviation = "mean_deviation",
        Pairwise = "pairwise",
        PairwiseTransformed = "pairwise_transformed",
    }
);

named_enum!(
    /// scoring-methods.md §8, C29: M = (w/s)^u, or the primitive M = (s + w)/(2s).
    NapFormula {
        #[default]
        Power = "power",
        Primitive = "primitive",
    }
);

named_enum!(
    /// adjusted-scores.md T4, A5, C18: rounding a fractional IMP margin before the VP conversion.
    VpImpRounding {
        #[default]
        None = "none",
        Nos = "nos",
    }
);

named_enum!(
    /// scoring-methods.md §5: whether an aggregate of exactly 300 is in the 3:1 or the 4:0 band.
    Patton300 {
        #[default]
        InMiddleBand = "in_middle_band",
        InTopBand = "in_top_band",
    }
);

named_enum!(
    /// scoring-methods.md §5: the Patton aggregate by difference (the ratio form needs bands
    /// this version does not take).
    PattonAggregate {
        #[default]
        Difference = "difference",
    }
);

/// `butler_trim` (scoring-methods.md §4, C14): how much is trimmed from each end before the
/// datum is the mean of the rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ButlerTrim {
    /// `per_side` × the total weight from each end, fractions of a result allowed.
    Fractional(Q),
    /// floor(`per_side` × the total weight) from each end.
    WholeFloor(Q),
    /// Exactly `count` results from each end.
    Count(u32),
}

impl std::fmt::Display for ButlerTrim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ButlerTrim::Fractional(p) => write!(f, "{{per_side: {p}, mode: fractional}}"),
            ButlerTrim::WholeFloor(p) => write!(f, "{{per_side: {p}, mode: whole_floor}}"),
            ButlerTrim::Count(k) => write!(f, "{{count: {k}}}"),
        }
    }
}

impl Default for ButlerTrim {
    fn default() -> ButlerTrim {
        ButlerTrim::Fractional(Q::new(1, 10))
    }
}

/// The `butler_trim` values taken (every [`BadValue`] of a trim but a count's begins with it).
const EXPECTED_TRIM: &str = "expected {\"per_side\": 0.1, \"mode\": \"fractional\"}, {\"per_side\": 0.25, \"mode\": \"whole_floor\"} or {\"count\": 1}";

/// What is wrong with an option's value (the message the log's reader gives, with the option).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BadValue {
    /// Not a number within the range (its bounds).
    #[error("expected a number {}..={}, found {found}", .range[0], .range[1])]
    Number { range: Box<[Q; 2]>, found: Value },
    /// A name not among `expected` (the names quoted, joined), found as a string.
    #[error("expected one of {expected}, found \"{found}\"")]
    Name { expected: String, found: String },
    /// Something not a string where a name is expected.
    #[error("expected one of {expected}, found {found}")]
    NotName { expected: String, found: Value },
    #[error("expected true or false, found {0}")]
    NotBool(Value),
    #[error("\"ratio\" needs its aggregate bands in the session options (conventions C24), which this version does not take yet; use \"difference\"")]
    Ratio,
    #[error(transparent)]
    VpScale(#[from] crate::bridge::vp::BadVpScale),
    #[error("{e}, found {0}", e = EXPECTED_TRIM)]
    Trim(Value),
    #[error("{e}: \"count\" stands alone", e = EXPECTED_TRIM)]
    TrimCountAlone,
    #[error("\"count\" must be a whole number 0..=1000, found {0}")]
    TrimCount(Value),
    #[error("{e}: unknown key \"{0}\"", e = EXPECTED_TRIM)]
    TrimKey(String),
    #[error("{e}: \"per_side\" missing", e = EXPECTED_TRIM)]
    TrimPerSideMissing,
    #[error("\"per_side\": {0}")]
    TrimPerSide(Box<BadValue>),
    #[error("\"mode\": expected \"fractional\" or \"whole_floor\", found \"{0}\"")]
    TrimMode(String),
}

fn number(v: &Value, lo: Q, hi: Q) -> Result<Q, BadValue> {
    let q = match v {
        Value::Number(n) => Q::parse(&n.to_string()),
        _ => None,
    };
    match q {
        Some(q) if q >= lo && q <= hi => Ok(q),
        _ => Err(BadValue::Number {
            range: Box::new([lo, hi]),
            found: v.clone(),
        }),
    }
}

fn butler_trim(v: &Value) -> Result<ButlerTrim, BadValue> {
    let Value::Object(o) = v else {
        return Err(BadValue::Trim(v.clone()));
    };
    if let Some(c) = o.get("count") {
        if o.len() != 1 {
            return Err(BadValue::TrimCountAlone);
        }
        return match c.as_u64() {
            Some(k) if k <= 1000 => Ok(ButlerTrim::Count(k as u32)),
            _ => Err(BadValue::TrimCount(c.clone())),
        };
    }
    for k in o.keys() {
        if k != "per_side" && k != "mode" {
            return Err(BadValue::TrimKey(k.clone()));
        }
    }
    let per_side = number(
        o.get("per_side").ok_or(BadValue::TrimPerSideMissing)?,
        Q::ZERO,
        Q::new(1, 2),
    )
    .map_err(|e| BadValue::TrimPerSide(Box::new(e)))?;
    match o
        .get("mode")
        .and_then(Value::as_str)
        .unwrap_or("fractional")
    {
        "fractional" => Ok(ButlerTrim::Fractional(per_side)),
        "whole_floor" => Ok(ButlerTrim::WholeFloor(per_side)),
        other => Err(BadValue::TrimMode(other.to_string())),
    }
}

/// The options of one session, every one with its default.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub mp_adjusted_method: MpAdjustedMethod,
    pub sd_method: SdMethod,
    pub mp_artificial: MpArtificial,
    pub neuberg_small_field: NeubergSmallField,
    pub factoring: Factoring,
    pub split_check: SplitCheck,
    pub imp_lookup: crate::bridge::ImpLookup,
    pub ximp_adjusted_method: XimpAdjustedMethod,
    pub ximp_artificial: XimpArtificial,
    pub ximp_normalize: XimpNormalize,
    pub butler_trim: ButlerTrim,
    pub datum_round: DatumRound,
    pub datum_tie: DatumTie,
    pub nap_standard_dispersion: Q,
    pub nap_u: Q,
    pub nap_max_multiplier: Q,
    pub nap_output: NapOutput,
    pub nap_variant: NapVariant,
    pub nap_formula: NapFormula,
    pub vp_scale: crate::bridge::vp::VpScale,
    pub vp_imp_rounding: VpImpRounding,
    /// Knockout matches average the two teams' calculations (Law 86B); default true in a
    /// knockout match (`None` = the default).
    pub ko_average_split: Option<bool>,
    pub patton_board_draw_margin: Q,
    pub patton_300: Patton300,
    pub patton_aggregate: PattonAggregate,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            mp_adjusted_method: Default::default(),
            sd_method: Default::default(),
            mp_artificial: Default::default(),
            neuberg_small_field: Default::default(),
            factoring: Default::default(),
            split_check: Default::default(),
            imp_lookup: Default::default(),
            ximp_adjusted_method: Default::default(),
            ximp_artificial: Default::default(),
            ximp_normalize: Default::default(),
            butler_trim: Default::default(),
            datum_round: Default::default(),
            datum_tie: Default::default(),
            nap_standard_dispersion: Q::int(100),
            nap_u: Q::new(1, 2),
            nap_max_multiplier: Q::int(10),
            nap_output: Default::default(),
            nap_variant: Default::default(),
            nap_formula: Default::default(),
            vp_scale: crate::bridge::vp::VpScale::WbfContinuous,
            vp_imp_rounding: Default::default(),
            ko_average_split: None,
            patton_board_draw_margin: Q::ZERO,
            patton_300: Default::default(),
            patton_aggregate: Default::default(),
        }
    }
}

/// An option that could not be accepted: the option's name and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub option: String,
    pub message: String,
}

type Setter = fn(&mut Options, &Value) -> Result<(), BadValue>;

fn named<T>(v: &Value, parse: fn(&str) -> Option<T>, names: &[&str]) -> Result<T, BadValue> {
    let expected = names
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ");
    match v {
        Value::String(s) => parse(s).ok_or_else(|| BadValue::Name {
            expected,
            found: s.clone(),
        }),
        other => Err(BadValue::NotName {
            expected,
            found: other.clone(),
        }),
    }
}

/// Every option: name, how to set it (which forms take it is said by each form's `Spec`).
const OPTIONS: &[(&str, Setter)] = &[
    ("mp_adjusted_method", |o, v| {
        o.mp_adjusted_method = named(v, MpAdjustedMethod::parse, MpAdjustedMethod::NAMES)?;
        Ok(())
    }),
    ("sd_method", |o, v| {
        o.sd_method = named(v, SdMethod::parse, SdMethod::NAMES)?;
        Ok(())
    }),
    ("mp_artificial", |o, v| {
        o.mp_artificial = named(v, MpArtificial::parse, MpArtificial::NAMES)?;
        Ok(())
    }),
    ("neuberg_small_field", |o, v| {
        o.neuberg_small_field = named(v, NeubergSmallField::parse, NeubergSmallField::NAMES)?;
        Ok(())
    }),
    ("factoring", |o, v| {
        o.factoring = named(v, Factoring::parse, Factoring::NAMES)?;
        Ok(())
    }),
    ("split_check", |o, v| {
        o.split_check = named(v, SplitCheck::parse, SplitCheck::NAMES)?;
        Ok(())
    }),
    ("ximp_adjusted_method", |o, v| {
        o.ximp_adjusted_method = named(v, XimpAdjustedMethod::parse, XimpAdjustedMethod::NAMES)?;
        Ok(())
    }),
    ("ximp_artificial", |o, v| {
        o.ximp_artificial = named(v, XimpArtificial::parse, XimpArtificial::NAMES)?;
        Ok(())
    }),
    ("ximp_normalize", |o, v| {
        o.ximp_normalize = named(v, XimpNormalize::parse, XimpNormalize::NAMES)?;
        Ok(())
    }),
    ("butler_trim", |o, v| {
        o.butler_trim = butler_trim(v)?;
        Ok(())
    }),
    ("datum_round", |o, v| {
        o.datum_round = named(v, DatumRound::parse, DatumRound::NAMES)?;
        Ok(())
    }),
    ("datum_tie", |o, v| {
        o.datum_tie = named(v, DatumTie::parse, DatumTie::NAMES)?;
        Ok(())
    }),
    ("nap_standard_dispersion", |o, v| {
        o.nap_standard_dispersion = number(v, Q::new(1, 100), Q::int(100_000))?;
        Ok(())
    }),
    ("nap_u", |o, v| {
        o.nap_u = number(v, Q::ZERO, Q::ONE)?;
        Ok(())
    }),
    ("nap_max_multiplier", |o, v| {
        o.nap_max_multiplier = number(v, Q::new(1, 1000), Q::int(1_000_000))?;
        Ok(())
    }),
    ("nap_output", |o, v| {
        o.nap_output = named(v, NapOutput::parse, NapOutput::NAMES)?;
        Ok(())
    }),
    ("nap_variant", |o, v| {
        o.nap_variant = named(v, NapVariant::parse, NapVariant::NAMES)?;
        Ok(())
    }),
    ("nap_formula", |o, v| {
        o.nap_formula = named(v, NapFormula::parse, NapFormula::NAMES)?;
        Ok(())
    }),
    ("vp_scale", |o, v| {
        o.vp_scale = crate::bridge::vp::VpScale::from_json(v)?;
        Ok(())
    }),
    ("vp_imp_rounding", |o, v| {
        o.vp_imp_rounding = named(v, VpImpRounding::parse, VpImpRounding::NAMES)?;
        Ok(())
    }),
    ("ko_average_split", |o, v| {
        o.ko_average_split = Some(v.as_bool().ok_or_else(|| BadValue::NotBool(v.clone()))?);
        Ok(())
    }),
    ("patton_board_draw_margin", |o, v| {
        o.patton_board_draw_margin = number(v, Q::ZERO, Q::int(10_000))?;
        Ok(())
    }),
    ("patton_300", |o, v| {
        o.patton_300 = named(v, Patton300::parse, Patton300::NAMES)?;
        Ok(())
    }),
    ("patton_aggregate", |o, v| {
        if v.as_str() == Some("ratio") {
            return Err(BadValue::Ratio);
        }
        o.patton_aggregate = named(v, PattonAggregate::parse, PattonAggregate::NAMES)?;
        Ok(())
    }),
    ("imp_lookup", |o, v| {
        o.imp_lookup = named(
            v,
            crate::bridge::ImpLookup::parse,
            &["nearest_ten", "band_floor"],
        )?;
        Ok(())
    }),
];

/// Whether `name` is a session option.
pub fn is_option(name: &str) -> bool {
    OPTIONS.iter().any(|(n, _)| *n == name)
}

/// Set option `name` of `o` from its JSON value: `None` when there is no such option, else
/// what is wrong with the value.
pub fn set_option(o: &mut Options, name: &str, value: &Value) -> Option<Result<(), BadValue>> {
    let (_, set) = OPTIONS.iter().find(|(n, _)| *n == name)?;
    Some(set(o, value))
}

/// A number as an option's value: a JSON number when it is a terminating decimal (as every
/// value read from the log's JSON numbers is), else its fraction as a string (`"100/3"`, which
/// the custom VP table takes).
pub fn number_value(q: Q) -> Value {
    let text = q.to_string();
    if text.contains('/') {
        return Value::from(text);
    }
    serde_json::from_str::<Value>(&text).unwrap_or(Value::from(text))
}

/// Option `name` of `o` as the log writes it (`None`: no such option).
pub fn option_value(o: &Options, name: &str) -> Option<Value> {
    let s = |x: &str| Value::from(x);
    Some(match name {
        "mp_adjusted_method" => s(o.mp_adjusted_method.name()),
        "sd_method" => s(o.sd_method.name()),
        "mp_artificial" => s(o.mp_artificial.name()),
        "neuberg_small_field" => s(o.neuberg_small_field.name()),
        "factoring" => s(o.factoring.name()),
        "split_check" => s(o.split_check.name()),
        "imp_lookup" => s(o.imp_lookup.name()),
        "ximp_adjusted_method" => s(o.ximp_adjusted_method.name()),
        "ximp_artificial" => s(o.ximp_artificial.name()),
        "ximp_normalize" => s(o.ximp_normalize.name()),
        "butler_trim" => match o.butler_trim {
            ButlerTrim::Fractional(p) => {
                serde_json::json!({"per_side": number_value(p), "mode": "fractional"})
            }
            ButlerTrim::WholeFloor(p) => {
                serde_json::json!({"per_side": number_value(p), "mode": "whole_floor"})
            }
            ButlerTrim::Count(k) => serde_json::json!({ "count": k }),
        },
        "datum_round" => s(o.datum_round.name()),
        "datum_tie" => s(o.datum_tie.name()),
        "nap_standard_dispersion" => number_value(o.nap_standard_dispersion),
        "nap_u" => number_value(o.nap_u),
        "nap_max_multiplier" => number_value(o.nap_max_multiplier),
        "nap_output" => s(o.nap_output.name()),
        "nap_variant" => s(o.nap_variant.name()),
        "nap_formula" => s(o.nap_formula.name()),
        "vp_scale" => match &o.vp_scale {
            crate::bridge::vp::VpScale::WbfContinuous => s("wbf_continuous"),
            crate::bridge::vp::VpScale::WbfDiscrete => s("wbf_discrete"),
            crate::bridge::vp::VpScale::Custom(t) => {
                serde_json::json!({ "custom": t.iter().map(|&q| number_value(q)).collect::<Vec<_>>() })
            }
        },
        "vp_imp_rounding" => s(o.vp_imp_rounding.name()),
        "ko_average_split" => match o.ko_average_split {
            Some(b) => Value::from(b),
            None => return None,
        },
        "patton_board_draw_margin" => number_value(o.patton_board_draw_margin),
        "patton_300" => s(o.patton_300.name()),
        "patton_aggregate" => s(o.patton_aggregate.name()),
        _ => return None,
    })
}

/// The options of `names` that differ from their defaults, as a session event's `options`
/// object writes them: read back (`set_option`), they are `o`'s (the interchange formats carry
/// a session's options so).
pub fn to_json(o: &Options, names: &[&str]) -> serde_json::Map<String, Value> {
    let default = Options::default();
    let mut out = serde_json::Map::new();
    for name in names {
        if let Some(v) = option_value(o, name) {
            if option_value(&default, name).as_ref() != Some(&v) {
                out.insert(name.to_string(), v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option, set to a value other than its default, is written so that reading it
    /// back gives it again (and the defaults are not written).
    #[test]
    fn options_read_back_as_written() {
        let names: Vec<&str> = OPTIONS.iter().map(|(n, _)| *n).collect();
        assert!(to_json(&Options::default(), &names).is_empty());
        let settings = serde_json::json!({
            "mp_adjusted_method": "per_line_full_entries", "sd_method": "simplified",
            "mp_artificial": "session_bounded", "neuberg_small_field": "off",
            "factoring": "neuberg", "split_check": "off", "imp_lookup": "band_floor",
            "ximp_adjusted_method": "fractional", "ximp_artificial": "flat",
            "ximp_normalize": "results", "butler_trim": {"per_side": 0.125, "mode": "whole_floor"},
            "datum_round": "none", "datum_tie": "half_away_from_zero",
            "nap_standard_dispersion": 123.45, "nap_u": 0.3, "nap_max_multiplier": 7.5,
            "nap_output": "impy", "nap_variant": "pairwise_transformed", "nap_formula": "primitive",
            "vp_scale": {"custom": [10, 10.5, "100/3"]}, "vp_imp_rounding": "nos",
            "ko_average_split": false, "patton_board_draw_margin": 20, "patton_300": "in_top_band",
            "patton_aggregate": "difference"
        });
        let mut o = Options::default();
        for (k, v) in settings.as_object().unwrap() {
            set_option(&mut o, k, v).unwrap().unwrap();
        }
        let mut back = Options::default();
        for (k, v) in to_json(&o, &names) {
            set_option(&mut back, &k, &v).unwrap().unwrap();
        }
        assert_eq!(back, o);
        for trim in [
            serde_json::json!({"count": 3}),
            serde_json::json!({"per_side": 0.2}),
        ] {
            let mut o = Options::default();
            set_option(&mut o, "butler_trim", &trim).unwrap().unwrap();
            let mut back = Options::default();
            for (k, v) in to_json(&o, &names) {
                set_option(&mut back, &k, &v).unwrap().unwrap();
            }
            assert_eq!(back, o);
        }
    }
}
