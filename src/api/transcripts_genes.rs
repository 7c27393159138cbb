//! `GET /transcripts/genes` (4.8): Genes that transcribe the given transcripts.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/transcripts/genes",
    section: "4.8",
    summary: "Genes that transcribe the given transcripts",
    accepts: Accepts {
        params: &[
            Param::new("transcript_id", Kind::Id, "Ensembl transcript id (ENST…)"),
            Param::new(
                "region",
                Kind::Region(None),
                "transcripts overlapping chr<name>:<start>-<end>",
            ),
            Param::new(
                "transcript_type",
                Kind::Enum(TRANSCRIPT_TYPES),
                "GENCODE transcript biotype",
            ),
        ],
        rules: &[Rule::AtLeastOne(&[
            "transcript_id",
            "region",
            "transcript_type",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: transcripts::transcripts_genes,
    body: Body::Array(&transcripts::TRANSCRIPT_GENE),
    examples: &[
        "transcript_id=ENST00000353224",
        "region=chr20:9537369-9839076&verbose=true",
        "transcript_type=protein_coding&organism=Mus%20musculus",
    ],
};
