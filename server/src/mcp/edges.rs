//! The relationships the tools follow: each edge endpoint of the interface (keyed as IGVF's MCP
//! server keys them, so `list_sources` and `query_metadata` name the same endpoints), what it
//! starts from, the data sources behind it, the filters passed on to it, and which endpoints
//! answer each relationship kind for each entity type. Values a `source`, `method` or `label`
//! filter may take are read from the endpoint's own parameter definitions, not kept here.

use varcat_query::api;
use varcat_query::params::{Kind, Paging};

/// How a filter's value is passed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterKind {
    /// A number or an operator string (`gt:0.7`).
    Range,
    /// Passed as given.
    Text,
    /// Passed as given; the endpoint checks it against its values.
    Enum,
}

impl FilterKind {
    /// The name `list_sources` shows.
    pub fn name(self) -> &'static str {
        match self {
            FilterKind::Range => "range",
            FilterKind::Text => "string",
            FilterKind::Enum => "enum",
        }
    }
}

/// One edge endpoint.
pub struct Edge {
    /// Key (`variants_genes`).
    pub key: &'static str,
    /// The IGVF generated client's method for it (shown by `list_sources`).
    pub client_method: &'static str,
    /// Path under the base path.
    pub path: &'static str,
    /// Entity type it starts from.
    pub from: &'static str,
    /// Entity type it leads to.
    pub to: &'static str,
    /// Parameters that name the starting entity.
    pub from_params: &'static [&'static str],
    /// Data sources behind it.
    pub sources: &'static [&'static str],
    /// Filters passed on, by name.
    pub filters: &'static [(&'static str, FilterKind)],
    /// Largest page asked for.
    pub max_limit: u64,
}

const GENE: &[&str] = &["gene_id", "gene_name", "hgnc_id", "synonym"];
const PROTEIN: &[&str] = &[
    "protein_id",
    "protein_name",
    "uniprot_name",
    "uniprot_full_name",
    "dbxrefs",
];
const VARIANT: &[&str] = &["variant_id", "spdi", "hgvs", "rsid", "ca_id"];
const VARIANT_OR_REGION: &[&str] = &["variant_id", "spdi", "hgvs", "rsid", "ca_id", "region"];

use FilterKind::{Enum, Range, Text};
const QTL_FILTERS: &[(&str, FilterKind)] = &[
    ("neg_log10_pvalue", Range),
    ("effect_size", Range),
    ("biological_context", Text),
    ("files_fileset", Text),
];
const QTL_SOURCES: &[&str] = &["AFGR", "EBI", "IGVF"];
const VP_SOURCES: &[&str] = &["ADASTRA", "GVATdb", "IGVF", "UKB"];
const FILESET: &[(&str, FilterKind)] = &[("files_fileset", Text)];
const E2G: &[&str] = &["ENCODE", "IGVF"];

macro_rules! edge {
    ($key:literal, $method:literal, $path:literal, $from:literal -> $to:literal,
     $params:expr, $sources:expr, $filters:expr, $max:literal) => {
        Edge {
            key: $key,
            client_method: $method,
            path: $path,
            from: $from,
            to: $to,
            from_params: $params,
            sources: $sources,
            filters: $filters,
            max_limit: $max,
        }
    };
}

/// Every edge endpoint the tools know.
pub static EDGES: &[Edge] = &[
    edge!("variants_genes", "genes_from_variants", "/variants/genes", "variant" -> "gene",
          VARIANT, QTL_SOURCES, QTL_FILTERS, 500),
    edge!("genes_variants", "variants_from_genes", "/genes/variants", "gene" -> "variant",
          GENE, QTL_SOURCES, QTL_FILTERS, 500),
    edge!("variants_proteins", "proteins_from_variants", "/variants/proteins", "variant" -> "protein",
          VARIANT_OR_REGION, VP_SOURCES, FILESET, 100),
    edge!("proteins_variants", "variants_from_proteins", "/proteins/variants", "protein" -> "variant",
          PROTEIN, VP_SOURCES, FILESET, 100),
    edge!("variants_phenotypes", "phenotypes_from_variants", "/variants/phenotypes", "variant" -> "ontology",
          VARIANT_OR_REGION, &["OpenTargets", "IGVF"],
          &[("neg_log10_pvalue", Range), ("phenotype_id", Text), ("files_fileset", Text)], 100),
    edge!("phenotypes_variants", "variants_from_phenotypes", "/phenotypes/variants", "ontology" -> "variant",
          &["phenotype_id", "phenotype_name"], &["IGVF", "OpenTargets"],
          &[("neg_log10_pvalue", Range), ("files_fileset", Text)], 100),
    edge!("variants_drugs", "drugs_from_variants", "/variants/drugs", "variant" -> "drug",
          VARIANT, &["PharmGKB"], &[("pmid", Text), ("phenotype_categories", Enum)], 100),
    edge!("drugs_variants", "variants_from_drugs", "/drugs/variants", "drug" -> "variant",
          &["drug_id", "drug_name"], &["PharmGKB"],
          &[("pmid", Text), ("phenotype_categories", Enum)], 100),
    edge!("variants_diseases", "disease_from_variants", "/variants/diseases", "variant" -> "ontology",
          VARIANT, &["ClinGen"], &[("assertion", Enum), ("pmid", Text)], 100),
    edge!("genes_diseases", "diseases_from_genes", "/genes/diseases", "gene" -> "ontology",
          GENE, &["GenCC", "Orphanet", "ClinGen"], &[], 25),
    edge!("diseases_genes", "genes_from_diseases", "/diseases/genes", "ontology" -> "gene",
          &["disease_id", "disease_name"], &["GenCC", "Orphanet"], &[], 100),
    edge!("genes_genes", "genes_genes", "/genes/genes", "gene" -> "gene",
          GENE, &["BioGRID", "COXPRESdb"], &[("z_score", Range), ("interaction_type", Enum)], 100),
    edge!("proteins_proteins", "proteins_proteins", "/proteins/proteins", "protein" -> "protein",
          PROTEIN, &["BioGRID", "BioGRID; IntAct", "IntAct"], &[("interaction_type", Enum)], 250),
    edge!("complexes_proteins", "proteins_from_complexes", "/complexes/proteins", "complex" -> "protein",
          &["complex_id", "complex_name", "description"], &["EBI Complex Portal"], &[], 50),
    // A bare UniProt accession narrows this endpoint's query but cannot start it: it is
    // resolved to the protein's UniProt names instead.
    edge!("proteins_complexes", "complexes_from_proteins", "/proteins/complexes", "protein" -> "complex",
          &["protein_id", "protein_name", "uniprot_name", "uniprot_full_name"],
          &["EBI Complex Portal"], &[], 100),
    edge!("genes_pathways", "pathways_from_genes", "/genes/pathways", "gene" -> "pathway",
          GENE, &["Reactome"], &[], 500),
    edge!("genes_transcripts", "transcripts_from_genes", "/genes/transcripts", "gene" -> "transcript",
          GENE, &["GENCODE"], &[], 100),
    edge!("transcripts_genes", "genes_from_transcripts", "/transcripts/genes", "transcript" -> "gene",
          &["transcript_id", "region"], &["GENCODE"], &[], 100),
    edge!("transcripts_proteins", "proteins_from_transcripts", "/transcripts/proteins", "transcript" -> "protein",
          &["transcript_id", "transcript_type", "region"], &["GENCODE"], &[], 100),
    edge!("proteins_transcripts", "transcripts_from_proteins", "/proteins/transcripts", "protein" -> "transcript",
          PROTEIN, &["GENCODE"], &[], 100),
    edge!("motifs_proteins", "proteins_from_motifs", "/motifs/proteins", "ontology" -> "protein",
          &["tf_name"], &["IGVF", "HOCOMOCOv11"], FILESET, 1000),
    edge!("proteins_motifs", "motifs_from_proteins", "/proteins/motifs", "protein" -> "ontology",
          PROTEIN, &["IGVF", "HOCOMOCOv11"], FILESET, 1000),
    edge!("variants_variants", "variants_from_variant_id", "/variants/variant-ld", "variant" -> "variant",
          VARIANT_OR_REGION, &["TopLD"],
          &[("r2", Range), ("d_prime", Range), ("ancestry", Enum)], 500),
    edge!("variants_coding_variants", "coding_variants_from_variants", "/variants/coding-variants",
          "variant" -> "coding_variant", &["variant_id", "spdi", "hgvs", "ca_id"], &["dbNSFP"], &[], 500),
    edge!("coding_variants_variants", "variants_from_coding_variants", "/coding-variants/variants",
          "coding_variant" -> "variant", &["coding_variant_name", "hgvsp"], &["dbNSFP"], &[], 500),
    edge!("variants_genomic_elements", "genomic_elements_from_variants", "/variants/genomic-elements",
          "variant" -> "genomic_element", VARIANT, &["AFGR", "IGVF"],
          &[("biological_context", Text), ("files_fileset", Text)], 300),
    edge!("genomic_elements_genes", "genes_from_genomic_elements", "/genomic-elements/genes",
          "genomic_element" -> "gene", &["region"], E2G,
          &[("source_annotation", Enum), ("region_type", Enum), ("biosample_term", Text),
            ("biological_context", Text), ("neg_log10_pvalue", Range), ("score", Range),
            ("files_fileset", Text)], 500),
    edge!("genes_genomic_elements", "genomic_elements_from_genes", "/genes/genomic-elements",
          "gene" -> "genomic_element", GENE, E2G,
          &[("biosample_term", Text), ("biological_context", Text), ("neg_log10_pvalue", Range),
            ("score", Range), ("files_fileset", Text)], 500),
    edge!("genomic_elements_biosamples", "biosamples_from_genomic_elements", "/genomic-elements/biosamples",
          "genomic_element" -> "ontology", &["region"], E2G,
          &[("region_type", Enum), ("files_fileset", Text)], 50),
    edge!("biosamples_genomic_elements", "genomic_elements_from_biosamples", "/biosamples/genomic-elements",
          "ontology" -> "genomic_element", &["biosample_name"], E2G, FILESET, 50),
    edge!("go_terms_annotations", "go_terms_from_annotations", "/gene-products/go-terms",
          "protein" -> "ontology", &["query"], &["Gene Ontology"], &[("name", Enum)], 100),
];

/// Per entity type, the endpoints answering a relationship kind.
type ByType = &'static [(&'static str, &'static [&'static str])];

/// The relationship kinds and, per entity type, the endpoints that answer them.
pub static RELATIONSHIPS: &[(&str, ByType)] = &[
    (
        "regulatory",
        &[
            ("gene", &["genes_variants", "genes_genomic_elements"]),
            ("variant", &["variants_genes", "variants_genomic_elements"]),
            ("genomic_element", &["genomic_elements_genes"]),
        ],
    ),
    (
        "genetic",
        &[
            ("gene", &["genes_diseases"]),
            ("variant", &["variants_phenotypes", "variants_diseases"]),
            ("ontology", &["phenotypes_variants", "diseases_genes"]),
        ],
    ),
    (
        "physical",
        &[
            ("protein", &["proteins_proteins", "proteins_complexes"]),
            ("complex", &["complexes_proteins"]),
            ("gene", &["genes_genes"]),
        ],
    ),
    (
        "functional",
        &[
            ("gene", &["genes_pathways"]),
            ("protein", &["go_terms_annotations"]),
        ],
    ),
    (
        "pharmacological",
        &[
            ("variant", &["variants_drugs"]),
            ("drug", &["drugs_variants"]),
        ],
    ),
    ("ld", &[("variant", &["variants_variants"])]),
    (
        "coding",
        &[
            ("variant", &["variants_coding_variants"]),
            ("coding_variant", &["coding_variants_variants"]),
        ],
    ),
    (
        "transcription",
        &[
            ("gene", &["genes_transcripts"]),
            ("transcript", &["transcripts_genes", "transcripts_proteins"]),
            ("protein", &["proteins_transcripts"]),
        ],
    ),
];

/// The edge with key `key`.
pub fn edge(key: &str) -> Option<&'static Edge> {
    EDGES.iter().find(|e| e.key == key)
}

/// The endpoints answering `relationship` (`all`: every kind) from `entity_type`, in order.
pub fn endpoints(entity_type: &str, relationship: &str) -> Vec<&'static str> {
    RELATIONSHIPS
        .iter()
        .filter(|(r, _)| relationship == "all" || *r == relationship)
        .flat_map(|(_, by_type)| by_type.iter())
        .filter(|(t, _)| *t == entity_type)
        .flat_map(|(_, keys)| keys.iter().copied())
        .collect()
}

/// The interface's own definition of an edge's endpoint.
pub fn endpoint(e: &Edge) -> Option<&'static varcat_query::endpoint::Endpoint> {
    match api::route(e.path) {
        Some(Ok((ep, _))) => Some(ep),
        _ => None,
    }
}

/// Whether `e`'s endpoint takes parameter `name`.
pub fn accepts(e: &Edge, name: &str) -> bool {
    endpoint(e).is_some_and(|ep| match name {
        "page" | "limit" => matches!(ep.accepts.paging, Paging::Paged { .. }),
        "verbose" => ep.verbose,
        _ => ep
            .accepts
            .params
            .iter()
            .any(|p| p.name == name || p.aliases.contains(&name)),
    })
}

/// The values parameter `name` of `e`'s endpoint takes, when it takes a fixed set.
pub fn values(e: &Edge, name: &str) -> Option<&'static [&'static str]> {
    let ep = endpoint(e)?;
    ep.accepts.params.iter().find_map(|p| match p.kind {
        Kind::Enum(values) if p.name == name => Some(values),
        _ => None,
    })
}

/// `list_sources`' categories of data sources.
pub static CATEGORIES: &[(&str, &[&str])] = &[
    ("variant_annotations", &["dbNSFP", "ClinGen"]),
    ("gene_expression", &["AFGR", "EBI", "IGVF"]),
    (
        "regulatory",
        &["ADASTRA", "GVATdb", "UKB", "ENCODE", "IGVF"],
    ),
    ("disease", &["Orphanet", "ClinGen", "GenCC", "OpenTargets"]),
    ("drugs", &["PharmGKB"]),
    (
        "interactions",
        &["BioGRID", "IntAct", "COXPRESdb", "EBI Complex Portal"],
    ),
    ("studies", &["GWAS Catalog", "OpenTargets"]),
    ("structure", &["GENCODE"]),
    ("linkage", &["TopLD"]),
    ("motifs", &["HOCOMOCOv11", "IGVF"]),
    ("pathways", &["Reactome"]),
    ("ontology", &["Gene Ontology"]),
];

/// What each data source is.
pub fn source_description(source: &str) -> &'static str {
    match source {
        "dbNSFP" => "Predicted functional effects of non-synonymous coding variants",
        "ClinGen" => "Clinical Genome Resource: curated variant and gene-disease assertions",
        "AFGR" => "African Functional Genomics Resource: eQTLs, sQTLs and caQTLs",
        "EBI" => "EBI eQTL Catalogue: uniformly processed eQTLs and sQTLs",
        "IGVF" => "Data produced by the IGVF consortium",
        "ADASTRA" => "Allele-specific transcription factor binding from ChIP-seq",
        "GVATdb" => "Variant effects on transcription factor binding",
        "UKB" => "UK Biobank protein QTLs",
        "ENCODE" => "ENCODE regulatory elements and element-gene predictions",
        "Orphanet" => "Rare diseases and their genes",
        "GenCC" => "Gene Curation Coalition gene-disease validity",
        "OpenTargets" => "Open Targets Genetics GWAS associations and fine-mapping",
        "PharmGKB" => "Pharmacogenomic variant-drug annotations",
        "BioGRID" => "Curated genetic and protein interactions",
        "IntAct" => "Curated molecular interactions",
        "BioGRID; IntAct" => "Interactions curated by both BioGRID and IntAct",
        "COXPRESdb" => "Gene co-expression",
        "EBI Complex Portal" => "Curated macromolecular complexes",
        "GWAS Catalog" => "Published genome-wide association studies",
        "GENCODE" => "Gene, transcript and protein annotation",
        "TopLD" => "Linkage disequilibrium from TOPMed genomes",
        "HOCOMOCOv11" => "Transcription factor binding motifs",
        "Reactome" => "Curated biological pathways",
        "Gene Ontology" => "Gene product function, process and location annotations",
        _ => "No description available",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_every_edge_is_an_endpoint_of_the_interface() {
        for e in EDGES {
            let ep = endpoint(e).unwrap_or_else(|| panic!("{}: no endpoint {}", e.key, e.path));
            if let Paging::Paged { max, .. } = ep.accepts.paging {
                assert!(
                    e.max_limit <= u64::from(max),
                    "{}: limit {}",
                    e.key,
                    e.max_limit
                );
            }
            assert!(
                e.from_params.iter().any(|p| accepts(e, p)),
                "{}: takes none of {:?}",
                e.key,
                e.from_params
            );
        }
        for (_, by_type) in RELATIONSHIPS {
            for (_, keys) in by_type.iter() {
                assert!(keys.iter().all(|k| edge(k).is_some()), "{keys:?}");
            }
        }
    }

    #[test]
    fn test_endpoints_by_relationship() {
        assert_eq!(
            endpoints("protein", "physical"),
            ["proteins_proteins", "proteins_complexes"]
        );
        assert_eq!(endpoints("drug", "all"), ["drugs_variants"]);
        assert!(endpoints("study", "all").is_empty());
    }
}
