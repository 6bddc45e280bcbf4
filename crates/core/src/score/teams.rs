//! The `teams` form: IMP matches converted to victory points (scoring-methods.md §1,
//! adjusted-scores.md §3, conventions C17–C19): a board is IMPs, a match's IMPs less its IMP
//! penalties are converted on the session's VP scale.

use super::form::PenaltyUnit;
use crate::bridge::imp;
use crate::error::Notice;
use crate::num::Q;
use crate::options::VpImpRounding;

use super::form::{MatchIn, MatchOut, Rules, Spec, TeamRules, Usebio, UsebioRead};
use super::ximp::artificial_imps;

pub static FORM: Spec = Spec {
    name: "teams",
    title: "teams",
    matchpoints: false,
    options: &["vp_scale", "vp_imp_rounding", "ko_average_split"],
    penalty_units: &[PenaltyUnit::Imp, PenaltyUnit::Vp],
    rules: Rules::Teams(TeamRules {
        board_value: |d, _| Q::int(imp(d as i32) as i64),
        artificial: |pct| (artificial_imps(pct), Q::ZERO),
        knockout_average: true,
        finish,
        unit: "IMP",
        value_text: |d| format!("{} IMP", imp(d)),
        shows_aggregate: false,
    }),
    pbn: Some(super::form::Pbn {
        scoring: "IMP",
        unit: "IMP",
        total: "TotalScoreVP",
        datum: false,
        read: super::form::PbnRead {
            words: &[("IMP", None), ("IMPS", None)],
            yields: false,
            options: &[],
        },
    }),
    usebio: Some(Usebio {
        event_type: "TEAMS",
        knockout_event_type: "KO",
        board_scoring_method: "IMPS",
        match_scoring_method: Some("VPS"),
        team_points: false,
        line_points: None,
        read: UsebioRead {
            board: &[],
            matches: &[],
            scoring: &[],
            event_types: &[
                "TEAMS",
                "SWISS_TEAMS",
                "TEAMS_OF_FOUR",
                "KO",
                "TEAMS_KO",
                "KNOCKOUT",
            ],
            knockout: &["KO", "TEAMS_KO", "KNOCKOUT"],
            unnamed: &[],
        },
    }),
    bws: None,
};

/// The match's IMPs, and its VPs on the session's scale.
fn finish(m: &MatchIn, notices: &mut Vec<Notice>) -> MatchOut {
    let [home, away] = m.points;
    let (mh, ma) = vp_margins(m, notices);
    let o = m.options;
    MatchOut {
        imps: Some([home, away]),
        vps: [
            crate::bridge::vp::vp(&o.vp_scale, m.boards, mh),
            crate::bridge::vp::vp(&o.vp_scale, m.boards, ma),
        ],
    }
}

/// The margins converted to VPs: as they are (`vp_imp_rounding: none`, C18), or, under `nos`,
/// a fractional margin rounded to a whole IMP in favour of the non-offending team named by a
/// structured subsequent-damage ruling of the match (to nearest, with a notice, when rulings
/// name both teams: adjusted-scores.md A5, C18).
fn vp_margins(m: &MatchIn, notices: &mut Vec<Notice>) -> (Q, Q) {
    let [home, away] = m.points;
    if m.options.vp_imp_rounding != VpImpRounding::Nos || (home.is_integer() && away.is_integer()) {
        return (home, away);
    }
    let nos_teams = (m.nos_teams)();
    let round = |q: Q, up: bool| -> Q {
        let f = Q::int(q.floor() as i64);
        if q.is_integer() {
            q
        } else if up {
            f + Q::ONE
        } else {
            f
        }
    };
    let nearest = |q: Q| -> Q { Q::int((q + Q::new(1, 2)).floor() as i64) };
    if nos_teams.len() == 1 {
        let nos = *nos_teams.iter().next().unwrap();
        let h = round(home, nos == m.home);
        let a = round(away, nos == m.away);
        (h, a)
    } else {
        if nos_teams.len() > 1 {
            notices.push(Notice {
                line: Some(m.line),
                message: format!("match \"{}\": subsequent-damage rulings name both teams as non-offending; fractional margins rounded to the nearest IMP (vp_imp_rounding: nos, conventions C18): check by hand", m.id),
            });
        }
        if nos_teams.is_empty() {
            return (home, away);
        }
        (nearest(home), nearest(away))
    }
}
