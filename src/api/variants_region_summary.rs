//! `GET /variants/region-summary` (4.25): Number of variants in a region and of their associations per method.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/region-summary",
    section: "4.25",
    summary: "Number of variants in a region and of their associations per method",
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
    run: variants::region_summary,
    body: Body::Object(&variants::REGION_SUMMARY),
    examples: &["region=chr1:15000-25000", "region=chr20:9564500-9574500"],
};
