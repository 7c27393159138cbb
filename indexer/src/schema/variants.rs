//! Variants, coding variants and their scores.

use super::genes::EDGE_ENDS;
use super::Ty::*;
use super::{f, Field, Index, Kind, Order, Spec, NODE};
use crate::derive;

use varcat_format::vocab::AF_COLUMNS;
pub use varcat_format::vocab::AF_SOURCES;

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

pub(super) const VARIANTS: Spec = Spec {
    name: "variants",
    fields: VARIANT_FIELDS,
    known: &["name", "variation_type", "vrs_digest", "filter", "fi"],
    indexes: &[
        Index::Exact("spdi"),
        Index::Exact("hgvs"),
        Index::Exact("ca_id"),
        Index::Exact("rsid"),
        Index::Facet("annotations.GENCODE_category"),
        Index::Points {
            chr: "chr",
            pos: "pos",
        },
    ],
    numbers: AF_COLUMNS,
    prepare: Some(derive::human_variant),
    ..NODE
};
pub(super) const MM_VARIANTS: Spec = Spec {
    name: "mm_variants",
    numbers: &[],
    prepare: Some(derive::mouse_variant),
    ..VARIANTS
};

/// 4.4 order: (protein_id, aapos, hgvsp, _key); the derived score table shares it.
const CODING_ORDER: Order = Order::Fields(&["protein_id", "aapos", "hgvsp"]);

pub(super) const CODING_VARIANTS: Spec = Spec {
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
};

pub(super) const VARIANTS_CODING_VARIANTS: Spec = Spec {
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
};

pub(super) const CODING_VARIANTS_PHENOTYPES: Spec = Spec {
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
};

/// One record per coding variant, same key and order, so it shares the coding variants'
/// ordinals.
pub(super) const CODING_VARIANT_SCORES: Spec = Spec {
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
    derive: Some(derive::CODING_VARIANT_SCORES),
    ..NODE
};
