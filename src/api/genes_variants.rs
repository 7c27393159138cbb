//! `GET /genes/variants` (4.1): Variants associated with genes: QTLs, screens, variant-effect assays.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/variants",
    section: "4.1",
    summary: "Variants associated with genes: QTLs, screens, variant-effect assays",
    accepts: Accepts {
        params: &[
            GENE_PARAMS[0],
            GENE_PARAMS[1],
            GENE_PARAMS[2],
            GENE_PARAMS[3],
            GENE_PARAMS[4],
            Param::new(
                "neg_log10_pvalue",
                Kind::Threshold,
                "-log10 p-value: gt:, gte:, lt:, lte:<n> or <n>",
            ),
            Param::new("effect_size", Kind::Threshold, "effect size threshold"),
            Param::new(
                "posterior_inclusion_probability",
                Kind::Threshold,
                "fine-mapping PIP threshold",
            ),
            Param::new("log2FC", Kind::Threshold, "log2 fold change threshold"),
            Param::new(
                "significant",
                Kind::Bool,
                "significant rows only (true) or not significant (false)",
            ),
            Param::new(
                "biosample_term",
                Kind::Id,
                "ontology term id, e.g. EFO_0002784",
            ),
            Param::new(
                "biological_context",
                Kind::Text,
                "exact, else prefix, else all tokens, else one typo",
            ),
            Param::new(
                "label",
                Kind::Enum(&["eQTL", "spliceQTL", "variant effect on gene expression"]),
                "label",
            ),
            Param::new(
                "method",
                Kind::Enum(&["CRISPR screen", "Variant-EFFECTS", "eQTL", "spliceQTL"]),
                "method",
            ),
            FILESET,
            Param::new(
                "source",
                Kind::Enum(&["AFGR", "EBI", "IGVF"]),
                "data source",
            ),
            Param::new(
                "name",
                Kind::Enum(&["expression modulated by", "splicing modulated by"]),
                "relation",
            ),
        ],
        rules: &[Rule::AtLeastOne(&[
            "gene_id",
            "hgnc_id",
            "gene_name",
            "synonym",
            "region",
            "method",
            "files_fileset",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: associations::genes_variants,
    body: Body::Array(&associations::GENE_VARIANT),
    examples: &[
        "gene_name=TSTA1&verbose=true",
        "method=eQTL&neg_log10_pvalue=gte:3",
        "gene_id=ENSG90000000002&biological_context=naive",
    ],
};
