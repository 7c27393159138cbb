//! 4.7 `/variants/drugs`: drugs whose response is associated with variants (PharmGKB).

use crate::engine::Filter;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, Shape, Ty};
use crate::vocab::shapes::{id_or, DRUG};
use crate::vocab::variants::{self, from_matching};
use varcat_format::schema;
use varcat_format::schema::variants_drugs;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/drugs",
    section: Some("4.7"),
    summary: "Drugs whose response is associated with variants (PharmGKB)",
    accepts: Accepts {
        params: &[
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &variants::REGION_10KB,
            &PHENOTYPE_CATEGORIES,
            &PMID,
        ],
        rules: &[variants::ID_OR_REGION_RULE],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Handler(variants_drugs),
    body: Body::Array(&VARIANT_DRUG),
    examples: &[
        "rsid=rs900001&verbose=true",
        "region=chr1:15000-16000&phenotype_categories=Dosage",
    ],
};

/// Phenotype category.
pub const PHENOTYPE_CATEGORIES: Param = Param::new(
    "phenotype_categories",
    Kind::Enum(&[
        "Dosage",
        "Efficacy",
        "Metabolism/PK",
        "Other",
        "PD",
        "Toxicity",
    ]),
    "phenotype category",
);
/// PubMed id.
pub const PMID: Param = Param::new("pmid", Kind::Id, "PubMed id");

/// 4.7 record: `_from` stays the variant id; `drug` expands with verbose.
pub static VARIANT_DRUG: Shape = Shape {
    name: "VariantDrug",
    members: &[
        field(schema::variants_drugs::m::_from, Ty::Str).required(),
        id_or("drug", schema::variants_drugs::m::_to, &DRUG),
        field(schema::variants_drugs::m::gene_symbol, Ty::StrArr).required(),
        field(schema::variants_drugs::m::pmid, Ty::Str),
        field(schema::variants_drugs::m::study_parameters, Ty::Any).required(),
        field(schema::variants_drugs::m::phenotype_categories, Ty::StrArr).required(),
        field(schema::variants_drugs::m::source, Ty::Str).required(),
        field(schema::variants_drugs::m::source_url, Ty::Str).required(),
        field(schema::variants_drugs::m::name, Ty::Str).required(),
        field(schema::variants_drugs::m::class, Ty::Str),
        field(schema::variants_drugs::m::method, Ty::Str),
        field(schema::variants_drugs::m::files_filesets, Ty::Str),
    ],
};

/// 4.7: drugs associated with variants, by PMID and phenotype category.
pub fn variants_drugs(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll(variants_drugs::COLL);
    let mut f = Filter::over(e);
    f.and(from_matching(ctx, p, e, variants_drugs::m::_from, None));
    if let Some(pmid) = p.str(&PMID) {
        f.and(sets::exact(e, variants_drugs::m::pmid, pmid));
    }
    if let Some(c) = p.str(&PHENOTYPE_CATEGORIES) {
        f.and(sets::facet(e, variants_drugs::m::phenotype_categories, c));
    }
    ctx.page(p, e, &f, &VARIANT_DRUG)
}
