//! `/go-terms/gene-products` (an IGVF client path): the GO annotations of a GO term, the gene products'
//! side of `/gene-products/go-terms`, `name` the edge's inverse.

use crate::api::gene_products_go_terms::members;
use crate::edge::{EdgeQuery, Record};
use crate::node::{NodeFilter, Nodes};
use crate::prelude::*;
use crate::shape::Shape;
use varcat_format::schema::gene_products_terms as gpt;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/go-terms/gene-products",
    section: None,
    summary: "Gene products annotated with a GO term",
    accepts: Accepts {
        params: &[&GO_TERM_ID, &NAME],
        rules: &[Rule::Required(&GO_TERM_ID)],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Edge(&QUERY),
    body: Body::Array(&TERM_PRODUCT),
    examples: &["go_term_id=GO:9000001", "go_term_id=GO_9000002"],
};

/// The GO term.
pub const GO_TERM_ID: Param = Param::new(
    "go_term_id",
    Kind::Id,
    "GO term id, GO:nnnnnnn or GO_nnnnnnn",
);
/// The relation, as the term has it.
pub const NAME: Param = Param::new(
    "name",
    Kind::Enum(&["contains", "has component", "is a function of"]),
    "relation (the inverse of the product's)",
);

/// The term handle of `GO:n` or `GO_n`.
fn term_handle(q: &str) -> Vec<String> {
    vec![format!("ontology_terms/{}", q.replacen(':', "_", 1))]
}

/// Seen from the GO term: `name` is the inverse.
pub static TERM_PRODUCT: Shape = Shape {
    name: "GoTermsToAnnotations",
    members: &members(gpt::m::inverse_name),
};

/// `/go-terms/gene-products` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(gpt::COLL),
    from: gpt::m::_from,
    to: gpt::m::_to,
    anchors: &[],
    filters: &[
        NodeFilter::ExactAny(&GO_TERM_ID, gpt::m::_to, term_handle),
        NodeFilter::Facet(&NAME, gpt::m::inverse_name),
    ],
    record: Record::One(&TERM_PRODUCT),
};
