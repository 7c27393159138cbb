//! The endpoint groups' query targets, from the generator's plan.

use crate::synth::{self, Plan, Rng};

/// The query targets of a group: `n` URLs, deterministic.
pub fn urls(plan: &Plan, group: &str, n: usize) -> Vec<String> {
    let mut rng = Rng::new(synth::hash(&[
        plan.seed,
        99,
        group.len() as u64,
        group.as_bytes()[0] as u64,
    ]));
    let region = |rng: &mut Rng| {
        let c = plan.chrom_of(rng.below(plan.variants));
        let s = synth::ORIGIN + rng.below((c.span - synth::ORIGIN).saturating_sub(10_000).max(1));
        format!("{}:{s}-{}", c.name, s + 10_000)
    };
    let rsid = |rng: &mut Rng| loop {
        if let Some(r) = synth::rsid(rng.below(plan.variants)) {
            return r;
        }
    };
    // The large genes, inside their chromosome's variants (any gene if a tiny plan has none).
    let mut dense: Vec<u64> = Vec::new();
    if group == "scores" {
        let genes = plan
            .chroms
            .iter()
            .flat_map(|c| (0..c.genes).map(move |g| (c, plan.gene(c, g))));
        dense = genes
            .filter(|(c, g)| synth::dense_coding(g) && g.end <= c.span)
            .map(|(_, g)| g.gg)
            .collect();
        if dense.is_empty() {
            dense = (0..plan.genes.max(1)).collect();
        }
    }
    (0..n)
        .map(|_| match group {
            "point" => format!("/api/variants/freq?source=bravo_af&rsid={}", rsid(&mut rng)),
            "region" => format!(
                "/api/variants/freq?source=bravo_af&region={}&limit=100",
                region(&mut rng)
            ),
            "assoc" => format!(
                "/api/genes/variants?gene_id={}&method=eQTL&neg_log10_pvalue=gte:2",
                synth::gene_id(rng.below(plan.genes))
            ),
            "verbose" => format!(
                "/api/genes/variants?gene_id={}&method=eQTL&verbose=true&limit=10",
                synth::gene_id(rng.below(plan.genes))
            ),
            "name" => format!(
                "/api/genes/proteins?gene_name={}",
                synth::symbol(rng.below(plan.genes)).to_lowercase()
            ),
            "closure" => {
                let o = rng.below(synth::ONTOLOGIES.len() as u64) as usize;
                let k = plan.terms / 2 + rng.below(plan.terms / 2);
                let end = synth::term_parent(synth::term_parent(k).max(2));
                format!(
                    "/api/ontology-terms/{}/transitive-closure/{}",
                    synth::term(o, k),
                    synth::term(o, end)
                )
            }
            "summary" => format!("/api/variants/region-summary?region={}", region(&mut rng)),
            // A broad trait: one of the two common GWAS terms (EFO, HP), a full page of 100.
            "phenotype" => format!(
                "/api/phenotypes/variants?phenotype_id={}&limit=100",
                synth::term(if rng.chance(0.5) { 0 } else { 7 }, synth::COMMON_TRAIT)
            ),
            // Every ESM-1v score of a large gene: one whose every SNV is a coding variant.
            "scores" => format!(
                "/api/genes/coding-variants/all-scores?gene_id={}&dataset=ESM-1v",
                synth::gene_id(*rng.pick(&dense))
            ),
            // A node look-up by name, as the MCP server resolves a gene symbol.
            "lookup" => format!("/api/genes?name={}", synth::symbol(rng.below(plan.genes))),
            // The catalog's metadata: the HTTP path with the least handler work.
            "health" => "/api/health".to_string(),
            _ => unreachable!("groups are checked"),
        })
        .collect()
}
