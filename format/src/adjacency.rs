//! Ordinal adjacency of an edge end (`adj._from`, `adj._to`): for each node collection the end
//! points into, the edges of each node ordinal, so a join from known nodes reads a list without
//! building a handle or walking an FST (FORMAT.md "Adjacency").
//!
//! Section `<c>.adj.<end>`: one part per target collection, then the target table, the names
//! and the trailer. A part is `DENS` (a list address per node ordinal, [`NONE`] for none) or
//! `SPAR` (sorted node ordinals, their list addresses and fences), whichever is smaller; a
//! `HNDL` target has no part: its handles are only in the unresolved map. List addresses are
//! [`crate::postings`] values into `<c>.adj.<end>.post`. Handles that name no stored node
//! (dangling, or a collection without a key map) are in the multimap
//! `<c>.adj.<end>.unresolved.{fst,post}`, handle → edge ordinals.

use std::io::{Read, Write};

use crate::arrays::{U32s, U64s};
use crate::bytes::{pad8, u32_at, u64_at, Bytes};
use crate::error::{ReadError, WriteError};
use crate::fstmap::MultiMap;
use crate::keylookup::KeyLookup;
use crate::postings::{List, Postings};
use crate::spool::Spool;
use crate::width::Width;

const TAG: [u8; 4] = *b"ADJ1";
const TRAILER: usize = 32;
const ENTRY: usize = 32;
const DENSE: [u8; 4] = *b"DENS";
const SPARSE: [u8; 4] = *b"SPAR";
const HANDLES: [u8; 4] = *b"HNDL";

/// A dense part's value for a node without edges.
pub const NONE: u64 = u64::MAX;

/// Node ordinals per fence of a sparse part: 1024 × 4 bytes = one 4 KiB page per block.
pub const FENCE: usize = 1024;

/// One target's nodes with edges, as the writer takes them: (node ordinal, list address)
/// pairs in a spool (16 little-endian bytes each, node ordinals strictly ascending), so that
/// an end pointing at every variant of the catalog is not held in memory.
pub struct TargetLists {
    /// The node collection.
    pub name: String,
    /// Its record count (the length of a dense part).
    pub nodes: u64,
    /// False when its handles could not be resolved (no key map when the edges were built):
    /// written as `HNDL`, its handles all in the unresolved map.
    pub resolved: bool,
    pairs: Spool,
    count: u64,
}

impl TargetLists {
    /// An empty list of `name`'s nodes, spooled to `pairs`.
    pub fn new(name: &str, nodes: u64, resolved: bool, pairs: Spool) -> TargetLists {
        TargetLists {
            name: name.to_string(),
            nodes,
            resolved,
            pairs,
            count: 0,
        }
    }

    /// Held in memory (tests and small tables): `lists` as given, checked by [`write`].
    pub fn in_memory(name: &str, nodes: u64, resolved: bool, lists: &[(u64, u64)]) -> TargetLists {
        let mut t = TargetLists::new(name, nodes, resolved, Spool::memory());
        for &(node, list) in lists {
            t.push(node, list).expect("writing to memory cannot fail");
        }
        t
    }

    /// Appends node `node`'s list address (node ordinals must ascend: [`write`] checks).
    pub fn push(&mut self, node: u64, list: u64) -> std::io::Result<()> {
        self.pairs.write_all(&node.to_le_bytes())?;
        self.pairs.write_all(&list.to_le_bytes())?;
        self.count += 1;
        Ok(())
    }

    /// Pairs pushed.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// True when no pair was pushed.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Calls `f(node, list)` for each pair in the order pushed; an error when the node
    /// ordinals do not strictly ascend or reach past the collection.
    fn for_each(
        &mut self,
        mut f: impl FnMut(u64, u64) -> Result<(), WriteError>,
    ) -> Result<(), WriteError> {
        let mut r = self.pairs.reader()?;
        let mut pair = [0u8; 16];
        let mut next = 0u64;
        for _ in 0..self.count {
            r.read_exact(&mut pair)?;
            let (node, list) = (u64_at(&pair, 0), u64_at(&pair, 8));
            if node < next || node >= self.nodes {
                return Err(out_of_order(&self.name));
            }
            next = node + 1;
            f(node, list)?;
        }
        Ok(())
    }
}

/// The error for a target's node ordinals the writer cannot take.
fn out_of_order(target: &str) -> WriteError {
    WriteError::Invalid(format!(
        "adjacency of {target}: node ordinals out of order or range"
    ))
}

/// Writes `n` copies of [`NONE`].
fn write_none<W: Write>(out: &mut W, mut n: u64) -> Result<(), WriteError> {
    const RUN: [u8; 4096] = [0xFF; 4096];
    while n > 0 {
        let k = n.min(RUN.len() as u64 / 8);
        out.write_all(&RUN[..8 * k as usize])?;
        n -= k;
    }
    Ok(())
}

/// Writes the table section from each target's lists (targets in name order).
pub fn write<W: Write>(mut out: W, targets: &mut [TargetLists]) -> Result<W, WriteError> {
    if targets.windows(2).any(|w| w[0].name >= w[1].name) {
        return Err(WriteError::Invalid("adjacency targets out of order".into()));
    }
    let mut at = 0u64;
    let mut rows = Vec::with_capacity(targets.len());
    for t in targets.iter_mut() {
        if !t.resolved && !t.is_empty() {
            return Err(out_of_order(&t.name));
        }
        let start = at;
        let k = t.len();
        let (tag, count) = if !t.resolved {
            (HANDLES, 0)
        } else if 8 * t.nodes <= 12 * k {
            let mut next = 0;
            t.for_each(|n, v| {
                write_none(&mut out, n - next)?;
                out.write_all(&v.to_le_bytes())?;
                next = n + 1;
                Ok(())
            })?;
            write_none(&mut out, t.nodes - next)?;
            at += 8 * t.nodes;
            (DENSE, t.nodes)
        } else {
            // A sparse part spells node ordinals in 4 bytes: no collection an edge points at
            // is wide (only LD is, and nothing refers to its records).
            let name = t.name.clone();
            let narrow = |n: u64| {
                u32::try_from(n).map_err(|_| {
                    WriteError::Invalid(format!(
                        "adjacency of {name}: node ordinal {n} past 2^32 in a sparse part"
                    ))
                })
            };
            // Every FENCE-th node ordinal, gathered on the first of the two passes.
            let mut fences = Vec::with_capacity(k.div_ceil(FENCE as u64) as usize);
            let mut i = 0u64;
            t.for_each(|n, _| {
                let n = narrow(n)?;
                out.write_all(&n.to_le_bytes())?;
                if i.is_multiple_of(FENCE as u64) {
                    fences.push(n);
                }
                i += 1;
                Ok(())
            })?;
            at += pad_to(&mut out, 4 * k as usize)?;
            t.for_each(|_, v| Ok(out.write_all(&v.to_le_bytes())?))?;
            at += 8 * k;
            for f in &fences {
                out.write_all(&f.to_le_bytes())?;
            }
            at += pad_to(&mut out, 4 * fences.len())?;
            (SPARSE, k)
        };
        rows.push((tag, count, start));
    }
    let table_offset = at;
    let mut name_at = 0u64;
    for ((tag, count, start), t) in rows.iter().zip(targets.iter()) {
        out.write_all(tag)?;
        out.write_all(&(t.name.len() as u32).to_le_bytes())?;
        for v in [*count, *start, name_at] {
            out.write_all(&v.to_le_bytes())?;
        }
        name_at += t.name.len() as u64;
    }
    let names_offset = table_offset + (ENTRY * targets.len()) as u64;
    for t in targets.iter() {
        out.write_all(t.name.as_bytes())?;
    }
    pad_to(&mut out, name_at as usize)?;
    for v in [targets.len() as u64, table_offset, names_offset] {
        out.write_all(&v.to_le_bytes())?;
    }
    out.write_all(&TAG)?;
    out.write_all(&0u32.to_le_bytes())?;
    Ok(out)
}

/// Writes `n` bytes' worth of padding to 8; returns the padded length.
fn pad_to<W: Write>(out: &mut W, n: usize) -> Result<u64, WriteError> {
    out.write_all(&[0u8; 8][..pad8(n) - n])?;
    Ok(pad8(n) as u64)
}

/// How a target's node ordinals find their lists.
#[derive(Clone, Debug)]
enum Part {
    Dense(U64s),
    Sparse {
        nodes: U32s,
        values: U64s,
        fences: U32s,
    },
    Handles,
}

#[derive(Clone)]
struct Target {
    name: String,
    part: Part,
    key: Option<KeyLookup>,
}

/// A read view of one edge end's adjacency.
#[derive(Clone)]
pub struct Adjacency {
    targets: Vec<Target>,
    postings: Postings,
    unresolved: MultiMap,
}

impl Adjacency {
    /// Opens the table, its postings and the unresolved map (FST, postings), lists of 4-byte
    /// ordinals.
    pub fn open(
        table: Bytes,
        postings: Bytes,
        unresolved: MultiMap,
        section: &str,
    ) -> Result<Adjacency, ReadError> {
        Adjacency::open_with_width(table, postings, unresolved, section, Width::Narrow)
    }

    /// Opens an adjacency whose lists hold edge ordinals of `width` (the edge collection's).
    pub fn open_with_width(
        table: Bytes,
        postings: Bytes,
        unresolved: MultiMap,
        section: &str,
        width: Width,
    ) -> Result<Adjacency, ReadError> {
        let b = table.as_ref();
        if b.len() < TRAILER {
            return Err(ReadError::truncated(format!(
                "section {section}: adjacency trailer"
            )));
        }
        let t = b.len() - TRAILER;
        if b[t + 24..t + 28] != TAG {
            return Err(ReadError::invalid(section, "not an adjacency"));
        }
        let [n, table_offset, names_offset] = [0, 8, 16].map(|o| u64_at(b, t + o));
        let bad = |what: &str| ReadError::invalid(section, what.to_string());
        let table_end = n
            .checked_mul(ENTRY as u64)
            .and_then(|x| x.checked_add(table_offset))
            .filter(|&e| e == names_offset && e <= t as u64)
            .ok_or_else(|| bad("inconsistent sizes"))?;
        let names = &b[table_end as usize..t];
        let mut targets: Vec<Target> = Vec::with_capacity(n as usize);
        for i in 0..n as usize {
            let r = table_offset as usize + i * ENTRY;
            let tag: [u8; 4] = b[r..r + 4].try_into().expect("4");
            let name_len = u32_at(b, r + 4) as u64;
            let [count, start, name_at] = [8, 16, 24].map(|o| u64_at(b, r + o));
            let name = name_at
                .checked_add(name_len)
                .filter(|&e| e <= names.len() as u64)
                .and_then(|e| std::str::from_utf8(&names[name_at as usize..e as usize]).ok())
                .ok_or_else(|| bad("target name"))?
                .to_string();
            if targets.last().is_some_and(|p| p.name >= name) {
                return Err(bad("targets out of order"));
            }
            let slice = |from: u64, len: u64| {
                from.checked_add(len)
                    .filter(|&e| e <= table_offset)
                    .and_then(|e| table.slice(from as usize..e as usize))
                    .ok_or_else(|| bad(&format!("part of {name} out of bounds")))
            };
            let count_usize = usize::try_from(count).map_err(|_| bad("part size"))?;
            let part = match tag {
                DENSE => Part::Dense(U64s::new(
                    slice(start, count.saturating_mul(8))?,
                    count_usize,
                    section,
                )?),
                SPARSE => {
                    let nb = count_usize
                        .checked_mul(4)
                        .and_then(|x| x.checked_add(7))
                        .map(|x| (x & !7) as u64)
                        .ok_or_else(|| bad("part size"))?;
                    let nf = count_usize.div_ceil(FENCE);
                    Part::Sparse {
                        nodes: U32s::new(slice(start, nb)?, count_usize, section)?,
                        values: U64s::new(
                            slice(start.saturating_add(nb), count.saturating_mul(8))?,
                            count_usize,
                            section,
                        )?,
                        fences: U32s::new(
                            slice(
                                start.saturating_add(nb).saturating_add(count * 8),
                                4 * nf as u64,
                            )?,
                            nf,
                            section,
                        )?,
                    }
                }
                HANDLES => Part::Handles,
                _ => return Err(bad("unknown part kind")),
            };
            targets.push(Target {
                name,
                part,
                key: None,
            });
        }
        Ok(Adjacency {
            targets,
            postings: Postings::with_width(postings, width),
            unresolved,
        })
    }

    /// Gives the adjacency the key map of its target `name`, so handles of it resolve to
    /// ordinals (without one they are looked up in the unresolved map only).
    pub fn link(&mut self, name: &str, key: KeyLookup) {
        if let Some(t) = self.targets.iter_mut().find(|t| t.name == name) {
            t.key = Some(key);
        }
    }

    /// The target collections' names.
    pub fn targets(&self) -> impl Iterator<Item = &str> {
        self.targets.iter().map(|t| t.name.as_str())
    }

    fn target(&self, name: &str) -> Option<&Target> {
        self.targets.iter().find(|t| t.name == name)
    }

    /// The edges pointing at record `ord` of collection `target` (None when none do).
    pub fn of(&self, target: &str, ord: u64) -> Option<List> {
        let t = self.target(target)?;
        let v = match &t.part {
            Part::Dense(values) => usize::try_from(ord)
                .ok()
                .filter(|&i| i < values.len())
                .map(|i| values.get(i))
                .filter(|&v| v != NONE)?,
            Part::Sparse {
                nodes,
                values,
                fences,
            } => {
                let ord = u32::try_from(ord).ok()?;
                // Fence j holds the node of entry j*FENCE: the node lies in block j-1.
                let j = fences.partition_point_in(0, fences.len(), |f| f <= ord);
                let lo = j.checked_sub(1)? * FENCE;
                let hi = (j * FENCE).min(nodes.len());
                let i = nodes.partition_point_in(lo, hi, |n| n < ord);
                (i < hi && nodes.get(i) == ord).then(|| values.get(i))?
            }
            Part::Handles => return None,
        };
        Some(self.postings.list(v))
    }

    /// True when the handles of `target` are only in the unresolved map (its records had no
    /// key map when the edges were built): callers ask [`Self::get`] by handle.
    pub fn by_handle_only(&self, target: &str) -> bool {
        self.target(target)
            .is_some_and(|t| matches!(t.part, Part::Handles))
    }

    /// The edges whose end is handle `h` (`collection/key`).
    pub fn get(&self, h: &str) -> Option<List> {
        if let Some((coll, key)) = h.split_once('/') {
            if let Some(t) = self.target(coll) {
                if let (Some(k), false) = (&t.key, matches!(t.part, Part::Handles)) {
                    // A key the target does not hold is dangling: the unresolved map has it.
                    if let Some(o) = k.ord(key) {
                        return self.of(coll, o);
                    }
                }
            }
        }
        self.unresolved.get(h.as_bytes())
    }

    /// The ordinals of `target`'s records some edge points at, ascending.
    pub fn nodes(&self, target: &str) -> Box<dyn Iterator<Item = u64> + '_> {
        match self.target(target).map(|t| &t.part) {
            Some(Part::Dense(values)) => Box::new(
                (0..values.len())
                    .filter(|&i| values.get(i) != NONE)
                    .map(|i| i as u64),
            ),
            Some(Part::Sparse { nodes, .. }) => {
                Box::new((0..nodes.len()).map(|i| u64::from(nodes.get(i))))
            }
            _ => Box::new(std::iter::empty()),
        }
    }

    /// The unresolved map (handle → edge ordinals).
    pub fn unresolved(&self) -> &MultiMap {
        &self.unresolved
    }
}
