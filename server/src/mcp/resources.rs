//! The resources: the same URIs as IGVF's MCP server (two record schemas, the identifier guide,
//! example calls), with text describing this catalog.

use serde_json::{json, Value};

/// (uri, name, MIME type, description, text).
const RESOURCES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "igvf://schemas/gene",
        "Gene Entity Schema",
        "application/json",
        "The members of a gene record",
        GENE,
    ),
    (
        "igvf://schemas/variant",
        "Variant Entity Schema",
        "application/json",
        "The members of a variant record",
        VARIANT,
    ),
    (
        "igvf://guide/identifiers",
        "Identifier Format Guide",
        "text/markdown",
        "The identifier shapes the tools recognise and the entity each names",
        IDENTIFIERS,
    ),
    (
        "igvf://examples/queries",
        "Example Queries",
        "text/markdown",
        "Typical tool calls and what they answer",
        EXAMPLES,
    ),
];

const GENE: &str = r#"{
  "entity_type": "gene",
  "description": "A GENCODE gene (GRCh38 for Homo sapiens, GRCm39 for Mus musculus)",
  "fields": {
    "_id": "Ensembl gene id without version (ENSG…, ENSMUSG…)",
    "name": "Gene symbol",
    "chr": "Chromosome (chr1 … chrX, chrY, chrM)",
    "start": "Start, 0-based",
    "end": "End, exclusive",
    "strand": "+ or -",
    "gene_type": "GENCODE biotype (protein_coding, lncRNA, …)",
    "hgnc": "HGNC id (HGNC:…)",
    "entrez": "Entrez gene id (ENTREZ:…)",
    "synonyms": "Other symbols",
    "collections": "Gene collections the gene belongs to",
    "study_sets": "Study sets naming the gene",
    "source": "GENCODE",
    "version": "GENCODE release",
    "organism": "Homo sapiens or Mus musculus"
  }
}"#;

const VARIANT: &str = r#"{
  "entity_type": "variant",
  "description": "A sequence variant (one alternate allele)",
  "fields": {
    "_id": "Catalog key of the variant",
    "chr": "Chromosome",
    "pos": "Position, 0-based (GRCh38)",
    "ref": "Reference allele",
    "alt": "Alternate allele",
    "rsid": "dbSNP ids (rs…)",
    "spdi": "SPDI (NC_000001.11:12345:A:G)",
    "hgvs": "Genomic HGVS (NC_000001.11:g.12346A>G)",
    "ca_id": "ClinGen Allele Registry id (CA…)",
    "annotations": {
      "bravo_af": "BRAVO allele frequency",
      "gnomad_af_*": "gnomAD allele frequencies, total and by population",
      "cadd_phred": "CADD phred score",
      "GENCODE_category": "coding or noncoding"
    },
    "organism": "Homo sapiens or Mus musculus"
  },
  "coordinate_system": "0-based, half-open intervals"
}"#;

const IDENTIFIERS: &str = "# Identifiers the tools recognise

Matching ignores case; the first shape that fits decides the entity type, and a hint overrides it.

| entity | shapes |
| --- | --- |
| gene | symbol (BRCA1, HLA-DRB1; exact match, any case), ENSG00000139618 (version dropped), HGNC:1100, ENTREZ:672 |
| transcript | ENST00000443707 |
| protein | ENSP00000493376, UniProt isoform P49711-2, UniProt accession P49711 (looked up in cross-references) |
| variant | rs12345, SPDI NC_000001.11:12345:A:G, HGVS NC_000001.11:g.12346A>G, ClinGen CA12345 |
| ontology term | PREFIX_ID or PREFIX:ID of a loaded ontology: MONDO_0008199, HP:0033726, Orphanet_586, CL_0000084, UBERON_0002048, EFO_0000400, GO_0008150 |
| drug | PharmGKB PA448497 |
| complex | Complex Portal CPX-9 |
| study | GWAS Catalog GCST007798 |
| pathway | Reactome R-HSA-164843 |

With hint gene, protein, disease, drug or complex, an identifier that is not an id of that type is
looked up as a name; only exact (case-insensitive) matches count.

Coordinates are 0-based and half-open: chr1:100-200 covers positions 100 to 199. Regions may be
written chr1:1000000-2000000, 1:1M-2M, chr1:1,000,000-2,000,000 or chr1:1.5M-2.5M.
";

const EXAMPLES: &str = r#"# Example calls

1. A gene by symbol: `igvf_catalog_get_entity` `{"id": "BRCA1"}`: the gene's record.
2. What lies in a region: `igvf_catalog_search_region` `{"region": "chr17:41000000-42000000"}`:
   genes, variants and regulatory elements, each paged.
3. Variants regulating a gene: `igvf_catalog_find_associations`
   `{"entity_id": "TP53", "relationship": "regulatory"}`: QTLs and element-gene links.
4. Every name of a variant: `igvf_catalog_resolve_id` `{"id": "rs80357906"}`: SPDI, HGVS, CA id,
   position and alleles.
5. Phenotypes of a variant: `igvf_catalog_find_associations`
   `{"entity_id": "rs12345", "relationship": "genetic"}`.
6. Where the data comes from: `igvf_catalog_list_sources` `{"category": "gene_expression"}`.
7. Protein interactions: `igvf_catalog_find_associations`
   `{"entity_id": "ENSP00000493376", "relationship": "physical"}`.
8. Proxies of a GWAS hit: `igvf_catalog_find_ld` `{"variant_id": "rs12345", "r2_threshold": 0.8}`.
"#;

/// `resources/list`.
pub fn list() -> Value {
    let resources: Vec<Value> = RESOURCES
        .iter()
        .map(|(uri, name, mime, description, _)| {
            json!({"uri": uri, "name": name, "mimeType": mime, "description": description})
        })
        .collect();
    json!({ "resources": resources })
}

/// `resources/read` of `uri`, or None for an unknown URI.
pub fn read(uri: &str) -> Option<Value> {
    let (uri, _, mime, _, text) = RESOURCES.iter().find(|r| r.0 == uri)?;
    Some(json!({"contents": [{"uri": uri, "mimeType": mime, "text": text}]}))
}

#[cfg(test)]
mod tests {
    #[test]
    fn test_json_resources_are_json() {
        for (uri, _, mime, _, text) in super::RESOURCES {
            if *mime == "application/json" {
                assert!(
                    serde_json::from_str::<serde_json::Value>(text).is_ok(),
                    "{uri}"
                );
            }
        }
        assert!(super::read("igvf://nothing").is_none());
    }
}
