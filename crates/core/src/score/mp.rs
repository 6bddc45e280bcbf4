//! Matchpoints by the universal algorithm (adjusted-scores.md §6, scoring-methods.md §2).
//!
//! Each line (NS, EW) gets a frequency table of distinct scores with exact, possibly fractional
//! or negative counts; a side's raw matchpoints are `Σ w·(2·beaten + tied) − self`, where the
//! self term removes the side's own table (it is 1 whenever the side's scored distribution is
//! the one it contributed, weights summing to 1). Lines with fewer results than the field are
//! factored (Neuberg, or the small-field table, C7–C8); artificial scores are P × 2(N − 1) (C9).
//! A board costs O(n log n): the table is built by sorting, and each plain result is a lookup.

use super::form::PenaltyUnit;
use crate::adjust::Side;
use crate::error::Notice;
use crate::num::Q;
use crate::options::{MpAdjustedMethod, SplitCheck};

use super::form::{PairRules, Pbn, Rules, Spec, Usebio, UsebioRead};
use super::stats::board_stats;
use super::*;

pub mod table;
pub use table::{apply, factoring, field_top, FreqTable};

pub static FORM: Spec = Spec {
    name: "mp",
    title: "matchpoints",
    matchpoints: true,
    options: &[
        "mp_adjusted_method",
        "sd_method",
        "mp_artificial",
        "neuberg_small_field",
        "factoring",
        "split_check",
        "imp_lookup",
    ],
    penalty_units: &[PenaltyUnit::PctOfTop, PenaltyUnit::Mp],
    rules: Rules::Pairs(PairRules {
        score: Some(score_board),
        unit: "MP",
        options_text: |o| {
            format!(
                "mp_adjusted_method={}, sd_method={}, mp_artificial={}, neuberg_small_field={}",
                o.mp_adjusted_method.name(),
                o.sd_method.name(),
                o.mp_artificial.name(),
                o.neuberg_small_field.name()
            )
        },
        component: "2×beaten + tied",
        comparisons: false,
    }),
    pbn: Some(Pbn {
        scoring: "MatchPoints;MP1",
        unit: "MP",
        total: "TotalScoreMP",
        datum: false,
        read: super::form::PbnRead {
            words: &[
                ("MP", None),
                ("MATCHPOINTS", None),
                ("MATCHPOINT", None),
                ("MP1", None),
                ("MP2", None),
                ("NEUBERG", None),
            ],
            yields: true,
            // PBN's producers factor a line of any size by Neuberg's formula
            // (interop-formats.md), not the small-field table.
            options: &[("neuberg_small_field", "\"off\"")],
        },
    }),
    usebio: Some(Usebio {
        event_type: "PAIRS",
        knockout_event_type: "PAIRS",
        board_scoring_method: "MATCH_POINTS",
        match_scoring_method: None,
        team_points: false,
        line_points: Some(("NS_MATCH_POINTS", "EW_MATCH_POINTS")),
        read: UsebioRead {
            board: &["MATCH_POINTS", "MATCHPOINTS", "MP"],
            matches: &[],
            scoring: &[],
            event_types: &["MP_PAIRS"],
            knockout: &[],
            unnamed: &["PAIRS", "SWISS_PAIRS", ""],
        },
    }),
    bws: Some(1),
};

/// The top of a line with `n` results in a field of `field`: 2(N − 1) once factored, or the
/// line's own 2(n − 1) when it has more entries than the field (full entries, C28).
fn line_top(n: Q, field: u32) -> Q {
    if n > Q::int(field as i64) {
        (n - Q::ONE) * Q::int(2)
    } else {
        field_top(field)
    }
}

/// The entries one side's distribution puts into a line table under `method`.
fn contribution(d: &Dist, method: MpAdjustedMethod, half: bool) -> Vec<(i32, Q)> {
    let mut v = Vec::new();
    d.for_each(|w, x| match method {
        MpAdjustedMethod::PerLineFullEntries => v.push((x, Q::ONE)),
        _ => v.push((x, if half { w * Q::new(1, 2) } else { w })),
    });
    v
}

/// Score one board of one comparison group at matchpoints.
pub fn score_board(b: &BoardIn) -> BoardScore {
    let opts = b.options;
    let method = opts.mp_adjusted_method;
    let (ns_tab, ew_tab) = line_tables(b, method);
    let ns_f = factoring(ns_tab.n, b.field, opts);
    let ew_f = factoring(ew_tab.n, b.field, opts);
    let ns_top = line_top(ns_tab.n, b.field);
    let ew_top = line_top(ew_tab.n, b.field);
    let ftop = field_top(b.field);

    let group = (b.part > 0).then_some(b.part);
    let same = method == MpAdjustedMethod::Fractional
        || (ns_tab.xs == ew_tab.xs && ns_tab.counts == ew_tab.counts);
    let ns_rows = freq_rows(
        &ns_tab,
        &ns_f,
        if same { Line::Both } else { Line::NS },
        group,
    );
    let ew_rows = if same {
        ns_rows.clone()
    } else {
        freq_rows(&ew_tab, &ew_f, Line::EW, group)
    };
    let ns_line = LineView {
        tab: &ns_tab,
        f: &ns_f,
        top: ns_top,
        rows: &ns_rows,
    };
    let ew_line = LineView {
        tab: &ew_tab,
        f: &ew_f,
        top: ew_top,
        rows: &ew_rows,
    };

    // §5.6(3)'s check compares with the line's tables at their plain weights: under the default
    // method those are the line tables themselves, otherwise built once, when first needed.
    let mut raw = if method == MpAdjustedMethod::PerLineWeighted {
        RawLines::Given(&ns_tab, &ew_tab)
    } else {
        RawLines::Lazy(None)
    };
    let mut sides = Vec::with_capacity(b.tables.len() * 2);
    let mut notices = Vec::new();
    for t in &b.tables {
        sides.push(side_score(t, Side::NS, &ns_line, ftop, method));
        sides.push(side_score(t, Side::EW, &ew_line, ftop, method));
        if t.adjusted {
            check_split(
                b,
                t,
                &sides[sides.len() - 2..],
                ftop,
                &mut raw,
                &mut notices,
            );
        }
    }

    let mut freq = ns_rows;
    if !same {
        freq.extend(ew_rows);
    }
    // Best for NS first, as a director reads a frequency table.
    freq.sort_by(|a, b| a.line.cmp(&b.line).then(b.ns_points.cmp(&a.ns_points)));
    let mut out = BoardScore::new(b, sides, board_stats(&b.tables, b.field, opts, true));
    out.freq = freq;
    out.notices = notices;
    out
}

/// The NS and EW line tables of a board under `method` (one pooled table, twice, for the
/// fractional method).
fn line_tables(b: &BoardIn, method: MpAdjustedMethod) -> (FreqTable, FreqTable) {
    match method {
        MpAdjustedMethod::Fractional => {
            let mut all = Vec::with_capacity(b.tables.len() * 2);
            for t in &b.tables {
                all.extend(contribution(&t.ns_freq, method, true));
                all.extend(contribution(&t.ew_freq, method, true));
            }
            let pooled = FreqTable::build(all);
            (pooled.clone(), pooled)
        }
        _ => {
            let mut ns = Vec::with_capacity(b.tables.len());
            let mut ew = Vec::with_capacity(b.tables.len());
            for t in &b.tables {
                ns.extend(contribution(&t.ns_freq, method, false));
                ew.extend(contribution(&t.ew_freq, method, false));
            }
            (FreqTable::build(ns), FreqTable::build(ew))
        }
    }
}

/// Factored matchpoints of every row of a line table: what a plain result there earns.
/// (The small-field table is not zero-sum: both sides of a lone result get 60 %, so the EW
/// column is factored on its own rather than taken as top − NS.)
fn freq_rows(tab: &FreqTable, f: &Factoring, line: Line, group: Option<u32>) -> Vec<FreqRow> {
    tab.xs
        .iter()
        .zip(&tab.counts)
        .map(|(&x, &c)| FreqRow {
            line,
            ns_points: x,
            count: c,
            mp_ns: apply(f, tab.beats(x, Side::NS) - Q::ONE),
            mp_ew: apply(f, tab.beats(x, Side::EW) - Q::ONE),
            group,
        })
        .collect()
}

/// One line of a board as its sides are scored in it: its table, factoring, top and rows.
struct LineView<'a> {
    tab: &'a FreqTable,
    f: &'a Factoring,
    top: Q,
    rows: &'a [FreqRow],
}

/// The score of one side of a table: artificial, a plain result (a row's lookup) or an
/// adjusted distribution.
#[inline]
fn side_score(
    t: &TableIn,
    side: Side,
    line: &LineView,
    ftop: Q,
    method: MpAdjustedMethod,
) -> SideScore {
    let (me, opp, score_d, freq_d) = match side {
        Side::NS => (t.ns, t.ew, &t.ns_score, &t.ns_freq),
        Side::EW => (t.ew, t.ns, &t.ew_score, &t.ew_freq),
    };
    let (tab, f, top) = (line.tab, line.f, line.top);
    let ns_points = if score_d.is_artificial() {
        None
    } else {
        t.played
    };
    match score_d {
        Dist::Artificial(pct, _) => SideScore {
            participant: me,
            side,
            opponent: opp,
            score: *pct / Q::int(100) * ftop,
            top: Some(ftop),
            adjusted: t.adjusted,
            ns_points,
            artificial: Some(Box::new(*pct)),
            detail: None,
        },
        Dist::Plain(x) if score_d == freq_d => {
            let i = tab
                .xs
                .binary_search(x)
                .expect("a plain score is in its own line table");
            let row = &line.rows[i];
            SideScore {
                participant: me,
                side,
                opponent: opp,
                score: if side == Side::NS {
                    row.mp_ns
                } else {
                    row.mp_ew
                },
                top: Some(top),
                adjusted: t.adjusted,
                ns_points,
                artificial: None,
                detail: t.adjusted.then(|| {
                    Box::new(Detail {
                        components: vec![ComponentScore {
                            weight: Q::ONE,
                            points: *x,
                            raw: tab.beats(*x, side),
                        }],
                        raw: tab.beats(*x, side) - Q::ONE,
                        self_term: Q::ONE,
                        factoring: f.clone(),
                    })
                }),
            }
        }
        _ => {
            let (score, detail) = adjusted_score(t, side, score_d, freq_d, line, method);
            SideScore {
                participant: me,
                side,
                opponent: opp,
                score,
                top: Some(top),
                adjusted: t.adjusted,
                ns_points,
                artificial: None,
                detail: Some(Box::new(detail)),
            }
        }
    }
}

/// The score of a side whose distribution is adjusted: each component's raw matchpoints in
/// its line, less the self term (its own table), factored.
fn adjusted_score(
    t: &TableIn,
    side: Side,
    score_d: &Dist,
    freq_d: &Dist,
    line: &LineView,
    method: MpAdjustedMethod,
) -> (Q, Detail) {
    let (tab, f) = (line.tab, line.f);
    let self_term = if score_d == freq_d {
        Q::ONE
    } else {
        let own = match method {
            MpAdjustedMethod::Fractional => {
                let mut v = contribution(&t.ns_freq, method, true);
                v.extend(contribution(&t.ew_freq, method, true));
                FreqTable::build(v)
            }
            _ => FreqTable::build(contribution(freq_d, method, false)),
        };
        let mut s = Q::ZERO;
        score_d.for_each(|w, x| s += w * own.beats(x, side));
        s
    };
    let mut comps = Vec::new();
    let mut sum = Q::ZERO;
    score_d.for_each(|w, x| {
        let raw = tab.beats(x, side);
        sum += w * raw;
        comps.push(ComponentScore {
            weight: w,
            points: x,
            raw,
        });
    });
    let raw = sum - self_term;
    (
        apply(f, raw),
        Detail {
            components: comps,
            raw,
            self_term,
            factoring: f.clone(),
        },
    )
}

/// N6: a split's two sides should not together earn more than top; and §5.6(3): a score with
/// negative weights should leave the NOS between its table result and full redress.
fn check_split(
    b: &BoardIn,
    t: &TableIn,
    pair: &[SideScore],
    top: Q,
    raw: &mut RawLines<'_>,
    notices: &mut Vec<Notice>,
) {
    let (id, line) = t.ruling.clone().unwrap_or_default();
    let line = (line > 0).then_some(line);
    if b.options.split_check == SplitCheck::Warn && t.ns_score != t.ew_score {
        let sum = pair[0].score + pair[1].score;
        if sum > top {
            notices.push(Notice {
                line,
                message: format!(
                    "ruling \"{id}\" (board {}): the split score gives NS {} and EW {} matchpoints, together {} — more than the top of {} (split check N6, docs/event-log.md)",
                    b.board, pair[0].score, pair[1].score, sum, top
                ),
            });
        }
    }
    for (k, d) in [(0usize, &t.ns_score), (1, &t.ew_score)] {
        let negative = d.components().iter().any(|(w, _)| *w < Q::ZERO);
        if !negative {
            continue;
        }
        let other = if k == 0 { &t.ew_score } else { &t.ns_score };
        let (Dist::Plain(a), Some(c)) = (other, t.played) else {
            continue;
        };
        // Score A and the table result C for this side as plain results in its line.
        let side = if k == 0 { Side::NS } else { Side::EW };
        let own_d = if side == Side::NS {
            &t.ns_freq
        } else {
            &t.ew_freq
        };
        let line_tab = raw.line(b, side);
        let (pa, pc) = (
            beats_without(line_tab, own_d, *a, side),
            beats_without(line_tab, own_d, c, side),
        );
        let n_side = pair[k]
            .detail
            .as_ref()
            .map(|d| d.raw)
            .unwrap_or(pair[k].score);
        let (lo, hi) = if pa < pc { (pa, pc) } else { (pc, pa) };
        if n_side < lo || n_side > hi {
            notices.push(Notice {
                line,
                message: format!(
                    "ruling \"{id}\" (board {}): the {} side's score with negative weights ({} raw MP) falls outside its table result ({}) and full redress ({}) (subsequent damage and its trap, docs/event-log.md)",
                    b.board,
                    if side == Side::NS { "NS" } else { "EW" },
                    n_side,
                    pc,
                    pa
                ),
            });
        }
    }
}

/// Each line's table of every table's contribution at its plain weights (what
/// `per_line_weighted` builds), for §5.6(3)'s check.
// (one value a board, on the stack: not worth a box)
#[allow(clippy::large_enum_variant)]
enum RawLines<'t> {
    Given(&'t FreqTable, &'t FreqTable),
    Lazy(Option<(FreqTable, FreqTable)>),
}

impl RawLines<'_> {
    fn line(&mut self, b: &BoardIn, side: Side) -> &FreqTable {
        let (ns, ew) = match self {
            RawLines::Given(ns, ew) => (*ns, *ew),
            RawLines::Lazy(built) => {
                let (ns, ew) = built.get_or_insert_with(|| raw_line_tables(b));
                (&*ns, &*ew)
            }
        };
        match side {
            Side::NS => ns,
            Side::EW => ew,
        }
    }
}

/// Each line's table with every table's frequency distribution at its plain weights.
fn raw_line_tables(b: &BoardIn) -> (FreqTable, FreqTable) {
    let (mut ns, mut ew) = (Vec::new(), Vec::new());
    for u in &b.tables {
        u.ns_freq.for_each(|w, y| ns.push((y, w)));
        u.ew_freq.for_each(|w, y| ew.push((y, w)));
    }
    (FreqTable::build(ns), FreqTable::build(ew))
}

/// `2·beaten + tied` of a plain result `x` among a line's other tables: the line's whole table
/// (`line`, every table at its plain weights) less the table's own contribution `own`. Counts
/// are linear, so this is exactly the table of the others, in O(components · log) instead of
/// building it again.
fn beats_without(line: &FreqTable, own: &Dist, x: i32, side: Side) -> Q {
    let mut v = Vec::new();
    own.for_each(|w, y| v.push((y, w)));
    line.beats(x, side) - FreqTable::build(v).beats(x, side)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adjust::Component;
    use crate::options::Options;

    /// The O(n) computation `beats_without` replaces: the table of every other table, built
    /// afresh.
    fn alone_by_rebuilding(tables: &[TableIn], skip: usize, x: i32, side: Side) -> Q {
        let mut others = Vec::new();
        for (i, u) in tables.iter().enumerate() {
            if i == skip {
                continue;
            }
            let d = if side == Side::NS {
                &u.ns_freq
            } else {
                &u.ew_freq
            };
            d.for_each(|w, y| others.push((y, w)));
        }
        FreqTable::build(others).beats(x, side)
    }

    /// SplitMix64, so the boards are the same on every run.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn random_dist(r: &mut Rng, scores: &[i32]) -> Dist {
        let pick = |r: &mut Rng| scores[r.below(scores.len() as u64) as usize];
        match r.below(4) {
            0 => Dist::Artificial(Q::int(60), crate::adjust::ArtLabel::Plus),
            1 | 2 => Dist::Plain(pick(r)),
            _ => {
                // Weights summing to 1, some negative (subsequent damage), points possibly
                // repeated or shared with the field.
                let k = 2 + r.below(3) as usize;
                let mut comps = Vec::new();
                let mut left = Q::ONE;
                for _ in 0..k - 1 {
                    let w = Q::new(r.below(200) as i128 - 60, 100);
                    comps.push(Component {
                        weight: w,
                        points: pick(r),
                    });
                    left -= w;
                }
                comps.push(Component {
                    weight: left,
                    points: pick(r),
                });
                Dist::Weighted(comps)
            }
        }
    }

    /// The line table less one table's contribution gives exactly what rebuilding the table of
    /// the others gives, for every table, both sides and results in, between and outside the
    /// rows (random boards with weighted, negative, artificial and repeated components).
    #[test]
    fn beats_without_equals_rebuilding_the_others() {
        let mut r = Rng(2026);
        let scores = [-1400, -620, -100, -50, 90, 110, 140, 420, 450, 620, 1430];
        for _ in 0..200 {
            let n = 1 + r.below(12) as usize;
            let tables: Vec<TableIn> = (0..n)
                .map(|i| {
                    let mut t = TableIn::plain(i as u32, 100 + i as u32, scores[i % scores.len()]);
                    t.ns_freq = random_dist(&mut r, &scores);
                    t.ew_freq = if r.below(2) == 0 {
                        t.ns_freq.clone()
                    } else {
                        random_dist(&mut r, &scores)
                    };
                    t
                })
                .collect();
            let b = BoardIn {
                session: 0,
                section: None,
                board: 1,
                field: n as u32,
                form: Form::Mp,
                options: &Options::default(),
                tables: tables.clone(),
                part: 0,
            };
            let (ns, ew) = raw_line_tables(&b);
            for (i, t) in tables.iter().enumerate() {
                for (side, line, own) in [(Side::NS, &ns, &t.ns_freq), (Side::EW, &ew, &t.ew_freq)]
                {
                    for x in [-2000, -1400, -200, -100, 0, 100, 130, 450, 1430, 3000] {
                        assert_eq!(
                            beats_without(line, own, x, side),
                            alone_by_rebuilding(&tables, i, x, side),
                            "table {i}, {side:?}, x = {x}"
                        );
                    }
                }
            }
        }
    }
}
