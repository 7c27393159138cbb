//! `GET /pathways` (4.16): Reactome pathways by id, name, alias, disease and GO process.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/pathways",
    section: "4.16",
    summary: "Reactome pathways by id, name, alias, disease and GO process",
    accepts: Accepts {
        params: &[
            Param::new("id", Kind::Id, "pathway id, e.g. R-HSA-446203"),
            Param::new(
                "name",
                Kind::Text,
                "name: exact, else all tokens, else one typo",
            ),
            Param::new(
                "name_aliases",
                Kind::Text,
                "alias: exact, else all tokens, else one typo",
            ),
            Param::new("is_in_disease", Kind::Bool, "disease pathways"),
            Param::new("is_top_level_pathway", Kind::Bool, "top-level pathways"),
            Param::new(
                "disease_ontology_terms",
                Kind::Id,
                "disease term id, e.g. MONDO_0009861",
            ),
            Param::new(
                "go_biological_process",
                Kind::Id,
                "GO term id, e.g. GO_0006486",
            )
            .aliases(&["biological_process"]),
        ],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: diseases::pathways,
    body: Body::Array(&diseases::PATHWAY),
    examples: &[
        "name=Disease",
        "name=glycosilation",
        "is_top_level_pathway=true",
    ],
};
