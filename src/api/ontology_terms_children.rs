//! `GET /ontology-terms/{ontology_term_id}/children` (4.20): Terms that are a subclass of an ontology term.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/ontology-terms/{ontology_term_id}/children",
    section: "4.20",
    summary: "Terms that are a subclass of an ontology term",
    accepts: Accepts {
        params: &[Param::new("ontology_term_id", Kind::TermId, TERM_PATH)],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: ontology::children,
    body: Body::Array(&ontology::CHILD),
    examples: &[
        "/ontology-terms/VCT_0000002/children",
        "/ontology-terms/VCT_0000003/children?limit=2&page=1",
    ],
};
