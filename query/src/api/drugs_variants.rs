//! `/drugs/variants` (an IGVF client path): variants associated with the response to the drugs an id or
//! name selects (4.7 from the drug's side, PharmGKB).

use crate::api::variants_drugs::{PHENOTYPE_CATEGORIES, PMID};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::NAME_TIERS;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::prelude::*;
use crate::shape::{field, renamed, Shape, Ty};
use crate::vocab::shapes::id_or;
use crate::vocab::variants::FREQUENCY;
use varcat_format::schema::{drugs as dr, variants_drugs as vd};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/drugs/variants",
    section: None,
    summary: "Variants associated with drug response (PharmGKB)",
    accepts: Accepts {
        params: &[&DRUG_ID, &DRUG_NAME, &PHENOTYPE_CATEGORIES, &PMID],
        rules: &[Rule::AtLeastOne(&[&DRUG_ID, &DRUG_NAME])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&DRUG_VARIANT),
    examples: &["drug_id=PA451906", "drug_name=warfarin&verbose=true"],
};

/// PharmGKB drug id.
pub const DRUG_ID: Param = Param::new("drug_id", Kind::Id, "PharmGKB drug id, e.g. PA451906");
/// Drug name.
pub const DRUG_NAME: Param = Param::new(
    "drug_name",
    Kind::Text,
    "drug name: exact, else all tokens, else one typo",
);

/// The variant–drug edge seen from the drug (the client's `VariantsFromDrugs`): IGVF's `drug`
/// first, then the client's members (`_to`, required; `gene_names`, IGVF's `gene_symbol`).
pub static DRUG_VARIANT: Shape = Shape {
    name: "VariantsFromDrugs",
    members: &[
        renamed("drug", vd::m::_to, Ty::Str),
        id_or("sequence_variant", vd::m::_from, &FREQUENCY),
        field(vd::m::_to, Ty::Str).required(),
        field(vd::m::gene_symbol, Ty::StrArr),
        renamed("gene_names", vd::m::gene_symbol, Ty::StrArr),
        field(vd::m::pmid, Ty::Str),
        field(vd::m::study_parameters, Ty::Any),
        field(vd::m::phenotype_categories, Ty::StrArr),
        field(vd::m::source, Ty::Str).required(),
        field(vd::m::source_url, Ty::Str).required(),
        renamed("name", vd::m::inverse_name, Ty::Str).required(),
        field(vd::m::class, Ty::Str),
        field(vd::m::method, Ty::Str),
        field(vd::m::files_filesets, Ty::Str),
    ],
};

/// The drugs.
static DRUG_FILTERS: [NodeFilter; 2] = [
    NodeFilter::Key(&DRUG_ID),
    NodeFilter::Text(&DRUG_NAME, dr::m::name, NAME_TIERS),
];

/// `/drugs/variants` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vd::COLL),
    from: vd::m::_from,
    to: vd::m::_to,
    anchors: &[Anchor {
        params: &[&DRUG_ID, &DRUG_NAME],
        nodes: Nodes::One(dr::COLL),
        resolve: Resolve::Rows(&DRUG_FILTERS),
        end: End::To,
    }],
    filters: &[
        NodeFilter::Facet(&PHENOTYPE_CATEGORIES, vd::m::phenotype_categories),
        NodeFilter::Exact(&PMID, vd::m::pmid),
    ],
    record: Record::One(&DRUG_VARIANT),
};
