//! The audit written out: interface.md's JSON (streamed, and as a value) and the readable text report.

use super::*;

/// Write the audit as the JSON object of interface.md, streamed (an audit of a big field lists
/// every pair of the groups it touches): the one serializer of an audit (the tests check it
/// against an object made field by field, `tests/common::audit_json`).
pub fn write_json(a: &Audit, w: impl std::io::Write) -> std::io::Result<()> {
    use serde::Serialize;
    use std::io::Write as _;
    #[derive(Serialize)]
    struct Standing<'a> {
        session: &'a str,
        section: Option<&'a str>,
        participant: &'a str,
        total_before: Option<f64>,
        total_after: Option<f64>,
        pct_before: Option<f64>,
        pct_after: Option<f64>,
        rank_before: Option<i32>,
        rank_after: Option<i32>,
        delta: Option<f64>,
    }
    #[derive(Serialize)]
    struct Board<'a> {
        session: &'a str,
        section: &'a Option<String>,
        board: i32,
        participant: &'a str,
        side: &'a str,
        score_before: Option<f64>,
        score_after: Option<f64>,
    }
    #[derive(Serialize)]
    struct Ruling<'a> {
        ruling: &'a str,
        session: &'a str,
        board: u32,
        score: &'a str,
        law: &'a Option<String>,
        by: &'a Option<String>,
        note: &'a Option<String>,
        seq: usize,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Asked<'a> {
        Ruling(&'a str),
        AsOf(usize),
        Between([usize; 2]),
        With(&'a [serde_json::Value]),
    }
    // The object written piece by piece, the long arrays serialized in parallel (a big field's
    // audit is tens of megabytes): the same bytes as serializing it whole.
    let asked = match &a.question {
        Question::Ruling(id) => Asked::Ruling(id),
        Question::AsOf(s) => Asked::AsOf(*s),
        Question::Between(x, y) => Asked::Between([*x, *y]),
        Question::With(v) => Asked::With(v),
    };
    let standing = |s: &'_ StandingDelta, out: &mut Vec<u8>| {
        let x = Standing {
            session: &s.session,
            section: s.section.as_deref(),
            participant: &s.participant,
            total_before: s.total_before,
            total_after: s.total_after,
            pct_before: s.pct_before,
            pct_after: s.pct_after,
            rank_before: s.rank_before,
            rank_after: s.rank_after,
            delta: s.delta(),
        };
        serde_json::to_writer(out, &x)
    };
    let board = |b: &'_ BoardDelta, out: &mut Vec<u8>| {
        let x = Board {
            session: &b.session,
            section: &b.section,
            board: b.board,
            participant: &b.participant,
            side: &b.side,
            score_before: b.score_before,
            score_after: b.score_after,
        };
        serde_json::to_writer(out, &x)
    };
    let rulings: Vec<Ruling> = a
        .rulings
        .iter()
        .map(|r| Ruling {
            ruling: &r.id,
            session: &r.session,
            board: r.board,
            score: &r.score,
            law: &r.law,
            by: &r.by,
            note: &r.note,
            seq: r.seq,
        })
        .collect();
    let (standings, boards) = rayon::join(
        || json_array(&a.standings, standing),
        || json_array(&a.boards, board),
    );
    let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
    w.write_all(b"{\"audit\":")?;
    serde_json::to_writer(&mut w, &asked)?;
    w.write_all(b",\"standings\":")?;
    for chunk in standings? {
        w.write_all(&chunk)?;
    }
    w.write_all(b",\"boards\":")?;
    for chunk in boards? {
        w.write_all(&chunk)?;
    }
    w.write_all(b",\"rulings\":")?;
    serde_json::to_writer(&mut w, &rulings)?;
    w.write_all(b"}\n")?;
    w.flush()
}

/// A JSON array of `items`, each serialized by `one`, as chunks of text serialized in
/// parallel (in order: the brackets and commas included).
pub(super) fn json_array<T: Sync>(
    items: &[T],
    one: impl Fn(&T, &mut Vec<u8>) -> serde_json::Result<()> + Sync,
) -> std::io::Result<Vec<Vec<u8>>> {
    use rayon::prelude::*;
    const CHUNK: usize = 4096;
    let last = items.len().div_ceil(CHUNK).max(1) - 1;
    let mut chunks: Vec<Vec<u8>> = items
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(i, c)| {
            // (a row of the standings is about 250 bytes of JSON, of the boards 150)
            let mut out = Vec::with_capacity(c.len() * 320 + 2);
            if i == 0 {
                out.push(b'[');
            }
            for (j, x) in c.iter().enumerate() {
                if i > 0 || j > 0 {
                    out.push(b',');
                }
                one(x, &mut out)?;
            }
            if i == last {
                out.push(b']');
            }
            Ok(out)
        })
        .collect::<serde_json::Result<_>>()
        .map_err(std::io::Error::from)?;
    if chunks.is_empty() {
        chunks.push(b"[]".to_vec());
    }
    Ok(chunks)
}

pub(super) fn num(x: Option<f64>, pct: bool) -> String {
    match x {
        Some(v) if pct => format!("{v:.2}%"),
        Some(v) => format!("{v:.2}"),
        None => "-".to_string(),
    }
}

/// The text of `items`' lines, each written by `line(the item before it, the item, out)`: runs
/// of items formatted in parallel, put together in order (the same text as one pass).
pub(super) fn par_lines<T: Sync>(
    items: &[T],
    line: impl Fn(Option<&T>, &T, &mut String) + Sync,
) -> String {
    use rayon::prelude::*;
    const RUN: usize = 4096;
    let runs: Vec<String> = items
        .par_chunks(RUN)
        .enumerate()
        .map(|(k, run)| {
            let mut out = String::with_capacity(run.len() * 80);
            for (i, item) in run.iter().enumerate() {
                let at = k * RUN + i;
                line(at.checked_sub(1).map(|p| &items[p]), item, &mut out);
            }
            out
        })
        .collect();
    runs.concat()
}

/// The audit as a readable report: who moved, by how much, and why.
pub fn to_text(a: &Audit) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = match &a.question {
        Question::Ruling(id) => writeln!(out, "Audit of ruling {id}: the standings without it (and anything superseding it) against the standings with it."),
        Question::AsOf(s) => writeln!(out, "Audit: the standings as they stood after event {s} against today's."),
        Question::Between(x, y) => writeln!(out, "Audit: the standings after event {x} against those after event {y}."),
        Question::With(v) => {
            let _ = writeln!(out, "What-if: the standings with {} proposed event{} added at the end of the log (nothing written) against the log as it is.", v.len(), if v.len() == 1 { "" } else { "s" });
            v.iter().try_for_each(|e| writeln!(out, "  proposed: {e}"))
        }
    };
    for r in &a.rulings {
        let _ = writeln!(out, "  {}", ruling_text(r, "", true));
    }
    if a.standings.is_empty() {
        let _ = writeln!(out, "\nNo standings changed.");
    }
    // Each run of rows formatted in parallel (a big field's audit lists 200,000), headings
    // where the group changes, the runs put together in order.
    fn group(s: &StandingDelta) -> (&str, Option<&str>) {
        (
            &s.session,
            if &*s.session == "overall" {
                None
            } else {
                s.section.as_deref()
            },
        )
    }
    out.push_str(&par_lines(&a.standings, |prev, s, out| {
        let g = group(s);
        if prev.map(group) != Some(g) {
            let sec =
                g.1.as_ref()
                    .map(|x| format!(", section {x}"))
                    .unwrap_or_default();
            let _ = writeln!(
                out,
                "\n{}{sec}:",
                if g.0 == "overall" {
                    "overall".to_string()
                } else {
                    format!("session {}", g.0)
                }
            );
            let _ = writeln!(
                out,
                "  {:<8} {:>10} {:>10} {:>9}  {:>11}  players",
                s.noun, "before", "after", "delta", "place"
            );
        }
        if s.delta().is_some_and(|d| d == 0.0) && s.rank_before == s.rank_after {
            return;
        }
        let pct = s.pct_after.is_some() || s.pct_before.is_some();
        let place = format!(
            "{} → {}",
            s.rank_before.map_or("-".into(), |r| r.to_string()),
            s.rank_after.map_or("-".into(), |r| r.to_string())
        );
        let (b, af) = if pct {
            (num(s.pct_before, true), num(s.pct_after, true))
        } else {
            (num(s.total_before, false), num(s.total_after, false))
        };
        let delta = s
            .delta()
            .map(|d| format!("{d:+.2}"))
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            out,
            "  {:<8} {:>10} {:>10} {:>9}  {:>11}  {}",
            s.participant, b, af, delta, place, s.players
        );
    }));
    if !a.boards.is_empty() {
        let _ = writeln!(
            out,
            "\nBoards whose scores changed (each participant, before → after):"
        );
        fn key(b: &BoardDelta) -> (&str, Option<&str>, i32) {
            (b.session.as_str(), b.section.as_deref(), b.board)
        }
        out.push_str(&par_lines(&a.boards, |prev, b, out| {
            let k = key(b);
            if prev.map(key) != Some(k) {
                let sec =
                    k.1.as_ref()
                        .map(|x| format!(" section {x}"))
                        .unwrap_or_default();
                let _ = writeln!(out, "  session {}{sec} board {}:", k.0, k.2);
            }
            if b.score_before != b.score_after {
                let _ = writeln!(
                    out,
                    "    {:<8} {:<2} {} → {}",
                    b.participant,
                    b.side,
                    num(b.score_before, false),
                    num(b.score_after, false)
                );
            }
        }));
        let _ = writeln!(out, "  (participants whose score did not change are in --format json; `frekans explain` shows each board's arithmetic)");
    }
    out
}

/// A ruling as the text reports list it: `ruling ID (seq N{seq_note}): session S board B:
/// SCORE, law L`, then, with `details`, who ruled and the note.
pub(super) fn ruling_text(r: &RulingNote, seq_note: &str, details: bool) -> String {
    let mut t = format!(
        "ruling {} (seq {}{seq_note}): session {} board {}: {}",
        r.id, r.seq, r.session, r.board, r.score
    );
    if let Some(l) = &r.law {
        t += &format!(", law {l}");
    }
    if details {
        if let Some(b) = &r.by {
            t += &format!(", by {b}");
        }
        if let Some(n) = &r.note {
            t += &format!(" — {n}");
        }
    }
    t
}
