//! `/genes/pathways` (an IGVF client path): Reactome pathways of the genes the gene parameters select; the
//! record, pathway parameters and pathway anchor `/pathways/genes` and `/pathways/pathways`
//! share.

use crate::api::pathways::{DISEASE_ONTOLOGY_TERMS, GO_BIOLOGICAL_PROCESS, NAME_ALIASES, PATHWAY};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::NAME_TIERS;
use crate::node::{rows, NodeFilter, Nodes, Resolve};
use crate::params::GENES;
use crate::prelude::*;
use crate::shape::{field, member, renamed, Member, Shape, Src, Ty};
use crate::vocab::shapes::{id_or, GENE};
use varcat_format::schema::{genes_pathways as gp, pathways as pw, Member as Stored};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/pathways",
    section: None,
    summary: "Reactome pathways of genes",
    accepts: Accepts {
        params: &genes::PARAMS,
        rules: &[genes::RULE],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&GENE_PATHWAY),
    examples: &["gene_name=TSTA1", "gene_name=TSTA1&verbose=true"],
};

/// Pathway id.
pub const PATHWAY_ID: Param = Param::new("pathway_id", Kind::Id, "pathway id, e.g. R-HSA-446203");
/// Pathway name, through the name cascade.
pub const PATHWAY_NAME: Param = Param::new(
    "pathway_name",
    Kind::Text,
    "pathway name: exact, else all tokens, else one typo",
);

/// The pathway parameters, in the client's order.
pub const PATHWAY_PARAMS: [&Param; 5] = [
    &PATHWAY_ID,
    &PATHWAY_NAME,
    &NAME_ALIASES,
    &DISEASE_ONTOLOGY_TERMS,
    &GO_BIOLOGICAL_PROCESS,
];

/// The pathway filters (4.16's, under this family's parameter names).
static PATHWAY_FILTERS: [NodeFilter; 5] = [
    NodeFilter::Key(&PATHWAY_ID),
    NodeFilter::Text(&PATHWAY_NAME, pw::m::name, NAME_TIERS),
    NodeFilter::Text(&NAME_ALIASES, pw::m::name_aliases, NAME_TIERS),
    NodeFilter::Term(&DISEASE_ONTOLOGY_TERMS, pw::m::disease_ontology_terms),
    NodeFilter::Term(&GO_BIOLOGICAL_PROCESS, pw::m::go_biological_process),
];

/// Pathways by the pathway parameters, as an anchor resolver.
pub fn pathways<'a>(ctx: &Ctx<'a>, c: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    rows(ctx, c, &PATHWAY_FILTERS, p, || Filter::over(c))
}

/// The members every pathway edge starts with (IGVF's `orgnism` sic, always null).
pub const fn common(
    source: Stored,
    source_url: Stored,
    organism: Stored,
    class: Stored,
    method: Stored,
    label: Stored,
    files: Stored,
) -> [Member; 8] {
    [
        field(source, Ty::Str),
        field(source_url, Ty::Str),
        member("orgnism", Src::Const("null"), Ty::Str),
        field(organism, Ty::Str),
        field(class, Ty::Str),
        field(method, Ty::Str),
        field(label, Ty::Str),
        field(files, Ty::Str),
    ]
}

/// The common members, then an edge's own three (its ends and its name).
pub const fn then(common: [Member; 8], own: [Member; 3]) -> [Member; 11] {
    let c = common;
    [
        c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], own[0], own[1], own[2],
    ]
}

const COMMON: [Member; 8] = common(
    gp::m::source,
    gp::m::source_url,
    gp::m::organism,
    gp::m::class,
    gp::m::method,
    gp::m::label,
    gp::m::files_filesets,
);

/// The gene–pathway edge seen from the gene (the client's `GenesFromPathways`).
pub static GENE_PATHWAY: Shape = Shape {
    name: "GenesFromPathways",
    members: &then(
        COMMON,
        [
            id_or("gene", gp::m::_from, &GENE),
            id_or("pathway", gp::m::_to, &PATHWAY),
            field(gp::m::name, Ty::Str).required(),
        ],
    ),
};

/// The same edge seen from the pathway: the pathway stays its handle, `name` is the inverse.
pub static PATHWAY_GENE: Shape = Shape {
    name: "PathwaysToGenes",
    members: &then(
        COMMON,
        [
            id_or("gene", gp::m::_from, &GENE),
            renamed("pathway", gp::m::_to, Ty::Str),
            renamed("name", gp::m::inverse_name, Ty::Str).required(),
        ],
    ),
};

/// `/genes/pathways` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(gp::COLL),
    from: gp::m::_from,
    to: gp::m::_to,
    anchors: &[Anchor {
        params: &genes::PARAMS,
        nodes: Nodes::ByOrganism(GENES),
        resolve: Resolve::Fn(genes::anchor),
        end: End::From,
    }],
    filters: &[],
    record: Record::One(&GENE_PATHWAY),
};
