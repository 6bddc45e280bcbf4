//! Each table's NS points: from its contract, declarer and tricks (with the deal's
//! vulnerability, known once the whole log is replayed) or as given, the two checked against each
//! other; and a correction's change to a table's play (Law 79C, C3).

use super::*;

impl Replayer {
    /// Compute NS points now that every deal (vulnerability) is known; check given scores agree.
    pub(super) fn finish(&mut self) {
        let mut errs = Vec::new();
        // C30: a listed table that a later withdrawal removed is an error at the fouled line.
        for ((s, b), (line, groups)) in &self.st.fouled {
            for p in groups.iter().flatten() {
                if !self.st.tables.contains_key(&(*s, *b, *p)) {
                    errs.push(LogError::new(*line, Some("groups"), format!("\"{}\" no longer has a table on board {b} (a later withdrawal removed it)", self.st.participant(*p).id)));
                }
            }
        }
        // One pass over the tables (the deals and the tables are separate fields of the state).
        let State { tables, deals, .. } = &mut self.st;
        for (&key, t) in tables.values_mut_unordered() {
            let Some(played) = t.played.as_mut() else {
                continue;
            };
            let vul = deals
                .get(&(t.session, t.board))
                .and_then(|d| d.ev.vul)
                .unwrap_or_else(|| vul_of(t.board));
            let p = &played.play;
            let from_contract = match p.contract {
                Some(Bid::Pass) => Some(0),
                Some(bid @ Bid::Contract(c)) => {
                    let tricks = p
                        .tricks
                        .map(|t| t as i32)
                        .or_else(|| p.result.map(|r| 6 + c.level as i32 + r as i32));
                    match (p.declarer, tricks) {
                        (Some(d), Some(tr)) if (0..=13).contains(&tr) => {
                            Some(ns_points(bid, d, tr as u8, vul))
                        }
                        _ => None,
                    }
                }
                None => None,
            };
            match (from_contract, p.score) {
                (Some(a), Some(b)) if a != b => {
                    // The line that gave the disagreeing fields: the last correction that
                    // replaced them, else the result itself.
                    let corrected = self.corrected_at.get(&key).copied();
                    let line = corrected.unwrap_or(played.line);
                    let prefix = match corrected {
                        Some(_) => {
                            format!("after this correction the result of seq {}: ", played.seq)
                        }
                        None => String::new(),
                    };
                    let c = p.contract.unwrap();
                    let how = match (p.declarer, p.tricks) {
                        (Some(d), Some(tr)) => format!(
                            "{c} by {} with {tr} tricks ({}), vulnerability {}",
                            d.letter(),
                            offset_text(
                                tr as i32
                                    - 6
                                    - match c {
                                        Bid::Contract(k) => k.level as i32,
                                        Bid::Pass => 0,
                                    }
                            ),
                            vul.as_str()
                        ),
                        _ => format!("{c}, vulnerability {}", vul.as_str()),
                    };
                    errs.push(LogError::new(
                        line,
                        Some("score"),
                        format!("{prefix}{b} disagrees with the contract: {how} scores {a} for NS"),
                    ));
                    played.ns_points = b;
                }
                (Some(a), _) => played.ns_points = a,
                (None, Some(b)) => played.ns_points = b,
                (None, None) => {}
            }
        }
        self.errors.extend(errs);
        // The replay's own indexes are done with: freed before the tables are sorted, the
        // replay's peak of memory.
        self.plays = Plays::default();
        self.by_seq = SeqMap::Sparse(FxMap::default());
        self.corrected_at = FxMap::default();
        // Key order for scoring and output; look-ups by binary search from now on.
        self.st.tables.seal();
    }
}

/// A correction applied to a table's play (docs/event-log.md, "Corrections"; C3): a score alone
/// drops contract, declarer, tricks and result; any part of the play given without a score drops
/// the score; tricks and a result offset replace each other. The one rule of both the replay and
/// the BWS live import (`import::bws::live`).
pub fn correct(p: &mut Play, c: &CorrectionEv) {
    let score_only = c.score.is_some()
        && c.contract.is_none()
        && c.declarer.is_none()
        && c.tricks.is_none()
        && c.result_offset.is_none();
    if score_only {
        // C3: a score alone drops contract, declarer, tricks and result.
        p.contract = None;
        p.declarer = None;
        p.tricks = None;
        p.result = None;
    } else if (c.contract.is_some()
        || c.declarer.is_some()
        || c.tricks.is_some()
        || c.result_offset.is_some())
        && c.score.is_none()
    {
        p.score = None;
    }
    if let Some(b) = c.contract {
        p.contract = Some(b);
        if b == Bid::Pass {
            p.declarer = None;
            p.tricks = None;
            p.result = None;
        }
    }
    if let Some(d) = c.declarer {
        p.declarer = Some(d);
    }
    if let Some(tr) = c.tricks {
        p.tricks = Some(tr);
        if c.result_offset.is_none() {
            p.result = None;
        }
    }
    if let Some(r) = c.result_offset {
        p.result = Some(r);
        if c.tricks.is_none() {
            p.tricks = None;
        }
    }
    if let Some(s) = c.score {
        p.score = Some(s);
    }
    if let Some(l) = &c.lead {
        p.lead = Some(l.clone());
    }
}
