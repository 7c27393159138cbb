//! `/transcripts` (an IGVF client path): transcripts by id, region, type and RefSeq id.

use crate::node::{NodeFilter, NodeQuery, Nodes};
use crate::params::TRANSCRIPTS;
use crate::prelude::*;
use crate::vocab::transcripts::{REGION, TRANSCRIPT, TRANSCRIPT_ID, TRANSCRIPT_TYPE};
use varcat_format::schema::transcripts;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/transcripts",
    section: None,
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
    run: Run::Node(&QUERY),
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
