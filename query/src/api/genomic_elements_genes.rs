//! `/genomic-elements/genes` (an IGVF client path): genes the genomic elements chosen by region, type and
//! annotation regulate (`/genes/genomic-elements` from the element's side).

use crate::api::genes_genomic_elements::{
    members, CELL_ANNOTATION, CELL_ANNOTATION_TERM, EDGE_FILTERS, IDR, METHOD,
    NEG_LOG10_PVALUE_ADJ, SCORE, SOURCE, Z_SCORE,
};
use crate::api::genes_variants::{BIOSAMPLE_TERM, EFFECT_SIZE, LOG2FC_PARAM, NEG_LOG10_PVALUE};
use crate::api::genomic_elements::{SOURCE_ANNOTATION, TYPE};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::params::GENOMIC_ELEMENTS;
use crate::prelude::*;
use crate::shape::Shape;
use varcat_format::schema::{genomic_elements as ge, genomic_elements_genes as eg};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genomic-elements/genes",
    section: None,
    summary: "Genes that genomic elements regulate (CRISPR screens, E2G predictions, Perturb-seq)",
    accepts: Accepts {
        params: &[
            &ELEMENT_REGION,
            &SOURCE_ANNOTATION,
            &REGION_TYPE,
            &METHOD,
            &FILESET,
            &BIOSAMPLE_TERM,
            &BIOLOGICAL_CONTEXT,
            &CELL_ANNOTATION,
            &CELL_ANNOTATION_TERM,
            &SOURCE,
            &SCORE,
            &EFFECT_SIZE,
            &LOG2FC_PARAM,
            &NEG_LOG10_PVALUE,
            &NEG_LOG10_PVALUE_ADJ,
            &Z_SCORE,
            &IDR,
        ],
        rules: &[Rule::AtLeastOne(&[&ELEMENT_REGION, &FILESET, &METHOD])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&ELEMENT_GENE),
    examples: &[
        "region=chr1:24000-26000",
        "region=chr1:24000-26000&verbose=true",
        "method=ENCODE-rE2G&limit=3",
    ],
};

/// Element type, under the name this path gives it.
pub const REGION_TYPE: Param = Param::new("region_type", TYPE.kind, "element type");

/// The element filters.
static ELEMENT_FILTERS: [NodeFilter; 3] = [
    NodeFilter::Overlaps(&ELEMENT_REGION),
    NodeFilter::Facet(&SOURCE_ANNOTATION, ge::m::source_annotation),
    NodeFilter::Facet(&REGION_TYPE, ge::m::r#type),
];

/// Elements by region, annotation and type.
/// Seen from the element: `name` is the edge's own ("regulates").
pub static ELEMENT_GENE: Shape = Shape {
    name: "GenomicElementsToGenes",
    members: &members(eg::m::name),
};

/// `/genomic-elements/genes` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(eg::COLL),
    from: eg::m::_from,
    to: eg::m::_to,
    anchors: &[Anchor {
        params: &[&ELEMENT_REGION, &SOURCE_ANNOTATION, &REGION_TYPE],
        nodes: Nodes::ByOrganism(GENOMIC_ELEMENTS),
        resolve: Resolve::Rows(&ELEMENT_FILTERS),
        end: End::From,
    }],
    filters: &EDGE_FILTERS,
    record: Record::One(&ELEMENT_GENE),
};
