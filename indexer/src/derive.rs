//! What build-time joins work with: the collections built so far, and the units a derived
//! table's generator is run over. The joins themselves (preparation hooks and generators) are
//! in [`crate::schema`], beside the collections they serve.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};
use varcat_format::adjacency::Adjacency;
use varcat_format::build::keyindex::KeyIndex;
use varcat_format::collection::Collection;
use varcat_format::fstmap::MultiMap;
use varcat_format::keylookup::KeyLookup;
use varcat_format::schema::{system, Handles};

/// What build steps can read: the collections written so far.
#[derive(Default)]
pub struct Ctx {
    /// Collections built before the current one.
    pub built: HashMap<String, Collection>,
    /// Fingerprints of the keys of the built collections that have them, which look-ups of
    /// their keys consult before the key map.
    pub key_indexes: HashMap<String, Arc<KeyIndex>>,
    /// Threads a generator may use (at least 1).
    pub threads: usize,
}

impl Ctx {
    /// Collection `name`, if already built.
    pub fn get(&self, name: &str) -> Option<&Collection> {
        self.built.get(name)
    }

    /// Resolves a handle `collection/key` to its collection and ordinal: from the
    /// collection's key index when the build gave it one (see
    /// [`varcat_format::build::keyindex`]), else from its key map.
    pub fn resolve(&self, handle: &str) -> Option<(&Collection, u64)> {
        let (name, c, key) = self.target(handle)?;
        Some((c, self.ord(name, key)?))
    }

    /// The ordinal of the record of built collection `name` with `_key` = `key`.
    pub fn ord(&self, name: &str, key: &str) -> Option<u64> {
        match self.key_indexes.contains_key(name) {
            true => self.key_lookup(name)?.ord(key),
            false => self.get(name)?.ord(key),
        }
    }

    /// Built collection `name`'s key map, with its key index if it has one.
    pub fn key_lookup(&self, name: &str) -> Option<KeyLookup> {
        self.indexed(name, self.get(name)?.key_lookup()?)
    }

    /// Built collection `name`'s key map as records storing its handles `how` read it (see
    /// [`Collection::key_lookup_for`]), with its key index if it has one.
    pub fn key_lookup_for(&self, name: &str, how: Handles) -> Option<KeyLookup> {
        self.indexed(name, self.get(name)?.key_lookup_for(how)?)
    }

    fn indexed(&self, name: &str, mut lookup: KeyLookup) -> Option<KeyLookup> {
        lookup.index = self.key_indexes.get(name).cloned();
        Some(lookup)
    }

    /// Every handle the ends `ends` of `edges` point at, each once (resolved ones by target, then
    /// the unresolved ones in byte order).
    pub fn end_handles<'c>(
        &'c self,
        edges: &'c Collection,
        ends: &'c [&'c str],
    ) -> impl Iterator<Item = Vec<u8>> + 'c {
        let adj: Vec<&'c Adjacency> = ends.iter().filter_map(|e| edges.adjacency(e)).collect();
        let unresolved: Vec<&MultiMap> = adj.iter().map(|a| a.unresolved()).collect();
        let resolved = adj.clone().into_iter().enumerate().flat_map(move |(i, a)| {
            let earlier = adj[..i].to_vec();
            a.targets().flat_map(move |t| {
                let earlier = earlier.clone();
                let nodes = self.get(t);
                a.nodes(t).filter_map(move |o| {
                    let h = format!("{t}/{}", nodes?.string(o, system::KEY)?);
                    // A handle an earlier end also points at was given there.
                    earlier
                        .iter()
                        .all(|e| e.get(&h).is_none())
                        .then(|| h.into_bytes())
                })
            })
        });
        resolved.chain(MultiMap::keys_in_union(&unresolved))
    }

    /// A handle's collection name, built collection and key.
    fn target<'h>(&self, handle: &'h str) -> Option<(&'h str, &Collection, &'h str)> {
        let (coll, key) = handle.split_once('/')?;
        Some((coll, self.get(coll)?, key))
    }
}

/// A derived table: the units its documents come from, in output order, and the documents of
/// one unit. A unit's documents depend only on the unit and the collections built before, so
/// units are computed on every core, encoded there, and stored in unit order (the table does
/// not depend on the thread count).
#[derive(Clone, Copy)]
pub struct Generator {
    /// The units.
    pub units: for<'c> fn(&'c Ctx) -> Units<'c>,
    /// Appends the documents of one unit.
    pub docs: fn(&Ctx, Unit<'_>, &mut Vec<Map<String, Value>>),
}

/// A derived table's units, in output order.
pub enum Units<'c> {
    /// The ordinals `next..end` of a collection.
    Ords { next: u64, end: u64 },
    /// Keys, in order.
    Keys(Box<dyn Iterator<Item = Vec<u8>> + 'c>),
}

/// One unit.
#[derive(Clone, Copy)]
pub enum Unit<'a> {
    Ord(u64),
    Key(&'a [u8]),
}

/// Units for a worker: ordinals, or keys in one buffer (a `Vec` per key, freed on the worker,
/// would contend with the producing thread's allocations).
pub struct UnitBatch {
    /// The 0-based number of the batch's first unit.
    pub first: u64,
    ords: std::ops::Range<u64>,
    keys: Vec<u8>,
    ends: Vec<usize>,
}

impl Units<'_> {
    /// No units (a table whose sources were not built).
    pub fn none() -> Units<'static> {
        Units::Ords { next: 0, end: 0 }
    }

    /// Ordinals `0..n`.
    pub fn ords(n: u64) -> Units<'static> {
        Units::Ords { next: 0, end: n }
    }

    /// The next at most `max` units, the first being unit number `first`; None when done.
    pub fn next_batch(&mut self, first: u64, max: usize) -> Option<UnitBatch> {
        let mut b = UnitBatch {
            first,
            ords: 0..0,
            keys: Vec::new(),
            ends: Vec::new(),
        };
        match self {
            Units::Ords { next, end } => {
                let take = (*end - *next).min(max as u64);
                b.ords = *next..*next + take;
                *next += take;
            }
            Units::Keys(it) => {
                for k in it.by_ref().take(max) {
                    b.keys.extend_from_slice(&k);
                    b.ends.push(b.keys.len());
                }
            }
        }
        (!b.is_empty()).then_some(b)
    }
}

impl UnitBatch {
    /// Units in the batch.
    pub fn len(&self) -> usize {
        (self.ords.end - self.ords.start) as usize + self.ends.len()
    }

    /// True when it holds no unit.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The units, in order.
    pub fn units(&self) -> impl Iterator<Item = Unit<'_>> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        let keys = starts
            .zip(&self.ends)
            .map(|(a, &b)| Unit::Key(&self.keys[a..b]));
        self.ords.clone().map(Unit::Ord).chain(keys)
    }
}

/// A `json!` object as a map.
pub(crate) fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The units of batches, as (number, unit) pairs.
    fn drain(mut units: Units<'_>, max: usize) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        let mut first = 0;
        while let Some(b) = units.next_batch(first, max) {
            assert!(b.len() <= max && !b.is_empty());
            for (n, u) in (b.first..).zip(b.units()) {
                out.push((
                    n,
                    match u {
                        Unit::Ord(o) => format!("#{o}"),
                        Unit::Key(k) => String::from_utf8(k.to_vec()).unwrap(),
                    },
                ));
            }
            first += b.len() as u64;
        }
        out
    }

    proptest! {
        /// Batches of any size hand out every unit once, in order, numbered from 0.
        #[test]
        fn prop_unit_batches_keep_every_unit_in_order(keys in prop::collection::vec("[a-c]{0,4}", 0..40), n in 0u64..40, max in 1usize..9) {
            let want: Vec<(u64, String)> = (0..).zip(keys.iter().cloned()).collect();
            let it = keys.clone().into_iter().map(String::into_bytes);
            prop_assert_eq!(drain(Units::Keys(Box::new(it)), max), want);
            let want: Vec<(u64, String)> = (0..n).map(|o| (o, format!("#{o}"))).collect();
            prop_assert_eq!(drain(Units::ords(n), max), want);
        }
    }
}
