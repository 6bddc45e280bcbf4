//! A log's bytes read, validated whole and replayed within a scope, its events kept: the one
//! way a command or a test loads a log that is not streamed (`replay::replay_streamed` is the
//! other).

use crate::error::{InvalidLog, LogError};
use crate::event::{read_log, Envelope};
use crate::replay::{replay, ReplayScope, State};

/// A log read and validated whole, replayed within a scope.
pub struct Loaded {
    pub events: Vec<Envelope>,
    pub state: State,
}

/// Read, validate (the whole log, whatever the scope) and replay; a log with any error of
/// reading or replaying is refused with every error once, in line order.
pub fn load_bytes(bytes: &[u8], scope: &ReplayScope) -> Result<Loaded, InvalidLog> {
    let read = {
        let _s = tracing::info_span!("read").entered();
        let _p = crate::progress::stage(&format!("reading the log ({} MB)", bytes.len() >> 20));
        read_log(bytes)
    };
    let (full, errors) = {
        let _s = tracing::info_span!("replay").entered();
        let _p = crate::progress::stage(&format!("replaying {} events", read.events.len()));
        replay(&read.events, &ReplayScope::default())
    };
    refuse_if_any(errors, read.errors)?;
    let state = if scope.upto.is_none() && scope.skip.is_empty() {
        full
    } else {
        replay(&read.events, scope).0
    };
    Ok(Loaded {
        events: read.events,
        state,
    })
}

/// The replay's errors and the reader's: any at all refuse the log, every error once, in line
/// order.
pub fn refuse_if_any(mut errors: Vec<LogError>, read: Vec<LogError>) -> Result<(), InvalidLog> {
    errors.extend(read);
    if errors.is_empty() {
        return Ok(());
    }
    errors.sort();
    errors.dedup();
    Err(InvalidLog { errors })
}
