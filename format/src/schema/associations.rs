//! Associations of variants with genes, proteins, elements, phenotypes, biosamples, drugs,
//! diseases and other variants, and the nodes they expand to (studies, drugs).

use super::{Blocking, Handles, Index, Kind, Spec, NODE};

collection! {
    studies {
        _key: Str,
        name: Str,
        ancestry_initial: Str,
        ancestry_replication: Str,
        n_cases: Str,
        n_initial: Str,
        n_replication: Str,
        pmid: Str,
        pub_author: Str,
        pub_date: Str,
        pub_journal: Str,
        pub_title: Str,
        has_sumstats: Str,
        num_assoc_loci: Str,
        study_source: Str,
        trait_reported: Str,
        trait_efos: Str,
        trait_category: Str,
        source: Str,
        source_url: Str,
        study_type: Str,
        version: Str,
        files_filesets: Str,
    }
}

pub(super) const STUDIES: Spec = Spec {
    name: studies::NAME,
    keyed: Some(
        "/studies `study_id`; handles in variants_phenotypes.study, variants_genes.study (verbose)",
    ),
    fields: studies::FIELDS,
    indexes: &[
        Index::Exact(studies::pmid),
        Index::Exact(studies::files_filesets),
    ],
    ..NODE
};

collection! {
    drugs {
        _key: Str,
        name: Str,
        drug_ontology_terms: StrArray,
        source: Str,
        source_url: Str,
        class: Str,
        method: Str,
        files_filesets: Str,
    }
}

pub(super) const DRUGS: Spec = Spec {
    name: drugs::NAME,
    keyed: Some("/drugs `drug_id`; handles in variants_drugs._to"),
    fields: drugs::FIELDS,
    indexes: &[Index::Text(drugs::name)],
    ..NODE
};

collection! {
    variants_genes {
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
        effect_size: Num,
        log2FC: Num,
        neg_log10_pvalue: Num,
        neg_log10_pvalue_adj: Num,
        power: Num,
        posterior_inclusion_probability: Num,
        coefficient_stddev: Num,
        significant: Bool,
        crispr_modality: Str,
        chr: Str,
        p_value: Num,
        intron_chr: Str,
        intron_start: Int,
        intron_end: Int,
        study: Str,
        standard_error: Num,
        z_score: Num,
        credible_set_min_r2: Num,
    }
}

pub(super) const VARIANTS_GENES: Spec = Spec {
    name: variants_genes::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    cluster: Some(variants_genes::_to),
    fields: variants_genes::FIELDS,
    known: &[
        "treatments_term_ids",
        "biological_process",
        "molecular_trait_id",
        "gene_id",
        "credible_set_id",
        "rsid",
        "credible_set_size",
        "region",
        "variant_chromosome_position_ref_alt",
    ],
    indexes: &[
        Index::Exact(variants_genes::_from),
        Index::Exact(variants_genes::_to),
        Index::Facet(variants_genes::method),
        Index::Facet(variants_genes::label),
        Index::Facet(variants_genes::source),
        Index::Facet(variants_genes::inverse_name),
        Index::Facet(variants_genes::significant),
        Index::Exact(variants_genes::biosample_term),
        Index::Exact(variants_genes::files_filesets),
        Index::Text(variants_genes::biological_context),
    ],
    numbers: &[
        variants_genes::neg_log10_pvalue,
        variants_genes::effect_size,
        variants_genes::log2FC,
        variants_genes::posterior_inclusion_probability,
    ],
    ..NODE
};

collection! {
    variants_proteins {
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
        motif: Str,
        motif_conc: Str,
        neg_log10_pvalue: Num,
        regulatory_type: Str,
        gene: Str,
        gene_consequence: Str,
        beta: Num,
        se: Num,
        p_value: Num,
        p_value_adj: Num,
        p_value_adj_ref: Num,
        p_value_adj_alt: Num,
        neg_log10_pvalue_adj: Num,
        neg_log10_pvalue_adj_ref: Num,
        neg_log10_pvalue_adj_alt: Num,
        motif_fc: Num,
        variant_effect_score: Num,
        SEMpl_annotation: Str,
        SEMpl_baseline: Num,
        alt_score: Num,
        ref_score: Num,
        relative_binding_affinity: Num,
        effect_on_binding: Str,
    }
}

pub(super) const VARIANTS_PROTEINS: Spec = Spec {
    name: variants_proteins::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: variants_proteins::FIELDS,
    known: &[
        "chr",
        "rsid",
        "motif_pos",
        "motif_orient",
        "es_mean_ref",
        "es_mean_alt",
        "biological_process",
        "experiment",
        "hg19_coordinate",
        "oligo_auc",
        "oligo_pval",
        "ref_auc",
        "alt_auc",
        "pbs",
        "ref_seq_context",
        "alt_seq_context",
    ],
    indexes: &[
        Index::Exact(variants_proteins::_from),
        Index::Exact(variants_proteins::_to),
        Index::Facet(variants_proteins::method),
        Index::Exact(variants_proteins::gene),
        Index::Exact(variants_proteins::files_filesets),
        Index::Facet(variants_proteins::label),
        Index::Facet(variants_proteins::source),
        Index::Facet(variants_proteins::name),
        Index::Facet(variants_proteins::inverse_name),
    ],
    ..NODE
};

collection! {
    variants_genomic_elements {
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
        log2FC: Num,
        neg_log10_pvalue: Num,
        beta: Num,
        element_type: Str,
    }
}

pub(super) const VARIANTS_GENOMIC_ELEMENTS: Spec = Spec {
    name: variants_genomic_elements::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: variants_genomic_elements::FIELDS,
    known: &["rsid", "method_term", "p_value"],
    indexes: &[
        Index::Exact(variants_genomic_elements::_from),
        Index::Exact(variants_genomic_elements::_to),
        Index::Facet(variants_genomic_elements::method),
        Index::Facet(variants_genomic_elements::element_type),
        Index::Exact(variants_genomic_elements::biosample_term),
        Index::Exact(variants_genomic_elements::files_filesets),
        Index::Text(variants_genomic_elements::biological_context),
    ],
    ..NODE
};

collection! {
    variants_phenotypes {
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
        study: Str,
        phenotype_term: Str,
        lead_chrom: Str,
        lead_pos: Int,
        lead_ref: Str,
        lead_alt: Str,
        direction: Str,
        beta: Num,
        beta_ci_lower: Num,
        beta_ci_upper: Num,
        oddsr_ci_lower: Num,
        oddsr_ci_upper: Num,
        p_value: Num,
        neg_log10_pvalue: Num,
        version: Str,
        score: Num,
        effect_size: Num,
        z_score: Num,
        significant: Bool,
        num_guides: Num,
        edit_rate_mean: Num,
        effect_size_ci95_lower: Num,
        effect_size_ci95_upper: Num,
        crispr_modality: Str,
    }
}

pub(super) const VARIANTS_PHENOTYPES: Spec = Spec {
    name: variants_phenotypes::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: variants_phenotypes::FIELDS,
    known: &[
        "equivalent_ontology_term",
        "odds_ratio",
        "p_val_mantissa",
        "p_val_exponent",
        "tagged_variants",
    ],
    indexes: &[
        Index::Exact(variants_phenotypes::_from),
        Index::Exact(variants_phenotypes::_to),
        Index::Facet(variants_phenotypes::method),
        Index::Facet(variants_phenotypes::label),
        Index::Facet(variants_phenotypes::class),
        Index::Exact(variants_phenotypes::files_filesets),
        Index::Facet(variants_phenotypes::source),
    ],
    numbers: &[variants_phenotypes::neg_log10_pvalue],
    ..NODE
};

collection! {
    variants_biosamples {
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
        genomic_element: Str,
        strand: Str,
        bed_score: Num,
        log2FC: Num,
        DNA_count_ref: Num,
        RNA_count_ref: Num,
        DNA_count_alt: Num,
        RNA_count_alt: Num,
        neg_log10_pvalue: Num,
        neg_log10_pvalue_adj: Num,
        significant: Bool,
        postProbEffect: Num,
        CI_lower_95: Num,
        CI_upper_95: Num,
        treatments_term_ids: StrArray,
    }
}

/// Members IGVF's STARR-seq adapter writes into `variants_biosamples` documents where its MPRA
/// adapter writes the catalog's members: the catalog keeps no member under these names.
#[allow(non_upper_case_globals)]
pub mod variants_biosamples_input {
    /// Reads of the reference allele in the input (DNA) library.
    pub const inputCountRef: &str = "inputCountRef";
    /// Reads of the reference allele in the output (RNA) library.
    pub const outputCountRef: &str = "outputCountRef";
    /// Reads of the alternative allele in the input (DNA) library.
    pub const inputCountAlt: &str = "inputCountAlt";
    /// Reads of the alternative allele in the output (RNA) library.
    pub const outputCountAlt: &str = "outputCountAlt";
    /// log2 fold change of the alternative allele's activity over the reference's.
    pub const log2FoldChange: &str = "log2FoldChange";
}

/// MPRA and STARR-seq allele effects; the builder copies STARR-seq's `inputCount*`/
/// `outputCount*`/`log2FoldChange` into the MPRA names where those are missing.
pub(super) const VARIANTS_BIOSAMPLES: Spec = Spec {
    name: variants_biosamples::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: variants_biosamples::FIELDS,
    known: &[
        variants_biosamples_input::inputCountRef,
        variants_biosamples_input::outputCountRef,
        variants_biosamples_input::inputCountAlt,
        variants_biosamples_input::outputCountAlt,
        variants_biosamples_input::log2FoldChange,
    ],
    indexes: &[
        Index::Exact(variants_biosamples::_from),
        Index::Exact(variants_biosamples::_to),
        Index::Facet(variants_biosamples::method),
        Index::Exact(variants_biosamples::genomic_element),
        Index::Exact(variants_biosamples::files_filesets),
        Index::Facet(variants_biosamples::significant),
    ],
    ..NODE
};

collection! {
    variants_drugs {
        _key: Str,
        _from: Str,
        _to: Str,
        gene_symbol: StrArray,
        pmid: Str,
        study_parameters: Any,
        phenotype_categories: StrArray,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        class: Str,
        method: Str,
        files_filesets: Str,
    }
}

pub(super) const VARIANTS_DRUGS: Spec = Spec {
    name: variants_drugs::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: variants_drugs::FIELDS,
    indexes: &[
        Index::Exact(variants_drugs::_from),
        Index::Exact(variants_drugs::_to),
        Index::Exact(variants_drugs::pmid),
        Index::Facet(variants_drugs::phenotype_categories),
    ],
    ..NODE
};

collection! {
    variants_diseases {
        _key: Str,
        _from: Str,
        _to: Str,
        gene_id: Str,
        gene_name: Str,
        assertion: Str,
        pmids: StrArray,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        class: Str,
        method: Str,
        label: Str,
        files_filesets: Str,
    }
}

/// Built after genes: each edge's `gene_name` is the name of its `gene_id` (4.13).
pub(super) const VARIANTS_DISEASES: Spec = Spec {
    name: variants_diseases::NAME,
    keyed: Some("handles in variants_diseases_genes._from (/genes/diseases and /variants/diseases join through them)"),
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: variants_diseases::FIELDS,
    indexes: &[
        Index::Exact(variants_diseases::_from),
        Index::Exact(variants_diseases::_to),
        Index::Facet(variants_diseases::assertion),
        Index::Exact(variants_diseases::pmids),
    ],
    ..NODE
};

collection! {
    variants_diseases_genes {
        _key: Str,
        _from: Str,
        _to: Str,
        inheritance_mode: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        class: Str,
        method: Str,
        label: Str,
        files_filesets: Str,
    }
}

/// ClinGen variant–disease–gene edges (`_from` is a `variants_diseases` edge); read at build time
/// for the inheritance mode of 4.6 rows.
pub(super) const VARIANTS_DISEASES_GENES: Spec = Spec {
    name: variants_diseases_genes::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: variants_diseases_genes::FIELDS,
    indexes: &[
        Index::Exact(variants_diseases_genes::_from),
        Index::Exact(variants_diseases_genes::_to),
    ],
    ..NODE
};

collection! {
    variants_variants {
        _key: Str,
        _from: Str,
        _to: Str,
        chr: Str,
        ancestry: Str,
        r2: Num,
        d_prime: Num,
        negated: Bool,
        label: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        variant_1_base_pair: Str,
        variant_2_base_pair: Str,
        variant_1_rsid: Str,
        variant_2_rsid: Str,
    }
}

/// Linkage disequilibrium (TopLD); a pair is stored once and found from either end.
pub(super) const VARIANTS_VARIANTS: Spec = Spec {
    name: variants_variants::NAME,
    kind: Kind::Edge,
    fields: variants_variants::FIELDS,
    indexes: &[
        Index::Exact(variants_variants::_from),
        Index::Exact(variants_variants::_to),
        Index::Facet(variants_variants::ancestry),
        Index::Number(variants_variants::r2),
        Index::Number(variants_variants::d_prime),
    ],
    // The `_key` (a 64-digit digest) is printed by no shape (LD_FROM, LD_TO, the LD summary)
    // and looked up by nothing: its one role is the row order, which the ordinals keep.
    key_stored: false,
    // `_from` and `_to` as variant ordinals: ≈ 60 of an LD row's bytes are its two handles.
    handles: Handles::Ordinals,
    records: Blocking::Compact,
    ..NODE
};

collection! {
    variant_ld_predictions {
        _key: Str,
        predictions: Any,
    }
}

/// Per variant (keyed by its handle): the QTL and TF-binding aggregates shown for it as an LD
/// partner (4.12), computed once at build time.
pub(super) const VARIANT_LD_PREDICTIONS: Spec = Spec {
    name: variant_ld_predictions::NAME,
    keyed: Some("the LD summary looks each partner variant's predictions up by its handle"),
    kind: Kind::Derived,
    fields: variant_ld_predictions::FIELDS,
    ..NODE
};
