//! Builds an edge end's ordinal adjacency ([`varcat_format::adjacency`]) from its sorted
//! (handle, edge ordinal) entries: each handle is resolved against the key map of its node
//! collection, built before; handles that do not resolve go to the unresolved map.
//!
//! Handles come in byte order, which for a target in `_key` order is its ordinal order: its
//! (node, list) pairs go straight to a spool. A target whose ordinals come out of order (its
//! records ordered by other members) has its pairs sorted by a [`Sorter`] within the sort
//! budget first. Neither holds a pair per node in memory: at IGVF's size an end pointing at
//! every variant has over a billion.

use std::collections::BTreeMap;
use std::path::PathBuf;

use varcat_format::adjacency::{self, TargetLists};
use varcat_format::bytes::u64_at;
use varcat_format::fstmap::MultiMapBuilder;
use varcat_format::indexes::{IndexKind, IndexName};
use varcat_format::meta::names;
use varcat_format::postings::PostingsWriter;
use varcat_format::spool::Spool;
use varcat_format::width::Width;

use super::feeds::BuiltIndex;
use crate::derive::Ctx;
use crate::error::BuildError;
use crate::sorter::Sorter;
use crate::sortkey::{KeyReader, SortKey};

/// Where an adjacency's per-target spools and sorts go: the build's scratch directory, and
/// the sort budget of one index (what the end's own entries were sorted with). A resorted
/// target's sorter and the end's merge then hold two shares: the half of the sort budget
/// pass 1's reader kept is free once indexes are written (see `Env::sorter`).
pub(crate) struct Scratch {
    pub(crate) dir: PathBuf,
    pub(crate) budget: usize,
    pub(crate) threads: usize,
}

impl Scratch {
    fn spool(&self, tag: &str) -> Result<Spool, BuildError> {
        let p = self.dir.join(tag);
        Spool::file(&p).map_err(|e| BuildError::io(p.display().to_string(), e))
    }
}

/// The sort key of node ordinal `node`.
fn node_key(node: u64) -> Vec<u8> {
    SortKey::new().ord(node).take()
}

/// One target's pairs as they come: spooled while node ordinals ascend, sorted once not.
struct Pending {
    /// Names its spools in the scratch directory.
    tag: String,
    lists: TargetLists,
    last: Option<u64>,
    sorter: Option<Sorter>,
}

impl Pending {
    fn push(&mut self, node: u64, list: u64, scratch: &Scratch) -> Result<(), BuildError> {
        if self.sorter.is_none() && self.last.is_some_and(|l| node <= l) {
            // Out of order: what was spooled goes into a sort, and so does the rest.
            let mut s = Sorter::new(&scratch.dir, scratch.budget).with_threads(scratch.threads);
            let sorted = scratch.spool(&format!("{}.sorted", self.tag))?;
            let (name, nodes) = (self.lists.name.clone(), self.lists.nodes);
            let spooled = std::mem::replace(
                &mut self.lists,
                TargetLists::new(&name, nodes, true, sorted),
            );
            spooled.into_pairs(|n, l| s.push(&node_key(n), &l.to_le_bytes()))?;
            self.sorter = Some(s);
        }
        self.last = Some(node);
        match &mut self.sorter {
            Some(s) => s.push(&node_key(node), &list.to_le_bytes())?,
            None => self.lists.push(node, list)?,
        }
        Ok(())
    }

    /// The pairs in node order.
    fn finish(self) -> Result<TargetLists, BuildError> {
        let mut lists = self.lists;
        if let Some(s) = self.sorter {
            let mut sorted = s.finish()?;
            let (mut k, mut p) = (Vec::new(), Vec::new());
            while sorted.next_into(&mut k, &mut p)? {
                // As `push` gave them: a node's sort key, eight bytes of list address.
                let node = KeyReader::new(&k).ord().unwrap_or_default();
                lists.push(node, u64_at(&p, 0))?;
            }
        }
        Ok(lists)
    }
}

/// Writes adjacency `adj.<field>` of collection `name` into 4 spools (table, its postings,
/// unresolved FST, unresolved postings).
pub(super) fn build(
    name: &str,
    field: &str,
    sorter: Sorter,
    width: Width,
    mut spools: Vec<Spool>,
    ctx: &Ctx,
    scratch: &Scratch,
) -> Result<BuiltIndex, BuildError> {
    let ix = IndexName::new(IndexKind::Adj, field);
    let mut spool = || spools.pop().expect("Feed::spools counts them");
    let (table, post) = (spool(), spool());
    let mut postings = PostingsWriter::with_width(post, width);
    let mut unresolved = MultiMapBuilder::with_width(
        spool(),
        spool(),
        &names::adj_unresolved_fst(name, &ix),
        width,
    )?;
    let mut targets: BTreeMap<String, Pending> = BTreeMap::new();
    let mut add = |handle: &[u8], ords: &[u64]| -> Result<(), BuildError> {
        let text = std::str::from_utf8(handle).ok();
        let Some((coll, key)) = text.and_then(|h| h.split_once('/')) else {
            return Ok(unresolved.insert(handle, ords)?);
        };
        let lookup = ctx.get(coll).and_then(|c| c.key_lookup());
        if !targets.contains_key(coll) {
            let tag = format!("adj-{name}-{field}-{}", targets.len());
            let lists = TargetLists::new(
                coll,
                lookup.as_ref().map_or(0, |k| k.len),
                lookup.is_some(),
                scratch.spool(&tag)?,
            );
            let p = Pending {
                tag,
                lists,
                last: None,
                sorter: None,
            };
            targets.insert(coll.to_string(), p);
        }
        let t = targets.get_mut(coll).expect("inserted above");
        // Without a key map the target stays handle-only; a key it lacks is dangling.
        match lookup.and_then(|k| k.ord(key)) {
            Some(o) => t.push(o, postings.push(ords)?, scratch)?,
            None => unresolved.insert(handle, ords)?,
        }
        Ok(())
    };
    super::feeds::for_each_value(sorter, &mut add)?;
    let mut targets = targets
        .into_values()
        .map(Pending::finish)
        .collect::<Result<Vec<_>, _>>()?;
    let table = adjacency::write(table, &mut targets)?;
    let (ufst, upost) = unresolved.finish()?;
    Ok((
        ix.to_string(),
        vec![
            (names::index(name, &ix), table),
            (names::adj_post(name, &ix), postings.into_inner()),
            (names::adj_unresolved_fst(name, &ix), ufst),
            (names::adj_unresolved_post(name, &ix), upost),
        ],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(budget: usize) -> (Scratch, PathBuf) {
        let dir = std::env::temp_dir().join(format!("varcat-adj-{}-{budget}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let s = Scratch {
            dir: dir.clone(),
            budget,
            threads: 2,
        };
        (s, dir)
    }

    /// Pairs come out in node order whether they came in order, out of it from the start or
    /// after a spooled run, and with a sort budget small enough to spill.
    #[test]
    fn test_pending_lists_come_out_in_node_order() {
        for budget in [1 << 12, 1 << 20] {
            let (s, dir) = scratch(budget);
            let inputs: [Vec<u64>; 3] = [
                (0..5000).map(|i| i * 3).collect(),
                (0..5000).rev().collect(),
                (0..2500)
                    .chain((2500..5000).map(|i| 7500 - i))
                    .chain(5001..6000)
                    .collect(),
            ];
            for (i, nodes) in inputs.iter().enumerate() {
                let lists = TargetLists::new("t", 20_000, true, s.spool(&format!("t{i}")).unwrap());
                let mut p = Pending {
                    tag: format!("t{i}"),
                    lists,
                    last: None,
                    sorter: None,
                };
                for &n in nodes {
                    p.push(n, n * 10, &s).unwrap();
                }
                assert_eq!(p.sorter.is_some(), i > 0);
                let mut got = Vec::new();
                p.finish()
                    .unwrap()
                    .into_pairs(|n, l| {
                        got.push((n, l));
                        Ok(())
                    })
                    .unwrap();
                let mut want: Vec<(u64, u64)> = nodes.iter().map(|&n| (n, n * 10)).collect();
                want.sort_unstable();
                assert_eq!(got, want, "input {i}, budget {budget}");
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
