//! `/biosamples/genomic-elements` (an IGVF client path): 4.11's reporter-assay results from the
//! biosample's side, same record.

use crate::api::genomic_elements_biosamples::{ELEMENT_BIOSAMPLE, METHOD, SOURCE};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::NAME_TIERS;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::prelude::*;
use varcat_format::schema::{genomic_elements_biosamples as geb, ontology_terms as ot};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/biosamples/genomic-elements",
    section: None,
    summary: "Genomic elements assayed in biosamples (MPRA)",
    accepts: Accepts {
        params: &[&BIOSAMPLE_NAME, &METHOD, &SOURCE, &FILESET],
        rules: &[Rule::AtLeastOne(&[
            &BIOSAMPLE_NAME,
            &METHOD,
            &SOURCE,
            &FILESET,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 50,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&ELEMENT_BIOSAMPLE),
    examples: &["biosample_name=K562", "method=MPRA&verbose=true"],
};

/// Biosample name, through the name cascade over ontology term names.
pub const BIOSAMPLE_NAME: Param = Param::new(
    "biosample_name",
    Kind::Text,
    "biosample term name: exact, else all tokens, else one typo",
);

static TERM_FILTERS: [NodeFilter; 1] = [NodeFilter::Text(&BIOSAMPLE_NAME, ot::m::name, NAME_TIERS)];

/// `/biosamples/genomic-elements` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(geb::COLL),
    from: geb::m::_from,
    to: geb::m::_to,
    anchors: &[Anchor {
        params: &[&BIOSAMPLE_NAME],
        nodes: Nodes::One(ot::COLL),
        resolve: Resolve::Rows(&TERM_FILTERS),
        end: End::To,
    }],
    filters: &[
        NodeFilter::Facet(&METHOD, geb::m::method),
        NodeFilter::Facet(&SOURCE, geb::m::source),
        NodeFilter::Fileset(&FILESET, geb::m::files_filesets),
    ],
    record: Record::One(&ELEMENT_BIOSAMPLE),
};
