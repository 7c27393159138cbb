//! `/ontology-terms` (an IGVF client path): ontology terms by id, name, synonym, source, subontology and
//! file set.

use crate::engine::{Tier, NAME_TIERS};
use crate::node::{NodeFilter, NodeQuery, Nodes};
use crate::prelude::*;
use crate::vocab::shapes::ONTOLOGY_TERM;
use varcat_format::schema::ontology_terms;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/ontology-terms",
    section: None,
    summary: "Ontology terms by id, name, synonym, source, subontology, file set",
    accepts: Accepts {
        params: &[&TERM_ID, &NAME, &SYNONYMS, &SOURCE, &SUBONTOLOGY, &FILESET],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 1000,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&ONTOLOGY_TERM),
    examples: &["term_id=VCT_0000001", "name=T%20cell", "source=Cellosaurus"],
};

/// Term id.
pub const TERM_ID: Param = Param::new("term_id", Kind::Id, TERM_PATH);
/// Name, through the name cascade.
pub const NAME: Param = Param::new(
    "name",
    Kind::Text,
    "term name: exact, else all tokens, else one typo",
);
/// Synonym: exact, else all tokens.
pub const SYNONYMS: Param = Param::new("synonyms", Kind::Text, "synonym: exact, else all tokens");
/// Ontology.
pub const SOURCE: Param = Param::new(
    "source",
    Kind::Enum(&[
        "BAO",
        "CHEBI",
        "CL",
        "CLO",
        "Cellosaurus",
        "DOID",
        "EFO",
        "ENCODE",
        "GO",
        "HPO",
        "IGVF",
        "MONDO",
        "NCIT",
        "OBA",
        "OBI",
        "ORPHANET",
        "Oncotree",
        "PCL",
        "UBERON",
        "VARIO",
    ]),
    "ontology",
);
/// GO subontology.
pub const SUBONTOLOGY: Param = Param::new(
    "subontology",
    Kind::Enum(&[
        "biological_process",
        "cellular_component",
        "molecular_function",
    ]),
    "GO subontology",
);

/// `/ontology-terms` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::One(ontology_terms::COLL),
    filters: &[
        NodeFilter::Key(&TERM_ID),
        NodeFilter::Text(&NAME, ontology_terms::m::name, NAME_TIERS),
        NodeFilter::Text(
            &SYNONYMS,
            ontology_terms::m::synonyms,
            &[Tier::Exact, Tier::Tokens],
        ),
        NodeFilter::Facet(&SOURCE, ontology_terms::m::source),
        NodeFilter::Facet(&SUBONTOLOGY, ontology_terms::m::subontology),
        NodeFilter::Fileset(&FILESET, ontology_terms::m::files_filesets),
    ],
    shape: &ONTOLOGY_TERM,
};
