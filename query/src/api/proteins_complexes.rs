//! `/proteins/complexes` (an IGVF client path): complexes containing the proteins the protein parameters
//! select.

use crate::api::complexes_proteins::members;
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{Nodes, Resolve};
use crate::prelude::*;
use crate::shape::Shape;
use varcat_format::schema::{complexes_proteins as cp, proteins as pr};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/proteins/complexes",
    section: None,
    summary: "Complexes containing proteins",
    accepts: Accepts {
        params: &proteins::FILTERS,
        rules: &[proteins::RULE],
        // IGVF's router takes any limit and clamps it to 50; varcat rejects over-max limits, so
        // its maximum is the 100 the IGVF MCP server sends (its edge table's max_limit).
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&PROTEIN_COMPLEX),
    examples: &[
        "protein_id=ENSP90000000001",
        "protein_id=ENSP90000000001&verbose=true",
    ],
};

/// Seen from the protein: the inverse name ("belongs to"), as IGVF.
pub static PROTEIN_COMPLEX: Shape = Shape {
    name: "ProteinsToComplexes",
    members: &members(cp::m::inverse_name),
};

/// `/proteins/complexes` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(cp::COLL),
    from: cp::m::_from,
    to: cp::m::_to,
    anchors: &[Anchor {
        params: &proteins::FILTERS,
        nodes: Nodes::One(pr::COLL),
        resolve: Resolve::Fn(proteins::anchor),
        end: End::To,
    }],
    filters: &[],
    record: Record::One(&PROTEIN_COMPLEX),
};
