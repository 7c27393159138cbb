//! `/variants/genes` (an IGVF client path): genes associated with the variants the identifiers and region
//! select (4.1 from the variant's side).

use crate::api::genes_variants::{
    BIOSAMPLE_TERM, EFFECT_SIZE, GENE_VARIANT_MEMBERS, LABEL_PARAM, LOG2FC_PARAM, METHOD_PARAM,
    NEG_LOG10_PVALUE, POSTERIOR_INCLUSION_PROBABILITY, SIGNIFICANT, SOURCE_PARAM,
};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::CONTEXT_TIERS;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::params::VARIANTS;
use crate::prelude::*;
use crate::shape::{renamed, Member, Shape, Ty};
use crate::vocab::variants::{CA_ID, HGVS, REGION_10KB, RSID, SPDI, VARIANT_ID};
use varcat_format::schema::variants_genes as vg;

/// The variant parameters (region at most 10 kb).
pub const VARIANT_PARAMS: [&Param; 6] = [&SPDI, &HGVS, &RSID, &CA_ID, &VARIANT_ID, &REGION_10KB];

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/genes",
    section: None,
    summary: "Genes associated with variants: QTLs, screens, variant-effect assays",
    accepts: Accepts {
        params: &[
            &SPDI,
            &HGVS,
            &RSID,
            &CA_ID,
            &VARIANT_ID,
            &REGION_10KB,
            &NEG_LOG10_PVALUE,
            &EFFECT_SIZE,
            &POSTERIOR_INCLUSION_PROBABILITY,
            &LOG2FC_PARAM,
            &SIGNIFICANT,
            &BIOSAMPLE_TERM,
            &BIOLOGICAL_CONTEXT,
            &LABEL_PARAM,
            &METHOD_PARAM,
            &FILESET,
            &SOURCE_PARAM,
            &NAME,
        ],
        rules: &[Rule::AtLeastOne(&[
            &SPDI,
            &HGVS,
            &RSID,
            &CA_ID,
            &VARIANT_ID,
            &REGION_10KB,
            &METHOD_PARAM,
            &FILESET,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&VARIANT_GENE),
    examples: &[
        "rsid=rs900001",
        "rsid=rs900001&verbose=true",
        "method=eQTL&neg_log10_pvalue=gte:3",
    ],
};

/// Relation (the edge's forward names).
pub const NAME: Param = Param::new(
    "name",
    Kind::Enum(&["modulates expression of", "modulates splicing of"]),
    "relation",
);

/// Each forward name with the inverse name the catalog indexes.
const NAMES: &[(&str, &str)] = &[
    ("modulates expression of", "expression modulated by"),
    ("modulates splicing of", "splicing modulated by"),
];

/// Where 4.1's `name` (the inverse name) is in its members.
const NAME_AT: usize = 26;

/// 4.1's record with `name` the edge's forward name (the client's `GenesFromVariants`).
pub static VARIANT_GENE: Shape = Shape {
    name: "GenesFromVariants",
    members: &{
        let mut m: [Member; 29] = GENE_VARIANT_MEMBERS;
        m[NAME_AT] = renamed("name", vg::m::name, Ty::Str);
        m
    },
};

/// The variant resolver of every variant-anchored edge endpoint.
pub fn anchor<'a>(
    _: &crate::handler::Ctx<'a>,
    v: Option<&'a Collection>,
    p: &Params,
) -> Filter<'a> {
    variants::matching(v, p)
}

/// `/variants/genes` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vg::COLL),
    from: vg::m::_from,
    to: vg::m::_to,
    anchors: &[Anchor {
        params: &VARIANT_PARAMS,
        nodes: Nodes::ByOrganism(VARIANTS),
        resolve: Resolve::Fn(anchor),
        end: End::From,
    }],
    filters: &[
        NodeFilter::Threshold(&NEG_LOG10_PVALUE, vg::m::neg_log10_pvalue),
        NodeFilter::Threshold(&EFFECT_SIZE, vg::m::effect_size),
        NodeFilter::Threshold(
            &POSTERIOR_INCLUSION_PROBABILITY,
            vg::m::posterior_inclusion_probability,
        ),
        NodeFilter::Threshold(&LOG2FC_PARAM, vg::m::log2FC),
        NodeFilter::Bool(&SIGNIFICANT, vg::m::significant),
        NodeFilter::Term(&BIOSAMPLE_TERM, vg::m::biosample_term),
        NodeFilter::Text(
            &BIOLOGICAL_CONTEXT,
            vg::m::biological_context,
            CONTEXT_TIERS,
        ),
        NodeFilter::Facet(&LABEL_PARAM, vg::m::label),
        NodeFilter::Facet(&METHOD_PARAM, vg::m::method),
        NodeFilter::Fileset(&FILESET, vg::m::files_filesets),
        NodeFilter::Facet(&SOURCE_PARAM, vg::m::source),
        NodeFilter::FacetAs(&NAME, vg::m::inverse_name, NAMES),
    ],
    record: Record::One(&VARIANT_GENE),
};

#[cfg(test)]
mod tests {
    #[test]
    fn test_name_is_swapped() {
        assert_eq!(super::GENE_VARIANT_MEMBERS[super::NAME_AT].name, "name");
    }
}
