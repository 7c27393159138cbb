//! `/genomic-elements/genomic-elements` (the IGVF client's
//! `genomic_elements_from_genomic_elements`): effects of perturbing a promoter on chromatin
//! accessibility at peaks (Multiome Perturb-seq), from the collection
//! `genomic_elements_genomic_elements` (`_from` the perturbed promoter, `_to` the peak). IGVF's
//! later router names the ends `source_*`/`target_*`; the client's `perturbed_*`/`accessible_*`
//! and `promoter_gene_*` are followed.

use crate::api::genes_genomic_elements::NEG_LOG10_PVALUE_ADJ;
use crate::api::genes_variants::{LOG2FC_PARAM, NEG_LOG10_PVALUE, SIGNIFICANT};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::NAME_TIERS;
use crate::node::{rows, NodeFilter, Nodes, Resolve};
use crate::prelude::*;
use crate::shape::{field, member, Shape, Src, Ty};
use crate::vocab::shapes::{id_or, GENE};
use varcat_format::schema::{
    genes as g, genomic_elements as ge, genomic_elements_genomic_elements as gg,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genomic-elements/genomic-elements",
    section: None,
    summary:
        "Promoter perturbation effects on chromatin accessibility at peaks (Multiome Perturb-seq)",
    accepts: Accepts {
        params: &[
            &PERTURBED_REGION,
            &ACCESSIBLE_REGION,
            &PROMOTER_GENE_ID,
            &PROMOTER_GENE_NAME,
            &FILESET,
            &BIOSAMPLE_TERM,
            &CONTEXT,
            &METHOD,
            &SOURCE,
            &CRISPR_MODALITY,
            &SIGNIFICANT,
            &LOG2FC_PARAM,
            &P_VALUE,
            &P_VALUE_ADJ,
            &NEG_LOG10_PVALUE,
            &NEG_LOG10_PVALUE_ADJ,
        ],
        rules: &[Rule::AtLeastOne(&[
            &PERTURBED_REGION,
            &ACCESSIBLE_REGION,
            &PROMOTER_GENE_ID,
            &PROMOTER_GENE_NAME,
            &FILESET,
            &METHOD,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&ELEMENT_PAIR),
    examples: &[
        "promoter_gene_name=TSTA1",
        "promoter_gene_name=TSTA1&verbose=true",
        "accessible_region=chr1:50000-50400&method=Multiome%20Perturb-seq",
        "files_fileset=IGVFFI9000MPS&significant=true&log2FC=lt:0",
    ],
};

/// Perturbed (promoter) elements overlapping a region.
pub const PERTURBED_REGION: Param = Param::new(
    "perturbed_region",
    Kind::Region(None),
    "perturbed elements overlapping chr<name>:<start>-<end>",
);
/// Accessible (peak) elements overlapping a region.
pub const ACCESSIBLE_REGION: Param = Param::new(
    "accessible_region",
    Kind::Region(None),
    "accessible elements overlapping chr<name>:<start>-<end>",
);
/// The perturbed promoter's gene, by Ensembl id.
pub const PROMOTER_GENE_ID: Param = Param::new(
    "promoter_gene_id",
    Kind::Id,
    "Ensembl id of the gene whose promoter is perturbed (a version suffix is ignored)",
);
/// The perturbed promoter's gene, by symbol.
pub const PROMOTER_GENE_NAME: Param = Param::new(
    "promoter_gene_name",
    Kind::Text,
    "symbol of the gene whose promoter is perturbed: exact, else all tokens, else one typo",
);
/// Biosample ontology term.
pub const BIOSAMPLE_TERM: Param = Param::new(
    "biosample_term",
    Kind::Id,
    "ontology term id, e.g. EFO_0002067",
);
/// Biological context, exact.
pub const CONTEXT: Param = Param::new("biological_context", Kind::Id, "biological context (exact)");
/// Method.
pub const METHOD: Param = Param::new("method", Kind::Enum(&["Multiome Perturb-seq"]), "method");
/// Data source.
pub const SOURCE: Param = Param::new("source", Kind::Enum(&["IGVF"]), "data source");
/// CRISPR modality.
pub const CRISPR_MODALITY: Param = Param::new(
    "crispr_modality",
    Kind::Enum(&[
        "activation",
        "base editing",
        "interference",
        "knockout",
        "prime editing",
    ]),
    "CRISPR modality",
);
/// p-value threshold.
pub const P_VALUE: Param = Param::new("p_value", Kind::Threshold, "p-value threshold");
/// Adjusted p-value threshold.
pub const P_VALUE_ADJ: Param =
    Param::new("p_value_adj", Kind::Threshold, "adjusted p-value threshold");

/// An end of the pair (the client's `AccessibleGenomicElement`), its promoter gene expanded.
pub static PAIR_ELEMENT: Shape = Shape {
    name: "AccessibleGenomicElement",
    members: &[
        member("_id", Src::Key, Ty::Str).required(),
        field(ge::m::name, Ty::Str).required(),
        field(ge::m::chr, Ty::Str).required(),
        field(ge::m::start, Ty::Int).required(),
        field(ge::m::end, Ty::Int).required(),
        field(ge::m::r#type, Ty::Str),
        field(ge::m::source_annotation, Ty::Str),
        id_or("promoter_of", ge::m::promoter_of, &GENE),
    ],
};

/// The record (the client's `GenomicElementsFromGenomicElements`).
pub static ELEMENT_PAIR: Shape = Shape {
    name: "GenomicElementsFromGenomicElements",
    members: &[
        id_or("perturbed_genomic_element", gg::m::_from, &PAIR_ELEMENT).required(),
        id_or("accessible_genomic_element", gg::m::_to, &PAIR_ELEMENT).required(),
        field(gg::m::name, Ty::Str).required(),
        field(gg::m::inverse_name, Ty::Str).required(),
        field(gg::m::label, Ty::Str).required(),
        field(gg::m::class, Ty::Str).required(),
        field(gg::m::method, Ty::Str).required(),
        field(gg::m::source, Ty::Str).required(),
        field(gg::m::source_url, Ty::Str).required(),
        field(gg::m::files_filesets, Ty::Str).required(),
        field(gg::m::biological_context, Ty::Str),
        field(gg::m::biosample_term, Ty::Str),
        field(gg::m::treatments_term_ids, Ty::StrArr),
        field(gg::m::crispr_modality, Ty::Str),
        field(gg::m::log2FC, Ty::Num),
        field(gg::m::p_value, Ty::Num),
        field(gg::m::p_value_adj, Ty::Num),
        field(gg::m::neg_log10_pvalue, Ty::Num),
        field(gg::m::neg_log10_pvalue_adj, Ty::Num),
        field(gg::m::significant, Ty::Bool),
    ],
};

static PERTURBED: [NodeFilter; 1] = [NodeFilter::Overlaps(&PERTURBED_REGION)];
static ACCESSIBLE: [NodeFilter; 1] = [NodeFilter::Overlaps(&ACCESSIBLE_REGION)];
static PROMOTER_GENES: [NodeFilter; 2] = [
    NodeFilter::Key(&PROMOTER_GENE_ID),
    NodeFilter::Text(&PROMOTER_GENE_NAME, g::m::name, NAME_TIERS),
];

/// Elements that are the promoter of the genes the promoter parameters select.
fn promoters<'a>(ctx: &Ctx<'a>, els: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let gc = ctx.coll(g::COLL);
    let genes = rows(ctx, gc, &PROMOTER_GENES, p, || Filter::over(gc)).collect();
    let handles = gc.map_or_else(Vec::new, |c| sets::handles(c, &genes));
    let mut f = Filter::over(els);
    f.and(sets::adjacent(els, ge::m::promoter_of, handles));
    f
}

/// `/genomic-elements/genomic-elements` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(gg::COLL),
    from: gg::m::_from,
    to: gg::m::_to,
    anchors: &[
        Anchor {
            params: &[&PERTURBED_REGION],
            nodes: Nodes::One(ge::COLL),
            resolve: Resolve::Rows(&PERTURBED),
            end: End::From,
        },
        Anchor {
            params: &[&PROMOTER_GENE_ID, &PROMOTER_GENE_NAME],
            nodes: Nodes::One(ge::COLL),
            resolve: Resolve::Fn(promoters),
            end: End::From,
        },
        Anchor {
            params: &[&ACCESSIBLE_REGION],
            nodes: Nodes::One(ge::COLL),
            resolve: Resolve::Rows(&ACCESSIBLE),
            end: End::To,
        },
    ],
    filters: &[
        NodeFilter::Fileset(&FILESET, gg::m::files_filesets),
        NodeFilter::Term(&BIOSAMPLE_TERM, gg::m::biosample_term),
        NodeFilter::Exact(&CONTEXT, gg::m::biological_context),
        NodeFilter::Facet(&METHOD, gg::m::method),
        NodeFilter::Facet(&SOURCE, gg::m::source),
        NodeFilter::Facet(&CRISPR_MODALITY, gg::m::crispr_modality),
        NodeFilter::Bool(&SIGNIFICANT, gg::m::significant),
        NodeFilter::Threshold(&LOG2FC_PARAM, gg::m::log2FC),
        NodeFilter::Threshold(&P_VALUE, gg::m::p_value),
        NodeFilter::Threshold(&P_VALUE_ADJ, gg::m::p_value_adj),
        NodeFilter::Threshold(&NEG_LOG10_PVALUE, gg::m::neg_log10_pvalue),
        NodeFilter::Threshold(&NEG_LOG10_PVALUE_ADJ, gg::m::neg_log10_pvalue_adj),
    ],
    record: Record::One(&ELEMENT_PAIR),
};
