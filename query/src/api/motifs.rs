//! `/motifs` (an IGVF client path): binding motifs by transcription factor, source, method and file set.

use crate::api::motifs_proteins::{METHOD, SOURCE, TF_NAME};
use crate::node::{NodeFilter, NodeQuery, Nodes};
use crate::prelude::*;
use crate::shape::{field, Shape, Ty};
use varcat_format::schema::motifs;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/motifs",
    section: None,
    summary: "Motifs by transcription factor, source, method, file set",
    accepts: Accepts {
        params: &[&TF_NAME, &SOURCE, &FILESET, &METHOD],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&MOTIF_NODE),
    examples: &["tf_name=TSTA1", "method=SEMpl", "source=HOCOMOCOv11"],
};

/// The motif record (the client's `Motif`: no `_id`, as IGVF).
pub static MOTIF_NODE: Shape = Shape {
    name: "MotifNode",
    members: &[
        field(motifs::m::name, Ty::Str).required(),
        field(motifs::m::tf_name, Ty::Str).required(),
        field(motifs::m::length, Ty::Int),
        field(motifs::m::pwm, Ty::Any),
        field(motifs::m::source, Ty::Str).required(),
        field(motifs::m::source_url, Ty::Str).required(),
        field(motifs::m::class, Ty::Str),
        field(motifs::m::method, Ty::Str),
        field(motifs::m::files_filesets, Ty::Str),
    ],
};

/// `/motifs` as data; a transcription factor is matched as given and upper-cased (IGVF
/// upper-cases it).
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::One(motifs::COLL),
    filters: &[
        NodeFilter::ExactAny(&TF_NAME, motifs::m::tf_name, |v| {
            let mut out = vec![v.to_string(), v.to_uppercase()];
            out.dedup();
            out
        }),
        NodeFilter::Facet(&SOURCE, motifs::m::source),
        NodeFilter::Facet(&METHOD, motifs::m::method),
        NodeFilter::Fileset(&FILESET, motifs::m::files_filesets),
    ],
    shape: &MOTIF_NODE,
};
