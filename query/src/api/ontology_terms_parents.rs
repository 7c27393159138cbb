//! `/ontology-terms/{ontology_term_id}/parents` (an IGVF client path): the terms an ontology term is a
//! subclass of (4.20 the other way).

use crate::api::ontology_terms_children::{ONTOLOGY_TERM_ID, TERM_FULL};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::Set;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::parse::ident::TermId;
use crate::prelude::*;
use crate::shape::{member, renamed, Shape, Src, Ty};
use varcat_format::schema::{ontology_terms as ot, ontology_terms_ontology_terms as edges};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/ontology-terms/{ontology_term_id}/parents",
    section: None,
    summary: "Terms an ontology term is a subclass of",
    accepts: Accepts {
        params: &[&ONTOLOGY_TERM_ID],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Edge(&QUERY),
    body: Body::Array(&PARENT),
    examples: &[
        "/ontology-terms/VCT_0000003/parents",
        "/ontology-terms/VCT_0000005/parents",
    ],
};

/// The parent row (the client's `OntologyTermChildren`).
pub static PARENT: Shape = Shape {
    name: "OntologyTermParent",
    members: &[
        member(
            "term",
            Src::Obj(edges::m::_to, &TERM_FULL),
            Ty::Obj(&TERM_FULL),
        ),
        renamed("relationship_type", edges::m::name, Ty::Str),
    ],
};

/// The term of the path.
fn term<'a>(_: &Ctx<'a>, c: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let id = p.term_id(&ONTOLOGY_TERM_ID).map_or("", TermId::as_str);
    let mut f = Filter::over(c);
    f.and(Set::from_unsorted(
        c.and_then(|c| c.ord(id)).into_iter().collect(),
    ));
    f
}

/// `/ontology-terms/{ontology_term_id}/parents` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(edges::COLL),
    from: edges::m::_from,
    to: edges::m::_to,
    anchors: &[Anchor {
        params: &[&ONTOLOGY_TERM_ID],
        nodes: Nodes::One(ot::COLL),
        resolve: Resolve::Fn(term),
        end: End::From,
    }],
    filters: &[
        NodeFilter::FacetIs(edges::m::name, "subclass"),
        NodeFilter::Resolves(edges::m::_to),
    ],
    record: Record::One(&PARENT),
};
