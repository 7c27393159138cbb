//! 4.5 `/genomic-elements/variants`: variants associated with genomic elements (caQTLs).

use crate::engine::{cascade, Filter, Set, CONTEXT_TIERS};
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, Shape, Src, Ty};
use crate::vocab::variants::SHORT_VARIANT;
use varcat_format::schema;
use varcat_format::schema::{genomic_elements, ontology_terms, variants_genomic_elements as vge};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genomic-elements/variants",
    section: Some("4.5"),
    summary: "Variants associated with genomic elements (caQTLs)",
    accepts: Accepts {
        params: &[
            &ELEMENT_REGION,
            &REGION_TYPE,
            &BIOSAMPLE_TERM,
            &BIOLOGICAL_CONTEXT,
            &METHOD,
            &FILESET,
        ],
        rules: &[Rule::AtLeastOne(&[
            &ELEMENT_REGION,
            &REGION_TYPE,
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
    run: Run::Handler(elements_variants),
    body: Body::Array(&ELEMENT_VARIANT),
    examples: &[
        "region=chr1:24000-26000",
        "method=caQTL&biological_context=hepg",
    ],
};

/// Element type.
pub const REGION_TYPE: Param = Param::new(
    "region_type",
    Kind::Enum(&["accessible dna elements"]),
    "element type",
);
/// Biosample ontology term.
pub const BIOSAMPLE_TERM: Param = Param::new(
    "biosample_term",
    Kind::Id,
    "ontology term id, e.g. EFO_0002067",
);
/// Method.
pub const METHOD: Param = Param::new("method", Kind::Enum(&["caQTL"]), "method");

/// The element of a 4.5 row.
pub static ELEMENT: Shape = Shape {
    name: "GenomicElement",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::genomic_elements::m::name, Ty::Str).required(),
        field(schema::genomic_elements::m::chr, Ty::Str).required(),
        field(schema::genomic_elements::m::start, Ty::Int),
        field(schema::genomic_elements::m::end, Ty::Int),
        field(schema::genomic_elements::m::r#type, Ty::Str).required(),
        field(schema::genomic_elements::m::source_annotation, Ty::Str),
        field(schema::genomic_elements::m::source, Ty::Str).required(),
        field(schema::genomic_elements::m::source_url, Ty::Str).required(),
    ],
};

/// 4.5 record: the variant and the element are always objects (null when missing).
pub static ELEMENT_VARIANT: Shape = Shape {
    name: "GenomicElementVariant",
    members: &[
        member(
            "variant",
            Src::Obj(schema::variants_genomic_elements::m::_from, &SHORT_VARIANT),
            Ty::Obj(&SHORT_VARIANT),
        ),
        field(schema::variants_genomic_elements::m::name, Ty::Str).required(),
        field(schema::variants_genomic_elements::m::label, Ty::Str).required(),
        field(schema::variants_genomic_elements::m::method, Ty::Str).required(),
        field(schema::variants_genomic_elements::m::class, Ty::Str),
        field(schema::variants_genomic_elements::m::log2FC, Ty::Num),
        field(
            schema::variants_genomic_elements::m::neg_log10_pvalue,
            Ty::Num,
        ),
        field(schema::variants_genomic_elements::m::beta, Ty::Num),
        field(
            schema::variants_genomic_elements::m::files_filesets,
            Ty::Str,
        ),
        field(
            schema::variants_genomic_elements::m::biological_context,
            Ty::Str,
        ),
        field(
            schema::variants_genomic_elements::m::biosample_term,
            Ty::Str,
        ),
        field(schema::variants_genomic_elements::m::source, Ty::Str),
        field(schema::variants_genomic_elements::m::source_url, Ty::Str),
        member(
            "genomic_element",
            Src::Obj(schema::variants_genomic_elements::m::_to, &ELEMENT),
            Ty::Obj(&ELEMENT),
        ),
    ],
};

/// 4.5: variant–element associations (caQTL) by element region and type, biosample, file set,
/// method and biological context.
pub fn elements_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll(vge::COLL);
    let els = ctx.coll(genomic_elements::COLL);
    let in_region = p
        .region(&ELEMENT_REGION)
        .map(|r| sets::adjacent_to(e, vge::m::_to, els, sets::overlapping(els, r).iter()).to_vec());
    let base = || {
        let mut f = Filter::over(e);
        if let Some(v) = &in_region {
            f.and(Set::Vec(v.clone()));
        }
        if let Some(t) = p.str(&REGION_TYPE) {
            f.and(sets::facet(e, vge::m::element_type, t));
        }
        if let Some(m) = p.str(&METHOD) {
            f.and(sets::facet(e, vge::m::method, m));
        }
        if let Some(t) = p.str(&BIOSAMPLE_TERM) {
            f.and(sets::handle_is(
                e,
                vge::m::biosample_term,
                ontology_terms::COLL,
                t,
            ));
        }
        if let Some(fs) = p.str(&FILESET) {
            f.and(sets::in_fileset(e, vge::m::files_filesets, fs));
        }
        f
    };
    let f = match (p.str(&BIOLOGICAL_CONTEXT), e) {
        (Some(q), Some(c)) => cascade(c, vge::m::biological_context, q, CONTEXT_TIERS, base),
        _ => base(),
    };
    ctx.page(p, e, &f, &ELEMENT_VARIANT)
}
