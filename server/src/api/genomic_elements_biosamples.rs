//! 4.11 `/genomic-elements/biosamples`: reporter-assay (MPRA) results of genomic elements.

use super::*;
use crate::api::shapes::{id_or, ONTOLOGY_TERM};
use crate::api::{sets, Ctx, Reply};
use crate::engine::Filter;
use crate::params::Params;
use crate::shape::{field, Shape, Ty};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genomic-elements/biosamples",
    section: "4.11",
    summary: "Reporter-assay (MPRA) results of genomic elements",
    accepts: Accepts {
        params: &[
            Param::new(
                "region",
                Kind::Region(None),
                "elements overlapping chr<name>:<start>-<end>",
            ),
            Param::new(
                "region_type",
                Kind::Enum(&[
                    "accessible dna elements",
                    "candidate cis regulatory element",
                    "tested elements",
                ]),
                "element type",
            ),
            FILESET,
            Param::new("method", Kind::Enum(&["MPRA"]), "method"),
            Param::new("source", Kind::Enum(&["ENCODE", "IGVF"]), "data source"),
        ],
        rules: &[Rule::AtLeastOne(&[
            "region",
            "region_type",
            "files_fileset",
            "method",
            "source",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 50,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: elements_biosamples,
    body: Body::Array(&ELEMENT_BIOSAMPLE),
    examples: &[
        "region=chr1:10000-30000&verbose=true",
        "region_type=tested%20elements",
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
