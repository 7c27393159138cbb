//! 4.3 `/variants/phenotypes`: phenotypes associated with variants (GWAS, saturation editing,
//! predictions), each row in the shape of its source.

use crate::engine::Filter;
use crate::engine::Read;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, renamed, write_str, Render, Shape, Src, Ty};
use crate::vocab::shapes::{id_or, STUDY};
use crate::vocab::variants::from_matching;
use crate::vocab::variants::{self, SHORT_VARIANT};
use varcat_format::collection::Collection;
use varcat_format::schema::{self, ontology_terms, variants_phenotypes as vp};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/phenotypes",
    section: Some("4.3"),
    summary: "Phenotypes associated with variants: GWAS, saturation editing, predictions",
    accepts: Accepts {
        params: &[
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &variants::REGION,
            &PHENOTYPE_ID_PARAM,
            &NEG_LOG10_PVALUE,
            &METHOD,
            &LABEL,
            &CLASS,
            &FILESET,
        ],
        rules: &[Rule::AtLeastOne(&[
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &variants::REGION,
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
    run: Run::Handler(variants_phenotypes),
    body: Body::ArrayOf(PHENO_SHAPES),
    examples: &[
        "rsid=rs900001&verbose=true",
        "method=GWAS&neg_log10_pvalue=gt:7",
    ],
};

// Parameters (`PHENOTYPE_ID` is the shape member below).

/// Phenotype ontology term.
pub const PHENOTYPE_ID_PARAM: Param = Param::new(
    "phenotype_id",
    Kind::Id,
    "phenotype ontology term id, e.g. EFO_0000001",
);
/// -log10 p-value threshold.
pub const NEG_LOG10_PVALUE: Param = Param::new(
    "neg_log10_pvalue",
    Kind::Threshold,
    "-log10 p-value threshold",
);
/// Method.
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(&["CRISPR screen", "GWAS", "SGE", "cV2F"]),
    "method",
);
/// Label.
pub const LABEL: Param = Param::new(
    "label",
    Kind::Enum(&[
        "GWAS",
        "predicted variant effect on phenotype",
        "protein variant effect",
        "variant effect on phenotype",
    ]),
    "label",
);
/// Class.
pub const CLASS: Param = Param::new(
    "class",
    Kind::Enum(&["observed data", "prediction"]),
    "class",
);

/// The name of the ontology term an edge's `_to` points at.
fn term_name(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let name = e.str_of(o, vp::m::_to).and_then(|h| {
        let (c, to) = r.cat.resolve(&h)?;
        c.str_of(to, ontology_terms::m::name)
    });
    name.map(|n| write_str(out, &n)).is_some()
}

/// The rsids of an edge's variant.
fn variant_rsids(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let bytes = e.str_of(o, vp::m::_from).and_then(|h| {
        let (c, vo) = r.cat.resolve(&h)?;
        c.raw(vo, schema::variants::m::rsid).map(|v| v.to_vec())
    });
    bytes.map(|b| out.extend_from_slice(&b)).is_some()
}

const VARIANT: crate::shape::Member = id_or(
    "variant",
    schema::variants_phenotypes::m::_from,
    &SHORT_VARIANT,
);

const PHENOTYPE_ID: crate::shape::Member =
    renamed("phenotype_id", schema::variants_phenotypes::m::_to, Ty::Str);

const TERM: crate::shape::Member = member("phenotype_term", Src::Fn(term_name), Ty::Str);

/// 4.3 GWAS rows (OpenTargets).
pub static PHENO_GWAS: Shape = Shape {
    name: "VariantPhenotypeGWAS",
    members: &[
        PHENOTYPE_ID,
        field(schema::variants_phenotypes::m::phenotype_term, Ty::Str),
        id_or("study", schema::variants_phenotypes::m::study, &STUDY),
        field(schema::variants_phenotypes::m::neg_log10_pvalue, Ty::Num),
        field(schema::variants_phenotypes::m::p_value, Ty::Num),
        field(schema::variants_phenotypes::m::beta, Ty::Num),
        field(schema::variants_phenotypes::m::beta_ci_lower, Ty::Num),
        field(schema::variants_phenotypes::m::beta_ci_upper, Ty::Num),
        field(schema::variants_phenotypes::m::oddsr_ci_lower, Ty::Num),
        field(schema::variants_phenotypes::m::oddsr_ci_upper, Ty::Num),
        field(schema::variants_phenotypes::m::lead_chrom, Ty::Str),
        field(schema::variants_phenotypes::m::lead_pos, Ty::Int),
        field(schema::variants_phenotypes::m::lead_ref, Ty::Str),
        field(schema::variants_phenotypes::m::lead_alt, Ty::Str),
        field(schema::variants_phenotypes::m::direction, Ty::Str),
        field(schema::variants_phenotypes::m::source, Ty::Str).required(),
        field(schema::variants_phenotypes::m::source_url, Ty::Str),
        field(schema::variants_phenotypes::m::class, Ty::Str),
        field(schema::variants_phenotypes::m::method, Ty::Str),
        field(schema::variants_phenotypes::m::label, Ty::Str),
        field(schema::variants_phenotypes::m::version, Ty::Str),
        field(schema::variants_phenotypes::m::name, Ty::Str).required(),
        VARIANT,
        field(schema::variants_phenotypes::m::files_filesets, Ty::Str),
        member("rsid", Src::Fn(variant_rsids), Ty::StrArr),
    ],
};

/// 4.3 CRISPR screen rows.
pub static PHENO_CRISPR: Shape = Shape {
    name: "VariantPhenotypeCRISPR",
    members: &[
        field(schema::variants_phenotypes::m::name, Ty::Str).required(),
        field(schema::variants_phenotypes::m::biological_context, Ty::Str),
        field(schema::variants_phenotypes::m::source, Ty::Str).required(),
        field(schema::variants_phenotypes::m::source_url, Ty::Str).required(),
        field(schema::variants_phenotypes::m::effect_size, Ty::Num),
        field(schema::variants_phenotypes::m::z_score, Ty::Num),
        field(schema::variants_phenotypes::m::significant, Ty::Bool),
        field(schema::variants_phenotypes::m::num_guides, Ty::Num),
        field(schema::variants_phenotypes::m::edit_rate_mean, Ty::Num),
        field(
            schema::variants_phenotypes::m::effect_size_ci95_lower,
            Ty::Num,
        ),
        field(
            schema::variants_phenotypes::m::effect_size_ci95_upper,
            Ty::Num,
        ),
        field(schema::variants_phenotypes::m::crispr_modality, Ty::Str),
        field(schema::variants_phenotypes::m::method, Ty::Str),
        field(schema::variants_phenotypes::m::class, Ty::Str),
        field(schema::variants_phenotypes::m::label, Ty::Str),
        field(schema::variants_phenotypes::m::files_filesets, Ty::Str),
        field(schema::variants_phenotypes::m::biosample_term, Ty::Str),
        TERM,
        VARIANT,
        PHENOTYPE_ID,
    ],
};

/// 4.3 rows of the other methods (SGE, cV2F).
pub static PHENO_OTHER: Shape = Shape {
    name: "VariantPhenotype",
    members: &[
        field(schema::variants_phenotypes::m::name, Ty::Str).required(),
        field(schema::variants_phenotypes::m::biological_context, Ty::Str),
        field(schema::variants_phenotypes::m::source, Ty::Str).required(),
        field(schema::variants_phenotypes::m::source_url, Ty::Str).required(),
        field(schema::variants_phenotypes::m::score, Ty::Num),
        field(schema::variants_phenotypes::m::method, Ty::Str),
        field(schema::variants_phenotypes::m::class, Ty::Str),
        field(schema::variants_phenotypes::m::label, Ty::Str),
        field(schema::variants_phenotypes::m::files_filesets, Ty::Str),
        field(schema::variants_phenotypes::m::biosample_term, Ty::Str),
        TERM,
        VARIANT,
        PHENOTYPE_ID,
    ],
};

/// The 4.3 shapes, for the OpenAPI document.
pub static PHENO_SHAPES: &[&Shape] = &[&PHENO_GWAS, &PHENO_CRISPR, &PHENO_OTHER];

/// The 4.3 shape of a row, by its source and method.
pub fn phenotype_shape(e: &Collection, o: u64) -> &'static Shape {
    if e.str_of(o, vp::m::source).as_deref() == Some("OpenTargets") {
        &PHENO_GWAS
    } else if e.str_of(o, vp::m::method).as_deref() == Some("CRISPR screen") {
        &PHENO_CRISPR
    } else {
        &PHENO_OTHER
    }
}

/// 4.3: phenotypes of variants, by variant, method, label, class, file set, phenotype and
/// p-value threshold (which leaves out rows without a p-value).
pub fn variants_phenotypes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll(vp::COLL);
    let mut f = Filter::over(e);
    if p.any(&variants::IDS_AND_REGION) {
        f.and(from_matching(ctx, p, e, vp::m::_from, None));
    }
    for (param, member) in [
        (&METHOD, vp::m::method),
        (&LABEL, vp::m::label),
        (&CLASS, vp::m::class),
    ] {
        if let Some(v) = p.str(param) {
            f.and(sets::facet(e, member, v));
        }
    }
    if let Some(fs) = p.str(&FILESET) {
        f.and(sets::in_fileset(e, vp::m::files_filesets, fs));
    }
    if let Some(t) = p.str(&PHENOTYPE_ID_PARAM) {
        f.and(sets::handle_is(e, vp::m::_to, ontology_terms::COLL, t));
    }
    if let Some(t) = p.threshold(&NEG_LOG10_PVALUE) {
        f.pred(sets::threshold(e, vp::m::neg_log10_pvalue, t));
    }
    ctx.page_with(p, e, &f, phenotype_shape)
}
