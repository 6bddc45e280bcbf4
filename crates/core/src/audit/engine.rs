//! The steps every answer from the audit cache takes: the boards it is on read from the log by
//! the cache's index (in a team session, the session's other boards for the matches it
//! changes), replayed twice alike (without and with what changes them), scored with the whole
//! log's N, the cached standings re-scored for them, and the two sides compared. A what-if
//! (`whatif_cached`) and a cache carried across appended lines
//! ([`extend_cache`](super::extend_cache)) are both "the cached log, and lines after it";
//! an audit of a ruling or a prefix (`audit_cached`) reads and compares alike, with the cached
//! log as its later side. All are asked through [`answer`](super::answer).

use super::*;

/// Why the cache did not answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Miss {
    /// It cannot (a fouled board, `session_bounded`, a comparison group whose N changes, ...):
    /// the caller answers the long way.
    Cannot,
    /// The lines after the log do not replay cleanly: the caller validates the whole log with
    /// them, which says what is wrong.
    Invalid,
}

/// The boards a cached answer reads: `which`, the boards asked about and, in a team session,
/// its other boards; of a board asked about every line, of another only the lines of the
/// matches `changed` and of no known match (`changed` `None`: every line).
pub(super) struct Reading {
    pub which: Vec<usize>,
    asked: Vec<bool>,
    changed: Option<BTreeSet<u32>>,
}

impl Reading {
    /// The boards `asked` (indexes into `boards`, the cache's or those with new boards after
    /// them) and, of their team sessions, the other boards.
    pub fn new(
        c: &cache::AuditCache,
        boards: &[(BoardKey, Vec<cache::LineRef>)],
        asked: &[usize],
        changed: Option<BTreeSet<u32>>,
    ) -> Reading {
        let which = with_team_boards(boards, &c.sessions, &c.teams, asked.to_vec());
        let mut is_asked = vec![false; boards.len()];
        for &i in asked {
            is_asked[i] = true;
        }
        Reading {
            which,
            asked: is_asked,
            changed,
        }
    }

    /// Whether line of tag `tag` of board `i` is read.
    pub fn keep(&self, i: usize, tag: u32) -> bool {
        self.asked[i]
            || tag == cache::NO_MATCH
            || self.changed.as_ref().is_none_or(|m| m.contains(&tag))
    }

    /// Whether board `i` is one asked about.
    pub fn asked(&self, i: usize) -> bool {
        self.asked[i]
    }
}

/// A board: (session id, board).
pub(super) type BoardKey = (String, u32);

/// The boards of a cached log that lines added after it are on, replayed without and with them.
pub(super) struct Sides {
    /// The declarations, the boards' lines and the added events, in log order (held only to be
    /// freed with an answer made from the replays).
    #[allow(dead_code)]
    events: Vec<Envelope>,
    pub before: State,
    pub after: State,
    /// The boards replayed.
    pub keys: BTreeSet<BoardKey>,
}

/// The indexes of `v` that are boards of the cache `c` (not new ones after them).
fn in_cache(c: &cache::AuditCache, v: &[usize]) -> Vec<usize> {
    v.iter().copied().filter(|&i| i < c.boards.len()).collect()
}

/// The events `added` (after the log's last seq) on the boards `asked` (indexes into `boards`,
/// tagged by `matches`) and `unplayed` (boards without lines in the log) of the cached log
/// `bytes`: those boards (and, in a team session, its other boards for the matches the added
/// events change) read, and replayed without and with the added events, side by side, each
/// seeded with the cache's participants.
pub(super) fn sides(
    bytes: &[u8],
    c: &cache::AuditCache,
    (boards, matches): (&[(BoardKey, Vec<cache::LineRef>)], &cache::MatchTags),
    asked: &[usize],
    unplayed: &BTreeSet<BoardKey>,
    added: &[Envelope],
) -> Result<Sides, Miss> {
    let seed = State::with_participants(c.participants.clone());
    let parse = |lines: Option<Vec<_>>| {
        crate::event::read::parse_lines(&lines.ok_or(Miss::Cannot)?).map_err(|_| Miss::Cannot)
    };
    // In a team session, the matches some table of which the added events change: found by
    // replaying the boards they are on without and with them.
    let changed = if team_sessions_of(boards, &c.sessions, &c.teams, asked).is_empty() {
        None
    } else {
        let keys: BTreeSet<BoardKey> = asked
            .iter()
            .map(|&i| boards[i].0.clone())
            .chain(unplayed.iter().cloned())
            .collect();
        let mut events = parse(c.lines(bytes, &in_cache(c, asked)))?;
        let before = replay_boards(&events, keys.clone(), &seed, c).ok_or(Miss::Cannot)?;
        events.extend(added.iter().cloned());
        let after = replay_boards(&events, keys, &seed, c).ok_or(Miss::Invalid)?;
        match_tags(&before, &after, matches)
    };
    let reading = Reading::new(c, boards, asked, changed);
    let _s = tracing::info_span!("replay", boards = reading.which.len()).entered();
    let lines = c.lines_with(bytes, &in_cache(c, &reading.which), |i, t| {
        reading.keep(i, t)
    });
    let mut events = parse(lines)?;
    events.extend(added.iter().cloned());
    let mut keys: BTreeSet<BoardKey> = (reading.which.iter())
        .map(|&i| boards[i].0.clone())
        .chain(unplayed.iter().cloned())
        .collect();
    whole_team_sessions(&mut keys, session_defs(&events));
    // (the log as it is: its events up to its last seq)
    let scope = |upto| ReplayScope {
        upto,
        boards: Some(keys.clone()),
        ..Default::default()
    };
    let ((before, before_errors), (after, after_errors)) = rayon::join(
        || crate::replay::replay_seeded(&events, &scope(Some(c.last_seq)), &seed),
        || crate::replay::replay_seeded(&events, &scope(None), &seed),
    );
    if !before_errors.is_empty() || !cache::same_numbering(c, &before) {
        return Err(Miss::Cannot);
    }
    if !after_errors.is_empty() {
        return Err(Miss::Invalid);
    }
    if !cache::same_numbering(c, &after) {
        return Err(Miss::Cannot);
    }
    Ok(Sides {
        events,
        before,
        after,
        keys,
    })
}

/// The cached standings re-scored for the boards of `s`: its earlier side's boards (the log as
/// the cache holds it) scored with the whole log's N, taken out of the cached sums, the later
/// side's put in (`keep_sums`: the new sums kept). `c`'s standings, fields and sums are lent
/// and given back. With the earlier side's boards as scored; `Ok(None)` when the cache cannot
/// answer.
pub(super) fn rescore_sides(
    c: &mut cache::AuditCache,
    s: &Sides,
    keep_sums: bool,
) -> Result<Option<(Rescored, Vec<BoardScore>)>, AuditError> {
    let before_scores = {
        let _s = tracing::info_span!("score", boards = s.keys.len()).entered();
        match score_with_fields(&s.before, &c.fields)? {
            Some(b) => b,
            None => return Ok(None),
        }
    };
    let base = Scored {
        pair_boards: before_scores,
        team_boards: Vec::new(),
        matches: Vec::new(),
        standings: std::mem::take(&mut c.standings),
        fields: std::mem::take(&mut c.fields),
        notices: Vec::new(),
        sums: std::mem::take(&mut c.sums),
    };
    let r = rescore(
        &s.before,
        &base,
        Some(&c.board_ns),
        &s.after,
        &s.keys,
        keep_sums,
        None,
    );
    (c.standings, c.fields, c.sums) = (base.standings, base.fields, base.sums);
    match r {
        Ok(Some(r)) => Ok(Some((r, base.pair_boards))),
        Ok(None) => Ok(None),
        Err(e) => Err(AuditError::Score(e)),
    }
}

/// One side of a comparison: a replay, its boards that may differ (pair and team) and its
/// standings.
pub(super) struct Side<'a> {
    pub state: &'a State,
    pub pairs: &'a [BoardScore],
    pub teams: &'a [TeamBoardScore],
    pub standings: &'a [Standing],
}

/// What moved between two sides of which only the boards `keys` were re-scored (`changed`: the
/// team boards some table of which differs): the boards' deltas and the standings'.
pub(super) fn compare(
    before: Side,
    after: Side,
    changed: &BTreeSet<(usize, u32)>,
    keys: &BTreeSet<BoardKey>,
) -> (Vec<BoardDelta>, Vec<StandingDelta>) {
    let earlier = rescoped(before.state, before.pairs, before.teams, changed, keys);
    let later = rescoped(after.state, after.pairs, after.teams, changed, keys);
    // (each has long sequential stretches: the two run side by side)
    rayon::join(
        || board_deltas(before.state, &earlier, after.state, &later),
        || standing_deltas(before.state, before.standings, after.state, after.standings),
    )
}

/// The rulings of `state` whose seq `wanted` takes, as an audit lists the rulings it is about.
pub(super) fn ruling_notes(state: &State, wanted: impl Fn(usize) -> bool) -> Vec<RulingNote> {
    state
        .rulings
        .iter()
        .filter(|r| wanted(r.seq))
        .map(|r| RulingNote {
            id: r.ev.id.clone(),
            session: state.sessions[r.key.0].def.id.clone(),
            board: r.key.1,
            score: r.ev.score.normalised(),
            law: r.ev.law.clone(),
            by: r.by.clone(),
            note: r.note.clone(),
            seq: r.seq,
        })
        .collect()
}
