//! 4.8 `/transcripts/genes` and 4.10 `/genes-structure`.

use crate::api::shapes::{id_or, GENE};
use crate::api::{sets, Ctx, Reply};
use crate::engine::Filter;
use crate::params::Params;
use crate::shape::{field, member, renamed, Shape, Src, Ty};

/// 4.8 record: the gene–transcript edge; `name` is always the inverse name ("transcribed by").
pub static TRANSCRIPT_GENE: Shape = Shape {
    name: "TranscriptGene",
    members: &[
        field("source", Ty::Str),
        field("source_url", Ty::Str),
        field("version", Ty::Str),
        id_or("gene", "_from", &GENE),
        renamed("transcript", "_to", Ty::Str),
        renamed("name", "inverse_name", Ty::Str).required(),
    ],
};

/// 4.8: genes of transcripts chosen by id, region and/or type (all ANDed).
pub fn transcripts_genes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let edges = ctx.coll("genes_transcripts");
    let tname = p.organism.collection("transcripts");
    let transcripts = ctx.coll(&tname);
    let mut f = Filter::over(edges);
    if let Some(id) = p.str("transcript_id") {
        let handles = crate::parse::ident::ensembl_candidates(id)
            .into_iter()
            .map(|k| format!("{tname}/{k}"));
        f.and(sets::adjacent(edges, "_to", handles));
    }
    if p.has("region") || p.has("transcript_type") {
        let mut t = Filter::over(transcripts);
        if let Some(r) = p.region("region") {
            t.and(sets::overlapping(transcripts, r));
        }
        if let Some(ty) = p.str("transcript_type") {
            t.and(sets::facet(transcripts, "transcript_type", ty));
        }
        f.and(sets::adjacent_to(edges, "_to", transcripts, t.lazy()));
    }
    ctx.page(p, edges, &f, &TRANSCRIPT_GENE)
}

/// 4.10 record.
pub static GENE_STRUCTURE: Shape = Shape {
    name: "GeneStructure",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field("name", Ty::Str).required(),
        field("chr", Ty::Str).required(),
        field("start", Ty::Int),
        field("end", Ty::Int),
        field("strand", Ty::Str).required(),
        field("type", Ty::Str).required(),
        field("gene_id", Ty::Str).required(),
        field("gene_name", Ty::Str).required(),
        field("transcript_id", Ty::Str).required(),
        field("transcript_name", Ty::Str).required(),
        field("protein_id", Ty::Str),
        field("exon_number", Ty::Str).required(),
        field("exon_id", Ty::Str),
        field("organism", Ty::Str).required(),
        field("source", Ty::Str).required(),
        field("version", Ty::Str).required(),
        field("source_url", Ty::Str).required(),
    ],
};

/// 4.10: structure rows by gene, transcript, protein, region and type, all ANDed, in
/// (gene_id, transcript_id, start, _key) order (the stored order).
pub fn genes_structure(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let s = ctx.coll(&p.organism.collection("genes_structure"));
    let mut f = Filter::over(s);
    for (param, member) in [("gene_id", "gene_id"), ("transcript_id", "transcript_id")] {
        if let Some(id) = p.str(param) {
            f.and(sets::exact_any(
                s,
                member,
                &crate::parse::ident::ensembl_candidates(id),
            ));
        }
    }
    for name in ["gene_name", "transcript_name"] {
        if let Some(v) = p.str(name) {
            f.and(sets::exact(s, name, v));
        }
    }
    if let Some(t) = p.str("type") {
        f.and(sets::facet(s, "type", t));
    }
    if let Some(r) = p.region("region") {
        f.and(sets::overlapping(s, r));
    }
    if p.has("protein_id") || p.has("protein_name") {
        let proteins = ctx.coll("proteins");
        let keys: Vec<String> = crate::api::proteins::matching(ctx, p)
            .lazy()
            .filter_map(|o| proteins.and_then(|c| c.string(o, "_key")))
            .collect();
        f.and(sets::exact_any(s, "protein_id", &keys));
    }
    ctx.page(p, s, &f, &GENE_STRUCTURE)
}
