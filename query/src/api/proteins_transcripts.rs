//! `/proteins/transcripts` (an IGVF client path): transcripts that translate to the proteins the protein
//! parameters select.

use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{Nodes, Resolve};
use crate::prelude::*;
use crate::shape::{field, renamed, Shape, Ty};
use crate::vocab::shapes::id_or;
use crate::vocab::transcripts::TRANSCRIPT;
use varcat_format::schema::{proteins as pr, transcripts_proteins as tp};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/proteins/transcripts",
    section: None,
    summary: "Transcripts of proteins",
    accepts: Accepts {
        params: &proteins::FILTERS,
        // As IGVF: no protein parameter lists every transcript–protein edge.
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&PROTEIN_TRANSCRIPT),
    examples: &[
        "protein_id=ENSP00000322957",
        "uniprot_name=PAK5_HUMAN&verbose=true",
    ],
};

/// The transcript–protein edge seen from the protein: `name` is the inverse name, as IGVF.
pub static PROTEIN_TRANSCRIPT: Shape = Shape {
    name: "TranscriptsFromProteins",
    members: &[
        field(tp::m::source, Ty::Str),
        field(tp::m::source_url, Ty::Str),
        renamed("protein", tp::m::_to, Ty::Str),
        id_or("transcript", tp::m::_from, &TRANSCRIPT),
        renamed("name", tp::m::inverse_name, Ty::Str).required(),
    ],
};

/// `/proteins/transcripts` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(tp::COLL),
    from: tp::m::_from,
    to: tp::m::_to,
    anchors: &[Anchor {
        params: &proteins::FILTERS,
        nodes: Nodes::One(pr::COLL),
        resolve: Resolve::Fn(proteins::anchor),
        end: End::To,
    }],
    filters: &[],
    record: Record::One(&PROTEIN_TRANSCRIPT),
};
