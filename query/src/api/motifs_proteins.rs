//! 4.21 `/motifs/proteins`: proteins and complexes that use the matching motifs, one list in
//! edge-key order.

use crate::engine::Filter;
use crate::engine::Read;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, Render, Shape, Src, Ty};
use crate::vocab::shapes::{id_or, PROTEIN};
use varcat_format::collection::Collection;
use varcat_format::schema;
use varcat_format::schema::{complexes, motifs, motifs_proteins, proteins, Coll};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/motifs/proteins",
    section: Some("4.21"),
    summary: "Proteins and complexes that use a motif",
    accepts: Accepts {
        params: &[&TF_NAME, &SOURCE, &METHOD, &FILESET],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 1000,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Handler(motifs_proteins),
    body: Body::Array(&MOTIF_PROTEIN),
    examples: &["tf_name=TSTA1&verbose=true", "source=HOCOMOCOv11"],
};

/// Transcription factor.
pub const TF_NAME: Param = Param::new(
    "tf_name",
    Kind::Id,
    "transcription factor, e.g. ATF1_HUMAN (HOCOMOCO) or AHR (SEMpl)",
);
/// Motif source.
pub const SOURCE: Param = Param::new(
    "source",
    Kind::Enum(&["IGVF", "HOCOMOCOv11"]),
    "motif source",
);
/// Method.
pub const METHOD: Param = Param::new("method", Kind::Enum(&["HOCOMOCO", "SEMpl"]), "method");

/// The verbose motif.
pub static MOTIF: Shape = Shape {
    name: "Motif",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::motifs::m::name, Ty::Str).required(),
        field(schema::motifs::m::tf_name, Ty::Str).required(),
        field(schema::motifs::m::length, Ty::Int),
        field(schema::motifs::m::pwm, Ty::Any),
        field(schema::motifs::m::source, Ty::Str).required(),
        field(schema::motifs::m::source_url, Ty::Str).required(),
        field(schema::motifs::m::class, Ty::Str),
        field(schema::motifs::m::method, Ty::Str),
        field(schema::motifs::m::files_filesets, Ty::Str),
    ],
};

/// The verbose complex (docs/DESIGN.md#record-shapes-and-verbose-expansion).
pub static COMPLEX: Shape = Shape {
    name: "Complex",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::complexes::m::name, Ty::Str).required(),
        field(schema::complexes::m::alias, Ty::StrArr),
        field(schema::complexes::m::molecules, Ty::StrArr),
        field(schema::complexes::m::evidence_code, Ty::Str),
        field(schema::complexes::m::experimental_evidence, Ty::Str),
        field(schema::complexes::m::description, Ty::Str),
        field(schema::complexes::m::complex_assembly, Ty::Any),
        field(schema::complexes::m::complex_source, Ty::Str),
        field(schema::complexes::m::reactome_xref, Ty::StrArr),
        field(schema::complexes::m::class, Ty::Str),
        field(schema::complexes::m::method, Ty::Str),
        field(schema::complexes::m::label, Ty::Str),
        field(schema::complexes::m::files_filesets, Ty::Str),
        field(schema::complexes::m::source, Ty::Str).required(),
        field(schema::complexes::m::source_url, Ty::Str).required(),
    ],
};

/// The edge's target when it is in `collection`: its id, or with verbose its record; else null.
fn target(
    r: &Render<'_>,
    e: &Collection,
    o: u64,
    out: &mut Vec<u8>,
    collection: Coll,
    shape: &Shape,
) -> bool {
    let Some(h) = e.str_of(o, motifs_proteins::m::_to).filter(|h| {
        h.split_once('/')
            .is_some_and(|(c, _)| c == collection.name())
    }) else {
        return false;
    };
    match r.expansion(&h) {
        Some((c, to)) => r.object(out, c, to, shape),
        None => crate::shape::write_str(out, &h),
    }
    true
}

fn protein(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    target(r, e, o, out, proteins::COLL, &PROTEIN)
}

fn complex(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    target(r, e, o, out, complexes::COLL, &COMPLEX)
}

/// 4.21 record: `protein` and `complex` are both present; the one that does not apply is null.
pub static MOTIF_PROTEIN: Shape = Shape {
    name: "MotifProtein",
    members: &[
        field(schema::motifs_proteins::m::source, Ty::Str),
        member("protein", Src::Fn(protein), Ty::IdOr(&PROTEIN)),
        member("complex", Src::Fn(complex), Ty::IdOr(&COMPLEX)),
        id_or("motif", schema::motifs_proteins::m::_from, &MOTIF),
        field(schema::motifs_proteins::m::name, Ty::Str).required(),
        field(schema::motifs_proteins::m::class, Ty::Str),
        field(schema::motifs_proteins::m::method, Ty::Str),
        field(schema::motifs_proteins::m::files_filesets, Ty::Str),
    ],
};

/// 4.21: edges of the motifs matching `tf_name` and `source`, by method and file set.
pub fn motifs_proteins(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let m = ctx.coll(motifs::COLL);
    let e = ctx.coll(motifs_proteins::COLL);
    let mut f = Filter::over(e);
    if p.any(&[&TF_NAME, &SOURCE]) {
        let mut mf = Filter::over(m);
        if let Some(t) = p.str(&TF_NAME) {
            mf.and(sets::exact(m, motifs::m::tf_name, t));
        }
        if let Some(s) = p.str(&SOURCE) {
            mf.and(sets::facet(m, motifs::m::source, s));
        }
        f.and(sets::adjacent_to(
            e,
            motifs_proteins::m::_from,
            m,
            mf.lazy(),
        ));
    }
    if let Some(me) = p.str(&METHOD) {
        f.and(sets::facet(e, motifs_proteins::m::method, me));
    }
    if let Some(fs) = p.str(&FILESET) {
        f.and(sets::in_fileset(e, motifs_proteins::m::files_filesets, fs));
    }
    ctx.page(p, e, &f, &MOTIF_PROTEIN)
}
