//! `/transcripts/proteins` (an IGVF client path): proteins the transcripts chosen by id, region and type
//! translate to.

use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{Nodes, Resolve};
use crate::params::TRANSCRIPTS;
use crate::prelude::*;
use crate::shape::{field, member, renamed, Shape, Src, Ty};
use crate::vocab::shapes::PROTEIN;
use crate::vocab::transcripts::{REGION, TRANSCRIPT_ID, TRANSCRIPT_TYPE};
use varcat_format::schema::transcripts_proteins as tp;

const TRANSCRIPT_PARAMS: [&Param; 3] = [&TRANSCRIPT_ID, &REGION, &TRANSCRIPT_TYPE];

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/transcripts/proteins",
    section: None,
    summary: "Proteins of transcripts",
    accepts: Accepts {
        params: &TRANSCRIPT_PARAMS,
        rules: &[Rule::AtLeastOne(&TRANSCRIPT_PARAMS)],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&TRANSCRIPT_PROTEIN),
    examples: &[
        "transcript_id=ENST00000353224",
        "transcript_id=ENST00000353224&verbose=true",
        "region=chr20:9537369-9839076&transcript_type=protein_coding",
    ],
};

/// The transcript–protein edge seen from the transcript; the verbose protein is a one-element
/// array (the IGVF client's `ProteinsFromTranscriptsProtein` requires it).
pub static TRANSCRIPT_PROTEIN: Shape = Shape {
    name: "ProteinsFromTranscripts",
    members: &[
        field(tp::m::source, Ty::Str),
        field(tp::m::source_url, Ty::Str),
        member(
            "protein",
            Src::RefList(tp::m::_to, &PROTEIN),
            Ty::IdOrList(&PROTEIN),
        ),
        renamed("transcript", tp::m::_from, Ty::Str),
        field(tp::m::name, Ty::Str).required(),
    ],
};

/// `/transcripts/proteins` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(tp::COLL),
    from: tp::m::_from,
    to: tp::m::_to,
    anchors: &[Anchor {
        params: &TRANSCRIPT_PARAMS,
        nodes: Nodes::ByOrganism(TRANSCRIPTS),
        resolve: Resolve::Fn(transcripts::anchor),
        end: End::From,
    }],
    filters: &[],
    record: Record::One(&TRANSCRIPT_PROTEIN),
};
