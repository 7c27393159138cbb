//! `/drugs` (an IGVF client path): drugs by id or name.

use crate::engine::NAME_TIERS;
use crate::node::{NodeFilter, NodeQuery, Nodes};
use crate::prelude::*;
use crate::vocab::shapes::DRUG;
use varcat_format::schema::drugs;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/drugs",
    section: None,
    summary: "Drugs by id or name",
    accepts: Accepts {
        params: &[&DRUG_ID, &NAME],
        rules: &[Rule::AtLeastOne(&[&DRUG_ID, &NAME])],
        paging: Paging::Paged {
            default: 25,
            max: 1000,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&DRUG),
    examples: &["drug_id=PA448497", "name=aspirin"],
};

/// Drug id.
pub const DRUG_ID: Param = Param::new("drug_id", Kind::Id, "drug id, e.g. PA448497");
/// Name, through the name cascade.
pub const NAME: Param = Param::new(
    "name",
    Kind::Text,
    "drug name: exact, else all tokens, else one typo",
);

/// `/drugs` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::One(drugs::COLL),
    filters: &[
        NodeFilter::Key(&DRUG_ID),
        NodeFilter::Text(&NAME, drugs::m::name, NAME_TIERS),
    ],
    shape: &DRUG,
};
