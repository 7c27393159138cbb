//! Ontology terms and genomic elements, and the edges from elements to genes.

use super::Ty::*;
use super::{f, Field, Index, Kind, Spec, NODE};
use crate::derive;

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

pub(super) const GENOMIC_ELEMENTS_BIOSAMPLES: Spec = Spec {
    name: "genomic_elements_biosamples",
    kind: Kind::Edge,
    fields: &[
        f("_key", Str),
        f("_from", Str),
        f("_to", Str),
        f("log2FC", Num),
        f("strand", Str),
        f("neg_log10_pvalue", Num),
        f("neg_log10_pvalue_adj", Num),
        f("DNA_count", Num),
        f("RNA_count", Num),
        f("significant", Bool),
        f("source", Str),
        f("source_url", Str),
        f("name", Str),
        f("inverse_name", Str),
        f("label", Str),
        f("class", Str),
        f("method", Str),
        f("files_filesets", Str),
        f("biological_context", Str),
        f("biosample_term", Str),
        f("element_type", Str),
    ],
    known: &["bed_score", "treatments_term_ids"],
    indexes: &[
        Index::Exact("_from"),
        Index::Facet("element_type"),
        Index::Facet("source"),
        Index::Facet("method"),
        Index::Exact("files_filesets"),
    ],
    prepare: Some(derive::element_type),
    ..NODE
};

/// Gene–disease associations (GenCC, Orphanet); built after the ClinGen edges, whose variants
/// and inheritance mode for the same disease and gene each row carries.
pub(super) const DISEASES_GENES: Spec = Spec {
    name: "diseases_genes",
    kind: Kind::Edge,
    fields: &[
        f("_key", Str),
        f("_from", Str),
        f("_to", Str),
        f("pmids", StrArray),
        f("term_name", Str),
        f("gene_symbol", Str),
        f("sgc_id", Str),
        f("hgnc", Str),
        f("classification", Str),
        f("moi_id", Str),
        f("moi_name", Str),
        f("submitter", Str),
        f("association_type", Str),
        f("association_status", Str),
        f("class", Str),
        f("method", Str),
        f("label", Str),
        f("files_filesets", Str),
        f("source", Str),
        f("source_url", Str),
        f("name", Str),
        f("inverse_name", Str),
        f("inheritance_mode", Str),
        f("variants", Any),
    ],
    indexes: &[
        Index::Exact("_from"),
        Index::Facet("source"),
        Index::Text("term_name"),
    ],
    prepare: Some(derive::disease_gene_variants),
    ..NODE
};

pub(super) const PATHWAYS: Spec = Spec {
    name: "pathways",
    fields: &[
        f("_key", Str),
        f("name", Str),
        f("organism", Str),
        f("source", Str),
        f("source_url", Str),
        f("id_version", Str),
        f("is_in_disease", Bool),
        f("is_top_level_pathway", Bool),
        f("name_aliases", StrArray),
        f("disease_ontology_terms", StrArray),
        f("go_biological_process", Str),
        f("class", Str),
        f("method", Str),
        f("label", Str),
        f("files_filesets", Str),
    ],
    indexes: &[
        Index::Text("name"),
        Index::Text("name_aliases"),
        Index::Facet("is_in_disease"),
        Index::Facet("is_top_level_pathway"),
        Index::Exact("disease_ontology_terms"),
        Index::Exact("go_biological_process"),
    ],
    ..NODE
};

pub(super) const MOTIFS: Spec = Spec {
    name: "motifs",
    fields: &[
        f("_key", Str),
        f("name", Str),
        f("tf_name", Str),
        f("length", Int),
        f("pwm", Any),
        f("source", Str),
        f("source_url", Str),
        f("class", Str),
        f("method", Str),
        f("files_filesets", Str),
    ],
    known: &["baseline"],
    indexes: &[Index::Exact("tf_name"), Index::Facet("source")],
    ..NODE
};

pub(super) const COMPLEXES: Spec = Spec {
    name: "complexes",
    fields: &[
        f("_key", Str),
        f("name", Str),
        f("alias", StrArray),
        f("molecules", StrArray),
        f("evidence_code", Str),
        f("experimental_evidence", Str),
        f("description", Str),
        f("complex_assembly", Any),
        f("complex_source", Str),
        f("reactome_xref", StrArray),
        f("class", Str),
        f("method", Str),
        f("label", Str),
        f("files_filesets", Str),
        f("source", Str),
        f("source_url", Str),
    ],
    ..NODE
};

pub(super) const MOTIFS_PROTEINS: Spec = Spec {
    name: "motifs_proteins",
    kind: Kind::Edge,
    fields: &[
        f("_key", Str),
        f("_from", Str),
        f("_to", Str),
        f("name", Str),
        f("inverse_name", Str),
        f("source", Str),
        f("source_url", Str),
        f("class", Str),
        f("method", Str),
        f("files_filesets", Str),
    ],
    known: &["biological_process"],
    indexes: &[
        Index::Exact("_from"),
        Index::Facet("method"),
        Index::Exact("files_filesets"),
    ],
    ..NODE
};

pub(super) const ONTOLOGY_TERMS_ONTOLOGY_TERMS: Spec = Spec {
    name: "ontology_terms_ontology_terms",
    kind: Kind::Edge,
    fields: &[
        f("_key", Str),
        f("_from", Str),
        f("_to", Str),
        f("name", Str),
        f("inverse_name", Str),
        f("source", Str),
        f("source_url", Str),
        f("class", Str),
        f("method", Str),
        f("files_filesets", Str),
    ],
    indexes: &[
        Index::Exact("_from"),
        Index::Exact("_to"),
        Index::Facet("name"),
    ],
    ..NODE
};
