//! `/phenotypes/coding-variants` (an IGVF client path): `/coding-variants/phenotypes` from the
//! phenotype's side, same record.

use crate::api::coding_variants_phenotypes::{CV_PHENOTYPE, EDGE_FILTERS, METHOD};
use crate::api::genomic_elements_phenotypes::TERM_ANCHOR;
use crate::api::phenotypes_variants::PHENOTYPE_NAME;
use crate::api::variants_phenotypes::PHENOTYPE_ID_PARAM;
use crate::edge::{EdgeQuery, Record};
use crate::node::Nodes;
use crate::prelude::*;
use varcat_format::schema::coding_variants_phenotypes as cvp;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/phenotypes/coding-variants",
    section: None,
    summary: "Coding variants scored for phenotypes (MAVE, SGE, predictors)",
    accepts: Accepts {
        params: &[&PHENOTYPE_ID_PARAM, &PHENOTYPE_NAME, &METHOD, &FILESET],
        rules: &[Rule::AtLeastOne(&[
            &PHENOTYPE_ID_PARAM,
            &PHENOTYPE_NAME,
            &METHOD,
            &FILESET,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Edge(&QUERY),
    body: Body::Array(&CV_PHENOTYPE),
    examples: &[
        "phenotype_id=OBA_9000001",
        "phenotype_name=protein%20function&method=MutPred2",
    ],
};

/// `/phenotypes/coding-variants` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(cvp::COLL),
    from: cvp::m::_from,
    to: cvp::m::_to,
    anchors: &[TERM_ANCHOR],
    filters: &EDGE_FILTERS,
    record: Record::One(&CV_PHENOTYPE),
};
