//! The endpoint table: every route with its parameters, rules, paging, organisms, response
//! shape, handler and examples, each declared in the module named after its path
//! (`genes_variants` for `/genes/variants`) beside its handler. The router, the parameter
//! checks, the OpenAPI document and the landing page all read this one list. Adding an
//! endpoint is its module and one line in [`ENDPOINTS`].

pub mod biosamples_genomic_elements;
pub mod biosamples_variants;
pub mod coding_variants;
pub mod coding_variants_phenotypes;
pub mod coding_variants_phenotypes_count;
pub mod coding_variants_phenotypes_score_summary;
pub mod coding_variants_variants;
pub mod complexes;
pub mod complexes_proteins;
pub mod diseases_genes;
pub mod diseases_variants;
pub mod drugs;
pub mod drugs_variants;
pub mod enhancer_gene_predictions;
pub mod files_filesets;
pub mod gene_products_go_terms;
pub mod gene_regulatory_network;
pub mod genes;
pub mod genes_coding_variants_all_scores;
pub mod genes_coding_variants_scores;
pub mod genes_diseases;
pub mod genes_genes;
pub mod genes_genomic_elements;
pub mod genes_pathways;
pub mod genes_proteins;
pub mod genes_proteins_genes_proteins;
pub mod genes_proteins_variants;
pub mod genes_structure;
pub mod genes_transcripts;
pub mod genes_transcripts_genes;
pub mod genes_variants;
pub mod genomic_elements;
pub mod genomic_elements_biosamples;
pub mod genomic_elements_genes;
pub mod genomic_elements_genomic_elements;
pub mod genomic_elements_phenotypes;
pub mod genomic_elements_variants;
pub mod go_terms_gene_products;
pub mod llm_query;
pub mod motifs;
pub mod motifs_proteins;
pub mod ontology_terms;
pub mod ontology_terms_children;
pub mod ontology_terms_parents;
pub mod ontology_terms_transitive_closure;
pub mod pathways;
pub mod pathways_genes;
pub mod pathways_pathways;
pub mod phenotypes_coding_variants;
pub mod phenotypes_genomic_elements;
pub mod phenotypes_variants;
pub mod proteins;
pub mod proteins_complexes;
pub mod proteins_genes;
pub mod proteins_motifs;
pub mod proteins_proteins;
pub mod proteins_transcripts;
pub mod proteins_variants;
pub mod qtls;
pub mod studies;
pub mod transcripts;
pub mod transcripts_genes;
pub mod transcripts_proteins;
pub mod variants;
pub mod variants_biosamples;
pub mod variants_cell_gene_predictions;
pub mod variants_coding_variants;
pub mod variants_diseases;
pub mod variants_drugs;
pub mod variants_freq;
pub mod variants_genes;
pub mod variants_genes_proteins;
pub mod variants_genes_summary;
pub mod variants_genomic_elements;
pub mod variants_genomic_elements_genes;
pub mod variants_gnomad_alleles;
pub mod variants_nearest_genes;
pub mod variants_phenotypes;
pub mod variants_predictions;
pub mod variants_predictions_count;
pub mod variants_proteins;
pub mod variants_region_summary;
pub mod variants_summary;
pub mod variants_variant_ld;
pub mod variants_variant_ld_summary;

use crate::endpoint::Endpoint;
use crate::error::ApiError;
use crate::query::percent_decode;

/// Every endpoint, in the order the OpenAPI document and the landing page list them; each is
/// declared in the module named after its path.
pub static ENDPOINTS: &[&Endpoint] = &[
    &genomic_elements_variants::ENDPOINT,
    &diseases_genes::ENDPOINT,
    &genomic_elements_biosamples::ENDPOINT,
    &pathways::ENDPOINT,
    &ontology_terms_children::ENDPOINT,
    &motifs_proteins::ENDPOINT,
    &ontology_terms_transitive_closure::ENDPOINT,
    &genes_variants::ENDPOINT,
    &variants_phenotypes::ENDPOINT,
    &variants_drugs::ENDPOINT,
    &variants_predictions::ENDPOINT,
    &variants_variant_ld_summary::ENDPOINT,
    &variants_diseases::ENDPOINT,
    &genes_proteins_variants::ENDPOINT,
    &variants_genes_summary::ENDPOINT,
    &genes_coding_variants_scores::ENDPOINT,
    &variants_freq::ENDPOINT,
    &variants_coding_variants::ENDPOINT,
    &coding_variants_variants::ENDPOINT,
    &variants_nearest_genes::ENDPOINT,
    &variants_region_summary::ENDPOINT,
    &transcripts_genes::ENDPOINT,
    &genes_structure::ENDPOINT,
    &proteins_genes::ENDPOINT,
    &genes_proteins::ENDPOINT,
    &genes::ENDPOINT,
    &variants::ENDPOINT,
    &proteins::ENDPOINT,
    &transcripts::ENDPOINT,
    &ontology_terms::ENDPOINT,
    &drugs::ENDPOINT,
    &complexes::ENDPOINT,
    &studies::ENDPOINT,
    &genomic_elements::ENDPOINT,
    &motifs::ENDPOINT,
    &coding_variants::ENDPOINT,
    &files_filesets::ENDPOINT,
    &coding_variants_phenotypes_count::ENDPOINT,
    &genes_coding_variants_all_scores::ENDPOINT,
    &coding_variants_phenotypes_score_summary::ENDPOINT,
    &coding_variants_phenotypes_score_summary::ALIAS,
    &variants_predictions_count::ENDPOINT,
    &variants_genes_proteins::ENDPOINT,
    &genes_transcripts::ENDPOINT,
    &transcripts_proteins::ENDPOINT,
    &proteins_transcripts::ENDPOINT,
    &variants_genes::ENDPOINT,
    &variants_proteins::ENDPOINT,
    &proteins_variants::ENDPOINT,
    &variants_genomic_elements::ENDPOINT,
    &genes_genomic_elements::ENDPOINT,
    &genomic_elements_genes::ENDPOINT,
    &genomic_elements_phenotypes::ENDPOINT,
    &phenotypes_genomic_elements::ENDPOINT,
    &gene_products_go_terms::ENDPOINT,
    &go_terms_gene_products::ENDPOINT,
    &coding_variants_phenotypes::ENDPOINT,
    &phenotypes_coding_variants::ENDPOINT,
    &proteins_motifs::ENDPOINT,
    &variants_biosamples::ENDPOINT,
    &variants_variant_ld::ENDPOINT,
    &biosamples_variants::ENDPOINT,
    &biosamples_genomic_elements::ENDPOINT,
    &phenotypes_variants::ENDPOINT,
    &diseases_variants::ENDPOINT,
    &drugs_variants::ENDPOINT,
    &genes_pathways::ENDPOINT,
    &pathways_genes::ENDPOINT,
    &pathways_pathways::ENDPOINT,
    &complexes_proteins::ENDPOINT,
    &proteins_complexes::ENDPOINT,
    &ontology_terms_parents::ENDPOINT,
    &genes_genes::ENDPOINT,
    &proteins_proteins::ENDPOINT,
    &genes_diseases::ENDPOINT,
    &variants_summary::ENDPOINT,
    &variants_gnomad_alleles::ENDPOINT,
    &qtls::ENDPOINT,
    &gene_regulatory_network::ENDPOINT,
    &enhancer_gene_predictions::ENDPOINT,
    &variants_genomic_elements_genes::ENDPOINT,
    &variants_cell_gene_predictions::ENDPOINT,
    &genomic_elements_genomic_elements::ENDPOINT,
    &genes_proteins_genes_proteins::ENDPOINT,
    &genes_transcripts_genes::ENDPOINT,
];

/// A matched endpoint with its decoded path parameters.
pub type Routed = (&'static Endpoint, Vec<(&'static str, String)>);

/// Finds the endpoint of `path` (below the base path): literal segments compare ASCII
/// case-insensitively (as trpc-openapi does), one trailing `/` is ignored, and path parameters
/// are percent-decoded once.
pub fn route(path: &str) -> Option<Result<Routed, ApiError>> {
    let path = path
        .strip_suffix('/')
        .filter(|p| !p.is_empty())
        .unwrap_or(path);
    let segs: Vec<&str> = path.split('/').collect();
    'next: for &ep in ENDPOINTS {
        let tmpl: Vec<&'static str> = ep.path.split('/').collect();
        if tmpl.len() != segs.len() {
            continue;
        }
        let mut params = Vec::new();
        for (t, s) in tmpl.iter().zip(&segs) {
            if let Some(name) = t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                if s.is_empty() {
                    continue 'next;
                }
                match percent_decode(s, false) {
                    Ok(v) => params.push((name, v)),
                    Err(why) => {
                        return Some(Err(ApiError::param(
                            name,
                            format!("{name} is {why}: {s:?}"),
                        )))
                    }
                }
            } else if !t.eq_ignore_ascii_case(s) {
                continue 'next;
            }
        }
        return Some(Ok((ep, params)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Param, Rule};
    use std::mem::discriminant;

    /// True when `ep` declares `p` (same name, same kind of value).
    fn declares(ep: &Endpoint, p: &Param) -> bool {
        ep.accepts
            .params
            .iter()
            .any(|a| a.name == p.name && discriminant(&a.kind) == discriminant(&p.kind))
    }

    #[test]
    fn test_rules_and_paths_name_only_declared_parameters() {
        for ep in ENDPOINTS {
            for rule in ep.accepts.rules {
                let named: &[&Param] = match rule {
                    Rule::AtLeastOne(ps) => ps,
                    Rule::Required(p) => std::slice::from_ref(p),
                };
                for p in named {
                    assert!(declares(ep, p), "{}: a rule names {}", ep.path, p.name);
                }
            }
            for seg in ep.path.split('/') {
                if let Some(name) = seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                    assert!(
                        ep.accepts.params.iter().any(|p| p.name == name),
                        "{}: path parameter {name} undeclared",
                        ep.path
                    );
                }
            }
            let mut names: Vec<&str> = ep
                .accepts
                .params
                .iter()
                .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()))
                .collect();
            let n = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), n, "{}: a name declared twice", ep.path);
        }
    }
}
