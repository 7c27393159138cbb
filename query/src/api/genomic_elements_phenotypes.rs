//! `/genomic-elements/phenotypes` and `/phenotypes/genomic-elements` (an IGVF client path): CRISPR-screen
//! effects of genomic elements on phenotypes, from either end; the record, parameters and
//! anchors both share.

use crate::api::genes_genomic_elements::ELEMENT_7;
use crate::api::genes_variants::SIGNIFICANT;
use crate::api::phenotypes_variants::PHENOTYPE_NAME;
use crate::api::variants_phenotypes::PHENOTYPE_ID_PARAM;
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::NAME_TIERS;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::params::GENOMIC_ELEMENTS;
use crate::prelude::*;
use crate::shape::{field, member, renamed, write_str, Member, Render, Shape, Src, Ty};
use crate::vocab::shapes::id_or;
use varcat_format::schema::{
    genomic_elements_phenotypes as ep, ontology_terms as ot, Member as Stored,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genomic-elements/phenotypes",
    section: None,
    summary: "Phenotypes genomic elements affect (CRISPR screens)",
    accepts: Accepts {
        params: &[
            &ELEMENT_REGION,
            &FILESET,
            &PHENOTYPE_ID_PARAM,
            &PHENOTYPE_NAME,
            &METHOD,
            &SIGNIFICANT,
        ],
        // As IGVF: `method` (one value) narrows but does not select.
        rules: &[Rule::AtLeastOne(&[
            &ELEMENT_REGION,
            &FILESET,
            &PHENOTYPE_ID_PARAM,
            &PHENOTYPE_NAME,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&ELEMENT_PHENOTYPE),
    examples: &[
        "region=chr1:24000-26000",
        "region=chr1:24000-26000&verbose=true",
        "files_fileset=IGVFFI9000CRS&method=CRISPR%20screen&significant=true",
    ],
};

/// Method.
pub const METHOD: Param = Param::new("method", Kind::Enum(&["CRISPR screen"]), "method");

/// The name of the ontology term an edge's `_to` points at.
fn term_name(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let name = e.str_of(o, ep::m::_to).and_then(|h| {
        let (c, to) = r.cat.resolve(&h)?;
        c.str_of(to, ot::m::name)
    });
    name.map(|n| write_str(out, &n)).is_some()
}

/// The verbose phenotype (the client's `GenomicElementsFromPhenotypesPhenotype`).
pub static PHENOTYPE: Shape = Shape {
    name: "GenomicElementsFromPhenotypesPhenotype",
    members: &[
        member("phenotype_id", Src::Key, Ty::Str).required(),
        renamed("phenotype_name", ot::m::name, Ty::Str),
    ],
};

/// The members, `name` from `name_member`.
const fn members(name_member: Stored) -> [Member; 21] {
    [
        renamed("name", name_member, Ty::Str).required(),
        field(ep::m::label, Ty::Str).required(),
        field(ep::m::method, Ty::Str).required(),
        field(ep::m::class, Ty::Str).required(),
        field(ep::m::source, Ty::Str).required(),
        field(ep::m::source_url, Ty::Str).required(),
        field(ep::m::biological_context, Ty::Str).required(),
        field(ep::m::biosample_term, Ty::Str).required(),
        field(ep::m::files_filesets, Ty::Str).required(),
        field(ep::m::crispr_modality, Ty::Str),
        field(ep::m::z_score, Ty::Num),
        field(ep::m::p_value, Ty::Num),
        field(ep::m::neg_log10_pvalue, Ty::Num),
        field(ep::m::significant, Ty::Bool),
        field(ep::m::num_guides, Ty::Num),
        field(ep::m::num_guides_hit, Ty::Num),
        field(ep::m::num_guides_nonhit, Ty::Num),
        field(ep::m::fraction_guides_hit, Ty::Num),
        member("phenotype_name", Src::Fn(term_name), Ty::Str),
        id_or("genomic_element", ep::m::_from, &ELEMENT_7).required(),
        id_or("phenotype", ep::m::_to, &PHENOTYPE).required(),
    ]
}

/// Seen from the element: `name` is the edge's own.
pub static ELEMENT_PHENOTYPE: Shape = Shape {
    name: "GenomicElementsFromPhenotypes",
    members: &members(ep::m::name),
};

/// Seen from the phenotype: `name` is the inverse.
pub static PHENOTYPE_ELEMENT: Shape = Shape {
    name: "PhenotypesToGenomicElements",
    members: &members(ep::m::inverse_name),
};

static ELEMENT_FILTERS: [NodeFilter; 1] = [NodeFilter::Overlaps(&ELEMENT_REGION)];

static TERM_FILTERS: [NodeFilter; 2] = [
    NodeFilter::Key(&PHENOTYPE_ID_PARAM),
    NodeFilter::Text(&PHENOTYPE_NAME, ot::m::name, NAME_TIERS),
];

/// The phenotype anchor both directions share.
pub const TERM_ANCHOR: Anchor = Anchor {
    params: &[&PHENOTYPE_ID_PARAM, &PHENOTYPE_NAME],
    nodes: Nodes::One(ot::COLL),
    resolve: Resolve::Rows(&TERM_FILTERS),
    end: End::To,
};

/// The edge filters both directions share.
pub static EDGE_FILTERS: [NodeFilter; 3] = [
    NodeFilter::Fileset(&FILESET, ep::m::files_filesets),
    NodeFilter::Facet(&METHOD, ep::m::method),
    NodeFilter::Bool(&SIGNIFICANT, ep::m::significant),
];

/// `/genomic-elements/phenotypes` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(ep::COLL),
    from: ep::m::_from,
    to: ep::m::_to,
    anchors: &[
        Anchor {
            params: &[&ELEMENT_REGION],
            nodes: Nodes::ByOrganism(GENOMIC_ELEMENTS),
            resolve: Resolve::Rows(&ELEMENT_FILTERS),
            end: End::From,
        },
        TERM_ANCHOR,
    ],
    filters: &EDGE_FILTERS,
    record: Record::One(&ELEMENT_PHENOTYPE),
};
