//! One row of a PBN `ScoreTable` as its event: an artificial score (`^60`, `A+`, `A A A`...)
//! as a ruling, else a result with its score checked against its contract and result.

use std::borrow::Cow;

use super::super::draft::{self, Art, Play, Slip, TableView};
use crate::bridge::Vul;
use crate::num::Q;

/// The columns a ScoreTable row is read by.
pub(super) struct Cols {
    pub section: Option<usize>,
    pub table: Option<usize>,
    pub round: Option<usize>,
    pub ns: Option<usize>,
    pub ew: Option<usize>,
    pub names_ns: Option<usize>,
    pub names_ew: Option<usize>,
    pub contract: Option<usize>,
    pub declarer: Option<usize>,
    pub result: Option<usize>,
    pub score_ns: Option<usize>,
    pub score_ew: Option<usize>,
    pub score: Option<usize>,
    pub mp: (Option<usize>, Option<usize>),
    pub pct: (Option<usize>, Option<usize>),
    pub imp: (Option<usize>, Option<usize>),
    pub mult: Option<usize>,
    pub lead: Option<usize>,
}

/// Whether a token says something: not empty, `-` (irrelevant) or `?` (unknown).
pub(super) fn given(t: &str) -> Option<&str> {
    let t = t.trim();
    (!t.is_empty() && t != "-" && t != "?").then_some(t)
}

/// [`given`] of a token already trimmed.
fn said(t: &str) -> Option<&str> {
    (!t.is_empty() && t != "-" && t != "?").then_some(t)
}

/// One row's event: an artificial score (`^60`, `A+`, `A A A`...) as a ruling, else a result
/// with its score checked against its contract, and the slip when its play cannot be read but
/// its score can (`draft::play_or_score`: the table by its score alone); `Err`: why the row
/// is refused. (`row`: the row's tokens, each trimmed.)
pub(super) fn row_event(
    c: &Cols,
    row: &[Cow<str>],
    t: TableView,
    vul: Vul,
) -> Result<(super::super::Row, Option<Slip>), String> {
    let raw = |i: Option<usize>| i.map(|i| &*row[i]).unwrap_or("-");
    let cell = |i: Option<usize>| said(raw(i));
    if let Some((ns, ew, token)) = artificial(c, row) {
        return Ok((
            draft::artificial_row(t, &draft::art_score(&ns, &ew), &token),
            None,
        ));
    }
    let score_ns: Option<Cow<str>> = match (cell(c.score_ns), cell(c.score_ew), cell(c.score)) {
        (Some(a), None, _) => Some(a.into()),
        (None, Some(b), _) => Some(format!("-{}", b.trim_start_matches('+')).into()),
        (None, None, Some(x)) => Some(x.into()),
        (None, None, None) => None,
        (Some(a), Some(b), _) => {
            // Some producers fill both; they must agree.
            let (x, y) = (draft::number(a), draft::number(b));
            if x.is_some() && x.map(|v| -v) == y {
                Some(a.into())
            } else {
                return Err(format!(
                    "Score_NS {} and Score_EW {} disagree",
                    crate::import::quote(a),
                    crate::import::quote(b)
                ));
            }
        }
    };
    // A passed-out board's score written as the pass itself (BridgeComposer writes `PASS` in
    // Score_NS): 0 points, which the contract column, when given, must agree with.
    let score_ns = score_ns.map(|x| {
        if ["PASS", "PO", "AP", "P"]
            .iter()
            .any(|p| x.eq_ignore_ascii_case(p))
        {
            "0".into()
        } else {
            x
        }
    });
    let score = match score_ns
        .as_deref()
        .map(|x| draft::number(x).filter(|q| q.is_integer()))
    {
        None => None,
        Some(Some(q)) => match i32::try_from(q.numer()) {
            Ok(v) if v.abs() <= 10_000 => Some(v),
            _ => {
                return Err(format!(
                    "a score of {} points is not a bridge score",
                    q.numer()
                ))
            }
        },
        Some(None) => {
            return Err(format!(
                "Score: expected NS points such as 420 or -50, found {}",
                crate::import::quote(&score_ns.unwrap())
            ))
        }
    };
    let play = Play {
        score,
        lead: cell(c.lead).map(str::to_string),
        ..Play::default()
    };
    // The Result column holds the tricks declarer took, or (some producers) `=`, `+1`, `-2`.
    let result = cell(c.result);
    let tricks = |contract: &crate::bridge::Contract| match result {
        None => Ok(None),
        Some(r) => match r.parse::<u8>() {
            Ok(n) if n <= 13 => Ok(Some(n)),
            _ => crate::bridge::parse_result_offset(r)
                .ok()
                .and_then(|o| contract.tricks_for_offset(o))
                .map(Some)
                .ok_or_else(|| {
                    format!(
                        "Result: expected the tricks declarer took (0-13), found {}",
                        crate::import::quote(r)
                    )
                }),
        },
    };
    const LABELS: draft::PlayLabels = draft::PlayLabels {
        contract: "Contract",
        declarer: "Declarer",
        tricks: "Result",
    };
    let (play, slip) = draft::play_or_score(
        play,
        cell(c.contract),
        cell(c.declarer),
        tricks,
        vul,
        &LABELS,
    )
    .map_err(|e| e.to_string())?
    .split();
    Ok((draft::result_row(t, &play), slip))
}

/// The artificial score of a row, if it has one: each side's, and the file's tokens.
/// `A+`/`A-`/`A=` or `^60` in the score columns (Magic Contest, the PBN spec), `A` in the
/// contract (Bridgewebs' `A A A`), or a `^` in the percentage or matchpoint columns (the
/// side's percentage; matchpoints are taken as a share of the two sides' sum, the board's top).
fn artificial(c: &Cols, row: &[Cow<str>]) -> Option<(Art, Art, String)> {
    let raw = |i: Option<usize>| i.map(|i| &*row[i]).unwrap_or("-");
    let caret = |i: Option<usize>| raw(i).strip_prefix('^').and_then(draft::number);
    let art_in = |i: Option<usize>| {
        let t = raw(i);
        draft::named_art(t).or_else(|| {
            t.strip_prefix('^')
                .and_then(draft::number)
                .map(Art::from_pct)
        })
    };
    let contract_a = draft::named_art(raw(c.contract)).is_some();
    let score_art = (art_in(c.score_ns), art_in(c.score_ew));
    let pct = (caret(c.pct.0), caret(c.pct.1));
    let mp = (caret(c.mp.0), caret(c.mp.1));
    let any = contract_a
        || score_art.0.is_some()
        || score_art.1.is_some()
        || pct.0.is_some()
        || pct.1.is_some()
        || mp.0.is_some()
        || mp.1.is_some()
        || raw(c.imp.0).starts_with('^')
        || raw(c.imp.1).starts_with('^');
    if !any {
        return None;
    }
    let mut tokens: Vec<&str> = Vec::new();
    for i in [
        c.contract, c.declarer, c.result, c.score_ns, c.score_ew, c.mp.0, c.mp.1, c.pct.0, c.pct.1,
        c.imp.0, c.imp.1,
    ] {
        let t = raw(i);
        if i.is_some()
            && t != "-"
            && t != "?"
            && (t.starts_with('^') || t.starts_with('A') || t.starts_with('a'))
        {
            tokens.push(t);
        }
    }
    let token = tokens.join(" ");
    // Each side from the first column that says: named or ^ score, then ^ percentage, then ^
    // matchpoints over the two sides' sum.
    let by_mp = |x: Option<Q>, other: Option<Q>| -> Option<Art> {
        let (x, y) = (x?, other?);
        let top = x + y;
        (top > Q::ZERO).then(|| Art::from_pct(x * Q::int(100) / top))
    };
    let ns = score_art
        .0
        .clone()
        .or(pct.0.map(Art::from_pct))
        .or_else(|| by_mp(mp.0, mp.1));
    let ew = score_art
        .1
        .clone()
        .or(pct.1.map(Art::from_pct))
        .or_else(|| by_mp(mp.1, mp.0));
    // One side said, the other not: average-minus... no: the other side's own; unknown means
    // average (Bridgewebs' `A A A` with nothing else is an average to both).
    let ns = ns.unwrap_or(Art::Named("A"));
    let ew = ew.unwrap_or(Art::Named("A"));
    Some((ns, ew, token))
}
