//! 4.8 `/transcripts/genes`: genes that transcribe the given transcripts.

use crate::engine::Filter;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::params::TRANSCRIPTS;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, renamed, Shape, Ty};
use crate::vocab::shapes::{id_or, GENE};
use crate::vocab::transcripts::{REGION, TRANSCRIPT_ID, TRANSCRIPT_TYPE};
use varcat_format::schema;
use varcat_format::schema::{genes_transcripts, transcripts};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/transcripts/genes",
    section: Some("4.8"),
    summary: "Genes that transcribe the given transcripts",
    accepts: Accepts {
        params: &[&TRANSCRIPT_ID, &REGION, &TRANSCRIPT_TYPE],
        rules: &[Rule::AtLeastOne(&[
            &TRANSCRIPT_ID,
            &REGION,
            &TRANSCRIPT_TYPE,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: Run::Handler(transcripts_genes),
    body: Body::Array(&TRANSCRIPT_GENE),
    examples: &[
        "transcript_id=ENST00000353224",
        "region=chr20:9537369-9839076&verbose=true",
        "transcript_type=protein_coding&organism=Mus%20musculus",
    ],
};

/// 4.8 record: the gene–transcript edge; `name` is always the inverse name ("transcribed by").
pub static TRANSCRIPT_GENE: Shape = Shape {
    name: "TranscriptGene",
    members: &[
        field(schema::genes_transcripts::m::source, Ty::Str),
        field(schema::genes_transcripts::m::source_url, Ty::Str),
        field(schema::genes_transcripts::m::version, Ty::Str),
        id_or("gene", schema::genes_transcripts::m::_from, &GENE),
        renamed("transcript", schema::genes_transcripts::m::_to, Ty::Str),
        renamed("name", schema::genes_transcripts::m::inverse_name, Ty::Str).required(),
    ],
};

/// 4.8: genes of transcripts chosen by id, region and/or type (all ANDed).
pub fn transcripts_genes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let edges = ctx.coll(genes_transcripts::COLL);
    let tcoll = p.organism.collection(TRANSCRIPTS);
    let transcripts = ctx.coll(tcoll);
    let mut f = Filter::over(edges);
    if let Some(id) = p.str(&TRANSCRIPT_ID) {
        let handles = crate::parse::ident::ensembl_candidates(id)
            .into_iter()
            .map(|k| format!("{}/{k}", tcoll.name()));
        f.and(sets::adjacent(edges, genes_transcripts::m::_to, handles));
    }
    if p.any(&[&REGION, &TRANSCRIPT_TYPE]) {
        let mut t = Filter::over(transcripts);
        if let Some(r) = p.region(&REGION) {
            t.and(sets::overlapping(transcripts, r));
        }
        if let Some(ty) = p.str(&TRANSCRIPT_TYPE) {
            t.and(sets::facet(
                transcripts,
                transcripts::m::transcript_type,
                ty,
            ));
        }
        f.and(sets::adjacent_to(
            edges,
            genes_transcripts::m::_to,
            transcripts,
            t.lazy(),
        ));
    }
    ctx.page(p, edges, &f, &TRANSCRIPT_GENE)
}
