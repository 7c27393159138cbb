//! `/transcripts` (an IGVF client path): transcripts by id, region, type and RefSeq id.

use super::*;
use crate::api::node::{rows, NodeFilter, NodeQuery, Nodes};
use crate::api::transcripts_genes::{REGION, TRANSCRIPT_ID, TRANSCRIPT_TYPE};
use crate::api::Ctx;
use crate::engine::Filter;
use crate::params::Params;
use crate::params::TRANSCRIPTS;
use crate::shape::{field, member, Shape, Src, Ty};
use varcat_format::collection::Collection;
use varcat_format::schema::transcripts;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/transcripts",
    section: "r61",
    summary: "Transcripts by id, region, type and RefSeq id",
    accepts: Accepts {
        params: &[
            &TRANSCRIPT_ID,
            &REGION,
            &TRANSCRIPT_TYPE,
            &REFSEQ_TRANSCRIPT_ID,
        ],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: |ctx, p| QUERY.run(ctx, p),
    body: Body::Array(&TRANSCRIPT),
    examples: &[
        "transcript_id=ENST00000353224",
        "region=chr20:9537369-9600000&transcript_type=protein_coding",
        "organism=Mus%20musculus&region=chr1:3000000-4000000",
    ],
};

/// RefSeq transcript id (kept when the input has it).
pub const REFSEQ_TRANSCRIPT_ID: Param = Param::new(
    "refseq_transcript_id",
    Kind::Id,
    "RefSeq transcript id, e.g. NM_000546",
);

/// The transcript record (the client's `Transcript`; `refseq_transcript_ids` null when the
/// input lacks it).
pub static TRANSCRIPT: Shape = Shape {
    name: "Transcript",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(transcripts::m::transcript_type, Ty::Str).required(),
        field(transcripts::m::chr, Ty::Str).required(),
        field(transcripts::m::start, Ty::Int),
        field(transcripts::m::end, Ty::Int),
        field(transcripts::m::strand, Ty::Str).required(),
        field(transcripts::m::name, Ty::Str).required(),
        field(transcripts::m::gene_name, Ty::Str).required(),
        field(transcripts::m::refseq_transcript_ids, Ty::StrArr),
        field(transcripts::m::MANE_Select, Ty::Bool),
        field(transcripts::m::source, Ty::Str).required(),
        field(transcripts::m::version, Ty::Str).required(),
        field(transcripts::m::source_url, Ty::Str).required(),
    ],
};

/// `/transcripts` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::ByOrganism(TRANSCRIPTS),
    filters: &[
        NodeFilter::Key(&TRANSCRIPT_ID),
        NodeFilter::Overlaps(&REGION),
        NodeFilter::Facet(&TRANSCRIPT_TYPE, transcripts::m::transcript_type),
        NodeFilter::Exact(&REFSEQ_TRANSCRIPT_ID, transcripts::m::refseq_transcript_ids),
    ],
    shape: &TRANSCRIPT,
};

/// The transcript filters of 4.8 (id, region, type).
pub static ANCHOR_FILTERS: [NodeFilter; 3] = [
    NodeFilter::Key(&TRANSCRIPT_ID),
    NodeFilter::Overlaps(&REGION),
    NodeFilter::Facet(&TRANSCRIPT_TYPE, transcripts::m::transcript_type),
];

/// Transcripts by id, region and type, as an anchor resolver.
pub fn anchor<'a>(ctx: &Ctx<'a>, t: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    rows(ctx, t, &ANCHOR_FILTERS, p, || Filter::over(t))
}
