//! 4.11 `/genomic-elements/biosamples`: reporter-assay (MPRA) results of genomic elements.

use crate::engine::Filter;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, Shape, Ty};
use crate::vocab::shapes::{id_or, ONTOLOGY_TERM};
use varcat_format::schema;
use varcat_format::schema::{genomic_elements, genomic_elements_biosamples as geb};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genomic-elements/biosamples",
    section: Some("4.11"),
    summary: "Reporter-assay (MPRA) results of genomic elements",
    accepts: Accepts {
        params: &[&ELEMENT_REGION, &REGION_TYPE, &FILESET, &METHOD, &SOURCE],
        rules: &[Rule::AtLeastOne(&[
            &ELEMENT_REGION,
            &REGION_TYPE,
            &FILESET,
            &METHOD,
            &SOURCE,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 50,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Handler(elements_biosamples),
    body: Body::Array(&ELEMENT_BIOSAMPLE),
    examples: &[
        "region=chr1:10000-30000&verbose=true",
        "region_type=tested%20elements",
    ],
};

/// Element type.
pub const REGION_TYPE: Param = Param::new(
    "region_type",
    Kind::Enum(&[
        "accessible dna elements",
        "candidate cis regulatory element",
        "tested elements",
    ]),
    "element type",
);
/// Method.
pub const METHOD: Param = Param::new("method", Kind::Enum(&["MPRA"]), "method");
/// Data source.
pub const SOURCE: Param = Param::new("source", Kind::Enum(&["ENCODE", "IGVF"]), "data source");

/// The verbose element of 4.11 (no `_id`, as in IGVF).
pub static ELEMENT_FULL: Shape = Shape {
    name: "GenomicElementFull",
    members: &[
        field(schema::genomic_elements::m::chr, Ty::Str).required(),
        field(schema::genomic_elements::m::start, Ty::Int),
        field(schema::genomic_elements::m::end, Ty::Int),
        field(schema::genomic_elements::m::strand, Ty::Str),
        field(schema::genomic_elements::m::name, Ty::Str).required(),
        field(schema::genomic_elements::m::source_annotation, Ty::Str),
        field(schema::genomic_elements::m::r#type, Ty::Str).required(),
        field(schema::genomic_elements::m::source, Ty::Str).required(),
        field(schema::genomic_elements::m::source_url, Ty::Str).required(),
    ],
};

/// 4.11 record.
pub static ELEMENT_BIOSAMPLE: Shape = Shape {
    name: "GenomicElementBiosample",
    members: &[
        field(schema::genomic_elements_biosamples::m::log2FC, Ty::Num),
        field(schema::genomic_elements_biosamples::m::strand, Ty::Str),
        field(
            schema::genomic_elements_biosamples::m::neg_log10_pvalue,
            Ty::Num,
        ),
        field(
            schema::genomic_elements_biosamples::m::neg_log10_pvalue_adj,
            Ty::Num,
        ),
        field(schema::genomic_elements_biosamples::m::DNA_count, Ty::Num),
        field(schema::genomic_elements_biosamples::m::RNA_count, Ty::Num),
        field(
            schema::genomic_elements_biosamples::m::significant,
            Ty::Bool,
        ),
        field(schema::genomic_elements_biosamples::m::source, Ty::Str),
        field(schema::genomic_elements_biosamples::m::source_url, Ty::Str),
        id_or(
            "genomic_element",
            schema::genomic_elements_biosamples::m::_from,
            &ELEMENT_FULL,
        ),
        id_or(
            "biosample",
            schema::genomic_elements_biosamples::m::_to,
            &ONTOLOGY_TERM,
        ),
        field(schema::genomic_elements_biosamples::m::name, Ty::Str).required(),
        field(schema::genomic_elements_biosamples::m::class, Ty::Str),
        field(schema::genomic_elements_biosamples::m::method, Ty::Str),
        field(
            schema::genomic_elements_biosamples::m::files_filesets,
            Ty::Str,
        ),
    ],
};

/// 4.11: reporter-assay results of elements by region and type, source, method and file set.
pub fn elements_biosamples(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll(geb::COLL);
    let els = ctx.coll(genomic_elements::COLL);
    let mut f = Filter::over(e);
    if let Some(r) = p.region(&ELEMENT_REGION) {
        f.and(sets::adjacent_to(
            e,
            geb::m::_from,
            els,
            sets::overlapping(els, r).iter(),
        ));
    }
    for (param, member) in [
        (&REGION_TYPE, geb::m::element_type),
        (&SOURCE, geb::m::source),
        (&METHOD, geb::m::method),
    ] {
        if let Some(v) = p.str(param) {
            f.and(sets::facet(e, member, v));
        }
    }
    if let Some(fs) = p.str(&FILESET) {
        f.and(sets::in_fileset(e, geb::m::files_filesets, fs));
    }
    ctx.page(p, e, &f, &ELEMENT_BIOSAMPLE)
}
