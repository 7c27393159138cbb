//! `GET /genes/proteins` (4.24): Proteins coded by the given genes.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/proteins",
    section: "4.24",
    summary: "Proteins coded by the given genes",
    accepts: Accepts {
        params: &GENE_PARAMS,
        rules: &[Rule::AtLeastOne(&[
            "gene_id",
            "hgnc_id",
            "gene_name",
            "synonym",
            "region",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: proteins::genes_proteins,
    body: Body::Array(&proteins::GENE_PROTEIN),
    examples: &[
        "gene_id=ENSG00000101349",
        "gene_name=snap25&verbose=true",
        "hgnc_id=15916",
    ],
};
