//! `/proteins/proteins` (an IGVF client path): interactions between the proteins the protein parameters
//! select (either end) and, with `associated_*`, the proteins at the other end.

use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::prelude::*;
use crate::shape::{field, member, Render, Shape, Src, Ty};
use crate::vocab::proteins::{
    matching_by, DBXREFS, PROTEIN_ID, PROTEIN_NAME, UNIPROT_FULL_NAME, UNIPROT_NAME,
};
use crate::vocab::shapes::PROTEIN_BASIC;
use varcat_format::schema::{proteins as pr, proteins_proteins as pp, PROTEIN_INTERACTION_TYPES};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/proteins/proteins",
    section: None,
    summary: "Interactions between proteins (IntAct, BioGRID)",
    accepts: Accepts {
        params: &[
            &PROTEIN_ID,
            &PROTEIN_NAME,
            &UNIPROT_NAME,
            &UNIPROT_FULL_NAME,
            &DBXREFS,
            &ASSOCIATED_PROTEIN_ID,
            &ASSOCIATED_PROTEIN_NAME,
            &ASSOCIATED_UNIPROT_NAME,
            &ASSOCIATED_UNIPROT_FULL_NAME,
            &ASSOCIATED_DBXREFS,
            &PMID,
            &DETECTION_METHOD,
            &INTERACTION_TYPE,
            &LABEL,
            &METHOD,
            &SOURCE,
            &FILESET,
        ],
        rules: &[Rule::AtLeastOne(&[
            &PROTEIN_ID,
            &PROTEIN_NAME,
            &UNIPROT_NAME,
            &UNIPROT_FULL_NAME,
            &DBXREFS,
            &PMID,
            &ASSOCIATED_PROTEIN_ID,
            &ASSOCIATED_PROTEIN_NAME,
            &ASSOCIATED_UNIPROT_NAME,
            &ASSOCIATED_UNIPROT_FULL_NAME,
            &ASSOCIATED_DBXREFS,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 250,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&PROTEIN_PROTEIN),
    examples: &[
        "protein_id=ENSP90000000001",
        "protein_id=ENSP90000000001&associated_protein_id=ENSP90000000002&verbose=true",
        "pmid=900041&source=IntAct",
    ],
};

/// The other end's id.
pub const ASSOCIATED_PROTEIN_ID: Param = Param::new(
    "associated_protein_id",
    Kind::Id,
    "the other protein's Ensembl id or UniProt accession",
);
/// The other end's name.
pub const ASSOCIATED_PROTEIN_NAME: Param = Param::new(
    "associated_protein_name",
    Kind::Id,
    "the other protein's name (exact)",
);
/// The other end's UniProt entry name.
pub const ASSOCIATED_UNIPROT_NAME: Param = Param::new(
    "associated_uniprot_name",
    Kind::Id,
    "the other protein's UniProt entry name",
);
/// The other end's UniProt full name.
pub const ASSOCIATED_UNIPROT_FULL_NAME: Param = Param::new(
    "associated_uniprot_full_name",
    Kind::Id,
    "the other protein's UniProt full name",
);
/// The other end's cross-reference.
pub const ASSOCIATED_DBXREFS: Param = Param::new(
    "associated_dbxrefs",
    Kind::Id,
    "a cross-reference id of the other protein",
);
/// PubMed id.
pub const PMID: Param = Param::new("pmid", Kind::Id, "PubMed id (or its URL)");
/// Detection method.
pub const DETECTION_METHOD: Param = Param::new(
    "detection_method",
    Kind::Enum(crate::vocab::interactions::PROTEIN_DETECTION_METHODS),
    "detection method, e.g. two hybrid",
);
/// Interaction type.
pub const INTERACTION_TYPE: Param = Param::new(
    "interaction_type",
    Kind::Enum(PROTEIN_INTERACTION_TYPES),
    "interaction type",
);
/// Label (IGVF's: the detection method).
pub const LABEL: Param = Param::new(
    "label",
    Kind::Enum(crate::vocab::interactions::PROTEIN_DETECTION_METHODS),
    "label (the detection method), e.g. two hybrid",
);
/// Method (IGVF's: the interaction types, comma-joined).
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(crate::vocab::interactions::PROTEIN_METHODS),
    "method (the interaction types), e.g. physical association",
);
/// Data source.
pub const SOURCE: Param = Param::new(
    "source",
    Kind::Enum(&["BioGRID", "BioGRID; IntAct", "IntAct"]),
    "data source (BioGRID and IntAct also match rows of both)",
);

const ASSOCIATED_PARAMS: [&Param; 5] = [
    &ASSOCIATED_PROTEIN_ID,
    &ASSOCIATED_PROTEIN_NAME,
    &ASSOCIATED_UNIPROT_NAME,
    &ASSOCIATED_UNIPROT_FULL_NAME,
    &ASSOCIATED_DBXREFS,
];

/// The other end's proteins.
fn associated<'a>(ctx: &Ctx<'a>, _: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    matching_by(
        ctx,
        p,
        Some(&ASSOCIATED_PROTEIN_ID),
        &[
            (&ASSOCIATED_PROTEIN_NAME, pr::m::name),
            (&ASSOCIATED_UNIPROT_NAME, pr::m::uniprot_names),
            (&ASSOCIATED_UNIPROT_FULL_NAME, pr::m::uniprot_full_names),
            (&ASSOCIATED_DBXREFS, pr::m::dbxref_ids),
        ],
    )
}

/// A PubMed id as stored: bare, or as its URL.
fn pmid_forms(v: &str) -> Vec<String> {
    let bare = v
        .rsplit_once('/')
        .map_or(v, |(_, id)| id)
        .trim_start_matches("PMID:");
    vec![
        bare.to_string(),
        format!("http://pubmed.ncbi.nlm.nih.gov/{bare}"),
    ]
}

/// The edge's handle (`proteins_proteins/<key>`, as IGVF's `_id`).
fn handle(_: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    sets::handle(e, o)
        .map(|h| crate::shape::write_str(out, &h))
        .is_some()
}

/// The protein–protein edge (the client's `ProteinsProteins`); verbose proteins are
/// one-element arrays.
pub static PROTEIN_PROTEIN: Shape = Shape {
    name: "ProteinsProteins",
    members: &[
        member("_id", Src::Fn(handle), Ty::Str).required(),
        member(
            "protein_1",
            Src::RefList(pp::m::_from, &PROTEIN_BASIC),
            Ty::IdOrList(&PROTEIN_BASIC),
        )
        .required(),
        member(
            "protein_2",
            Src::RefList(pp::m::_to, &PROTEIN_BASIC),
            Ty::IdOrList(&PROTEIN_BASIC),
        )
        .required(),
        field(pp::m::detection_method, Ty::Str).required(),
        field(pp::m::detection_method_code, Ty::Str).required(),
        field(pp::m::interaction_type, Ty::StrArr).required(),
        field(pp::m::interaction_type_code, Ty::StrArr).required(),
        field(pp::m::confidence_value_biogrid, Ty::Num),
        field(pp::m::confidence_value_intact, Ty::Num),
        field(pp::m::label, Ty::Str).required(),
        field(pp::m::class, Ty::Str).required(),
        field(pp::m::method, Ty::Str).required(),
        field(pp::m::source_url, Ty::Str).required(),
        field(pp::m::source, Ty::Str).required(),
        field(pp::m::organism, Ty::Str).required(),
        field(pp::m::pmids, Ty::StrArr).required(),
        field(pp::m::name, Ty::Str).required(),
        field(pp::m::files_filesets, Ty::Str),
    ],
};

/// `/proteins/proteins` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(pp::COLL),
    from: pp::m::_from,
    to: pp::m::_to,
    anchors: &[
        Anchor {
            params: &proteins::FILTERS,
            nodes: Nodes::One(pr::COLL),
            resolve: Resolve::Fn(proteins::anchor),
            end: End::Either,
        },
        Anchor {
            params: &ASSOCIATED_PARAMS,
            nodes: Nodes::One(pr::COLL),
            resolve: Resolve::Fn(associated),
            end: End::Partner,
        },
    ],
    filters: &[
        NodeFilter::ExactAny(&PMID, pp::m::pmids, pmid_forms),
        NodeFilter::Facet(&DETECTION_METHOD, pp::m::detection_method),
        NodeFilter::Facet(&INTERACTION_TYPE, pp::m::interaction_type),
        NodeFilter::Facet(&LABEL, pp::m::label),
        NodeFilter::Facet(&METHOD, pp::m::method),
        NodeFilter::FacetAs(
            &SOURCE,
            pp::m::source,
            &[
                ("BioGRID", "BioGRID"),
                ("BioGRID", "BioGRID; IntAct"),
                ("IntAct", "IntAct"),
                ("IntAct", "BioGRID; IntAct"),
                ("BioGRID; IntAct", "BioGRID; IntAct"),
            ],
        ),
        NodeFilter::Fileset(&FILESET, pp::m::files_filesets),
    ],
    record: Record::One(&PROTEIN_PROTEIN),
};
