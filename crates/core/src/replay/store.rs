//! The tables of a replayed championship, keyed by `(session, board, NS participant)`.
//!
//! A million results make a million tables, so this is the state's biggest part. While the
//! log is replayed, tables are appended in log order and found through an index kept per NS
//! participant (a short sorted list of its tables' session and board: the few dozen boards a
//! pair plays, next to each other in memory, where a hash index of a million keys costs a cache
//! miss a look-up); when the replay finishes, [`Tables::seal`] drops the index and sorts a list
//! of positions by key, so that iteration is in key order (what scoring and every output rely
//! on) and look-ups are binary searches. Compared with a `BTreeMap`, no table is moved after it
//! is written, no node overhead is paid, and an insertion is a push rather than a walk down a
//! tree.

use super::{Table, TableKey};

/// One NS participant's tables while replaying: `(session, board)` → position in `entries`,
/// sorted by `(session, board)`.
type Row = Vec<((u32, u32), u32)>;

/// A table key's place in its NS participant's row.
fn sub(key: &TableKey) -> (u32, u32) {
    (
        u32::try_from(key.0).expect("fewer than 4 billion sessions"),
        key.1,
    )
}

#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// Every table, in the order it was first recorded.
    entries: Vec<(TableKey, Table)>,
    /// While replaying: by NS participant, its tables' positions in `entries` (see [`Row`]).
    index: Vec<Row>,
    /// Once sealed: positions in `entries`, in key order.
    order: Vec<u32>,
    sealed: bool,
}

impl Tables {
    /// Make room for about `n` tables.
    pub fn reserve(&mut self, n: usize) {
        self.entries.reserve(n);
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn position(&self, key: &TableKey) -> Option<usize> {
        if self.sealed {
            self.order
                .binary_search_by(|&i| self.entries[i as usize].0.cmp(key))
                .ok()
                .map(|k| self.order[k] as usize)
        } else {
            let row = self.index.get(key.2 as usize)?;
            let k = sub(key);
            row.binary_search_by_key(&k, |e| e.0)
                .ok()
                .map(|i| row[i].1 as usize)
        }
    }

    /// Record position `i` for `key` in the index (replaying).
    fn index_insert(&mut self, key: &TableKey, i: u32) {
        let p = key.2 as usize;
        if p >= self.index.len() {
            self.index.resize_with(p + 1, Vec::new);
        }
        let row = &mut self.index[p];
        let k = sub(key);
        // Tables come mostly in order: the end is the likeliest place.
        match row.last() {
            Some(last) if last.0 < k => row.push((k, i)),
            None => row.push((k, i)),
            _ => match row.binary_search_by_key(&k, |e| e.0) {
                Ok(j) => row[j].1 = i,
                Err(j) => row.insert(j, (k, i)),
            },
        }
    }

    /// Take `key` out of the index (replaying); its position.
    fn index_remove(&mut self, key: &TableKey) -> Option<u32> {
        let row = self.index.get_mut(key.2 as usize)?;
        let j = row.binary_search_by_key(&sub(key), |e| e.0).ok()?;
        Some(row.remove(j).1)
    }

    pub fn get(&self, key: &TableKey) -> Option<&Table> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, key: &TableKey) -> Option<&mut Table> {
        self.position(key).map(|i| &mut self.entries[i].1)
    }

    pub fn contains_key(&self, key: &TableKey) -> bool {
        self.position(key).is_some()
    }

    /// Record a table (replacing the one with that key, if any).
    pub fn insert(&mut self, key: TableKey, table: Table) {
        if let Some(i) = self.position(&key) {
            self.entries[i].1 = table;
            return;
        }
        self.unseal();
        let i = u32::try_from(self.entries.len()).expect("fewer than 4 billion tables");
        self.entries.push((key, table));
        self.index_insert(&key, i);
    }

    /// Remove a table (a withdrawn ruling that had created it).
    pub fn remove(&mut self, key: &TableKey) -> Option<Table> {
        self.unseal();
        let i = self.index_remove(key)? as usize;
        let (_, t) = self.entries.swap_remove(i);
        if i < self.entries.len() {
            let moved = self.entries[i].0;
            self.index_insert(&moved, i as u32);
        }
        Some(t)
    }

    /// Back to replaying (the index rebuilt): only if something is recorded after sealing.
    fn unseal(&mut self) {
        if self.sealed {
            self.order = Vec::new();
            self.sealed = false;
            self.index = Vec::new();
            for i in 0..self.entries.len() {
                let k = self.entries[i].0;
                self.index_insert(&k, i as u32);
            }
        }
    }

    /// Put the tables in key order for iteration and look-up, and drop the hash index.
    pub fn seal(&mut self) {
        if self.sealed {
            return;
        }
        use rayon::prelude::*;
        // The index goes first: it is not needed any more, and the sort's copy of the keys is
        // made in its place rather than beside it.
        self.index = Vec::new();
        // Keys copied next to their positions, so the sort reads contiguous memory.
        let mut keyed: Vec<(TableKey, u32)> = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (*k, i as u32))
            .collect();
        keyed.par_sort_unstable();
        self.order = keyed.into_iter().map(|(_, i)| i).collect();
        self.sealed = true;
    }

    /// The positions in key order (sealing first if needed is the caller's job: a replay
    /// always seals before it hands its state out).
    fn ordered(&self) -> impl Iterator<Item = usize> + '_ {
        debug_assert!(self.sealed || self.entries.is_empty());
        let unsealed = if self.sealed {
            None
        } else {
            let mut keys: Vec<usize> = (0..self.entries.len()).collect();
            keys.sort_unstable_by_key(|&i| self.entries[i].0);
            Some(keys)
        };
        let sealed = self.sealed.then(|| self.order.iter().map(|&i| i as usize));
        sealed
            .into_iter()
            .flatten()
            .chain(unsealed.into_iter().flatten())
    }

    /// Tables in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&TableKey, &Table)> + '_ {
        self.ordered().map(|i| {
            let (k, t) = &self.entries[i];
            (k, t)
        })
    }

    /// Every table in key order, gathered in parallel (the tables lie in the order they were
    /// recorded, so this is a million scattered reads for a million results).
    pub fn values_vec(&self) -> Vec<&Table> {
        use rayon::prelude::*;
        if self.sealed {
            self.order
                .par_iter()
                .map(|&i| &self.entries[i as usize].1)
                .collect()
        } else {
            self.values().collect()
        }
    }

    pub fn keys(&self) -> impl Iterator<Item = &TableKey> + '_ {
        self.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &Table> + '_ {
        self.iter().map(|(_, t)| t)
    }

    /// Every table, mutably, in no particular order.
    pub fn values_mut_unordered(&mut self) -> impl Iterator<Item = (&TableKey, &mut Table)> {
        self.entries.iter_mut().map(|(k, t)| (&*k, t))
    }
}

impl std::ops::Index<&TableKey> for Tables {
    type Output = Table;

    fn index(&self, key: &TableKey) -> &Table {
        self.get(key).expect("no table with that key")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(ns: u32) -> Table {
        Table::seated(0, 1, None, ns, ns + 100)
    }

    /// Inserted in any order, with removals (swap_remove keeps the index right) and a
    /// replacement: iteration is in key order and look-ups agree with a BTreeMap, before and
    /// after sealing, and after recording again once sealed.
    #[test]
    fn tables_behave_as_an_ordered_map() {
        let mut t = Tables::default();
        let mut m = std::collections::BTreeMap::new();
        let mut seed = 7u64;
        for step in 0..2000u32 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k: TableKey = (
                (seed >> 60) as usize % 3,
                (seed >> 40) as u32 % 7,
                (seed >> 20) as u32 % 50,
            );
            if step % 5 == 4 {
                assert_eq!(
                    t.remove(&k).map(|x| x.ns),
                    m.remove(&k).map(|x: Table| x.ns)
                );
            } else {
                t.insert(k, table(step));
                m.insert(k, table(step));
            }
            if step == 1000 {
                t.seal();
            }
            assert_eq!(t.len(), m.len());
            assert_eq!(t.get(&k).map(|x| x.ns), m.get(&k).map(|x| x.ns));
        }
        for sealed in [false, true] {
            if sealed {
                t.seal();
            }
            let a: Vec<(TableKey, u32)> = t.iter().map(|(k, x)| (*k, x.ns)).collect();
            let b: Vec<(TableKey, u32)> = m.iter().map(|(k, x)| (*k, x.ns)).collect();
            assert_eq!(a, b);
            let v: Vec<u32> = t.values_vec().iter().map(|x| x.ns).collect();
            let w: Vec<u32> = m.values().map(|x| x.ns).collect();
            assert_eq!(v, w);
            for k in m.keys() {
                assert_eq!(t[k].ns, m[k].ns);
            }
            assert!(!t.contains_key(&(9, 9, 9)));
        }
    }
}
