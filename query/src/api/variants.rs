//! `/variants` (an IGVF client path): variants of the organism by identifiers and region, with
//! GENCODE category (human) and strain (mouse) filters.

use crate::api::variants_freq::GENCODE_CATEGORY;
use crate::endpoint::{Body, Endpoint, Run};
use crate::engine::Filter;
use crate::handler::Ctx;
use crate::node::{NodeFilter, NodeQuery, Nodes};
use crate::params::VARIANTS;
use crate::params::{Accepts, Organism, Paging, Params, HUMAN_MOUSE};
use crate::vocab::variants::{
    matching, CA_ID, FREQUENCY, HGVS, ID_OR_REGION_RULE, MOUSE_STRAIN, REGION, RSID, SPDI,
    VARIANT_ID,
};
use varcat_format::collection::Collection;
use varcat_format::schema;

/// `/variants` (an IGVF client path): variants of the organism by identifiers and region (uncapped: IGVF
/// does not cap it), with GENCODE category (human) and strain (mouse) filters.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants",
    section: None,
    summary: "Variants by identifier or region, GENCODE category, mouse strain",
    accepts: Accepts {
        params: &[
            &SPDI,
            &HGVS,
            &RSID,
            &CA_ID,
            &VARIANT_ID,
            &REGION,
            &GENCODE_CATEGORY,
            &MOUSE_STRAIN,
        ],
        rules: &[ID_OR_REGION_RULE],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&FREQUENCY),
    examples: &[
        "rsid=rs900001",
        "region=chr20:9564000-9565000",
        "organism=Mus%20musculus&region=chr1:3000000-4000000&mouse_strain=A_J",
    ],
};

/// [`matching`] as a node resolver.
fn node_matching<'a>(_: &Ctx<'a>, v: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    matching(v, p)
}

/// `/variants` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::ByOrganism(VARIANTS),
    filters: &[
        NodeFilter::Resolved(node_matching),
        NodeFilter::Only(
            Organism::Human,
            &NodeFilter::Facet(
                &GENCODE_CATEGORY,
                schema::variant_annotations::GENCODE_category,
            ),
        ),
        NodeFilter::Only(
            Organism::Mouse,
            &NodeFilter::Exact(&MOUSE_STRAIN, schema::variants::m::strain),
        ),
    ],
    shape: &FREQUENCY,
};
