//! `GET /variants/phenotypes` (4.3): Phenotypes associated with variants: GWAS, saturation editing, predictions.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/phenotypes",
    section: "4.3",
    summary: "Phenotypes associated with variants: GWAS, saturation editing, predictions",
    accepts: Accepts {
        params: &[
            ID[0],
            ID[1],
            ID[2],
            ID[3],
            ID[4],
            Param::new(
                "region",
                Kind::Region(None),
                "variants in chr<name>:<start>-<end>",
            ),
            Param::new(
                "phenotype_id",
                Kind::Id,
                "phenotype ontology term id, e.g. EFO_0000001",
            ),
            Param::new(
                "neg_log10_pvalue",
                Kind::Threshold,
                "-log10 p-value threshold",
            ),
            Param::new(
                "method",
                Kind::Enum(&["CRISPR screen", "GWAS", "SGE", "cV2F"]),
                "method",
            ),
            Param::new(
                "label",
                Kind::Enum(&[
                    "GWAS",
                    "predicted variant effect on phenotype",
                    "protein variant effect",
                    "variant effect on phenotype",
                ]),
                "label",
            ),
            Param::new(
                "class",
                Kind::Enum(&["observed data", "prediction"]),
                "class",
            ),
            FILESET,
        ],
        rules: &[Rule::AtLeastOne(&[
            "variant_id",
            "spdi",
            "hgvs",
            "rsid",
            "ca_id",
            "region",
            "method",
            "files_fileset",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: phenotypes::variants_phenotypes,
    body: Body::ArrayOf(phenotypes::PHENO_SHAPES),
    examples: &[
        "rsid=rs900001&verbose=true",
        "method=GWAS&neg_log10_pvalue=gt:7",
    ],
};
