//! Audits answered from the audit cache: the boards a question is on replayed and re-scored, every other sum reused; and the cache extended by appended lines.

use super::*;

/// `--ruling` or `--as-of` answered from the audit cache `c` of the log `bytes` (for
/// [`answer`](super::answer)): only the declarations and the boards the question is on are
/// parsed, replayed and scored, the cache's whole scoring being the later side; `c` is lent:
/// its standings, fields, sums and every board's N are taken for the answer and put back.
/// `Outcome::Cannot` when it cannot answer so (`--between`, a fouled board, a question that
/// changes declarations, one that touches most of the log, ...).
pub(super) fn audit_cached(
    bytes: &[u8],
    c: &mut cache::AuditCache,
    question: &Question,
) -> Result<Outcome, AuditError> {
    // (a cache of another length is not this log's: answered the long way)
    if !c.fits(bytes) {
        return Ok(Outcome::Cannot);
    }
    let Some(which_asked) = asked_boards(c, question)? else {
        return Ok(Outcome::Cannot);
    };
    // A team session's matches some table of which the question changes are re-scored whole:
    // every board of the session is replayed, of the boards not asked about only the lines of
    // those matches (and of no known match). (`changed` None: every line.)
    let team = team_sessions_of(&c.boards, &c.sessions, &c.teams, &which_asked);
    let mut seed = None;
    // (`first`: the declarations and the asked boards' events, parsed to find them)
    let (changed, first) = if team.is_empty() {
        (None, None)
    } else {
        let st = seed.insert(State::with_participants(c.participants.clone()));
        changed_matches(bytes, c, &which_asked, question, st)
    };
    let reading = Reading::new(c, &c.boards, &which_asked, changed);
    let touched: usize = (reading.which.iter())
        .map(|&i| {
            (0..c.boards[i].1.len())
                .filter(|&j| reading.keep(i, c.matches.get(i, j)))
                .count()
        })
        .sum();
    let all: usize = c.boards.iter().map(|b| b.1.len()).sum();
    if touches_most(touched, all) {
        tracing::info!(
            touched,
            all,
            "audit: the question touches most of the log's board lines"
        );
        return Ok(Outcome::Cannot);
    }
    let Some((sub, state, earlier, keys)) = replay_asked(bytes, c, question, &reading, first, seed)
    else {
        return Ok(Outcome::Cannot);
    };
    // The team boards the question is on (the other boards of their sessions, replayed for
    // their matches, have the same scores both ways): scored for the comparison.
    let team: BTreeSet<(usize, u32)> = which_asked
        .iter()
        .filter_map(|&i| {
            let (id, b) = &c.boards[i].0;
            let s = state.session_index(id)?;
            state.sessions[s].kind.in_matches.then_some((s, *b))
        })
        .collect();
    let Some(((pair_boards, team_boards), earlier)) =
        score_asked(c, &state, &team, earlier, reading.which.len())?
    else {
        return Ok(Outcome::Cannot);
    };
    // (the cache's whole scoring lent to the answer, and given back)
    let scored = Scored {
        pair_boards,
        team_boards,
        matches: Vec::new(),
        standings: std::mem::take(&mut c.standings),
        fields: std::mem::take(&mut c.fields),
        notices: Vec::new(),
        sums: std::mem::take(&mut c.sums),
    };
    let board_ns = std::mem::take(&mut c.board_ns);
    let answer = audit_inner(
        &sub,
        &state,
        question,
        true,
        Base::Partial {
            scored: &scored,
            board_ns: &board_ns,
            last: c.last_seq,
            earlier: earlier.as_ref(),
            replayed: &keys,
        },
    );
    let Scored {
        pair_boards,
        team_boards,
        standings,
        fields,
        sums,
        ..
    } = scored;
    (c.standings, c.fields, c.sums, c.board_ns) = (standings, fields, sums, board_ns);
    // What a million-result log's audit was made from (the replayed boards) goes with the
    // answer: its holder frees it when the answer is done with.
    Ok(match answer? {
        Some(audit) => Outcome::Answer(Answer {
            audit,
            residue: Residue::new((pair_boards, team_boards, state, sub, earlier)),
        }),
        None => Outcome::Cannot,
    })
}

/// The boards (indexes of `c.boards`) the question is on; `None` for a question the cache does
/// not answer (`--between`, a what-if).
fn asked_boards(
    c: &cache::AuditCache,
    question: &Question,
) -> Result<Option<Vec<usize>>, AuditError> {
    Ok(Some(match question {
        Question::Between(..) | Question::With(_) => return Ok(None),
        Question::Ruling(id) => match c.rulings.iter().find(|r| r.0 == *id) {
            Some(r) => vec![r.1 as usize],
            None => return Err(AuditError::BadQuestion(no_ruling(id))),
        },
        Question::AsOf(seq) => {
            if *seq > c.last_seq {
                return Err(AuditError::BadQuestion(as_of_past(*seq, c.last_seq)));
            }
            (0..c.boards.len())
                .filter(|&i| c.boards[i].1.last().is_some_and(|l| l.seq as usize > *seq))
                .collect()
        }
    }))
}

/// The events read, the later replay, the earlier replay beside it (of those boards) and the
/// boards replayed.
type Replayed = (
    Vec<Envelope>,
    State,
    Option<(BTreeSet<BoardKey>, State)>,
    BTreeSet<BoardKey>,
);

/// The later replay of the boards of `reading` and, when the question's scope allows it, the
/// earlier replay of the same boards beside it (each one thread's work, seeded alike:
/// `audit_inner` takes it when it touches these boards), with the events read (`first`: the
/// declarations and the asked boards' events, parsed already) and the boards replayed; `None`
/// when they do not read or replay cleanly.
fn replay_asked(
    bytes: &[u8],
    c: &cache::AuditCache,
    question: &Question,
    reading: &Reading,
    first: Option<Vec<Envelope>>,
    seed: Option<State>,
) -> Option<Replayed> {
    let which = &reading.which;
    let _span = tracing::info_span!("replay", boards = which.len()).entered();
    let keep = |i: usize, tag: u32| reading.keep(i, tag);
    // The events: those parsed already, and the other lines read and parsed (beside the
    // participants' look-up, one thread's work).
    let parse = || -> Option<Vec<Envelope>> {
        let _s = tracing::debug_span!("parse").entered();
        let parse = |l: &[_]| crate::event::read::parse_lines(l).ok();
        match first {
            None => parse(&c.lines_with(bytes, which, keep)?),
            Some(mut events) => {
                let rest: Vec<usize> = which
                    .iter()
                    .copied()
                    .filter(|&i| !reading.asked(i))
                    .collect();
                events.extend(parse(&c.board_lines_with(bytes, &rest, keep)?)?);
                // (two runs in log order: merged)
                events.sort_by_key(|e| e.seq);
                Some(events)
            }
        }
    };
    let (parsed, seed) = rayon::join(parse, || {
        seed.unwrap_or_else(|| State::with_participants(c.participants.clone()))
    });
    let sub = parsed?;
    let mut keys: BTreeSet<BoardKey> = which.iter().map(|&i| c.boards[i].0.clone()).collect();
    // (and every board the team sessions among them declare: as `audit_inner` asks)
    whole_team_sessions(&mut keys, session_defs(&sub));
    let earlier_scope = match scopes(&sub, question, c.last_seq, true) {
        Ok(Some((b, _))) => Some(ReplayScope {
            boards: Some(keys.clone()),
            ..b
        }),
        _ => None,
    };
    let (state, earlier) = rayon::join(
        || {
            tracing::debug_span!("replay_boards")
                .in_scope(|| replay_boards(&sub, keys.clone(), &seed, c))
        },
        || {
            earlier_scope.map(|scope| {
                let _s = tracing::debug_span!("earlier").entered();
                (
                    keys.clone(),
                    crate::replay::replay_seeded(&sub, &scope, &seed).0,
                )
            })
        },
    );
    Some((sub, state?, earlier, keys))
}

/// The asked boards' scores (pair, team) and the earlier replay with its boards' scores.
type AskedScores = ((Vec<BoardScore>, Vec<TeamBoardScore>), Option<Earlier>);

/// The boards' scores in the whole log: each pair board scored with its comparison group's N
/// there, the team boards `team`, and the earlier replay's boards beside them (each board is
/// one thread's work); `None` when the cache cannot score them.
fn score_asked(
    c: &cache::AuditCache,
    state: &State,
    team: &BTreeSet<(usize, u32)>,
    earlier: Option<(BTreeSet<BoardKey>, State)>,
    boards: usize,
) -> Result<Option<AskedScores>, AuditError> {
    let _span = tracing::info_span!("score", boards).entered();
    let (later, earlier_scored) = rayon::join(
        || {
            let pairs = score_with_fields(state, &c.fields);
            let teams = if team.is_empty() {
                Vec::new()
            } else {
                pipeline::score_team_boards(state, team)
            };
            pairs.map(|p| p.map(|p| (p, teams)))
        },
        || {
            earlier
                .as_ref()
                .map(|(_, st)| score_with_fields(st, &c.fields))
        },
    );
    let earlier = earlier.map(|(k, st)| {
        let scored = earlier_scored.and_then(|r| r.ok().flatten());
        (k, st, scored)
    });
    Ok(later?.map(|b| (b, earlier)))
}

/// A replay of the boards `keys` of a cached log from `events` (the declarations and those
/// boards' lines), seeded with the cache's participants (`seed`: their lines are not among the
/// events); `None` when it finds an error or numbers things otherwise than the cache.
pub(super) fn replay_boards(
    events: &[Envelope],
    keys: BTreeSet<(String, u32)>,
    seed: &State,
    c: &cache::AuditCache,
) -> Option<State> {
    let scope = ReplayScope {
        boards: Some(keys),
        ..Default::default()
    };
    let (state, errors) = crate::replay::replay_seeded(events, &scope, seed);
    (errors.is_empty() && cache::same_numbering(c, &state)).then_some(state)
}

/// The pair-form boards of `state` (a replay of a few boards) scored each with its comparison
/// group's N in the whole log (`fields`); `None` for a fouled board, `session_bounded` or a
/// group the whole log does not have.
pub(super) fn score_with_fields(
    state: &State,
    fields: &BTreeMap<(usize, Option<String>), u32>,
) -> Result<Option<Vec<BoardScore>>, AuditError> {
    use rayon::prelude::*;
    let (mut tasks, _) = pipeline::board_tasks(state).map_err(AuditError::Score)?;
    for t in &mut tasks {
        let s = &state.sessions[t.session];
        if t.part != 0
            || s.def.options.mp_artificial == crate::options::MpArtificial::SessionBounded
        {
            return Ok(None);
        }
        match fields.get(&(t.session, t.section.clone())) {
            Some(&n) => t.field = n,
            None => return Ok(None),
        }
    }
    Ok(Some(
        tasks
            .par_iter()
            .map(|t| pipeline::score_board(&t.input(state)))
            .collect(),
    ))
}

/// The audit cache of a log made of `old`'s log and lines appended to it (`bytes`: the whole
/// log; the caller has checked that `old`'s bytes are its beginning): only the boards the
/// appended lines touch are replayed and re-scored, and the standings' sums carried on, as the
/// audit re-scores a ruling's board. `None` when the appended lines do more than add to boards
/// (declare something, name a participant the log does not have, change a comparison group's
/// N, a fouled board, sums beyond exact arithmetic, ...) or do not read or replay cleanly: the caller goes the long way, which
/// also says what is wrong with them.
pub fn extend_cache(bytes: &[u8], old: cache::AuditCache) -> Option<cache::AuditCache> {
    let body = cache::body(bytes);
    let start = usize::try_from(old.len).ok()?;
    if start == 0 || start >= body.len() || body[start - 1] != b'\n' || !old.sums.all_exact() {
        return None;
    }
    let (lines, newlines) = appended_lines(body, &old)?;
    let parsed =
        crate::event::read::parse_lines(&lines.iter().map(|l| (l.0, l.1, l.2)).collect::<Vec<_>>())
            .ok()?;
    let placed = place_appended(&old, &parsed, &lines)?;
    let mut old = old;
    let none = BTreeSet::new();
    let board_list = (placed.boards.as_slice(), &placed.matches);
    let s = sides(bytes, &old, board_list, &placed.touched, &none, &parsed).ok()?;
    let (r, _) = rescore_sides(&mut old, &s, true).ok()??;
    let sums = r.sums?;
    // Carried only when exact: sums beyond exact arithmetic (floats, in a field of tens of
    // thousands of tables) would come out of a board taken out and put back within rounding of
    // adding every board up afresh, not equal to it, and the whole log's standings must be
    // those `score` gives.
    if !sums.all_exact() {
        return None;
    }
    let keys = &s.keys;
    let in_keys = |st: usize, b: u32| keys.contains(&(old.sessions[st].clone(), b));
    let mut board_ns: Vec<cache::BoardN> = std::mem::take(&mut old.board_ns)
        .into_iter()
        .filter(|((st, _, b), _)| !in_keys(*st, *b))
        .collect();
    board_ns.extend(
        r.pair_boards
            .iter()
            .map(|b| ((b.session, b.section.clone(), b.board), b.tables() as u32)),
    );
    Some(cache::AuditCache {
        last_seq: lines.last().map_or(old.last_seq, |l| l.1),
        newlines: old.newlines + newlines,
        len: body.len() as u64,
        board_ns,
        sums,
        standings: r.standings,
        rulings: placed.rulings,
        boards: placed.boards,
        matches: placed.matches,
        ..old
    })
}

/// An appended event line: (line, seq, bytes, offset in the body).
type Appended<'b> = (usize, usize, &'b [u8], usize);

/// The event lines of `body` after those of the cache `old`, and how many newlines they add.
fn appended_lines<'b>(body: &'b [u8], old: &cache::AuditCache) -> Option<(Vec<Appended<'b>>, u64)> {
    let start = old.len as usize;
    let mut lines: Vec<Appended> = Vec::new();
    let (mut line, mut seq, mut at) = (old.newlines as usize + 1, old.last_seq, start);
    let mut newlines = 0u64;
    for raw in body[start..].split(|&b| b == b'\n') {
        let text = std::str::from_utf8(raw.strip_suffix(b"\r").unwrap_or(raw)).map(str::trim);
        if raw.len() > crate::event::read::MAX_LINE {
            return None;
        }
        if !matches!(text, Ok(t) if t.is_empty() || t.starts_with("//")) {
            seq += 1;
            lines.push((line, seq, raw, at));
        }
        at += raw.len() + 1;
        if at <= body.len() {
            newlines += 1;
        }
        line += 1;
    }
    Some((lines, newlines))
}

/// The cache's index with the appended lines placed: every board's lines, the rulings, the
/// match tags, and the boards the lines are on (indexes into `boards`, new boards at the end).
struct Placed {
    boards: Vec<(BoardKey, Vec<cache::LineRef>)>,
    rulings: Vec<(String, u32)>,
    matches: cache::MatchTags,
    touched: Vec<usize>,
}

/// The appended events `parsed` (of the lines `lines`) placed in the index of `old`; `None`
/// for an event on no board, naming a participant the log does not have, or a fouled board.
fn place_appended(
    old: &cache::AuditCache,
    parsed: &[Envelope],
    lines: &[Appended],
) -> Option<Placed> {
    let mut boards = old.boards.clone();
    let mut index: crate::hash::FxMap<BoardKey, usize> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| (b.0.clone(), i))
        .collect();
    let mut rulings = old.rulings.clone();
    let mut matches = old.matches.clone();
    let mut tagger = cache::Tagger::after(&matches);
    let seed = State::with_participants(old.participants.clone());
    let known = |id: &str| seed.pid(id).is_some();
    let result_board = |boards: &[(BoardKey, Vec<cache::LineRef>)], seq: usize| {
        boards
            .iter()
            .position(|b| b.1.binary_search_by_key(&(seq as u32), |r| r.seq).is_ok())
    };
    let mut touched: BTreeSet<usize> = BTreeSet::new();
    for (env, &(line, seq, raw, at)) in parsed.iter().zip(lines) {
        // (participants the log does not have, and fouled boards, are not carried)
        let named = match &env.event {
            Event::Result(r) => known(&r.ns) && known(&r.ew),
            Event::Ruling(r) => known(&r.ns) && r.ew.as_deref().is_none_or(known),
            Event::Fouled(_) => false,
            _ => true,
        };
        let key = match env.event.on_board().filter(|_| named)? {
            OnBoard::Board(s, b) => (s.to_string(), b),
            OnBoard::OfResult(seq) => boards[result_board(&boards, seq)?].0.clone(),
            OnBoard::OfRuling(id) => boards[rulings.iter().find(|r| r.0 == id)?.1 as usize]
                .0
                .clone(),
        };
        let i = *index.entry(key.clone()).or_insert_with(|| {
            boards.push((key, Vec::new()));
            boards.len() - 1
        });
        // (the lines before these are known by their tags: a correction's result's)
        let tag = tagger.tag(&mut matches, i, env, |m, result| {
            let j = boards[i]
                .1
                .binary_search_by_key(&(result as u32), |r| r.seq)
                .ok()?;
            Some(m.get(i, j))
        });
        boards[i].1.push(cache::LineRef {
            offset: at as u64,
            len: u32::try_from(raw.len()).ok()?,
            line: u32::try_from(line).ok()?,
            seq: u32::try_from(seq).ok()?,
        });
        matches.set(i, boards[i].1.len() - 1, tag);
        if let Event::Ruling(r) = &env.event {
            rulings.push((r.id.clone(), i as u32));
        }
        touched.insert(i);
    }
    Some(Placed {
        boards,
        rulings,
        matches,
        touched: touched.into_iter().collect(),
    })
}
