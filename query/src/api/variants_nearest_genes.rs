//! 4.18 `/variants/nearest-genes`: the genes overlapping a region, else the nearest gene on
//! each side.

use crate::error::ApiError;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::vocab::shapes;
use crate::vocab::shapes::GENE;
use varcat_format::schema::genes;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/nearest-genes",
    section: Some("4.18"),
    summary: "Genes overlapping a region, else the nearest gene on each side",
    accepts: Accepts {
        params: &[&variants::REGION_SPAN_10KB],
        rules: &[Rule::Required(&variants::REGION_SPAN_10KB)],
        paging: Paging::Ignored,
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(nearest_genes),
    body: Body::Array(&shapes::GENE),
    examples: &["region=chr20:9564500-9564600", "region=chr1:25000-25010"],
};

/// 4.18: human genes overlapping the region, ordered by (start, key); when none overlaps, the
/// gene with the largest end ≤ start and the one with the smallest start ≥ end (ties by key).
pub fn nearest_genes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let g = ctx.coll(genes::COLL);
    let Some(r) = p.region(&variants::REGION_SPAN_10KB) else {
        return Err(ApiError::param("region", "region is required"));
    };
    let mut ords = Vec::new();
    if let (Some(g), Some(ix)) = (g, g.and_then(|c| c.intervals())) {
        let mut hits: Vec<(u32, u64)> = Vec::new();
        ix.for_each_overlap(r.chr(), r.start(), r.end(), |s, _, o| hits.push((s, o)));
        hits.sort_unstable();
        ords = hits.into_iter().map(|h| h.1).collect();
        if ords.is_empty() {
            if let Some((_, left)) = g
                .ends()
                .and_then(|e| e.last_at_or_below(r.chr(), r.start()))
            {
                ords.extend(left.into_iter().min());
            }
            if let Some((_, right)) = ix.first_start_at_or_after(r.chr(), r.end()) {
                ords.extend(right.into_iter().min());
            }
        }
    }
    Ok(ctx.render(p).array(g, &ords, &GENE).into())
}
