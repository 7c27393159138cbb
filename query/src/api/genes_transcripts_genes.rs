//! `/genes/transcripts/genes` (the IGVF client\'s `genes_transcripts_genes`): MORF overexpression
//! effects — a gene's transcript overexpressed (the `genes_transcripts` edge a row's `_from`
//! names) and a readout gene whose expression changes (`_to`).

use crate::edge::{from_ords, Anchor, EdgeQuery, End, Record};
use crate::engine::{cascade, Set, NAME_TIERS};
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::prelude::*;
use crate::shape::{field, member, Render, Shape, Src, Ty};
use crate::vocab::shapes::{id_or, GENE};
use crate::vocab::transcripts::TRANSCRIPT;
use varcat_format::schema::{
    self, genes_transcripts as gt, genes_transcripts_genes as gtg, transcripts,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/transcripts/genes",
    section: None,
    summary: "MORF overexpression effects of a gene's transcript on readout genes",
    accepts: Accepts {
        params: &[
            &GENE_ID,
            &GENE_NAME,
            &TRANSCRIPT_ID,
            &READOUT_GENE_ID,
            &READOUT_GENE_NAME,
            &MORF_ID,
            &FILESET,
            &METHOD,
            &SIGNIFICANT,
            &CONTEXT,
            &BIOSAMPLE_TERM,
            &LOG2FC,
            &P_VALUE,
            &P_VALUE_ADJ,
            &NEG_LOG10_PVALUE,
            &NEG_LOG10_PVALUE_ADJ,
        ],
        rules: &[Rule::AtLeastOne(&[
            &GENE_ID,
            &GENE_NAME,
            &TRANSCRIPT_ID,
            &READOUT_GENE_ID,
            &READOUT_GENE_NAME,
            &MORF_ID,
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
    body: Body::Array(&GENE_TRANSCRIPT_GENE),
    examples: &[
        "gene_name=TSTA1",
        "gene_id=ENSG90000000001&transcript_id=ENST90000000001&verbose=true",
        "readout_gene_name=TSTA1&log2FC=gt:0",
        "method=MORF%20screen&significant=true&neg_log10_pvalue=gte:2",
    ],
};

/// The overexpressed gene's Ensembl id.
pub const GENE_ID: Param = Param::new(
    "gene_id",
    Kind::Id,
    "overexpressed gene's Ensembl id (a version suffix is ignored)",
);
/// The overexpressed gene's symbol.
pub const GENE_NAME: Param = Param::new(
    "gene_name",
    Kind::Text,
    "overexpressed gene's symbol: exact, else all tokens, else one typo",
);
/// The overexpressed transcript.
pub const TRANSCRIPT_ID: Param = Param::new(
    "transcript_id",
    Kind::Id,
    "overexpressed transcript's Ensembl id (a version suffix is ignored)",
);
/// The readout gene's Ensembl id.
pub const READOUT_GENE_ID: Param = Param::new(
    "readout_gene_id",
    Kind::Id,
    "readout gene's Ensembl id (a version suffix is ignored)",
);
/// The readout gene's symbol.
pub const READOUT_GENE_NAME: Param = Param::new(
    "readout_gene_name",
    Kind::Text,
    "readout gene's symbol: exact, else all tokens, else one typo",
);
/// The MORF construct.
pub const MORF_ID: Param = Param::new("morf_id", Kind::Id, "MORF construct id");
/// Method.
pub const METHOD: Param = Param::new("method", Kind::Enum(&["MORF screen"]), "method");
/// Significance.
pub const SIGNIFICANT: Param = Param::new("significant", Kind::Bool, "significant effects");
/// Biological context (exact).
pub const CONTEXT: Param = Param::new(
    "biological_context",
    Kind::Id,
    "biological context (exact, e.g. K562)",
);
/// Biosample term.
pub const BIOSAMPLE_TERM: Param = Param::new(
    "biosample_term",
    Kind::Id,
    "biosample ontology term id, e.g. EFO_0002067",
);
/// log2 fold change threshold.
pub const LOG2FC: Param = Param::new("log2FC", Kind::Threshold, "log2 fold change threshold");
/// p-value threshold.
pub const P_VALUE: Param = Param::new("p_value", Kind::Threshold, "p-value threshold");
/// Adjusted p-value threshold.
pub const P_VALUE_ADJ: Param =
    Param::new("p_value_adj", Kind::Threshold, "adjusted p-value threshold");
/// -log10 p-value threshold.
pub const NEG_LOG10_PVALUE: Param = Param::new(
    "neg_log10_pvalue",
    Kind::Threshold,
    "-log10 p-value threshold",
);
/// -log10 adjusted p-value threshold.
pub const NEG_LOG10_PVALUE_ADJ: Param = Param::new(
    "neg_log10_pvalue_adj",
    Kind::Threshold,
    "-log10 adjusted p-value threshold",
);

/// Human genes by Ensembl id `id` and symbol `name` (the name cascade of the gene
/// parameters), each when given.
fn genes_by(ctx: &Ctx<'_>, p: &Params, id: &Param, name: &Param) -> Vec<u64> {
    let g = ctx.coll(schema::genes::COLL);
    let base = || {
        let mut f = Filter::over(g);
        if let Some(id) = p.str(id) {
            f.and(sets::keys(g, id));
        }
        f
    };
    match (p.str(name), g) {
        (Some(n), Some(c)) => cascade(c, schema::genes::m::name, n, NAME_TIERS, base).collect(),
        _ => base().collect(),
    }
}

/// The gene–transcript edges (constructs) whose gene the gene parameters select and whose
/// transcript `transcript_id` names, each when given.
fn constructs<'a>(ctx: &Ctx<'a>, e: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = Filter::over(e);
    if p.any(&[&GENE_ID, &GENE_NAME]) {
        let g = ctx.coll(schema::genes::COLL);
        let ords = genes_by(ctx, p, &GENE_ID, &GENE_NAME);
        f.and(sets::adjacent_to(e, gt::m::_from, g, ords));
    }
    if let Some(id) = p.str(&TRANSCRIPT_ID) {
        let t = ctx.coll(transcripts::COLL);
        f.and(sets::adjacent_to(
            e,
            gt::m::_to,
            t,
            sets::keys(t, id).iter(),
        ));
    }
    f
}

/// The readout genes.
fn readout<'a>(ctx: &Ctx<'a>, g: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    from_ords(g, genes_by(ctx, p, &READOUT_GENE_ID, &READOUT_GENE_NAME))
}

/// Rows the client can take: `log2FC` and `significant` are required and no value would be
/// honest, so a row without them has no row (docs/DESIGN.md#dangling-references).
fn complete<'a>(_: &Ctx<'a>, e: Option<&'a Collection>, _: &Params) -> Filter<'a> {
    let mut f = Filter::over(e);
    f.and(Set::union([
        sets::facet(e, gtg::m::significant, "true"),
        sets::facet(e, gtg::m::significant, "false"),
    ]));
    f.pred(sets::number_test(e, gtg::m::log2FC, |x| x.is_finite()));
    f
}

/// The edge's handle (`genes_transcripts_genes/<key>`, IGVF's `_id`).
fn handle(_: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    sets::handle(e, o)
        .map(|h| crate::shape::write_str(out, &h))
        .is_some()
}

/// Member `end` of the construct (the `genes_transcripts` edge `_from` names): its handle, or
/// with `verbose` the record in `shape` (the handle when that record is missing).
fn construct_end(
    r: &Render<'_>,
    e: &Collection,
    o: u64,
    end: varcat_format::schema::Member,
    shape: &Shape,
    out: &mut Vec<u8>,
) -> bool {
    let Some((c, co)) = e.str_of(o, gtg::m::_from).and_then(|h| r.cat.resolve(&h)) else {
        return false;
    };
    let Some(h) = c.str_of(co, end) else {
        return false;
    };
    match r.expansion(&h) {
        Some((tc, to)) => r.object(out, tc, to, shape),
        None => crate::shape::write_str(out, &h),
    }
    true
}

/// The overexpressed gene.
fn gene(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    construct_end(r, e, o, gt::m::_from, &GENE, out)
}

/// The overexpressed transcript.
fn transcript(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    construct_end(r, e, o, gt::m::_to, &TRANSCRIPT, out)
}

/// The MORF effect (the client's `GenesTranscriptsGenes`).
pub static GENE_TRANSCRIPT_GENE: Shape = Shape {
    name: "GenesTranscriptsGenes",
    members: &[
        member("_id", Src::Fn(handle), Ty::Str).required(),
        member("gene_transcript", Src::Field(gtg::m::_from), Ty::Str).required(),
        member("gene", Src::Fn(gene), Ty::IdOr(&GENE)),
        member("transcript", Src::Fn(transcript), Ty::IdOr(&TRANSCRIPT)),
        id_or("readout_gene", gtg::m::_to, &GENE),
        field(gtg::m::morf_id, Ty::Str).required(),
        field(gtg::m::transcript_mapping_method, Ty::Str).required(),
        field(gtg::m::log2FC, Ty::Num),
        field(gtg::m::standard_error, Ty::Num),
        field(gtg::m::base_mean, Ty::Num),
        field(gtg::m::p_value, Ty::Num),
        field(gtg::m::p_value_adj, Ty::Num),
        field(gtg::m::neg_log10_pvalue, Ty::Num),
        field(gtg::m::neg_log10_pvalue_adj, Ty::Num),
        field(gtg::m::significant, Ty::Bool),
        field(gtg::m::name, Ty::Str).required(),
        field(gtg::m::label, Ty::Str).required(),
        field(gtg::m::class, Ty::Str).required(),
        field(gtg::m::method, Ty::Str).required(),
        field(gtg::m::source, Ty::Str).required(),
        field(gtg::m::source_url, Ty::Str).required(),
        field(gtg::m::files_filesets, Ty::Str).required(),
        field(gtg::m::biological_context, Ty::Str).required(),
        field(gtg::m::biosample_term, Ty::Str).required(),
        field(gtg::m::treatments_term_ids, Ty::StrArr),
    ],
};

/// `/genes/transcripts/genes` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(gtg::COLL),
    from: gtg::m::_from,
    to: gtg::m::_to,
    anchors: &[
        Anchor {
            params: &[&GENE_ID, &GENE_NAME, &TRANSCRIPT_ID],
            nodes: Nodes::One(gt::COLL),
            resolve: Resolve::Fn(constructs),
            end: End::From,
        },
        Anchor {
            params: &[&READOUT_GENE_ID, &READOUT_GENE_NAME],
            nodes: Nodes::One(schema::genes::COLL),
            resolve: Resolve::Fn(readout),
            end: End::To,
        },
    ],
    filters: &[
        NodeFilter::Exact(&MORF_ID, gtg::m::morf_id),
        NodeFilter::Fileset(&FILESET, gtg::m::files_filesets),
        NodeFilter::Facet(&METHOD, gtg::m::method),
        NodeFilter::Bool(&SIGNIFICANT, gtg::m::significant),
        NodeFilter::Exact(&CONTEXT, gtg::m::biological_context),
        NodeFilter::Term(&BIOSAMPLE_TERM, gtg::m::biosample_term),
        NodeFilter::Threshold(&LOG2FC, gtg::m::log2FC),
        NodeFilter::Threshold(&P_VALUE, gtg::m::p_value),
        NodeFilter::Threshold(&P_VALUE_ADJ, gtg::m::p_value_adj),
        NodeFilter::Threshold(&NEG_LOG10_PVALUE, gtg::m::neg_log10_pvalue),
        NodeFilter::Threshold(&NEG_LOG10_PVALUE_ADJ, gtg::m::neg_log10_pvalue_adj),
        NodeFilter::Resolves(gtg::m::_from),
        NodeFilter::Resolved(complete),
    ],
    record: Record::One(&GENE_TRANSCRIPT_GENE),
};
