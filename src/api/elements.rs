//! Genomic elements: 4.5 `/genomic-elements/variants` and 4.11 `/genomic-elements/biosamples`.

use crate::api::shapes::{id_or, ONTOLOGY_TERM};
use crate::api::variants::SHORT_VARIANT;
use crate::api::{sets, Ctx, Reply};
use crate::engine::{cascade, Filter, Set, CONTEXT_TIERS};
use crate::params::Params;
use crate::shape::{field, member, Shape, Src, Ty};

/// The element of a 4.5 row.
pub static ELEMENT: Shape = Shape {
    name: "GenomicElement",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field("name", Ty::Str).required(),
        field("chr", Ty::Str).required(),
        field("start", Ty::Int),
        field("end", Ty::Int),
        field("type", Ty::Str).required(),
        field("source_annotation", Ty::Str),
        field("source", Ty::Str).required(),
        field("source_url", Ty::Str).required(),
    ],
};

/// The verbose element of 4.11 (no `_id`, as in IGVF).
pub static ELEMENT_FULL: Shape = Shape {
    name: "GenomicElementFull",
    members: &[
        field("chr", Ty::Str).required(),
        field("start", Ty::Int),
        field("end", Ty::Int),
        field("strand", Ty::Str),
        field("name", Ty::Str).required(),
        field("source_annotation", Ty::Str),
        field("type", Ty::Str).required(),
        field("source", Ty::Str).required(),
        field("source_url", Ty::Str).required(),
    ],
};

/// 4.5 record: the variant and the element are always objects (null when missing).
pub static ELEMENT_VARIANT: Shape = Shape {
    name: "GenomicElementVariant",
    members: &[
        member(
            "variant",
            Src::Obj("_from", &SHORT_VARIANT),
            Ty::Obj(&SHORT_VARIANT),
        ),
        field("name", Ty::Str).required(),
        field("label", Ty::Str).required(),
        field("method", Ty::Str).required(),
        field("class", Ty::Str),
        field("log2FC", Ty::Num),
        field("neg_log10_pvalue", Ty::Num),
        field("beta", Ty::Num),
        field("files_filesets", Ty::Str),
        field("biological_context", Ty::Str),
        field("biosample_term", Ty::Str),
        field("source", Ty::Str),
        field("source_url", Ty::Str),
        member(
            "genomic_element",
            Src::Obj("_to", &ELEMENT),
            Ty::Obj(&ELEMENT),
        ),
    ],
};

/// 4.5: variant–element associations (caQTL) by element region and type, biosample, file set,
/// method and biological context.
pub fn elements_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll("variants_genomic_elements");
    let els = ctx.coll("genomic_elements");
    let in_region = p
        .region("region")
        .map(|r| sets::adjacent_to(e, "_to", els, sets::overlapping(els, r).iter()).to_vec());
    let base = || {
        let mut f = Filter::over(e);
        if let Some(v) = &in_region {
            f.and(Set::Vec(v.clone()));
        }
        if let Some(t) = p.str("region_type") {
            f.and(sets::facet(e, "element_type", t));
        }
        if let Some(m) = p.str("method") {
            f.and(sets::facet(e, "method", m));
        }
        if let Some(t) = p.str("biosample_term") {
            f.and(sets::handle_is(e, "biosample_term", "ontology_terms", t));
        }
        if let Some(fs) = p.str("files_fileset") {
            f.and(sets::handle_is(e, "files_filesets", "files_filesets", fs));
        }
        f
    };
    let f = match (p.str("biological_context"), e) {
        (Some(q), Some(c)) => cascade(c, "biological_context", q, CONTEXT_TIERS, base),
        _ => base(),
    };
    ctx.page(p, e, &f, &ELEMENT_VARIANT)
}

/// 4.11 record.
pub static ELEMENT_BIOSAMPLE: Shape = Shape {
    name: "GenomicElementBiosample",
    members: &[
        field("log2FC", Ty::Num),
        field("strand", Ty::Str),
        field("neg_log10_pvalue", Ty::Num),
        field("neg_log10_pvalue_adj", Ty::Num),
        field("DNA_count", Ty::Num),
        field("RNA_count", Ty::Num),
        field("significant", Ty::Bool),
        field("source", Ty::Str),
        field("source_url", Ty::Str),
        id_or("genomic_element", "_from", &ELEMENT_FULL),
        id_or("biosample", "_to", &ONTOLOGY_TERM),
        field("name", Ty::Str).required(),
        field("class", Ty::Str),
        field("method", Ty::Str),
        field("files_filesets", Ty::Str),
    ],
};

/// 4.11: reporter-assay results of elements by region and type, source, method and file set.
pub fn elements_biosamples(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll("genomic_elements_biosamples");
    let els = ctx.coll("genomic_elements");
    let mut f = Filter::over(e);
    if let Some(r) = p.region("region") {
        f.and(sets::adjacent_to(
            e,
            "_from",
            els,
            sets::overlapping(els, r).iter(),
        ));
    }
    for (param, member) in [
        ("region_type", "element_type"),
        ("source", "source"),
        ("method", "method"),
    ] {
        if let Some(v) = p.str(param) {
            f.and(sets::facet(e, member, v));
        }
    }
    if let Some(fs) = p.str("files_fileset") {
        f.and(sets::handle_is(e, "files_filesets", "files_filesets", fs));
    }
    ctx.page(p, e, &f, &ELEMENT_BIOSAMPLE)
}
