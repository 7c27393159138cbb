//! 4.1 `/genes/variants`: variant–gene associations (QTLs, screens, variant-effect assays) by
//! gene, filters and biological context.

use crate::engine::{cascade, Filter, Set, CONTEXT_TIERS};
use crate::handler::{Ctx, Reply};
use crate::params::{Organism, Params};
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, renamed, Shape, Ty};
use crate::vocab::genes;
use crate::vocab::shapes::{id_or, GENE, STUDY};
use crate::vocab::variants::FREQUENCY;
use varcat_format::schema;
use varcat_format::schema::{ontology_terms, variants_genes as vg, Member as SchemaMember};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/variants",
    section: Some("4.1"),
    summary: "Variants associated with genes: QTLs, screens, variant-effect assays",
    accepts: Accepts {
        params: &[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM_OR_ALIAS,
            &genes::REGION,
            &NEG_LOG10_PVALUE,
            &EFFECT_SIZE,
            &POSTERIOR_INCLUSION_PROBABILITY,
            &LOG2FC_PARAM,
            &SIGNIFICANT,
            &BIOSAMPLE_TERM,
            &BIOLOGICAL_CONTEXT,
            &LABEL_PARAM,
            &METHOD_PARAM,
            &FILESET,
            &SOURCE_PARAM,
            &NAME_PARAM,
        ],
        rules: &[Rule::AtLeastOne(&[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM,
            &genes::REGION,
            &METHOD_PARAM,
            &FILESET,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Handler(genes_variants),
    body: Body::Array(&GENE_VARIANT),
    examples: &[
        "gene_name=TSTA1&verbose=true",
        "method=eQTL&neg_log10_pvalue=gte:3",
        "gene_id=ENSG90000000002&biological_context=naive",
    ],
};

// Parameters; `_PARAM` marks those whose plain name is the shape member's below.

/// -log10 p-value threshold.
pub const NEG_LOG10_PVALUE: Param = Param::new(
    "neg_log10_pvalue",
    Kind::Threshold,
    "-log10 p-value: gt:, gte:, lt:, lte:<n> or <n>",
);
/// Effect-size threshold.
pub const EFFECT_SIZE: Param = Param::new("effect_size", Kind::Threshold, "effect size threshold");
/// Fine-mapping PIP threshold.
pub const POSTERIOR_INCLUSION_PROBABILITY: Param = Param::new(
    "posterior_inclusion_probability",
    Kind::Threshold,
    "fine-mapping PIP threshold",
);
/// log2 fold-change threshold.
pub const LOG2FC_PARAM: Param = Param::new("log2FC", Kind::Threshold, "log2 fold change threshold");
/// Significant rows only, or not significant.
pub const SIGNIFICANT: Param = Param::new(
    "significant",
    Kind::Bool,
    "significant rows only (true) or not significant (false)",
);
/// Biosample ontology term.
pub const BIOSAMPLE_TERM: Param = Param::new(
    "biosample_term",
    Kind::Id,
    "ontology term id, e.g. EFO_0002784",
);
/// Label.
pub const LABEL_PARAM: Param = Param::new(
    "label",
    Kind::Enum(&["eQTL", "spliceQTL", "variant effect on gene expression"]),
    "label",
);
/// Method.
pub const METHOD_PARAM: Param = Param::new(
    "method",
    Kind::Enum(&["CRISPR screen", "Variant-EFFECTS", "eQTL", "spliceQTL"]),
    "method",
);
/// Data source.
pub const SOURCE_PARAM: Param = Param::new(
    "source",
    Kind::Enum(&["AFGR", "EBI", "IGVF"]),
    "data source",
);
/// Relation.
pub const NAME_PARAM: Param = Param::new(
    "name",
    Kind::Enum(&["expression modulated by", "splicing modulated by"]),
    "relation",
);

const GENE_M: crate::shape::Member = id_or("gene", schema::variants_genes::m::_to, &GENE);

const VARIANT_M: crate::shape::Member = id_or(
    "sequence_variant",
    schema::variants_genes::m::_from,
    &FREQUENCY,
);

const EFFECT: crate::shape::Member = field(schema::variants_genes::m::effect_size, Ty::Num);

const PVAL: crate::shape::Member = field(schema::variants_genes::m::neg_log10_pvalue, Ty::Num);

const PIP: crate::shape::Member = field(
    schema::variants_genes::m::posterior_inclusion_probability,
    Ty::Num,
);

const LOG2FC: crate::shape::Member = field(schema::variants_genes::m::log2FC, Ty::Num);

const METHOD: crate::shape::Member = field(schema::variants_genes::m::method, Ty::Str);

const SOURCE: crate::shape::Member = field(schema::variants_genes::m::source, Ty::Str).required();

const SOURCE_URL: crate::shape::Member =
    field(schema::variants_genes::m::source_url, Ty::Str).required();

const LABEL: crate::shape::Member = field(schema::variants_genes::m::label, Ty::Str).required();

const P: crate::shape::Member = field(schema::variants_genes::m::p_value, Ty::Num);

const CHR: crate::shape::Member = field(schema::variants_genes::m::chr, Ty::Str);

const CONTEXT: crate::shape::Member =
    field(schema::variants_genes::m::biological_context, Ty::Str).required();

const BIOSAMPLE: crate::shape::Member =
    field(schema::variants_genes::m::biosample_term, Ty::Str).required();

const NAME: crate::shape::Member =
    renamed("name", schema::variants_genes::m::inverse_name, Ty::Str);

const CLASS: crate::shape::Member = field(schema::variants_genes::m::class, Ty::Str);

const FILES: crate::shape::Member = field(schema::variants_genes::m::files_filesets, Ty::Str);

/// 4.1 rows: every member of IGVF's output shape, in its order, whatever the source (IGVF's
/// rows of each source carry only that source's members; a client sees them come and go).
pub static GENE_VARIANT: Shape = Shape {
    name: "GeneVariant",
    members: &GENE_VARIANT_MEMBERS,
};

/// The members of [`GENE_VARIANT`] (`/variants/genes` swaps `name` for the forward name).
pub const GENE_VARIANT_MEMBERS: [crate::shape::Member; 29] = [
    GENE_M,
    VARIANT_M,
    field(schema::variants_genes::m::intron_chr, Ty::Str),
    field(schema::variants_genes::m::intron_start, Ty::Int),
    field(schema::variants_genes::m::intron_end, Ty::Int),
    EFFECT,
    PVAL,
    field(schema::variants_genes::m::neg_log10_pvalue_adj, Ty::Num),
    LOG2FC,
    PIP,
    field(schema::variants_genes::m::coefficient_stddev, Ty::Num),
    field(schema::variants_genes::m::power, Ty::Num),
    field(schema::variants_genes::m::significant, Ty::Bool),
    field(schema::variants_genes::m::standard_error, Ty::Num),
    field(schema::variants_genes::m::z_score, Ty::Num),
    field(schema::variants_genes::m::credible_set_min_r2, Ty::Num),
    METHOD,
    field(schema::variants_genes::m::crispr_modality, Ty::Str),
    SOURCE,
    SOURCE_URL,
    LABEL,
    P,
    CHR,
    CONTEXT,
    BIOSAMPLE,
    id_or("study", schema::variants_genes::m::study, &STUDY),
    NAME,
    CLASS,
    FILES,
];

/// The 4.1 thresholds, each on the numeric column of the same name.
pub const THRESHOLDS: [(&Param, SchemaMember); 4] = [
    (&NEG_LOG10_PVALUE, vg::m::neg_log10_pvalue),
    (&EFFECT_SIZE, vg::m::effect_size),
    (&LOG2FC_PARAM, vg::m::log2FC),
    (
        &POSTERIOR_INCLUSION_PROBABILITY,
        vg::m::posterior_inclusion_probability,
    ),
];

/// 4.1: variant–gene associations by gene, filters and biological context.
pub fn genes_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll(vg::COLL);
    let gene_edges = p.any(&genes::PARAMS).then(|| {
        let g = genes::collection(ctx, Organism::Human);
        sets::adjacent_to(e, vg::m::_to, g, genes::resolve(ctx, p, Organism::Human)).to_vec()
    });
    let base = || {
        let mut f = Filter::over(e);
        if let Some(v) = &gene_edges {
            f.and(Set::Vec(v.clone()));
        }
        for (param, member) in [
            (&METHOD_PARAM, vg::m::method),
            (&LABEL_PARAM, vg::m::label),
            (&SOURCE_PARAM, vg::m::source),
            (&NAME_PARAM, vg::m::inverse_name),
        ] {
            if let Some(v) = p.str(param) {
                f.and(sets::facet(e, member, v));
            }
        }
        if let Some(b) = p.bool(&SIGNIFICANT) {
            f.and(sets::facet(
                e,
                vg::m::significant,
                if b { "true" } else { "false" },
            ));
        }
        if let Some(t) = p.str(&BIOSAMPLE_TERM) {
            f.and(sets::handle_is(
                e,
                vg::m::biosample_term,
                ontology_terms::COLL,
                t,
            ));
        }
        if let Some(fs) = p.str(&FILESET) {
            f.and(sets::in_fileset(e, vg::m::files_filesets, fs));
        }
        for (param, member) in THRESHOLDS {
            if let Some(t) = p.threshold(param) {
                f.pred(sets::threshold(e, member, t));
            }
        }
        f
    };
    let f = match (p.str(&BIOLOGICAL_CONTEXT), e) {
        (Some(q), Some(c)) => cascade(c, vg::m::biological_context, q, CONTEXT_TIERS, base),
        _ => base(),
    };
    ctx.page(p, e, &f, &GENE_VARIANT)
}
