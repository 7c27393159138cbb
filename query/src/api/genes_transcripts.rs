//! `/genes/transcripts` (an IGVF client path): transcripts of the genes the gene parameters select.

use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{Nodes, Resolve};
use crate::params::GENES;
use crate::prelude::*;
use crate::shape::{field, renamed, Shape, Ty};
use crate::vocab::shapes::id_or;
use crate::vocab::transcripts::TRANSCRIPT;
use varcat_format::schema::genes_transcripts as gt;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/transcripts",
    section: None,
    summary: "Transcripts of genes",
    accepts: Accepts {
        params: &genes::PARAMS,
        rules: &[genes::RULE],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&GENE_TRANSCRIPT),
    examples: &[
        "gene_id=ENSG00000101349",
        "gene_name=TSTA1&verbose=true",
        "organism=Mus%20musculus&region=chr1:3000000-4000000",
    ],
};

/// The gene–transcript edge seen from the gene: `name` is the edge's own ("transcribes").
pub static GENE_TRANSCRIPT: Shape = Shape {
    name: "GenesFromTranscripts",
    members: &[
        field(gt::m::source, Ty::Str),
        field(gt::m::source_url, Ty::Str),
        field(gt::m::version, Ty::Str),
        renamed("gene", gt::m::_from, Ty::Str),
        id_or("transcript", gt::m::_to, &TRANSCRIPT),
        field(gt::m::name, Ty::Str).required(),
    ],
};

/// `/genes/transcripts` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(gt::COLL),
    from: gt::m::_from,
    to: gt::m::_to,
    anchors: &[Anchor {
        params: &genes::PARAMS,
        nodes: Nodes::ByOrganism(GENES),
        resolve: Resolve::Fn(genes::anchor),
        end: End::From,
    }],
    filters: &[],
    record: Record::One(&GENE_TRANSCRIPT),
};
