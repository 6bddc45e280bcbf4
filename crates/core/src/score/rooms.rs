//! A board of a team match scored from its two rooms, for every team form (teams, Patton,
//! board-a-match: each form's module says what a comparison and an artificial part are worth).
//!
//! Each team is scored on its own from its own side's part in each room: the home team sits NS
//! in the open room (part P) and EW in the closed room (part V, NS view), and earns
//! Σ_i Σ_j p_i·v_j·f(x_i − y_j) (A8), f = IMPs, Patton or BAM board points. The two teams'
//! results need not cancel after a split or weighted ruling; a knockout match gives both the
//! average of the two calculations (Law 86B). Artificial parts as C17/C25.

use crate::num::Q;
use crate::options::Options;

use super::form::TeamRules;
use super::{Dist, Form, TableIn};

/// One board of one match: the two rooms.
#[derive(Clone, Debug)]
pub struct TeamBoardIn<'a> {
    pub board: u32,
    pub knockout: bool,
    pub form: Form,
    pub options: &'a Options,
    /// Open room: home NS, away EW.
    pub open: Option<TableIn>,
    /// Closed room: away NS, home EW.
    pub closed: Option<TableIn>,
}

/// One team's arithmetic on a board, for `explain`.
#[derive(Clone, Debug, PartialEq)]
pub struct TeamCalc {
    /// (weight, points) of its part in the room where it sat NS, and where it sat EW (NS view).
    pub ns_part: Vec<(Q, i32)>,
    pub ew_part: Vec<(Q, i32)>,
    /// Board score (IMPs or board points) before any knockout averaging.
    pub own: Q,
    /// Patton: the team's signed aggregate contribution in points.
    pub aggregate: Q,
    /// An artificial part decided the value (C17, C25).
    pub artificial: bool,
}

/// A board of a match, scored: what is kept of it (each team's arithmetic is made again for
/// `explain` by [`calculate`], as half a million boards would hold it for nothing).
#[derive(Clone, Debug, PartialEq)]
pub struct TeamBoard {
    pub board: u32,
    pub home: Q,
    pub away: Q,
    /// The scores are the knockout average of the two calculations.
    pub averaged: bool,
}

/// One team's value from its part where it sat NS (`p`) and where it sat EW (`v`, NS view);
/// the parts listed in the result only when `parts` (for `explain`).
fn team_value(p: &Dist, v: &Dist, rules: &TeamRules, o: &Options, parts: bool) -> TeamCalc {
    let (ns_part, ew_part) = if parts {
        (p.components(), v.components())
    } else {
        (Vec::new(), Vec::new())
    };
    let arts: Vec<(Q, Q)> = [p, v]
        .iter()
        .filter_map(|d| match d {
            Dist::Artificial(pct, _) => Some((rules.artificial)(*pct)),
            _ => None,
        })
        .collect();
    if !arts.is_empty() {
        let n = Q::int(arts.len() as i64);
        let own = arts.iter().map(|a| a.0).sum::<Q>() / n;
        let aggregate = arts.iter().map(|a| a.1).sum::<Q>() / n;
        // The own-view sign: artificial percentages are the side's own, already.
        return TeamCalc {
            ns_part,
            ew_part,
            own,
            aggregate,
            artificial: true,
        };
    }
    let mut own = Q::ZERO;
    p.for_each(|pw, x| {
        v.for_each(|vw, y| {
            let d = x as i64 - y as i64;
            own += pw * vw * (rules.board_value)(d, o);
        })
    });
    // Aggregate Σ p x − Σ v y (C25: negative weights included).
    let (mut px, mut vy) = (Q::ZERO, Q::ZERO);
    p.for_each(|w, x| px += w * Q::int(x as i64));
    v.for_each(|w, y| vy += w * Q::int(y as i64));
    TeamCalc {
        ns_part,
        ew_part,
        own,
        aggregate: px - vy,
        artificial: false,
    }
}

/// Score one board of a match; `None` when a room has no table (C17, C27: not scored). With
/// the board, each team's Patton aggregate contribution (home, away).
pub fn score_board(b: &TeamBoardIn) -> Option<(TeamBoard, [Q; 2])> {
    board(b, false).map(|(tb, [h, a])| (tb, [h.aggregate, a.aggregate]))
}

/// [`score_board`] with each team's arithmetic (home, away), its parts listed: for `explain`.
pub fn calculate(b: &TeamBoardIn) -> Option<(TeamBoard, [TeamCalc; 2])> {
    board(b, true)
}

fn board(b: &TeamBoardIn, parts: bool) -> Option<(TeamBoard, [TeamCalc; 2])> {
    let (open, closed) = (b.open.as_ref()?, b.closed.as_ref()?);
    let rules = b
        .form
        .teams()
        .expect("a match board is of a team form (replay puts matches in team sessions only)");
    let home_calc = team_value(&open.ns_score, &closed.ew_score, rules, b.options, parts);
    let away_calc = team_value(&closed.ns_score, &open.ew_score, rules, b.options, parts);
    // C37: `ko_average_split` given in the session's options applies to every match of the
    // session; not given, it is true for knockout matches only.
    let average = rules.knockout_average && b.options.ko_average_split.unwrap_or(b.knockout);
    let (home, away) = if average {
        let h = (home_calc.own - away_calc.own) / Q::int(2);
        (h, -h)
    } else {
        (home_calc.own, away_calc.own)
    };
    let tb = TeamBoard {
        board: b.board,
        home,
        away,
        averaged: average,
    };
    Some((tb, [home_calc, away_calc]))
}

/// Board points of a net result: 2 above `margin`, 0 below −`margin`, 1 between (Patton
/// C24, board-a-match C26).
pub fn board_points(d: i64, margin: Q) -> Q {
    let d = Q::int(d);
    if d > margin {
        Q::int(2)
    } else if d < -margin {
        Q::ZERO
    } else {
        Q::ONE
    }
}

/// The value of an artificial part in board points and Patton aggregate points: 2P board
/// points; (P − 50%) × 1000 points (A+ +100) (C25, C26).
pub fn artificial_board_points(pct: Q) -> (Q, Q) {
    (pct / Q::int(50), (pct - Q::int(50)) * Q::int(10))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ns: Dist, ew: Dist) -> TableIn {
        let mut x = TableIn::plain(0, 1, 0);
        x.ns_score = ns.clone();
        x.ns_freq = ns;
        x.ew_score = ew.clone();
        x.ew_freq = ew;
        x
    }

    #[test]
    fn ru_teams_1() {
        // T1: A (NS) +100; T2 assigned: B (NS) +50, A (EW) +200 in EW's view = −200 NS view.
        let o = Options::default();
        let b = TeamBoardIn {
            board: 1,
            knockout: false,
            form: Form::Teams,
            options: &o,
            open: Some(t(Dist::Plain(100), Dist::Plain(100))),
            closed: Some(t(Dist::Plain(50), Dist::Plain(-200))),
        };
        let (s, _) = score_board(&b).unwrap();
        assert_eq!(s.home, Q::int(7));
        assert_eq!(s.away, Q::int(-2));
    }
}
