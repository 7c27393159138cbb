//! End-to-end tests of the query paths, one file (or folder) per family, named for the first
//! segment of the path it requests: `/genes/...` in `genes/`, `/variants/...` in `variants/`,
//! `/coding-variants/...` in `coding_variants.rs`, and so on. A test of an edge path sits with the
//! family of the end it anchors on (`/proteins/variants` in `proteins.rs`), and each file's
//! opening comment lists the paths it holds. Answers are checked against `oracle`, which reads the
//! JSONL of `testdata/catalog/` and shares no code with the server; each file also holds the
//! expected-row helpers only its tests use (those shared by several families are in `util`).
//!
//! Concerns that cut across paths have files of their own beside `paths/`: the HTTP surface,
//! hostile input, batches, paging links, TSV, the command line, MCP, faults, golden answers,
//! OpenAPI, the viewer, fuzz seeds and IGVF's parameter rules.

mod biosamples;
mod coding_variants;
mod diseases;
mod drugs;
mod enhancer_gene_predictions;
mod files_filesets;
mod gene_products;
mod gene_regulatory_network;
mod genes;
mod genes_proteins;
mod genes_structure;
mod genomic_elements;
mod go_terms;
mod llm_query;
mod motifs;
mod ontology_terms;
mod pathways;
mod phenotypes;
mod proteins;
mod qtls;
mod transcripts;
mod variants;
