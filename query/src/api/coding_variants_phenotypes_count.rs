//! `/coding-variants/phenotypes-count` (the IGVF client\'s `coding_variants_count_from_gene`):
//! how many coding-variant phenotype scores a gene has, per method. IGVF reads a cache
//! collection; varcat counts the edges.

use std::collections::BTreeMap;

use crate::api::variants_region_summary::METHOD_COUNT;
use crate::engine::{Filter, Read};
use crate::handler::{Ctx, Reply};
use crate::params::{Organism, Params};
use crate::prelude::*;
use crate::sets;
use crate::vocab::genes;
use varcat_format::schema::{self, coding_variants, coding_variants_phenotypes as cvp};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/coding-variants/phenotypes-count",
    section: None,
    summary: "Coding-variant phenotype scores of a gene, counted per method",
    accepts: Accepts {
        params: &[&genes::GENE_ID, &FILESET],
        rules: &[Rule::Required(&genes::GENE_ID)],
        paging: Paging::Ignored,
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(phenotypes_count),
    body: Body::Array(&METHOD_COUNT),
    examples: &[
        "gene_id=ENSG90000000001",
        "gene_id=ENSG90000000001&files_fileset=IGVFFI9000TEST",
    ],
};

/// The coding-variant phenotype edges of the gene `gene_id` names (by its coding variants'
/// `gene_name`), with `files_fileset` when given, in key order.
pub fn gene_edges<'a>(ctx: &Ctx<'a>, gene_id: &str, fileset: Option<&str>) -> Filter<'a> {
    let g = genes::collection(ctx, Organism::Human);
    let names: Vec<String> = sets::keys(g, gene_id)
        .iter()
        .filter_map(|o| g?.str_of(o, schema::genes::m::name))
        .collect();
    let cv = ctx.coll(coding_variants::COLL);
    let mut nodes = Filter::over(cv);
    nodes.and(sets::exact_any(cv, coding_variants::m::gene_name, &names));
    let edges = ctx.coll(cvp::COLL);
    let mut f = Filter::over(edges);
    f.and(sets::adjacent_to(edges, cvp::m::_from, cv, nodes.lazy()));
    if let Some(fs) = fileset {
        f.and(sets::in_fileset(edges, cvp::m::files_filesets, fs));
    }
    f
}

/// Counts per method, in method (byte) order; an unknown gene has none.
fn phenotypes_count(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let gene = p.str(&genes::GENE_ID).unwrap_or_default();
    let f = gene_edges(ctx, gene, p.str(&FILESET));
    let edges = ctx.coll(cvp::COLL);
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for e in f.lazy() {
        if let Some(m) = edges.and_then(|c| c.str_of(e, cvp::m::method)) {
            *counts.entry(m).or_default() += 1;
        }
    }
    let rows: Vec<serde_json::Value> = counts
        .into_iter()
        .map(|(method, count)| serde_json::json!({"method": method, "count": count}))
        .collect();
    Ok(serde_json::to_vec(&rows).expect("serialises").into())
}

/// The score members of the coding-variant phenotype edges (one per dataset).
pub fn score_fields() -> [varcat_format::schema::Member; 5] {
    [
        cvp::m::esm_1v_score,
        cvp::m::pathogenicity_score,
        cvp::m::score,
        cvp::m::dualipa_abun_score,
        cvp::m::localization_score,
    ]
}
