//! Transcripts as the endpoints that start from one resolve them: the id, region and biotype
//! parameters (4.8), the transcript record and the anchor resolver.

use crate::engine::Filter;
use crate::handler::Ctx;
use crate::node::{rows, NodeFilter};
use crate::params::{Kind, Param, Params};
use crate::shape::{field, member, Shape, Src, Ty};
use crate::vocab::biotypes::TRANSCRIPT_TYPES;
use varcat_format::collection::Collection;
use varcat_format::schema::transcripts;

/// Ensembl transcript id.
pub const TRANSCRIPT_ID: Param =
    Param::new("transcript_id", Kind::Id, "Ensembl transcript id (ENST…)");
/// Transcripts overlapping a region.
pub const REGION: Param = Param::new(
    "region",
    Kind::Region(None),
    "transcripts overlapping chr<name>:<start>-<end>",
);
/// Transcript biotype.
pub const TRANSCRIPT_TYPE: Param = Param::new(
    "transcript_type",
    Kind::Enum(TRANSCRIPT_TYPES),
    "GENCODE transcript biotype",
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
