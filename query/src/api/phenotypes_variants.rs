//! `/phenotypes/variants` (an IGVF client path): variants associated with the phenotypes a term id or name
//! selects (4.3 from the phenotype's side).

use crate::api::variants_phenotypes::{
    phenotype_shape, CLASS, LABEL, METHOD, NEG_LOG10_PVALUE, PHENOTYPE_ID_PARAM, PHENO_SHAPES,
};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::NAME_TIERS;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::prelude::*;
use varcat_format::schema::{ontology_terms as ot, variants_phenotypes as vp};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/phenotypes/variants",
    section: None,
    summary: "Variants associated with phenotypes (GWAS, screens, variant-effect predictions)",
    accepts: Accepts {
        params: &[
            &PHENOTYPE_ID_PARAM,
            &PHENOTYPE_NAME,
            &NEG_LOG10_PVALUE,
            &METHOD,
            &LABEL,
            &CLASS,
            &FILESET,
            &SOURCE,
        ],
        // As IGVF: a phenotype, a method or a file set (a bare request would page through
        // every association).
        rules: &[Rule::AtLeastOne(&[
            &PHENOTYPE_ID_PARAM,
            &PHENOTYPE_NAME,
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
    body: Body::ArrayOf(PHENO_SHAPES),
    examples: &[
        "phenotype_id=EFO_0000001",
        "phenotype_id=EFO_0000001&verbose=true",
        "method=GWAS&neg_log10_pvalue=gt:7",
    ],
};

/// Phenotype name, through the name cascade over ontology term names.
pub const PHENOTYPE_NAME: Param = Param::new(
    "phenotype_name",
    Kind::Text,
    "phenotype term name: exact, else all tokens, else one typo",
);
/// Data source.
pub const SOURCE: Param = Param::new(
    "source",
    Kind::Enum(&["IGVF", "OpenTargets"]),
    "data source",
);

/// The phenotype terms.
static TERM_FILTERS: [NodeFilter; 2] = [
    NodeFilter::Key(&PHENOTYPE_ID_PARAM),
    NodeFilter::Text(&PHENOTYPE_NAME, ot::m::name, NAME_TIERS),
];

/// `/phenotypes/variants` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vp::COLL),
    from: vp::m::_from,
    to: vp::m::_to,
    anchors: &[Anchor {
        params: &[&PHENOTYPE_ID_PARAM, &PHENOTYPE_NAME],
        nodes: Nodes::One(ot::COLL),
        resolve: Resolve::Rows(&TERM_FILTERS),
        end: End::To,
    }],
    filters: &[
        NodeFilter::Threshold(&NEG_LOG10_PVALUE, vp::m::neg_log10_pvalue),
        NodeFilter::Facet(&METHOD, vp::m::method),
        NodeFilter::Facet(&LABEL, vp::m::label),
        NodeFilter::Facet(&CLASS, vp::m::class),
        NodeFilter::Fileset(&FILESET, vp::m::files_filesets),
        NodeFilter::Facet(&SOURCE, vp::m::source),
    ],
    record: Record::Per(phenotype_shape),
};
