//! Which team match each line of a team board is of: the tags, and the one rule that gives them.

use super::{Envelope, Event};

/// Which team match each line of a team board is of, so that an audit of a ruling in a team
/// session reads the lines of the matches it changes and not those of every match of the
/// session. A line is tagged with its match when that is known from the log without replaying
/// it: a result names its match; a ruling or a correction is of its table's result's match; a
/// withdrawal is of its ruling's. Any other line (a deal, a ruling that makes its own table) is
/// of [`NO_MATCH`]: read with any match.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MatchTags {
    /// (session id, match id) of each tag.
    pub ids: Vec<(String, String)>,
    /// Per board of `AuditCache::boards` (by index), the tags of its first lines; a line past
    /// the end (or a board past the end) is of no known match.
    #[serde(deserialize_with = "super::codec::reserved")]
    pub lines: Vec<Vec<u32>>,
}

/// (session id, match id) → its tag in [`MatchTags::ids`].
pub type MatchIndex = crate::hash::FxMap<(String, String), u32>;

/// The tag of a line of no known match.
pub const NO_MATCH: u32 = u32::MAX;

impl MatchTags {
    /// The tag of line `j` of board `i`.
    pub fn get(&self, i: usize, j: usize) -> u32 {
        self.lines
            .get(i)
            .and_then(|v| v.get(j))
            .copied()
            .unwrap_or(NO_MATCH)
    }

    /// Tag line `j` of board `i` (its lines before `j` tagged already, or of no match).
    pub fn set(&mut self, i: usize, j: usize, tag: u32) {
        if tag == NO_MATCH {
            return;
        }
        if self.lines.len() <= i {
            self.lines.resize_with(i + 1, Vec::new);
        }
        let v = &mut self.lines[i];
        v.resize(j, NO_MATCH);
        v.push(tag);
    }

    /// The tag of match `id` of `session`, a new one when no line had it yet; `index` holds the
    /// tags by match, kept beside `ids` by the caller (see [`index`](Self::index)).
    pub fn intern(&mut self, index: &mut MatchIndex, session: &str, id: &str) -> u32 {
        let next = self.ids.len() as u32;
        let key = (session.to_string(), id.to_string());
        let t = *index.entry(key.clone()).or_insert(next);
        if t == next {
            self.ids.push(key);
        }
        t
    }

    /// The tags by match, for [`intern`](Self::intern).
    pub fn index(&self) -> MatchIndex {
        self.ids
            .iter()
            .enumerate()
            .map(|(t, k)| (k.clone(), t as u32))
            .collect()
    }

    /// The tag of a match, when some line has it.
    pub fn find(&self, session: &str, id: &str) -> Option<u32> {
        self.ids
            .iter()
            .position(|(s, m)| s == session && m == id)
            .map(|p| p as u32)
    }
}

/// The rule that tags lines with their matches, as they come in log order: a result names its
/// match; a correction is of its result's match; a ruling of its table's result's match (a
/// result at that table seen before it); a withdrawal of its ruling's. What the tagger has not
/// seen (lines before those it is given) is of no known match, except a result's tag that
/// `earlier` finds.
#[derive(Debug, Default)]
pub struct Tagger {
    /// (session id, match id) → tag.
    index: MatchIndex,
    /// (board, NS) → its result's tag; result seq → tag; ruling id → tag (team results and what
    /// refers to them only).
    table: crate::hash::FxMap<(usize, String), u32>,
    result: crate::hash::FxMap<usize, u32>,
    ruling: crate::hash::FxMap<String, u32>,
}

impl Tagger {
    /// A tagger of the lines after those `tags` has.
    pub fn after(tags: &MatchTags) -> Tagger {
        Tagger {
            index: tags.index(),
            ..Tagger::default()
        }
    }

    /// The tag of event `e` on board `i`, new matches interned in `tags`; `earlier`: the tag of
    /// result `seq` among the lines before this tagger's, when known.
    pub fn tag(
        &mut self,
        tags: &mut MatchTags,
        i: usize,
        e: &Envelope,
        earlier: impl Fn(&MatchTags, usize) -> Option<u32>,
    ) -> u32 {
        let known = |t: Option<&u32>| t.copied().unwrap_or(NO_MATCH);
        match &e.event {
            Event::Result(r) => {
                let Some(m) = &r.match_id else {
                    return NO_MATCH;
                };
                let t = tags.intern(&mut self.index, &r.session, m);
                self.table.insert((i, r.ns.clone()), t);
                self.result.insert(e.seq, t);
                t
            }
            Event::Ruling(r) => {
                let t = known(self.table.get(&(i, r.ns.clone())));
                if t != NO_MATCH {
                    self.ruling.insert(r.id.clone(), t);
                }
                t
            }
            Event::Correction(c) => match self.result.get(&c.result) {
                Some(&t) => t,
                None => earlier(tags, c.result).unwrap_or(NO_MATCH),
            },
            Event::RulingWithdrawn { ruling } => known(self.ruling.get(ruling)),
            _ => NO_MATCH,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(lines: &[&str]) -> Vec<Envelope> {
        let raw: Vec<(usize, usize, &[u8])> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| (i + 1, i + 1, l.as_bytes()))
            .collect();
        crate::event::read::parse_lines(&raw).expect("lines parse")
    }

    const SESSION: &str = r#"{"type":"session","id":"RR","form":"teams","boards":"1-2"}"#;
    const OPEN: &str = r#"{"type":"result","session":"RR","match":"M1","room":"open","board":1,"ns":"T1","ew":"T2","contract":"2S","declarer":"W","tricks":7}"#;
    const CLOSED: &str = r#"{"type":"result","session":"RR","match":"M1","room":"closed","board":1,"ns":"T2","ew":"T1","contract":"2S","declarer":"E","tricks":9}"#;
    const RULING: &str =
        r#"{"type":"ruling","id":"R1","session":"RR","board":1,"ns":"T2","score":"(-100)/(+620)"}"#;
    const OTHER: &str = r#"{"type":"ruling","id":"R2","session":"RR","board":1,"ns":"T3","ew":"T4","score":"(-100)/(+620)"}"#;
    const WITHDRAWN: &str = r#"{"type":"ruling_withdrawn","ruling":"R1"}"#;
    const CORRECTED: &str = r#"{"type":"correction","result":2,"tricks":8}"#;

    /// Every kind of line tagged by the rule: a result by its match; a ruling by its table's
    /// result's; a withdrawal by its ruling's; a correction by its result's; a ruling at a
    /// table of no result, and a declaration, of no known match.
    #[test]
    fn each_line_is_of_its_tables_match() {
        let ev = events(&[SESSION, OPEN, CLOSED, RULING, OTHER, WITHDRAWN, CORRECTED]);
        let mut tags = MatchTags::default();
        let mut t = Tagger::default();
        let got: Vec<u32> = ev
            .iter()
            .map(|e| t.tag(&mut tags, 0, e, |_, _| None))
            .collect();
        assert_eq!(got, [NO_MATCH, 0, 0, 0, NO_MATCH, 0, 0]);
        assert_eq!(tags.ids, [("RR".to_string(), "M1".to_string())]);
    }

    /// A tagger of lines after others knows the earlier lines only through `earlier` (a
    /// correction's result) and the matches already interned; a ruling on an earlier table
    /// is of no known match (read with any match: never too few lines).
    #[test]
    fn lines_after_others_are_tagged_from_what_is_known() {
        let ev = events(&[SESSION, OPEN, CLOSED, RULING, CORRECTED]);
        let mut tags = MatchTags::default();
        tags.intern(&mut MatchIndex::default(), "RR", "M0");
        tags.intern(&mut tags.index(), "RR", "M1");
        let mut t = Tagger::after(&tags);
        let earlier = |_: &MatchTags, seq: usize| (seq == 2).then_some(1);
        assert_eq!(t.tag(&mut tags, 0, &ev[3], earlier), NO_MATCH);
        assert_eq!(t.tag(&mut tags, 0, &ev[4], earlier), 1);
        // (a result seen: the same match keeps its tag)
        assert_eq!(t.tag(&mut tags, 0, &ev[2], earlier), 1);
        assert_eq!(tags.ids.len(), 2);
    }
}
