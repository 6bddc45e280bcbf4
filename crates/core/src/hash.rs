//! The hasher of the in-memory maps of replay, standings, the audit and import: rustc's Fx hash
//! (`rustc-hash`), fast and deterministic. Keys here are ids and indexes from the log, never
//! secrets an attacker could use to flood a table with collisions: a log that wanted to be slow
//! could simply be long. No output depends on a map's iteration order (maps are looked up; what is
//! written is sorted or in log order), so the hash function can change without changing a byte.

pub use rustc_hash::{FxBuildHasher as FxBuild, FxHashMap as FxMap, FxHashSet as FxSet};
