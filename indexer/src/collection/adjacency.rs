//! Builds an edge end's ordinal adjacency ([`varcat_format::adjacency`]) from its sorted
//! (handle, edge ordinal) entries: each handle is resolved against the key map of its node
//! collection, built before; handles that do not resolve go to the unresolved map.

use std::collections::BTreeMap;

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

/// Writes adjacency `adj.<field>` of collection `name` into 4 spools (table, its postings,
/// unresolved FST, unresolved postings).
pub(super) fn build(
    name: &str,
    field: &str,
    sorter: Sorter,
    width: Width,
    mut spools: Vec<Spool>,
    ctx: &Ctx,
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
    let mut add = |handle: &[u8], ords: &[u64]| -> Result<(), BuildError> {
        let text = std::str::from_utf8(handle).ok();
        let Some((coll, key)) = text.and_then(|h| h.split_once('/')) else {
            return Ok(unresolved.insert(handle, ords)?);
        };
        let lookup = ctx.get(coll).and_then(|c| c.key_lookup());
        let t = targets
            .entry(coll.to_string())
            .or_insert_with(|| TargetLists {
                name: coll.to_string(),
                nodes: lookup.as_ref().map_or(0, |k| k.len),
                resolved: lookup.is_some(),
                lists: Vec::new(),
            });
        // Without a key map the target stays handle-only; a key it lacks is dangling.
        match lookup.and_then(|k| k.ord(key)) {
            Some(o) => t.lists.push((o, postings.push(ords)?)),
            None => unresolved.insert(handle, ords)?,
        }
        Ok(())
    };
    super::feeds::for_each_value(sorter, &mut add)?;
    let mut targets: Vec<TargetLists> = targets.into_values().collect();
    for t in &mut targets {
        // Handles sort by key, ordinals by the collection's order: often the same, not always.
        t.lists.sort_unstable_by_key(|l| l.0);
    }
    let table = adjacency::write(table, &targets)?;
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
