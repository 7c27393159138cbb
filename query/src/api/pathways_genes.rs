//! `/pathways/genes` (an IGVF client path): genes of the Reactome pathways the pathway parameters select.

use crate::api::genes_pathways::{pathways, PATHWAY_GENE, PATHWAY_PARAMS};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{Nodes, Resolve};
use crate::prelude::*;
use varcat_format::schema::{genes_pathways as gp, pathways as pw};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/pathways/genes",
    section: None,
    summary: "Genes of Reactome pathways",
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
    body: Body::Array(&PATHWAY_GENE),
    examples: &[
        "pathway_id=R-HSA-9000001",
        "pathway_id=R-HSA-9000001&verbose=true",
    ],
};

/// `/pathways/genes` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(gp::COLL),
    from: gp::m::_from,
    to: gp::m::_to,
    anchors: &[Anchor {
        params: &PATHWAY_PARAMS,
        nodes: Nodes::One(pw::COLL),
        resolve: Resolve::Fn(pathways),
        end: End::To,
    }],
    filters: &[],
    record: Record::One(&PATHWAY_GENE),
};
