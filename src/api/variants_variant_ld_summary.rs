//! `GET /variants/variant-ld/summary` (4.12): Variants in linkage disequilibrium with a variant, with their QTLs and TF binding.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/variant-ld/summary",
    section: "4.12",
    summary: "Variants in linkage disequilibrium with a variant, with their QTLs and TF binding",
    accepts: Accepts {
        params: &[ID[0], ID[1], ID[2], ID[3], ID[4]],
        rules: &[ID_RULE],
        paging: Paging::Paged {
            default: 15,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: predictions::ld_summary,
    body: Body::Array(&predictions::LD_SUMMARY),
    examples: &[
        "rsid=rs900001",
        "spdi=NC_000001.11:15000:A:T",
        "ca_id=CA800001",
    ],
};
