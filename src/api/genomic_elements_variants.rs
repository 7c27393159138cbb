//! `GET /genomic-elements/variants` (4.5): Variants associated with genomic elements (caQTLs).

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genomic-elements/variants",
    section: "4.5",
    summary: "Variants associated with genomic elements (caQTLs)",
    accepts: Accepts {
        params: &[
            Param::new(
                "region",
                Kind::Region(None),
                "elements overlapping chr<name>:<start>-<end>",
            ),
            Param::new(
                "region_type",
                Kind::Enum(&["accessible dna elements"]),
                "element type",
            ),
            Param::new(
                "biosample_term",
                Kind::Id,
                "ontology term id, e.g. EFO_0002067",
            ),
            Param::new(
                "biological_context",
                Kind::Text,
                "exact, else prefix, else all tokens, else one typo",
            ),
            Param::new("method", Kind::Enum(&["caQTL"]), "method"),
            FILESET,
        ],
        rules: &[Rule::AtLeastOne(&[
            "region",
            "region_type",
            "method",
            "files_fileset",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 300,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: elements::elements_variants,
    body: Body::Array(&elements::ELEMENT_VARIANT),
    examples: &[
        "region=chr1:24000-26000",
        "method=caQTL&biological_context=hepg",
    ],
};
