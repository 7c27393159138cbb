//! `/proteins/motifs` (an IGVF client path): the motifs proteins use, directly or through the complexes
//! containing them (4.21 from the protein's side, one list in edge-key order).

use crate::api::motifs_proteins::{METHOD, MOTIF_PROTEIN};
use crate::edge::{EdgeQuery, Record};
use crate::engine::Set;
use crate::node::{NodeFilter, Nodes};
use crate::prelude::*;
use varcat_format::schema::{
    complexes as cx, complexes_proteins as cp, motifs_proteins as mp, proteins as pr,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/proteins/motifs",
    section: None,
    summary: "Motifs of proteins and of the complexes containing them",
    accepts: Accepts {
        params: &PARAMS,
        // As IGVF: no parameter lists every protein and complex motif edge.
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 1000,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&MOTIF_PROTEIN),
    examples: &["protein_id=ENSP90000000001", "method=SEMpl&verbose=true"],
};

/// The protein parameters, file set and method.
const PARAMS: [&Param; 7] = [
    proteins::FILTERS[0],
    proteins::FILTERS[1],
    proteins::FILTERS[2],
    proteins::FILTERS[3],
    proteins::FILTERS[4],
    &FILESET,
    &METHOD,
];

/// The edges at the matching proteins and at the complexes containing them.
fn motifs_of<'a>(ctx: &Ctx<'a>, e: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = Filter::over(e);
    if !p.any(&proteins::FILTERS) {
        return f;
    }
    let prots = ctx.coll(pr::COLL);
    let ords = proteins::anchor(ctx, prots, p).collect();
    let direct = sets::adjacent_to(e, mp::m::_to, prots, ords.iter().copied());
    let links = ctx.coll(cp::COLL);
    let cx_handles: Vec<String> = sets::adjacent_to(links, cp::m::_to, prots, ords)
        .iter()
        .filter_map(|l| links.and_then(|c| c.str_of(l, cp::m::_from)))
        .filter(|h| h.starts_with(&format!("{}/", cx::COLL.name())))
        .collect();
    let via = sets::adjacent(e, mp::m::_to, cx_handles);
    f.and(Set::union([direct, via]));
    f
}

/// `/proteins/motifs` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(mp::COLL),
    from: mp::m::_from,
    to: mp::m::_to,
    anchors: &[],
    filters: &[
        NodeFilter::Resolved(motifs_of),
        NodeFilter::Facet(&METHOD, mp::m::method),
        NodeFilter::Fileset(&FILESET, mp::m::files_filesets),
    ],
    record: Record::One(&MOTIF_PROTEIN),
};
