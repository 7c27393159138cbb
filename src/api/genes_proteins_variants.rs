//! `GET /genes-proteins/variants` (4.17): Variants associated with the genes and proteins a name or id designates.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes-proteins/variants",
    section: "4.17",
    summary: "Variants associated with the genes and proteins a name or id designates",
    accepts: Accepts {
        params: &[Param::new(
            "query",
            Kind::Text,
            "gene or protein name or id (exact)",
        )],
        rules: &[Rule::Required("query")],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: associations::genes_proteins_variants,
    body: Body::Array(&associations::GENES_PROTEINS_VARIANT),
    examples: &["query=TSTA1", "query=ENSP90000000001"],
};
