//! `/genomic-elements` (an IGVF client path): genomic elements by region, annotation, type, method,
//! source and file set.

use crate::node::{NodeFilter, NodeQuery, Nodes};
use crate::params::GENOMIC_ELEMENTS;
use crate::prelude::*;
use crate::shape::{field, Shape, Ty};
use varcat_format::schema::genomic_elements;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genomic-elements",
    section: None,
    summary: "Genomic elements by region, annotation, type, method, source, file set",
    accepts: Accepts {
        params: &SELECTORS,
        rules: &[Rule::AtLeastOne(&SELECTORS)],
        paging: Paging::Paged {
            default: 25,
            max: 1000,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&ELEMENT),
    examples: &[
        "region=chr20:9500000-9600000",
        "source_annotation=PLS:%20Promoter-like%20signal",
        "method=MPRA",
    ],
};

/// Every parameter selects.
const SELECTORS: [&Param; 6] = [
    &ELEMENT_REGION,
    &SOURCE_ANNOTATION,
    &TYPE,
    &METHOD,
    &SOURCE,
    &FILESET,
];

/// Element annotation.
pub const SOURCE_ANNOTATION: Param = Param::new(
    "source_annotation",
    Kind::Enum(&[
        "CA-CTCF: chromatin accessible + CTCF binding",
        "CA-H3K4me3: chromatin accessible + H3K4me3 high signal",
        "CA-TF: chromatin accessible + TF binding",
        "CA: chromatin accessible",
        "PLS: Promoter-like signal",
        "TF: TF binding",
        "dELS: distal Enhancer-like signal",
        "distal element",
        "enhancer",
        "genic",
        "intergenic",
        "negative control",
        "pELS: proximal Enhancer-like signal",
        "promoter",
    ]),
    "element annotation",
);
/// Element type.
pub const TYPE: Param = Param::new(
    "type",
    Kind::Enum(&[
        "accessible dna elements",
        "accessible dna elements (mouse)",
        "candidate cis regulatory element",
        "tested elements",
    ]),
    "element type",
);
/// Method.
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(&[
        "CRISPR screen",
        "ENCODE-rE2G",
        "MPRA",
        "Perturb-seq",
        "caQTL",
        "candidate Cis-Regulatory Elements",
        "integrative",
        "scE2G",
    ]),
    "method",
);
/// Data source.
pub const SOURCE: Param = Param::new(
    "source",
    Kind::Enum(&["AFGR", "ENCODE", "FUNCODE", "IGVF"]),
    "data source",
);

/// The element record (the client's `GenomicElementFull`, no `_id`, as IGVF).
pub static ELEMENT: Shape = Shape {
    name: "GenomicElementNode",
    members: &[
        field(genomic_elements::m::chr, Ty::Str).required(),
        field(genomic_elements::m::start, Ty::Int),
        field(genomic_elements::m::end, Ty::Int),
        field(genomic_elements::m::strand, Ty::Str),
        field(genomic_elements::m::name, Ty::Str).required(),
        field(genomic_elements::m::method, Ty::Str),
        field(genomic_elements::m::source_annotation, Ty::Str),
        field(genomic_elements::m::r#type, Ty::Str).required(),
        field(genomic_elements::m::source, Ty::Str).required(),
        field(genomic_elements::m::source_url, Ty::Str).required(),
    ],
};

/// `/genomic-elements` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::ByOrganism(GENOMIC_ELEMENTS),
    filters: &[
        NodeFilter::Overlaps(&ELEMENT_REGION),
        NodeFilter::Facet(&SOURCE_ANNOTATION, genomic_elements::m::source_annotation),
        NodeFilter::Facet(&TYPE, genomic_elements::m::r#type),
        NodeFilter::Facet(&METHOD, genomic_elements::m::method),
        NodeFilter::Facet(&SOURCE, genomic_elements::m::source),
        NodeFilter::Fileset(&FILESET, genomic_elements::m::files_filesets),
    ],
    shape: &ELEMENT,
};
