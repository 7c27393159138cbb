//! `GET /variants/coding-variants` (4.14): Coding consequences and scores of a variant.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/coding-variants",
    section: "4.14",
    summary: "Coding consequences and scores of a variant",
    accepts: Accepts {
        params: &[ID[0], ID[1], ID[2], ID[3], ID[4]],
        rules: &[Rule::AtLeastOne(&[
            "variant_id",
            "spdi",
            "hgvs",
            "rsid",
            "ca_id",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: coding::variants_coding_variants,
    body: Body::Array(&coding::CODING_VARIANT),
    examples: &[
        "spdi=NC_000001.11:15000:A:G",
        "rsid=rs900004",
        "ca_id=CA800003",
    ],
};
