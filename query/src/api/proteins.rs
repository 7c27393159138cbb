//! `/proteins` (an IGVF client path): proteins by id, name, UniProt names and
//! cross-references.

use crate::endpoint::{Body, Endpoint, Run};

use crate::engine::Filter;
use crate::handler::Ctx;
use crate::node::{NodeFilter, NodeQuery, Nodes};
use crate::params::{Accepts, Paging, Param, Params, HUMAN_MOUSE};
use crate::sets;
use crate::vocab::proteins::{
    matching, DBXREFS, NAME, PROTEIN_ID, UNIPROT_FULL_NAME, UNIPROT_NAME,
};
use crate::vocab::shapes::PROTEIN;
use varcat_format::collection::Collection;
use varcat_format::schema::proteins;

/// `/proteins` (an IGVF client path): proteins of the organism by id, name, UniProt names and
/// cross-references (all ANDed); every protein when nothing is given.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/proteins",
    section: None,
    summary: "Proteins by id, name, UniProt name, UniProt full name, cross-reference",
    accepts: Accepts {
        params: &NODE_FILTERS,
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 50,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&PROTEIN),
    examples: &[
        "protein_id=ENSP00000322957",
        "uniprot_name=PAK5_HUMAN",
        "organism=Mus%20musculus",
    ],
};

/// The filters of `/proteins`, in the client's order.
const NODE_FILTERS: [&Param; 5] = [
    &PROTEIN_ID,
    &NAME,
    &UNIPROT_NAME,
    &UNIPROT_FULL_NAME,
    &DBXREFS,
];

/// [`matching`] over the filters of `/proteins`, `uniprot_name` through its own cascade, as
/// IGVF: the upper-cased name exactly, else the names starting with it whatever their case.
/// The tier is decided after the other filters, on the whole result, and rows stay in key
/// order (IGVF ranks its prefix tier by BM25 within a page).
fn node_matching<'a>(ctx: &Ctx<'a>, _: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let base = || matching(ctx, p, &[&PROTEIN_ID, &NAME, &UNIPROT_FULL_NAME, &DBXREFS]);
    let Some(name) = p.str(&UNIPROT_NAME) else {
        return base();
    };
    let c = ctx.coll(proteins::COLL);
    let mut exact = base();
    exact.and(sets::exact(
        c,
        proteins::m::uniprot_names,
        &name.to_uppercase(),
    ));
    if exact.any() {
        return exact;
    }
    let mut prefix = base();
    prefix.and(sets::prefix_ignoring_ascii_case(
        c,
        proteins::m::uniprot_names,
        name,
    ));
    prefix
}

/// `/proteins` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::One(proteins::COLL),
    filters: &[NodeFilter::Resolved(node_matching)],
    shape: &PROTEIN,
};
