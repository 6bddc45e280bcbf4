//! The replayer's indexes: who sat where on each board (Plays) and which table each result's seq made (SeqMap).

use super::*;

/// (session, board, participant, seat) → the NS participant of the table where it played that
/// board (the table's key is then (session, board, that NS)). Kept per participant, in a short
/// sorted vector (a pair plays a few dozen boards a championship): a result's two checks touch
/// two small vectors instead of a hash table of millions of entries.
#[derive(Default)]
pub(super) struct Plays(pub(super) Vec<Vec<((u32, u32), PId)>>);

impl Plays {
    pub(super) fn key(s: usize, board: u32, seat: u8) -> (u32, u32) {
        // Boards are at most 9999 (the reader's limit), so the seat fits in the low bits.
        (s as u32, board << 2 | seat as u32)
    }

    pub(super) fn insert(&mut self, s: usize, board: u32, p: PId, seat: u8, table: TableKey) {
        let p = p as usize;
        if p >= self.0.len() {
            self.0.resize_with(p + 1, Vec::new);
        }
        let v = &mut self.0[p];
        let k = Self::key(s, board, seat);
        match v.binary_search_by_key(&k, |e| e.0) {
            Ok(i) => v[i].1 = table.2,
            Err(i) => v.insert(i, (k, table.2)),
        }
    }

    pub(super) fn get(&self, s: usize, board: u32, p: PId, seat: u8) -> Option<PId> {
        let v = self.0.get(p as usize)?;
        let k = Self::key(s, board, seat);
        v.binary_search_by_key(&k, |e| e.0).ok().map(|i| v[i].1)
    }

    pub(super) fn remove(&mut self, s: usize, board: u32, p: PId, seat: u8) {
        if let Some(v) = self.0.get_mut(p as usize) {
            let k = Self::key(s, board, seat);
            if let Ok(i) = v.binary_search_by_key(&k, |e| e.0) {
                v.remove(i);
            }
        }
    }
}

/// `seq` → table: a vector indexed by `seq` in a whole replay (dense: nearly every event is a
/// result), a map in a replay of some boards (a few results, far into a long log).
pub(super) enum SeqMap {
    Dense(Vec<Option<TableKey>>),
    Sparse(FxMap<usize, TableKey>),
}

impl SeqMap {
    pub(super) fn insert(&mut self, seq: usize, key: TableKey) {
        match self {
            SeqMap::Sparse(m) => {
                m.insert(seq, key);
            }
            SeqMap::Dense(v) => {
                if seq >= v.len() {
                    v.resize(seq + 1, None);
                }
                v[seq] = Some(key);
            }
        }
    }

    pub(super) fn get(&self, seq: &usize) -> Option<&TableKey> {
        match self {
            SeqMap::Sparse(m) => m.get(seq),
            SeqMap::Dense(v) => v.get(*seq).and_then(Option::as_ref),
        }
    }

    pub(super) fn contains_key(&self, seq: &usize) -> bool {
        self.get(seq).is_some()
    }
}
