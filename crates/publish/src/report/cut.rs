//! How much of a big championship the view model holds (`Limits`), and the notes that say what
//! was cut and where the rest is. A bulletin is read, not searched: a field of 50,000 tables
//! prints the top and bottom of each traveller (its frequency table whole: it has a line per
//! distinct score, not per table), the first places of each standings group, the first adjusted
//! scores of a board and the first rulings; everything is in the Parquet tables and, paged, on
//! the results website. Events under the limits (every real club or congress event) are shown
//! whole, and their data carries no note.

use std::collections::BTreeMap;

use crate::audit::StandingDelta;

/// The cuts of a view model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Places shown of each standings group (a session's, a section's, overall); `None`: all.
    pub standings: Option<usize>,
    /// A traveller of more than twice this many tables shows its best `traveller` and worst
    /// `traveller` NS results.
    pub traveller: usize,
    /// Adjusted scores shown under a board.
    pub adjusted: usize,
    /// Rulings listed in the rulings appendix, in log order; `None`: all.
    pub rulings: Option<usize>,
    /// Team sessions: the match sheets shown of each session (those of the best-placed teams'
    /// matches, `sheets::shown`), whose rooms the session's boards list; `None`: all.
    pub sheets: Option<usize>,
}

impl Limits {
    /// The PDF bulletin's: a few hundred pages at most whatever the field.
    pub const BULLETIN: Limits = Limits {
        standings: Some(500),
        traveller: 20,
        adjusted: 40,
        rulings: Some(500),
        sheets: Some(50),
    };
    /// The website's: it pages the standings and rulings, so only a board's page is cut.
    pub const SITE: Limits = Limits {
        standings: None,
        traveller: 20,
        adjusted: 100,
        rulings: None,
        sheets: None,
    };
}

/// Which rulings a view model audits for what they changed: the first `rulings` in force in log
/// order, while the tables on their boards add up to no more than `tables` (each answer scores
/// its ruling's board again, `audit::ruling_effects`; the first ruling is audited whatever its
/// board's size). That is every ruling of any real championship (there is no count of rulings:
/// 20,000 rulings on boards of 200 tables); in a field of 50,000 tables a board, the first 80
/// (an answer there costs about 0.17 s of CPU: 39 answers took 20 s before session 31's
/// `audit::effects` work, 6.5 s after, on issue 37's log). The others say how to ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditBudget {
    pub rulings: usize,
    pub tables: u64,
}

impl AuditBudget {
    pub const VIEW: AuditBudget = AuditBudget {
        rulings: usize::MAX,
        tables: 4_000_000,
    };
}

/// Movers shown under a ruling in each standings group, and at most in all.
pub const MOVERS_PER_GROUP: usize = 5;
pub const MOVERS_PER_RULING: usize = 20;

/// The note under a cut traveller.
pub fn traveller_note(lang: &str, half: usize, tables: usize) -> String {
    let hidden = tables - 2 * half;
    match lang {
        "pl" => format!(
            "… pominięto {hidden} z {tables} stołów: protokół pokazuje {half} najlepszych i \
             {half} najsłabszych rozegranych wyników NS; pełny protokół jest w scores.parquet i \
             na stronie wyników."
        ),
        _ => format!(
            "… {hidden} of {tables} tables not shown: the traveller shows the {half} best \
             and the {half} worst NS results played; the full traveller is in scores.parquet \
             and on the results website."
        ),
    }
}

/// The note under a board's cut list of adjusted scores.
pub fn adjusted_note(lang: &str, shown: usize, total: usize) -> String {
    match lang {
        "pl" => format!(
            "… pokazano pierwsze {shown} z {total} wyników sędziowskich tego rozdania; \
             wszystkie są w scores.parquet i rulings.parquet."
        ),
        _ => format!(
            "… the first {shown} of the board's {total} adjusted scores are shown; every one \
             is in scores.parquet and rulings.parquet."
        ),
    }
}

/// The note under cut standings.
pub fn standings_note(lang: &str, shown: usize, total: usize) -> String {
    match lang {
        "pl" => format!(
            "… pokazano pierwsze {shown} miejsc z {total}; pełna klasyfikacja jest w \
             standings.parquet i na stronie wyników."
        ),
        _ => format!(
            "… the first {shown} places of {total} are shown; the full standings are in \
             standings.parquet and on the results website."
        ),
    }
}

/// The note under a team session's cut match sheets (and its boards, which list the rooms of
/// those matches only).
pub fn sheets_note(lang: &str, shown: usize, total: usize) -> String {
    match lang {
        "pl" => format!(
            "… pokazano protokoły {shown} z {total} meczów sesji (mecze najwyżej \
             sklasyfikowanych drużyn), a przy rozdaniach tylko ich pokoje; wyniki wszystkich \
             meczów są w tabeli powyżej i w matches.parquet, każde rozdanie każdego meczu w \
             scores.parquet i na stronie wyników."
        ),
        _ => format!(
            "… the match sheets of {shown} of the session's {total} matches are shown (those of \
             the best-placed teams), and the boards list only their rooms; every match's result \
             is in the table above and in matches.parquet, every board of every match in \
             scores.parquet and on the results website."
        ),
    }
}

/// The note under a cut rulings appendix.
pub fn rulings_note(lang: &str, shown: usize, total: usize) -> String {
    match lang {
        "pl" => format!(
            "… pokazano pierwsze {shown} z {total} orzeczeń (w kolejności dziennika); \
             obowiązujące są w rulings.parquet, wszystkie na stronie wyników."
        ),
        _ => format!(
            "… the first {shown} of {total} rulings are listed (in log order); those in force \
             are all in rulings.parquet, every one on the results website."
        ),
    }
}

/// The movers to show under a ruling, from an audit's changed standings (`moved`, in the audit's
/// order: each of its groups together, the biggest move first): per standings group, the
/// `MOVERS_PER_GROUP` biggest, at most `MOVERS_PER_RULING` in all, groups in the audit's order.
/// The audit groups a session's standings by the participants' sections; a session compared as
/// one field (`by_section(session)` false) has one standings group, so its sections' biggest
/// movers are pooled and the biggest of them kept (overall is one group too). Each with its group's name (`S1`, `S1 A`,
/// `overall`).
pub fn movers<'a>(
    moved: &[&'a StandingDelta],
    by_section: impl Fn(&str) -> bool,
) -> Vec<(String, &'a StandingDelta)> {
    // (standings group) -> (audit group, its movers kept so far)
    type Sub<'a> = (Option<&'a str>, Vec<&'a StandingDelta>);
    let mut order: Vec<(&str, Option<&str>)> = Vec::new();
    let mut groups: BTreeMap<(&str, Option<&str>), Vec<Sub<'a>>> = BTreeMap::new();
    for &d in moved {
        let session: &'a str = &d.session;
        let section: Option<&'a str> = d.section.as_deref();
        // (the audit's own group: a session's section, or overall as a whole)
        let section = section.filter(|_| session != "overall");
        let key = match section {
            Some(x) if by_section(session) => (session, Some(x)),
            _ => (session, None),
        };
        let subs = groups.entry(key).or_insert_with(|| {
            order.push(key);
            Vec::new()
        });
        if subs.last().is_none_or(|s| s.0 != section) {
            subs.push((section, Vec::new()));
        }
        let sub = subs.last_mut().expect("a sub-group");
        if sub.1.len() < MOVERS_PER_GROUP {
            sub.1.push(d);
        }
    }
    let mut out = Vec::new();
    for key in order {
        let subs = groups.remove(&key).unwrap_or_default();
        let mut pool: Vec<&StandingDelta> = Vec::new();
        let several = subs.len() > 1;
        for (_, list) in subs {
            pool.extend(list);
        }
        if several {
            // Who moved most first (one who is in one replay only first of all), then by id.
            let size = |d: &StandingDelta| d.delta().map_or(f64::INFINITY, f64::abs);
            pool.sort_by(|a, b| {
                size(b)
                    .partial_cmp(&size(a))
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then_with(|| a.participant.cmp(&b.participant))
            });
        }
        let name = match key {
            ("overall", _) => "overall".to_string(),
            (s, Some(x)) => format!("{s} {x}"),
            (s, None) => s.to_string(),
        };
        for d in pool.into_iter().take(MOVERS_PER_GROUP) {
            if out.len() == MOVERS_PER_RULING {
                return out;
            }
            out.push((name.clone(), d));
        }
    }
    out
}
