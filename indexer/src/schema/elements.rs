//! Ontology terms and genomic elements, and the edges from elements to genes.

use super::Ty::*;
use super::{f, Field, Index, Kind, Spec, NODE};

pub(super) const ONTOLOGY_TERMS: Spec = Spec {
    name: "ontology_terms",
    fields: &[
        f("_key", Str),
        f("uri", Str),
        f("term_id", Str),
        f("name", Str),
        f("synonyms", StrArray),
        f("description", Str),
        f("source", Str),
        f("source_url", Str),
        f("subontology", Str),
        f("class", Str),
        f("method", Str),
        f("files_filesets", Str),
    ],
    known: &["subset"],
    ..NODE
};

const ELEMENT_FIELDS: &[Field] = &[
    f("_key", Str),
    f("name", Str),
    f("chr", Str),
    f("start", Int),
    f("end", Int),
    f("strand", Str),
    f("type", Str),
    f("source_annotation", Str),
    f("method", Str),
    f("source", Str),
    f("source_url", Str),
    f("files_filesets", Str),
];

pub(super) const GENOMIC_ELEMENTS: Spec = Spec {
    name: "genomic_elements",
    fields: ELEMENT_FIELDS,
    known: &["simple_sample_summaries", "treatments_term_ids"],
    indexes: &[
        Index::Facet("type"),
        Index::Intervals {
            chr: "chr",
            start: "start",
            end: "end",
        },
    ],
    ..NODE
};
pub(super) const MM_GENOMIC_ELEMENTS: Spec = Spec {
    name: "mm_genomic_elements",
    ..GENOMIC_ELEMENTS
};

pub(super) const GENOMIC_ELEMENTS_GENES: Spec = Spec {
    name: "genomic_elements_genes",
    kind: Kind::Edge,
    fields: &[
        f("_key", Str),
        f("_from", Str),
        f("_to", Str),
        f("name", Str),
        f("inverse_name", Str),
        f("source", Str),
        f("source_url", Str),
        f("label", Str),
        f("method", Str),
        f("class", Str),
        f("files_filesets", Str),
        f("biological_context", Str),
        f("biosample_term", Str),
        f("cell_annotation", Str),
        f("score", Num),
        f("effect_size", Num),
        f("log2FC", Num),
        f("p_value", Num),
        f("p_value_adj", Num),
        f("neg_log10_pvalue", Num),
        f("neg_log10_pvalue_adj", Num),
        f("significant", Bool),
        f("crispr_modality", Str),
    ],
    known: &["treatments_term_ids"],
    indexes: &[
        Index::Exact("_from"),
        Index::Facet("method"),
        Index::Exact("files_filesets"),
    ],
    ..NODE
};
