//! `GET /variants/freq` (4.2): Variants by identifier or region, filtered by allele frequency.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/freq",
    section: "4.2",
    summary: "Variants by identifier or region, filtered by allele frequency",
    accepts: Accepts {
        params: &[
            Param::new(
                "source",
                Kind::Enum(varcat_indexer::schema::AF_SOURCES),
                "allele-frequency source",
            ),
            ID[0],
            ID[1],
            ID[2],
            ID[3],
            ID[4],
            Param::new(
                "region",
                Kind::Region(Some(10_000)),
                "variants in chr<name>:<start>-<end> (at most 10 kb)",
            ),
            Param::new(
                "GENCODE_category",
                Kind::Enum(&["coding", "noncoding"]),
                "GENCODE category",
            ),
            Param::new(
                "minimum_af",
                Kind::Number,
                "lowest frequency (inclusive, default 0)",
            ),
            Param::new(
                "maximum_af",
                Kind::Number,
                "highest frequency (inclusive, default 1)",
            ),
        ],
        rules: &[
            Rule::Required("source"),
            Rule::AtLeastOne(&["variant_id", "spdi", "hgvs", "rsid", "ca_id", "region"]),
        ],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: variants::freq,
    body: Body::Array(&variants::FREQUENCY),
    examples: &[
        "source=bravo_af&region=chr20:9564500-9574500&minimum_af=0.0001",
        "source=gnomad_af_total&rsid=rs900002",
    ],
};
