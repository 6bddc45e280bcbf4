//! A board of an individual session: its tables scored as pairs' (the NS side of a table against
//! the other tables' NS sides), then each player credited with their side's score. North and
//! East are the sides' participants while the form scores; South and West are added beside them
//! with the same score, top and arithmetic. Each player's opponent is the one in the matching
//! seat of the other side (North and East, South and West).

use super::{BoardIn, BoardScore, PId};
use crate::adjust::Side;

/// Credit South and West of every table of `b` that has them (an individual session's) with
/// their side's score in `out`, each right after their partner.
pub fn credit(b: &BoardIn, out: &mut BoardScore) {
    if b.tables.iter().all(|t| t.others.is_none()) {
        return;
    }
    // (the side's scored participant, the side) → (its partner, the partner's opponent)
    let mut partners: crate::hash::FxMap<(PId, Side), (PId, PId)> = Default::default();
    for t in &b.tables {
        if let Some([south, west]) = t.others {
            partners.insert((t.ns, Side::NS), (south, west));
            partners.insert((t.ew, Side::EW), (west, south));
        }
    }
    let mut sides = Vec::with_capacity(out.sides.len() * 2);
    for s in out.sides.drain(..) {
        let partner = partners.get(&(s.participant, s.side)).copied();
        let copy = partner.map(|(p, o)| super::SideScore {
            participant: p,
            opponent: o,
            ..s.clone()
        });
        sides.push(s);
        sides.extend(copy);
    }
    out.sides = sides;
    out.per_side = 2;
}
