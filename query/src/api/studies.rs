//! `/studies` (an IGVF client path): GWAS studies by id, PubMed id or file set.

use crate::node::{with_and_without, NodeFilter, NodeQuery, Nodes};
use crate::prelude::*;
use crate::vocab::shapes::STUDY;
use varcat_format::schema::studies;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/studies",
    section: None,
    summary: "Studies by id, PubMed id or file set",
    accepts: Accepts {
        params: &[&STUDY_ID, &PMID, &FILESET],
        rules: &[Rule::AtLeastOne(&[&STUDY_ID, &PMID, &FILESET])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&STUDY),
    examples: &["study_id=GCST900001", "pmid=PMID:29379200"],
};

/// Study id.
pub const STUDY_ID: Param = Param::new("study_id", Kind::Id, "study id, e.g. GCST007798");
/// PubMed id.
pub const PMID: Param = Param::new("pmid", Kind::Id, "PubMed id, PMID:<n> or <n>");

/// `/studies` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::One(studies::COLL),
    filters: &[
        NodeFilter::Key(&STUDY_ID),
        NodeFilter::ExactAny(&PMID, studies::m::pmid, |v| with_and_without("PMID:", v)),
        NodeFilter::Fileset(&FILESET, studies::m::files_filesets),
    ],
    shape: &STUDY,
};
