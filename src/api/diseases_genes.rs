//! `GET /diseases/genes` (4.6): Genes associated with a disease (GenCC, Orphanet).

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/diseases/genes",
    section: "4.6",
    summary: "Genes associated with a disease (GenCC, Orphanet)",
    accepts: Accepts {
        params: &[
            Param::new(
                "disease_id",
                Kind::Id,
                "disease ontology term id, e.g. MONDO_0008426",
            ),
            Param::new(
                "disease_name",
                Kind::Text,
                "disease name: exact, else all tokens",
            ),
            Param::new("source", Kind::Enum(&["GenCC", "Orphanet"]), "data source"),
        ],
        rules: &[Rule::AtLeastOne(&["disease_id", "disease_name"])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: diseases::diseases_genes,
    body: Body::ArrayOf(diseases::DISEASE_GENE_SHAPES),
    examples: &[
        "disease_id=MONDO_9000001&verbose=true",
        "disease_name=test%20disease",
    ],
};
