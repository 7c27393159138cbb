//! `GET /genomic-elements/biosamples` (4.11): Reporter-assay (MPRA) results of genomic elements.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genomic-elements/biosamples",
    section: "4.11",
    summary: "Reporter-assay (MPRA) results of genomic elements",
    accepts: Accepts {
        params: &[
            Param::new(
                "region",
                Kind::Region(None),
                "elements overlapping chr<name>:<start>-<end>",
            ),
            Param::new(
                "region_type",
                Kind::Enum(&[
                    "accessible dna elements",
                    "candidate cis regulatory element",
                    "tested elements",
                ]),
                "element type",
            ),
            FILESET,
            Param::new("method", Kind::Enum(&["MPRA"]), "method"),
            Param::new("source", Kind::Enum(&["ENCODE", "IGVF"]), "data source"),
        ],
        rules: &[Rule::AtLeastOne(&[
            "region",
            "region_type",
            "files_fileset",
            "method",
            "source",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 50,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: elements::elements_biosamples,
    body: Body::Array(&elements::ELEMENT_BIOSAMPLE),
    examples: &[
        "region=chr1:10000-30000&verbose=true",
        "region_type=tested%20elements",
    ],
};
