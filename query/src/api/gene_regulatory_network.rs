//! `/gene-regulatory-network` (the IGVF client\'s `grn`): regulator → response gene pairs from
//! CRISPR screens and Perturb-seq. A regulator gene is perturbed through its promoter (the
//! element whose `promoter_of` is the gene); the element's edges to other genes are the
//! responses, and its edge to the regulator itself in the same file set measures how well the
//! perturbation worked (`perturbation_efficiency_*`).

use crate::api::genes_genomic_elements::NEG_LOG10_PVALUE_ADJ;
use crate::api::genes_variants::NEG_LOG10_PVALUE;
use crate::edge::{from_ords, Anchor, EdgeQuery, End, Record};
use crate::engine::Set;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::params::Organism;
use crate::prelude::*;
use crate::shape::{field, member, write_str, Render, Shape, Src, Ty};
use crate::vocab::genes::GeneParams;
use varcat_format::collection::Collections;
use varcat_format::schema::{genes as g, genomic_elements as ge, genomic_elements_genes as eg};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/gene-regulatory-network",
    section: None,
    summary: "Gene regulatory network: response genes of perturbed regulator-gene promoters",
    accepts: Accepts {
        params: &[
            &REGULATOR_GENE_ID,
            &REGULATOR_HGNC_ID,
            &REGULATOR_GENE_NAME,
            &REGULATOR_SYNONYM,
            &RESPONSE_GENE_ID,
            &RESPONSE_HGNC_ID,
            &RESPONSE_GENE_NAME,
            &RESPONSE_SYNONYM,
            &NEG_LOG10_PVALUE,
            &NEG_LOG10_PVALUE_ADJ,
            &METHOD,
            &FILESET,
            &SIGNIFICANT,
            &CRISPR_MODALITY,
        ],
        rules: &[Rule::AtLeastOne(&[
            &REGULATOR_GENE_ID,
            &REGULATOR_HGNC_ID,
            &REGULATOR_GENE_NAME,
            &REGULATOR_SYNONYM,
            &RESPONSE_GENE_ID,
            &RESPONSE_HGNC_ID,
            &RESPONSE_GENE_NAME,
            &RESPONSE_SYNONYM,
        ])],
        // The client documents 100, IGVF's router 500: the larger never refuses what IGVF serves.
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Edge(&QUERY),
    body: Body::Array(&GRN),
    examples: &[
        "regulator_gene_name=TSTA1",
        "response_gene_name=TST-B",
        "regulator_gene_name=TSTA1&response_gene_name=TST-B&method=Perturb-seq&significant=true",
    ],
};

/// Regulator gene Ensembl id.
pub const REGULATOR_GENE_ID: Param = Param::new(
    "regulator_gene_id",
    Kind::Id,
    "regulator gene Ensembl id (a version suffix is ignored)",
);
/// Regulator gene HGNC id.
pub const REGULATOR_HGNC_ID: Param =
    Param::new("regulator_hgnc_id", Kind::Hgnc, "regulator gene HGNC id");
/// Regulator gene symbol.
pub const REGULATOR_GENE_NAME: Param = Param::new(
    "regulator_gene_name",
    Kind::Text,
    "regulator gene symbol: exact, else all tokens, else one typo",
);
/// Regulator gene synonym.
pub const REGULATOR_SYNONYM: Param =
    Param::new("regulator_synonym", Kind::Id, "regulator gene synonym");
/// Response gene Ensembl id.
pub const RESPONSE_GENE_ID: Param = Param::new(
    "response_gene_id",
    Kind::Id,
    "response gene Ensembl id (a version suffix is ignored)",
);
/// Response gene HGNC id.
pub const RESPONSE_HGNC_ID: Param =
    Param::new("response_hgnc_id", Kind::Hgnc, "response gene HGNC id");
/// Response gene symbol.
pub const RESPONSE_GENE_NAME: Param = Param::new(
    "response_gene_name",
    Kind::Text,
    "response gene symbol: exact, else all tokens, else one typo",
);
/// Response gene synonym.
pub const RESPONSE_SYNONYM: Param =
    Param::new("response_synonym", Kind::Id, "response gene synonym");
/// The two perturbation methods.
const METHODS: &[&str] = &["CRISPR screen", "Perturb-seq"];
/// Method (both when absent).
pub const METHOD: Param = Param::new("method", Kind::Enum(METHODS), "method (default: both)");
/// Significant rows only (the client documents `true` as the only value).
pub const SIGNIFICANT: Param = Param::new(
    "significant",
    Kind::Enum(&["true"]),
    "significant rows only",
);
/// CRISPR modality.
pub const CRISPR_MODALITY: Param = Param::new(
    "crispr_modality",
    Kind::Enum(&["activation", "interference", "knockout"]),
    "CRISPR modality",
);

const REGULATOR: GeneParams = GeneParams {
    id: &REGULATOR_GENE_ID,
    hgnc: &REGULATOR_HGNC_ID,
    name: &REGULATOR_GENE_NAME,
    synonym: &REGULATOR_SYNONYM,
    region: None,
};

const RESPONSE: GeneParams = GeneParams {
    id: &RESPONSE_GENE_ID,
    hgnc: &RESPONSE_HGNC_ID,
    name: &RESPONSE_GENE_NAME,
    synonym: &RESPONSE_SYNONYM,
    region: None,
};

/// The promoters of the regulator genes: elements whose `promoter_of` is one of them.
fn promoters<'a>(ctx: &Ctx<'a>, els: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let genes = ctx.coll(g::COLL);
    let ords = genes::resolve_by(ctx, p, Organism::Human, &REGULATOR);
    let handles = genes.map_or_else(Vec::new, |gc| sets::handles(gc, &ords));
    let mut f = Filter::over(els);
    f.and(sets::adjacent(els, ge::m::promoter_of, handles));
    f
}

/// The response genes.
fn responses<'a>(ctx: &Ctx<'a>, genes: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    from_ords(genes, genes::resolve_by(ctx, p, Organism::Human, &RESPONSE))
}

/// The method given, else both perturbation methods.
fn methods<'a>(_: &Ctx<'a>, e: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = Filter::over(e);
    match p.str(&METHOD) {
        Some(m) => {
            f.and(sets::facet(e, eg::m::method, m));
        }
        // A test per row, not the union: that would copy every edge of both methods.
        None => {
            let both: Vec<Set> = METHODS
                .iter()
                .map(|m| sets::facet(e, eg::m::method, m))
                .collect();
            f.pred(move |o| both.iter().any(|s| s.contains(o)));
        }
    }
    f
}

/// The gene element `h` is the promoter of, resolved, with its handle.
fn promoter_gene<'a>(cat: &'a Collections, h: &str) -> Option<(&'a Collection, u64, String)> {
    let (ec, eo) = cat.resolve(h)?;
    let gene = ec.str_of(eo, ge::m::promoter_of)?;
    let (gc, go) = cat.resolve(&gene)?;
    Some((gc, go, gene))
}

/// Rows whose element is the promoter of a gene of the catalog: the record requires the
/// regulator's name (IGVF answers 500 on them).
fn has_regulator<'a>(ctx: &Ctx<'a>, e: Option<&'a Collection>, _: &Params) -> Filter<'a> {
    let mut f = Filter::over(e);
    if let Some(ec) = e {
        let cat = ctx.cat;
        f.pred(move |o| {
            ec.str_of(o, eg::m::_from)
                .and_then(|h| promoter_gene(cat, &h))
                .is_some()
        });
    }
    f
}

/// The name of the gene member `end` of edge `o` points at.
fn name_at(r: &Render<'_>, e: &Collection, o: u64, end: Stored, out: &mut Vec<u8>) -> bool {
    let name = e.str_of(o, end).and_then(|h| {
        let (c, go) = r.cat.resolve(&h)?;
        c.str_of(go, g::m::name)
    });
    name.map(|n| write_str(out, &n)).is_some()
}

fn response_gene(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    name_at(r, e, o, eg::m::_to, out)
}

fn regulator_gene(r: &Render<'_>, els: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let name = sets::handle(els, o)
        .and_then(|h| promoter_gene(r.cat, &h))
        .and_then(|(gc, go, _)| gc.str_of(go, g::m::name));
    name.map(|n| write_str(out, &n)).is_some()
}

/// The perturbation-efficiency edge of row `o`: its element's edge to the regulator gene
/// itself in the same file set (the first by key).
fn efficiency_edge(r: &Render<'_>, e: &Collection, o: u64) -> Option<u64> {
    let from = e.str_of(o, eg::m::_from)?;
    let (_, _, gene) = promoter_gene(r.cat, &from)?;
    let files = e.str_of(o, eg::m::files_filesets);
    sets::exact(Some(e), eg::m::_from, &from).iter().find(|&x| {
        e.str_of(x, eg::m::_to).as_deref() == Some(gene.as_str())
            && e.str_of(x, eg::m::files_filesets) == files
    })
}

/// Member `m` of row `o`'s perturbation-efficiency edge.
fn efficiency(r: &Render<'_>, e: &Collection, o: u64, m: Stored, out: &mut Vec<u8>) -> bool {
    let raw = efficiency_edge(r, e, o).and_then(|x| e.raw(x, m));
    match raw.filter(|v| *v != b"null") {
        Some(v) => {
            out.extend_from_slice(&v);
            true
        }
        None => false,
    }
}

fn efficiency_log2fc(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    efficiency(r, e, o, eg::m::log2FC, out)
}

fn efficiency_pvalue(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    efficiency(r, e, o, eg::m::neg_log10_pvalue, out)
}

fn efficiency_pvalue_adj(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    efficiency(r, e, o, eg::m::neg_log10_pvalue_adj, out)
}

fn efficiency_significant(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    efficiency(r, e, o, eg::m::significant, out)
}

type Stored = varcat_format::schema::Member;

/// The perturbed element (the client's `GrnGenomicElement`).
pub static GRN_ELEMENT: Shape = Shape {
    name: "GrnGenomicElement",
    members: &[
        field(ge::m::chr, Ty::Str).required(),
        field(ge::m::start, Ty::Int).required(),
        field(ge::m::end, Ty::Int).required(),
        member("regulator_gene", Src::Fn(regulator_gene), Ty::Str).required(),
    ],
};

/// The record (the client's `Grn`).
pub static GRN: Shape = Shape {
    name: "Grn",
    members: &[
        member("response_gene", Src::Fn(response_gene), Ty::Str).required(),
        member(
            "genomic_element",
            Src::Obj(eg::m::_from, &GRN_ELEMENT),
            Ty::Obj(&GRN_ELEMENT),
        ),
        field(eg::m::crispr_modality, Ty::Str),
        field(eg::m::class, Ty::Str).required(),
        field(eg::m::method, Ty::Str).required(),
        field(eg::m::source, Ty::Str).required(),
        field(eg::m::biological_context, Ty::Str).required(),
        field(eg::m::files_filesets, Ty::Str).required(),
        field(eg::m::log2FC, Ty::Num),
        field(eg::m::neg_log10_pvalue, Ty::Num),
        field(eg::m::neg_log10_pvalue_adj, Ty::Num),
        field(eg::m::significant, Ty::Bool),
        member(
            "perturbation_efficiency_log2FC",
            Src::Fn(efficiency_log2fc),
            Ty::Num,
        ),
        member(
            "perturbation_efficiency_neg_log10_pvalue",
            Src::Fn(efficiency_pvalue),
            Ty::Num,
        ),
        member(
            "perturbation_efficiency_neg_log10_pvalue_adj",
            Src::Fn(efficiency_pvalue_adj),
            Ty::Num,
        ),
        member(
            "perturbation_efficiency_significant",
            Src::Fn(efficiency_significant),
            Ty::Bool,
        ),
    ],
};

/// `/gene-regulatory-network` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(eg::COLL),
    from: eg::m::_from,
    to: eg::m::_to,
    anchors: &[
        Anchor {
            params: &[
                &REGULATOR_GENE_ID,
                &REGULATOR_HGNC_ID,
                &REGULATOR_GENE_NAME,
                &REGULATOR_SYNONYM,
            ],
            nodes: Nodes::One(ge::COLL),
            resolve: Resolve::Fn(promoters),
            end: End::From,
        },
        Anchor {
            params: &[
                &RESPONSE_GENE_ID,
                &RESPONSE_HGNC_ID,
                &RESPONSE_GENE_NAME,
                &RESPONSE_SYNONYM,
            ],
            nodes: Nodes::One(g::COLL),
            resolve: Resolve::Fn(responses),
            end: End::To,
        },
    ],
    filters: &[
        NodeFilter::Resolved(methods),
        NodeFilter::Fileset(&FILESET, eg::m::files_filesets),
        NodeFilter::Facet(&SIGNIFICANT, eg::m::significant),
        NodeFilter::Facet(&CRISPR_MODALITY, eg::m::crispr_modality),
        NodeFilter::Threshold(&NEG_LOG10_PVALUE, eg::m::neg_log10_pvalue),
        NodeFilter::Threshold(&NEG_LOG10_PVALUE_ADJ, eg::m::neg_log10_pvalue_adj),
        NodeFilter::Resolves(eg::m::_to),
        NodeFilter::Resolved(has_regulator),
    ],
    record: Record::One(&GRN),
};
