//! `/proteins/variants` (issue 23): variants that modulate the binding or levels of the proteins
//! the protein parameters select (`/variants/proteins` from the protein's side).

use super::*;
use crate::api::edge::{Anchor, EdgeQuery, End, Record};
use crate::api::node::{NodeFilter, Nodes};
use crate::api::proteins::{DBXREFS, PROTEIN_ID, PROTEIN_NAME, UNIPROT_FULL_NAME, UNIPROT_NAME};
use crate::api::variants_proteins::{LABEL, METHOD, PROTEIN_VARIANT, SOURCE};
use varcat_format::schema::{proteins as pr, variants_proteins as vp};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/proteins/variants",
    section: "r58",
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
    run: |ctx, p| QUERY.run(ctx, p),
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

/// `/proteins/variants` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vp::COLL),
    from: vp::m::_from,
    to: vp::m::_to,
    anchors: &[Anchor {
        params: &proteins::FILTERS,
        nodes: Nodes::One(pr::COLL),
        resolve: proteins::anchor,
        end: End::To,
    }],
    filters: &[
        NodeFilter::Facet(&LABEL, vp::m::label),
        NodeFilter::Facet(&SOURCE, vp::m::source),
        NodeFilter::Facet(&METHOD, vp::m::method),
        NodeFilter::Fileset(&FILESET, vp::m::files_filesets),
        NodeFilter::Facet(&NAME, vp::m::inverse_name),
    ],
    record: Record::One(&PROTEIN_VARIANT),
};
