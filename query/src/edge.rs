//! The edge listing kind (an IGVF client path): an edge endpoint declared as data — its edge collection
//! (organism-mapped or not), its anchors (node resolvers bound to an end of the edge), its edge
//! filters (the node kind's [`NodeFilter`] vocabulary, applied to edge members through the same
//! [`select`]) and its shape — answered by one generic handler, [`EdgeQuery::run`].
//!
//! An anchor applies when any of its parameters is given: its resolver selects nodes of its
//! collection (the request organism's one when mapped) and the anchor keeps the edges whose end
//! points at one of them (`_from`, `_to`, or either). Given anchors AND; with none given the edge
//! filters alone select rows (the endpoint's rules guarantee some selector). Rows come in edge
//! record order (`_key`, docs/DESIGN.md#ordering-and-paging), paged as every endpoint pages.

use varcat_format::collection::Collection;
use varcat_format::schema::Member;

use crate::engine::{Filter, Set};
use crate::handler::{Ctx, Reply};
use crate::node::{select, NodeFilter, Nodes, Resolve};
use crate::params::{Param, Params};
use crate::sets;
use crate::shape::Shape;

/// The end of an edge an anchor binds.
#[derive(Clone, Copy, Debug)]
pub enum End {
    /// `_from`.
    From,
    /// `_to`.
    To,
    /// `_from` or `_to` (symmetric relations).
    Either,
    /// The end the first `Either` anchor's nodes are not at, when that anchor is given (pairs:
    /// one end among its nodes, the other among these); `Either` otherwise.
    Partner,
}

/// Anchor nodes bound to an end of the edges.
pub struct Anchor {
    /// The parameters that select the nodes: the anchor applies when any is given.
    pub params: &'static [&'static Param],
    /// The node collection.
    pub nodes: Nodes,
    /// The nodes the parameters select.
    pub resolve: Resolve,
    /// The end pointing at them.
    pub end: End,
}

/// An edge endpoint as data.
pub struct EdgeQuery {
    /// The edge collection.
    pub edges: Nodes,
    /// Its `_from` member.
    pub from: Member,
    /// Its `_to` member.
    pub to: Member,
    /// The anchors, ANDed.
    pub anchors: &'static [Anchor],
    /// Filters on edge members, ANDed.
    pub filters: &'static [NodeFilter],
    /// The record.
    pub record: Record,
}

/// The shape of an edge endpoint's rows.
#[derive(Clone, Copy)]
pub enum Record {
    /// Every row in one shape.
    One(&'static Shape),
    /// Each row in the shape this picks for it (sources whose rows differ, as 4.3).
    Per(fn(&Collection, u64) -> &'static Shape),
    /// Rows whose `_from` the first given anchor selects in the first shape, the others in the
    /// second (symmetric pairs naming the partner of the anchor's node).
    ByEnd(&'static Shape, &'static Shape),
}

impl EdgeQuery {
    /// The parameters the query reads (anchors' and filters'), for the declaration check.
    pub fn params(&self) -> impl Iterator<Item = &'static Param> + '_ {
        self.anchors
            .iter()
            .flat_map(|a| a.params.iter().copied())
            .chain(self.filters.iter().filter_map(NodeFilter::param))
    }

    /// The edges of `e` whose `_from`, and those whose `_to`, points at a node anchor `a`
    /// selects (None when none of its parameters is given).
    fn ends<'a>(
        &self,
        ctx: &Ctx<'a>,
        e: Option<&'a Collection>,
        a: &Anchor,
        p: &Params,
    ) -> Option<(Set<'a>, Set<'a>)> {
        if !p.any(a.params) {
            return None;
        }
        let n = ctx.coll(match a.nodes {
            Nodes::One(c) => c,
            Nodes::ByOrganism(b) => p.organism.collection(b),
        });
        let nodes = a.resolve.nodes(ctx, n, p).collect();
        let at = |end: Member| sets::adjacent_to(e, end, n, nodes.iter().copied());
        Some(match a.end {
            End::From => (at(self.from), Set::Empty),
            End::To => (Set::Empty, at(self.to)),
            End::Either | End::Partner => (at(self.from), at(self.to)),
        })
    }

    /// The one handler of every edge endpoint.
    pub fn run(&self, ctx: &Ctx<'_>, p: &Params) -> Reply {
        let e = ctx.coll(match self.edges {
            Nodes::One(c) => c,
            Nodes::ByOrganism(b) => p.organism.collection(b),
        });
        let ends: Vec<(End, Option<(Set, Set)>)> = self
            .anchors
            .iter()
            .map(|a| (a.end, self.ends(ctx, e, a, p)))
            .collect();
        // The first given `Either` anchor, when a given `Partner` anchor pairs with it.
        let paired = ends
            .iter()
            .position(|(end, x)| matches!(end, End::Either) && x.is_some())
            .filter(|_| {
                ends.iter()
                    .any(|(end, x)| matches!(end, End::Partner) && x.is_some())
            });
        let mut anchored: Vec<Vec<u64>> = Vec::new();
        for (i, (end, x)) in ends.iter().enumerate() {
            let Some((from, to)) = x else { continue };
            let rows = match (end, paired.and_then(|j| ends[j].1.as_ref())) {
                // The pairs carry the first anchor.
                (End::Either, Some(_)) if paired == Some(i) => continue,
                // One end among the first anchor's nodes, the other among these.
                (End::Partner, Some((a_from, a_to))) => {
                    let both = |x: &Set, y: &Set| x.iter().filter(|&o| y.contains(o)).collect();
                    Set::union([Set::Vec(both(a_from, to)), Set::Vec(both(a_to, from))])
                }
                _ => Set::union([from.clone(), to.clone()]),
            };
            anchored.push(rows.to_vec());
        }
        let f = select(ctx, e, self.filters, p, || {
            let mut f = Filter::over(e);
            for rows in &anchored {
                f.and(Set::Vec(rows.clone()));
            }
            f
        })?;
        match self.record {
            Record::One(shape) => ctx.page(p, e, &f, shape),
            Record::Per(select) => ctx.page_with(p, e, &f, select),
            Record::ByEnd(at_from, at_to) => {
                let from = ends
                    .iter()
                    .find_map(|(_, x)| x.as_ref().map(|(from, _)| from));
                ctx.page_with(p, e, &f, |_, o| match from {
                    Some(from) if !from.contains(o) => at_to,
                    _ => at_from,
                })
            }
        }
    }
}

/// A resolver's selection over `c` from a list of its ordinals (any order).
pub fn from_ords<'a>(c: Option<&'a Collection>, ords: Vec<u64>) -> Filter<'a> {
    let mut f = Filter::over(c);
    f.and(Set::from_unsorted(ords));
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api;
    use crate::endpoint::{Body, Endpoint, Run};

    /// Every edge endpoint of the table with its query.
    fn queries() -> Vec<(&'static Endpoint, &'static EdgeQuery)> {
        let qs: Vec<_> = api::ENDPOINTS
            .iter()
            .filter_map(|&ep| match ep.run {
                Run::Edge(q) => Some((ep, q)),
                _ => None,
            })
            .collect();
        assert!(!qs.is_empty(), "the table has edge endpoints");
        qs
    }

    #[test]
    fn test_every_edge_endpoint_reads_declared_parameters_into_its_shape() {
        for (ep, q) in queries() {
            if let Record::One(shape) | Record::ByEnd(shape, _) = q.record {
                assert!(
                    matches!(ep.body, Body::Array(s) if std::ptr::eq(s, shape)),
                    "{}: the body is the query's shape",
                    ep.path
                );
            }
            for p in q.params() {
                assert!(
                    ep.accepts.params.iter().any(|d| d.name == p.name),
                    "{}: the query reads undeclared {}",
                    ep.path,
                    p.name
                );
            }
        }
    }
}
