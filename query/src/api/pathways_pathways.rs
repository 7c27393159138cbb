//! `/pathways/pathways` (an IGVF client path): parent–child links touching the Reactome pathways the
//! pathway parameters select, in either direction.

use crate::api::genes_pathways::{common, pathways, then, PATHWAY_PARAMS};
use crate::api::pathways::PATHWAY;
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{Nodes, Resolve};
use crate::prelude::*;
use crate::shape::{field, Member, Shape, Ty};
use crate::vocab::shapes::id_or;
use varcat_format::schema::{pathways as pw, pathways_pathways as pp};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/pathways/pathways",
    section: None,
    summary: "Parent and child pathways of Reactome pathways",
    accepts: Accepts {
        params: &PATHWAY_PARAMS,
        rules: &[Rule::AtLeastOne(&PATHWAY_PARAMS)],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&PATHWAY_PATHWAY),
    examples: &[
        "pathway_id=R-HSA-9000001",
        "pathway_id=R-HSA-9000001&verbose=true",
    ],
};

const COMMON: [Member; 8] = common(
    pp::m::source,
    pp::m::source_url,
    pp::m::organism,
    pp::m::class,
    pp::m::method,
    pp::m::label,
    pp::m::files_filesets,
);

/// The parent–child edge (the client's `PathwaysFromPathways`).
pub static PATHWAY_PATHWAY: Shape = Shape {
    name: "PathwaysFromPathways",
    members: &then(
        COMMON,
        [
            id_or("parent_pathway", pp::m::_from, &PATHWAY),
            id_or("child_pathway", pp::m::_to, &PATHWAY),
            field(pp::m::name, Ty::Str).required(),
        ],
    ),
};

/// `/pathways/pathways` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(pp::COLL),
    from: pp::m::_from,
    to: pp::m::_to,
    anchors: &[Anchor {
        params: &PATHWAY_PARAMS,
        nodes: Nodes::One(pw::COLL),
        resolve: Resolve::Fn(pathways),
        end: End::Either,
    }],
    filters: &[],
    record: Record::One(&PATHWAY_PATHWAY),
};
