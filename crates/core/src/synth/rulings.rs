//! The rulings synth makes: their kinds' scores (weighted, assigned, split, artificial), laws and lines.

use super::*;

/// A ruling waiting to be written (after its round), and what follows it at the session's end.
pub(super) struct PendingRuling {
    pub(super) id: String,
    pub(super) board: u32,
    pub(super) ns: String,
    pub(super) ew: String,
    /// A seated kind's table: named by North (`ns`; `ew` is East).
    pub(super) seated: bool,
    /// South and West as well, when the ruling names all four seats (it must when it creates
    /// the table).
    pub(super) others: Option<(String, String)>,
    pub(super) body: RulingBody,
    pub(super) law: &'static str,
    pub(super) by: &'static str,
    /// `Some(score)`: superseded at the end of the session by an appeal with this score.
    pub(super) appeal: Option<String>,
    pub(super) withdraw: bool,
}

pub(super) enum RulingBody {
    Score(String),
    /// side, before, after_infraction, after_loss (NS points)
    Sd(&'static str, i32, i32, i32),
}

/// `(60%+620&40%-100)` from points and weights in percent (thirds as `100/3%`).
pub(super) fn weighted(points: &[i32], weights: &[&str]) -> String {
    let mut s = String::from("(");
    for (i, (p, w)) in points.iter().zip(weights).enumerate() {
        if i > 0 {
            s.push('&');
        }
        s.push_str(w);
        s.push('%');
        s.push_str(&format_points(*p));
    }
    s.push(')');
    s
}

pub(super) const WEIGHTS2: &[[&str; 2]] = &[
    ["60", "40"],
    ["70", "30"],
    ["50", "50"],
    ["100/3", "200/3"],
    ["80", "20"],
];

pub(super) const WEIGHTS3: &[[&str; 3]] =
    &[["50", "30", "20"], ["60", "30", "10"], ["40", "40", "20"]];

/// A weighted score of 2 or 3 plausible results; an assigned score when the board has one.
pub(super) fn weighted_score(m: &BoardModel, rng: &mut Rng) -> String {
    let n = if rng.chance(0.3) { 3 } else { 2 };
    let pts = m.distinct_points(n, rng);
    match pts.len() {
        3 => weighted(&pts, &rng.pick(WEIGHTS3)[..]),
        2 => weighted(&pts, &rng.pick(WEIGHTS2)[..]),
        _ => format!("({})", format_points(pts.first().copied().unwrap_or(0))),
    }
}

pub(super) fn ruling_body(kind: RulingKind, m: &BoardModel, rng: &mut Rng) -> RulingBody {
    let s = match kind {
        RulingKind::Artificial | RulingKind::NotPlayed => {
            (*rng.pick(&["A+/A-", "A-/A+", "A", "A/A-", "60%/40%", "A+"])).to_string()
        }
        RulingKind::Assigned => format!("({})", format_points(m.alt_points(rng))),
        RulingKind::Weighted | RulingKind::Withdrawn | RulingKind::Appealed => {
            weighted_score(m, rng)
        }
        RulingKind::Split => {
            if rng.chance(0.5) {
                let p = m.distinct_points(2, rng);
                let a = p.first().copied().unwrap_or(0);
                let b = p.get(1).copied().unwrap_or(a);
                format!("({})/({})", format_points(a), format_points(b))
            } else {
                let p = m.distinct_points(2, rng);
                if p.len() == 2 {
                    let w = rng.pick(&[["30", "70"], ["40", "60"], ["25", "75"]]);
                    format!(
                        "{}/{}",
                        weighted(&p, &[w[0], w[1]]),
                        weighted(&p, &[w[1], w[0]])
                    )
                } else {
                    format!("({})/({})", format_points(p[0]), format_points(p[0]))
                }
            }
        }
        RulingKind::Mixed => {
            let p = format_points(m.alt_points(rng));
            if rng.chance(0.5) {
                format!("50%/({p})")
            } else {
                format!("({p})/40%")
            }
        }
        RulingKind::SubsequentDamage => {
            let mut p = [m.alt_points(rng), m.alt_points(rng), m.alt_points(rng)];
            let side = if rng.chance(0.5) { "NS" } else { "EW" };
            // Non-increasing for the non-offending side (C6): NS points descending for NS,
            // ascending for EW.
            p.sort_unstable();
            if side == "NS" {
                p.reverse();
            }
            return RulingBody::Sd(side, p[0], p[1], p[2]);
        }
    };
    RulingBody::Score(s)
}

// (`pick` of a list of `&str` gives a `&&str`: the `*` is needed, whatever the lint says)
#[allow(clippy::explicit_auto_deref)]
pub(super) fn law_of(kind: RulingKind, rng: &mut Rng) -> &'static str {
    match kind {
        RulingKind::Artificial | RulingKind::NotPlayed | RulingKind::Mixed => "12C2(a)",
        RulingKind::SubsequentDamage => "12C1(b)",
        RulingKind::Split => *rng.pick(&["12C1(b)", "70"]),
        _ => *rng.pick(&["12C1(c)", "16B1", "21B3", "23"]),
    }
}

// ---------------------------------------------------------------------------------------------
// The championship
// ---------------------------------------------------------------------------------------------

pub(super) fn write_ruling(
    w: &mut Writer,
    sid: &str,
    p: &PendingRuling,
    supersedes: Option<&str>,
    at: &str,
) -> io::Result<()> {
    if !w.is_jsonl() {
        return Ok(());
    }
    let mut o = obj(&mut w.buf, "ruling");
    o.str("id", &p.id)
        .str("session", sid)
        .int("board", i64::from(p.board));
    match (&p.others, p.seated) {
        (Some((south, west)), _) => {
            o.str("north", &p.ns)
                .str("south", south)
                .str("east", &p.ew)
                .str("west", west);
        }
        (None, true) => {
            o.str("north", &p.ns);
        }
        (None, false) => {
            o.str("ns", &p.ns).str("ew", &p.ew);
        }
    }
    match &p.body {
        RulingBody::Score(s) => {
            o.str("score", s);
        }
        RulingBody::Sd(side, a, b, c) => {
            let sd = format!(
                "{{\"side\":\"{side}\",\"before\":\"{}\",\"after_infraction\":\"{}\",\"after_loss\":\"{}\",\"offenders\":\"{}\"}}",
                format_points(*a),
                format_points(*b),
                format_points(*c),
                format_points(*a)
            );
            o.raw("subsequent_damage", &sd);
        }
    }
    if let Some(old) = supersedes {
        o.str("supersedes", old);
    }
    o.str("law", p.law).str("by", p.by).str("at", at);
    w.emit()
}
