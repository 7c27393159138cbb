//! The collections varcat stores: kept fields with their types, indexes and record order.
//!
//! This table is the one place that decides what a catalog holds. A field no endpoint returns
//! or filters on is not kept; a collection no endpoint uses is skipped. The order of [`SPECS`]
//! is the build order: a collection whose preparation or derivation reads another comes after it.

use crate::derive;

/// Node or edge collection (edges carry `_from`/`_to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Documents with `_key`.
    Node,
    /// Documents with `_from`/`_to` (and usually `_key`).
    Edge,
    /// Built by the indexer from other collections.
    Derived,
}

/// How a kept field is normalised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// Kept as given.
    Any,
    /// A string (numbers become strings).
    Str,
    /// An integer: `1234.0` and `"1234"` become `1234`.
    Int,
    /// A number: numeric strings become numbers.
    Num,
    /// A boolean.
    Bool,
    /// An array of strings: null elements are dropped (counted).
    StrArray,
}

/// A kept field.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// Member name.
    pub name: &'static str,
    /// Normalisation.
    pub ty: Ty,
}

const fn f(name: &'static str, ty: Ty) -> Field {
    Field { name, ty }
}

/// An index over a collection.
#[derive(Clone, Copy, Debug)]
pub enum Index {
    /// Exact value (each element of an array) → ordinals.
    Exact(&'static str),
    /// Exact, case-folded value and case-folded tokens → ordinals (name search tiers).
    Text(&'static str),
    /// Roaring bitmaps per value (few distinct values).
    Facet(&'static str),
    /// f64 column.
    Number(&'static str),
    /// Interval index over (chr, start, end); `with_ends` adds the by-end array.
    Intervals {
        /// Chromosome member.
        chr: &'static str,
        /// Start member (0-based).
        start: &'static str,
        /// End member (exclusive).
        end: &'static str,
    },
    /// The intervals' ends as a point index over (chr, end), for nearest-feature queries.
    Ends {
        /// Chromosome member.
        chr: &'static str,
        /// End member.
        end: &'static str,
    },
    /// Point index over (chr, pos).
    Points {
        /// Chromosome member.
        chr: &'static str,
        /// Position member (0-based).
        pos: &'static str,
    },
}

/// Record order (= ordinal order).
#[derive(Clone, Copy, Debug)]
pub enum Order {
    /// By `_key`, byte order.
    Key,
    /// By these members (strings in byte order, numbers numerically, missing last), then `_key`.
    Fields(&'static [&'static str]),
}

/// Per-document preparation run before a document is stored (derived members, renames).
pub type Prepare =
    fn(&mut serde_json::Map<String, serde_json::Value>, &derive::Ctx) -> Result<(), String>;

/// How a collection is built.
#[derive(Clone, Copy)]
pub struct Spec {
    /// Collection name.
    pub name: &'static str,
    /// Kind.
    pub kind: Kind,
    /// Kept fields (`_key`, `_from`, `_to` included where they apply).
    pub fields: &'static [Field],
    /// Fields seen in real data that no endpoint needs: dropped without a warning.
    pub known: &'static [&'static str],
    /// Record order.
    pub order: Order,
    /// Indexes.
    pub indexes: &'static [Index],
    /// Numeric columns (member names; `a.b` reads member `b` of object member `a`).
    pub numbers: &'static [&'static str],
    /// Preparation hook.
    pub prepare: Option<Prepare>,
    /// For derived tables: the generator of their documents.
    pub derive: Option<derive::Generator>,
}

const NODE: Spec = Spec {
    name: "",
    kind: Kind::Node,
    fields: &[],
    known: &[],
    order: Order::Key,
    indexes: &[],
    numbers: &[],
    prepare: None,
    derive: None,
};

use Ty::*;

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
const TRANSCRIPT_INDEXES: &[Index] = &[
    Index::Facet("transcript_type"),
    Index::Intervals {
        chr: "chr",
        start: "start",
        end: "end",
    },
];

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
const STRUCTURE_INDEXES: &[Index] = &[
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
];
/// 4.10 order: (gene_id, transcript_id, start, _key).
const STRUCTURE_ORDER: Order = Order::Fields(&["gene_id", "transcript_id", "start"]);

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
const EDGE_ENDS: &[Index] = &[Index::Exact("_from"), Index::Exact("_to")];

/// Allele-frequency sources of `annotations`, in IGVF's output order (4.2 `source`).
pub const AF_SOURCES: &[&str] = &[
    "bravo_af",
    "gnomad_af_total",
    "gnomad_af_afr",
    "gnomad_af_afr_female",
    "gnomad_af_afr_male",
    "gnomad_af_ami",
    "gnomad_af_ami_female",
    "gnomad_af_ami_male",
    "gnomad_af_amr",
    "gnomad_af_amr_female",
    "gnomad_af_amr_male",
    "gnomad_af_asj",
    "gnomad_af_asj_female",
    "gnomad_af_asj_male",
    "gnomad_af_eas",
    "gnomad_af_eas_female",
    "gnomad_af_eas_male",
    "gnomad_af_female",
    "gnomad_af_fin",
    "gnomad_af_fin_female",
    "gnomad_af_fin_male",
    "gnomad_af_male",
    "gnomad_af_nfe",
    "gnomad_af_nfe_female",
    "gnomad_af_nfe_male",
    "gnomad_af_oth",
    "gnomad_af_oth_female",
    "gnomad_af_oth_male",
    "gnomad_af_sas",
    "gnomad_af_sas_male",
    "gnomad_af_sas_female",
    "gnomad_af_raw",
];

/// Numeric columns of variants: one per allele-frequency source, read from `annotations`.
const AF_COLUMNS: &[&str] = &[
    "annotations.bravo_af",
    "annotations.gnomad_af_total",
    "annotations.gnomad_af_afr",
    "annotations.gnomad_af_afr_female",
    "annotations.gnomad_af_afr_male",
    "annotations.gnomad_af_ami",
    "annotations.gnomad_af_ami_female",
    "annotations.gnomad_af_ami_male",
    "annotations.gnomad_af_amr",
    "annotations.gnomad_af_amr_female",
    "annotations.gnomad_af_amr_male",
    "annotations.gnomad_af_asj",
    "annotations.gnomad_af_asj_female",
    "annotations.gnomad_af_asj_male",
    "annotations.gnomad_af_eas",
    "annotations.gnomad_af_eas_female",
    "annotations.gnomad_af_eas_male",
    "annotations.gnomad_af_female",
    "annotations.gnomad_af_fin",
    "annotations.gnomad_af_fin_female",
    "annotations.gnomad_af_fin_male",
    "annotations.gnomad_af_male",
    "annotations.gnomad_af_nfe",
    "annotations.gnomad_af_nfe_female",
    "annotations.gnomad_af_nfe_male",
    "annotations.gnomad_af_oth",
    "annotations.gnomad_af_oth_female",
    "annotations.gnomad_af_oth_male",
    "annotations.gnomad_af_sas",
    "annotations.gnomad_af_sas_male",
    "annotations.gnomad_af_sas_female",
    "annotations.gnomad_af_raw",
];

const VARIANT_FIELDS: &[Field] = &[
    f("_key", Str),
    f("chr", Str),
    f("pos", Int),
    f("ref", Str),
    f("alt", Str),
    f("rsid", StrArray),
    f("spdi", Str),
    f("hgvs", Str),
    f("ca_id", Str),
    f("strain", StrArray),
    f("qual", Str),
    f("files_filesets", Str),
    f("organism", Str),
    f("source", Str),
    f("source_url", Str),
    f("annotations", Any),
];
const VARIANT_INDEXES: &[Index] = &[
    Index::Exact("spdi"),
    Index::Exact("hgvs"),
    Index::Exact("ca_id"),
    Index::Exact("rsid"),
    Index::Facet("annotations.GENCODE_category"),
    Index::Points {
        chr: "chr",
        pos: "pos",
    },
];
const VARIANT_KNOWN: &[&str] = &["name", "variation_type", "vrs_digest", "filter", "fi"];

/// 4.4 order: (protein_id, aapos, hgvsp, _key); the derived score table shares it.
const CODING_ORDER: Order = Order::Fields(&["protein_id", "aapos", "hgvsp"]);

const VARIANT_EDGE: &[Field] = &[
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
];

/// Every collection varcat builds, in build order: nodes, then edges (so dangling references
/// are counted against complete node collections), then derived tables.
pub const SPECS: &[Spec] = &[
    Spec {
        name: "genes",
        fields: GENE_FIELDS,
        known: GENE_KNOWN,
        indexes: GENE_INDEXES,
        ..NODE
    },
    Spec {
        name: "mm_genes",
        fields: GENE_FIELDS,
        known: GENE_KNOWN,
        indexes: GENE_INDEXES,
        ..NODE
    },
    Spec {
        name: "transcripts",
        fields: TRANSCRIPT_FIELDS,
        indexes: TRANSCRIPT_INDEXES,
        ..NODE
    },
    Spec {
        name: "mm_transcripts",
        fields: TRANSCRIPT_FIELDS,
        indexes: TRANSCRIPT_INDEXES,
        ..NODE
    },
    Spec {
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
    },
    Spec {
        name: "variants",
        fields: VARIANT_FIELDS,
        known: VARIANT_KNOWN,
        indexes: VARIANT_INDEXES,
        numbers: AF_COLUMNS,
        prepare: Some(derive::human_variant),
        ..NODE
    },
    Spec {
        name: "mm_variants",
        fields: VARIANT_FIELDS,
        known: VARIANT_KNOWN,
        indexes: VARIANT_INDEXES,
        prepare: Some(derive::mouse_variant),
        ..NODE
    },
    Spec {
        name: "coding_variants",
        fields: &[
            f("_key", Str),
            f("name", Str),
            f("ref", Str),
            f("alt", Str),
            f("protein_name", Str),
            f("protein_id", Str),
            f("gene_name", Str),
            f("transcript_id", Str),
            f("hgvsp", Str),
            f("hgvsc", Str),
            f("refcodon", Str),
            f("aapos", Int),
            f("codonpos", Int),
            f("SIFT_score", Num),
            f("SIFT4G_score", Num),
            f("Polyphen2_HDIV_score", Num),
            f("Polyphen2_HVAR_score", Num),
            f("VEST4_score", Num),
            f("REVEL_score", Num),
            f("MutPred_score", Num),
            f("BayesDel_addAF_score", Num),
            f("BayesDel_noAF_score", Num),
            f("VARITY_R_score", Num),
            f("VARITY_ER_score", Num),
            f("VARITY_R_LOO_score", Num),
            f("VARITY_ER_LOO_score", Num),
            f("ESM1b_score", Num),
            f("AlphaMissense_score", Num),
            f("CADD_raw_score", Num),
            f("source", Str),
            f("source_url", Str),
        ],
        order: CODING_ORDER,
        indexes: &[
            Index::Exact("name"),
            Index::Exact("hgvsp"),
            Index::Exact("gene_name"),
            Index::Exact("protein_id"),
            Index::Exact("protein_name"),
            Index::Exact("transcript_id"),
            Index::Exact("aapos"),
            Index::Facet("alt"),
        ],
        prepare: Some(derive::coding_variant_name),
        ..NODE
    },
    Spec {
        name: "genes_transcripts",
        kind: Kind::Edge,
        fields: EDGE_BASE,
        known: &["biological_process"],
        indexes: EDGE_ENDS,
        ..NODE
    },
    Spec {
        name: "transcripts_proteins",
        kind: Kind::Edge,
        fields: EDGE_BASE,
        known: &["biological_process"],
        indexes: EDGE_ENDS,
        ..NODE
    },
    Spec {
        name: "genes_structure",
        fields: STRUCTURE_FIELDS,
        order: STRUCTURE_ORDER,
        indexes: STRUCTURE_INDEXES,
        prepare: Some(derive::structure_protein_id),
        ..NODE
    },
    Spec {
        name: "mm_genes_structure",
        fields: STRUCTURE_FIELDS,
        order: STRUCTURE_ORDER,
        indexes: STRUCTURE_INDEXES,
        prepare: Some(derive::structure_protein_id),
        ..NODE
    },
    Spec {
        name: "variants_coding_variants",
        kind: Kind::Edge,
        fields: &[
            f("_key", Str),
            f("_from", Str),
            f("_to", Str),
            f("name", Str),
            f("inverse_name", Str),
            f("source", Str),
            f("source_url", Str),
        ],
        known: &["chr", "pos", "ref", "alt"],
        indexes: EDGE_ENDS,
        ..NODE
    },
    Spec {
        name: "coding_variants_phenotypes",
        kind: Kind::Edge,
        fields: &[
            f("_key", Str),
            f("_from", Str),
            f("_to", Str),
            f("method", Str),
            f("class", Str),
            f("label", Str),
            f("name", Str),
            f("inverse_name", Str),
            f("source", Str),
            f("source_url", Str),
            f("files_filesets", Str),
            f("biosample_term", Str),
            f("biological_context", Str),
            f("esm_1v_score", Num),
            f("pathogenicity_score", Num),
            f("score", Num),
            f("dualipa_abun_score", Num),
            f("localization_score", Num),
        ],
        known: &[
            "variants",
            "standard_error",
            "95_ci_upper",
            "95_ci_lower",
            "hgvs_p",
            "functional_consequence",
            "SGE_score",
            "treatments_term_ids",
        ],
        indexes: &[Index::Exact("_from")],
        ..NODE
    },
    Spec {
        name: "variants_genes",
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
            f("effect_size", Num),
            f("log2FC", Num),
            f("neg_log10_pvalue", Num),
            f("neg_log10_pvalue_adj", Num),
            f("power", Num),
            f("posterior_inclusion_probability", Num),
            f("coefficient_stddev", Num),
            f("significant", Bool),
            f("crispr_modality", Str),
            f("chr", Str),
            f("p_value", Num),
            f("intron_chr", Str),
            f("intron_start", Int),
            f("intron_end", Int),
            f("study", Str),
            f("standard_error", Num),
            f("z_score", Num),
            f("credible_set_min_r2", Num),
            f("variant_chromosome_position_ref_alt", Str),
        ],
        known: &[
            "treatments_term_ids",
            "biological_process",
            "molecular_trait_id",
            "gene_id",
            "credible_set_id",
            "rsid",
            "credible_set_size",
            "region",
        ],
        indexes: &[
            Index::Exact("_from"),
            Index::Exact("_to"),
            Index::Facet("method"),
        ],
        ..NODE
    },
    Spec {
        name: "variants_proteins",
        kind: Kind::Edge,
        fields: VARIANT_EDGE,
        known: &[
            "chr",
            "rsid",
            "motif_fc",
            "motif_pos",
            "motif_orient",
            "motif_conc",
            "motif",
            "es_mean_ref",
            "es_mean_alt",
            "p_value_adj_ref",
            "p_value_adj_alt",
            "neg_log10_pvalue_adj_ref",
            "neg_log10_pvalue_adj_alt",
            "biological_process",
            "p_value",
            "neg_log10_pvalue",
            "experiment",
            "hg19_coordinate",
            "oligo_auc",
            "oligo_pval",
            "ref_auc",
            "alt_auc",
            "pbs",
            "p_value_adj",
            "neg_log10_pvalue_adj",
            "beta",
            "se",
            "regulatory_type",
            "gene",
            "gene_consequence",
            "ref_seq_context",
            "alt_seq_context",
            "ref_score",
            "alt_score",
            "variant_effect_score",
            "SEMpl_annotation",
            "SEMpl_baseline",
        ],
        indexes: &[
            Index::Exact("_from"),
            Index::Exact("_to"),
            Index::Facet("method"),
        ],
        ..NODE
    },
    Spec {
        name: "variants_genomic_elements",
        kind: Kind::Edge,
        fields: VARIANT_EDGE,
        known: &["rsid", "method_term", "neg_log10_pvalue", "p_value", "beta"],
        indexes: &[
            Index::Exact("_from"),
            Index::Exact("_to"),
            Index::Facet("method"),
        ],
        ..NODE
    },
    Spec {
        name: "variants_phenotypes",
        kind: Kind::Edge,
        fields: VARIANT_EDGE,
        known: &[
            "study",
            "equivalent_ontology_term",
            "lead_chrom",
            "lead_pos",
            "lead_ref",
            "lead_alt",
            "phenotype_term",
            "direction",
            "beta",
            "beta_ci_lower",
            "beta_ci_upper",
            "odds_ratio",
            "oddsr_ci_lower",
            "oddsr_ci_upper",
            "p_val_mantissa",
            "p_val_exponent",
            "p_value",
            "neg_log10_pvalue",
            "tagged_variants",
            "version",
        ],
        indexes: &[
            Index::Exact("_from"),
            Index::Exact("_to"),
            Index::Facet("method"),
        ],
        ..NODE
    },
    Spec {
        name: "variants_biosamples",
        kind: Kind::Edge,
        fields: VARIANT_EDGE,
        known: &[
            "genomic_element",
            "strand",
            "bed_score",
            "log2FC",
            "DNA_count_ref",
            "RNA_count_ref",
            "DNA_count_alt",
            "RNA_count_alt",
            "neg_log10_pvalue",
            "neg_log10_pvalue_adj",
            "significant",
            "postProbEffect",
            "CI_lower_95",
            "CI_upper_95",
            "treatments_term_ids",
        ],
        indexes: &[
            Index::Exact("_from"),
            Index::Exact("_to"),
            Index::Facet("method"),
        ],
        ..NODE
    },
    Spec {
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
        derive: Some(derive::genes_proteins),
        ..NODE
    },
    Spec {
        name: "coding_variant_scores",
        kind: Kind::Derived,
        fields: &[
            f("_key", Str),
            f("protein_id", Str),
            f("aapos", Int),
            f("hgvsp", Str),
            f("scores", Any),
            f("score_methods", StrArray),
            f("score_files", StrArray),
        ],
        order: CODING_ORDER,
        indexes: &[Index::Facet("score_methods"), Index::Exact("score_files")],
        derive: Some(derive::coding_variant_scores),
        ..NODE
    },
];

/// Collections seen in IGVF data that no endpoint reads: skipped with a note, not a warning.
pub const UNUSED: &[&str] = &[
    "transcripts_genes_structure",
    "coding_variants_proteins",
    "complexes_proteins",
    "complexes_terms",
    "genes_pathways",
    "pathways_pathways",
    "files_filesets",
];

/// The spec of collection `name`.
pub fn spec(name: &str) -> Option<&'static Spec> {
    SPECS.iter().find(|s| s.name == name)
}

impl Spec {
    /// The field id of `name` (its index in `fields`).
    pub fn field_id(&self, name: &str) -> Option<u16> {
        self.fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as u16)
    }
}

/// A fingerprint of what the schema stores and how (names, fields, types, order, indexes), so a
/// catalog built by a different schema is recognised as stale even at the same version.
pub fn fingerprint() -> String {
    let mut text = String::new();
    for s in SPECS {
        text.push_str(&format!(
            "{}|{:?}|{:?}|{:?}|",
            s.name, s.kind, s.order, s.indexes
        ));
        for f in s.fields {
            text.push_str(&format!("{}:{:?},", f.name, f.ty));
        }
        text.push('\n');
    }
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
}
