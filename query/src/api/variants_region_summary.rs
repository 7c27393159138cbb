//! 4.25 `/variants/region-summary`: the number of variants in a region and of their
//! associations per method.

use crate::error::ApiError;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{member, Shape, Src, Ty};
use serde_json::json;
use std::collections::BTreeMap;
use varcat_format::schema::{
    self, variants_biosamples as vb, variants_genes as vg, variants_genomic_elements as vge,
    variants_phenotypes as vph, variants_proteins as vp,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/region-summary",
    section: Some("4.25"),
    summary: "Number of variants in a region and of their associations per method",
    accepts: Accepts {
        params: &[&variants::REGION_SPAN_10KB],
        rules: &[Rule::Required(&variants::REGION_SPAN_10KB)],
        paging: Paging::Ignored,
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(region_summary),
    body: Body::Object(&REGION_SUMMARY),
    examples: &["region=chr1:15000-25000", "region=chr20:9564500-9574500"],
};

/// The variant edge collections whose methods 4.25 counts.
pub const SUMMARY_EDGES: &[(Coll, Member, Member)] = &[
    (vg::COLL, vg::m::_from, vg::m::method),
    (vp::COLL, vp::m::_from, vp::m::method),
    (vb::COLL, vb::m::_from, vb::m::method),
    (vge::COLL, vge::m::_from, vge::m::method),
    (vph::COLL, vph::m::_from, vph::m::method),
];

/// 4.25: the number of variants in a region, and the number of their edges per method.
pub fn region_summary(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let v = ctx.coll(schema::variants::COLL);
    let Some(r) = p.region(&variants::REGION_SPAN_10KB) else {
        return Err(ApiError::param("region", "region is required"));
    };
    let ords = sets::within(v, r).to_vec();
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for &(edges, from, method) in SUMMARY_EDGES {
        let Some(e) = ctx.coll(edges) else { continue };
        let Some(methods) = sets::facet_map(e, method) else {
            continue;
        };
        // The region's edges of this collection, then one intersection count per method
        // (most variants have no edge; the methods' bitmaps are walked once, not per variant).
        let region = sets::adjacent_to(Some(e), from, v, ords.iter().copied()).to_vec();
        if region.is_empty() {
            continue;
        }
        for (method, bm) in methods.values() {
            let n = region.iter().filter(|&&x| bm.contains(x)).count() as u64;
            if n > 0 {
                *counts.entry(method.to_string()).or_insert(0) += n;
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

#[cfg(test)]
mod tests {
    use super::*;
    use varcat_format::indexes::IndexKind;
    use varcat_format::schema::check_read;

    /// Each summarised edge collection stores the `_from` map and the `method` facet read.
    #[test]
    fn test_summary_edges_are_indexed() {
        for &(edges, from, method) in SUMMARY_EDGES {
            check_read(edges.name(), from, Some(IndexKind::Adj)).unwrap();
            check_read(edges.name(), method, Some(IndexKind::Facet)).unwrap();
        }
    }
}
