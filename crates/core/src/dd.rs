//! Double dummy: for one deal, the tricks each declarer takes in each strain (the double-dummy
//! table) and the par score and contracts.
//!
//! The solver is `pons-dds`, a pure-Rust port of DDS 2.9 (Haglund and Hein's double-dummy
//! solver), checked by its authors against DDS itself. It is chosen over `dds-bridge`, the
//! binding to the C++ DDS, because that crate's `-sys` build runs bindgen, which needs libclang:
//! a fresh machine with only the Rust toolchain and gcc cannot build it. Par is DDS's
//! `DealerPar` (ported in `pons-dds`): the dealer's side bids first, contracts that fail are
//! doubled. The declarer scores of the par contracts are checked here against our own Law 77
//! table (`bridge::declarer_score`).
//!
//! Everything here is a pure function of the deal; `pipeline::double_dummy` solves many deals in
//! parallel. A [`Solver`] holds a transposition table and is used by one thread at a time
//! (`Send`, not `Sync`): each worker owns one. Its search recurses deeply, so it must run on a
//! thread with [`SOLVER_STACK`] bytes of stack.

use std::fmt::Write as _;

use contract_bridge::Seat as DSeat;
use contract_bridge::Strain as DStrain;
use pons_dds::{FullDeal, TrickCountRow, TrickCountTable, Vulnerability};

pub use pons_dds::Solver;

use crate::bridge::{declarer_score, Contract, Doubling, Seat, Strain, Vul};
use crate::event::read::check_pbn_deal;
use crate::replay::State;

use rayon::prelude::*;

/// Stack for a thread that runs a [`Solver`]: its alpha-beta search recurses about 52 plies with
/// large frames (pons-dds runs its own pool with 16 MiB stacks for the same reason).
pub const SOLVER_STACK: usize = 16 << 20;

/// The strains in the order of a double-dummy row: NT, ♠, ♥, ♦, ♣ (interface.md, PBN, JFR).
pub const STRAINS: [Strain; 5] = [Strain::N, Strain::S, Strain::H, Strain::D, Strain::C];

/// Tricks for each declarer in each strain: `tricks[strain][seat]`, strains in [`STRAINS`]
/// order, seats N, E, S, W.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DdTable {
    pub tricks: [[u8; 4]; 5],
}

fn strain_index(s: Strain) -> usize {
    STRAINS.iter().position(|x| *x == s).expect("every strain")
}

fn seat_index(s: Seat) -> usize {
    s as usize
}

fn to_dstrain(s: Strain) -> DStrain {
    match s {
        Strain::C => DStrain::Clubs,
        Strain::D => DStrain::Diamonds,
        Strain::H => DStrain::Hearts,
        Strain::S => DStrain::Spades,
        Strain::N => DStrain::Notrump,
    }
}

fn from_dstrain(s: DStrain) -> Strain {
    match s {
        DStrain::Clubs => Strain::C,
        DStrain::Diamonds => Strain::D,
        DStrain::Hearts => Strain::H,
        DStrain::Spades => Strain::S,
        DStrain::Notrump => Strain::N,
    }
}

fn to_dseat(s: Seat) -> DSeat {
    match s {
        Seat::N => DSeat::North,
        Seat::E => DSeat::East,
        Seat::S => DSeat::South,
        Seat::W => DSeat::West,
    }
}

fn from_dseat(s: DSeat) -> Seat {
    match s {
        DSeat::North => Seat::N,
        DSeat::East => Seat::E,
        DSeat::South => Seat::S,
        DSeat::West => Seat::W,
    }
}

impl DdTable {
    /// Tricks `declarer` takes with `strain` as trumps.
    pub fn get(&self, strain: Strain, declarer: Seat) -> u8 {
        self.tricks[strain_index(strain)][seat_index(declarer)]
    }

    /// One declarer's row as five hex digits, NT ♠ ♥ ♦ ♣ (`"89797"`; `A`–`D` = 10–13).
    pub fn hex(&self, declarer: Seat) -> String {
        let mut s = String::with_capacity(5);
        for row in &self.tricks {
            let _ = write!(s, "{:X}", row[seat_index(declarer)]);
        }
        s
    }

    /// The table from four such rows (N, E, S, W), as PBN's `Ability`-like tags give them.
    pub fn from_hex(rows: [&str; 4]) -> Result<DdTable, DdError> {
        let mut t = DdTable::default();
        for (seat, row) in rows.iter().enumerate() {
            let digits: Vec<char> = row.chars().collect();
            if digits.len() != 5 {
                return Err(DdError::HexDigits(row.to_string()));
            }
            for (k, c) in digits.iter().enumerate() {
                let v = c
                    .to_digit(16)
                    .filter(|v| *v <= 13)
                    .ok_or_else(|| DdError::HexTricks {
                        row: row.to_string(),
                        found: *c,
                    })?;
                t.tricks[k][seat] = v as u8;
            }
        }
        Ok(t)
    }

    fn from_pons(t: &TrickCountTable) -> DdTable {
        let mut out = DdTable::default();
        for (k, s) in STRAINS.iter().enumerate() {
            let row = t[to_dstrain(*s)];
            for seat in Seat::ALL {
                out.tricks[k][seat_index(seat)] = row.get(to_dseat(seat)).get();
            }
        }
        out
    }

    fn to_pons(self) -> TrickCountTable {
        let mut t = TrickCountTable::default();
        for s in STRAINS {
            let r = self.tricks[strain_index(s)];
            t.0[to_dstrain(s) as usize] = TrickCountRow::new(r[0], r[1], r[2], r[3]);
        }
        t
    }
}

/// Why a deal cannot be solved or its table or par read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DdError {
    #[error("expected five hex digits, found {0:?}")]
    HexDigits(String),
    #[error("expected tricks 0-D in {row:?}, found {found:?}")]
    HexTricks { row: String, found: char },
    #[error(transparent)]
    Deal(#[from] crate::event::read::BadDeal),
    /// What the solver's parser said of a checked deal.
    #[error("cannot read the deal {deal:?}: {said}")]
    Solver { deal: String, said: String },
    #[error("par {contract} by {declarer} scores {ns} for NS, not the par score {par}")]
    ParScore {
        contract: String,
        declarer: char,
        ns: i32,
        par: i32,
    },
    #[error("par score {0} without a contract")]
    ParWithout(i32),
    #[error("cannot start the double-dummy threads: {0}")]
    Threads(String),
    /// One board's failure, said with it.
    #[error("double dummy of board {board} of session \"{session}\" (event {seq}): {inner}")]
    Board {
        board: u32,
        session: String,
        seq: usize,
        inner: Box<DdError>,
    },
}

/// A deal ready for the solver: a PBN `[Deal]` value, checked as the log reader checks it
/// (52 different cards, 13 a hand), ranks in either case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal(FullDeal);

impl Deal {
    pub fn parse(pbn: &str) -> Result<Deal, DdError> {
        check_pbn_deal(pbn)?;
        // The reader allows spaces around the first seat and ranks in lower case; the solver's
        // parser wants "N:" then the hands.
        let (first, hands) = pbn.split_once(':').expect("checked");
        let hands: Vec<String> = hands
            .split_whitespace()
            .map(|h| h.to_ascii_uppercase())
            .collect();
        let canonical = format!("{}:{}", first.trim(), hands.join(" "));
        canonical
            .parse::<FullDeal>()
            .map(Deal)
            .map_err(|e| DdError::Solver {
                deal: canonical.clone(),
                said: e.to_string(),
            })
    }
}

/// A solver for one thread (its transposition table is reused from deal to deal).
pub fn new_solver() -> Solver {
    Solver::new(DStrain::Notrump)
}

/// The double-dummy table of `deal`, solved on the calling thread.
pub fn solve(solver: &mut Solver, deal: &Deal) -> DdTable {
    DdTable::from_pons(&pons_dds::solve_deal_on(solver, deal.0))
}

/// One par contract: `level` `strain` (doubled when it is a sacrifice) by `declarer`, who takes
/// `tricks` double dummy (overtricks or undertricks against the level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParContract {
    pub level: u8,
    pub strain: Strain,
    pub doubled: bool,
    pub declarer: Seat,
    pub tricks: u8,
}

impl ParContract {
    /// The result against the level: `=`, `+1`, `-2`.
    pub fn result(&self) -> String {
        let d = i32::from(self.tricks) - 6 - i32::from(self.level);
        match d {
            0 => "=".to_string(),
            d if d > 0 => format!("+{d}"),
            d => d.to_string(),
        }
    }

    /// `4S-N`, `5HX-E`.
    pub fn text(&self) -> String {
        format!(
            "{}{}{}-{}",
            self.level,
            self.strain.as_str(),
            if self.doubled { "X" } else { "" },
            self.declarer.letter()
        )
    }
}

/// The par of a deal: its score from NS's point of view and the contracts that reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Par {
    pub score: i32,
    /// In auction order (level, then strain C D H S NT), then seat N E S W; empty when par is to
    /// pass the deal out.
    pub contracts: Vec<ParContract>,
}

impl Par {
    /// `par_contracts` of deals.parquet: the contracts, space separated (`4S-N 4S-S`), each at
    /// the lowest level that reaches the par score (as DDS and bcdd name them; the tricks taken
    /// are in the double-dummy columns); a sacrifice is doubled and is followed by what it costs
    /// its side (`5HX-E -300`); `pass` when par is to pass the deal out.
    pub fn contracts_text(&self) -> String {
        if self.contracts.is_empty() {
            return "pass".to_string();
        }
        let mut s = self
            .contracts
            .iter()
            .map(ParContract::text)
            .collect::<Vec<_>>()
            .join(" ");
        if self.contracts.iter().any(|c| c.doubled) {
            let c = &self.contracts[0];
            let side = if c.declarer.is_ns() {
                self.score
            } else {
                -self.score
            };
            let _ = write!(s, " {side}");
        }
        s
    }
}

fn to_vulnerability(v: Vul) -> Vulnerability {
    match v {
        Vul::None => Vulnerability::NONE,
        Vul::NS => Vulnerability::NS,
        Vul::EW => Vulnerability::EW,
        Vul::All => Vulnerability::ALL,
    }
}

/// Par of a double-dummy table with the deal's vulnerability and dealer (DDS `DealerPar`).
///
/// Each contract's score is recomputed from the table with Law 77 and must equal the par
/// score: a disagreement is an error (it would mean the solver's par and our scoring differ).
pub fn par(table: &DdTable, vul: Vul, dealer: Seat) -> Result<Par, DdError> {
    let p = pons_dds::calculate_par(table.to_pons(), to_vulnerability(vul), to_dseat(dealer));
    let mut contracts = Vec::with_capacity(p.contracts.len());
    for c in &p.contracts {
        let strain = from_dstrain(c.contract.bid.strain);
        let declarer = from_dseat(c.declarer);
        let tricks = table.get(strain, declarer);
        // DDS names the lowest level that reaches the par score (4S making 11 tricks when 650
        // needs game, 1S making 9 for 140): contracts that fail are sacrifices, doubled.
        let level = c.contract.bid.level.get();
        let doubled = tricks < 6 + level;
        let contract = Contract {
            level,
            strain,
            doubling: if doubled {
                Doubling::Doubled
            } else {
                Doubling::Undoubled
            },
        };
        let own = declarer_score(contract, vul.is_vul(declarer), tricks);
        let ns = if declarer.is_ns() { own } else { -own };
        if ns != p.score {
            return Err(DdError::ParScore {
                contract: contract_text(contract),
                declarer: declarer.letter(),
                ns,
                par: p.score,
            });
        }
        contracts.push(ParContract {
            level,
            strain,
            doubled,
            declarer,
            tricks,
        });
    }
    contracts.sort_by_key(|c| (c.level, c.strain, c.declarer));
    contracts.dedup();
    if contracts.is_empty() && p.score != 0 {
        return Err(DdError::ParWithout(p.score));
    }
    Ok(Par {
        score: p.score,
        contracts,
    })
}

fn contract_text(c: Contract) -> String {
    format!("{}{}{}", c.level, c.strain.as_str(), c.doubling.as_str())
}

/// A deal's double-dummy table and par.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealDd {
    pub table: DdTable,
    pub par: Par,
}

/// Solve `pbn` and find its par (on the calling thread, which needs [`SOLVER_STACK`]).
pub fn analyse(solver: &mut Solver, pbn: &str, vul: Vul, dealer: Seat) -> Result<DealDd, DdError> {
    let deal = Deal::parse(pbn)?;
    let table = solve(solver, &deal);
    let par = par(&table, vul, dealer)?;
    Ok(DealDd { table, par })
}

thread_local! {
    /// The solver of a worker of `solve_state`'s pool, kept for the worker's life (its table
    /// is allocated once per thread, not once per deal) and never seen by another thread.
    static WORKER_SOLVER: std::cell::RefCell<Option<Solver>> = const { std::cell::RefCell::new(None) };
}

/// The double dummy of one board with a `deal` event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardDd {
    pub session: usize,
    pub board: u32,
    pub dealer: Seat,
    pub vul: Vul,
    pub pbn: String,
    pub dd: DealDd,
}

/// Solved deals kept between runs (a nightly bulletin solves only the new day's deals): one
/// small file per deal in `dir`, named by the SHA-256 of the deal as the log gives it, holding
/// its double-dummy table (the four declarers' rows, as [`DdTable::hex`]) and an XXH3 check of
/// name and table. A file that is damaged, foreign or unreadable is not used (the deal is solved
/// again and the file written again); a file is written to a temporary name and renamed. The
/// par is worked out from the table each time (it depends on the board's vulnerability and
/// dealer, and is cheap).
pub mod solved {
    use std::path::Path;

    use sha2::{Digest, Sha256};

    use super::{DdTable, Seat};

    const SEATS: [Seat; 4] = [Seat::N, Seat::E, Seat::S, Seat::W];

    fn key(pbn: &str) -> String {
        let mut h = Sha256::new();
        h.update(b"frekans solved deal 1\n");
        h.update(pbn.as_bytes());
        crate::outfile::cache::hex(&h.finalize())
    }

    fn check(key: &str, rows: &str) -> String {
        format!(
            "{:032x}",
            xxhash_rust::xxh3::xxh3_128(format!("{key} {rows}").as_bytes())
        )
    }

    /// The table of `pbn` solved before, when `dir` has it whole.
    pub fn get(dir: &Path, pbn: &str) -> Option<DdTable> {
        let key = key(pbn);
        // (only a regular file is opened: a FIFO planted there never blocks)
        let text = String::from_utf8(crate::outfile::cache::read_regular(
            &dir.join(&key),
            1 << 16,
        )?)
        .ok()?;
        let (rows, sum) = text.strip_suffix('\n')?.rsplit_once(' ')?;
        if sum != check(&key, rows) {
            return None;
        }
        let r: Vec<&str> = rows.split(' ').collect();
        DdTable::from_hex(r.try_into().ok()?).ok()
    }

    /// Keep `table` as `pbn`'s (a failure only costs solving it again next time).
    pub fn put(dir: &Path, pbn: &str, table: &DdTable) {
        let key = key(pbn);
        let rows: Vec<String> = SEATS.iter().map(|&s| table.hex(s)).collect();
        let rows = rows.join(" ");
        let text = format!("{rows} {}\n", check(&key, &rows));
        if let Err(e) = crate::outfile::cache::replace_file(dir, &key, text.as_bytes()) {
            tracing::warn!("solved deal not kept in {}: {e}", dir.display());
        }
    }
}

/// Solve every deal of `state` in parallel, in (session, board) order; with `cache`, deals
/// solved before are taken from it and the others kept there (see [`solved`]).
///
/// A dedicated rayon pool runs the solves: its workers need [`SOLVER_STACK`] stacks (the global
/// pool's are rayon's 2 MiB default), and it has as many threads as the pool we are called from,
/// so `--threads` applies. Each worker owns one [`Solver`] (thread-local), so no solver is
/// ever shared between threads. The output does not depend on the thread count: every deal is
/// solved whole by one worker and the results are collected in input order.
pub fn solve_state(
    state: &State,
    cache: Option<&std::path::Path>,
) -> Result<Vec<BoardDd>, DdError> {
    let items: Vec<(usize, u32, Seat, Vul, &str)> = state
        .deals
        .iter()
        .map(|(&(s, b), d)| {
            let (dealer, vul) = state.dealer_vul(s, b);
            (s, b, dealer, vul, d.ev.pbn.as_str())
        })
        .collect();
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(rayon::current_num_threads())
        .stack_size(SOLVER_STACK)
        .thread_name(|i| format!("frekans-dd-{i}"))
        .build()
        .map_err(|e| DdError::Threads(e.to_string()))?;
    let solved: Vec<Result<DealDd, DdError>> = pool.install(|| {
        items
            .par_iter()
            .with_max_len(1)
            .map(|&(_, _, dealer, vul, pbn)| {
                if let Some(table) = cache.and_then(|d| solved::get(d, pbn)) {
                    let par = par(&table, vul, dealer)?;
                    return Ok(DealDd { table, par });
                }
                let r = WORKER_SOLVER.with(|cell| {
                    let mut slot = cell.borrow_mut();
                    analyse(slot.get_or_insert_with(new_solver), pbn, vul, dealer)
                });
                if let (Some(d), Ok(dd)) = (cache, &r) {
                    solved::put(d, pbn, &dd.table);
                }
                r
            })
            .collect()
    });
    items
        .iter()
        .zip(solved)
        .map(|(&(session, board, dealer, vul, pbn), r)| {
            let dd = r.map_err(|m| DdError::Board {
                board,
                session: state.sessions[session].def.id.to_string(),
                seq: state.deals[&(session, board)].seq,
                inner: Box::new(m),
            })?;
            Ok(BoardDd {
                session,
                board,
                dealer,
                vul,
                pbn: pbn.to_string(),
                dd,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip() {
        let t = DdTable::from_hex(["89797", "44535", "89797", "44535"]).unwrap();
        assert_eq!(t.get(Strain::N, Seat::N), 8);
        assert_eq!(t.get(Strain::S, Seat::N), 9);
        assert_eq!(t.get(Strain::C, Seat::E), 5);
        assert_eq!(t.hex(Seat::S), "89797");
        assert_eq!(t.hex(Seat::W), "44535");
        assert_eq!(DdTable::from_pons(&t.to_pons()), t);
        assert!(DdTable::from_hex(["8979", "44535", "89797", "44535"]).is_err());
        assert!(DdTable::from_hex(["8979E", "44535", "89797", "44535"]).is_err());
    }

    #[test]
    fn par_text() {
        let p = Par {
            score: 300,
            contracts: vec![ParContract {
                level: 5,
                strain: Strain::H,
                doubled: true,
                declarer: Seat::E,
                tricks: 9,
            }],
        };
        assert_eq!(p.contracts_text(), "5HX-E -300");
        let q = Par {
            score: 0,
            contracts: vec![],
        };
        assert_eq!(q.contracts_text(), "pass");
    }
}
