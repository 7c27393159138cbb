//! Sets every handler builds the same way: exact values, facets, regions, `_key`s, and the
//! edges adjacent to a set of nodes. Members are named by their schema handles (debug builds
//! check each use against the schema: see [`name_in`]).

use varcat_format::adjacency::Adjacency;
use varcat_format::collection::Collection;
use varcat_format::facets::{Bits, Facet};
use varcat_format::fstmap::MultiMap;
use varcat_format::indexes::IndexKind;
use varcat_format::schema::{Coll, Member};

use crate::engine::{check_whole, name_in, Set};
use crate::parse::ident::ensembl_candidates;
use crate::parse::region::Region;
use crate::parse::threshold::Threshold;

/// The member every record has: its key.
const KEY: &str = "_key";

/// Records whose `field` equals `value` (each element for array fields; an edge end's
/// handle is resolved through its adjacency).
#[allow(clippy::disallowed_methods)]
pub fn exact<'a>(coll: Option<&'a Collection>, field: Member, value: &str) -> Set<'a> {
    let Some(c) = coll else { return Set::Empty };
    let kind = IndexKind::exact(field.name());
    let name = name_in(c, field, Some(kind));
    Set::from_list(match kind {
        IndexKind::Adj => c.adjacency(name).and_then(|a| a.get(value)),
        _ => c.by(name).and_then(|m| m.get(value.as_bytes())),
    })
}

/// Records whose exact-indexed `field` starts with `prefix`, ASCII letters compared without
/// case (the exact index's keys are walked; no folded index is needed).
#[allow(clippy::disallowed_methods)]
pub fn prefix_ignoring_ascii_case<'a>(
    coll: Option<&'a Collection>,
    field: Member,
    prefix: &str,
) -> Set<'a> {
    let Some(c) = coll else { return Set::Empty };
    match c.by(name_in(c, field, Some(IndexKind::By))) {
        Some(m) => Set::union(
            m.prefix_ignoring_ascii_case(prefix.as_bytes())
                .into_iter()
                .map(Set::List),
        ),
        None => Set::Empty,
    }
}

/// Records whose `field` equals any of `values`.
pub fn exact_any<'a>(coll: Option<&'a Collection>, field: Member, values: &[String]) -> Set<'a> {
    Set::union(values.iter().map(|v| exact(coll, field, v)))
}

/// Records whose facet `field` has `value`.
#[allow(clippy::disallowed_methods)]
pub fn facet<'a>(coll: Option<&'a Collection>, field: Member, value: &str) -> Set<'a> {
    match coll
        .and_then(|c| c.facet(name_in(c, field, Some(IndexKind::Facet))))
        .and_then(|f| f.get(value))
    {
        Some(Bits::Narrow(b)) => Set::Bitmap(b),
        Some(Bits::Wide(t)) => Set::Treemap(t),
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
    coll.iter()
        .for_each(|c| check_whole(c, IndexKind::Intervals));
    match coll.and_then(|c| c.intervals()) {
        Some(ix) => Set::from_unsorted(ix.overlapping(r.chr(), r.start(), r.end())),
        None => Set::Empty,
    }
}

/// Point records inside `r` (`r.start <= pos < r.end`).
pub fn within<'a>(coll: Option<&'a Collection>, r: &Region) -> Set<'a> {
    coll.iter().for_each(|c| check_whole(c, IndexKind::Points));
    match coll.and_then(|c| c.points()) {
        Some(ix) => Set::from_unsorted(ix.in_range(r.chr(), r.start(), r.end())),
        None => Set::Empty,
    }
}

/// The `_key` of record `ord`.
#[allow(clippy::disallowed_methods)]
pub fn key(coll: &Collection, ord: u64) -> Option<String> {
    coll.string(ord, KEY)
}

/// The document handle `collection/key` of record `ord`.
#[allow(clippy::disallowed_methods)]
pub fn handle(coll: &Collection, ord: u64) -> Option<String> {
    // Keys are plain JSON strings: borrowed when they hold no escape (no decode, no copy).
    let raw = coll.value(ord, KEY)?;
    let key = crate::shape::json_str(&raw)?;
    let name = coll.name();
    let mut h = String::with_capacity(name.len() + 1 + key.len());
    h.push_str(name);
    h.push('/');
    h.push_str(&key);
    Some(h)
}

/// The key of document handle `h` when it is a handle of a record of `coll`
/// (`variants/x` of `variants`: `x`).
pub fn key_in(h: &str, coll: Coll) -> Option<&str> {
    h.strip_prefix(coll.name())?.strip_prefix('/')
}

/// The handles of records `ords`, whose records are read ahead first (a region's variants are
/// neighbours in the file: one read instead of one per page when the catalog is cold).
pub fn handles(coll: &Collection, ords: &[u64]) -> Vec<String> {
    coll.prefetch(ords);
    ords.iter().filter_map(|&o| handle(coll, o)).collect()
}

/// Records of `edges` whose `end` member (`_from`, `_to`, or another handle member) is one of
/// `handles`.
#[allow(clippy::disallowed_methods)]
pub fn adjacent<'a>(
    edges: Option<&'a Collection>,
    end: Member,
    handles: impl IntoIterator<Item = String>,
) -> Set<'a> {
    let Some(e) = edges else { return Set::Empty };
    if let Some(a) = adjacency(e, end) {
        // Each handle resolves through its node collection's key map.
        return Set::union(handles.into_iter().map(|h| Set::from_list(a.get(&h))));
    }
    let Some(m) = e.by(name_in(e, end, Some(IndexKind::By))) else {
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

/// The ordinal adjacency of edge end `end` (`_from`, `_to`) of `e`; None for other members,
/// which have value maps.
#[allow(clippy::disallowed_methods)]
fn adjacency(e: &Collection, end: Member) -> Option<&Adjacency> {
    match IndexKind::exact(end.name()) {
        IndexKind::Adj => e.adjacency(name_in(e, end, Some(IndexKind::Adj))),
        _ => None,
    }
}

/// Records of `edges` whose `end` member points at one of the records `ords` of `nodes`.
pub fn adjacent_to<'a>(
    edges: Option<&'a Collection>,
    end: Member,
    nodes: Option<&Collection>,
    ords: impl IntoIterator<Item = u64>,
) -> Set<'a> {
    let (Some(e), Some(nodes)) = (edges, nodes) else {
        return Set::Empty;
    };
    if let Some(a) = adjacency(e, end) {
        // Nodes known by ordinal read their lists directly, unless their handles could not be
        // resolved when the edges were built.
        if !a.by_handle_only(nodes.name()) {
            let t = nodes.name();
            return Set::union(ords.into_iter().map(|o| Set::from_list(a.of(t, o))));
        }
    }
    adjacent(
        edges,
        end,
        ords.into_iter().filter_map(|o| handle(nodes, o)),
    )
}

/// A predicate: the numeric column `field` of `coll` passes `test` (null never passes).
#[allow(clippy::disallowed_methods)]
pub fn number_test<'a>(
    coll: Option<&'a Collection>,
    field: Member,
    test: impl Fn(f64) -> bool + 'a,
) -> impl Fn(u64) -> bool + 'a {
    let col = coll.and_then(|c| c.number(name_in(c, field, Some(IndexKind::Num))));
    move |o| col.and_then(|c| c.get(o)).is_some_and(&test)
}

/// A predicate: member `field` (`a.b`: number member `b` of object member `a`) of the record
/// passes `test` (absent, null or not a number never passes). For filters over small
/// candidate sets whose member has no numeric column: it reads each candidate's record.
#[allow(clippy::disallowed_methods)]
pub fn member_number_test<'a>(
    coll: Option<&'a Collection>,
    field: Member,
    test: impl Fn(f64) -> bool + 'a,
) -> impl Fn(u64) -> bool + 'a {
    let name = coll.map(|c| name_in(c, field, None));
    let (top, inner) = match name.and_then(|n| n.split_once('.')) {
        Some((a, b)) => (a, Some(b)),
        None => (name.unwrap_or_default(), None),
    };
    // The member's id, found once (not per candidate).
    let id = coll.and_then(|c| c.field(top));
    move |o| {
        let (Some(c), Some(id)) = (coll, id) else {
            return false;
        };
        match inner {
            Some(b) => c.record_store().inner_number(o, id, b),
            None => c
                .value(o, top)
                .and_then(|v| std::str::from_utf8(&v).ok()?.parse().ok()),
        }
        .is_some_and(&test)
    }
}

/// A predicate: the numeric column `field` of `coll` passes threshold `t` (null never passes).
pub fn threshold<'a>(
    coll: Option<&'a Collection>,
    field: Member,
    t: Threshold,
) -> impl Fn(u64) -> bool + 'a {
    number_test(coll, field, move |x| t.test(x))
}

/// The exact-value index of `field` in `coll` (for handlers that walk it themselves).
#[allow(clippy::disallowed_methods)]
pub fn value_map(coll: &Collection, field: Member) -> Option<&MultiMap> {
    coll.by(name_in(coll, field, Some(IndexKind::By)))
}

/// The facet of `field` in `coll` (for handlers that walk its values).
#[allow(clippy::disallowed_methods)]
pub fn facet_map(coll: &Collection, field: Member) -> Option<&Facet> {
    coll.facet(name_in(coll, field, Some(IndexKind::Facet)))
}

/// Records whose handle member `field` is a handle of record `value` of `target`
/// (`<target>/<value>`: file sets, biosample terms…).
pub fn handle_is<'a>(
    coll: Option<&'a Collection>,
    field: Member,
    target: Coll,
    value: &str,
) -> Set<'a> {
    exact(coll, field, &format!("{}/{value}", target.name()))
}

/// The collection file-set handles name (`files_filesets/<accession>`): IGVF's, which no
/// endpoint reads, so the schema skips it (`schema::UNUSED`).
/// The handle of file set `accession`.
pub fn fileset_handle(accession: &str) -> String {
    format!(
        "{}/{accession}",
        varcat_format::schema::files_filesets::NAME
    )
}

/// Records whose handle member `field` names file set `accession`.
pub fn in_fileset<'a>(coll: Option<&'a Collection>, field: Member, accession: &str) -> Set<'a> {
    exact(coll, field, &fileset_handle(accession))
}
