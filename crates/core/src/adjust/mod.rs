//! Director's adjusted scores (Law 12): the normalised notation of adjusted-scores.md §2 and the
//! structured subsequent-damage form of a ruling (§5, event-log.md `subsequent_damage`, C6).
//!
//! - [`notation`] parses and prints entries such as `(60%+620&40%-100)/(+620)`, `50%/(+630)`,
//!   `A+/A-` and `(100/3%-100&200/3%-200)`, keeping every weight as an exact rational.
//! - [`sd`] checks a subsequent-damage ruling (before / after infraction / after loss) and expands
//!   it to the weighted-split form `(100%A&-100%B&100%C)/(A)`, or refuses it with the §5.6
//!   fallback ready to enter.
//!
//! Scoring (frequency tables, IMPs, matchpoints) lives elsewhere; this module only stores and
//! validates what the director wrote.

pub mod notation;
pub mod sd;

pub use notation::*;
pub use sd::*;
