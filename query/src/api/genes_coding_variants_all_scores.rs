//! `/genes/coding-variants/all-scores` (the IGVF client\'s `all_coding_variants_from_genes`):
//! every score of one dataset (method) over a gene's coding variants, highest first.

use crate::api::coding_variants_phenotypes_count::gene_edges;
use crate::engine::Read;
use crate::handler::{member_value, Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::vocab::genes;
use varcat_format::schema::{coding_variants_phenotypes as cvp, Member};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/coding-variants/all-scores",
    section: None,
    summary: "Every score of one dataset over a gene's coding variants, highest first",
    accepts: Accepts {
        params: &[&genes::GENE_ID, &DATASET],
        rules: &[Rule::Required(&genes::GENE_ID), Rule::Required(&DATASET)],
        paging: Paging::Paged {
            default: 500,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(all_scores),
    body: Body::Numbers,
    examples: &[
        "gene_id=ENSG90000000001&dataset=ESM-1v",
        "gene_id=ENSG90000000001&dataset=SGE",
    ],
};

/// Dataset (score method).
pub const DATASET: Param = Param::new(
    "dataset",
    Kind::Enum(SCORE_METHODS),
    "the dataset (score method) whose scores are listed",
);

/// The score member of a dataset's edges.
pub fn score_member(dataset: &str) -> Member {
    match dataset {
        "ESM-1v" => cvp::m::esm_1v_score,
        "MutPred2" => cvp::m::pathogenicity_score,
        "DUAL-IPA" => cvp::m::dualipa_abun_score,
        "Variant painting via fluorescence" => cvp::m::localization_score,
        // SGE, VAMP-seq.
        _ => cvp::m::score,
    }
}

/// The scores, descending (ties in edge-key order), null scores left out, paged.
fn all_scores(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let gene = p.str(&genes::GENE_ID).unwrap_or_default();
    let dataset = p.str(&DATASET).unwrap_or_default();
    let Some(edges) = ctx.coll(cvp::COLL) else {
        return Ok(b"[]".to_vec().into());
    };
    let m = score_member(dataset);
    let f = gene_edges(ctx, gene, None);
    let mut scores: Vec<serde_json::Value> = f
        .lazy()
        .filter(|&e| edges.str_of(e, cvp::m::method).as_deref() == Some(dataset))
        .map(|e| member_value(edges, e, m))
        .filter(|v| v.as_f64().is_some())
        .collect();
    // Stable: equal scores keep their edge-key order.
    scores.sort_by(|a, b| {
        let (a, b) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
        b.total_cmp(&a)
    });
    let (page, more) = crate::params::window(scores, p);
    Ok(crate::handler::Answer::page(
        serde_json::to_vec(&page).expect("serialises"),
        more,
    ))
}
