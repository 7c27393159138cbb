//! `/variants/summary` (the IGVF client\'s `variant_summary`): one object about one variant —
//! its identifiers, gnomAD frequencies, CADD scores, nearest gene and nearest protein-coding
//! gene, and how many edges of each variant data type (genes, drugs, …) leave it, per method and
//! biological context.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::engine::Read;
use crate::handler::{Ctx, Reply};
use crate::params::{Params, GENES};
use crate::prelude::*;
use crate::sets;
use crate::shape::{doc, Shape, Ty};
use crate::vocab::variants::{self, required_variants};
use varcat_format::collection::Collection;
use varcat_format::schema::{
    genes as gn, variants as vr, variants_biosamples as vb, variants_diseases as vd,
    variants_drugs as vdr, variants_genes as vg, variants_genomic_elements as vge,
    variants_phenotypes as vph, variants_proteins as vp,
};

/// Only the edges IGVF itself produced.
pub const IGVF_ONLY: Param = Param::new(
    "igvf_only",
    Kind::Bool,
    "count only edges whose source is IGVF in `annotations`",
);

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/summary",
    section: None,
    summary: "One variant: identifiers, gnomAD frequencies, CADD, nearest genes, edge counts",
    accepts: Accepts {
        params: &[
            &variants::SPDI,
            &variants::HGVS,
            &variants::CA_ID,
            &variants::VARIANT_ID,
            &variants::RSID,
            &IGVF_ONLY,
        ],
        rules: &[variants::ID_RULE],
        paging: Paging::Ignored,
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: Run::Handler(variant_summary),
    body: Body::Object(&VARIANT_SUMMARY),
    examples: &[
        "spdi=NC_000001.11:15000:A:G",
        "rsid=rs900001&igvf_only=true",
        "variant_id=NC_000020.11:9564577:A:T",
        "spdi=NC_000003.12:500:G:C",
    ],
};

/// A variant data type of `annotations`: its edge collection and the members read.
struct DataType {
    name: &'static str,
    coll: Coll,
    from: Member,
    method: Member,
    /// `biological_context`, when the collection has one.
    context: Option<Member>,
    source: Member,
}

/// The variant data types of `annotations`, in the client's order.
const DATA_TYPES: &[DataType] = &[
    DataType {
        name: "genes",
        coll: vg::COLL,
        from: vg::m::_from,
        method: vg::m::method,
        context: Some(vg::m::biological_context),
        source: vg::m::source,
    },
    DataType {
        name: "drugs",
        coll: vdr::COLL,
        from: vdr::m::_from,
        method: vdr::m::method,
        context: None,
        source: vdr::m::source,
    },
    DataType {
        name: "proteins",
        coll: vp::COLL,
        from: vp::m::_from,
        method: vp::m::method,
        context: Some(vp::m::biological_context),
        source: vp::m::source,
    },
    DataType {
        name: "diseases",
        coll: vd::COLL,
        from: vd::m::_from,
        method: vd::m::method,
        context: None,
        source: vd::m::source,
    },
    DataType {
        name: "phenotypes",
        coll: vph::COLL,
        from: vph::m::_from,
        method: vph::m::method,
        context: Some(vph::m::biological_context),
        source: vph::m::source,
    },
    DataType {
        name: "biosamples",
        coll: vb::COLL,
        from: vb::m::_from,
        method: vb::m::method,
        context: Some(vb::m::biological_context),
        source: vb::m::source,
    },
    DataType {
        name: "genomic_elements",
        coll: vge::COLL,
        from: vge::m::_from,
        method: vge::m::method,
        context: Some(vge::m::biological_context),
        source: vge::m::source,
    },
];

/// gnomAD's populations as IGVF names them, with the annotation suffix of each.
const POPULATIONS: &[(&str, &str)] = &[
    ("african", "afr"),
    ("amish", "ami"),
    ("ashkenazi_jewish", "asj"),
    ("east_asian", "eas"),
    ("finnish", "fin"),
    ("native_american", "amr"),
    ("non_finnish_european", "nfe"),
    ("other", "oth"),
    ("south_asian", "sas"),
];

/// The first identified variant (key order, as IGVF), or 404.
fn variant_summary(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let (v, ords) = required_variants(ctx, p)?;
    let (Some(vc), Some(&vo)) = (v, ords.first()) else {
        return Err(crate::error::ApiError::not_found("variant not found"));
    };
    let val = |m: Member| member_value(vc, vo, m);
    let ann = val(vr::m::annotations);
    let af = |k: &str| ann.get(k).cloned().unwrap_or(Value::Null);
    let mut gnomad = Map::new();
    for k in ["total", "male", "female", "raw"] {
        gnomad.insert(k.into(), af(&format!("gnomad_af_{k}")));
    }
    for (name, pop) in POPULATIONS {
        gnomad.insert(
            (*name).into(),
            json!({
                "total": af(&format!("gnomad_af_{pop}")),
                "male": af(&format!("gnomad_af_{pop}_male")),
                "female": af(&format!("gnomad_af_{pop}_female")),
            }),
        );
    }
    let pos = val(vr::m::pos).as_u64().unwrap_or(0);
    let chr = vc.str_of(vo, vr::m::chr).unwrap_or_default();
    let g = ctx.coll(p.organism.collection(GENES));
    let nearest =
        |coding: bool| match g.and_then(|g| Some((g, nearest_gene(g, &chr, pos, coding)?))) {
            Some((g, (o, distance))) => json!({
                "gene_name": member_value(g, o, gn::m::name),
                "id": sets::key(g, o).unwrap_or_default(),
                "start": member_value(g, o, gn::m::start),
                "end": member_value(g, o, gn::m::end),
                "distance": distance,
            }),
            // The client requires both objects: none on the chromosome is an empty one.
            None => json!({"gene_name": null, "id": "", "start": 0, "end": 0, "distance": 0}),
        };
    let handle = sets::handle(vc, vo).unwrap_or_default();
    let out = json!({
        "summary": {
            "rsid": val(vr::m::rsid),
            "varinfo": val(vr::m::varinfo),
            "spdi": val(vr::m::spdi),
            "hgvs": val(vr::m::hgvs),
            "ca_id": val(vr::m::ca_id),
            "ref": val(vr::m::r#ref),
            "alt": val(vr::m::alt),
            "pos": val(vr::m::pos),
        },
        "allele_frequencies_gnomad": gnomad,
        "cadd_scores": {"raw": val(vr::m::cadd_rawscore), "phread": val(vr::m::cadd_phred)},
        "nearest_genes": {"nearestCodingGene": nearest(true), "nearestGene": nearest(false)},
        "annotations": annotations(ctx, &handle, p.bool(&IGVF_ONLY).unwrap_or(false)),
    });
    Ok(serde_json::to_vec(&out).expect("serialises").into())
}

/// IGVF's distance of a gene to a position: to the nearer of its start and end.
fn distance(g: &Collection, o: u64, pos: u64) -> Option<u64> {
    let at = |m| member_value(g, o, m).as_u64();
    Some(
        pos.abs_diff(at(gn::m::start)?)
            .min(pos.abs_diff(at(gn::m::end)?)),
    )
}

/// The gene (protein-coding with `coding`) nearest to `pos` on `chr`, with its distance: among
/// those overlapping the position the one of least distance, else the nearer of the closest
/// on each side (ties: the smaller distance, then the left one, then the smaller ordinal).
fn nearest_gene(g: &Collection, chr: &str, pos: u64, coding: bool) -> Option<(u64, u64)> {
    let ix = g.intervals()?;
    let keep =
        |o: &u64| !coding || g.str_of(*o, gn::m::gene_type).as_deref() == Some("protein_coding");
    let p = u32::try_from(pos).ok()?;
    let best = |ords: &mut dyn Iterator<Item = u64>| {
        ords.filter(keep)
            .filter_map(|o| Some((distance(g, o, pos)?, o)))
            .min()
    };
    let overlapping = best(&mut ix.overlapping(chr, p, p.saturating_add(1)).into_iter());
    if let Some((d, o)) = overlapping {
        return Some((o, d));
    }
    // Left: the greatest end at or below the position, walking left past genes of other types.
    let mut left = None;
    if let Some(ends) = g.ends() {
        let mut at = p;
        while let Some((e, ords)) = ends.last_at_or_below(chr, at) {
            left = best(&mut ords.into_iter());
            if left.is_some() || e == 0 {
                break;
            }
            at = e - 1;
        }
    }
    let mut right = None;
    let mut at = p.saturating_add(1);
    while let Some((s, ords)) = ix.first_start_at_or_after(chr, at) {
        right = best(&mut ords.into_iter());
        if right.is_some() || s == u32::MAX {
            break;
        }
        at = s + 1;
    }
    let pick = match (left, right) {
        (Some(l), Some(r)) => Some(if r.0 < l.0 { r } else { l }),
        (l, r) => l.or(r),
    };
    pick.map(|(d, o)| (o, d))
}

/// Per data type, the edges leaving `handle`: their total and their counts per (method,
/// biological context), in that order; and the total over every type.
fn annotations(ctx: &Ctx<'_>, handle: &str, igvf_only: bool) -> Value {
    let mut out = Map::new();
    let mut all = 0u64;
    for &DataType {
        name,
        coll,
        from,
        method,
        context,
        source,
    } in DATA_TYPES
    {
        let e = ctx.coll(coll);
        let mut counts: BTreeMap<(Option<String>, Option<String>), u64> = BTreeMap::new();
        if let Some(c) = e {
            for o in sets::adjacent(e, from, [handle.to_string()]).iter() {
                if igvf_only && c.str_of(o, source).as_deref() != Some("IGVF") {
                    continue;
                }
                let key = (c.str_of(o, method), context.and_then(|m| c.str_of(o, m)));
                *counts.entry(key).or_insert(0) += 1;
            }
        }
        let total: u64 = counts.values().sum();
        all += total;
        let list: Vec<Value> = counts
            .into_iter()
            .map(|((m, b), n)| json!({"method": m, "biological_context": b, "count": n}))
            .collect();
        out.insert(
            name.into(),
            json!({"total": total, "methods_and_contexts": list}),
        );
    }
    out.insert("total".into(), json!(all));
    Value::Object(out)
}

const fn req(name: &'static str, ty: Ty) -> crate::shape::Member {
    doc(name, ty).required()
}

/// The `summary` member.
pub static SUMMARY: Shape = Shape {
    name: "VariantSummarySummary",
    members: &[
        doc("rsid", Ty::StrArr),
        doc("varinfo", Ty::Str),
        doc("spdi", Ty::Str),
        doc("hgvs", Ty::Str),
        doc("ca_id", Ty::Str),
        doc("ref", Ty::Str),
        doc("alt", Ty::Str),
        doc("pos", Ty::Int),
    ],
};

/// `cadd_scores`.
pub static CADD: Shape = Shape {
    name: "VariantSummaryCaddScores",
    members: &[doc("raw", Ty::Num), doc("phread", Ty::Num)],
};

/// One nearest gene.
pub static NEAREST: Shape = Shape {
    name: "VariantSummaryNearestGene",
    members: &[
        doc("gene_name", Ty::Str),
        req("id", Ty::Str),
        req("start", Ty::Int),
        req("end", Ty::Int),
        req("distance", Ty::Int),
    ],
};

/// `nearest_genes`.
pub static NEAREST_GENES: Shape = Shape {
    name: "VariantSummaryNearestGenes",
    members: &[
        req("nearestCodingGene", Ty::Obj(&NEAREST)),
        req("nearestGene", Ty::Obj(&NEAREST)),
    ],
};

/// One (method, biological context) count.
pub static METHOD_CONTEXT: Shape = Shape {
    name: "VariantSummaryMethodContext",
    members: &[
        doc("method", Ty::Str),
        doc("biological_context", Ty::Str),
        req("count", Ty::Int),
    ],
};

/// The counts of one data type.
pub static COUNTS: Shape = Shape {
    name: "VariantSummaryCounts",
    members: &[
        req("total", Ty::Int),
        req("methods_and_contexts", Ty::Arr(&METHOD_CONTEXT)),
    ],
};

/// `annotations`.
pub static ANNOTATIONS: Shape = Shape {
    name: "VariantSummaryAnnotations",
    members: &[
        req("genes", Ty::Obj(&COUNTS)),
        req("drugs", Ty::Obj(&COUNTS)),
        req("proteins", Ty::Obj(&COUNTS)),
        req("diseases", Ty::Obj(&COUNTS)),
        req("phenotypes", Ty::Obj(&COUNTS)),
        req("biosamples", Ty::Obj(&COUNTS)),
        req("genomic_elements", Ty::Obj(&COUNTS)),
        req("total", Ty::Int),
    ],
};

/// The client's `VariantSummary` (written by the handler; the shape documents it).
pub static VARIANT_SUMMARY: Shape = Shape {
    name: "VariantSummary",
    members: &[
        req("summary", Ty::Obj(&SUMMARY)),
        doc("allele_frequencies_gnomad", Ty::Any),
        doc("cadd_scores", Ty::Obj(&CADD)),
        req("nearest_genes", Ty::Obj(&NEAREST_GENES)),
        req("annotations", Ty::Obj(&ANNOTATIONS)),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use varcat_format::indexes::IndexKind;
    use varcat_format::schema::check_read;

    /// Each counted edge collection stores the `_from` map read.
    #[test]
    fn test_data_type_edges_are_indexed() {
        for t in DATA_TYPES {
            check_read(t.coll.name(), t.from, Some(IndexKind::exact(t.from.name()))).unwrap();
        }
    }
}
