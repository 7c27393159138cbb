//! 4.1 `/genes/variants`: variant–gene associations (QTLs, screens, variant-effect assays) by
//! gene, filters and biological context.

use super::*;
use crate::api::shapes::{id_or, GENE, STUDY};
use crate::api::variants::FREQUENCY;
use crate::api::{genes, sets, Ctx, Reply};
use crate::engine::{cascade, Filter, Set, CONTEXT_TIERS};
use crate::params::{Organism, Params};
use crate::shape::{field, renamed, Shape, Ty};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/variants",
    section: "4.1",
    summary: "Variants associated with genes: QTLs, screens, variant-effect assays",
    accepts: Accepts {
        params: &[
            GENE_PARAMS[0],
            GENE_PARAMS[1],
            GENE_PARAMS[2],
            GENE_PARAMS[3],
            GENE_PARAMS[4],
            Param::new(
                "neg_log10_pvalue",
                Kind::Threshold,
                "-log10 p-value: gt:, gte:, lt:, lte:<n> or <n>",
            ),
            Param::new("effect_size", Kind::Threshold, "effect size threshold"),
            Param::new(
                "posterior_inclusion_probability",
                Kind::Threshold,
                "fine-mapping PIP threshold",
            ),
            Param::new("log2FC", Kind::Threshold, "log2 fold change threshold"),
            Param::new(
                "significant",
                Kind::Bool,
                "significant rows only (true) or not significant (false)",
            ),
            Param::new(
                "biosample_term",
                Kind::Id,
                "ontology term id, e.g. EFO_0002784",
            ),
            Param::new(
                "biological_context",
                Kind::Text,
                "exact, else prefix, else all tokens, else one typo",
            ),
            Param::new(
                "label",
                Kind::Enum(&["eQTL", "spliceQTL", "variant effect on gene expression"]),
                "label",
            ),
            Param::new(
                "method",
                Kind::Enum(&["CRISPR screen", "Variant-EFFECTS", "eQTL", "spliceQTL"]),
                "method",
            ),
            FILESET,
            Param::new(
                "source",
                Kind::Enum(&["AFGR", "EBI", "IGVF"]),
                "data source",
            ),
            Param::new(
                "name",
                Kind::Enum(&["expression modulated by", "splicing modulated by"]),
                "relation",
            ),
        ],
        rules: &[Rule::AtLeastOne(&[
            "gene_id",
            "hgnc_id",
            "gene_name",
            "synonym",
            "region",
            "method",
            "files_fileset",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: genes_variants,
    body: Body::Array(&GENE_VARIANT),
    examples: &[
        "gene_name=TSTA1&verbose=true",
        "method=eQTL&neg_log10_pvalue=gte:3",
        "gene_id=ENSG90000000002&biological_context=naive",
    ],
};

const GENE_M: crate::shape::Member = id_or("gene", "_to", &GENE);

const VARIANT_M: crate::shape::Member = id_or("sequence_variant", "_from", &FREQUENCY);

const EFFECT: crate::shape::Member = field("effect_size", Ty::Num);

const PVAL: crate::shape::Member = field("neg_log10_pvalue", Ty::Num);

const PIP: crate::shape::Member = field("posterior_inclusion_probability", Ty::Num);

const LOG2FC: crate::shape::Member = field("log2FC", Ty::Num);

const METHOD: crate::shape::Member = field("method", Ty::Str);

const SOURCE: crate::shape::Member = field("source", Ty::Str).required();

const SOURCE_URL: crate::shape::Member = field("source_url", Ty::Str).required();

const LABEL: crate::shape::Member = field("label", Ty::Str).required();

const P: crate::shape::Member = field("p_value", Ty::Num);

const CHR: crate::shape::Member = field("chr", Ty::Str);

const CONTEXT: crate::shape::Member = field("biological_context", Ty::Str).required();

const BIOSAMPLE: crate::shape::Member = field("biosample_term", Ty::Str).required();

const NAME: crate::shape::Member = renamed("name", "inverse_name", Ty::Str);

const CLASS: crate::shape::Member = field("class", Ty::Str);

const FILES: crate::shape::Member = field("files_filesets", Ty::Str);

/// 4.1 rows: every member of IGVF's output shape, in its order, whatever the source (IGVF's
/// rows of each source carry only that source's members; a client sees them come and go).
pub static GENE_VARIANT: Shape = Shape {
    name: "GeneVariant",
    members: &[
        GENE_M,
        VARIANT_M,
        field("intron_chr", Ty::Str),
        field("intron_start", Ty::Int),
        field("intron_end", Ty::Int),
        EFFECT,
        PVAL,
        field("neg_log10_pvalue_adj", Ty::Num),
        LOG2FC,
        PIP,
        field("coefficient_stddev", Ty::Num),
        field("power", Ty::Num),
        field("significant", Ty::Bool),
        field("standard_error", Ty::Num),
        field("z_score", Ty::Num),
        field("credible_set_min_r2", Ty::Num),
        METHOD,
        field("crispr_modality", Ty::Str),
        SOURCE,
        SOURCE_URL,
        LABEL,
        P,
        CHR,
        CONTEXT,
        BIOSAMPLE,
        id_or("study", "study", &STUDY),
        NAME,
        CLASS,
        FILES,
    ],
};

/// The 4.1 thresholds, each on the numeric column of the same name.
const THRESHOLDS: &[&str] = &[
    "neg_log10_pvalue",
    "effect_size",
    "log2FC",
    "posterior_inclusion_probability",
];

/// 4.1: variant–gene associations by gene, filters and biological context.
pub fn genes_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll("variants_genes");
    let gene_edges = (genes::any_given(p) || p.has("region")).then(|| {
        let g = genes::collection(ctx, Organism::Human);
        sets::adjacent_to(e, "_to", g, genes::resolve(ctx, p, Organism::Human)).to_vec()
    });
    let base = || {
        let mut f = Filter::over(e);
        if let Some(v) = &gene_edges {
            f.and(Set::Vec(v.clone()));
        }
        for (param, member) in [
            ("method", "method"),
            ("label", "label"),
            ("source", "source"),
            ("name", "inverse_name"),
        ] {
            if let Some(v) = p.str(param) {
                f.and(sets::facet(e, member, v));
            }
        }
        if let Some(b) = p.bool("significant") {
            f.and(sets::facet(
                e,
                "significant",
                if b { "true" } else { "false" },
            ));
        }
        if let Some(t) = p.str("biosample_term") {
            f.and(sets::handle_is(e, "biosample_term", "ontology_terms", t));
        }
        if let Some(fs) = p.str("files_fileset") {
            f.and(sets::handle_is(e, "files_filesets", "files_filesets", fs));
        }
        for name in THRESHOLDS {
            if let Some(t) = p.threshold(name) {
                f.pred(sets::threshold(e, name, t));
            }
        }
        f
    };
    let f = match (p.str("biological_context"), e) {
        (Some(q), Some(c)) => cascade(c, "biological_context", q, CONTEXT_TIERS, base),
        _ => base(),
    };
    ctx.page(p, e, &f, &GENE_VARIANT)
}
