//! Replay streamed from the log's bytes, batch by batch as the reader parses them, with an optional witness of each event.

use super::*;
use crate::event::{Chain, ReadOptions};

impl Replay<'_> {
    /// Apply one event as the reader hands it on ([`Item`]): a result still borrowing from
    /// its line is replayed as its event would be, without making the event.
    pub fn apply_item(&mut self, item: &Item) {
        let r = match item {
            Item::Event(env) => return self.apply(env),
            Item::Result(r) => r,
        };
        if self.scope.upto.is_some_and(|u| r.seq > u) || self.scope.skip.contains(&r.seq) {
            return;
        }
        if self.r.only.is_some() {
            // Some boards only: the event decides whether it is left out.
            self.r.apply(&r.to_envelope());
        } else {
            self.r.result_ref(r);
        }
        self.r.st.applied = r.seq;
    }
}

/// What [`replay_streamed`] gives.
pub struct Streamed {
    /// The whole log's replay.
    pub state: State,
    /// Every error of reading and replaying the log, sorted, without duplicates.
    pub errors: Vec<LogError>,
    /// How many events the log has.
    pub events: usize,
    /// The log's head when the reader knows it (`crate::event::ReadSummary::head`): always,
    /// for a valid log read by [`replay_checked`].
    pub head: Option<String>,
}

impl Streamed {
    /// The replay of a log without errors, or its errors.
    pub fn into_valid(self) -> Result<Streamed, Vec<LogError>> {
        if self.errors.is_empty() {
            Ok(self)
        } else {
            Err(self.errors)
        }
    }
}

/// Read, validate and replay a whole log from its bytes without keeping its events: the reader
/// hands each parsed batch of `batch` lines to the replay (and each event to `witness`), so a
/// million results never sit in memory as events next to the state they make (`check`,
/// `score`, `append`).
pub fn replay_streamed(bytes: &[u8], batch: usize, witness: Option<&mut dyn Witness>) -> Streamed {
    replay_read(bytes, &ReadOptions::new(batch, Chain::Verify), witness)
}

/// [`replay_streamed`] of a new log this process has just sealed itself (`frekans import
/// --out`): every check but its hash chain's, whose links were made from these very lines
/// ([`Chain::Sealed`]).
pub fn replay_sealed(bytes: &[u8], batch: usize) -> Streamed {
    replay_read(bytes, &ReadOptions::new(batch, Chain::Sealed), None)
}

/// [`replay_streamed`] as `check` reads a log: its head walked on the way ([`Streamed::head`]
/// is the head of a valid log), and `done` told of the bytes read (see
/// [`crate::event::ReadOptions::done`]).
pub fn replay_checked(bytes: &[u8], done: Option<&(dyn Fn(&[u8]) + Sync)>) -> Streamed {
    let opts = ReadOptions {
        head: true,
        done,
        ..ReadOptions::new(crate::event::read::BATCH, Chain::Verify)
    };
    replay_read(bytes, &opts, None)
}

fn replay_read(bytes: &[u8], opts: &ReadOptions, witness: Option<&mut dyn Witness>) -> Streamed {
    struct Sink<'s, 'w> {
        scope: &'s ReplayScope,
        replay: Option<Replay<'s>>,
        events: usize,
        witness: Option<&'w mut dyn Witness>,
    }
    impl crate::event::EventSink for Sink<'_, '_> {
        fn start(&mut self, declares_participants: bool, events: usize) {
            let mut r = Replay::new(self.scope, declares_participants, None);
            r.reserve(events);
            self.replay = Some(r);
            self.events = 0;
            if let Some(w) = self.witness.as_mut() {
                w.restart();
            }
        }
        fn events(&mut self, events: &mut Vec<Envelope>) {
            self.events += events.len();
            if let Some(r) = self.replay.as_mut() {
                for env in events.iter() {
                    r.apply(env);
                }
            }
            if let Some(w) = self.witness.as_mut() {
                for env in events.iter() {
                    w.event(env);
                }
            }
        }
        fn items(&mut self, items: &mut Vec<crate::event::Item<'_>>) {
            if self.witness.is_some() {
                // A witness sees every event as an event.
                let mut events: Vec<Envelope> = items
                    .drain(..)
                    .map(crate::event::Item::into_envelope)
                    .collect();
                return self.events(&mut events);
            }
            self.events += items.len();
            if let Some(r) = self.replay.as_mut() {
                for item in items.iter() {
                    r.apply_item(item);
                }
            }
        }
    }
    let scope = ReplayScope::default();
    let mut sink = Sink {
        scope: &scope,
        replay: None,
        events: 0,
        witness,
    };
    let read = {
        let _s = tracing::info_span!("read_replay").entered();
        let _p = crate::progress::stage(&format!(
            "reading and replaying the log ({} MB)",
            bytes.len() >> 20
        ));
        crate::event::read_each_with(bytes, opts, &mut sink)
    };
    let (state, mut errors) = match sink.replay {
        Some(r) => {
            let _s = tracing::info_span!("replay_finish").entered();
            r.finish()
        }
        None => (State::default(), Vec::new()),
    };
    errors.extend(read.errors);
    errors.sort();
    errors.dedup();
    Streamed {
        state,
        errors,
        events: sink.events,
        head: read.head,
    }
}
