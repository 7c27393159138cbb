//! Element–element edges: a perturbed promoter's effect on chromatin accessibility at a peak
//! (IGVF Multiome Perturb-seq), the collection `genomic_elements_genomic_elements` whose members
//! are those of the IGVF client's `GenomicElementsFromGenomicElements`.

use super::{Handles, Index, Kind, Spec, NODE};

collection! {
    genomic_elements_genomic_elements {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        label: Str,
        class: Str,
        method: Str,
        source: Str,
        source_url: Str,
        files_filesets: Str,
        biological_context: Str,
        biosample_term: Str,
        treatments_term_ids: StrArray,
        crispr_modality: Str,
        log2FC: Num,
        p_value: Num,
        p_value_adj: Num,
        neg_log10_pvalue: Num,
        neg_log10_pvalue_adj: Num,
        significant: Bool,
    }
}

/// `_from` is the perturbed element (a promoter), `_to` the accessible one (a peak).
pub(super) const GENOMIC_ELEMENTS_GENOMIC_ELEMENTS: Spec = Spec {
    name: genomic_elements_genomic_elements::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: genomic_elements_genomic_elements::FIELDS,
    known: &["version", "organism"],
    indexes: &[
        Index::Exact(genomic_elements_genomic_elements::_from),
        Index::Exact(genomic_elements_genomic_elements::_to),
        Index::Exact(genomic_elements_genomic_elements::files_filesets),
        Index::Exact(genomic_elements_genomic_elements::biosample_term),
        Index::Exact(genomic_elements_genomic_elements::biological_context),
        Index::Facet(genomic_elements_genomic_elements::method),
        Index::Facet(genomic_elements_genomic_elements::source),
        Index::Facet(genomic_elements_genomic_elements::crispr_modality),
        Index::Facet(genomic_elements_genomic_elements::significant),
        Index::Number(genomic_elements_genomic_elements::log2FC),
        Index::Number(genomic_elements_genomic_elements::p_value),
        Index::Number(genomic_elements_genomic_elements::p_value_adj),
        Index::Number(genomic_elements_genomic_elements::neg_log10_pvalue),
        Index::Number(genomic_elements_genomic_elements::neg_log10_pvalue_adj),
    ],
    ..NODE
};
