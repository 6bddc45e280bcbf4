//! The cache built beside a streamed replay: each line's board or match, the sums and standings at the end.

use super::*;

/// Start offset of every physical line of `bytes` (the reader's lines: split at `\n`).
pub(super) fn line_starts(bytes: &[u8]) -> Vec<u64> {
    let mut v = Vec::with_capacity(bytes.len() / 64 + 1);
    v.push(0);
    v.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i as u64 + 1));
    v
}

/// The reader's view of a log's bytes (a byte-order mark is not part of the first line).
pub fn body(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// An [`AuditCache`] made while a log's events go by, one at a time in log order (a streamed
/// `score` keeps no event): which board each line is on, the rulings' boards; where the lines
/// are in the log's bytes is worked out at the end.
#[derive(Debug, Default)]
pub struct CacheBuilder {
    /// The sessions named so far (a board is looked up by its session's place here).
    pub(super) session_ids: Vec<String>,
    pub(super) board_index: crate::hash::FxMap<(usize, u32), usize>,
    pub(super) boards: Vec<((String, u32), Vec<LineRef>)>,
    /// Each result's board (by `seq`; `u32::MAX`: not a result).
    pub(super) result_board: Vec<u32>,
    pub(super) ruling_board: BTreeMap<String, usize>,
    pub(super) rulings: Vec<(String, u32)>,
    pub(super) decl: Vec<LineRef>,
    pub(super) declares: bool,
    pub(super) last_seq: usize,
    /// An event whose line or board could not be placed: no cache.
    pub(super) failed: bool,
    /// The log's newlines and length (see `AuditCache`), from [`place`](Self::place).
    pub(super) newlines: u64,
    pub(super) len: u64,
    pub(super) matches: MatchTags,
    pub(super) tagger: Tagger,
}

impl crate::replay::Witness for CacheBuilder {
    fn restart(&mut self) {
        *self = CacheBuilder::default();
    }

    fn event(&mut self, e: &Envelope) {
        self.add(e);
    }
}

impl CacheBuilder {
    /// Where event `e`'s line is: its number and seq now, its bytes in `finish`.
    pub(super) fn at(&self, e: &Envelope) -> Option<LineRef> {
        Some(LineRef {
            offset: 0,
            len: 0,
            line: u32::try_from(e.line).ok()?,
            seq: u32::try_from(e.seq).ok()?,
        })
    }

    /// The next event of the log.
    pub fn add(&mut self, e: &Envelope) {
        if self.failed {
            return;
        }
        self.last_seq = e.seq;
        if self.add_placed(e).is_none() {
            self.failed = true;
        }
    }

    pub(super) fn add_placed(&mut self, e: &Envelope) -> Option<()> {
        if e.event.declares_participant() {
            // (the participants are kept whole, from the replay)
            self.declares = true;
            return Some(());
        }
        let index = match e.event.on_board() {
            Some(OnBoard::Board(s, b)) => {
                let si = match self.session_ids.iter().position(|x| x == s) {
                    Some(si) => si,
                    None => {
                        self.session_ids.push(s.to_string());
                        self.session_ids.len() - 1
                    }
                };
                Some(*self.board_index.entry((si, b)).or_insert_with(|| {
                    self.boards.push(((s.to_string(), b), Vec::new()));
                    self.boards.len() - 1
                }))
            }
            Some(OnBoard::OfResult(seq)) => match self.result_board.get(seq) {
                Some(&i) if i != u32::MAX => Some(i as usize),
                _ => return None,
            },
            Some(OnBoard::OfRuling(id)) => Some(*self.ruling_board.get(id)?),
            None => None,
        };
        let r = self.at(e)?;
        match index {
            None => self.decl.push(r),
            Some(i) => {
                self.boards[i].1.push(r);
                let tag = self.tagger.tag(&mut self.matches, i, e, |_, _| None);
                self.matches.set(i, self.boards[i].1.len() - 1, tag);
                match &e.event {
                    Event::Result(_) => {
                        if self.result_board.len() <= e.seq {
                            let n = (e.seq + 1).max(2 * self.result_board.len());
                            self.result_board.resize(n, u32::MAX);
                        }
                        self.result_board[e.seq] = u32::try_from(i).ok()?;
                    }
                    Event::Ruling(r) => {
                        self.ruling_board.insert(r.id.clone(), i);
                        self.rulings.push((r.id.clone(), i as u32));
                    }
                    _ => {}
                }
            }
        }
        Some(())
    }

    /// Where every line added is in the log's `bytes` (once every event is added).
    pub fn place(&mut self, bytes: &[u8]) {
        if self.place_lines(bytes).is_none() {
            self.failed = true;
        }
    }

    pub(super) fn place_lines(&mut self, bytes: &[u8]) -> Option<()> {
        let body = body(bytes);
        let starts = line_starts(body);
        let place = |r: &mut LineRef| -> Option<()> {
            let i = (r.line as usize).checked_sub(1)?;
            let start = *starts.get(i)?;
            let end = starts.get(i + 1).map_or(body.len() as u64, |&s| s - 1);
            r.offset = start;
            r.len = u32::try_from(end - start).ok()?;
            Some(())
        };
        for r in self
            .decl
            .iter_mut()
            .chain(self.boards.iter_mut().flat_map(|b| b.1.iter_mut()))
        {
            place(r)?;
        }
        self.newlines = starts.len() as u64 - 1;
        self.len = body.len() as u64;
        Some(())
    }

    /// The cache of the log whose every event was added and placed (validated without
    /// errors), replayed whole into `state` and scored whole into `scored`; `None` when an
    /// event's line could not be placed.
    pub fn finish(self, state: &State, scored: &crate::pipeline::Scored) -> Option<AuditCache> {
        if self.failed {
            return None;
        }
        let board_ns = scored
            .pair_boards
            .iter()
            .map(|b| ((b.session, b.section.clone(), b.board), b.tables() as u32))
            .collect();
        Some(AuditCache {
            last_seq: self.last_seq,
            newlines: self.newlines,
            len: self.len,
            declares: self.declares,
            participants: state.participants.clone(),
            sessions: state.sessions.iter().map(|s| s.def.id.clone()).collect(),
            teams: state.sessions.iter().map(|s| s.kind.in_matches).collect(),
            fields: scored.fields.clone(),
            board_ns,
            sums: scored.sums.clone(),
            standings: scored.standings.clone(),
            rulings: self.rulings,
            boards: self.boards,
            decl: self.decl,
            matches: self.matches,
        })
    }
}
