//! `/complexes` (an IGVF client path): protein complexes by id, name or description.

use crate::api::motifs_proteins::COMPLEX;
use crate::engine::{Tier, NAME_TIERS};
use crate::node::{NodeFilter, NodeQuery, Nodes};
use crate::prelude::*;
use varcat_format::schema::complexes;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/complexes",
    section: None,
    summary: "Protein complexes by id, name or description",
    accepts: Accepts {
        params: &[&COMPLEX_ID, &NAME, &DESCRIPTION],
        rules: &[Rule::AtLeastOne(&[&COMPLEX_ID, &NAME, &DESCRIPTION])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&COMPLEX),
    examples: &[
        "complex_id=CPX-9",
        "name=SMAD2-SMAD3-SMAD4%20complex",
        "description=transcription%20factor",
    ],
};

/// Complex id.
pub const COMPLEX_ID: Param = Param::new("complex_id", Kind::Id, "complex id, e.g. CPX-9");
/// Name, through the name cascade.
pub const NAME: Param = Param::new(
    "name",
    Kind::Text,
    "complex name: exact, else all tokens, else one typo",
);
/// Description words.
pub const DESCRIPTION: Param =
    Param::new("description", Kind::Text, "every word in the description");

/// `/complexes` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::One(complexes::COLL),
    filters: &[
        NodeFilter::Key(&COMPLEX_ID),
        NodeFilter::Text(&NAME, complexes::m::name, NAME_TIERS),
        NodeFilter::Text(&DESCRIPTION, complexes::m::description, &[Tier::Tokens]),
    ],
    shape: &COMPLEX,
};
