//! `/diseases/variants` (an IGVF client path): variants associated with the diseases a term id or name
//! selects (4.13 from the disease's side, ClinGen).

use crate::api::variants_diseases::{pubmed_url, ASSERTION, VARIANT_DISEASE};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::DISEASE_TIERS;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::prelude::*;
use varcat_format::schema::{ontology_terms as ot, variants_diseases as vd};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/diseases/variants",
    section: None,
    summary: "Variants associated with diseases (ClinGen)",
    accepts: Accepts {
        params: &[&DISEASE_ID, &DISEASE_NAME, &ASSERTION, &PMID],
        rules: &[Rule::AtLeastOne(&[&DISEASE_ID, &DISEASE_NAME])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&VARIANT_DISEASE),
    examples: &[
        "disease_id=MONDO_9000001",
        "disease_name=test%20disease%20one&verbose=true",
    ],
};

/// Disease ontology term.
pub const DISEASE_ID: Param = Param::new(
    "disease_id",
    Kind::Id,
    "disease ontology term id, e.g. MONDO_0008564",
);
/// Disease name.
pub const DISEASE_NAME: Param = Param::new(
    "disease_name",
    Kind::Text,
    "disease term name: exact, else all tokens",
);
/// PubMed id.
pub const PMID: Param = Param::new("pmid", Kind::Id, "PubMed id (or its URL)");

/// The disease terms.
static TERM_FILTERS: [NodeFilter; 2] = [
    NodeFilter::Key(&DISEASE_ID),
    NodeFilter::Text(&DISEASE_NAME, ot::m::name, DISEASE_TIERS),
];

/// `/diseases/variants` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vd::COLL),
    from: vd::m::_from,
    to: vd::m::_to,
    anchors: &[Anchor {
        params: &[&DISEASE_ID, &DISEASE_NAME],
        nodes: Nodes::One(ot::COLL),
        resolve: Resolve::Rows(&TERM_FILTERS),
        end: End::To,
    }],
    filters: &[
        NodeFilter::Facet(&ASSERTION, vd::m::assertion),
        NodeFilter::ExactAny(&PMID, vd::m::pmids, pubmed_url),
    ],
    record: Record::One(&VARIANT_DISEASE),
};
