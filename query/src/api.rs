//! The endpoint table: every route with its parameters, rules, paging, organisms, response
//! shape, handler and examples, each declared in the module named after its path
//! (`genes_variants` for `/genes/variants`) beside its handler. The router, the parameter
//! checks, the OpenAPI document and the landing page all read this one list. Adding an
//! endpoint is its module and one row in the table below (docs/DESIGN.md, "Adding an
//! endpoint").

/// `POST /llm-query`: declared apart from the table (a body, not a query string, and 501).
pub mod llm_query;

use crate::endpoint::Endpoint;
use crate::error::ApiError;
use crate::query::percent_decode;

/// Declares each row's path module and [`ENDPOINTS`]: a row is the module named after its path,
/// whose `ENDPOINT` it lists, then any further endpoint the module declares (`+ ALIAS`).
macro_rules! table {
    ($($module:ident $(+ $more:ident)*),* $(,)?) => {
        $(pub mod $module;)*

        /// Every endpoint, in the order the OpenAPI document and the landing page list them;
        /// each is declared in the module named after its path.
        pub static ENDPOINTS: &[&Endpoint] = &[$(&$module::ENDPOINT, $(&$module::$more,)*)*];
    };
}

table! {
    genomic_elements_variants,
    diseases_genes,
    genomic_elements_biosamples,
    pathways,
    ontology_terms_children,
    motifs_proteins,
    ontology_terms_transitive_closure,
    genes_variants,
    variants_phenotypes,
    variants_drugs,
    variants_predictions,
    variants_variant_ld_summary,
    variants_diseases,
    genes_proteins_variants,
    variants_genes_summary,
    genes_coding_variants_scores,
    variants_freq,
    variants_coding_variants,
    coding_variants_variants,
    variants_nearest_genes,
    variants_region_summary,
    transcripts_genes,
    genes_structure,
    proteins_genes,
    genes_proteins,
    genes,
    variants,
    proteins,
    transcripts,
    ontology_terms,
    drugs,
    complexes,
    studies,
    genomic_elements,
    motifs,
    coding_variants,
    files_filesets,
    coding_variants_phenotypes_count,
    genes_coding_variants_all_scores,
    coding_variants_phenotypes_score_summary + ALIAS,
    variants_predictions_count,
    variants_genes_proteins,
    genes_transcripts,
    transcripts_proteins,
    proteins_transcripts,
    variants_genes,
    variants_proteins,
    proteins_variants,
    variants_genomic_elements,
    genes_genomic_elements,
    genomic_elements_genes,
    genomic_elements_phenotypes,
    phenotypes_genomic_elements,
    gene_products_go_terms,
    go_terms_gene_products,
    coding_variants_phenotypes,
    phenotypes_coding_variants,
    proteins_motifs,
    variants_biosamples,
    variants_variant_ld,
    biosamples_variants,
    biosamples_genomic_elements,
    phenotypes_variants,
    diseases_variants,
    drugs_variants,
    genes_pathways,
    pathways_genes,
    pathways_pathways,
    complexes_proteins,
    proteins_complexes,
    ontology_terms_parents,
    genes_genes,
    proteins_proteins,
    genes_diseases,
    variants_summary,
    variants_gnomad_alleles,
    qtls,
    gene_regulatory_network,
    enhancer_gene_predictions,
    variants_genomic_elements_genes,
    variants_cell_gene_predictions,
    genomic_elements_genomic_elements,
    genes_proteins_genes_proteins,
    genes_transcripts_genes,
}

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
    // Template and path walked segment by segment: no vector per endpoint tried (this runs for
    // every request, over the whole table in the worst case).
    let slashes = |p: &str| p.bytes().filter(|&b| b == b'/').count();
    // Each template's depth, counted once for the process rather than on every request.
    static DEPTHS: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    let depths = DEPTHS.get_or_init(|| ENDPOINTS.iter().map(|ep| slashes(ep.path)).collect());
    let depth = slashes(path);
    'next: for (&ep, _) in ENDPOINTS.iter().zip(depths).filter(|(_, &d)| d == depth) {
        let mut params = Vec::new();
        for (t, s) in ep.path.split('/').zip(path.split('/')) {
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
