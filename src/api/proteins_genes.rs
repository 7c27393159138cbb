//! `GET /proteins/genes` (4.23): Genes coding for the given proteins.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/proteins/genes",
    section: "4.23",
    summary: "Genes coding for the given proteins",
    accepts: Accepts {
        params: &[
            Param::new(
                "protein_id",
                Kind::Id,
                "Ensembl protein id (with or without version) or UniProt accession",
            ),
            Param::new("protein_name", Kind::Id, "protein name (exact)"),
            Param::new(
                "uniprot_name",
                Kind::Id,
                "UniProt entry name, e.g. PAK5_HUMAN",
            ),
            Param::new("uniprot_full_name", Kind::Id, "UniProt full name"),
            Param::new("dbxrefs", Kind::Id, "a cross-reference id, e.g. HGNC:15916"),
        ],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: proteins::proteins_genes,
    body: Body::Array(&proteins::PROTEIN_GENE),
    examples: &[
        "protein_id=ENSP00000322957",
        "uniprot_name=PAK5_HUMAN&verbose=true",
        "protein_name=Xkr4&organism=Mus%20musculus",
    ],
};
