//! The node look-up kind (an IGVF client path): a node endpoint declared as data — its collection
//! (organism-mapped or not), its filters (each bound to a declared parameter), its shape — and
//! answered by one generic handler, [`NodeQuery::run`]. Every given filter is ANDed; a text
//! filter runs its name cascade with every other filter applied (the tier is decided on the
//! rows that pass them, as in 4.16), so an exact name never falls through to a similar one.
//! Rows come in record order (`_key`, docs/DESIGN.md#ordering-and-paging), paged as every endpoint pages.
//!
//! [`NodeFilter`] is the filter vocabulary of both table-driven kinds: the edge kind
//! ([`crate::edge`]) applies the same filters to edge members, through the same [`select`].

use varcat_format::collection::Collection;
use varcat_format::schema::{ontology_terms, Coll, Member};

use crate::engine::{cascade, Filter, Read, Set, Tier};
use crate::error::ApiError;
use crate::handler::{Ctx, Reply};
use crate::params::{ByOrganism, Organism, Param, Params};
use crate::sets;
use crate::shape::Shape;

/// The collection a table-driven endpoint reads (nodes, or the edges of an edge endpoint).
#[derive(Clone, Copy, Debug)]
pub enum Nodes {
    /// One collection, whatever the organism.
    One(Coll),
    /// The collection of the request's organism.
    ByOrganism(ByOrganism),
}

/// A resolver shared with other endpoints: the rows of the collection its parameters select.
pub type Resolver = for<'a> fn(&Ctx<'a>, Option<&'a Collection>, &Params) -> Filter<'a>;

/// How an edge endpoint's anchor selects its nodes: a resolver shared with other endpoints, or
/// the rows a list of node filters selects (most anchors: no function to write per endpoint).
pub enum Resolve {
    /// A shared resolver.
    Fn(Resolver),
    /// The rows these filters select (all rows when none applies).
    Rows(&'static [NodeFilter]),
}

impl Resolve {
    /// The selected rows of `c`.
    pub fn nodes<'a>(&self, ctx: &Ctx<'a>, c: Option<&'a Collection>, p: &Params) -> Filter<'a> {
        match self {
            Resolve::Fn(f) => f(ctx, c, p),
            Resolve::Rows(filters) => rows(ctx, c, filters, p, || Filter::over(c)),
        }
    }
}

/// One filter of a node or edge endpoint, applied when its parameter is given.
pub enum NodeFilter {
    /// `_key` equals the value, with or without an Ensembl version.
    Key(&'static Param),
    /// The member (each element of an array member) equals the value.
    Exact(&'static Param, Member),
    /// The member equals any of the forms `forms` makes of the value (a prefix added or
    /// removed, upper case…).
    ExactAny(&'static Param, Member, fn(&str) -> Vec<String>),
    /// The member equals the stored form of an HGNC id (`HGNC:<n>`).
    Hgnc(&'static Param, Member),
    /// The facet member has the value.
    Facet(&'static Param, Member),
    /// The facet member has any stored value paired with the value (`(given, stored)`: a
    /// relation name selected through its inverse, a source also found in combined ones).
    FacetAs(
        &'static Param,
        Member,
        &'static [(&'static str, &'static str)],
    ),
    /// The member is the handle of file set `<value>`.
    Fileset(&'static Param, Member),
    /// The member is the handle of ontology term `<value>` (`ontology_terms/<value>`).
    Term(&'static Param, Member),
    /// The boolean facet member is the value (`true` or `false`).
    Bool(&'static Param, Member),
    /// The numeric column passes the threshold (null never passes).
    Threshold(&'static Param, Member),
    /// The name cascade of `tiers` over the member.
    Text(&'static Param, Member, &'static [Tier]),
    /// The numeric member lies in the parameter's inclusive integer range.
    InRange(&'static Param, Member),
    /// Interval records overlapping the region.
    Overlaps(&'static Param),
    /// Point records inside the region.
    Within(&'static Param),
    /// A shared resolver (it reads only parameters the endpoint declares).
    Resolved(Resolver),
    /// Always: the facet member has this value.
    FacetIs(Member, &'static str),
    /// Always: the handle member points at a record of the catalog (a row whose required
    /// object is missing has no row, docs/DESIGN.md#dangling-references).
    Resolves(Member),
    /// The filter applies to this organism only: given for another one, a 400.
    Only(Organism, &'static NodeFilter),
}

impl NodeFilter {
    /// The parameter the filter reads (none for a resolver).
    pub fn param(&self) -> Option<&'static Param> {
        match *self {
            NodeFilter::Key(p)
            | NodeFilter::Exact(p, _)
            | NodeFilter::ExactAny(p, _, _)
            | NodeFilter::Hgnc(p, _)
            | NodeFilter::Facet(p, _)
            | NodeFilter::FacetAs(p, _, _)
            | NodeFilter::Fileset(p, _)
            | NodeFilter::Term(p, _)
            | NodeFilter::Bool(p, _)
            | NodeFilter::Threshold(p, _)
            | NodeFilter::Text(p, _, _)
            | NodeFilter::InRange(p, _)
            | NodeFilter::Overlaps(p)
            | NodeFilter::Within(p) => Some(p),
            NodeFilter::Resolved(_) | NodeFilter::FacetIs(..) | NodeFilter::Resolves(_) => None,
            NodeFilter::Only(_, f) => f.param(),
        }
    }

    /// Adds this filter's condition to `f` when its parameter is given (text filters excepted:
    /// they run over the others).
    fn apply<'a>(&self, ctx: &Ctx<'a>, c: Option<&'a Collection>, p: &Params, f: &mut Filter<'a>) {
        match *self {
            NodeFilter::Key(param) => {
                if let Some(v) = p.str(param) {
                    f.and(sets::keys(c, v));
                }
            }
            NodeFilter::Exact(param, m) => {
                if let Some(v) = p.str(param) {
                    f.and(sets::exact(c, m, v));
                }
            }
            NodeFilter::ExactAny(param, m, forms) => {
                if let Some(v) = p.str(param) {
                    f.and(sets::exact_any(c, m, &forms(v)));
                }
            }
            NodeFilter::Hgnc(param, m) => {
                if let Some(h) = p.hgnc_id(param) {
                    f.and(sets::exact(c, m, &h.stored()));
                }
            }
            NodeFilter::Facet(param, m) => {
                if let Some(v) = p.str(param) {
                    f.and(sets::facet(c, m, v));
                }
            }
            NodeFilter::FacetAs(param, m, pairs) => {
                if let Some(v) = p.str(param) {
                    f.and(Set::union(
                        pairs
                            .iter()
                            .filter(|(given, _)| *given == v)
                            .map(|(_, stored)| sets::facet(c, m, stored)),
                    ));
                }
            }
            NodeFilter::Fileset(param, m) => {
                if let Some(v) = p.str(param) {
                    f.and(sets::in_fileset(c, m, v));
                }
            }
            NodeFilter::InRange(param, m) => {
                if let Some((lo, hi)) = p.int_range(param) {
                    let (lo, hi) = (lo as f64, hi as f64);
                    f.pred(sets::number_test(c, m, move |x| lo <= x && x <= hi));
                }
            }
            NodeFilter::Term(param, m) => {
                if let Some(v) = p.str(param) {
                    f.and(sets::handle_is(c, m, ontology_terms::COLL, v));
                }
            }
            NodeFilter::Bool(param, m) => {
                if let Some(b) = p.bool(param) {
                    f.and(sets::facet(c, m, if b { "true" } else { "false" }));
                }
            }
            NodeFilter::Threshold(param, m) => {
                if let Some(t) = p.threshold(param) {
                    f.pred(sets::threshold(c, m, t));
                }
            }
            NodeFilter::Overlaps(param) => {
                if let Some(r) = p.region(param) {
                    f.and(sets::overlapping(c, r));
                }
            }
            NodeFilter::Within(param) => {
                if let Some(r) = p.region(param) {
                    f.and(sets::within(c, r));
                }
            }
            NodeFilter::Resolved(resolve) => {
                f.and_filter(resolve(ctx, c, p));
            }
            NodeFilter::FacetIs(m, v) => {
                f.and(sets::facet(c, m, v));
            }
            NodeFilter::Resolves(m) => {
                if let Some(coll) = c {
                    let cat = ctx.cat;
                    f.pred(move |o| coll.str_of(o, m).and_then(|h| cat.resolve(&h)).is_some());
                }
            }
            NodeFilter::Only(_, inner) => inner.apply(ctx, c, p, f),
            NodeFilter::Text(..) => {}
        }
    }
}

/// A node endpoint as data.
pub struct NodeQuery {
    /// What it reads.
    pub nodes: Nodes,
    /// Its filters, all ANDed.
    pub filters: &'static [NodeFilter],
    /// Its record.
    pub shape: &'static Shape,
}

impl NodeQuery {
    /// The one handler of every node endpoint.
    pub fn run(&self, ctx: &Ctx<'_>, p: &Params) -> Reply {
        let c = ctx.coll(match self.nodes {
            Nodes::One(c) => c,
            Nodes::ByOrganism(b) => p.organism.collection(b),
        });
        let f = select(ctx, c, self.filters, p, || Filter::over(c))?;
        ctx.page(p, c, &f, self.shape)
    }
}

/// The rows of `c` that `seed` starts from (every row, or an edge endpoint's anchored edges)
/// passing every given filter of `filters`, or a 400 when a filter bound to another organism
/// is given (see [`rows`]).
pub fn select<'a>(
    ctx: &Ctx<'a>,
    c: Option<&'a Collection>,
    filters: &[NodeFilter],
    p: &Params,
    seed: impl Fn() -> Filter<'a>,
) -> Result<Filter<'a>, ApiError> {
    for filter in filters {
        if let (NodeFilter::Only(org, _), Some(param)) = (filter, filter.param()) {
            if *org != p.organism && p.has(param) {
                return Err(ApiError::param(
                    param.name,
                    format!("{} applies to {} only", param.name, org.name()),
                ));
            }
        }
    }
    Ok(rows(ctx, c, filters, p, seed))
}

/// The rows of `c` that `seed` starts from passing every given filter of `filters`; a text
/// filter runs its cascade over all the others (the tier is decided on the rows that pass
/// them). Resolvers built from filters use it directly.
pub fn rows<'a>(
    ctx: &Ctx<'a>,
    c: Option<&'a Collection>,
    filters: &[NodeFilter],
    p: &Params,
    seed: impl Fn() -> Filter<'a>,
) -> Filter<'a> {
    let base = || {
        let mut f = seed();
        for filter in filters {
            filter.apply(ctx, c, p, &mut f);
        }
        f
    };
    let mut f = base();
    for filter in filters {
        if let NodeFilter::Text(param, m, tiers) = *filter {
            if let Some(q) = p.str(param) {
                let rows = match c {
                    Some(coll) => cascade(coll, m, q, tiers, base).collect(),
                    None => Vec::new(),
                };
                f.and(Set::Vec(rows));
            }
        }
    }
    f
}

/// The value as given, with `prefix` added and with it removed (`PMID:29379200`, `29379200`).
pub fn with_and_without(prefix: &str, v: &str) -> Vec<String> {
    let bare = v.strip_prefix(prefix).unwrap_or(v);
    let mut out = vec![bare.to_string(), format!("{prefix}{bare}")];
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api;
    use crate::endpoint::{Endpoint, Run};

    /// Every node endpoint of the table with its query.
    fn queries() -> Vec<(&'static Endpoint, &'static NodeQuery)> {
        let qs: Vec<_> = api::ENDPOINTS
            .iter()
            .filter_map(|&ep| match ep.run {
                Run::Node(q) => Some((ep, q)),
                _ => None,
            })
            .collect();
        assert!(!qs.is_empty(), "the table has node endpoints");
        qs
    }

    #[test]
    fn test_every_node_endpoint_filters_on_declared_parameters_into_its_shape() {
        for (ep, q) in queries() {
            assert!(
                matches!(ep.body, crate::endpoint::Body::Array(s) if std::ptr::eq(s, q.shape)),
                "{}: the body is the query's shape",
                ep.path
            );
            for f in q.filters {
                if let Some(p) = f.param() {
                    assert!(
                        ep.accepts.params.iter().any(|d| d.name == p.name),
                        "{}: filter on undeclared {}",
                        ep.path,
                        p.name
                    );
                }
            }
        }
    }

    #[test]
    fn test_with_and_without_a_prefix() {
        assert_eq!(with_and_without("PMID:", "PMID:1"), ["1", "PMID:1"]);
        assert_eq!(with_and_without("PMID:", "1"), ["1", "PMID:1"]);
    }
}
