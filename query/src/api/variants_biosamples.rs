//! `/variants/biosamples` and its record (an IGVF client path): MPRA/STARR-seq effects of variants in
//! biosamples; `/biosamples/variants` reads them from the biosample's side.

use crate::api::genes_variants::SIGNIFICANT;
use crate::api::variants_genes::{anchor, VARIANT_PARAMS};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::params::VARIANTS;
use crate::prelude::*;
use crate::shape::{field, member, Shape, Src, Ty};
use crate::vocab::shapes::{id_or, ONTOLOGY_TERM};
use crate::vocab::variants::{CA_ID, FREQUENCY, HGVS, REGION_10KB, RSID, SPDI, VARIANT_ID};
use varcat_format::schema::{genomic_elements as ge, variants_biosamples as vb};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/biosamples",
    section: None,
    summary: "Variant effects in biosamples (MPRA, STARR-seq, BlueSTARR)",
    accepts: Accepts {
        params: &[
            &SPDI,
            &HGVS,
            &RSID,
            &CA_ID,
            &VARIANT_ID,
            &REGION_10KB,
            &FILESET,
            &METHOD,
            &ELEMENT_ID,
            &SIGNIFICANT,
        ],
        rules: &[Rule::AtLeastOne(&[
            &SPDI,
            &HGVS,
            &RSID,
            &CA_ID,
            &VARIANT_ID,
            &REGION_10KB,
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
    run: Run::Edge(&QUERY),
    body: Body::Array(&VARIANT_BIOSAMPLE),
    examples: &[
        "rsid=rs900001",
        "rsid=rs900001&verbose=true",
        "method=MPRA&limit=3",
    ],
};

/// Method.
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(&["BlueSTARR", "MPRA", "STARR-seq"]),
    "method",
);
/// Genomic element id.
pub const ELEMENT_ID: Param = Param::new("element_id", Kind::Id, "genomic element id");

/// The element, in brief (the client's `GenomicElement`).
pub static ELEMENT_REF: Shape = Shape {
    name: "BiosamplesFromVariantsGenomicElement",
    members: &[
        member("_id", Src::Key, Ty::Str).required(),
        field(ge::m::name, Ty::Str),
        field(ge::m::chr, Ty::Str),
        field(ge::m::start, Ty::Int),
        field(ge::m::end, Ty::Int),
        field(ge::m::r#type, Ty::Str),
        field(ge::m::source, Ty::Str),
        field(ge::m::source_url, Ty::Str),
        field(ge::m::source_annotation, Ty::Str),
    ],
};

/// The client's `BiosamplesFromVariants`.
pub static VARIANT_BIOSAMPLE: Shape = Shape {
    name: "BiosamplesFromVariants",
    members: &[
        id_or("variant", vb::m::_from, &FREQUENCY),
        id_or("biosample", vb::m::_to, &ONTOLOGY_TERM),
        id_or("genomic_element", vb::m::genomic_element, &ELEMENT_REF),
        field(vb::m::strand, Ty::Str),
        field(vb::m::log2FC, Ty::Num),
        field(vb::m::bed_score, Ty::Num),
        field(vb::m::DNA_count_ref, Ty::Num),
        field(vb::m::DNA_count_alt, Ty::Num),
        field(vb::m::RNA_count_ref, Ty::Num),
        field(vb::m::RNA_count_alt, Ty::Num),
        field(vb::m::postProbEffect, Ty::Num),
        field(vb::m::CI_lower_95, Ty::Num),
        field(vb::m::CI_upper_95, Ty::Num),
        field(vb::m::significant, Ty::Bool),
        field(vb::m::neg_log10_pvalue, Ty::Num),
        field(vb::m::neg_log10_pvalue_adj, Ty::Num),
        field(vb::m::label, Ty::Str).required(),
        field(vb::m::method, Ty::Str).required(),
        field(vb::m::class, Ty::Str),
        field(vb::m::source, Ty::Str).required(),
        field(vb::m::source_url, Ty::Str).required(),
        field(vb::m::name, Ty::Str).required(),
        field(vb::m::files_filesets, Ty::Str),
        field(vb::m::biological_context, Ty::Str),
        field(vb::m::biosample_term, Ty::Str),
        field(vb::m::treatments_term_ids, Ty::StrArr),
    ],
};

fn element_handle(q: &str) -> Vec<String> {
    vec![format!("genomic_elements/{q}")]
}

/// The edge filters both directions share.
pub static EDGE_FILTERS: [NodeFilter; 4] = [
    NodeFilter::Fileset(&FILESET, vb::m::files_filesets),
    NodeFilter::Facet(&METHOD, vb::m::method),
    NodeFilter::ExactAny(&ELEMENT_ID, vb::m::genomic_element, element_handle),
    NodeFilter::Bool(&SIGNIFICANT, vb::m::significant),
];

/// `/variants/biosamples` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vb::COLL),
    from: vb::m::_from,
    to: vb::m::_to,
    anchors: &[Anchor {
        params: &VARIANT_PARAMS,
        nodes: Nodes::ByOrganism(VARIANTS),
        resolve: Resolve::Fn(anchor),
        end: End::From,
    }],
    filters: &EDGE_FILTERS,
    record: Record::One(&VARIANT_BIOSAMPLE),
};
