//! `GET /genes/coding-variants/scores` (4.4): Scores of every protein change of a gene, with the variants that cause it.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/coding-variants/scores",
    section: "4.4",
    summary: "Scores of every protein change of a gene, with the variants that cause it",
    accepts: Accepts {
        params: &[
            GENE_PARAMS[0],
            GENE_PARAMS[1],
            GENE_PARAMS[2],
            GENE_PARAMS[3],
            GENE_PARAMS[4],
            Param::new(
                "method",
                Kind::Enum(SCORE_METHODS),
                "only coding variants scored by this method, and only those scores",
            ),
            Param::new(
                "files_fileset",
                Kind::Id,
                "only scores from this file set (IGVFFI…)",
            ),
        ],
        rules: &[Rule::AtLeastOne(&[
            "gene_id",
            "hgnc_id",
            "gene_name",
            "synonym",
            "region",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: coding::gene_coding_scores,
    body: Body::Array(&coding::GENE_CODING_SCORES),
    examples: &["gene_name=TSTA1", "gene_id=ENSG90000000001&method=ESM-1v"],
};
