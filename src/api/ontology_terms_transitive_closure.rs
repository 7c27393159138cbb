//! `GET /ontology-terms/{ontology_term_id_start}/transitive-closure/{ontology_term_id_end}` (4.22): All shortest paths between two ontology terms, over every relation.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/ontology-terms/{ontology_term_id_start}/transitive-closure/{ontology_term_id_end}",
    section: "4.22",
    summary: "All shortest paths between two ontology terms, over every relation",
    accepts: Accepts {
        params: &[
            Param::new("ontology_term_id_start", Kind::TermId, TERM_PATH),
            Param::new("ontology_term_id_end", Kind::TermId, TERM_PATH),
        ],
        rules: &[],
        paging: Paging::Ignored,
        organisms: HUMAN,
    },
    verbose: false,
    run: ontology::transitive_closure,
    body: Body::Object(&ontology::CLOSURE),
    examples: &[
        "/ontology-terms/VCT_0000301/transitive-closure/VCT_0000002",
        "/ontology-terms/VCT_0000310/transitive-closure/VCT_0000001",
    ],
};
