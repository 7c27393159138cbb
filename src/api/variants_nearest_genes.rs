//! `GET /variants/nearest-genes` (4.18): Genes overlapping a region, else the nearest gene on each side.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/nearest-genes",
    section: "4.18",
    summary: "Genes overlapping a region, else the nearest gene on each side",
    accepts: Accepts {
        params: &[Param::new(
            "region",
            Kind::Region(Some(10_000)),
            "chr<name>:<start>-<end> (at most 10 kb)",
        )],
        rules: &[Rule::Required("region")],
        paging: Paging::Ignored,
        organisms: HUMAN,
    },
    verbose: false,
    run: variants::nearest_genes,
    body: Body::Array(&shapes::GENE),
    examples: &["region=chr20:9564500-9564600", "region=chr1:25000-25010"],
};
