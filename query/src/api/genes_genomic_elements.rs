//! `/genes/genomic-elements` (an IGVF client path): genomic elements predicted or shown to regulate the
//! genes the gene parameters select; the record and edge filters `/genomic-elements/genes`
//! shares.

use crate::api::genes_variants::{BIOSAMPLE_TERM, EFFECT_SIZE, LOG2FC_PARAM, NEG_LOG10_PVALUE};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::CONTEXT_TIERS;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::params::GENES;
use crate::prelude::*;
use crate::shape::{field, member, renamed, Member, Shape, Src, Ty};
use crate::vocab::shapes::id_or;
use varcat_format::schema::{genes as g, genomic_elements as ge, genomic_elements_genes as eg};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/genomic-elements",
    section: None,
    summary: "Genomic elements that regulate genes (CRISPR screens, E2G predictions, Perturb-seq)",
    accepts: Accepts {
        params: &[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM,
            &genes::REGION,
            &METHOD,
            &FILESET,
            &BIOSAMPLE_TERM,
            &BIOLOGICAL_CONTEXT,
            &CELL_ANNOTATION,
            &CELL_ANNOTATION_TERM,
            &SOURCE,
            &SCORE,
            &EFFECT_SIZE,
            &LOG2FC_PARAM,
            &NEG_LOG10_PVALUE,
            &NEG_LOG10_PVALUE_ADJ,
            &Z_SCORE,
            &IDR,
        ],
        rules: &[Rule::AtLeastOne(&[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM,
            &genes::REGION,
            &METHOD,
            &FILESET,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&GENE_ELEMENT),
    examples: &[
        "gene_name=TSTA1",
        "gene_name=TSTA1&verbose=true",
        "method=CRISPR%20screen&score=gte:0.5&limit=3",
    ],
};

/// Method.
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(&["CRISPR screen", "ENCODE-rE2G", "Perturb-seq", "scE2G"]),
    "method",
);
/// Data source.
pub const SOURCE: Param = Param::new("source", Kind::Enum(&["ENCODE", "IGVF"]), "data source");
/// Cell annotation.
pub const CELL_ANNOTATION: Param =
    Param::new("cell_annotation", Kind::Id, "cell annotation (exact)");
/// Cell annotation ontology term.
pub const CELL_ANNOTATION_TERM: Param = Param::new(
    "cell_annotation_term",
    Kind::Id,
    "cell annotation ontology term id, e.g. CL_0000084",
);
/// Score threshold.
pub const SCORE: Param = Param::new("score", Kind::Threshold, "score threshold");
/// Adjusted -log10 p-value threshold.
pub const NEG_LOG10_PVALUE_ADJ: Param = Param::new(
    "neg_log10_pvalue_adj",
    Kind::Threshold,
    "adjusted -log10 p-value threshold",
);
/// z-score threshold.
pub const Z_SCORE: Param = Param::new("z_score", Kind::Threshold, "z-score threshold");
/// IDR threshold.
pub const IDR: Param = Param::new("idr", Kind::Threshold, "IDR threshold");

/// The element of a row (the client's `GenomicElement7`).
pub static ELEMENT_7: Shape = Shape {
    name: "GenomicElement7",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(ge::m::r#type, Ty::Str),
        field(ge::m::chr, Ty::Str),
        field(ge::m::start, Ty::Int),
        field(ge::m::end, Ty::Int),
        field(ge::m::name, Ty::Str).required(),
        field(ge::m::source_annotation, Ty::Str),
    ],
};

/// The gene of a row (the client's `GeneRef`).
pub static GENE_REF: Shape = Shape {
    name: "GeneRef",
    members: &[
        field(g::m::name, Ty::Str).required(),
        member("_id", Src::Key, Ty::Str),
        field(g::m::start, Ty::Int),
        field(g::m::end, Ty::Int),
        field(g::m::chr, Ty::Str).required(),
    ],
};

/// The members of the record with `name` from `name_member` (the client's
/// `GenesFromGenomicElements`; IGVF lacks its 15 extra numbers, null when absent).
pub const fn members(name_member: varcat_format::schema::Member) -> [Member; 42] {
    [
        renamed("name", name_member, Ty::Str).required(),
        field(eg::m::label, Ty::Str).required(),
        field(eg::m::method, Ty::Str).required(),
        field(eg::m::class, Ty::Str).required(),
        field(eg::m::source, Ty::Str).required(),
        field(eg::m::source_url, Ty::Str).required(),
        field(eg::m::biological_context, Ty::Str),
        field(eg::m::biosample_term, Ty::Str),
        field(eg::m::cell_annotation, Ty::Str),
        field(eg::m::cell_annotation_term, Ty::Str),
        field(eg::m::treatments_term_ids, Ty::StrArr),
        field(eg::m::files_filesets, Ty::Str).required(),
        field(eg::m::crispr_modality, Ty::Str),
        field(eg::m::score, Ty::Num),
        field(eg::m::transcription_start_site, Ty::Num),
        field(eg::m::rna_pseudobulk_tpm, Ty::Num),
        field(eg::m::log2FC, Ty::Num),
        field(eg::m::log2FC_ci95_lower, Ty::Num),
        field(eg::m::log2FC_ci95_upper, Ty::Num),
        field(eg::m::effect_size, Ty::Num),
        field(eg::m::effect_size_ci_95, Ty::Num),
        field(eg::m::z_score, Ty::Num),
        field(eg::m::t_score, Ty::Num),
        field(eg::m::idr, Ty::Num),
        field(eg::m::pct_1, Ty::Num),
        field(eg::m::pct_2, Ty::Num),
        field(eg::m::num_guides, Ty::Num),
        field(eg::m::num_cells, Ty::Num),
        field(eg::m::fold_change, Ty::Num),
        field(eg::m::background_corrected_fold_change, Ty::Num),
        field(eg::m::cpm_perturb, Ty::Num),
        field(eg::m::cpm_bg, Ty::Num),
        field(eg::m::gamma_approximation_ln_p_value, Ty::Num),
        field(eg::m::hypergeometric_ln_p_value, Ty::Num),
        field(eg::m::empirical_p_value, Ty::Num),
        field(eg::m::p_value, Ty::Num),
        field(eg::m::p_value_adj, Ty::Num),
        field(eg::m::neg_log10_pvalue, Ty::Num),
        field(eg::m::neg_log10_pvalue_adj, Ty::Num),
        field(eg::m::significant, Ty::Bool),
        id_or("genomic_element", eg::m::_from, &ELEMENT_7).required(),
        id_or("gene", eg::m::_to, &GENE_REF).required(),
    ]
}

/// Seen from the gene: `name` is the inverse name ("regulated by").
pub static GENE_ELEMENT: Shape = Shape {
    name: "GenesFromGenomicElements",
    members: &members(eg::m::inverse_name),
};

/// The edge filters of both directions.
pub static EDGE_FILTERS: [NodeFilter; 14] = [
    NodeFilter::Facet(&METHOD, eg::m::method),
    NodeFilter::Fileset(&FILESET, eg::m::files_filesets),
    NodeFilter::Term(&BIOSAMPLE_TERM, eg::m::biosample_term),
    NodeFilter::Text(
        &BIOLOGICAL_CONTEXT,
        eg::m::biological_context,
        CONTEXT_TIERS,
    ),
    NodeFilter::Exact(&CELL_ANNOTATION, eg::m::cell_annotation),
    NodeFilter::Exact(&CELL_ANNOTATION_TERM, eg::m::cell_annotation_term),
    NodeFilter::Facet(&SOURCE, eg::m::source),
    NodeFilter::Threshold(&SCORE, eg::m::score),
    NodeFilter::Threshold(&EFFECT_SIZE, eg::m::effect_size),
    NodeFilter::Threshold(&LOG2FC_PARAM, eg::m::log2FC),
    NodeFilter::Threshold(&NEG_LOG10_PVALUE, eg::m::neg_log10_pvalue),
    NodeFilter::Threshold(&NEG_LOG10_PVALUE_ADJ, eg::m::neg_log10_pvalue_adj),
    NodeFilter::Threshold(&Z_SCORE, eg::m::z_score),
    NodeFilter::Threshold(&IDR, eg::m::idr),
];

/// `/genes/genomic-elements` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(eg::COLL),
    from: eg::m::_from,
    to: eg::m::_to,
    anchors: &[Anchor {
        params: &genes::PARAMS,
        nodes: Nodes::ByOrganism(GENES),
        resolve: Resolve::Fn(genes::anchor),
        end: End::To,
    }],
    filters: &EDGE_FILTERS,
    record: Record::One(&GENE_ELEMENT),
};
