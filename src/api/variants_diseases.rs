//! `GET /variants/diseases` (4.13): Diseases associated with variants (ClinGen).

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/diseases",
    section: "4.13",
    summary: "Diseases associated with variants (ClinGen)",
    accepts: Accepts {
        params: &[
            ID[0],
            ID[1],
            ID[2],
            ID[3],
            ID[4],
            REGION_10KB,
            Param::new(
                "chr",
                Kind::Id,
                "only variants on this chromosome, e.g. chr1",
            ),
            Param::new("pmid", Kind::Id, "PubMed id (or its URL)"),
            Param::new(
                "assertion",
                Kind::Enum(&[
                    "Benign",
                    "Likely Benign",
                    "Likely Pathogenic",
                    "Pathogenic",
                    "Uncertain Significance",
                ]),
                "clinical assertion",
            ),
        ],
        rules: &[VARIANT_RULE],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: phenotypes::variants_diseases,
    body: Body::Array(&phenotypes::VARIANT_DISEASE),
    examples: &[
        "rsid=rs900001&verbose=true",
        "region=chr1:20000-30000&assertion=Benign",
    ],
};
