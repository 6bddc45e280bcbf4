//! Export to the interchange formats: `results` (the scored championship as they see it),
//! printed by `usebio` and `pbn`, with `notes` for what neither format can say.

pub mod notes;
pub mod pbn;
pub mod results;
pub mod usebio;
