//! Bridgemate's own database (`.bws`, a Microsoft Access file that Bridgemate Control Software
//! keeps while the table terminals send results): the results recorded so far, read through
//! Debian's mdbtools (`mdb-tables`, `mdb-export`, each run as a child process with the path as
//! an argument, never through a shell) and turned into the log's events by `draft::Draft`.
//!
//! What is read (the layout of the Bridgemate developer's guide):
//! - `Section` (required): section ID → letters;
//! - `ReceivedData` (required): every entry the terminals sent, in the order of its `ID`; for
//!   each section, table, round and board the last entry stands: an `Erased` one takes the
//!   result away, a later one replaces an earlier one. `Remarks` `NN%-MM%` is an artificial
//!   score (a ruling, law 12C), `Not played` and `Arbitral score` leave the table without a
//!   result (said in the report), `Wrong direction` swaps the pairs (the NS pair sat EW);
//! - `RoundData` (when present): the movement, so that the session's boards and pairs are all
//!   declared at the first import, before they are played;
//! - `PlayerNumbers`/`PlayerNames` (when present): players' names;
//! - `HandRecord` (when present): the deals;
//! - `Session` (when present): the session's name and GUID.
//!
//! The session event carries a `note` naming the BWS session (its GUID, or the file's name),
//! by which `--append` finds the session an earlier import of the same file made and adds only
//! what is new (`live`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsStr;
use std::path::Path;

use super::draft::{self, Art, Draft, Play, Table};
use super::{decode_text, Parsed, Problem, Request};
use crate::bridge::{parse_result_offset, vul_of, Bid};
use crate::world::World;

mod cells;
pub(crate) mod live;
mod names;
mod progress;
mod seated;
mod sections;

use cells::{cell, flag, int, BadCell};
use names::{deals, players};
pub use progress::{progress, Progress};

/// The start of a BWS session's `note`: `imported from Bridgemate BWS <key>`.
pub(crate) const NOTE: &str = "imported from Bridgemate BWS ";

fn problem(file: &str, at: &str, message: impl Into<String>) -> Problem {
    Problem {
        file: file.to_string(),
        at: at.to_string(),
        message: message.into(),
    }
}

/// The database's path as an argument: never one that starts with `-`, which the programs
/// would take for an option (`./-x.bws` instead).
fn path_arg(path: &Path) -> std::path::PathBuf {
    if path.as_os_str().as_encoded_bytes().starts_with(b"-") {
        Path::new(".").join(path)
    } else {
        path.to_path_buf()
    }
}

/// Runs one of mdbtools' programs in `world` on the database at `path` (its options, then the
/// path as [`path_arg`] makes it, then `rest`) and returns what it printed.
fn mdb(
    world: &dyn World,
    program: &str,
    (options, path, rest): (&[&OsStr], &Path, &[&OsStr]),
    file: &str,
    at: &str,
) -> Result<Vec<u8>, Problem> {
    let path = path_arg(path);
    let args: Vec<&OsStr> = options
        .iter()
        .copied()
        .chain([path.as_os_str()])
        .chain(rest.iter().copied())
        .collect();
    let out = match world.run(Path::new(program), &args, None) {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(problem(
                file,
                "file",
                format!("cannot read a Bridgemate BWS database: the program {program} (Debian's mdbtools) is not installed; install it with `apt-get install mdbtools` (in this repository: `source scripts/env.sh && setup_mdbtools`)"),
            ))
        }
        Err(e) => return Err(problem(file, "file", format!("cannot run {program}: {e}"))),
    };
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let err = err.trim();
        return Err(problem(
            file,
            at,
            format!(
                "{program} cannot read it as a Microsoft Access database{}",
                if err.is_empty() {
                    String::new()
                } else {
                    format!(" ({err})")
                }
            ),
        ));
    }
    Ok(out.stdout)
}

/// One table of the database as `mdb-export` writes it: its header and rows.
struct Rows {
    name: &'static str,
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Rows {
    fn col(&self, name: &str) -> Option<usize> {
        self.headers
            .iter()
            .position(|h| h.eq_ignore_ascii_case(name))
    }

    /// The columns a reader needs: their positions, or the problem naming those missing.
    fn need(&self, names: &[&str], file: &str) -> Result<Vec<usize>, Problem> {
        let missing: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| self.col(n).is_none())
            .collect();
        if !missing.is_empty() {
            return Err(problem(
                file,
                self.name,
                format!(
                    "no column {} (a Bridgemate {} table has {}; this one has {})",
                    missing.join(", "),
                    self.name,
                    names.join(", "),
                    self.headers.join(", ")
                ),
            ));
        }
        Ok(names.iter().map(|n| self.col(n).unwrap()).collect())
    }

    fn at(&self, i: usize) -> String {
        format!("{} row {}", self.name, i + 1)
    }
}

struct Database<'a> {
    world: &'a dyn World,
    path: &'a Path,
    file: &'a str,
    tables: BTreeSet<String>,
}

impl<'a> Database<'a> {
    /// The database at `path` (named `file` in messages), its tables listed by mdb-tables.
    fn open(world: &'a dyn World, path: &'a Path, file: &'a str) -> Result<Database<'a>, Problem> {
        let listing = mdb(
            world,
            "mdb-tables",
            (&[OsStr::new("-1")], path, &[]),
            file,
            "file",
        )?;
        let (text, _) = decode_text(&listing);
        Ok(Database {
            world,
            path,
            file,
            tables: text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
        })
    }

    fn has(&self, name: &str) -> bool {
        self.tables.iter().any(|t| t.eq_ignore_ascii_case(name))
    }

    fn export(&self, name: &'static str) -> Result<Rows, Problem> {
        let out = mdb(
            self.world,
            "mdb-export",
            // (dates written the same way whatever the locale)
            (
                &[
                    OsStr::new("-D"),
                    OsStr::new("%Y-%m-%d %H:%M:%S"),
                    OsStr::new("-T"),
                    OsStr::new("%Y-%m-%d %H:%M:%S"),
                ],
                self.path,
                &[OsStr::new(name)],
            ),
            self.file,
            name,
        )?;
        let (text, _) = decode_text(&out);
        let mut rdr = csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(text.as_bytes());
        let headers = rdr
            .headers()
            .map_err(|e| {
                problem(
                    self.file,
                    name,
                    format!("cannot read mdb-export's output: {e}"),
                )
            })?
            .iter()
            .map(|h| h.trim().to_string())
            .collect();
        let mut rows = Vec::new();
        for (i, r) in rdr.records().enumerate() {
            let r = r.map_err(|e| {
                problem(
                    self.file,
                    &format!("{name} row {}", i + 1),
                    format!("cannot read mdb-export's output: {e}"),
                )
            })?;
            rows.push(r.iter().map(str::to_string).collect());
        }
        Ok(Rows {
            name,
            headers,
            rows,
        })
    }
}

/// One entry of `ReceivedData`, its cells read.
struct Entry {
    at: String,
    order: (i64, usize),
    section: i64,
    table: u32,
    round: u32,
    board: u32,
    ns: i64,
    ew: i64,
    /// An individual session's South and West (`ns` is North, `ew` East; `seated`).
    others: Option<[i64; 2]>,
    erased: bool,
    row: Vec<String>,
}

/// Read the database at `path` (named `file` in messages).
pub fn read(path: &Path, file: &str, req: &Request) -> Result<Parsed, Vec<Problem>> {
    let db = Database::open(&*req.world, path, file).map_err(|p| vec![p])?;
    let mut problems = Vec::new();
    for t in ["Section", "ReceivedData"] {
        if !db.has(t) {
            problems.push(problem(
                file,
                t,
                format!(
                    "no {t} table: not a Bridgemate BWS database (its tables: {})",
                    if db.tables.is_empty() {
                        "none".to_string()
                    } else {
                        db.tables.iter().cloned().collect::<Vec<_>>().join(", ")
                    }
                ),
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    read_tables(&db, req).map_err(|mut p| {
        p.sort();
        p
    })
}

/// The session of a database: its sections, entries and movement read, its pairs (with their
/// players), deals and tables drafted.
fn read_tables(db: &Database, req: &Request) -> Result<Parsed, Vec<Problem>> {
    let file = db.file;
    let one = |p: Problem| vec![p];
    let (letters, form, notices) = sections::sections(db, req)?;
    let received = db.export("ReceivedData").map_err(one)?;
    let entries = entries(&received, &letters, file)?;
    let movement = if db.has("RoundData") {
        movement(&db.export("RoundData").map_err(one)?, &letters, file)?
    } else {
        Vec::new()
    };
    let mut entries = entries;
    let kind = seated::kind(&movement, &mut entries);
    let mut ids = pair_ids(&movement, &entries, &letters);
    ids.per_direction &= kind.is_none();

    let mut d = Draft::new(file, req);
    for (at, m) in notices {
        d.notice(&at, m);
    }
    let s = d.session();
    let (name, key) = session_identity(db, file)?;
    {
        let ss = d.session_mut(s);
        ss.name = name;
        ss.note = Some(format!("{NOTE}{key}"));
        ss.form = form;
        ss.kind = kind;
    }
    d.add_boards(s, movement.iter().flat_map(|m| m.boards.iter().copied()));
    // Every pair of the movement and of the results, with its players where known.
    if kind.is_some() {
        seated::declare_players(&mut d, db, (&movement, &entries), &ids)?;
    }
    let players = if kind.is_none() && db.has("PlayerNumbers") {
        players(db, &movement, &entries, &ids)?
    } else {
        HashMap::new()
    };
    if kind.is_none() {
        declare_pairs(&mut d, (&movement, &entries), &ids, &players);
    }
    if db.has("HandRecord") {
        // (a board set of 36 deals for a movement of 27 boards: only the boards played)
        let played: BTreeSet<u32> = movement
            .iter()
            .flat_map(|m| m.boards.iter().copied())
            .chain(entries.iter().map(|e| e.board))
            .collect();
        deals(&mut d, s, &db.export("HandRecord").map_err(one)?, &played)?;
    }
    table_entries(&mut d, s, &entries, &received, &ids);
    d.finish(req)
}

/// How the pairs of the movement and of the results get their ids. Pair ids: the number,
/// after the section's letters where numbers repeat across sections, and with the direction
/// where NS and EW are numbered each from 1 (a Mitchell).
fn pair_ids<'l>(
    movement: &[Seat],
    entries: &[Entry],
    letters: &'l BTreeMap<i64, String>,
) -> Ids<'l> {
    let mut seen: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
    let mut seats: Vec<(u32, String, String)> = Vec::new();
    for m in movement {
        for b in &m.boards {
            seats.push((
                *b,
                format!("{}\0{}", m.section, m.ns),
                format!("{}\0{}", m.section, m.ew),
            ));
        }
        seen.entry(m.ns).or_default().insert(m.section);
        seen.entry(m.ew).or_default().insert(m.section);
    }
    for e in entries {
        seats.push((
            e.board,
            format!("{}\0{}", e.section, e.ns),
            format!("{}\0{}", e.section, e.ew),
        ));
        seen.entry(e.ns).or_default().insert(e.section);
        seen.entry(e.ew).or_default().insert(e.section);
    }
    let per_direction =
        draft::per_direction(seats.iter().map(|(b, n, e)| (*b, n.as_str(), e.as_str())));
    let prefix = seen.values().any(|s| s.len() > 1);
    Ids {
        letters,
        prefix,
        per_direction,
    }
}

/// Every pair of the movement and of the results declared, with its players where known.
fn declare_pairs(
    d: &mut Draft,
    (movement, entries): (&[Seat], &[Entry]),
    ids: &Ids,
    players: &HashMap<String, names::Players>,
) {
    // (section, direction, number) → (id, where first met): NS pairs, then EW, in order
    let mut pairs: BTreeMap<(i64, &str, i64), (String, String)> = BTreeMap::new();
    for (sec, n, dir, at) in movement
        .iter()
        .flat_map(|m| {
            [
                (m.section, m.ns, "NS", &m.at),
                (m.section, m.ew, "EW", &m.at),
            ]
        })
        .chain(entries.iter().flat_map(|e| {
            [
                (e.section, e.ns, "NS", &e.at),
                (e.section, e.ew, "EW", &e.at),
            ]
        }))
    {
        let dir = if ids.per_direction { dir } else { "" };
        pairs
            .entry((sec, dir, n))
            .or_insert_with(|| (ids.id(sec, n, dir), at.clone()));
    }
    for ((sec, _, _), (id, at)) in pairs {
        let (p, numbers) = players.get(&id).cloned().unwrap_or_default();
        d.pair(&id, Some(&ids.letters[&sec]), p, &at);
        d.player_ids(&id, numbers, &at);
    }
}

/// Each table's last entry, not erased, drafted in the entries' order.
fn table_entries(d: &mut Draft, s: usize, entries: &[Entry], received: &Rows, ids: &Ids) {
    let mut last: HashMap<(i64, u32, u32, u32), usize> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        last.insert((e.section, e.table, e.round, e.board), i);
    }
    let mut standing: Vec<usize> = last.into_values().collect();
    standing.sort_by_key(|&i| entries[i].order);
    // The highest entry ID of the file, erased entries too: how far the BWS had got, which
    // each table's event notes beside its own entry's (`live`: an older copy of the BWS is
    // told from a later one by them).
    let newest = entries
        .iter()
        .filter_map(|e| (e.order.0 != i64::MAX).then_some(e.order.0))
        .max();
    for i in standing {
        let e = &entries[i];
        if e.erased {
            continue;
        }
        table_entry(d, s, (e, newest), received, ids);
    }
}

/// The session's name and the key that identifies it to later imports: the `Session` table's
/// GUID, else the file's name with the session's date and time (`Session.Date`, `Time`) where
/// the table gives them.
fn session_identity(db: &Database, file: &str) -> Result<(Option<String>, String), Vec<Problem>> {
    let by_file = || {
        let name = db
            .path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| file.to_string());
        format!("file {name}")
    };
    if !db.has("Session") {
        return Ok((None, by_file()));
    }
    let t = db.export("Session").map_err(|p| vec![p])?;
    let Some(row) = t.rows.first() else {
        return Ok((None, by_file()));
    };
    let name = Some(cell(row, t.col("Name")).to_string()).filter(|n| !n.is_empty());
    let guid = cell(row, t.col("GUID"));
    // Without a GUID: the file's name and the session's date and time where it gives them.
    let when: Vec<&str> = [cell(row, t.col("Date")), cell(row, t.col("Time"))]
        .into_iter()
        .filter(|c| !c.is_empty())
        .collect();
    let key = if !guid.is_empty() {
        format!("session {guid}")
    } else if when.is_empty() {
        by_file()
    } else {
        format!("{} of {}", by_file(), when.join(" "))
    };
    Ok((name, key))
}

/// How the file's pair numbers become the log's ids.
struct Ids<'a> {
    letters: &'a BTreeMap<i64, String>,
    prefix: bool,
    per_direction: bool,
}

impl Ids<'_> {
    fn id(&self, section: i64, n: i64, dir: &str) -> String {
        let mut id = if self.prefix {
            format!("{}{n}", self.letters[&section])
        } else {
            n.to_string()
        };
        if self.per_direction {
            id.push_str(dir);
        }
        id
    }
}

fn entries(
    t: &Rows,
    letters: &BTreeMap<i64, String>,
    file: &str,
) -> Result<Vec<Entry>, Vec<Problem>> {
    let c = t
        .need(
            &[
                "Section", "Table", "Round", "Board", "PairNS", "PairEW", "NS/EW", "Contract",
                "Result",
            ],
            file,
        )
        .map_err(|p| vec![p])?;
    let (id_col, erased_col) = (t.col("ID"), t.col("Erased"));
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (i, row) in t.rows.iter().enumerate() {
        let at = t.at(i);
        let get = |k: usize, what: &'static str, lo: i64, hi: i64| -> Result<i64, BadCell> {
            match int(row, Some(c[k]), what)? {
                Some(found) if (lo..=hi).contains(&found) => Ok(found),
                Some(found) => Err(BadCell::Range {
                    what,
                    lo,
                    hi,
                    found,
                }),
                None => Err(BadCell::Empty(what)),
            }
        };
        let read = (|| -> Result<Entry, BadCell> {
            let section = get(0, "Section", 0, 9999)?;
            if !letters.contains_key(&section) {
                return Err(BadCell::Section(section));
            }
            let order = match int(row, id_col, "ID")? {
                Some(id) => (id, i),
                None => (i64::MAX, i),
            };
            Ok(Entry {
                at: at.clone(),
                order,
                section,
                table: get(1, "Table", 1, 99999)? as u32,
                round: get(2, "Round", 0, 9999)? as u32,
                board: get(3, "Board", 1, super::MAX_BOARD.into())? as u32,
                ns: get(4, "PairNS", 0, 9999)?,
                ew: get(5, "PairEW", 0, 9999)?,
                others: seated::others(t, row)?,
                erased: flag(row, erased_col),
                row: row.clone(),
            })
        })();
        match read {
            Ok(e) => out.push(e),
            Err(m) => problems.push(problem(file, &at, m.to_string())),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    // In the order the entries arrived: by `ID` (Access's autonumber), never by the order rows
    // are stored (a compacted database, a row deleted and re-inserted) nor by `TimeLog` (a time
    // of day on Access's day zero, rewritten by an edit in place that keeps the row's ID).
    out.sort_by_key(|e| e.order);
    Ok(out)
}

/// One table in one round of the movement.
struct Seat {
    at: String,
    section: i64,
    table: u32,
    round: u32,
    ns: i64,
    ew: i64,
    others: Option<[i64; 2]>,
    boards: Vec<u32>,
}

fn movement(
    t: &Rows,
    letters: &BTreeMap<i64, String>,
    file: &str,
) -> Result<Vec<Seat>, Vec<Problem>> {
    let c = t
        .need(
            &[
                "Section",
                "Table",
                "Round",
                "NSPair",
                "EWPair",
                "LowBoard",
                "HighBoard",
            ],
            file,
        )
        .map_err(|p| vec![p])?;
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (i, row) in t.rows.iter().enumerate() {
        let v: Result<Vec<i64>, BadCell> = (0..7)
            .map(|k| int(row, Some(c[k]), &t.headers[c[k]]).map(|x| x.unwrap_or(0)))
            .collect();
        match v {
            Ok(v) if !letters.contains_key(&v[0]) => {
                problems.push(problem(file, &t.at(i), BadCell::Section(v[0]).to_string()))
            }
            Ok(v) if v[5] < 0 || v[6] > super::MAX_BOARD.into() || v[5] > v[6] => {
                problems.push(problem(
                    file,
                    &t.at(i),
                    format!(
                        "LowBoard and HighBoard: expected boards 1-{}, found {}-{}",
                        super::MAX_BOARD,
                        v[5],
                        v[6]
                    ),
                ))
            }
            // (a table with no pair, or no boards, plays nothing that round)
            Ok(v) if v[3] <= 0 || v[4] <= 0 || v[5] == 0 => {}
            Ok(v) => match seated::others(t, row) {
                Err(m) => problems.push(problem(file, &t.at(i), m.to_string())),
                Ok(others) => out.push(Seat {
                    at: t.at(i),
                    section: v[0],
                    table: v[1] as u32,
                    round: v[2] as u32,
                    ns: v[3],
                    ew: v[4],
                    others,
                    boards: (v[5] as u32..=v[6] as u32).collect(),
                }),
            },
            Err(m) => problems.push(problem(file, &t.at(i), m.to_string())),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(out)
}

/// A table's last entry as a result, an artificial score, or a note of why it has neither;
/// `newest` is the file's highest entry ID. The event's note names the entry (`live`).
fn table_entry(d: &mut Draft, s: usize, (e, newest): (&Entry, Option<i64>), t: &Rows, ids: &Ids) {
    let row = &e.row;
    let entry = match (e.order.0, newest) {
        (id, Some(newest)) if id != i64::MAX => Some(live::Entry { id, newest }),
        _ => None,
    };
    let remarks = cell(row, t.col("Remarks"));
    let (mut ns, mut ew) = (ids.id(e.section, e.ns, "NS"), ids.id(e.section, e.ew, "EW"));
    if remarks.eq_ignore_ascii_case("Wrong direction") {
        std::mem::swap(&mut ns, &mut ew);
    }
    let mut others = e.others.map(|o| o.map(|p| ids.id(e.section, p, "")));
    if let Some([s, w]) = others
        .as_mut()
        .filter(|_| remarks.eq_ignore_ascii_case("Wrong direction"))
    {
        std::mem::swap(s, w);
    }
    let table = Table {
        section: Some(ids.letters[&e.section].clone()),
        board: e.board,
        round: Some(e.round),
        table: Some(e.table),
        ns,
        ew,
        others,
    };
    if let Some((a, b)) = percentages(remarks) {
        let token = match entry {
            Some(en) => format!("Bridgemate {remarks}, {}", en.text()),
            None => format!("Bridgemate {remarks}"),
        };
        d.artificial(s, table, draft::art_score(&a, &b), &token, &e.at);
        return;
    }
    let contract = cell(row, t.col("Contract"));
    if contract.is_empty()
        || remarks.eq_ignore_ascii_case("Not played")
        || remarks.eq_ignore_ascii_case("Arbitral score")
    {
        let why = if remarks.is_empty() {
            "no contract".to_string()
        } else {
            format!("\"{remarks}\"")
        };
        let at = e.at.clone();
        d.notice(
            &at,
            format!("board {} at table {} round {}: {why}, so no result (a director's ruling can give the table a score)", e.board, e.table, e.round),
        );
        return;
    }
    let result = cell(row, t.col("Result"));
    let tricks = |c: &crate::bridge::Contract| {
        if result.is_empty() {
            return Ok(None);
        }
        parse_result_offset(result)
            .map_err(|m| format!("Result: {m}"))
            .and_then(|o| {
                c.tricks_for_offset(o).map(Some).ok_or_else(|| {
                    format!("Result: {result} is not possible in {}", Bid::Contract(*c))
                })
            })
    };
    let lead = cell(row, t.col("LeadCard"))
        .replace([' ', '\u{0}'], "")
        .replace("10", "T");
    let play = Play {
        lead: Some(lead).filter(|l| !l.is_empty()),
        ..Play::default()
    };
    const LABELS: draft::PlayLabels = draft::PlayLabels {
        contract: "Contract",
        declarer: "NS/EW",
        tricks: "Result",
    };
    let declarer = Some(cell(row, t.col("NS/EW"))).filter(|x| !x.is_empty());
    match draft::play_at(
        play,
        Some(contract),
        declarer,
        tricks,
        vul_of(e.board),
        &LABELS,
    ) {
        Ok(play) => {
            let mut row = draft::result_row(table.view(), &play);
            if let Some(en) = entry {
                row.str("note", &format!("imported: Bridgemate {}", en.text()));
            }
            d.push(s, &table, row, e.at.clone());
        }
        Err(m) => d.bad(&e.at, m.to_string()),
    }
}

/// `60%-40%` (a `Remarks` value): NS's and EW's artificial scores.
fn percentages(remarks: &str) -> Option<(Art, Art)> {
    let (a, b) = remarks.split_once('-')?;
    let pct = |x: &str| {
        x.trim()
            .strip_suffix('%')
            .and_then(draft::number)
            .map(Art::from_pct)
    };
    Some((pct(a)?, pct(b)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remarks_percentages() {
        let (a, b) = percentages("60%-40%").unwrap();
        assert_eq!(draft::art_score(&a, &b), "A+/A-");
        let (a, b) = percentages("50%-60%").unwrap();
        assert_eq!(draft::art_score(&a, &b), "A/A+");
        assert!(percentages("Wrong direction").is_none());
        assert!(percentages("Not played").is_none());
    }

    #[test]
    fn a_path_is_never_an_option() {
        assert_eq!(path_arg(Path::new("-1.bws")), Path::new("./-1.bws"));
        assert_eq!(path_arg(Path::new("/x/-1.bws")), Path::new("/x/-1.bws"));
    }
}
