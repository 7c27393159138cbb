//! `/biosamples/variants` (an IGVF client path): `/variants/biosamples` from the biosample's side, same
//! record and edge filters.

use crate::api::genes_variants::SIGNIFICANT;
use crate::api::variants_biosamples::{EDGE_FILTERS, ELEMENT_ID, METHOD, VARIANT_BIOSAMPLE};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::NAME_TIERS;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::prelude::*;
use varcat_format::schema::{ontology_terms as ot, variants_biosamples as vb};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/biosamples/variants",
    section: None,
    summary: "Variants with effects in biosamples (MPRA, STARR-seq, BlueSTARR)",
    accepts: Accepts {
        params: &[
            &BIOSAMPLE_ID,
            &BIOSAMPLE_NAME,
            &FILESET,
            &METHOD,
            &ELEMENT_ID,
            &SIGNIFICANT,
        ],
        rules: &[Rule::AtLeastOne(&[&BIOSAMPLE_ID, &BIOSAMPLE_NAME])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&VARIANT_BIOSAMPLE),
    examples: &[
        "biosample_id=EFO_0002067",
        "biosample_name=K562&verbose=true",
    ],
};

/// Biosample ontology term id.
pub const BIOSAMPLE_ID: Param = Param::new(
    "biosample_id",
    Kind::Id,
    "biosample ontology term id, e.g. EFO_0002067",
);
/// Biosample name, through the name cascade over ontology term names.
pub const BIOSAMPLE_NAME: Param = Param::new(
    "biosample_name",
    Kind::Text,
    "biosample term name: exact, else all tokens, else one typo",
);

static TERM_FILTERS: [NodeFilter; 2] = [
    NodeFilter::Key(&BIOSAMPLE_ID),
    NodeFilter::Text(&BIOSAMPLE_NAME, ot::m::name, NAME_TIERS),
];

/// `/biosamples/variants` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vb::COLL),
    from: vb::m::_from,
    to: vb::m::_to,
    anchors: &[Anchor {
        params: &[&BIOSAMPLE_ID, &BIOSAMPLE_NAME],
        nodes: Nodes::One(ot::COLL),
        resolve: Resolve::Rows(&TERM_FILTERS),
        end: End::To,
    }],
    filters: &EDGE_FILTERS,
    record: Record::One(&VARIANT_BIOSAMPLE),
};
