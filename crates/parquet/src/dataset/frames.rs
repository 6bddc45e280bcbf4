//! The dataset's tables of one championship as polars frames: `frekans score`'s tables (built
//! by `export::parquet`'s own builders, so every value is the one `score` writes) with the
//! championship's id and date in front and the players' ids of every participant a row names,
//! and the tables only the dataset has (championships, sessions, results, players).

use polars::prelude::*;

use crate::export::parquet::{frame_of, scores_frame};
use crate::export::rows::Tables;
use crate::pipeline::Scored;
use crate::replay::{Participant, State};

/// What the dataset says of a championship beside its scoring.
#[derive(Clone, Debug)]
pub struct Meta {
    /// Its id in the dataset (`--id`, or the log file's stem).
    pub id: String,
    /// Its date, days since 1970-01-01, when known.
    pub date: Option<i32>,
    /// The log's head (crate::integrity), its event count.
    pub head: String,
    pub events: usize,
    /// When this `dataset add` ran (RFC 3339, UTC).
    pub added_at: String,
}

/// The players' federation ids of a participant, in the order of its players (`None` where a
/// player has none), one for each of its players.
pub fn player_ids(p: &Participant) -> Vec<Option<String>> {
    (0..p.players.len())
        .map(|i| p.player_ids.get(i).cloned().flatten())
        .collect()
}

/// The columns naming participants, by table: each gets a `<column>_player_ids` list column.
pub fn participant_columns(table: &str) -> &'static [&'static str] {
    match table {
        "scores" => &["participant", "opponent"],
        "standings" => &["participant"],
        "results" => &["ns", "ew"],
        "matches" => &["home", "away"],
        "rulings" => &["ns", "ew"],
        _ => &[],
    }
}

/// Everything a championship's tables are made from.
pub struct Source<'a> {
    pub state: &'a State,
    pub scored: &'a Scored,
    /// `export::rows::build_with(state, scored, false)`: every table of `score` but scores.
    pub rows: &'a Tables,
    pub meta: &'a Meta,
}

/// The frame of dataset table `table` (one of [`super::TABLES`]) of one championship.
pub fn frame(src: &Source, table: &str) -> PolarsResult<DataFrame> {
    let (state, scored, rows) = (src.state, src.scored, src.rows);
    let df = match table {
        "championships" => championships(src)?,
        "sessions" => sessions(state)?,
        "results" => results(state)?,
        "scores" => scores_frame(state, scored)?,
        "standings" => frame_of(rows, "standings.parquet")?,
        "boards" => frame_of(rows, "boards.parquet")?,
        "matches" => frame_of(rows, "matches.parquet")?,
        "rulings" => frame_of(rows, "rulings.parquet")?,
        "deals" => deals(state)?,
        "players" => players(state)?,
        other => panic!("no dataset table {other}"),
    };
    let mut df = with_championship(df, src.meta)?;
    let ids: Vec<Vec<Option<String>>> = state.participants.iter().map(player_ids).collect();
    // A seated kind's table: its `ns`/`ew` rows name North and East, and carry their side's
    // two players (North and South, East and West), as a pair's row carries its two.
    let seated = state.sessions.iter().any(|s| s.kind.seated);
    for col in participant_columns(table) {
        let list = match (seated, table, *col) {
            (true, "results" | "rulings", side @ ("ns" | "ew")) => {
                side_id_column(&df, state, &ids, side)?
            }
            _ => player_id_column(&df, state, &ids, col)?,
        };
        df.with_column(list)?;
    }
    Ok(df)
}

/// `ns_player_ids` or `ew_player_ids` of the results' or rulings' rows (`side` "ns" or "ew"):
/// the ids of the side's players, the seated table's two (found by session, board and North).
fn side_id_column(
    df: &DataFrame,
    state: &State,
    ids: &[Vec<Option<String>>],
    side: &str,
) -> PolarsResult<Column> {
    let sessions: std::collections::HashMap<&str, usize> = state
        .sessions
        .iter()
        .enumerate()
        .map(|(i, s)| (s.def.id.as_str(), i))
        .collect();
    let (sid, board, north) = (
        df.column("session")?.str()?,
        df.column("board")?.i32()?,
        df.column("ns")?.str()?,
    );
    let who = df.column(side)?.str()?;
    let side = if side == "ns" {
        frekans_core::adjust::Side::NS
    } else {
        frekans_core::adjust::Side::EW
    };
    let mut rows: Vec<Option<Vec<Option<String>>>> = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        let table = (|| {
            let s = *sessions.get(sid.get(i)?)?;
            let key = (
                s,
                u32::try_from(board.get(i)?).ok()?,
                state.pid(north.get(i)?)?,
            );
            state.tables.get(&key)
        })();
        let row = match table {
            Some(t) if t.others.is_some() => Some(
                t.side(side)
                    .flat_map(|p| ids[p as usize].iter().cloned())
                    .collect(),
            ),
            _ => who
                .get(i)
                .and_then(|n| state.pid(n))
                .map(|p| ids[p as usize].clone()),
        };
        rows.push(row);
    }
    crate::export::parquet::player_ids_column(
        &format!(
            "{}_player_ids",
            if side == frekans_core::adjust::Side::NS {
                "ns"
            } else {
                "ew"
            }
        ),
        rows.iter().map(|r| r.as_deref()),
    )
}

/// `df` with `championship_id` and `championship_date` in front.
fn with_championship(mut df: DataFrame, meta: &Meta) -> PolarsResult<DataFrame> {
    let n = df.height();
    let id = StringChunked::full("championship_id".into(), &meta.id, n).into_series();
    let date = match meta.date {
        Some(d) => Int32Chunked::full("championship_date".into(), d, n).into_series(),
        None => Int32Chunked::full_null("championship_date".into(), n).into_series(),
    }
    .cast(&DataType::Date)?;
    df.insert_column(0, id.into_column())?;
    df.insert_column(1, date.into_column())?;
    Ok(df)
}

/// `<col>_player_ids`: for each row, the ids of the players of the participant in `col`.
fn player_id_column(
    df: &DataFrame,
    state: &State,
    ids: &[Vec<Option<String>>],
    col: &str,
) -> PolarsResult<Column> {
    let names = df.column(col)?.str()?;
    let rows = names.iter().map(|name| {
        name.and_then(|n| state.pid(n))
            .map(|p| ids[p as usize].as_slice())
    });
    let rows: Vec<_> = rows.collect();
    crate::export::parquet::player_ids_column(&format!("{col}_player_ids"), rows.into_iter())
}

fn championships(src: &Source) -> PolarsResult<DataFrame> {
    let c = &src.state.championship;
    let m = src.meta;
    let played = src
        .state
        .tables
        .values()
        .filter(|t| t.played.is_some())
        .count() as i64;
    let columns = vec![
        Series::new("name".into(), [c.name.as_deref()]).into_column(),
        Series::new("place".into(), [c.place.as_deref()]).into_column(),
        Series::new("log_head".into(), [m.head.as_str()]).into_column(),
        Series::new("events".into(), [m.events as i64]).into_column(),
        Series::new("results".into(), [played]).into_column(),
        Series::new("added_at".into(), [m.added_at.as_str()]).into_column(),
    ];
    DataFrame::new(1, columns)
}

fn sessions(state: &State) -> PolarsResult<DataFrame> {
    let s = &state.sessions;
    let compare = |c: crate::options::Compare| match c {
        crate::options::Compare::Section => "section",
        crate::options::Compare::Field => "field",
    };
    let columns = vec![
        Series::new(
            "session".into(),
            s.iter().map(|s| s.def.id.as_str()).collect::<Vec<_>>(),
        )
        .into_column(),
        Series::new(
            "name".into(),
            s.iter().map(|s| s.def.name.as_deref()).collect::<Vec<_>>(),
        )
        .into_column(),
        Series::new(
            "form".into(),
            s.iter().map(|s| s.def.form.name()).collect::<Vec<_>>(),
        )
        .into_column(),
        Series::new(
            "compare".into(),
            s.iter().map(|s| compare(s.def.compare)).collect::<Vec<_>>(),
        )
        .into_column(),
        Series::new(
            "boards".into(),
            s.iter()
                .map(|s| s.def.boards.len() as i32)
                .collect::<Vec<_>>(),
        )
        .into_column(),
    ];
    DataFrame::new(s.len(), columns)
}

/// One row per table result, in (session, board, NS) order, as replayed (corrections
/// applied); `ns_points` null when the table was not played or an artificial score applies.
fn results(state: &State) -> PolarsResult<DataFrame> {
    use crate::bridge::Bid;
    let n = state.tables.len();
    let mut c = ResultColumns::with_capacity(n);
    for (_, t) in state.tables.iter() {
        let p = state.participant(t.ns);
        let ruling = t.ruling(state);
        let artificial =
            ruling.is_some_and(|r| r.ev.score.ns.is_artificial() || r.ev.score.ew.is_artificial());
        let play = t.played.as_ref().map(|p| &p.play);
        let contract = play.and_then(|p| p.contract);
        let tricks = play.and_then(|p| {
            p.tricks.or(match (p.contract, p.result) {
                (Some(Bid::Contract(k)), Some(r)) => k.tricks_for_offset(r),
                _ => None,
            })
        });
        c.session.push(state.sessions[t.session].def.id.as_str());
        c.section
            .push(t.section.as_deref().or(p.section.as_deref()));
        c.board.push(t.board as i32);
        c.round.push(t.round.map(|r| r as i32));
        c.table.push(t.table.map(|r| r as i32));
        c.match_id.push(t.match_id.as_deref());
        c.room.push(t.room.map(|r| r.as_str()));
        c.ns.push(p.id.as_str());
        c.ew.push(state.participant(t.ew).id.as_str());
        c.contract.push(contract.map(|b| b.to_string()));
        c.declarer.push(
            play.and_then(|p| p.declarer)
                .map(|s| s.letter().to_string()),
        );
        c.tricks.push(tricks.map(i32::from));
        c.lead.push(play.and_then(|p| p.lead.as_deref()));
        c.ns_points.push(
            t.played
                .as_ref()
                .filter(|_| !artificial)
                .map(|p| p.ns_points),
        );
        c.adjusted.push(ruling.is_some());
        c.seq.push(t.played.as_ref().map(|p| p.seq as i64));
    }
    c.frame(n)
}

/// results' columns, filled row by row.
struct ResultColumns<'a> {
    session: Vec<&'a str>,
    section: Vec<Option<&'a str>>,
    board: Vec<i32>,
    round: Vec<Option<i32>>,
    table: Vec<Option<i32>>,
    match_id: Vec<Option<&'a str>>,
    room: Vec<Option<&'static str>>,
    ns: Vec<&'a str>,
    ew: Vec<&'a str>,
    contract: Vec<Option<String>>,
    declarer: Vec<Option<String>>,
    tricks: Vec<Option<i32>>,
    lead: Vec<Option<&'a str>>,
    ns_points: Vec<Option<i32>>,
    adjusted: Vec<bool>,
    seq: Vec<Option<i64>>,
}

impl<'a> ResultColumns<'a> {
    fn with_capacity(n: usize) -> Self {
        ResultColumns {
            session: Vec::with_capacity(n),
            section: Vec::with_capacity(n),
            board: Vec::with_capacity(n),
            round: Vec::with_capacity(n),
            table: Vec::with_capacity(n),
            match_id: Vec::with_capacity(n),
            room: Vec::with_capacity(n),
            ns: Vec::with_capacity(n),
            ew: Vec::with_capacity(n),
            contract: Vec::with_capacity(n),
            declarer: Vec::with_capacity(n),
            tricks: Vec::with_capacity(n),
            lead: Vec::with_capacity(n),
            ns_points: Vec::with_capacity(n),
            adjusted: Vec::with_capacity(n),
            seq: Vec::with_capacity(n),
        }
    }

    fn frame(self, n: usize) -> PolarsResult<DataFrame> {
        let columns = vec![
            Series::new("session".into(), self.session).into_column(),
            Series::new("section".into(), self.section).into_column(),
            Series::new("board".into(), self.board).into_column(),
            Series::new("round".into(), self.round).into_column(),
            Series::new("table".into(), self.table).into_column(),
            Series::new("match".into(), self.match_id).into_column(),
            Series::new("room".into(), self.room).into_column(),
            Series::new("ns".into(), self.ns).into_column(),
            Series::new("ew".into(), self.ew).into_column(),
            Series::new("contract".into(), self.contract).into_column(),
            Series::new("declarer".into(), self.declarer).into_column(),
            Series::new("tricks".into(), self.tricks).into_column(),
            Series::new("lead".into(), self.lead).into_column(),
            Series::new("ns_points".into(), self.ns_points).into_column(),
            Series::new("adjusted".into(), self.adjusted).into_column(),
            Series::new("seq".into(), self.seq).into_column(),
        ];
        DataFrame::new(n, columns)
    }
}

/// deals.parquet's columns, the double-dummy ones null (the dataset solves no deal).
fn deals(state: &State) -> PolarsResult<DataFrame> {
    let n = state.deals.len();
    let (mut session, mut board, mut dealer, mut vul, mut pbn) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for (&(s, b), d) in &state.deals {
        let (dl, v) = state.dealer_vul(s, b);
        session.push(state.sessions[s].def.id.as_str());
        board.push(b as i32);
        dealer.push(dl.letter().to_string());
        vul.push(v.as_str());
        pbn.push(d.ev.pbn.as_str());
    }
    let null_str = |name: &str| Series::full_null(name.into(), n, &DataType::String).into_column();
    let columns = vec![
        Series::new("session".into(), session).into_column(),
        Series::new("board".into(), board).into_column(),
        Series::new("dealer".into(), dealer).into_column(),
        Series::new("vul".into(), vul).into_column(),
        Series::new("pbn".into(), pbn).into_column(),
        null_str("dd_N"),
        null_str("dd_E"),
        null_str("dd_S"),
        null_str("dd_W"),
        Series::full_null("par_score".into(), n, &DataType::Int32).into_column(),
        null_str("par_contracts"),
    ];
    DataFrame::new(n, columns)
}

/// One row per player of every pair and team, and every player of an individual session: its
/// seat (1-based place in the players list), name and federation id; `kind` the participant's
/// noun (`pair`, `team`, `player`: a participant who sat at a seated kind's table is a player).
fn players(state: &State) -> PolarsResult<DataFrame> {
    let mut seated = vec![false; state.participants.len()];
    if state.sessions.iter().any(|s| s.kind.seated) {
        for (_, t) in state.tables.iter() {
            if t.others.is_some() {
                for side in [
                    frekans_core::adjust::Side::NS,
                    frekans_core::adjust::Side::EW,
                ] {
                    t.side(side).for_each(|p| seated[p as usize] = true);
                }
            }
        }
    }
    let noun = |i: usize, team: bool| {
        if seated[i] {
            state
                .sessions
                .iter()
                .find(|s| s.kind.seated)
                .map_or("player", |s| s.kind.noun)
        } else if team {
            "team"
        } else {
            "pair"
        }
    };
    let (mut participant, mut kind, mut section, mut seat, mut name, mut id) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for (pi, p) in state.participants.iter().enumerate() {
        let ids = player_ids(p);
        for (i, n) in p.players.iter().enumerate() {
            participant.push(p.id.as_str());
            kind.push(noun(pi, p.team));
            section.push(p.section.as_deref());
            seat.push(i as i32 + 1);
            name.push(n.as_str());
            id.push(ids.get(i).cloned().flatten());
        }
    }
    let n = participant.len();
    let columns = vec![
        Series::new("participant".into(), participant).into_column(),
        Series::new("kind".into(), kind).into_column(),
        Series::new("section".into(), section).into_column(),
        Series::new("seat".into(), seat).into_column(),
        Series::new("name".into(), name).into_column(),
        Series::new("player_id".into(), id).into_column(),
    ];
    DataFrame::new(n, columns)
}
