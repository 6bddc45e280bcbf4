//! The bulletin's content as plain JSON data (the view model). The Typst template reads it with
//! `json(...)`; every name, note and ruling is a JSON string and is printed as text, never
//! interpreted as Typst. Numbers are formatted here, so the template does no arithmetic.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::bridge::Seat;
use crate::dd::BoardDd;
use crate::explain::played_text;
use crate::num::Q;
use crate::pipeline::Scored;
use crate::replay::{RulingStatus, State};
use crate::score::Line;

/// Labels in the bulletin's language.
fn labels(lang: &str) -> Value {
    match lang {
        "pl" => json!({
            "bulletin": "Biuletyn", "standings": "Klasyfikacja", "overall": "Klasyfikacja łączna",
            "session": "Sesja", "section": "Sektor", "place": "Miejsce", "pair": "Para", "players": "Zawodnicy",
            "total": "Wynik", "pct": "%", "boards": "Rozdania", "board": "Rozdanie", "dealer": "Rozdający",
            "vul": "Założenia", "traveller": "Protokół", "frequency": "Frekans", "count": "Liczba",
            "rulings": "Orzeczenia", "ruling": "Orzeczenie", "law": "Prawo", "by": "Sędzia", "note": "Uwagi",
            "mean": "Średnia", "dispersion": "Obrotowość", "datum": "Datum", "contract": "Kontrakt",
            "ns": "NS", "ew": "WE", "score_ns": "Wynik NS", "score_ew": "Wynik WE", "matches": "Mecze",
            "status": "Status", "in_force": "obowiązuje", "withdrawn": "wycofane", "superseded": "zastąpione",
            "results": "Wyniki", "none": "brak", "dd": "Lewy w widne", "par": "Par"
        }),
        _ => json!({
            "bulletin": "Bulletin", "standings": "Standings", "overall": "Overall standings",
            "session": "Session", "section": "Section", "place": "Place", "pair": "Pair", "players": "Players",
            "total": "Total", "pct": "%", "boards": "Boards", "board": "Board", "dealer": "Dealer",
            "vul": "Vulnerable", "traveller": "Traveller", "frequency": "Frequency table", "count": "Count",
            "rulings": "Rulings", "ruling": "Ruling", "law": "Law", "by": "By", "note": "Note",
            "mean": "Mean", "dispersion": "Dispersion", "datum": "Datum", "contract": "Contract",
            "ns": "NS", "ew": "EW", "score_ns": "NS score", "score_ew": "EW score", "matches": "Matches",
            "status": "Status", "in_force": "in force", "withdrawn": "withdrawn", "superseded": "superseded",
            "results": "Results", "none": "none", "dd": "Double-dummy tricks", "par": "Par"
        }),
    }
}

/// A number as printed: up to two decimals, no trailing zeros.
pub fn fmt(q: Q) -> String {
    let f = q.to_f64();
    let s = format!("{f:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

fn signed(p: i32) -> String {
    if p > 0 {
        format!("+{p}")
    } else {
        p.to_string()
    }
}

/// A PBN deal as four hands of four suits.
fn hands(pbn: &str) -> Option<Value> {
    let (first, rest) = pbn.split_once(':')?;
    let order = ["N", "E", "S", "W"];
    let start = order.iter().position(|s| *s == first.trim())?;
    let mut out = serde_json::Map::new();
    for (k, h) in rest.split_whitespace().enumerate() {
        let seat = order[(start + k) % 4];
        let suits: Vec<Value> = h
            .split('.')
            .map(|s| {
                Value::from(if s.is_empty() {
                    "—".to_string()
                } else {
                    s.replace('T', "10")
                })
            })
            .collect();
        out.insert(seat.to_string(), Value::from(suits));
    }
    Some(Value::Object(out))
}

/// A board's double-dummy table (rows N, S, E, W; columns NT ♠ ♥ ♦ ♣) and par, as text.
fn dd_view(d: &BoardDd) -> Value {
    let rows: Vec<Value> = [Seat::N, Seat::S, Seat::E, Seat::W]
        .iter()
        .map(|&seat| {
            let tricks: Vec<String> = crate::dd::STRAINS
                .iter()
                .map(|&st| d.dd.table.get(st, seat).to_string())
                .collect();
            json!({"seat": seat.letter().to_string(), "tricks": tricks})
        })
        .collect();
    let par = &d.dd.par;
    let contracts: Vec<Value> = par
        .contracts
        .iter()
        .map(|c| {
            json!({"level": c.level.to_string(), "strain": c.strain.as_str(),
                   "doubled": c.doubled, "declarer": c.declarer.letter().to_string(),
                   "result": c.result()})
        })
        .collect();
    json!({
        "rows": rows,
        "par_score": signed(par.score),
        "par_contracts": contracts,
        "par_text": par.contracts_text(),
    })
}

/// Build the bulletin's data.
pub fn build(state: &State, scored: &Scored, deals: &[BoardDd], lang: &str) -> Value {
    let dd: BTreeMap<(usize, u32), &BoardDd> =
        deals.iter().map(|d| ((d.session, d.board), d)).collect();
    let ch = &state.championship;
    let pid = |p| state.participant(p);
    let who = |p| {
        let x = pid(p);
        x.name.clone().unwrap_or_else(|| x.players.join(" – "))
    };
    // Standings grouped.
    let mut groups: BTreeMap<(Option<usize>, Option<String>), Vec<Value>> = BTreeMap::new();
    for s in &scored.standings {
        let grouping = match s.session {
            Some(i) if state.sessions[i].def.compare == crate::options::Compare::Section => {
                s.section.clone()
            }
            _ => None,
        };
        let place = if s.rank == s.rank_to {
            s.rank.to_string()
        } else {
            format!("{}–{}", s.rank, s.rank_to)
        };
        groups
            .entry((s.session, grouping))
            .or_default()
            .push(json!({
                "place": place,
                "id": pid(s.participant).id,
                "players": who(s.participant),
                "total": format!("{:.2}", s.total.to_f64()),
                "pct": s.pct().map(|p| format!("{p:.2}")),
                "boards": s.boards,
            }));
    }
    let mut sessions = Vec::new();
    for (i, sess) in state.sessions.iter().enumerate() {
        let def = &sess.def;
        let standings: Vec<Value> = groups
            .iter()
            .filter(|((s, _), _)| *s == Some(i))
            .map(|((_, sec), rows)| json!({"section": sec, "rows": rows}))
            .collect();
        let mut boards = Vec::new();
        for b in scored.boards.iter().filter(|b| b.session == i) {
            let (dealer, vul) = state.dealer_vul(i, b.board);
            let deal = state
                .deals
                .get(&(i, b.board))
                .and_then(|d| hands(&d.ev.pbn));
            let mut trav = Vec::new();
            for pair in b.sides.chunks(2) {
                let (ns, ew) = (&pair[0], &pair[1]);
                let key = (i, b.board, ns.participant);
                let Some(t) = state.tables.get(&key) else {
                    continue;
                };
                let ruling = t
                    .ruling(state)
                    .map(|r| format!("{} {}", r.ev.id, r.ev.score.normalised()));
                trav.push((
                    t.played.as_ref().map_or(i32::MIN, |p| p.ns_points),
                    json!({
                        "ns": pid(ns.participant).id, "ew": pid(ew.participant).id,
                        "contract": played_text(t),
                        "points": t.played.as_ref().map(|p| signed(p.ns_points)),
                        "score_ns": fmt(ns.score), "score_ew": fmt(ew.score),
                        "ruling": ruling,
                        "room": t.room.map(|r| r.as_str()),
                    }),
                ));
            }
            // The traveller by score, best for NS first; a huge board shows its top and bottom.
            trav.sort_by(|a, b| b.0.cmp(&a.0));
            let n = trav.len();
            let shown: Vec<Value> = if n > 40 {
                trav.iter()
                    .take(20)
                    .chain(trav.iter().skip(n - 20))
                    .map(|t| t.1.clone())
                    .collect()
            } else {
                trav.into_iter().map(|t| t.1).collect()
            };
            let freq: Vec<Value> = b
                .freq
                .iter()
                .map(|r| {
                    json!({"line": match r.line { Line::NS => "NS", Line::EW => "EW", Line::Both => "" },
                           "group": r.group, "points": signed(r.ns_points), "count": fmt(r.count),
                           "mp_ns": fmt(r.mp_ns), "mp_ew": fmt(r.mp_ew)})
                })
                .collect();
            let st = &b.stats;
            boards.push(json!({
                "board": b.board,
                "section": b.section,
                "match": b.team.as_ref().map(|t| t.0.clone()),
                "dealer": dealer.letter().to_string(),
                "vul": vul.as_str(),
                "deal": deal,
                "dd": dd.get(&(i, b.board)).map(|d| dd_view(d)),
                "tables": n,
                "traveller_cut": n > 40,
                "traveller": shown,
                "frequency": freq,
                "results": fmt(st.results),
                "mean": st.mean.map(|m| format!("{:.0}", m.to_f64())),
                "dispersion": st.dispersion.map(|m| format!("±{:.0}", m.to_f64())),
                "dispersion_imp": st.dispersion_imp.map(|m| format!("±{:.1}", m.to_f64())),
                "dispersion_mp": st.dispersion_mp.map(|m| format!("±{:.1}", m.to_f64())),
                "datum": b.datum.map(fmt),
            }));
        }
        let matches: Vec<Value> = scored
            .matches
            .iter()
            .filter(|m| m.session == i)
            .map(|m| {
                json!({"match": m.match_id, "home": who(m.home), "away": who(m.away),
                       "imp_home": m.imp_home.map(fmt), "imp_away": m.imp_away.map(fmt),
                       "vp_home": fmt(m.vp_home), "vp_away": fmt(m.vp_away)})
            })
            .collect();
        sessions.push(json!({
            "id": def.id, "name": def.name, "form": def.form.name(),
            "standings": standings, "boards": boards, "matches": matches,
        }));
    }
    let overall: Vec<Value> = groups
        .iter()
        .filter(|((s, _), _)| s.is_none())
        .flat_map(|(_, rows)| rows.clone())
        .collect();
    let rulings: Vec<Value> = state
        .rulings
        .iter()
        .map(|r| {
            let ew = state
                .tables
                .get(&r.key)
                .map(|t| pid(t.ew).id.clone())
                .or_else(|| r.ev.ew.clone())
                .unwrap_or_default();
            let status = match &r.status {
                RulingStatus::InForce => "in_force".to_string(),
                RulingStatus::Withdrawn { .. } => "withdrawn".to_string(),
                RulingStatus::Superseded { by } | RulingStatus::Overridden { by } => {
                    format!("superseded:{by}")
                }
            };
            json!({"id": r.ev.id, "session": state.sessions[r.key.0].def.id, "board": r.key.1,
                   "ns": pid(r.key.2).id, "ew": ew, "score": r.ev.score.normalised(),
                   "law": r.ev.law, "by": r.by, "at": r.at, "note": r.note, "status": status,
                   "supersedes": r.ev.supersedes})
        })
        .collect();
    json!({
        "lang": lang,
        "labels": labels(lang),
        "championship": {"name": ch.name, "date": ch.date, "place": ch.place},
        "sessions": sessions,
        "overall": overall,
        "rulings": rulings,
        "notices": scored.notices.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
    })
}
