//! Builds an edge end's ordinal adjacency ([`varcat_format::adjacency`]) from its sorted
//! entries ([`entry`]): a handle the extraction resolved against its node collection (built
//! before) comes as (target, node ordinal, edge ordinal), one that did not as (handle, edge
//! ordinal), after them; those go to the unresolved map.
//!
//! Resolved entries come in node order, so each target's (node, list) pairs go straight to a
//! spool ([`TargetLists`] refuses them out of order), without a pair per node in memory: at
//! IGVF's size an end pointing at every variant has over a billion. (Entries by handle came in
//! handle order, which is not node order for a target ordered by other members: such a
//! target's pairs needed a second sort.)

use std::collections::BTreeMap;
use std::path::PathBuf;

use varcat_format::adjacency::{self, TargetLists};
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

/// Where an adjacency's per-target spools go: the build's scratch directory.
pub(crate) struct Scratch {
    pub(crate) dir: PathBuf,
}

impl Scratch {
    fn spool(&self, tag: &str) -> Result<Spool, BuildError> {
        let p = self.dir.join(tag);
        Spool::file(&p).map_err(|e| BuildError::io(p.display().to_string(), e))
    }
}

/// Appends the index entry of `handle`, an end of edge `edge`, to `k`: by target and node
/// ordinal when it resolved to `node`, else by handle after every resolved one. The entries
/// used to carry the handle whatever it was: a 10M build's LD ends sorted 76 million keys of
/// about 40 bytes (half of them the handle), and the build looked each handle up again.
pub(super) fn entry(k: &mut SortKey, handle: &str, node: Option<u64>, edge: u64) {
    match (handle.split_once('/'), node) {
        (Some((target, _)), Some(n)) => k.u32(RESOLVED).str(target.as_bytes()).ord(n),
        _ => k.u32(UNRESOLVED).str(handle.as_bytes()),
    }
    .ord(edge);
}

/// The first component of an [`entry`]: resolved ones sort first.
const RESOLVED: u32 = 0;
const UNRESOLVED: u32 = 1;

/// Target `coll` of end `field` of collection `name`, listed once a handle names it, resolved
/// or not: a dangling handle's collection is still a target.
fn target<'t>(
    targets: &'t mut BTreeMap<String, TargetLists>,
    coll: &str,
    ctx: &Ctx,
    scratch: &Scratch,
    (name, field): (&str, &str),
) -> Result<&'t mut TargetLists, BuildError> {
    if !targets.contains_key(coll) {
        let lookup = ctx.key_lookup(coll);
        let tag = format!("adj-{name}-{field}-{}", targets.len());
        let lists = TargetLists::new(
            coll,
            lookup.as_ref().map_or(0, |k| k.len),
            lookup.is_some(),
            scratch.spool(&tag)?,
        );
        targets.insert(coll.to_string(), lists);
    }
    Ok(targets.get_mut(coll).expect("inserted above"))
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
    let mut targets: BTreeMap<String, TargetLists> = BTreeMap::new();
    // The entries of one (target, node) or of one unresolved handle (`id` the target or the
    // handle), gathered.
    let mut flush = |resolved: bool, id: &[u8], node: u64, ords: &[u64]| {
        let text = std::str::from_utf8(id).ok();
        if resolved {
            let Some(coll) = text else { return Ok(()) };
            let list = postings.push(ords)?;
            return Ok(target(&mut targets, coll, ctx, scratch, (name, field))?.push(node, list)?);
        }
        if let Some((coll, _)) = text.and_then(|h| h.split_once('/')) {
            target(&mut targets, coll, ctx, scratch, (name, field))?;
        }
        Ok::<_, BuildError>(unresolved.insert(id, ords)?)
    };
    let mut sorted = sorter.finish()?;
    let (mut k, mut p) = (Vec::new(), Vec::new());
    // The group being gathered: (resolved, target or handle, node).
    let mut cur: Option<(bool, Vec<u8>, u64)> = None;
    let mut ords: Vec<u64> = Vec::new();
    while sorted.next_into(&mut k, &mut p)? {
        let mut r = KeyReader::new(&k);
        let resolved = r.u32() == Some(RESOLVED);
        let (Some(id), Some(node)) = (r.str(), if resolved { r.ord() } else { Some(0) }) else {
            continue;
        };
        let Some(edge) = r.ord() else { continue };
        let same = cur
            .as_ref()
            .is_some_and(|c| c.0 == resolved && c.1 == *id && c.2 == node);
        if !same {
            if let Some((res, id, node)) = cur.take() {
                flush(res, &id, node, &ords)?;
            }
            ords.clear();
            cur = Some((resolved, id.into_owned(), node));
        }
        if ords.last() != Some(&edge) {
            ords.push(edge);
        }
    }
    if let Some((res, id, node)) = cur {
        flush(res, &id, node, &ords)?;
    }
    let mut targets: Vec<TargetLists> = targets.into_values().collect();
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

    fn key(handle: &str, node: Option<u64>, edge: u64) -> Vec<u8> {
        let mut k = SortKey::new();
        entry(&mut k, handle, node, edge);
        k.take()
    }

    /// Resolved entries sort by target, node ordinal, then edge, whatever their handles' byte
    /// order (a target ordered by other members), and before every unresolved one, which sort
    /// by handle: the order `build` reads them in.
    #[test]
    fn test_entries_sort_by_target_and_node_then_unresolved_by_handle() {
        let mut got = vec![
            key("zeta/a", None, 1),
            key("genes/b", Some(2), 7),
            key("genes/a", Some(300), 1),
            key("variants/x", Some(0), 9),
            key("genes/b", Some(2), 3),
            key("no-slash", None, 0),
            key("genes/zz", None, 5),
            key("genes/c", Some(1 << 40), 0),
        ];
        got.sort();
        let want = vec![
            key("genes/b", Some(2), 3),
            key("genes/b", Some(2), 7),
            key("genes/a", Some(300), 1),
            key("genes/c", Some(1 << 40), 0),
            key("variants/x", Some(0), 9),
            key("genes/zz", None, 5),
            key("no-slash", None, 0),
            key("zeta/a", None, 1),
        ];
        assert_eq!(got, want);
        // Read back as `build` reads them.
        let mut r = KeyReader::new(&want[2]);
        assert_eq!(r.u32(), Some(RESOLVED));
        assert_eq!(r.str().as_deref(), Some(&b"genes"[..]));
        assert_eq!((r.ord(), r.ord()), (Some(300), Some(1)));
        let mut r = KeyReader::new(&want[6]);
        assert_eq!(r.u32(), Some(UNRESOLVED));
        assert_eq!(r.str().as_deref(), Some(&b"no-slash"[..]));
        assert_eq!(r.ord(), Some(0));
    }
}
