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

/// Most segments a routed path has (`/a/b/c` has 4, the empty one before the first `/`
/// included); a deeper path matches no template.
const MAX_SEGMENTS: usize = 8;

/// One segment of a template: a literal or a path parameter's name.
#[derive(Clone, Copy)]
enum Segment {
    Literal(&'static str),
    Param(&'static str),
}

/// An endpoint with its template split into segments.
type Template = (&'static Endpoint, Vec<Segment>);

/// Every template split into segments once for the process, grouped by segment count, each
/// group in table order (the first template that matches a path is its route).
fn templates() -> &'static [Vec<Template>] {
    static BY_DEPTH: std::sync::OnceLock<Vec<Vec<Template>>> = std::sync::OnceLock::new();
    BY_DEPTH.get_or_init(|| {
        let mut by_depth = vec![Vec::new(); MAX_SEGMENTS + 1];
        for &ep in ENDPOINTS {
            let segs: Vec<Segment> = ep
                .path
                .split('/')
                .map(
                    |t| match t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                        Some(name) => Segment::Param(name),
                        None => Segment::Literal(t),
                    },
                )
                .collect();
            assert!(segs.len() <= MAX_SEGMENTS, "{}: too deep to route", ep.path);
            by_depth[segs.len()].push((ep, segs));
        }
        by_depth
    })
}

/// Finds the endpoint of `path` (below the base path): literal segments compare ASCII
/// case-insensitively (as trpc-openapi does), one trailing `/` is ignored, and path parameters
/// are percent-decoded once.
pub fn route(path: &str) -> Option<Result<Routed, ApiError>> {
    let path = path
        .strip_suffix('/')
        .filter(|p| !p.is_empty())
        .unwrap_or(path);
    // The path is split once and compared with templates split once for the process: this
    // runs for every request, over every template of the path's depth in the worst case.
    let mut segs = [""; MAX_SEGMENTS];
    let mut depth = 0;
    for s in path.split('/') {
        *segs.get_mut(depth)? = s;
        depth += 1;
    }
    let segs = &segs[..depth];
    'next: for (ep, template) in &templates()[depth] {
        for (t, s) in template.iter().zip(segs) {
            match *t {
                Segment::Literal(l) if !l.eq_ignore_ascii_case(s) => continue 'next,
                Segment::Param(_) if s.is_empty() => continue 'next,
                _ => {}
            }
        }
        let mut params = Vec::new();
        for (t, s) in template.iter().zip(segs) {
            if let Segment::Param(name) = *t {
                match percent_decode(s, false) {
                    Ok(v) => params.push((name, v)),
                    Err(why) => {
                        return Some(Err(ApiError::param(
                            name,
                            format!("{name} is {why}: {s:?}"),
                        )))
                    }
                }
            }
        }
        return Some(Ok((*ep, params)));
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

    /// Each template's path, the same upper-cased, with a trailing `/`, with its parameters
    /// filled (one percent-encoded), and near misses, all route to what the first matching
    /// template of the table says (a plain walk over the table, as the router once was).
    #[test]
    fn test_the_router_answers_as_a_walk_over_the_table() {
        fn walk(path: &str) -> Option<(&'static str, Vec<(&'static str, String)>)> {
            let path = path
                .strip_suffix('/')
                .filter(|p| !p.is_empty())
                .unwrap_or(path);
            'next: for &ep in ENDPOINTS {
                let (t, p): (Vec<&str>, Vec<&str>) =
                    (ep.path.split('/').collect(), path.split('/').collect());
                if t.len() != p.len() {
                    continue;
                }
                let mut params = Vec::new();
                for (t, s) in t.iter().zip(&p) {
                    match t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                        Some(_) if s.is_empty() => continue 'next,
                        Some(name) => params.push((name, percent_decode(s, false).unwrap())),
                        None if !t.eq_ignore_ascii_case(s) => continue 'next,
                        None => {}
                    }
                }
                return Some((ep.path, params));
            }
            None
        }
        let mut paths = vec![
            "".to_string(),
            "/".into(),
            "//".into(),
            "/a/b/c/d/e/f/g/h/i".into(),
        ];
        for ep in ENDPOINTS {
            let filled = ep
                .path
                .split('/')
                .map(|t| if t.starts_with('{') { "GO%3A0001" } else { t })
                .collect::<Vec<_>>()
                .join("/");
            for p in [ep.path.to_string(), filled.clone()] {
                paths.push(p.to_uppercase());
                paths.push(format!("{p}/"));
                paths.push(format!("{p}x"));
                paths.push(format!("{p}/x"));
                paths.push(p.replace('/', "//"));
                paths.push(p);
            }
        }
        for p in &paths {
            let got = route(p).map(|r| r.map(|(ep, params)| (ep.path, params)).ok().unwrap());
            assert_eq!(got, walk(p), "{p}");
        }
        let Some(Ok((ep, params))) = route("/ontology-terms/GO%3A0001/parents") else {
            panic!("not routed");
        };
        assert_eq!(
            (ep.path, params),
            (
                "/ontology-terms/{ontology_term_id}/parents",
                vec![("ontology_term_id", "GO:0001".to_string())]
            )
        );
        assert!(matches!(route("/ontology-terms/%ZZ/parents"), Some(Err(_))));
        // A template whose literals do not match names no parameter, however bad.
        assert!(route("/ontology-terms/%ZZ/cousins").is_none());
    }
}
