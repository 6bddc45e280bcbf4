//! Bridge primitives shared by every scoring form: contracts and their Law 77 scores
//! (`contract`), board number → dealer and vulnerability by Law 2 (`board`), and the
//! Law 78B IMP scale (`imp`).

pub mod board;
pub mod contract;
pub mod imp;
pub mod vp;

pub use board::{dealer_of, vul_of, Vul};
pub use contract::{
    declarer_score, ns_points, parse_contract, parse_result_offset, parse_seat, Bid, Contract,
    Doubling, Seat, Strain, Unreadable,
};
pub use imp::{imp, imp_of_q, ImpLookup};
