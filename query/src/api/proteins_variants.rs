//! `/proteins/variants` (an IGVF client path): variants that modulate the binding or levels of the proteins
//! the protein parameters select, or of the complexes those proteins belong to, as IGVF
//! (`/variants/proteins` from the protein's side).

use std::collections::BTreeSet;

use crate::api::variants_proteins::{LABEL, METHOD, PROTEIN_VARIANT, SOURCE};
use crate::edge::{EdgeQuery, Record};
use crate::node::{NodeFilter, Nodes};
use crate::prelude::*;
use crate::vocab::proteins::{DBXREFS, PROTEIN_ID, PROTEIN_NAME, UNIPROT_FULL_NAME, UNIPROT_NAME};
use varcat_format::schema::{complexes_proteins as cp, proteins as pr, variants_proteins as vp};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/proteins/variants",
    section: None,
    summary: "Variants that modulate the binding or levels of proteins",
    accepts: Accepts {
        params: &[
            &PROTEIN_ID,
            &PROTEIN_NAME,
            &UNIPROT_NAME,
            &UNIPROT_FULL_NAME,
            &DBXREFS,
            &LABEL,
            &SOURCE,
            &METHOD,
            &FILESET,
            &NAME,
        ],
        rules: &[Rule::AtLeastOne(&[
            &PROTEIN_ID,
            &PROTEIN_NAME,
            &UNIPROT_NAME,
            &UNIPROT_FULL_NAME,
            &DBXREFS,
            &METHOD,
            &FILESET,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&PROTEIN_VARIANT),
    examples: &[
        "protein_id=ENSP90000000001",
        "protein_id=ENSP90000000001&verbose=true",
        "method=pQTL&limit=3",
    ],
};

/// Relation (the edge's inverse names).
pub const NAME: Param = Param::new(
    "name",
    Kind::Enum(&["binding modulated by", "level associated with"]),
    "relation",
);

/// With a protein parameter given, the edges to the proteins it selects and to the complexes
/// containing one of them (`complexes_proteins`); every edge otherwise.
fn proteins_and_their_complexes<'a>(
    ctx: &Ctx<'a>,
    e: Option<&'a Collection>,
    p: &Params,
) -> Filter<'a> {
    let mut f = Filter::over(e);
    if !p.any(&proteins::FILTERS) {
        return f;
    }
    let pc = ctx.coll(pr::COLL);
    let ords = proteins::anchor(ctx, pc, p).collect();
    let handles = pc.map(|c| sets::handles(c, &ords)).unwrap_or_default();
    let members = ctx.coll(cp::COLL);
    let complexes: BTreeSet<String> = members
        .map(|m| {
            sets::adjacent(members, cp::m::_to, handles.iter().cloned())
                .iter()
                .filter_map(|o| m.str_of(o, cp::m::_from))
                .collect()
        })
        .unwrap_or_default();
    f.and(sets::adjacent(
        e,
        vp::m::_to,
        handles.into_iter().chain(complexes),
    ));
    f
}

/// `/proteins/variants` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vp::COLL),
    from: vp::m::_from,
    to: vp::m::_to,
    anchors: &[],
    filters: &[
        NodeFilter::Resolved(proteins_and_their_complexes),
        NodeFilter::Facet(&LABEL, vp::m::label),
        NodeFilter::Facet(&SOURCE, vp::m::source),
        NodeFilter::Facet(&METHOD, vp::m::method),
        NodeFilter::Fileset(&FILESET, vp::m::files_filesets),
        NodeFilter::Facet(&NAME, vp::m::inverse_name),
    ],
    record: Record::One(&PROTEIN_VARIANT),
};
