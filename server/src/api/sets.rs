//! Sets every handler builds the same way: exact values, facets, regions, `_key`s, and the
//! edges adjacent to a set of nodes.

use varcat_format::collection::Collection;

use crate::engine::Set;
use crate::parse::ident::ensembl_candidates;
use crate::parse::region::Region;
use crate::parse::threshold::Threshold;

/// Records whose `field` equals `value` (each element for array fields).
pub fn exact<'a>(coll: Option<&'a Collection>, field: &str, value: &str) -> Set<'a> {
    Set::from_list(
        coll.and_then(|c| c.by(field))
            .and_then(|m| m.get(value.as_bytes())),
    )
}

/// Records whose `field` equals any of `values`.
pub fn exact_any<'a>(coll: Option<&'a Collection>, field: &str, values: &[String]) -> Set<'a> {
    Set::union(values.iter().map(|v| exact(coll, field, v)))
}

/// Records whose facet `field` has `value`.
pub fn facet<'a>(coll: Option<&'a Collection>, field: &str, value: &str) -> Set<'a> {
    match coll.and_then(|c| c.facet(field)).and_then(|f| f.get(value)) {
        Some(b) => Set::Bitmap(b),
        None => Set::Empty,
    }
}

/// Records whose `_key` is one of the Ensembl candidates of `id` (as given, without version).
pub fn keys<'a>(coll: Option<&'a Collection>, id: &str) -> Set<'a> {
    let Some(c) = coll else { return Set::Empty };
    Set::from_unsorted(
        ensembl_candidates(id)
            .iter()
            .filter_map(|k| c.ord(k))
            .collect(),
    )
}

/// Interval records overlapping `r` (`start < r.end && end > r.start`).
pub fn overlapping<'a>(coll: Option<&'a Collection>, r: &Region) -> Set<'a> {
    match coll.and_then(|c| c.intervals()) {
        Some(ix) => Set::from_unsorted(ix.overlapping(r.chr(), r.start(), r.end())),
        None => Set::Empty,
    }
}

/// Point records inside `r` (`r.start <= pos < r.end`).
pub fn within<'a>(coll: Option<&'a Collection>, r: &Region) -> Set<'a> {
    match coll.and_then(|c| c.points()) {
        Some(ix) => Set::from_unsorted(ix.in_range(r.chr(), r.start(), r.end())),
        None => Set::Empty,
    }
}

/// The document handle `collection/key` of record `ord`.
pub fn handle(coll: &Collection, ord: u32) -> Option<String> {
    Some(format!("{}/{}", coll.name(), coll.string(ord, "_key")?))
}

/// The handles of records `ords`, whose records are read ahead first (a region's variants are
/// neighbours in the file: one read instead of one per page when the catalog is cold).
pub fn handles(coll: &Collection, ords: &[u32]) -> Vec<String> {
    coll.prefetch(ords);
    ords.iter().filter_map(|&o| handle(coll, o)).collect()
}

/// Records of `edges` whose `end` member (`_from`, `_to`, or another handle member) is one of
/// `handles`.
pub fn adjacent<'a>(
    edges: Option<&'a Collection>,
    end: &str,
    handles: impl IntoIterator<Item = String>,
) -> Set<'a> {
    let Some(m) = edges.and_then(|e| e.by(end)) else {
        return Set::Empty;
    };
    // Handles of one collection share a prefix, often a long one (a region's variants): one
    // cursor walks it once.
    let mut lookups = m.lookups();
    Set::union(
        handles
            .into_iter()
            .map(|h| Set::from_list(lookups.get(h.as_bytes()))),
    )
}

/// Records of `edges` whose `end` member points at one of the records `ords` of `nodes`.
pub fn adjacent_to<'a>(
    edges: Option<&'a Collection>,
    end: &str,
    nodes: Option<&Collection>,
    ords: impl IntoIterator<Item = u32>,
) -> Set<'a> {
    let Some(nodes) = nodes else {
        return Set::Empty;
    };
    adjacent(
        edges,
        end,
        ords.into_iter().filter_map(|o| handle(nodes, o)),
    )
}

/// A predicate: the numeric column `field` of `coll` passes threshold `t` (null never passes).
pub fn threshold<'a>(
    coll: Option<&'a Collection>,
    field: &str,
    t: Threshold,
) -> impl Fn(u32) -> bool + 'a {
    let col = coll.and_then(|c| c.number(field));
    move |o| col.and_then(|c| c.get(o)).is_some_and(|x| t.test(x))
}

/// Records whose handle member `field` is `<collection>/<value>` (file sets, biosample terms…).
pub fn handle_is<'a>(
    coll: Option<&'a Collection>,
    field: &str,
    collection: &str,
    value: &str,
) -> Set<'a> {
    exact(coll, field, &format!("{collection}/{value}"))
}
