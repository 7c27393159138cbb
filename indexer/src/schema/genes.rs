//! Genes, transcripts, proteins, gene structure, and the derived gene–protein pairs.

use super::Ty::*;
use super::{f, Field, Index, Kind, Order, Spec, NODE};
use crate::derive;

const GENE_FIELDS: &[Field] = &[
    f("_key", Str),
    f("gene_id", Str),
    f("chr", Str),
    f("start", Int),
    f("end", Int),
    f("gene_type", Str),
    f("name", Str),
    f("symbol", Str),
    f("strand", Str),
    f("hgnc", Str),
    f("entrez", Str),
    f("mgi", Str),
    f("collections", StrArray),
    f("study_sets", StrArray),
    f("source", Str),
    f("version", Str),
    f("source_url", Str),
    f("synonyms", StrArray),
    f("organism", Str),
];
const GENE_INDEXES: &[Index] = &[
    Index::Text("name"),
    Index::Exact("hgnc"),
    Index::Exact("synonyms"),
    Index::Exact("gene_id"),
    Index::Exact("symbol"),
    Index::Intervals {
        chr: "chr",
        start: "start",
        end: "end",
    },
    Index::Ends {
        chr: "chr",
        end: "end",
    },
];
const GENE_KNOWN: &[&str] = &["version_number"];

pub(super) const GENES: Spec = Spec {
    name: "genes",
    fields: GENE_FIELDS,
    known: GENE_KNOWN,
    indexes: GENE_INDEXES,
    ..NODE
};
pub(super) const MM_GENES: Spec = Spec {
    name: "mm_genes",
    ..GENES
};

const TRANSCRIPT_FIELDS: &[Field] = &[
    f("_key", Str),
    f("transcript_id", Str),
    f("name", Str),
    f("transcript_type", Str),
    f("chr", Str),
    f("start", Int),
    f("end", Int),
    f("strand", Str),
    f("gene_name", Str),
    f("source", Str),
    f("version", Str),
    f("source_url", Str),
    f("organism", Str),
    f("MANE_Select", Bool),
];
pub(super) const TRANSCRIPTS: Spec = Spec {
    name: "transcripts",
    fields: TRANSCRIPT_FIELDS,
    indexes: &[
        Index::Facet("transcript_type"),
        Index::Intervals {
            chr: "chr",
            start: "start",
            end: "end",
        },
    ],
    ..NODE
};
pub(super) const MM_TRANSCRIPTS: Spec = Spec {
    name: "mm_transcripts",
    ..TRANSCRIPTS
};

pub(super) const PROTEINS: Spec = Spec {
    name: "proteins",
    fields: &[
        f("_key", Str),
        f("name", Str),
        f("protein_id", Str),
        f("MANE_Select", Bool),
        f("source", Str),
        f("version", Str),
        f("source_url", Str),
        f("organism", Str),
        f("uniprot_collection", Str),
        f("uniprot_ids", StrArray),
        f("uniprot_names", StrArray),
        f("uniprot_full_names", StrArray),
        f("dbxrefs", Any),
        f("dbxref_ids", StrArray),
    ],
    indexes: &[
        Index::Exact("name"),
        Index::Exact("protein_id"),
        Index::Exact("uniprot_ids"),
        Index::Exact("uniprot_names"),
        Index::Exact("uniprot_full_names"),
        Index::Exact("dbxref_ids"),
        Index::Facet("organism"),
    ],
    prepare: Some(derive::protein_dbxref_ids),
    ..NODE
};

const EDGE_BASE: &[Field] = &[
    f("_key", Str),
    f("_from", Str),
    f("_to", Str),
    f("source", Str),
    f("source_url", Str),
    f("version", Str),
    f("name", Str),
    f("inverse_name", Str),
    f("organism", Str),
];
pub(super) const EDGE_ENDS: &[Index] = &[Index::Exact("_from"), Index::Exact("_to")];

pub(super) const GENES_TRANSCRIPTS: Spec = Spec {
    name: "genes_transcripts",
    kind: Kind::Edge,
    fields: EDGE_BASE,
    known: &["biological_process"],
    indexes: EDGE_ENDS,
    ..NODE
};
pub(super) const TRANSCRIPTS_PROTEINS: Spec = Spec {
    name: "transcripts_proteins",
    ..GENES_TRANSCRIPTS
};

const STRUCTURE_FIELDS: &[Field] = &[
    f("_key", Str),
    f("name", Str),
    f("chr", Str),
    f("start", Int),
    f("end", Int),
    f("strand", Str),
    f("type", Str),
    f("gene_id", Str),
    f("gene_name", Str),
    f("transcript_id", Str),
    f("transcript_name", Str),
    f("protein_id", Str),
    f("exon_number", Str),
    f("exon_id", Str),
    f("organism", Str),
    f("source", Str),
    f("version", Str),
    f("source_url", Str),
];

/// Built after `transcripts_proteins`, whose edges give each row's `protein_id`.
pub(super) const GENES_STRUCTURE: Spec = Spec {
    name: "genes_structure",
    fields: STRUCTURE_FIELDS,
    // 4.10 order: (gene_id, transcript_id, start, _key).
    order: Order::Fields(&["gene_id", "transcript_id", "start"]),
    indexes: &[
        Index::Exact("gene_id"),
        Index::Exact("gene_name"),
        Index::Exact("transcript_id"),
        Index::Exact("transcript_name"),
        Index::Exact("protein_id"),
        Index::Facet("type"),
        Index::Intervals {
            chr: "chr",
            start: "start",
            end: "end",
        },
    ],
    prepare: Some(derive::structure_protein_id),
    ..NODE
};
pub(super) const MM_GENES_STRUCTURE: Spec = Spec {
    name: "mm_genes_structure",
    ..GENES_STRUCTURE
};

pub(super) const GENES_PROTEINS: Spec = Spec {
    name: "genes_proteins",
    kind: Kind::Derived,
    fields: &[
        f("_key", Str),
        f("gene", Str),
        f("protein", Str),
        f("organism", Str),
    ],
    order: Order::Fields(&["gene", "protein"]),
    indexes: &[
        Index::Exact("gene"),
        Index::Exact("protein"),
        Index::Facet("organism"),
    ],
    derive: Some(derive::GENES_PROTEINS),
    ..NODE
};
