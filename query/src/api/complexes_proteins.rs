//! `/complexes/proteins` (an IGVF client path): proteins of the complexes an id, name or description
//! selects; the record `/proteins/complexes` shares.

use crate::api::complexes;
use crate::api::motifs_proteins::COMPLEX;
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::Tier;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::prelude::*;
use crate::shape::{field, renamed, Member, Shape, Ty};
use crate::vocab::shapes::{id_or, PROTEIN};
use varcat_format::schema::{complexes as cx, complexes_proteins as cp, Member as Stored};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/complexes/proteins",
    section: None,
    summary: "Proteins of complexes",
    accepts: Accepts {
        params: &COMPLEX_PARAMS,
        rules: &[Rule::AtLeastOne(&COMPLEX_PARAMS)],
        paging: Paging::Paged {
            default: 25,
            max: 50,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&COMPLEX_PROTEIN),
    examples: &["complex_id=CPX-9001", "complex_id=CPX-9001&verbose=true"],
};

/// Complex name words.
pub const COMPLEX_NAME: Param =
    Param::new("complex_name", Kind::Text, "every word in the complex name");

/// The complex parameters, in the client's order.
const COMPLEX_PARAMS: [&Param; 3] = [
    &complexes::COMPLEX_ID,
    &COMPLEX_NAME,
    &complexes::DESCRIPTION,
];

static COMPLEX_FILTERS: [NodeFilter; 3] = [
    NodeFilter::Key(&complexes::COMPLEX_ID),
    NodeFilter::Text(&COMPLEX_NAME, cx::m::name, &[Tier::Tokens]),
    NodeFilter::Text(&complexes::DESCRIPTION, cx::m::description, &[Tier::Tokens]),
];

/// The members of the record with `name` from `name_member` (the client's
/// `ComplexesFromProteins`).
pub const fn members(name_member: Stored) -> [Member; 14] {
    [
        id_or("protein", cp::m::_to, &PROTEIN),
        id_or("complex", cp::m::_from, &COMPLEX),
        renamed("name", name_member, Ty::Str).required(),
        field(cp::m::stoichiometry, Ty::Num),
        field(cp::m::chain_id, Ty::Str),
        field(cp::m::isoform_id, Ty::Str),
        field(cp::m::number_of_paralogs, Ty::Num),
        field(cp::m::linked_features, Ty::Any),
        field(cp::m::class, Ty::Str),
        field(cp::m::method, Ty::Str),
        field(cp::m::label, Ty::Str),
        field(cp::m::files_filesets, Ty::Str),
        field(cp::m::source, Ty::Str),
        field(cp::m::source_url, Ty::Str),
    ]
}

/// Seen from the complex: the edge's own name ("contains").
pub static COMPLEX_PROTEIN: Shape = Shape {
    name: "ComplexesFromProteins",
    members: &members(cp::m::name),
};

/// `/complexes/proteins` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(cp::COLL),
    from: cp::m::_from,
    to: cp::m::_to,
    anchors: &[Anchor {
        params: &COMPLEX_PARAMS,
        nodes: Nodes::One(cx::COLL),
        resolve: Resolve::Rows(&COMPLEX_FILTERS),
        end: End::From,
    }],
    filters: &[],
    record: Record::One(&COMPLEX_PROTEIN),
};
