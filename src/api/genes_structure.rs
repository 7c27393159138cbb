//! `GET /genes-structure` (4.10): Exons, introns, CDS, UTRs and codons of genes, transcripts or proteins.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes-structure",
    section: "4.10",
    summary: "Exons, introns, CDS, UTRs and codons of genes, transcripts or proteins",
    accepts: Accepts {
        params: &[
            Param::new("gene_id", Kind::Id, "Ensembl gene id"),
            Param::new("gene_name", Kind::Id, "gene symbol (exact)"),
            Param::new("transcript_id", Kind::Id, "Ensembl transcript id"),
            Param::new(
                "transcript_name",
                Kind::Id,
                "transcript name, e.g. PAK5-201",
            ),
            Param::new(
                "protein_id",
                Kind::Id,
                "Ensembl protein id (with or without version) or UniProt accession",
            ),
            Param::new("protein_name", Kind::Id, "protein name (exact)"),
            Param::new(
                "region",
                Kind::Region(None),
                "features overlapping chr<name>:<start>-<end>",
            ),
            Param::new(
                "type",
                Kind::Enum(&["CDS", "UTR", "exon", "intron", "start_codon", "stop_codon"]),
                "feature type",
            ),
        ],
        rules: &[Rule::AtLeastOne(&[
            "gene_id",
            "gene_name",
            "transcript_id",
            "transcript_name",
            "protein_id",
            "protein_name",
            "region",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: transcripts::genes_structure,
    body: Body::Array(&transcripts::GENE_STRUCTURE),
    examples: &[
        "gene_name=PAK5&type=CDS",
        "protein_id=ENSP00000322957&type=exon",
        "gene_name=Rp1&organism=Mus%20musculus",
    ],
};
