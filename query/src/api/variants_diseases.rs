//! 4.13 `/variants/diseases`: diseases associated with variants (ClinGen).

use crate::engine::Filter;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, Shape, Ty};
use crate::vocab::shapes::{id_or, ONTOLOGY_TERM};
use crate::vocab::variants::SHORT_VARIANT;
use crate::vocab::variants::{self, from_matching};
use varcat_format::schema;
use varcat_format::schema::variants_diseases;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/diseases",
    section: Some("4.13"),
    summary: "Diseases associated with variants (ClinGen)",
    accepts: Accepts {
        params: &[
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &variants::REGION_10KB,
            &CHR,
            &PMID,
            &ASSERTION,
        ],
        rules: &[variants::ID_OR_REGION_RULE],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Handler(variants_diseases),
    body: Body::Array(&VARIANT_DISEASE),
    examples: &[
        "rsid=rs900001&verbose=true",
        "region=chr1:20000-30000&assertion=Benign",
    ],
};

/// Chromosome.
pub const CHR: Param = Param::new(
    "chr",
    Kind::Id,
    "only variants on this chromosome, e.g. chr1",
);
/// PubMed id.
pub const PMID: Param = Param::new("pmid", Kind::Id, "PubMed id (or its URL)");
/// Clinical assertion.
pub const ASSERTION: Param = Param::new(
    "assertion",
    Kind::Enum(&[
        "Benign",
        "Likely Benign",
        "Likely Pathogenic",
        "Pathogenic",
        "Uncertain Significance",
    ]),
    "clinical assertion",
);

/// 4.13 record.
pub static VARIANT_DISEASE: Shape = Shape {
    name: "VariantDisease",
    members: &[
        id_or(
            "sequence_variant",
            schema::variants_diseases::m::_from,
            &SHORT_VARIANT,
        ),
        id_or("disease", schema::variants_diseases::m::_to, &ONTOLOGY_TERM),
        field(schema::variants_diseases::m::gene_id, Ty::Str),
        field(schema::variants_diseases::m::gene_name, Ty::Str),
        field(schema::variants_diseases::m::assertion, Ty::Str),
        field(schema::variants_diseases::m::pmids, Ty::StrArr),
        field(schema::variants_diseases::m::class, Ty::Str),
        field(schema::variants_diseases::m::method, Ty::Str),
        field(schema::variants_diseases::m::label, Ty::Str),
        field(schema::variants_diseases::m::files_filesets, Ty::Str),
        field(schema::variants_diseases::m::source, Ty::Str),
        field(schema::variants_diseases::m::source_url, Ty::Str),
        field(schema::variants_diseases::m::name, Ty::Str).required(),
    ],
};

/// 4.13: diseases associated with variants (ClinGen), by assertion, PMID and chromosome.
pub fn variants_diseases(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll(variants_diseases::COLL);
    let mut f = Filter::over(e);
    f.and(from_matching(
        ctx,
        p,
        e,
        variants_diseases::m::_from,
        p.str(&CHR),
    ));
    if let Some(a) = p.str(&ASSERTION) {
        f.and(sets::facet(e, variants_diseases::m::assertion, a));
    }
    if let Some(pmid) = p.str(&PMID) {
        f.and(sets::exact_any(
            e,
            variants_diseases::m::pmids,
            &pubmed_url(pmid),
        ));
    }
    ctx.page(p, e, &f, &VARIANT_DISEASE)
}

/// The stored form of a PubMed id: pmids are stored as PubMed URLs; a bare number names the
/// same article.
pub fn pubmed_url(pmid: &str) -> Vec<String> {
    vec![if pmid.starts_with("http") {
        pmid.to_string()
    } else {
        format!("http://pubmed.ncbi.nlm.nih.gov/{pmid}")
    }]
}
