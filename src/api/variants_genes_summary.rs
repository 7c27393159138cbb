//! `GET /variants/genes/summary` (4.19): Expression and splicing QTLs of a variant.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/genes/summary",
    section: "4.19",
    summary: "Expression and splicing QTLs of a variant",
    accepts: Accepts {
        params: &[ID[0], ID[1], ID[2], ID[3], ID[4], FILESET],
        rules: &[ID_RULE],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: associations::genes_summary,
    body: Body::Array(&associations::QTL_SUMMARY),
    examples: &[
        "rsid=rs900001",
        "variant_id=NC_000001.11:25000:C:T",
        "hgvs=NC_000001.11:g.15001A%3EG",
    ],
};
