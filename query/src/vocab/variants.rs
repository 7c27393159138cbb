//! Variants as every endpoint that starts from one reads them: the identifier parameters, the
//! matching variants, the edges leaving them, and the variant shapes every endpoint renders
//! (short form, annotations, frequencies).

use crate::engine::{Filter, Read, Set};
use crate::error::ApiError;
use crate::handler::Ctx;
use crate::params::VARIANTS;
use crate::params::{Kind, Param, Params, Rule};
use crate::parse::variant::{CaId, Hgvs, Rsid, Spdi};
use crate::sets;
use crate::shape::{doc, field, member, Member, Shape, Src, Ty};
use varcat_format::collection::Collection;
use varcat_format::schema::{self, Member as SchemaMember};
use varcat_format::vocab::AF_SOURCES;

/// Variant key.
pub const VARIANT_ID: Param = Param::new(
    "variant_id",
    Kind::VariantId,
    "variant key: SPDI, or a VRS digest for long variants",
);
/// SPDI.
pub const SPDI: Param = Param::new("spdi", Kind::Spdi, "SPDI, e.g. NC_000020.11:9564577:A:T");
/// Genomic HGVS.
pub const HGVS: Param = Param::new(
    "hgvs",
    Kind::Hgvs,
    "genomic HGVS, e.g. NC_000020.11:g.9564578A>T",
);
/// dbSNP id.
pub const RSID: Param = Param::new(
    "rsid",
    Kind::Rsid,
    "dbSNP id, e.g. rs2045642915 (a variant may have several)",
);
/// ClinGen allele id.
pub const CA_ID: Param = Param::new("ca_id", Kind::CaId, "ClinGen allele id, e.g. CA900000001");

/// Variants in a region.
pub const REGION: Param = Param::new(
    "region",
    Kind::Region(None),
    "variants in chr<name>:<start>-<end>",
);
/// Variants in a region of at most 10 kb (4.2, 4.7, 4.13).
pub const REGION_10KB: Param = Param::new(
    "region",
    Kind::Region(Some(10_000)),
    "variants in chr<name>:<start>-<end> (at most 10 kb)",
);
/// A region of at most 10 kb that is the query itself (4.18, 4.25).
pub const REGION_SPAN_10KB: Param = Param::new(
    "region",
    Kind::Region(Some(10_000)),
    "chr<name>:<start>-<end> (at most 10 kb)",
);

/// The variant identifier parameters.
pub const IDS: [&Param; 5] = [&VARIANT_ID, &SPDI, &HGVS, &RSID, &CA_ID];

/// At least one identifier.
pub const ID_RULE: Rule = Rule::AtLeastOne(&IDS);

/// The identifiers and the region.
pub const IDS_AND_REGION: [&Param; 6] = [&VARIANT_ID, &SPDI, &HGVS, &RSID, &CA_ID, &REGION];

/// At least one identifier or the region.
pub const ID_OR_REGION_RULE: Rule = Rule::AtLeastOne(&IDS_AND_REGION);

/// Variants of `v` matching every given identifier (all ANDed), for endpoints without a region.
pub fn identified<'a>(v: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = Filter::over(v);
    if let Some(id) = p.variant_id(&VARIANT_ID) {
        f.and(Set::from_unsorted(
            v.and_then(|c| c.ord(id.as_str())).into_iter().collect(),
        ));
    }
    for (given, member) in [
        (p.spdi(&SPDI).map(Spdi::as_str), schema::variants::m::spdi),
        (p.hgvs(&HGVS).map(Hgvs::as_str), schema::variants::m::hgvs),
        (p.rsid(&RSID).map(Rsid::as_str), schema::variants::m::rsid),
        (
            p.ca_id(&CA_ID).map(CaId::as_str),
            schema::variants::m::ca_id,
        ),
    ] {
        if let Some(x) = given {
            f.and(sets::exact(v, member, x));
        }
    }
    f
}

/// Variants of `v` matching every given identifier and the region (all ANDed); the region is
/// read under its plain name, whichever cap the endpoint's declaration sets.
pub fn matching<'a>(v: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = identified(v, p);
    if let Some(r) = p.region(&REGION) {
        f.and(sets::within(v, r));
    }
    f
}

/// Edges of `edges` whose member `from` leaves the variants the identifiers and region of `p`
/// match (with an optional extra condition on the variants: their chromosome).
pub fn from_matching<'a>(
    ctx: &Ctx<'a>,
    p: &Params,
    edges: Option<&'a Collection>,
    from: SchemaMember,
    extra: Option<&str>,
) -> crate::engine::Set<'a> {
    let v = ctx.coll(schema::variants::COLL);
    let mut f = matching(v, p);
    if let (Some(chr), Some(vc)) = (extra, v) {
        let chr = chr.to_string();
        f.pred(move |o| vc.str_of(o, schema::variants::m::chr).as_deref() == Some(chr.as_str()));
    }
    sets::adjacent_to(edges, from, v, f.lazy())
}

/// The identified variants of `p.organism`, or 404 when there is none (4.12, 4.19).
pub fn required_variants<'a>(
    ctx: &Ctx<'a>,
    p: &Params,
) -> Result<(Option<&'a Collection>, Vec<u64>), ApiError> {
    let v = ctx.coll(p.organism.collection(VARIANTS));
    let ords = identified(v, p).collect();
    if ords.is_empty() {
        return Err(ApiError::not_found("variant not found"));
    }
    Ok((v, ords))
}

/// The short variant form (IGVF's simplified variant).
pub static SHORT_VARIANT: Shape = Shape {
    name: "VariantShort",
    members: &[
        field(schema::variants::m::chr, Ty::Str).required(),
        field(schema::variants::m::pos, Ty::Int),
        field(schema::variants::m::r#ref, Ty::Str).required(),
        field(schema::variants::m::alt, Ty::Str).required(),
        field(schema::variants::m::rsid, Ty::StrArr),
        field(schema::variants::m::spdi, Ty::Str),
        field(schema::variants::m::hgvs, Ty::Str),
        field(schema::variants::m::ca_id, Ty::Str),
        member("_id", Src::Key, Ty::Str),
    ],
};

/// The `annotations` object (2.3), assembled at build time: every allele-frequency source
/// ([`AF_SOURCES`], the names the builder stores), then the GENCODE category and the FunSeq
/// description.
pub static ANNOTATIONS: Shape = Shape {
    name: "VariantAnnotations",
    members: &ANNOTATION_MEMBERS,
};

static ANNOTATION_MEMBERS: [Member; AF_SOURCES.len() + 2] = {
    let mut out = [doc("GENCODE_category", Ty::Str); AF_SOURCES.len() + 2];
    let mut i = 0;
    while i < AF_SOURCES.len() {
        out[i] = doc(AF_SOURCES[i], Ty::Num);
        i += 1;
    }
    out[AF_SOURCES.len() + 1] = doc("funseq_description", Ty::Str);
    out
};

/// The allele-frequency record (2.3, 4.2).
pub static FREQUENCY: Shape = Shape {
    name: "VariantFrequency",
    members: &[
        field(schema::variants::m::organism, Ty::Str),
        member("_id", Src::Key, Ty::Str),
        field(schema::variants::m::chr, Ty::Str).required(),
        field(schema::variants::m::pos, Ty::Int),
        field(schema::variants::m::rsid, Ty::StrArr),
        field(schema::variants::m::r#ref, Ty::Str).required(),
        field(schema::variants::m::alt, Ty::Str).required(),
        field(schema::variants::m::spdi, Ty::Str),
        field(schema::variants::m::hgvs, Ty::Str),
        field(schema::variants::m::ca_id, Ty::Str),
        field(schema::variants::m::qual, Ty::Str),
        field(schema::variants::m::files_filesets, Ty::Str),
        field(schema::variants::m::annotations, Ty::Obj(&ANNOTATIONS)),
        field(schema::variants::m::source, Ty::Str).required(),
        field(schema::variants::m::source_url, Ty::Str).required(),
        field(schema::variants::m::strain, Ty::StrArr),
    ],
};

/// Mouse strain.
pub const MOUSE_STRAIN: Param = Param::new(
    "mouse_strain",
    Kind::Enum(&[
        "129S1_SvImJ",
        "A_J",
        "CAST_EiJ",
        "NOD_ShiLtJ",
        "NZO_HlLtJ",
        "PWK_PhJ",
        "WSB_EiJ",
    ]),
    "mouse strain (Mus musculus only)",
);

#[cfg(test)]
mod tests {
    #[test]
    fn test_annotation_members_follow_the_schema() {
        let names: Vec<&str> = super::ANNOTATIONS.members.iter().map(|m| m.name).collect();
        assert_eq!(&names[..32], varcat_format::vocab::AF_SOURCES);
    }
}
