//! `/phenotypes/genomic-elements` (an IGVF client path): `/genomic-elements/phenotypes` from the
//! phenotype's side, `name` the edge's inverse.

use crate::api::genes_variants::SIGNIFICANT;
use crate::api::genomic_elements_phenotypes::{
    EDGE_FILTERS, METHOD, PHENOTYPE_ELEMENT, TERM_ANCHOR,
};
use crate::api::phenotypes_variants::PHENOTYPE_NAME;
use crate::api::variants_phenotypes::PHENOTYPE_ID_PARAM;
use crate::edge::{EdgeQuery, Record};
use crate::node::Nodes;
use crate::prelude::*;
use varcat_format::schema::genomic_elements_phenotypes as ep;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/phenotypes/genomic-elements",
    section: None,
    summary: "Genomic elements that affect phenotypes (CRISPR screens)",
    accepts: Accepts {
        params: &[
            &FILESET,
            &PHENOTYPE_ID_PARAM,
            &PHENOTYPE_NAME,
            &METHOD,
            &SIGNIFICANT,
        ],
        // As IGVF: `method` (one value) narrows but does not select.
        rules: &[Rule::AtLeastOne(&[
            &PHENOTYPE_ID_PARAM,
            &PHENOTYPE_NAME,
            &FILESET,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&PHENOTYPE_ELEMENT),
    examples: &[
        "phenotype_id=EFO_9000002",
        "phenotype_name=cell%20fitness&verbose=true",
        "files_fileset=IGVFFI9000CRS&significant=false",
    ],
};

/// `/phenotypes/genomic-elements` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(ep::COLL),
    from: ep::m::_from,
    to: ep::m::_to,
    anchors: &[TERM_ANCHOR],
    filters: &EDGE_FILTERS,
    record: Record::One(&PHENOTYPE_ELEMENT),
};
