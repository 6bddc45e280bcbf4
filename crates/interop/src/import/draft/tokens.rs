//! The token rules producers share, for every reader of a table's play: contracts such as
//! `3D*` or `PO`, a play checked against its score (Law 77), artificial scores such as `^60`,
//! `A+` or `A6040`, decimal numbers and players' names as cells write them.

use std::borrow::Cow;

use crate::bridge::{ns_points, parse_contract, Bid, Seat, Unreadable, Vul};
use crate::num::Q;

use super::Play;

/// A contract as producers write it, in the log's spelling: `PO`, `Pass`, `AP` for passed out;
/// `*`/`**` (Bridgewebs) or `x`/`xx` for doubled and redoubled; suit symbols and `NT`/`N`.
pub(crate) fn contract(token: &str) -> Result<Bid, BadContract> {
    let t = token.trim();
    // A short token of printable ASCII (nearly all are) is uppercased in place: it has no
    // space to remove, and its ASCII uppercase is its uppercase.
    let mut buf = [0u8; 16];
    let up: Cow<str> = if t.len() <= buf.len() && t.bytes().all(|b| b.is_ascii_graphic()) {
        let b = &mut buf[..t.len()];
        b.copy_from_slice(t.as_bytes());
        b.make_ascii_uppercase();
        Cow::Borrowed(std::str::from_utf8(b).expect("ASCII"))
    } else {
        Cow::Owned(t.to_uppercase().replace(' ', ""))
    };
    if matches!(
        &*up,
        "PO" | "PASS" | "AP" | "P" | "ALLPASS" | "PASSED" | "0"
    ) {
        return Ok(Bid::Pass);
    }
    let bare = up.trim_end_matches('*');
    match up.len() - bare.len() {
        0 => Ok(parse_contract(bare)?),
        1 => Ok(parse_contract(&format!("{bare}X"))?),
        2 => Ok(parse_contract(&format!("{bare}XX"))?),
        _ => Err(BadContract::Stars(crate::import::quote(t))),
    }
}

/// A contract token that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BadContract {
    #[error(transparent)]
    Unreadable(#[from] Unreadable),
    /// More than two stars (the token quoted).
    #[error("expected a contract such as \"4S\", \"3D*\" or \"PO\", found {0}")]
    Stars(String),
}

/// Why a table's cells are not a play ([`play_at`], [`play_or_score`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum NotAPlay {
    #[error("neither a contract nor a score: nothing says what happened at this table")]
    Nothing,
    #[error("{label}: {why}")]
    Contract {
        label: &'static str,
        why: BadContract,
    },
    #[error("{label}: {why}")]
    Declarer {
        label: &'static str,
        why: Unreadable,
    },
    #[error("{label}: {contract} needs a declarer (N, E, S or W)")]
    NoDeclarer {
        label: &'static str,
        contract: String,
    },
    #[error("{label}: {contract} needs the tricks taken")]
    NoTricks {
        label: &'static str,
        contract: String,
    },
    /// The tricks as the file's reader could not read them, said by it.
    #[error("{0}")]
    Tricks(String),
    #[error(transparent)]
    Score(#[from] WrongScore),
    #[error("the score {0} contradicts a passed-out board (0)")]
    PassedOut(i32),
}

/// A score that is not what Law 77 gives for its table's play ([`check_score`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the score {score} (NS) contradicts {bid}{} with {tricks} tricks, which scores {expected} for NS (vulnerable: {})", .declarer.map(|d| format!(" by {d}")).unwrap_or_default(), .vul.as_str())]
pub(crate) struct WrongScore {
    pub score: i32,
    pub bid: Bid,
    pub declarer: Option<Seat>,
    pub tricks: u8,
    pub expected: i32,
    pub vul: Vul,
}

/// What a file calls the cells of a table's play, for messages (`Contract` in PBN, `contract`
/// in a spreadsheet).
pub(crate) struct PlayLabels {
    pub contract: &'static str,
    pub declarer: &'static str,
    /// What to give when a contract has no tricks (`Result`; `tricks or result`).
    pub tricks: &'static str,
}

/// A table's play from a file's cells, checked: a contract needs its declarer and the tricks
/// (`tricks` reads them for the contract from the file's own cells; `Ok(None)` when it gives
/// none), and a score given beside it must be what Law 77 gives (`vul`); a passed-out board
/// scores 0; a table needs a contract or a score. `Err`: the message.
pub(crate) fn play_at<E: std::fmt::Display>(
    play: Play,
    contract: Option<&str>,
    declarer: Option<&str>,
    tricks: impl FnOnce(&crate::bridge::Contract) -> Result<Option<u8>, E>,
    vul: Vul,
    labels: &PlayLabels,
) -> Result<Play, NotAPlay> {
    checked_play(play, contract, declarer, tricks, vul, labels).map_err(|e| match e {
        PlayError::Unreadable(m, _) | PlayError::Wrong(m) => m,
    })
}

/// What [`play_or_score`] made of a table.
pub(crate) enum Taken {
    /// The play as the file gives it, checked.
    Play(Play),
    /// A slip: the play cannot be read (the message says what), but the NS score can: the table
    /// taken by its score alone (contract, declarer and tricks left out).
    Score(Play, NotAPlay),
}

impl Taken {
    /// The notice a reader gives for a slip taken by its score (`None` for a play): what could
    /// not be read, and the score taken.
    pub fn notice(&self) -> Option<String> {
        match self {
            Taken::Play(_) => None,
            Taken::Score(p, m) => Some(format!(
                "{m}; the play cannot be read, so the table is taken by its score alone ({} for NS)",
                p.score.unwrap_or(0)
            )),
        }
    }

    /// The play, and the slip when it was taken by its score.
    pub fn split(self) -> (Play, Option<Slip>) {
        let notice = self.notice();
        match self {
            Taken::Play(p) => (p, None),
            Taken::Score(p, refusal) => (
                p,
                Some(Slip {
                    notice: notice.expect("a slip has its notice"),
                    refusal: refusal.to_string(),
                }),
            ),
        }
    }
}

/// A table taken by its score alone ([`Taken::Score`]): the notice that says so, and the
/// message refusing it under `--strict`.
#[derive(Clone, Debug)]
pub(crate) struct Slip {
    pub notice: String,
    pub refusal: String,
}

impl super::Draft {
    /// A slip met at `at`: with `--strict` a problem of the row (refused, or skipped with
    /// `--lenient`) and `false`; else noted, and `true` (the table is taken).
    pub fn slip(&mut self, at: &str, slip: Slip) -> bool {
        if self.strict {
            self.bad(at, slip.refusal);
            false
        } else {
            self.notice(at, slip.notice);
            true
        }
    }

    /// A table at `at` added by `add`, taken with its slip if it has one: with `--strict` the
    /// slip is the row's problem and the table is not added; else the table is added, and the
    /// slip noted once it is added without a problem (a table refused for another reason, a
    /// pair playing the board twice, says only that).
    pub fn take(&mut self, at: &str, slip: Option<Slip>, add: impl FnOnce(&mut Self)) {
        match slip {
            None => add(self),
            Some(slip) if self.strict => self.bad(at, slip.refusal),
            Some(slip) => {
                let before = self.problems.len() + self.skipped.len();
                add(self);
                if self.problems.len() + self.skipped.len() == before {
                    self.notice(at, slip.notice);
                }
            }
        }
    }
}

/// [`play_at`], a slip forgiven: a table whose play (contract, declarer or tricks) cannot be
/// read but whose NS score can is [`Taken::Score`], the score alone (a real file's traveller
/// line writes `42` for a contract beside its right score). A play that contradicts its score,
/// and a table with neither a readable play nor a score, are still `Err`.
pub(crate) fn play_or_score<E: std::fmt::Display>(
    play: Play,
    contract: Option<&str>,
    declarer: Option<&str>,
    tricks: impl FnOnce(&crate::bridge::Contract) -> Result<Option<u8>, E>,
    vul: Vul,
    labels: &PlayLabels,
) -> Result<Taken, NotAPlay> {
    match checked_play(play, contract, declarer, tricks, vul, labels) {
        Ok(p) => Ok(Taken::Play(p)),
        Err(PlayError::Unreadable(m, Some(p))) => Ok(Taken::Score(*p, m)),
        Err(PlayError::Unreadable(m, None) | PlayError::Wrong(m)) => Err(m),
    }
}

/// Why a table's cells are not a play.
enum PlayError {
    /// The contract, declarer or tricks cannot be read (or are missing): the message, and the
    /// table by its score alone when it has one.
    Unreadable(NotAPlay, Option<Box<Play>>),
    /// The play contradicts its score, or nothing says what happened.
    Wrong(NotAPlay),
}

fn checked_play<E: std::fmt::Display>(
    mut play: Play,
    contract: Option<&str>,
    declarer: Option<&str>,
    tricks: impl FnOnce(&crate::bridge::Contract) -> Result<Option<u8>, E>,
    vul: Vul,
    labels: &PlayLabels,
) -> Result<Play, PlayError> {
    let Some(ct) = contract else {
        if play.score.is_none() {
            return Err(PlayError::Wrong(NotAPlay::Nothing));
        }
        return Ok(play);
    };
    // The table by its score alone, when the play cannot be read.
    let unreadable = |m: NotAPlay, play: &Play| {
        let by_score = play.score.map(|score| {
            Box::new(Play {
                score: Some(score),
                lead: play.lead.clone(),
                ..Play::default()
            })
        });
        PlayError::Unreadable(m, by_score)
    };
    let bid = match self::contract(ct) {
        Ok(b) => b,
        Err(why) => {
            let label = labels.contract;
            return Err(unreadable(NotAPlay::Contract { label, why }, &play));
        }
    };
    let score = play.score;
    match bid {
        Bid::Contract(c) => {
            let by = match declarer.map(crate::bridge::parse_seat) {
                Some(Ok(x)) => x,
                Some(Err(why)) => {
                    let label = labels.declarer;
                    return Err(unreadable(NotAPlay::Declarer { label, why }, &play));
                }
                None => {
                    let m = NotAPlay::NoDeclarer {
                        label: labels.declarer,
                        contract: ct.to_string(),
                    };
                    return Err(unreadable(m, &play));
                }
            };
            let taken = match tricks(&c) {
                Ok(Some(t)) => t,
                Ok(None) => {
                    let m = NotAPlay::NoTricks {
                        label: labels.tricks,
                        contract: ct.to_string(),
                    };
                    return Err(unreadable(m, &play));
                }
                Err(m) => return Err(unreadable(NotAPlay::Tricks(m.to_string()), &play)),
            };
            play.contract = Some(bid.text(&mut [0; 8]).to_string());
            play.declarer = Some(String::from(by.letter()));
            play.tricks = Some(taken);
            if let Some(sc) = score {
                check_score(bid, Some(by), taken, vul, sc)
                    .map_err(|e| PlayError::Wrong(e.into()))?;
            }
        }
        Bid::Pass => {
            play.contract = Some(bid.text(&mut [0; 8]).to_string());
            if let Some(sc) = score.filter(|&x| x != 0) {
                return Err(PlayError::Wrong(NotAPlay::PassedOut(sc)));
            }
        }
    }
    Ok(play)
}

/// The NS points a file gives for a table checked against its contract, declarer and tricks:
/// `Err` naming both when they differ.
pub(crate) fn check_score(
    bid: Bid,
    declarer: Option<Seat>,
    tricks: u8,
    vul: Vul,
    score: i32,
) -> Result<(), WrongScore> {
    let by = declarer.unwrap_or(Seat::N);
    let expected = ns_points(bid, by, tricks, vul);
    if expected == score {
        return Ok(());
    }
    Err(WrongScore {
        score,
        bid,
        declarer,
        tricks,
        expected,
        vul,
    })
}

/// One side's artificial score.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Art {
    /// `A+`, `A` or `A-`.
    Named(&'static str),
    /// A percentage.
    Pct(Q),
}

impl Art {
    /// The named averages files write as percentages (60, 50, 40) are the named artificial
    /// scores (interface.md); any other percentage is itself.
    pub fn from_pct(p: Q) -> Art {
        if p == Q::int(60) {
            Art::Named("A+")
        } else if p == Q::int(50) {
            Art::Named("A")
        } else if p == Q::int(40) {
            Art::Named("A-")
        } else {
            Art::Pct(p)
        }
    }

    fn notation(&self) -> String {
        match self {
            Art::Named(n) => n.to_string(),
            Art::Pct(p) => format!("{}%", decimal(*p)),
        }
    }
}

/// `NS/EW` in the adjusted-score notation.
pub(crate) fn art_score(ns: &Art, ew: &Art) -> String {
    format!("{}/{}", ns.notation(), ew.notation())
}

/// A rational as a decimal of at most 4 places (exact when it has no more).
pub(crate) fn decimal(q: Q) -> String {
    let x = q.to_f64();
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// A named artificial score as producers write it in a score or result column: `A+`, `A-`,
/// `A=`, `A` (Bridgewebs, Magic Contest), `Ave+`, `Av-`...; `None` for anything else.
pub(crate) fn named_art(token: &str) -> Option<Art> {
    let t = token.trim();
    // (ASCII letters, case aside: what is stripped is a char boundary)
    let strip = |p: &str| {
        t.as_bytes()
            .get(..p.len())
            .filter(|b| b.eq_ignore_ascii_case(p.as_bytes()))
            .map(|_| &t[p.len()..])
    };
    let core = strip("AVE")
        .or_else(|| strip("AV"))
        .or_else(|| strip("A"))?;
    match core {
        "+" => Some(Art::Named("A+")),
        "-" => Some(Art::Named("A-")),
        "=" | "" => Some(Art::Named("A")),
        _ => None,
    }
}

/// `A6040`: an artificial score of NS 60% and EW 40% (USEBIO's spelling, also in spreadsheets).
pub(crate) fn split_art(token: &str) -> Option<(Art, Art)> {
    let t = token.trim();
    let d = t.strip_prefix('A').or_else(|| t.strip_prefix('a'))?;
    if d.len() != 4 || !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ns: i64 = d[..2].parse().ok()?;
    let ew: i64 = d[2..].parse().ok()?;
    Some((Art::from_pct(Q::int(ns)), Art::from_pct(Q::int(ew))))
}

/// A decimal number as a file writes it (`3.6`, `-20`, `"420"` already unquoted; a decimal
/// comma is accepted).
pub(crate) fn number(token: &str) -> Option<Q> {
    let t = token.trim();
    let t: Cow<str> = if t.contains(',') {
        Cow::Owned(t.replace(',', "."))
    } else {
        Cow::Borrowed(t)
    };
    let t = t.strip_prefix('+').unwrap_or(&t);
    if t.is_empty() || t.len() > 30 || t.contains('/') {
        return None;
    }
    Q::parse(t)
}

/// Players' names as one cell writes them: `"Anna Nowak - Jan Kowalski"`, `&`, `/` or `+`
/// between them; empty when the cell says nothing.
pub(crate) fn players(cell: &str) -> Vec<String> {
    let t = cell.trim();
    if t.is_empty() || t == "-" || t == "?" {
        return Vec::new();
    }
    for sep in [" - ", " & ", " / ", " + ", " and ", " – "] {
        if t.contains(sep) {
            return t
                .split(sep)
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
        }
    }
    vec![t.to_string()]
}

/// A player's federation member number as a file writes it, trimmed; `None` when the cell is
/// empty, `-`, `?` or all zeros (what producers write for "no number").
pub(crate) fn member_id(cell: &str) -> Option<String> {
    let t = cell.trim();
    (!t.is_empty() && t != "-" && t != "?" && !t.bytes().all(|b| b == b'0')).then(|| t.to_string())
}

/// Players' federation member numbers as one cell writes them, separated as [`players`]
/// separates names (`"12345 - 67890"`); each `None` where [`member_id`] finds none.
pub(crate) fn member_ids(cell: &str) -> Vec<Option<String>> {
    let t = cell.trim();
    if t.is_empty() {
        return Vec::new();
    }
    for sep in [" - ", " & ", " / ", " + ", " and ", " – ", ",", ";"] {
        if t.contains(sep) {
            return t.split(sep).map(member_id).collect();
        }
    }
    vec![member_id(t)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`contract`] as it read before its copy-free path: the reference it is compared with.
    fn contract_by_copy(token: &str) -> Result<Bid, BadContract> {
        let t = token.trim();
        let up = t.to_uppercase().replace(' ', "");
        if matches!(
            up.as_str(),
            "PO" | "PASS" | "AP" | "P" | "ALLPASS" | "PASSED" | "0"
        ) {
            return Ok(Bid::Pass);
        }
        let stars = up.len() - up.trim_end_matches('*').len();
        let mut c = up.trim_end_matches('*').to_string();
        match stars {
            0 => {}
            1 => c.push('X'),
            2 => c.push_str("XX"),
            _ => return Err(BadContract::Stars(crate::import::quote(t))),
        }
        Ok(parse_contract(&c)?)
    }

    /// [`number`] as it read before, replacing commas in a copy.
    fn number_by_copy(token: &str) -> Option<Q> {
        let t = token.trim().replace(',', ".");
        let t = t.strip_prefix('+').unwrap_or(&t);
        if t.is_empty() || t.len() > 30 || t.contains('/') {
            return None;
        }
        Q::parse(t)
    }

    /// [`named_art`] as it read before, uppercasing a copy.
    fn named_art_by_copy(token: &str) -> Option<Art> {
        let up = token.trim().to_ascii_uppercase();
        let core = up
            .strip_prefix("AVE")
            .or_else(|| up.strip_prefix("AV"))
            .or_else(|| up.strip_prefix('A'))?;
        match core {
            "+" => Some(Art::Named("A+")),
            "-" => Some(Art::Named("A-")),
            "=" | "" => Some(Art::Named("A")),
            _ => None,
        }
    }

    proptest::proptest! {
        /// Contracts and named artificial scores read without copies read as they did with
        /// them: the same bids (and texts), scores and messages, whatever the case, spaces,
        /// stars and other scripts.
        #[test]
        fn tokens_read_as_by_copy(
            t in " ?[0-9][cdhsnCDHSNAaPp][tTxXaA*]{0,3}[*xX ]{0,2}|[ 1-8pPaAsShHdDcCnNtTxXvVeE*o0+=,.ż\u{e9}\u{df}\t-]{0,9}"
        ) {
            let by_copy = contract_by_copy(&t).map(|b| (b, b.to_string()));
            proptest::prop_assert_eq!(
                contract(&t).map(|b| (b, b.text(&mut [0; 8]).to_string())),
                by_copy
            );
            proptest::prop_assert_eq!(named_art(&t), named_art_by_copy(&t));
            proptest::prop_assert_eq!(number(&t), number_by_copy(&t));
        }
    }

    #[test]
    fn contracts_as_producers_write_them() {
        let c = |t: &str| contract(t).map(|b| b.to_string());
        assert_eq!(c("PO").unwrap(), "PASS");
        assert_eq!(c("3D*").unwrap(), "3DX");
        assert_eq!(c("3D**").unwrap(), "3DXX");
        assert_eq!(c("4Sx").unwrap(), "4SX");
        assert_eq!(c("4sxx").unwrap(), "4SXX");
        assert_eq!(c("3NT").unwrap(), "3NT");
        assert!(c("8S").is_err());
        assert!(c("3D***").is_err());
    }

    #[test]
    fn scores_checked_by_law_77() {
        let four_s = contract("4S").unwrap();
        // 4S made with 10 tricks not vulnerable: 420 (Law 77 by hand: 120 + 300).
        assert!(check_score(four_s, Some(Seat::N), 10, Vul::None, 420).is_ok());
        assert!(check_score(four_s, Some(Seat::E), 10, Vul::None, -420).is_ok());
        let e = check_score(four_s, Some(Seat::N), 9, Vul::None, 420).unwrap_err();
        assert!(e.to_string().contains("-50"), "{e}");
    }

    #[test]
    fn artificial_tokens() {
        assert_eq!(named_art("A+"), Some(Art::Named("A+")));
        assert_eq!(named_art("A="), Some(Art::Named("A")));
        assert_eq!(named_art("A"), Some(Art::Named("A")));
        assert_eq!(named_art("Ave-"), Some(Art::Named("A-")));
        assert_eq!(named_art("420"), None);
        assert_eq!(
            split_art("A6040"),
            Some((Art::Named("A+"), Art::Named("A-")))
        );
        let (ns, ew) = split_art("A7030").unwrap();
        assert_eq!(art_score(&ns, &ew), "70%/30%");
        assert_eq!(
            art_score(&Art::from_pct(Q::int(60)), &Art::from_pct(Q::int(60))),
            "A+/A+"
        );
    }

    #[test]
    fn names_split() {
        assert_eq!(
            players("Anna Nowak - Jan Kowalski"),
            ["Anna Nowak", "Jan Kowalski"]
        );
        assert_eq!(players("A & B"), ["A", "B"]);
        assert!(players("-").is_empty());
        assert_eq!(member_id(" 0042 "), Some("0042".to_string()));
        for none in ["", "0", "000", "-", "?"] {
            assert_eq!(member_id(none), None, "{none:?}");
        }
        assert_eq!(
            member_ids("123 - 0"),
            [Some("123".to_string()), None],
            "as many as the names, 0 for none"
        );
        assert_eq!(member_ids("5,6").len(), 2);
    }
}
