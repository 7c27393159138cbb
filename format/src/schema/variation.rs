//! Variants, coding variants and their scores.

use super::{Blocking, Handles, Index, Kind, Member, Order, Spec, NODE};
use crate::vocab::AF_MEMBERS;

collection! {
    variants {
        _key: Str,
        chr: Str,
        pos: Int,
        r#ref: Str,
        alt: Str,
        rsid: StrArray,
        spdi: Str,
        hgvs: Str,
        ca_id: Str,
        strain: StrArray,
        qual: Str,
        files_filesets: Str,
        organism: Str,
        source: Str,
        source_url: Str,
        annotations: Any,
        varinfo: Str,
        cadd_rawscore: Num,
        cadd_phred: Num,
    }
}

/// The members of the variants' object member `annotations` that their indexes read, as
/// handles (of `variants`, so of `mm_variants` too).
pub mod variant_annotations {
    use super::{variants, Member, AF_MEMBERS};

    /// `annotations.GENCODE_category` (a facet).
    #[allow(non_upper_case_globals)]
    pub const GENCODE_category: Member =
        Member::new(variants::NAME, "annotations.GENCODE_category");

    /// The frequency of allele-frequency source `source` (`bravo_af`: `annotations.bravo_af`,
    /// a number or null in the record; no column: `/variants/freq`, its one reader, reads at
    /// most a 10 kb region's records), None for a source that is none.
    pub fn af(source: &str) -> Option<Member> {
        AF_MEMBERS
            .iter()
            .find(|c| c.strip_prefix("annotations.") == Some(source))
            .map(|c| Member::new(variants::NAME, c))
    }
}

pub(super) const VARIANTS: Spec = Spec {
    name: variants::NAME,
    keyed: Some("`variant_id` of every variant anchor (`Collection::ord`); handles in every variant edge's `_from` and both LD ends"),
    fields: variants::FIELDS,
    known: &["name", "variation_type", "vrs_digest", "filter", "fi"],
    indexes: &[
        Index::Exact(variants::spdi),
        Index::Exact(variants::hgvs),
        Index::Exact(variants::ca_id),
        Index::Exact(variants::rsid),
        Index::Exact(variants::strain),
        Index::Facet(variant_annotations::GENCODE_category.name()),
        Index::Points {
            chr: variants::chr,
            pos: variants::pos,
        },
    ],
    // No allele-frequency columns (format v3): their one reader, `/variants/freq`, filters at
    // most a 10 kb region's or one identifier's records, so it reads `annotations` there
    // (256 B per variant saved).
    ..NODE
};

collection!(mm_variants = variants);

pub(super) const MM_VARIANTS: Spec = Spec {
    name: mm_variants::NAME,
    keyed: Some("mouse `variant_id` (organism=Mus musculus: `Collection::ord`)"),
    ..VARIANTS
};

collection! {
    coding_variants {
        _key: Str,
        name: Str,
        r#ref: Str,
        alt: Str,
        protein_name: Str,
        protein_id: Str,
        gene_name: Str,
        transcript_id: Str,
        hgvsp: Str,
        hgvsc: Str,
        refcodon: Str,
        aapos: Int,
        codonpos: Int,
        SIFT_score: Num,
        SIFT4G_score: Num,
        Polyphen2_HDIV_score: Num,
        Polyphen2_HVAR_score: Num,
        VEST4_score: Num,
        REVEL_score: Num,
        MutPred_score: Num,
        BayesDel_addAF_score: Num,
        BayesDel_noAF_score: Num,
        VARITY_R_score: Num,
        VARITY_ER_score: Num,
        VARITY_R_LOO_score: Num,
        VARITY_ER_LOO_score: Num,
        ESM1b_score: Num,
        AlphaMissense_score: Num,
        CADD_raw_score: Num,
        source: Str,
        source_url: Str,
    }
}

/// A coding variant's predictor scores (dbNSFP's), in the order its answers print them.
pub const CODING_SCORES: &[&str] = &[
    coding_variants::SIFT_score,
    coding_variants::SIFT4G_score,
    coding_variants::Polyphen2_HDIV_score,
    coding_variants::Polyphen2_HVAR_score,
    coding_variants::VEST4_score,
    coding_variants::REVEL_score,
    coding_variants::MutPred_score,
    coding_variants::BayesDel_addAF_score,
    coding_variants::BayesDel_noAF_score,
    coding_variants::VARITY_R_score,
    coding_variants::VARITY_ER_score,
    coding_variants::VARITY_R_LOO_score,
    coding_variants::VARITY_ER_LOO_score,
    coding_variants::ESM1b_score,
    coding_variants::AlphaMissense_score,
    coding_variants::CADD_raw_score,
];

/// 4.4 order: (protein_id, aapos, hgvsp, _key); the derived score table shares it.
const CODING_ORDER: Order = Order::Fields(&[
    coding_variants::protein_id,
    coding_variants::aapos,
    coding_variants::hgvsp,
]);

pub(super) const CODING_VARIANTS: Spec = Spec {
    name: coding_variants::NAME,
    keyed: Some("coding variant ids (/coding-variants, its key forms); handles in variants_coding_variants._to, coding_variants_phenotypes._from"),
    fields: coding_variants::FIELDS,
    order: CODING_ORDER,
    indexes: &[
        Index::Exact(coding_variants::name),
        Index::Exact(coding_variants::hgvsp),
        Index::Exact(coding_variants::gene_name),
        Index::Exact(coding_variants::protein_id),
        Index::Exact(coding_variants::protein_name),
        Index::Exact(coding_variants::transcript_id),
        Index::Exact(coding_variants::aapos),
        Index::Number(coding_variants::aapos),
        Index::Facet(coding_variants::alt),
    ],
    ..NODE
};

collection! {
    variants_coding_variants {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
    }
}

pub(super) const VARIANTS_CODING_VARIANTS: Spec = Spec {
    name: variants_coding_variants::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: variants_coding_variants::FIELDS,
    known: &["chr", "pos", "ref", "alt"],
    indexes: &[
        Index::Exact(variants_coding_variants::_from),
        Index::Exact(variants_coding_variants::_to),
    ],
    ..NODE
};

collection! {
    coding_variants_phenotypes {
        _key: Str,
        _from: Str,
        _to: Str,
        method: Str,
        class: Str,
        label: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        files_filesets: Str,
        biosample_term: Str,
        biological_context: Str,
        esm_1v_score: Num,
        pathogenicity_score: Num,
        score: Num,
        dualipa_abun_score: Num,
        localization_score: Num,
    }
}

pub(super) const CODING_VARIANTS_PHENOTYPES: Spec = Spec {
    name: coding_variants_phenotypes::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: coding_variants_phenotypes::FIELDS,
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
    indexes: &[
        Index::Exact(coding_variants_phenotypes::_from),
        Index::Exact(coding_variants_phenotypes::_to),
        Index::Exact(coding_variants_phenotypes::files_filesets),
        Index::Facet(coding_variants_phenotypes::method),
    ],
    records: Blocking::Single,
    ..NODE
};

collection! {
    coding_variant_scores {
        _key: Str,
        protein_id: Str,
        aapos: Int,
        hgvsp: Str,
        scores: Any,
        score_methods: StrArray,
        score_files: StrArray,
    }
}

/// One record per coding variant, same key and order, so it shares the coding variants'
/// ordinals.
pub(super) const CODING_VARIANT_SCORES: Spec = Spec {
    name: coding_variant_scores::NAME,
    keyed: Some("/genes/coding-variants/scores, which looks a coding variant's scores up by its key when the table's ordinals do not align with coding_variants' (a guard: the build aligns them)"),
    kind: Kind::Derived,
    fields: coding_variant_scores::FIELDS,
    order: CODING_ORDER,
    indexes: &[
        Index::Facet(coding_variant_scores::score_methods),
        Index::Exact(coding_variant_scores::score_files),
    ],
    records: Blocking::Plain,
    ..NODE
};
