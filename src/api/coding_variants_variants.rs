//! `GET /coding-variants/variants` (4.15): Variants that cause the given protein changes.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/coding-variants/variants",
    section: "4.15",
    summary: "Variants that cause the given protein changes",
    accepts: Accepts {
        params: &[
            Param::new(
                "coding_variant_name",
                Kind::Id,
                "e.g. SRY_ENST00000383070_p.A135S_c.403G>T",
            ),
            Param::new("hgvsp", Kind::Id, "protein change, e.g. p.A135S"),
            Param::new("gene_name", Kind::Id, "gene symbol (exact)"),
            Param::new("protein_id", Kind::Id, "Ensembl protein id"),
            Param::new(
                "uniprot_name",
                Kind::Id,
                "UniProt entry name, e.g. SRY_HUMAN",
            ),
            Param::new("transcript_id", Kind::Id, "Ensembl transcript id"),
            Param::new("amino_acid_position", Kind::Int, "amino-acid position"),
            Param::new(
                "alt_amino_acid",
                Kind::Enum(AMINO_ACIDS),
                "alternate amino acid, or * for a stop",
            ),
        ],
        rules: &[Rule::AtLeastOne(&[
            "coding_variant_name",
            "hgvsp",
            "protein_id",
            "uniprot_name",
            "gene_name",
            "transcript_id",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: coding::coding_variants_variants,
    body: Body::Array(&variants::SHORT_VARIANT),
    examples: &[
        "gene_name=TSTA1&amino_acid_position=1",
        "coding_variant_name=TSTA1_ENST90000000001_p.M1T_c.2T>C",
    ],
};
