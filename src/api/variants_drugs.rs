//! `GET /variants/drugs` (4.7): Drugs whose response is associated with variants (PharmGKB).

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/drugs",
    section: "4.7",
    summary: "Drugs whose response is associated with variants (PharmGKB)",
    accepts: Accepts {
        params: &[
            ID[0],
            ID[1],
            ID[2],
            ID[3],
            ID[4],
            REGION_10KB,
            Param::new(
                "phenotype_categories",
                Kind::Enum(&[
                    "Dosage",
                    "Efficacy",
                    "Metabolism/PK",
                    "Other",
                    "PD",
                    "Toxicity",
                ]),
                "phenotype category",
            ),
            Param::new("pmid", Kind::Id, "PubMed id"),
        ],
        rules: &[VARIANT_RULE],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: phenotypes::variants_drugs,
    body: Body::Array(&phenotypes::VARIANT_DRUG),
    examples: &[
        "rsid=rs900001&verbose=true",
        "region=chr1:15000-16000&phenotype_categories=Dosage",
    ],
};
