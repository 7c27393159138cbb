//! Variant resolution shared by every endpoint that starts from a variant, and the variant
//! endpoints: 4.2 `/variants/freq`, 4.25 `/variants/region-summary`, 4.18
//! `/variants/nearest-genes`.

use std::collections::BTreeMap;

use serde_json::json;
use varcat_format::collection::Collection;

use crate::api::shapes::GENE;
use crate::api::{sets, Ctx, Reply};
use crate::engine::{Filter, Set};
use crate::error::ApiError;
use crate::params::{Kind, Param, Params};
use crate::shape::{field, member, Shape, Src, Ty};

/// The variant identifier parameters.
pub const ID_PARAMS: [Param; 5] = [
    Param::new(
        "variant_id",
        Kind::VariantId,
        "variant key: SPDI, or a VRS digest for long variants",
    ),
    Param::new("spdi", Kind::Spdi, "SPDI, e.g. NC_000020.11:9564577:A:T"),
    Param::new(
        "hgvs",
        Kind::Hgvs,
        "genomic HGVS, e.g. NC_000020.11:g.9564578A>T",
    ),
    Param::new(
        "rsid",
        Kind::Rsid,
        "dbSNP id, e.g. rs2045642915 (a variant may have several)",
    ),
    Param::new("ca_id", Kind::CaId, "ClinGen allele id, e.g. CA900000001"),
];

/// True when any identifier or region was given.
pub fn any_given(p: &Params) -> bool {
    ["variant_id", "spdi", "hgvs", "rsid", "ca_id", "region"]
        .iter()
        .any(|n| p.has(n))
}

/// Variants of `v` matching every given identifier and the region (all ANDed).
pub fn matching<'a>(v: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = Filter::over(v);
    if let Some(id) = p.str("variant_id") {
        f.and(Set::from_unsorted(
            v.and_then(|c| c.ord(id)).into_iter().collect(),
        ));
    }
    for (param, member) in [
        ("spdi", "spdi"),
        ("hgvs", "hgvs"),
        ("rsid", "rsid"),
        ("ca_id", "ca_id"),
    ] {
        if let Some(x) = p.str(param) {
            f.and(sets::exact(v, member, x));
        }
    }
    if let Some(r) = p.region("region") {
        f.and(sets::within(v, r));
    }
    f
}

/// Edges of `edges` leaving the variants the identifiers and region of `p` match (with an
/// optional extra condition on the variants).
pub fn from_matching<'a>(
    ctx: &Ctx<'a>,
    p: &Params,
    edges: Option<&'a Collection>,
    extra: Option<&str>,
) -> crate::engine::Set<'a> {
    let v = ctx.coll("variants");
    let mut f = matching(v, p);
    if let (Some(chr), Some(vc)) = (extra, v) {
        let chr = chr.to_string();
        f.pred(move |o| vc.string(o, "chr").as_deref() == Some(chr.as_str()));
    }
    sets::adjacent_to(edges, "_from", v, f.lazy())
}

/// The matching variants of `p.organism`, or 404 when there is none (4.12, 4.19).
pub fn required_variants<'a>(
    ctx: &Ctx<'a>,
    p: &Params,
) -> Result<(Option<&'a Collection>, Vec<u32>), ApiError> {
    let v = ctx.coll(&p.organism.collection("variants"));
    let ords = matching(v, p).collect();
    if ords.is_empty() {
        return Err(ApiError::not_found("variant not found"));
    }
    Ok((v, ords))
}

/// The short variant form (IGVF's simplified variant).
pub static SHORT_VARIANT: Shape = Shape {
    name: "VariantShort",
    members: &[
        field("chr", Ty::Str).required(),
        field("pos", Ty::Int),
        field("ref", Ty::Str).required(),
        field("alt", Ty::Str).required(),
        field("rsid", Ty::StrArr),
        field("spdi", Ty::Str),
        field("hgvs", Ty::Str),
        field("ca_id", Ty::Str),
        member("_id", Src::Key, Ty::Str),
    ],
};

/// The `annotations` object (2.3), assembled at build time (members documented here; a test
/// checks they match `varcat_indexer::schema::AF_SOURCES`).
pub static ANNOTATIONS: Shape = Shape {
    name: "VariantAnnotations",
    members: &[
        field("bravo_af", Ty::Num),
        field("gnomad_af_total", Ty::Num),
        field("gnomad_af_afr", Ty::Num),
        field("gnomad_af_afr_female", Ty::Num),
        field("gnomad_af_afr_male", Ty::Num),
        field("gnomad_af_ami", Ty::Num),
        field("gnomad_af_ami_female", Ty::Num),
        field("gnomad_af_ami_male", Ty::Num),
        field("gnomad_af_amr", Ty::Num),
        field("gnomad_af_amr_female", Ty::Num),
        field("gnomad_af_amr_male", Ty::Num),
        field("gnomad_af_asj", Ty::Num),
        field("gnomad_af_asj_female", Ty::Num),
        field("gnomad_af_asj_male", Ty::Num),
        field("gnomad_af_eas", Ty::Num),
        field("gnomad_af_eas_female", Ty::Num),
        field("gnomad_af_eas_male", Ty::Num),
        field("gnomad_af_female", Ty::Num),
        field("gnomad_af_fin", Ty::Num),
        field("gnomad_af_fin_female", Ty::Num),
        field("gnomad_af_fin_male", Ty::Num),
        field("gnomad_af_male", Ty::Num),
        field("gnomad_af_nfe", Ty::Num),
        field("gnomad_af_nfe_female", Ty::Num),
        field("gnomad_af_nfe_male", Ty::Num),
        field("gnomad_af_oth", Ty::Num),
        field("gnomad_af_oth_female", Ty::Num),
        field("gnomad_af_oth_male", Ty::Num),
        field("gnomad_af_sas", Ty::Num),
        field("gnomad_af_sas_male", Ty::Num),
        field("gnomad_af_sas_female", Ty::Num),
        field("gnomad_af_raw", Ty::Num),
        field("GENCODE_category", Ty::Str),
        field("funseq_description", Ty::Str),
    ],
};

/// The allele-frequency record (2.3, 4.2).
pub static FREQUENCY: Shape = Shape {
    name: "VariantFrequency",
    members: &[
        field("organism", Ty::Str),
        member("_id", Src::Key, Ty::Str),
        field("chr", Ty::Str).required(),
        field("pos", Ty::Int),
        field("rsid", Ty::StrArr),
        field("ref", Ty::Str).required(),
        field("alt", Ty::Str).required(),
        field("spdi", Ty::Str),
        field("hgvs", Ty::Str),
        field("ca_id", Ty::Str),
        field("qual", Ty::Str),
        field("files_filesets", Ty::Str),
        field("annotations", Ty::Obj(&ANNOTATIONS)),
        field("source", Ty::Str).required(),
        field("source_url", Ty::Str).required(),
        field("strain", Ty::StrArr),
    ],
};

/// 4.2: variants by identifiers or region, filtered by the frequency of one source
/// (both bounds inclusive; a variant without that frequency is left out).
pub fn freq(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let (min, max) = (
        p.num("minimum_af").unwrap_or(0.0),
        p.num("maximum_af").unwrap_or(1.0),
    );
    if min > max {
        return Err(ApiError::param(
            "minimum_af",
            format!("minimum_af ({min}) must not exceed maximum_af ({max})"),
        ));
    }
    let v = ctx.coll("variants");
    let mut f = matching(v, p);
    if let Some(c) = p.str("GENCODE_category") {
        f.and(sets::facet(v, "annotations.GENCODE_category", c));
    }
    let source = p.str("source").unwrap_or("bravo_af");
    let column = v.and_then(|c| c.number(&format!("annotations.{source}")));
    f.pred(move |o| {
        column
            .and_then(|col| col.get(o))
            .is_some_and(|x| min <= x && x <= max)
    });
    ctx.page(p, v, &f, &FREQUENCY)
}

/// The variant edge collections whose methods 4.25 counts.
pub const SUMMARY_EDGES: &[&str] = &[
    "variants_genes",
    "variants_proteins",
    "variants_biosamples",
    "variants_genomic_elements",
    "variants_phenotypes",
];

/// 4.25: the number of variants in a region, and the number of their edges per method.
pub fn region_summary(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let v = ctx.coll("variants");
    let Some(r) = p.region("region") else {
        return Err(ApiError::param("region", "region is required"));
    };
    let ords = sets::within(v, r).to_vec();
    let handles = v.map_or(Vec::new(), |c| sets::handles(c, &ords));
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for name in SUMMARY_EDGES {
        let Some(e) = ctx.coll(name) else { continue };
        let (Some(by_from), Some(methods)) = (e.by("_from"), e.facet("method")) else {
            continue;
        };
        // The handles are neighbours (one chromosome, nearby positions): one cursor walks
        // their shared prefix once.
        let mut lookups = by_from.lookups();
        for h in &handles {
            let Some(list) = lookups.get(h.as_bytes()) else {
                continue;
            };
            for (method, bm) in methods.values() {
                let n = list.iter().filter(|&x| bm.contains(x)).count() as u64;
                if n > 0 {
                    *counts.entry(method.to_string()).or_insert(0) += n;
                }
            }
        }
    }
    let by_method: Vec<_> = counts
        .into_iter()
        .map(|(m, c)| json!({"method": m, "count": c}))
        .collect();
    Ok(
        serde_json::to_vec(&json!({"variant_count": ords.len(), "by_method": by_method}))
            .expect("serialises")
            .into(),
    )
}

/// 4.25 result (documentation).
pub static REGION_SUMMARY: Shape = Shape {
    name: "RegionSummary",
    members: &[
        member("variant_count", Src::Const("0"), Ty::Int),
        member("by_method", Src::Const("[]"), Ty::Arr(&METHOD_COUNT)),
    ],
};

/// One `by_method` entry (documentation).
pub static METHOD_COUNT: Shape = Shape {
    name: "MethodCount",
    members: &[
        member("method", Src::Const("\"\""), Ty::Str),
        member("count", Src::Const("0"), Ty::Int),
    ],
};

/// 4.18: human genes overlapping the region, ordered by (start, key); when none overlaps, the
/// gene with the largest end ≤ start and the one with the smallest start ≥ end (ties by key).
pub fn nearest_genes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let g = ctx.coll("genes");
    let Some(r) = p.region("region") else {
        return Err(ApiError::param("region", "region is required"));
    };
    let mut ords = Vec::new();
    if let (Some(g), Some(ix)) = (g, g.and_then(|c| c.intervals())) {
        let mut hits: Vec<(u32, u32)> = Vec::new();
        ix.for_each_overlap(&r.chr, r.start, r.end, |s, _, o| hits.push((s, o)));
        hits.sort_unstable();
        ords = hits.into_iter().map(|h| h.1).collect();
        if ords.is_empty() {
            if let Some((_, left)) = g.ends().and_then(|e| e.last_at_or_below(&r.chr, r.start)) {
                ords.extend(left.into_iter().min());
            }
            if let Some((_, right)) = ix.first_start_at_or_after(&r.chr, r.end) {
                ords.extend(right.into_iter().min());
            }
        }
    }
    Ok(ctx.render(p).array(g, &ords, &GENE).into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn test_annotation_members_follow_the_schema() {
        let names: Vec<&str> = super::ANNOTATIONS.members.iter().map(|m| m.name).collect();
        assert_eq!(&names[..32], varcat_indexer::schema::AF_SOURCES);
    }
}
