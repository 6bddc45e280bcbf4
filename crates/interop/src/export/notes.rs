//! What frekans writes where an interchange format cannot say something, and its reading back:
//! a ruling other than an artificial score USEBIO or PBN can name (USEBIO's `NOTES` of the
//! traveller line, PBN's `Ruling` column of the score table), and what a session is beyond
//! its results (its form when the format has no name for it, compare, carry, options,
//! penalties, fouled boards, its matches' boards, deals' dealer and vulnerability: a root
//! `NOTES` of the USEBIO file, a `FrekansSession` tag of the session's first PBN game). One
//! text for both formats, written and read here, so that `frekans import` of an export scores
//! as the log did; other programs read the files without it (they see the table's result and
//! the format's own fields).
//!
//! Also the characters a format cannot hold (a control character in a name, a note or a place:
//! XML 1.0 has no way to write most controls below U+0020, PBN none to write any control character): written
//! as `crate::text` shows them, `\u{1b}`, and read back by [`read_text`] ([`write_text`]).

use std::borrow::Cow;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::adjust::{format_points, AdjustedScore, Side};

/// A table's ruling in force as the interchange formats see it (`export::results`' lines).
pub struct RulingView<'s> {
    pub id: &'s str,
    pub score: &'s AdjustedScore,
    /// Given as subsequent damage (structured): kept so, `sd_method` treats it apart.
    pub sd: Option<&'s crate::adjust::SubsequentDamage>,
    pub law: Option<&'s str>,
}

/// A ruling given in notation, in a note: `frekans adjusted score: <notation>; law: <law>;
/// ruling <id>`.
pub const RULING_PREFIX: &str = "frekans adjusted score: ";
/// A ruling given as subsequent damage (kept so, as `sd_method` treats it apart):
/// `frekans subsequent damage: side EW, before -140, after_infraction +130, after_loss +510,
/// offenders -140; law: ...; ruling ...`.
pub const SD_PREFIX: &str = "frekans subsequent damage: ";
/// A session, in a note: `frekans session: <JSON of SessionNote>`.
pub const SESSION_PREFIX: &str = "frekans session: ";

/// The character an escape `\u{HEX}` at the start of `s` stands for, and the escape's length:
/// one to six hex digits naming a Unicode scalar value, in braces.
fn escape_at(s: &str) -> Option<(char, usize)> {
    let rest = s.strip_prefix("\\u{")?;
    let end = rest.bytes().take(7).position(|b| b == b'}')?;
    let hex = &rest[..end];
    if hex.is_empty() || hex.len() > 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
    Some((c, 4 + end))
}

/// `s` as an interchange file holds it: each character `cannot` says the format cannot hold,
/// and each backslash that [`read_text`] would read as the start of an escape, written as
/// `\u{1b}` (the notation of `crate::text`); every other character kept. Borrowed when there
/// is nothing to write so.
pub fn write_text(s: &str, cannot: impl Fn(char) -> bool) -> Cow<'_, str> {
    let escaped = |(i, c): (usize, char)| cannot(c) || (c == '\\' && escape_at(&s[i..]).is_some());
    if !s.char_indices().any(escaped) {
        return Cow::Borrowed(s);
    }
    let mut o = String::with_capacity(s.len() + 16);
    for (i, c) in s.char_indices() {
        if escaped((i, c)) {
            let _ = write!(o, "\\u{{{:x}}}", c as u32);
        } else {
            o.push(c);
        }
    }
    Cow::Owned(o)
}

/// A text of an interchange file read back ([`write_text`]): each `\u{HEX}` the character it
/// names; anything else, a backslash not starting such an escape included, as it is.
pub fn read_text(s: &str) -> Cow<'_, str> {
    if !s.contains("\\u{") {
        return Cow::Borrowed(s);
    }
    let mut o = String::with_capacity(s.len());
    let mut i = 0;
    while let Some(k) = s[i..].find('\\') {
        o.push_str(&s[i..i + k]);
        i += k;
        match escape_at(&s[i..]) {
            Some((c, n)) => {
                o.push(c);
                i += n;
            }
            None => {
                o.push('\\');
                i += 1;
            }
        }
    }
    o.push_str(&s[i..]);
    Cow::Owned(o)
}

/// A ruling's note (see the prefixes).
pub fn ruling(r: &RulingView) -> String {
    let mut note = match r.sd {
        Some(sd) => format!(
            "{SD_PREFIX}side {}, before {}, after_infraction {}, after_loss {}, offenders {}",
            if sd.nos == Side::NS { "NS" } else { "EW" },
            format_points(sd.before),
            format_points(sd.after_infraction),
            format_points(sd.after_loss),
            format_points(sd.offenders)
        ),
        None => format!("{RULING_PREFIX}{}", r.score.normalised()),
    };
    if let Some(law) = r.law {
        note.push_str(&format!("; law: {law}"));
    }
    note.push_str(&format!("; ruling {}", r.id));
    note
}

/// A frekans note (a ruling's or a session's) that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum BadNote {
    /// A subsequent-damage ruling's body without its five parts.
    #[error("{0:?}: expected side, before, after_infraction, after_loss and offenders")]
    SdParts(String),
    #[error("{0:?}: not a part of a subsequent-damage ruling")]
    SdPart(String),
    #[error("{body:?}: not an adjusted score: {why}")]
    Adjusted {
        body: String,
        why: crate::adjust::notation::NotationError,
    },
    #[error("a frekans session note that cannot be read: {0}")]
    Session(serde_json::Error),
}

/// A ruling's note read back: its `score` or `subsequent_damage` field, the note's body (the
/// notation as written), and the law (`12C` when the note names none). `None`: not a ruling
/// note (any other text); `Err`: a ruling note that cannot be read.
pub type RulingNote = (Map<String, Value>, String, String);

pub fn read_ruling(n: &str) -> Option<Result<RulingNote, BadNote>> {
    let n = n.trim();
    let (rest, sd) = if let Some(r) = n.strip_prefix(RULING_PREFIX) {
        (r, false)
    } else if let Some(r) = n.strip_prefix(SD_PREFIX) {
        (r, true)
    } else {
        return None;
    };
    let (body, tail) = rest.split_once("; ").unwrap_or((rest, ""));
    // The law runs to the ruling's id (it may hold `; ` itself).
    let law = match tail.strip_prefix("law: ") {
        Some(l) => l.rsplit_once("; ruling ").map_or(l, |(l, _)| l),
        None => tail.split_once("; law: ").map(|(_, l)| l).unwrap_or("12C"),
    };
    let mut m = Map::new();
    if sd {
        let mut o = Map::new();
        for item in body.split(", ") {
            let Some((k, v)) = item.split_once(' ') else {
                return Some(Err(BadNote::SdParts(body.to_string())));
            };
            if !crate::adjust::sd::FIELDS.contains(&k) {
                return Some(Err(BadNote::SdPart(k.to_string())));
            }
            o.insert(k.to_string(), json!(v));
        }
        if o.len() != 5 {
            return Some(Err(BadNote::SdParts(body.to_string())));
        }
        m.insert("subsequent_damage".into(), Value::Object(o));
    } else {
        match crate::adjust::parse_adjusted(body) {
            Ok(a) => {
                m.insert("score".into(), json!(a.normalised()));
            }
            Err(why) => {
                return Some(Err(BadNote::Adjusted {
                    body: body.to_string(),
                    why,
                }))
            }
        }
    }
    Some(Ok((m, body.to_string(), law.to_string())))
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// A session as the formats cannot say it: everything its results and participants do not,
/// that scoring depends on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionNote {
    /// The session's id in the log (the file's `SESSION_ID`, PBN's `Round` is its name).
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its form (`session.form`).
    pub form: String,
    /// `field` when the whole field is compared (else `section`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<String>,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub carry: bool,
    /// The options that differ from their defaults (`options::to_json`).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub options: Map<String, Value>,
    /// Each `penalty` event of the session, without `type` and `session`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub penalties: Vec<Map<String, Value>>,
    /// Each board's fouled groups (`fouled` events) in force.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fouled: Vec<FouledNote>,
    /// The session's boards (a board no table played is the session's all the same).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boards: Vec<u32>,
    /// Team forms: each match, in the order the file lists them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<MatchNote>,
    /// Deals whose dealer or vulnerability is not the board number's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deals: Vec<DealNote>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FouledNote {
    pub board: u32,
    pub groups: Vec<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchNote {
    pub id: String,
    pub home: String,
    pub away: String,
    pub boards: Vec<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub knockout: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealNote {
    pub board: u32,
    pub dealer: String,
    pub vul: String,
}

/// A session's note (`frekans session: {...}`). Every character [`write_text`] would escape
/// in either format is a JSON escape in it: the control characters and the noncharacters XML
/// refuses (`\u007f`, `\ufffe`), and a backslash (`\u005c`, never `\\`, which could be followed
/// by `u{41}`); so the note is written and read as it is, in both formats.
pub fn session(n: &SessionNote) -> String {
    let json = serde_json::to_string(n).expect("a session note is plain JSON");
    // (serde_json escapes the controls below U+0020; a JSON text's backslashes each begin an escape, read from the
    // left: an escaped backslash is each `\\` so read)
    let json = crate::text::escape_json_text(&json)
        .replace("\\\\", "\\u005c")
        .replace('\u{fffe}', "\\ufffe")
        .replace('\u{ffff}', "\\uffff");
    format!("{SESSION_PREFIX}{json}")
}

/// A session's note read back: `None` for any other text, `Err` for a session note that
/// cannot be read.
pub fn read_session(n: &str) -> Option<Result<SessionNote, BadNote>> {
    let body = n.trim().strip_prefix(SESSION_PREFIX)?;
    Some(serde_json::from_str::<SessionNote>(body).map_err(BadNote::Session))
}

impl SessionNote {
    /// The events the note adds to session `sid` of an import, after its results (the
    /// `penalty` and `fouled` events), `matches` giving each of the note's match ids the
    /// importer's own (the same when the file kept them).
    pub fn events(&self, sid: &str, matches: &dyn Fn(&str) -> Option<String>) -> Vec<Value> {
        let mut out = Vec::new();
        for p in &self.penalties {
            let mut m = Map::new();
            m.insert("type".into(), json!("penalty"));
            m.insert("session".into(), json!(sid));
            for (k, v) in p {
                match (k.as_str(), v.as_str()) {
                    ("match", Some(id)) => {
                        m.insert("match".into(), json!(matches(id).unwrap_or(id.to_string())));
                    }
                    _ => {
                        m.insert(k.clone(), v.clone());
                    }
                }
            }
            out.push(Value::Object(m));
        }
        for f in &self.fouled {
            out.push(
                json!({"type": "fouled", "session": sid, "board": f.board, "groups": f.groups}),
            );
        }
        out
    }

    /// The deal's dealer and vulnerability the note gives for `board`.
    pub fn deal(&self, board: u32) -> Option<&DealNote> {
        self.deals.iter().find(|d| d.board == board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_a_format_cannot_hold_read_back() {
        let c0 = |c: char| c.is_control();
        assert_eq!(write_text("a\u{1b}[2K\nb", c0), "a\\u{1b}[2K\\u{a}b");
        assert_eq!(read_text("a\\u{1b}[2K\\u{a}b"), "a\u{1b}[2K\nb");
        // A backslash that would read as an escape is written as one; any other is kept.
        assert_eq!(
            write_text("\\u{1F0A1} C:\\x \\u{zz}", c0),
            "\\u{5c}u{1F0A1} C:\\x \\u{zz}"
        );
        assert_eq!(
            read_text("\\u{5c}u{1F0A1} C:\\x \\u{zz}"),
            "\\u{1F0A1} C:\\x \\u{zz}"
        );
        assert!(matches!(
            write_text("Zażółć <&> \"q\" ]", c0),
            Cow::Borrowed(_)
        ));
        // Not escapes: too many digits, a surrogate, beyond Unicode, unclosed.
        for s in [
            "\\u{0000041}",
            "\\u{d800}",
            "\\u{110000}",
            "\\u{41",
            "\\u{}",
            "\\",
        ] {
            assert_eq!(read_text(s), s);
        }
    }

    proptest::proptest! {
        #[test]
        fn write_text_then_read_text_is_the_text(
            s in "([\\\\u{}0-9a-fA-F]|\\PC|[\\x00-\\x1f\\x7f-\\u{9f}]){0,40}"
        ) {
            let w = write_text(&s, |c| c.is_control());
            proptest::prop_assert!(!w.chars().any(|c| c.is_control()));
            proptest::prop_assert_eq!(read_text(&w), s.as_str());
        }
    }

    #[test]
    fn ruling_notes_read_back() {
        let (m, body, law) = read_ruling(
            "frekans adjusted score: (60%+620&40%-100)/(+620); law: 12C1(c); 16B; ruling R7",
        )
        .unwrap()
        .unwrap();
        assert_eq!(m["score"], "(60%+620&40%-100)/(+620)");
        assert_eq!(body, "(60%+620&40%-100)/(+620)");
        assert_eq!(law, "12C1(c); 16B");
        let (m, _, law) = read_ruling("frekans subsequent damage: side EW, before -140, after_infraction +130, after_loss +510, offenders -140").unwrap().unwrap();
        assert_eq!(m["subsequent_damage"]["side"], "EW");
        assert_eq!(law, "12C");
        assert!(read_ruling("slow play").is_none());
        assert!(read_ruling("frekans adjusted score: 160%")
            .unwrap()
            .is_err());
    }

    #[test]
    fn session_notes_read_back() {
        let n = SessionNote {
            id: "RR1".into(),
            name: Some("Round \"robin\" 1".into()),
            form: "patton".into(),
            compare: None,
            carry: false,
            boards: vec![1, 2, 3],
            options: json!({"patton_300": "in_top_band"})
                .as_object()
                .unwrap()
                .clone(),
            penalties: vec![json!({"participant": "T1", "vp": 1.5, "match": "M2"})
                .as_object()
                .unwrap()
                .clone()],
            fouled: vec![],
            matches: vec![MatchNote {
                id: "M2".into(),
                home: "T1".into(),
                away: "T2".into(),
                boards: vec![1, 2, 3],
                knockout: true,
            }],
            deals: vec![],
        };
        let text = session(&n);
        assert!(text.starts_with(SESSION_PREFIX));
        assert_eq!(read_session(&text).unwrap().unwrap(), n);
        // Whatever its texts, a note is what either format writes of it, and reads back.
        let mut m = n.clone();
        m.name = Some("a\\u{41}\\\\\"\u{1b}\u{7f}\u{9b}\u{fffe}\u{ffff}\u{202e}\n\\".into());
        m.matches[0].home = "\\u{1b}".into();
        let text = session(&m);
        assert!(
            matches!(
                write_text(&text, |c| c.is_control()
                    || crate::export::usebio::not_xml(c)),
                Cow::Borrowed(_)
            ),
            "{text}"
        );
        assert_eq!(read_session(&text).unwrap().unwrap(), m);
        assert_eq!(read_session(&read_text(&text)).unwrap().unwrap(), m);
        let ev = n.events("S4", &|m| (m == "M2").then(|| "M1".to_string()));
        assert_eq!(
            ev[0],
            json!({"type": "penalty", "session": "S4", "participant": "T1", "vp": 1.5, "match": "M1"})
        );
        assert!(read_session("frekans session: {").unwrap().is_err());
        assert!(read_session("anything").is_none());
    }
}
