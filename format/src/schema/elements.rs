//! Ontology terms and genomic elements, and the edges from elements to genes.

use super::{Handles, Index, Kind, Spec, NODE};

collection! {
    ontology_terms {
        _key: Str,
        uri: Str,
        term_id: Str,
        name: Str,
        synonyms: StrArray,
        description: Str,
        source: Str,
        source_url: Str,
        subontology: Str,
        class: Str,
        method: Str,
        files_filesets: Str,
    }
}

pub(super) const ONTOLOGY_TERMS: Spec = Spec {
    name: ontology_terms::NAME,
    keyed: Some("term ids (/ontology-terms, the phenotype, disease and biosample anchors, transitive closure); handles in the term edges and every biosample_term member"),
    fields: ontology_terms::FIELDS,
    known: &["subset"],
    indexes: &[
        Index::Text(ontology_terms::name),
        Index::Text(ontology_terms::synonyms),
        Index::Facet(ontology_terms::source),
        Index::Facet(ontology_terms::subontology),
        Index::Exact(ontology_terms::files_filesets),
    ],
    ..NODE
};

collection! {
    genomic_elements {
        _key: Str,
        name: Str,
        chr: Str,
        start: Int,
        end: Int,
        strand: Str,
        r#type: Str,
        source_annotation: Str,
        method: Str,
        source: Str,
        source_url: Str,
        files_filesets: Str,
        promoter_of: Str,
    }
}

pub(super) const GENOMIC_ELEMENTS: Spec = Spec {
    name: genomic_elements::NAME,
    keyed: Some("handles in variants_genomic_elements._to, genomic_elements_genes._from, genomic_elements_biosamples._from, … (joins, verbose)"),
    fields: genomic_elements::FIELDS,
    known: &["simple_sample_summaries", "treatments_term_ids"],
    indexes: &[
        Index::Facet(genomic_elements::r#type),
        Index::Facet(genomic_elements::source_annotation),
        Index::Facet(genomic_elements::method),
        Index::Facet(genomic_elements::source),
        Index::Exact(genomic_elements::files_filesets),
        // The gene a perturbed promoter belongs to (gene regulatory network, element pairs).
        Index::Exact(genomic_elements::promoter_of),
        Index::Intervals {
            chr: genomic_elements::chr,
            start: genomic_elements::start,
            end: genomic_elements::end,
        },
    ],
    ..NODE
};

collection!(mm_genomic_elements = genomic_elements);

pub(super) const MM_GENOMIC_ELEMENTS: Spec = Spec {
    name: mm_genomic_elements::NAME,
    keyed: None,
    ..GENOMIC_ELEMENTS
};

collection! {
    genomic_elements_genes {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        label: Str,
        method: Str,
        class: Str,
        files_filesets: Str,
        biological_context: Str,
        biosample_term: Str,
        cell_annotation: Str,
        score: Num,
        effect_size: Num,
        log2FC: Num,
        p_value: Num,
        p_value_adj: Num,
        neg_log10_pvalue: Num,
        neg_log10_pvalue_adj: Num,
        significant: Bool,
        crispr_modality: Str,
        cell_annotation_term: Str,
        treatments_term_ids: StrArray,
        z_score: Num,
        t_score: Num,
        idr: Num,
        transcription_start_site: Num,
        rna_pseudobulk_tpm: Num,
        log2FC_ci95_lower: Num,
        log2FC_ci95_upper: Num,
        effect_size_ci_95: Num,
        pct_1: Num,
        pct_2: Num,
        num_guides: Num,
        num_cells: Num,
        fold_change: Num,
        background_corrected_fold_change: Num,
        cpm_perturb: Num,
        cpm_bg: Num,
        gamma_approximation_ln_p_value: Num,
        hypergeometric_ln_p_value: Num,
        empirical_p_value: Num,
    }
}

pub(super) const GENOMIC_ELEMENTS_GENES: Spec = Spec {
    name: genomic_elements_genes::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: genomic_elements_genes::FIELDS,
    indexes: &[
        Index::Exact(genomic_elements_genes::_from),
        Index::Exact(genomic_elements_genes::_to),
        Index::Facet(genomic_elements_genes::method),
        Index::Exact(genomic_elements_genes::files_filesets),
        Index::Exact(genomic_elements_genes::biosample_term),
        Index::Exact(genomic_elements_genes::cell_annotation),
        Index::Exact(genomic_elements_genes::cell_annotation_term),
        Index::Facet(genomic_elements_genes::source),
        Index::Facet(genomic_elements_genes::significant),
        Index::Facet(genomic_elements_genes::crispr_modality),
        Index::Text(genomic_elements_genes::biological_context),
        Index::Number(genomic_elements_genes::score),
        Index::Number(genomic_elements_genes::effect_size),
        Index::Number(genomic_elements_genes::log2FC),
        Index::Number(genomic_elements_genes::neg_log10_pvalue),
        Index::Number(genomic_elements_genes::neg_log10_pvalue_adj),
        Index::Number(genomic_elements_genes::z_score),
        Index::Number(genomic_elements_genes::idr),
    ],
    ..NODE
};

collection! {
    genomic_elements_biosamples {
        _key: Str,
        _from: Str,
        _to: Str,
        log2FC: Num,
        strand: Str,
        neg_log10_pvalue: Num,
        neg_log10_pvalue_adj: Num,
        DNA_count: Num,
        RNA_count: Num,
        significant: Bool,
        source: Str,
        source_url: Str,
        name: Str,
        inverse_name: Str,
        label: Str,
        class: Str,
        method: Str,
        files_filesets: Str,
        biological_context: Str,
        biosample_term: Str,
        element_type: Str,
    }
}

pub(super) const GENOMIC_ELEMENTS_BIOSAMPLES: Spec = Spec {
    name: genomic_elements_biosamples::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: genomic_elements_biosamples::FIELDS,
    known: &["bed_score", "treatments_term_ids"],
    indexes: &[
        Index::Exact(genomic_elements_biosamples::_from),
        Index::Exact(genomic_elements_biosamples::_to),
        Index::Facet(genomic_elements_biosamples::element_type),
        Index::Facet(genomic_elements_biosamples::source),
        Index::Facet(genomic_elements_biosamples::method),
        Index::Exact(genomic_elements_biosamples::files_filesets),
    ],
    ..NODE
};

collection! {
    diseases_genes {
        _key: Str,
        _from: Str,
        _to: Str,
        pmids: StrArray,
        term_name: Str,
        gene_symbol: Str,
        sgc_id: Str,
        hgnc: Str,
        classification: Str,
        moi_id: Str,
        moi_name: Str,
        submitter: Str,
        association_type: Str,
        association_status: Str,
        class: Str,
        method: Str,
        label: Str,
        files_filesets: Str,
        source: Str,
        source_url: Str,
        name: Str,
        inverse_name: Str,
        inheritance_mode: Str,
        variants: Any,
    }
}

/// Gene–disease associations (GenCC, Orphanet); built after the ClinGen edges, whose variants
/// and inheritance mode for the same disease and gene each row carries.
pub(super) const DISEASES_GENES: Spec = Spec {
    name: diseases_genes::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: diseases_genes::FIELDS,
    indexes: &[
        Index::Exact(diseases_genes::_from),
        Index::Exact(diseases_genes::_to),
        Index::Facet(diseases_genes::source),
        Index::Text(diseases_genes::term_name),
    ],
    ..NODE
};

collection! {
    pathways {
        _key: Str,
        name: Str,
        organism: Str,
        source: Str,
        source_url: Str,
        id_version: Str,
        is_in_disease: Bool,
        is_top_level_pathway: Bool,
        name_aliases: StrArray,
        disease_ontology_terms: StrArray,
        go_biological_process: Str,
        class: Str,
        method: Str,
        label: Str,
        files_filesets: Str,
    }
}

pub(super) const PATHWAYS: Spec = Spec {
    name: pathways::NAME,
    keyed: Some("/pathways `pathway_id`; handles in genes_pathways._to, pathways_pathways"),
    fields: pathways::FIELDS,
    indexes: &[
        Index::Text(pathways::name),
        Index::Text(pathways::name_aliases),
        Index::Facet(pathways::is_in_disease),
        Index::Facet(pathways::is_top_level_pathway),
        Index::Exact(pathways::disease_ontology_terms),
        Index::Exact(pathways::go_biological_process),
    ],
    ..NODE
};

collection! {
    motifs {
        _key: Str,
        name: Str,
        tf_name: Str,
        length: Int,
        pwm: Any,
        source: Str,
        source_url: Str,
        class: Str,
        method: Str,
        files_filesets: Str,
    }
}

pub(super) const MOTIFS: Spec = Spec {
    name: motifs::NAME,
    keyed: Some("handles in motifs_proteins._from, variants_proteins.motif (verbose)"),
    fields: motifs::FIELDS,
    known: &["baseline"],
    indexes: &[
        Index::Exact(motifs::tf_name),
        Index::Facet(motifs::source),
        Index::Facet(motifs::method),
        Index::Exact(motifs::files_filesets),
    ],
    ..NODE
};

collection! {
    complexes {
        _key: Str,
        name: Str,
        alias: StrArray,
        molecules: StrArray,
        evidence_code: Str,
        experimental_evidence: Str,
        description: Str,
        complex_assembly: Any,
        complex_source: Str,
        reactome_xref: StrArray,
        class: Str,
        method: Str,
        label: Str,
        files_filesets: Str,
        source: Str,
        source_url: Str,
    }
}

pub(super) const COMPLEXES: Spec = Spec {
    name: complexes::NAME,
    keyed: Some("/complexes `complex_id`; handles in complexes_proteins._from, motifs_proteins._to, variants_proteins._to"),
    fields: complexes::FIELDS,
    indexes: &[
        Index::Text(complexes::name),
        Index::Text(complexes::description),
    ],
    ..NODE
};

collection! {
    motifs_proteins {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        class: Str,
        method: Str,
        files_filesets: Str,
    }
}

pub(super) const MOTIFS_PROTEINS: Spec = Spec {
    name: motifs_proteins::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: motifs_proteins::FIELDS,
    known: &["biological_process"],
    indexes: &[
        Index::Exact(motifs_proteins::_from),
        Index::Exact(motifs_proteins::_to),
        Index::Facet(motifs_proteins::method),
        Index::Exact(motifs_proteins::files_filesets),
    ],
    ..NODE
};

collection! {
    ontology_terms_ontology_terms {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        class: Str,
        method: Str,
        files_filesets: Str,
    }
}

pub(super) const ONTOLOGY_TERMS_ONTOLOGY_TERMS: Spec = Spec {
    name: ontology_terms_ontology_terms::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: ontology_terms_ontology_terms::FIELDS,
    indexes: &[
        Index::Exact(ontology_terms_ontology_terms::_from),
        Index::Exact(ontology_terms_ontology_terms::_to),
        Index::Facet(ontology_terms_ontology_terms::name),
    ],
    ..NODE
};

collection! {
    genomic_elements_phenotypes {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        version: Str,
        organism: Str,
        z_score: Num,
        p_value: Num,
        neg_log10_pvalue: Num,
        significant: Bool,
        num_guides: Num,
        num_guides_hit: Num,
        num_guides_nonhit: Num,
        fraction_guides_hit: Num,
        method: Str,
        crispr_modality: Str,
        class: Str,
        label: Str,
        files_filesets: Str,
        biological_context: Str,
        biosample_term: Str,
    }
}

/// Effects of genomic elements on phenotypes (CRISPR screens): element → ontology term.
pub(super) const GENOMIC_ELEMENTS_PHENOTYPES: Spec = Spec {
    name: genomic_elements_phenotypes::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: genomic_elements_phenotypes::FIELDS,
    known: &["treatments_term_ids"],
    indexes: &[
        Index::Exact(genomic_elements_phenotypes::_from),
        Index::Exact(genomic_elements_phenotypes::_to),
        Index::Exact(genomic_elements_phenotypes::files_filesets),
        Index::Facet(genomic_elements_phenotypes::method),
        Index::Facet(genomic_elements_phenotypes::significant),
    ],
    ..NODE
};
