//! FST maps from byte-string keys to ordinals.
//!
//! [`KeyMap`] maps unique keys to one u64 (a record ordinal). [`MultiMap`] maps keys to sorted
//! ordinal lists: its FST value is a [`postings`](crate::postings) address. Keys are inserted in
//! byte order; the builders refuse anything else.
//!
//! `fst` may panic on corrupt bytes (BurntSushi/fst#57), so FST sections are checksummed before
//! use and lookups run inside the server's panic boundary.

use std::io::Write;

use fst::automaton::{Automaton, Levenshtein, Str};
use fst::{IntoStreamer, Streamer};

use crate::bytes::Bytes;
use crate::error::{ReadError, WriteError};
use crate::keys::KeyEncoding;
use crate::postings::{List, Postings, PostingsWriter};
use crate::width::Width;

/// Longest key [`KeyMap::key_of`] descends to (bytes): far above any identifier.
const MAX_KEY_DEPTH: usize = 1 << 16;

/// Query strings longer than this are never fuzzed (the automaton would grow too big).
pub const MAX_FUZZY_QUERY: usize = 64;

/// The keys of a union of [`MultiMap`]s (see [`MultiMap::keys_in_union`]).
pub struct UnionKeys<'m>(fst::map::Union<'m>);

impl Iterator for UnionKeys<'_> {
    type Item = Vec<u8>;

    fn next(&mut self) -> Option<Vec<u8>> {
        self.0.next().map(|(k, _)| k.to_vec())
    }
}

/// A unique key → u64 map.
#[derive(Clone)]
pub struct KeyMap {
    map: fst::Map<Bytes>,
}

impl KeyMap {
    /// Opens FST bytes (cheap structural check only).
    pub fn open(bytes: Bytes, section: &str) -> Result<KeyMap, ReadError> {
        let map =
            fst::Map::new(bytes).map_err(|e| ReadError::invalid(section, format!("fst: {e}")))?;
        Ok(KeyMap { map })
    }

    /// An empty map.
    pub fn empty() -> KeyMap {
        let bytes = fst::MapBuilder::memory().into_inner().expect("empty fst");
        KeyMap {
            map: fst::Map::new(Bytes::from_vec(bytes)).expect("empty fst"),
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &[u8]) -> Option<u64> {
        self.map.get(key)
    }

    /// The key whose value is `v`, in a map whose values ascend with their keys (a key map:
    /// records are stored in key order, so an ordinal is its key's rank). None when no key has
    /// that value. Costs one node per key byte, like [`Self::get`]: the FST keeps on each
    /// transition the least value below it (outputs are pushed towards the root), so the
    /// descent takes, at each node, the last transition whose sum does not pass `v`. In a map
    /// whose values do not ascend the answer is None or a key that [`Self::get`] disagrees
    /// with; a caller that cannot trust the order checks it (the check costs one `get`).
    pub fn key_of(&self, v: u64) -> Option<Vec<u8>> {
        let fst = self.map.as_fst();
        let mut node = fst.root();
        let mut acc = 0u64;
        let mut key = Vec::new();
        // A bound against corrupt bytes.
        for _ in 0..=MAX_KEY_DEPTH {
            if node.is_final() && acc.checked_add(node.final_output().value())? == v {
                return Some(key);
            }
            // Transitions ascend by byte and, in such a map, by output: binary search.
            let (mut lo, mut hi) = (0, node.len());
            while lo < hi {
                let mid = (lo + hi) / 2;
                if acc.checked_add(node.transition(mid).out.value())? <= v {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            let t = node.transition(lo.checked_sub(1)?);
            acc += t.out.value();
            key.push(t.inp);
            node = fst.node(t.addr);
        }
        None
    }

    /// A lookup cursor for many keys (see [`Lookups`]).
    pub fn lookups(&self) -> Lookups<'_> {
        let fst = self.map.as_fst();
        // Room for the usual key (identifiers run to a few dozen bytes) without regrowing.
        let mut path = Vec::with_capacity(64);
        path.push((fst.root(), fst::raw::Output::zero()));
        Lookups {
            fst,
            walked: Vec::with_capacity(64),
            path,
        }
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Values of keys starting with `prefix`, in key order.
    pub fn prefix(&self, prefix: &[u8]) -> Vec<u64> {
        let Ok(p) = std::str::from_utf8(prefix) else {
            return Vec::new();
        };
        self.search(Str::new(p).starts_with())
    }

    /// Values of keys starting with `prefix` when ASCII letters are compared without case, in
    /// key order (other bytes compare exactly).
    pub fn prefix_ignoring_ascii_case(&self, prefix: &[u8]) -> Vec<u64> {
        self.search(AsciiNoCasePrefix(prefix))
    }

    /// Values of keys within Levenshtein distance `dist` of `query`, in key order. A query too
    /// long or an automaton too big is a miss, never an error.
    pub fn fuzzy(&self, query: &str, dist: u32) -> Vec<u64> {
        if query.len() > MAX_FUZZY_QUERY {
            return Vec::new();
        }
        match Levenshtein::new(query, dist) {
            Ok(aut) => self.search(aut),
            Err(_) => Vec::new(),
        }
    }

    fn search<A: Automaton>(&self, aut: A) -> Vec<u64> {
        let mut out = Vec::new();
        let mut s = self.map.search(aut).into_stream();
        while let Some((_, v)) = s.next() {
            out.push(v);
        }
        out
    }

    /// Calls `f` with every (key, value) pair in key order, without collecting them.
    pub fn for_each(&self, mut f: impl FnMut(&[u8], u64)) {
        let mut s = self.map.stream();
        while let Some((k, v)) = s.next() {
            f(k, v);
        }
    }

    /// Every (key, value) pair in order (tests, dumps).
    pub fn entries(&self) -> Vec<(Vec<u8>, u64)> {
        let mut out = Vec::new();
        let mut s = self.map.stream();
        while let Some((k, v)) = s.next() {
            out.push((k.to_vec(), v));
        }
        out
    }
}

/// Keys starting with a prefix, ASCII letters compared without case: an exact-value index
/// answers a case-insensitive prefix search without a folded copy of its keys. The state is
/// the number of prefix bytes matched, `None` once a byte differs.
struct AsciiNoCasePrefix<'p>(&'p [u8]);

impl Automaton for AsciiNoCasePrefix<'_> {
    type State = Option<usize>;

    fn start(&self) -> Option<usize> {
        Some(0)
    }

    fn is_match(&self, state: &Option<usize>) -> bool {
        *state == Some(self.0.len())
    }

    fn can_match(&self, state: &Option<usize>) -> bool {
        state.is_some()
    }

    fn will_always_match(&self, state: &Option<usize>) -> bool {
        *state == Some(self.0.len())
    }

    fn accept(&self, state: &Option<usize>, byte: u8) -> Option<usize> {
        let i = (*state)?;
        match self.0.get(i) {
            None => Some(i),
            Some(b) if b.eq_ignore_ascii_case(&byte) => Some(i + 1),
            Some(_) => None,
        }
    }
}

/// Successive lookups in one [`KeyMap`] that share work: each walk starts from the deepest node
/// its key shares with the previous key instead of from the root, so neighbouring keys (the
/// handles of a region's variants, 30-odd bytes of which the first 25 are shared) decode their
/// common nodes once. Any key order gives the same answers as [`KeyMap::get`]; sorted or
/// clustered keys share the most.
pub struct Lookups<'m> {
    fst: &'m fst::raw::Fst<Bytes>,
    /// The previous key's bytes walked so far (`path` holds one node more than this).
    walked: Vec<u8>,
    /// The nodes along `walked`, from the root, each with the output accumulated before it.
    path: Vec<(fst::raw::Node<'m>, fst::raw::Output)>,
}

impl Lookups<'_> {
    /// The value of `key`, as [`KeyMap::get`].
    pub fn get(&mut self, key: &[u8]) -> Option<u64> {
        let shared = self
            .walked
            .iter()
            .zip(key)
            .take_while(|(a, b)| a == b)
            .count();
        self.walked.truncate(shared);
        self.path.truncate(shared + 1);
        for &b in &key[shared..] {
            let (node, out) = *self.path.last().expect("the root is never popped");
            let t = node.transition(node.find_input(b)?);
            self.path.push((self.fst.node(t.addr), out.cat(t.out)));
            self.walked.push(b);
        }
        let (node, out) = *self.path.last().expect("the root is never popped");
        node.is_final()
            .then(|| out.cat(node.final_output()).value())
    }
}

/// Builds a [`KeyMap`] into any writer.
pub struct KeyMapBuilder<W: Write> {
    b: fst::MapBuilder<W>,
    section: String,
}

impl<W: Write> KeyMapBuilder<W> {
    /// Starts a minimal map written to `out`; `section` names it in errors.
    pub fn new(out: W, section: &str) -> Result<KeyMapBuilder<W>, WriteError> {
        KeyMapBuilder::for_encoding(out, section, KeyEncoding::Text)
    }

    /// Starts a key map whose keys are stored in `encoding`. Packed hex keys are digests in
    /// practice, whose suffixes are (almost) never equal: their map is built without suffix
    /// sharing (patched `fst`, vendor/fst/PATCHED.md), which saves looking every node up in a
    /// registry that finds nothing, the costliest part of building such a map.
    pub fn for_encoding(
        out: W,
        section: &str,
        encoding: KeyEncoding,
    ) -> Result<KeyMapBuilder<W>, WriteError> {
        let b = match encoding {
            KeyEncoding::Text => fst::MapBuilder::new(out),
            KeyEncoding::Hex => fst::MapBuilder::new_without_suffix_sharing(out),
        }
        .map_err(|e| fst_err(section, e))?;
        Ok(KeyMapBuilder {
            b,
            section: section.to_string(),
        })
    }

    /// Inserts the next key (strictly greater than the previous one).
    pub fn insert(&mut self, key: &[u8], value: u64) -> Result<(), WriteError> {
        self.b
            .insert(key, value)
            .map_err(|e| fst_err(&self.section, e))
    }

    /// Finishes the FST and returns the writer.
    pub fn finish(self) -> Result<W, WriteError> {
        let section = self.section;
        self.b.into_inner().map_err(|e| fst_err(&section, e))
    }
}

fn unsorted(key: &[u8]) -> WriteError {
    WriteError::Invalid(format!(
        "postings for key {:?} must be non-empty and strictly ascending",
        String::from_utf8_lossy(key)
    ))
}

fn fst_err(section: &str, source: fst::Error) -> WriteError {
    WriteError::Fst {
        section: section.to_string(),
        source,
    }
}

/// A key → sorted ordinal list map (FST + postings).
#[derive(Clone)]
pub struct MultiMap {
    keys: KeyMap,
    postings: Postings,
}

impl MultiMap {
    /// Opens the FST and postings sections of one map (narrow postings).
    pub fn open(fst: Bytes, postings: Bytes, section: &str) -> Result<MultiMap, ReadError> {
        MultiMap::open_with_width(fst, postings, section, Width::Narrow)
    }

    /// Opens the FST and postings sections of one map whose postings are of `width`.
    pub fn open_with_width(
        fst: Bytes,
        postings: Bytes,
        section: &str,
        width: Width,
    ) -> Result<MultiMap, ReadError> {
        Ok(MultiMap {
            keys: KeyMap::open(fst, section)?,
            postings: Postings::with_width(postings, width),
        })
    }

    /// An empty map.
    pub fn empty() -> MultiMap {
        MultiMap {
            keys: KeyMap::empty(),
            postings: Postings::empty(),
        }
    }

    /// The list of `key`.
    pub fn get(&self, key: &[u8]) -> Option<List> {
        self.keys.get(key).map(|v| self.postings.list(v))
    }

    /// A lookup cursor for many keys: `get` as [`MultiMap::get`], sharing the walk of common
    /// prefixes (see [`Lookups`]).
    pub fn lookups(&self) -> MultiLookups<'_> {
        MultiLookups {
            keys: self.keys.lookups(),
            postings: &self.postings,
        }
    }

    /// Lists of every key starting with `prefix`.
    pub fn prefix(&self, prefix: &[u8]) -> Vec<List> {
        self.keys
            .prefix(prefix)
            .into_iter()
            .map(|v| self.postings.list(v))
            .collect()
    }

    /// Lists of every key starting with `prefix`, ASCII letters compared without case.
    pub fn prefix_ignoring_ascii_case(&self, prefix: &[u8]) -> Vec<List> {
        self.keys
            .prefix_ignoring_ascii_case(prefix)
            .into_iter()
            .map(|v| self.postings.list(v))
            .collect()
    }

    /// Lists of every key within edit distance `dist` of `query`.
    pub fn fuzzy(&self, query: &str, dist: u32) -> Vec<List> {
        self.keys
            .fuzzy(query, dist)
            .into_iter()
            .map(|v| self.postings.list(v))
            .collect()
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Calls `f(key, list)` for every key in byte order, streaming (constant memory).
    pub fn for_each(&self, mut f: impl FnMut(&[u8], List)) {
        let mut s = self.keys.map.stream();
        while let Some((k, v)) = s.next() {
            f(k, self.postings.list(v));
        }
    }

    /// Every key present in any of `maps`, once, in byte order, streamed (never all in memory).
    pub fn keys_in_union<'m>(maps: &[&'m MultiMap]) -> UnionKeys<'m> {
        let mut op = fst::map::OpBuilder::new();
        for m in maps {
            op = op.add(m.keys.map.stream());
        }
        UnionKeys(op.union())
    }

    /// Every (key, list) pair (tests, dumps).
    pub fn entries(&self) -> Vec<(Vec<u8>, Vec<u64>)> {
        self.keys
            .entries()
            .into_iter()
            .map(|(k, v)| (k, self.postings.list(v).iter().collect()))
            .collect()
    }
}

/// Successive lookups in one [`MultiMap`] (see [`Lookups`]).
pub struct MultiLookups<'m> {
    keys: Lookups<'m>,
    postings: &'m Postings,
}

impl MultiLookups<'_> {
    /// The list of `key`, as [`MultiMap::get`].
    pub fn get(&mut self, key: &[u8]) -> Option<List> {
        self.keys.get(key).map(|v| self.postings.list(v))
    }
}

/// Builds a [`MultiMap`]: the FST goes to one writer and the postings blob to another (two
/// sections cannot be streamed into one catalog at once, so the caller spools one of them).
pub struct MultiMapBuilder<F: Write, P: Write> {
    keys: KeyMapBuilder<F>,
    postings: PostingsWriter<P>,
}

impl<F: Write, P: Write> MultiMapBuilder<F, P> {
    /// Starts a map with narrow postings.
    pub fn new(
        fst_out: F,
        postings_out: P,
        section: &str,
    ) -> Result<MultiMapBuilder<F, P>, WriteError> {
        MultiMapBuilder::with_width(fst_out, postings_out, section, Width::Narrow)
    }

    /// Starts a map with postings of `width`.
    pub fn with_width(
        fst_out: F,
        postings_out: P,
        section: &str,
        width: Width,
    ) -> Result<MultiMapBuilder<F, P>, WriteError> {
        Ok(MultiMapBuilder {
            keys: KeyMapBuilder::new(fst_out, section)?,
            postings: PostingsWriter::with_width(postings_out, width),
        })
    }

    /// Inserts the next key with its strictly ascending, non-empty ordinal list.
    /// (Each within the map's width.)
    pub fn insert(&mut self, key: &[u8], values: &[u64]) -> Result<(), WriteError> {
        if values.is_empty() || values.windows(2).any(|w| w[0] >= w[1]) {
            return Err(unsorted(key));
        }
        let v = self.postings.push(values)?;
        self.keys.insert(key, v)
    }

    /// Finishes both parts.
    pub fn finish(self) -> Result<(F, P), WriteError> {
        Ok((self.keys.finish()?, self.postings.into_inner()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_prefix_ignoring_ascii_case() {
        let mut b = KeyMapBuilder::new(Vec::new(), "t").unwrap();
        let keys: [&[u8]; 6] = [
            b"KRT17_HUMAN",
            b"KRT18_HUMAN",
            b"Krt17_MOUSE",
            b"PAK5_HUMAN",
            b"kr\xc3\xa9",
            b"krt",
        ];
        let mut sorted = keys;
        sorted.sort_unstable();
        for (i, k) in sorted.iter().enumerate() {
            b.insert(k, i as u64).unwrap();
        }
        let map = KeyMap::open(Bytes::from_vec(b.finish().unwrap()), "t").unwrap();
        let keys_of = |p: &[u8]| -> Vec<&[u8]> {
            map.prefix_ignoring_ascii_case(p)
                .into_iter()
                .map(|v| sorted[v as usize])
                .collect()
        };
        assert_eq!(keys_of(b"krt17"), vec![&b"KRT17_HUMAN"[..], b"Krt17_MOUSE"]);
        assert_eq!(
            keys_of(b"KRT").len(),
            4,
            "krt itself and the three KRT names"
        );
        // Only ASCII letters fold: the accented byte must match exactly.
        assert_eq!(keys_of("KRÉ".as_bytes()), Vec::<&[u8]>::new());
        assert_eq!(keys_of("kré".as_bytes()), vec!["kré".as_bytes()]);
        assert_eq!(keys_of(b"").len(), 6);
        assert!(keys_of(b"nope").is_empty());
    }
}
