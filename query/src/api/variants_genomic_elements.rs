//! `/variants/genomic-elements` (an IGVF client path): genomic elements associated with the variants the
//! identifiers and region select (4.5 from the variant's side).

use crate::api::genomic_elements_variants::{BIOSAMPLE_TERM, ELEMENT_VARIANT, METHOD};
use crate::api::variants_genes;
use crate::api::variants_genes::VARIANT_PARAMS;
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::CONTEXT_TIERS;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::params::VARIANTS;
use crate::prelude::*;
use crate::vocab::variants::{CA_ID, HGVS, REGION_10KB, RSID, SPDI, VARIANT_ID};
use varcat_format::schema::variants_genomic_elements as vge;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/genomic-elements",
    section: None,
    summary: "Genomic elements associated with variants (caQTLs)",
    accepts: Accepts {
        params: &[
            &SPDI,
            &HGVS,
            &RSID,
            &CA_ID,
            &VARIANT_ID,
            &REGION_10KB,
            &BIOSAMPLE_TERM,
            &BIOLOGICAL_CONTEXT,
            &METHOD,
            &FILESET,
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
            max: 300,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Edge(&QUERY),
    body: Body::Array(&ELEMENT_VARIANT),
    examples: &[
        "rsid=rs900001",
        "region=chr1:14000-16000&biological_context=k562",
    ],
};

/// `/variants/genomic-elements` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vge::COLL),
    from: vge::m::_from,
    to: vge::m::_to,
    anchors: &[Anchor {
        params: &VARIANT_PARAMS,
        nodes: Nodes::ByOrganism(VARIANTS),
        resolve: Resolve::Fn(variants_genes::anchor),
        end: End::From,
    }],
    filters: &[
        NodeFilter::Term(&BIOSAMPLE_TERM, vge::m::biosample_term),
        NodeFilter::Text(
            &BIOLOGICAL_CONTEXT,
            vge::m::biological_context,
            CONTEXT_TIERS,
        ),
        NodeFilter::Facet(&METHOD, vge::m::method),
        NodeFilter::Fileset(&FILESET, vge::m::files_filesets),
    ],
    record: Record::One(&ELEMENT_VARIANT),
};
