//! Overexpression screens: MORF (a gene's open reading frame, one transcript, overexpressed)
//! and the readout genes whose expression it changes.

use super::{Handles, Index, Kind, Spec, NODE};

collection! {
    genes_transcripts_genes {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        morf_id: Str,
        transcript_mapping_method: Str,
        log2FC: Num,
        standard_error: Num,
        base_mean: Num,
        p_value: Num,
        p_value_adj: Num,
        neg_log10_pvalue: Num,
        neg_log10_pvalue_adj: Num,
        significant: Bool,
        label: Str,
        class: Str,
        method: Str,
        files_filesets: Str,
        biological_context: Str,
        biosample_term: Str,
        treatments_term_ids: StrArray,
    }
}

/// Members IGVF's MORF adapter writes into `genes_transcripts_genes` documents that the catalog
/// keeps under other names.
#[allow(non_upper_case_globals)]
pub mod genes_transcripts_genes_input {
    /// The standard error of `log2FC` (the catalog's `standard_error`, which IGVF's MORF
    /// router reads under this name).
    pub const log2FC_se: &str = "log2FC_se";
}

/// MORF screen effects: `_from` is the overexpressed construct, a `genes_transcripts` edge
/// handle (gene and transcript), `_to` the readout gene (/genes/transcripts/genes).
pub(super) const GENES_TRANSCRIPTS_GENES: Spec = Spec {
    name: genes_transcripts_genes::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: genes_transcripts_genes::FIELDS,
    known: &[
        "version",
        "organism",
        genes_transcripts_genes_input::log2FC_se,
    ],
    indexes: &[
        Index::Exact(genes_transcripts_genes::_from),
        Index::Exact(genes_transcripts_genes::_to),
        Index::Exact(genes_transcripts_genes::morf_id),
        Index::Exact(genes_transcripts_genes::files_filesets),
        Index::Exact(genes_transcripts_genes::biological_context),
        Index::Exact(genes_transcripts_genes::biosample_term),
        Index::Facet(genes_transcripts_genes::method),
        Index::Facet(genes_transcripts_genes::significant),
        Index::Number(genes_transcripts_genes::log2FC),
        Index::Number(genes_transcripts_genes::p_value),
        Index::Number(genes_transcripts_genes::p_value_adj),
        Index::Number(genes_transcripts_genes::neg_log10_pvalue),
        Index::Number(genes_transcripts_genes::neg_log10_pvalue_adj),
    ],
    ..NODE
};
