//! The championship's participants: its sections' pairs, teams or players (a seated kind's), their
//! players drawn afresh or from a federation's members (`synth --members`), and a seated kind's
//! individual movement (`seats`).

use std::io;

use super::*;

/// Every section's participants declared (the log's `pair`/`team` events), in order.
pub(super) fn participants(spec: &Spec, w: &mut Writer, rng: &mut Rng) -> io::Result<Vec<Section>> {
    let teams = spec.plug().in_matches;
    let mut members = spec.members.map(Members::new);
    let mut sections = Vec::with_capacity(spec.sections as usize);
    for si in 0..spec.sections {
        let name = section_name(si);
        let n = spec.tables as usize;
        if spec.plug().seated {
            sections.push(players(w, rng, members.as_mut(), name, n)?);
            continue;
        }
        let (ns, ew): (Vec<String>, Vec<String>) = if teams {
            (
                (1..=n).map(|i| format!("{name}T{i}")).collect(),
                (n + 1..=2 * n).map(|i| format!("{name}T{i}")).collect(),
            )
        } else {
            (
                (1..=n).map(|i| format!("{name}{i}")).collect(),
                (n + 1..=2 * n).map(|i| format!("{name}{i}")).collect(),
            )
        };
        for id in ns.iter().chain(&ew) {
            let seated = members
                .as_mut()
                .map(|m| m.seat(if teams { 2 } else { 1 }, rng));
            if teams {
                let players: Vec<String> = match &seated {
                    Some(ids) => ids.iter().map(|&m| member_name(m)).collect(),
                    None => (0..4).map(|_| player_name(rng)).collect(),
                };
                w.summary.participants += 1;
                if w.is_jsonl() {
                    let ids = seated.as_deref().map(member_ids);
                    obj(&mut w.buf, "team")
                        .str("id", id)
                        .str("name", &format!("Team {id}"))
                        .players("players", &players, ids.as_deref());
                    w.emit()?;
                }
            } else {
                let players: Vec<String> = match &seated {
                    Some(ids) => ids.iter().map(|&m| member_name(m)).collect(),
                    None => vec![player_name(rng), player_name(rng)],
                };
                let ids = seated.as_deref().map(member_ids);
                w.pair(id, &name, &players, ids.as_deref())?;
            }
        }
        sections.push(Section { name, ns, ew });
    }
    Ok(sections)
}

/// A seated kind's section of `n` tables: its `4n` players declared (`player` events), the
/// first `2n` kept as `ns` (North's group then South's), the rest as `ew` (East's then West's).
/// With members, players `2k` and `2k + 1` are a partnership's two members.
fn players(
    w: &mut Writer,
    rng: &mut Rng,
    mut members: Option<&mut Members>,
    name: String,
    n: usize,
) -> io::Result<Section> {
    let ids: Vec<String> = (1..=4 * n).map(|i| format!("{name}{i}")).collect();
    let mut drawn: Vec<u32> = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        w.summary.participants += 1;
        let member = match members.as_deref_mut() {
            Some(m) => {
                if i % 2 == 0 {
                    drawn = m.seat(1, rng);
                }
                Some(drawn[i % 2])
            }
            None => None,
        };
        let player = match member {
            Some(m) => member_name(m),
            None => player_name(rng),
        };
        if w.is_jsonl() {
            let mut o = obj(&mut w.buf, "player");
            o.str("id", id).str("section", &name).str("name", &player);
            if let Some(m) = member {
                o.str("member", &member_ids(&[m])[0]);
            }
            w.emit()?;
        }
    }
    let ew = ids[2 * n..].to_vec();
    let mut ns = ids;
    ns.truncate(2 * n);
    Ok(Section { name, ns, ew })
}

/// The four players of table `t` (0-based) in round `k` (0-based, counted across sessions) of a
/// seated kind's section of `n` tables, as (North, South, East, West): North's group stays, the
/// others move 1, 2 and 3 tables a round, so that each round every player sits once, a
/// player's partner changes every round (each of the `n` partners of their group in turn) and
/// their opponents with it.
pub(super) fn seats(sec: &Section, t: usize, k: usize) -> [&str; 4] {
    let n = sec.ns.len() / 2;
    [
        sec.ns[t].as_str(),
        sec.ns[n + (t + k) % n].as_str(),
        sec.ew[(t + 2 * k) % n].as_str(),
        sec.ew[n + (t + 3 * k) % n].as_str(),
    ]
}

/// A federation's members (`synth --members N`): member `m` (0-based) has the number
/// `100001 + m` and always the same name; members `2k` and `2k + 1` are partners. A championship
/// seats partnerships drawn without repeats.
pub(super) struct Members {
    partnerships: u32,
    taken: crate::hash::FxSet<u32>,
}

impl Members {
    pub(super) fn new(n: u32) -> Members {
        Members {
            partnerships: n / 2,
            taken: Default::default(),
        }
    }

    /// The members of `k` partnerships not seated yet (`validate` has checked there are enough).
    pub(super) fn seat(&mut self, k: usize, rng: &mut Rng) -> Vec<u32> {
        let mut out = Vec::with_capacity(2 * k);
        while out.len() < 2 * k {
            let p = rng.below(self.partnerships);
            if self.taken.insert(p) {
                out.extend([2 * p, 2 * p + 1]);
            }
        }
        out
    }
}

/// Member `m`'s name: the same in every log (a mix of its number, not the generator's draw).
pub(super) fn member_name(m: u32) -> String {
    let mut r = Rng::new(u64::from(m) ^ 0x5eed_f00d);
    format!("{} {}", r.pick(FIRST), r.pick(LAST))
}

/// Members' numbers as the log writes them.
pub(super) fn member_ids(ms: &[u32]) -> Vec<String> {
    ms.iter()
        .map(|m| (100_001 + u64::from(*m)).to_string())
        .collect()
}
