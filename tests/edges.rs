//! The IGVF client paths' edge listings (EdgeQuery): answers against the oracle in each anchor direction,
//! verbose expansion (objects and the client's one-element arrays), paging, errors.

use serde_json::{json, Value};

use crate::oracle::{self, data, id_or, obj, overlaps, s, sorted_by_key, GENE, PROTEIN};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, get_json};

const TRANSCRIPT: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("transcript_type", "transcript_type"),
    ("chr", "chr"),
    ("start", "start"),
    ("end", "end"),
    ("strand", "strand"),
    ("name", "name"),
    ("gene_name", "gene_name"),
    ("refseq_transcript_ids", "refseq_transcript_ids"),
    ("MANE_Select", "MANE_Select"),
    ("source", "source"),
    ("version", "version"),
    ("source_url", "source_url"),
];

/// Edges of `coll` whose `end` is one of `handles`, in key order.
fn edges(coll: &str, end: &str, handles: &[String]) -> Vec<&'static Value> {
    sorted_by_key(
        data()
            .docs(coll)
            .iter()
            .filter(|e| handles.iter().any(|h| h == s(e, end)))
            .collect(),
    )
}

fn handles(coll: &str, docs: &[&Value]) -> Vec<String> {
    docs.iter()
        .map(|d| format!("{coll}/{}", s(d, "_key")))
        .collect()
}

/// A gene–transcript edge seen from the gene.
fn gene_transcript(e: &Value, verbose: bool) -> Value {
    json!({
        "source": e["source"],
        "source_url": e["source_url"],
        "version": e["version"],
        "gene": e["_from"],
        "transcript": id_or(s(e, "_to"), verbose, TRANSCRIPT),
        "name": e["name"],
    })
}

#[test]
fn test_genes_transcripts_from_the_gene_end() {
    for (q, org, genes) in [
        (
            "/genes/transcripts?gene_id=ENSG00000101349",
            "Homo sapiens",
            oracle::genes("Homo sapiens", Some("ENSG00000101349"), None, None, None),
        ),
        (
            "/genes/transcripts?gene_name=TSTA1&verbose=true",
            "Homo sapiens",
            oracle::genes("Homo sapiens", None, None, None, Some("TSTA1")),
        ),
    ] {
        let verbose = q.contains("verbose=true");
        let want: Vec<Value> = edges(
            "genes_transcripts",
            "_from",
            &handles(&oracle::coll(org, "genes"), &genes),
        )
        .into_iter()
        .map(|e| gene_transcript(e, verbose))
        .take(25)
        .collect();
        assert_json_eq(&get_json(q), &Value::Array(want), q);
    }
    // Mouse genes of a region: their edges, paged.
    let region = ("chr1", 3_000_000, 4_000_000);
    let genes: Vec<&Value> = data()
        .docs("mm_genes")
        .iter()
        .filter(|g| overlaps(g, region))
        .collect();
    let all: Vec<Value> = edges("genes_transcripts", "_from", &handles("mm_genes", &genes))
        .into_iter()
        .map(|e| gene_transcript(e, false))
        .collect();
    check_paging(
        "/genes/transcripts?organism=Mus%20musculus&region=chr1:3000000-4000000",
        &all,
        2,
    );
}

#[test]
fn test_transcripts_proteins_verbose_protein_is_a_one_element_array() {
    let q = "/transcripts/proteins?transcript_id=ENST00000353224&verbose=true";
    let want: Vec<Value> = edges(
        "transcripts_proteins",
        "_from",
        &["transcripts/ENST00000353224".to_string()],
    )
    .into_iter()
    .map(|e| {
        let protein = match data().handle(s(e, "_to")) {
            Some(p) => json!([obj(p, PROTEIN)]),
            None => json!([]),
        };
        json!({
            "source": e["source"],
            "source_url": e["source_url"],
            "protein": protein,
            "transcript": e["_from"],
            "name": e["name"],
        })
    })
    .collect();
    assert!(want
        .iter()
        .all(|r| r["protein"].as_array().is_some_and(|a| a.len() == 1)));
    assert_json_eq(&get_json(q), &Value::Array(want), q);
    // Not verbose: the handle string.
    let plain = get_json("/transcripts/proteins?transcript_id=ENST00000353224");
    assert_eq!(plain[0]["protein"], json!("proteins/ENSP00000322957"));
}

#[test]
fn test_proteins_transcripts_from_the_protein_end_with_the_inverse_name() {
    for verbose in [false, true] {
        let q = format!("/proteins/transcripts?protein_id=ENSP00000322957&verbose={verbose}");
        let want: Vec<Value> = edges(
            "transcripts_proteins",
            "_to",
            &["proteins/ENSP00000322957".to_string()],
        )
        .into_iter()
        .map(|e| {
            json!({
                "source": e["source"],
                "source_url": e["source_url"],
                "protein": e["_to"],
                "transcript": id_or(s(e, "_from"), verbose, TRANSCRIPT),
                "name": e["inverse_name"],
            })
        })
        .collect();
        assert_json_eq(&get_json(&q), &Value::Array(want), &q);
    }
}

/// Members `names` of each row.
fn project(rows: &Value, names: &[&str]) -> Value {
    Value::Array(
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                Value::Object(
                    names
                        .iter()
                        .map(|n| (n.to_string(), r[*n].clone()))
                        .collect(),
                )
            })
            .collect(),
    )
}

#[test]
fn test_variants_proteins_both_directions() {
    let names = [
        "sequence_variant",
        "protein_complex",
        "name",
        "is_complex",
        "source",
    ];
    // From the variant.
    let q = "/variants/proteins?spdi=NC_000001.11:15000:A:T";
    let want: Vec<Value> = edges(
        "variants_proteins",
        "_from",
        &["variants/NC_000001.11:15000:A:T".to_string()],
    )
    .into_iter()
    .map(|e| {
        json!({
            "sequence_variant": e["_from"],
            "protein_complex": e["_to"],
            "name": e["name"],
            "is_complex": s(e, "_to").starts_with("complexes/"),
            "source": e["source"],
        })
    })
    .collect();
    assert_json_eq(&project(&get_json(q), &names), &Value::Array(want), q);
    // From the protein: the inverse name; the edges of the protein and of the complexes it
    // belongs to (as IGVF); verbose proteins in the client's ProteinBasic, complexes whole.
    let protein = "proteins/ENSP90000000001";
    let mut targets = vec![protein.to_string()];
    for m in data().docs("complexes_proteins") {
        if s(m, "_to") == protein {
            targets.push(s(m, "_from").to_string());
        }
    }
    assert!(targets.len() > 1, "{targets:?}");
    let rows = edges("variants_proteins", "_to", &targets);
    assert!(rows.iter().any(|e| s(e, "_to").starts_with("complexes/")));
    let q = "/proteins/variants?protein_id=ENSP90000000001";
    let want: Vec<Value> = rows
        .iter()
        .map(|e| {
            json!({
                "sequence_variant": e["_from"],
                "protein_complex": e["_to"],
                "name": e["inverse_name"],
                "is_complex": s(e, "_to").starts_with("complexes/"),
                "source": e["source"],
            })
        })
        .collect();
    assert_json_eq(&project(&get_json(q), &names), &Value::Array(want), q);
    let q = "/proteins/variants?protein_id=ENSP90000000001&verbose=true";
    let got = get_json(q);
    let want: Vec<Value> = rows
        .iter()
        .map(|e| {
            let p = data().handle(s(e, "_to")).unwrap();
            let basic: Vec<(&str, &str)> = PROTEIN
                .iter()
                .copied()
                .filter(|(n, _)| *n != "dbxrefs")
                .collect();
            let complex = s(e, "_to").starts_with("complexes/");
            json!({
                "sequence_variant": s(e, "_from").strip_prefix("variants/").unwrap(),
                "protein_complex": if complex { json!(s(p, "_key")) } else { obj(p, &basic) },
                "name": e["inverse_name"],
                "is_complex": complex,
                "source": e["source"],
            })
        })
        .collect();
    let mut g = project(&got, &names);
    for r in g.as_array_mut().unwrap() {
        r["sequence_variant"] = r["sequence_variant"]["_id"].clone();
        if r["is_complex"] == json!(true) {
            // A complex is the client's Complex object: its key identifies it here.
            r["protein_complex"] = r["protein_complex"]["_id"].clone();
        }
    }
    assert_json_eq(&g, &Value::Array(want), q);
    // A filter on the edges still applies to the complexes' edges.
    let got = get_json("/proteins/variants?protein_id=ENSP90000000001&method=SEMVAR");
    let complex_rows: Vec<&Value> = rows
        .iter()
        .filter(|e| s(e, "method") == "SEMVAR")
        .copied()
        .collect();
    assert_eq!(got.as_array().unwrap().len(), complex_rows.len());
    assert!(!complex_rows.is_empty());
}

#[test]
fn test_variants_genes_forward_name_filters_and_errors() {
    let q = "/variants/genes?rsid=rs900001&name=modulates%20splicing%20of&verbose=true";
    let vars = oracle::variants(
        "variants",
        oracle::VariantQuery {
            rsid: Some("rs900001"),
            ..Default::default()
        },
    );
    let want: Vec<Value> = oracle::edges_from("variants_genes", &vars)
        .into_iter()
        .filter(|e| s(e, "name") == "modulates splicing of")
        .map(|e| {
            json!({
                "gene": id_or(s(e, "_to"), true, GENE),
                "name": e["name"],
                "method": e["method"],
            })
        })
        .collect();
    assert_json_eq(
        &project(&get_json(q), &["gene", "name", "method"]),
        &Value::Array(want),
        q,
    );
    assert_bad_request(
        "/variants/genes?rsid=rs900001&name=nope",
        &[(
            "name must be one of 'modulates expression of', 'modulates splicing of', got 'nope'",
            &["name"],
        )],
    );
    assert_bad_request(
        "/variants/proteins?region=chr1:1-20000",
        &[(
            "region spans 19999 bases; at most 10000 are allowed, got \"chr1:1-20000\"",
            &["region"],
        )],
    );
}

#[test]
fn test_genes_genes_either_end_and_pairs() {
    let gene = |name: &str| {
        let g = oracle::genes("Homo sapiens", None, None, None, Some(name));
        format!("genes/{}", s(g[0], "_key"))
    };
    let (a, b) = (gene("TSTA1"), gene("TST-B"));
    let ids = |q: &str| -> Vec<Value> {
        get_json(q)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["_id"].clone())
            .collect()
    };
    let want = |keep: &dyn Fn(&Value) -> bool| -> Vec<Value> {
        sorted_by_key(
            data()
                .docs("genes_genes")
                .iter()
                .filter(|e| keep(e))
                .collect(),
        )
        .into_iter()
        .map(|e| json!(format!("genes_genes/{}", s(e, "_key"))))
        .collect()
    };
    let touches = |e: &Value, g: &str| s(e, "_from") == g || s(e, "_to") == g;
    let got = ids("/genes/genes?gene_name=TSTA1");
    assert_json_eq(&json!(got), &json!(want(&|e| touches(e, &a))), "either end");
    let got = ids("/genes/genes?gene_name=TSTA1&associated_gene_name=TST-B");
    let pair = |e: &Value| {
        (s(e, "_from") == a && s(e, "_to") == b) || (s(e, "_from") == b && s(e, "_to") == a)
    };
    assert_json_eq(&json!(got), &json!(want(&pair)), "pairs");
    // Verbose genes are one-element arrays without synonyms.
    let v = get_json("/genes/genes?gene_name=TSTA1&associated_gene_name=TST-B&verbose=true");
    let gene_1 = v[0]["gene_1"].as_array().unwrap();
    assert_eq!(gene_1.len(), 1);
    let no_synonyms: Vec<(&str, &str)> = GENE
        .iter()
        .copied()
        .filter(|(n, _)| *n != "synonyms")
        .collect();
    let from = s(&v[0], "_id")
        .strip_prefix("genes_genes/")
        .unwrap()
        .to_string();
    let edge = data().get("genes_genes", &from).unwrap();
    let g = data().handle(s(edge, "_from")).unwrap();
    assert_eq!(gene_1[0], obj(g, &no_synonyms));
}

/// The `phenotype` handles of an answer's rows.
fn phenotype_handles(q: &str) -> Vec<Value> {
    get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["phenotype"].clone())
        .collect()
}

#[test]
fn test_genomic_elements_phenotypes_by_region_and_term() {
    let region = ("chr1", 24000, 26000);
    let els: Vec<&Value> = data()
        .docs("genomic_elements")
        .iter()
        .filter(|d| overlaps(d, region))
        .collect();
    let want: Vec<Value> = edges(
        "genomic_elements_phenotypes",
        "_from",
        &handles("genomic_elements", &els),
    )
    .into_iter()
    .map(|e| e["_to"].clone())
    .collect();
    let q = "/genomic-elements/phenotypes?region=chr1:24000-26000";
    assert_json_eq(&json!(phenotype_handles(q)), &json!(want), q);
    let want: Vec<Value> = edges(
        "genomic_elements_phenotypes",
        "_to",
        &["ontology_terms/EFO_9000002".to_string()],
    )
    .into_iter()
    .filter(|e| e["significant"] == json!(true))
    .map(|e| e["_to"].clone())
    .collect();
    let q = "/genomic-elements/phenotypes?phenotype_id=EFO_9000002&significant=true";
    assert_json_eq(&json!(phenotype_handles(q)), &json!(want), q);
    assert_bad_request(
        "/genomic-elements/phenotypes?significant=true",
        &[(
            "at least one of region, files_fileset, phenotype_id, phenotype_name must be given",
            &[],
        )],
    );
}

#[test]
fn test_phenotypes_genomic_elements_by_fileset_with_the_inverse_name() {
    let want: Vec<Value> = edges(
        "genomic_elements_phenotypes",
        "files_filesets",
        &["files_filesets/IGVFFI9000CRS".to_string()],
    )
    .into_iter()
    .filter(|e| e["significant"] == json!(false))
    .map(|e| json!([e["inverse_name"], e["_from"], e["_to"]]))
    .collect();
    let q = "/phenotypes/genomic-elements?files_fileset=IGVFFI9000CRS&significant=false";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["name"], r["genomic_element"], r["phenotype"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/phenotypes/genomic-elements?significant=true",
        &[(
            "at least one of phenotype_id, phenotype_name, files_fileset must be given",
            &[],
        )],
    );
}

#[test]
fn test_gene_products_go_terms_by_product() {
    let go_ids = |q: &str| -> Vec<Value> {
        get_json(q)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| json!([r["gene_product_id"], r["go_id"], r["name"]]))
            .collect()
    };
    for (q, product) in [
        (
            "/gene-products/go-terms?query=ENSP90000000001",
            "proteins/ENSP90000000001",
        ),
        (
            "/gene-products/go-terms?query=ENST90000000001",
            "transcripts/ENST90000000001",
        ),
    ] {
        let want: Vec<Value> = edges("gene_products_terms", "_from", &[product.to_string()])
            .into_iter()
            .map(|e| json!([e["_from"], e["go_id"], e["name"]]))
            .collect();
        assert_json_eq(&json!(go_ids(q)), &json!(want), q);
    }
    assert_bad_request(
        "/gene-products/go-terms?name=involved%20in",
        &[("query is required", &["query"])],
    );
}

#[test]
fn test_go_terms_gene_products_by_term_in_either_spelling() {
    for q in [
        "/go-terms/gene-products?go_term_id=GO:9000001",
        "/go-terms/gene-products?go_term_id=GO_9000001",
    ] {
        let want: Vec<Value> = edges(
            "gene_products_terms",
            "_to",
            &["ontology_terms/GO_9000001".to_string()],
        )
        .into_iter()
        .map(|e| json!([e["_from"], e["inverse_name"]]))
        .collect();
        let got: Vec<Value> = get_json(q)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| json!([r["gene_product_id"], r["name"]]))
            .collect();
        assert_json_eq(&json!(got), &json!(want), q);
    }
    assert_bad_request(
        "/go-terms/gene-products",
        &[("go_term_id is required", &["go_term_id"])],
    );
}

#[test]
fn test_coding_variants_phenotypes_by_protein_change() {
    let cvs: Vec<&Value> = data()
        .docs("coding_variants")
        .iter()
        .filter(|d| s(d, "gene_name") == "TSTA1" && d["aapos"].as_f64() == Some(1.0))
        .collect();
    let want: Vec<Value> = edges(
        "coding_variants_phenotypes",
        "_from",
        &handles("coding_variants", &cvs),
    )
    .into_iter()
    .filter(|e| s(e, "method") == "ESM-1v")
    .map(|e| json!([e["_from"], e["_to"], e["method"]]))
    .collect();
    let q = "/coding-variants/phenotypes?gene_name=TSTA1&amino_acid_position=1&method=ESM-1v";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            json!([
                format!("coding_variants/{}", s(&r["coding_variant"], "_id")),
                format!("ontology_terms/{}", s(&r["phenotype"], "phenotype_id")),
                r["method"]
            ])
        })
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/coding-variants/phenotypes?gene_name=TSTA1&amino_acid_position=x",
        &[(
            "amino_acid_position must be a non-negative integer, got \"x\"",
            &["amino_acid_position"],
        )],
    );
    // As IGVF, a position narrows but does not select.
    assert_bad_request(
        "/coding-variants/phenotypes?amino_acid_position=1",
        &[(
            "at least one of coding_variant_name, hgvsp, uniprot_name, gene_name, transcript_id, method, files_fileset must be given",
            &[],
        )],
    );
}

#[test]
fn test_phenotypes_coding_variants_by_term() {
    let want: Vec<Value> = edges(
        "coding_variants_phenotypes",
        "_to",
        &["ontology_terms/OBA_9000001".to_string()],
    )
    .into_iter()
    // A coding variant the catalog lacks is null.
    .map(|e| {
        let cv = data().handle(s(e, "_from")).map(|d| d["_key"].clone());
        json!([cv, e["method"]])
    })
    .collect();
    let q = "/phenotypes/coding-variants?phenotype_id=OBA_9000001";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["coding_variant"]["_id"], r["method"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/phenotypes/coding-variants?method=nope",
        &[(
            "method must be one of 'DUAL-IPA', 'ESM-1v', 'MutPred2', 'SGE', 'VAMP-seq', 'Variant painting via fluorescence', got 'nope'",
            &["method"],
        )],
    );
}

#[test]
fn test_proteins_motifs_direct_and_through_complexes() {
    let protein = "proteins/ENSP90000000001".to_string();
    let mut targets: Vec<String> =
        edges("complexes_proteins", "_to", std::slice::from_ref(&protein))
            .into_iter()
            .map(|e| s(e, "_from").to_string())
            .collect();
    targets.push(protein);
    let want: Vec<Value> = edges("motifs_proteins", "_to", &targets)
        .into_iter()
        .map(|e| json!([e["_from"], e["_to"]]))
        .collect();
    let q = "/proteins/motifs?protein_id=ENSP90000000001";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let to = if r["protein"].is_null() {
                &r["complex"]
            } else {
                &r["protein"]
            };
            json!([r["motif"], to])
        })
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    // As IGVF, no parameter lists every motif edge, in key order.
    let all = get_json("/proteins/motifs?limit=1000");
    assert_eq!(
        all.as_array().unwrap().len(),
        data().docs("motifs_proteins").len(),
        "/proteins/motifs"
    );
}

#[test]
fn test_variants_biosamples_by_rsid() {
    let vars = oracle::variants(
        "variants",
        oracle::VariantQuery {
            rsid: Some("rs900001"),
            ..Default::default()
        },
    );
    let want: Vec<Value> = oracle::edges_from("variants_biosamples", &vars)
        .into_iter()
        .map(|e| json!([e["_from"], e["_to"], e["method"]]))
        .collect();
    let q = "/variants/biosamples?rsid=rs900001";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["variant"], r["biosample"], r["method"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/variants/biosamples?significant=true",
        &[(
            "at least one of spdi, hgvs, rsid, ca_id, variant_id, region, method, files_fileset must be given",
            &[],
        )],
    );
}

#[test]
fn test_biosamples_variants_by_term() {
    let want: Vec<Value> = edges(
        "variants_biosamples",
        "_to",
        &["ontology_terms/EFO_0002067".to_string()],
    )
    .into_iter()
    .map(|e| json!([e["_from"], e["method"]]))
    .collect();
    let q = "/biosamples/variants?biosample_id=EFO_0002067";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["variant"], r["method"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/biosamples/variants?method=MPRA",
        &[(
            "at least one of biosample_id, biosample_name must be given",
            &[],
        )],
    );
}

#[test]
fn test_biosamples_genomic_elements_by_name() {
    let terms: Vec<&Value> = data()
        .docs("ontology_terms")
        .iter()
        .filter(|d| s(d, "name") == "K562")
        .collect();
    let want: Vec<Value> = edges(
        "genomic_elements_biosamples",
        "_to",
        &handles("ontology_terms", &terms),
    )
    .into_iter()
    .take(50)
    .map(|e| json!([e["_from"], e["_to"]]))
    .collect();
    let q = "/biosamples/genomic-elements?biosample_name=K562&limit=50";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["genomic_element"], r["biosample"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/biosamples/genomic-elements?method=STARR",
        &[("method must be one of 'MPRA', got 'STARR'", &["method"])],
    );
}

#[test]
fn test_variants_variant_ld_either_end_partner_and_filters() {
    let v = "variants/NC_000001.11:15000:A:G".to_string();
    let pairs: Vec<&Value> = sorted_by_key(
        data()
            .docs("variants_variants")
            .iter()
            .filter(|e| s(e, "_from") == v || s(e, "_to") == v)
            .collect(),
    );
    assert!(pairs.len() >= 2, "LD pairs from both ends");
    // The partner's key, as IGVF (PARSE_IDENTIFIER(...).key), not its handle.
    let partner = |e: &Value| {
        let p = if s(e, "_from") == v {
            s(e, "_to")
        } else {
            s(e, "_from")
        };
        json!(p.strip_prefix("variants/").unwrap())
    };
    let want: Vec<Value> = pairs
        .iter()
        .map(|e| json!([e["r2"], e["ancestry"], partner(e)]))
        .collect();
    let row = |r: &Value| json!([r["r2"], r["ancestry"], r["sequence_variant"]]);
    let q = "/variants/variant-ld?rsid=rs900001";
    let got: Vec<Value> = get_json(q).as_array().unwrap().iter().map(row).collect();
    assert_json_eq(&json!(got), &json!(want), q);
    let want: Vec<Value> = pairs
        .iter()
        .filter(|e| e["r2"].as_f64().unwrap() >= 0.5)
        .map(|e| json!([e["r2"], e["ancestry"], partner(e)]))
        .collect();
    let q = "/variants/variant-ld?rsid=rs900001&r2=gte:0.5";
    let got: Vec<Value> = get_json(q).as_array().unwrap().iter().map(row).collect();
    assert_json_eq(&json!(got), &json!(want), q);
    let q = "/variants/variant-ld?rsid=rs900001&verbose=true&ancestry=EUR";
    let got = get_json(q);
    let rows = got.as_array().unwrap();
    assert!(!rows.is_empty(), "{q}");
    for r in rows {
        assert_eq!(r["ancestry"], "EUR", "{q}");
        let sv = r["sequence_variant"].as_array().expect("verbose: an array");
        assert!(sv.len() <= 1, "{q}");
        assert!(r["variant_1_base_pair"].is_string(), "{q}");
    }
    assert_bad_request(
        "/variants/variant-ld?r2=gte:0.5",
        &[(
            "at least one of spdi, hgvs, rsid, ca_id, variant_id, region must be given",
            &[],
        )],
    );
}

#[test]
fn test_proteins_complexes_takes_the_mcp_servers_limit_of_100() {
    let protein = "proteins/ENSP90000000001".to_string();
    let want: Vec<Value> = edges("complexes_proteins", "_to", std::slice::from_ref(&protein))
        .into_iter()
        .map(|e| json!([e["_from"], e["_to"]]))
        .collect();
    assert!(!want.is_empty());
    let q = "/proteins/complexes?protein_id=ENSP90000000001&limit=100";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["complex"], r["protein"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/proteins/complexes?protein_id=ENSP90000000001&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
}
/// A MORF effect row (`GenesTranscriptsGenes`) from its edge, the construct's gene and
/// transcript and the readout gene expanded with `verbose`.
fn morf_row(e: &Value, verbose: bool) -> Value {
    let construct = data().handle(s(e, "_from")).unwrap();
    let mut row = json!({
        "_id": format!("genes_transcripts_genes/{}", s(e, "_key")),
        "gene_transcript": e["_from"],
        "gene": id_or(s(construct, "_from"), verbose, GENE),
        "transcript": id_or(s(construct, "_to"), verbose, TRANSCRIPT),
        "readout_gene": id_or(s(e, "_to"), verbose, GENE),
    });
    let members = [
        "morf_id",
        "transcript_mapping_method",
        "log2FC",
        "standard_error",
        "base_mean",
        "p_value",
        "p_value_adj",
        "neg_log10_pvalue",
        "neg_log10_pvalue_adj",
        "significant",
        "name",
        "label",
        "class",
        "method",
        "source",
        "source_url",
        "files_filesets",
        "biological_context",
        "biosample_term",
        "treatments_term_ids",
    ];
    for m in members {
        let v = e.get(m).cloned().unwrap_or(Value::Null);
        // The router's name of the standard error fills the client's.
        let v = match (m, &v) {
            ("standard_error", Value::Null) => e.get("log2FC_se").cloned().unwrap_or(Value::Null),
            _ => v,
        };
        row[m] = v;
    }
    row
}

#[test]
fn test_genes_transcripts_genes_by_construct_readout_and_thresholds() {
    // Rows the client can take: the construct exists, log2FC and significant are given.
    let rows = |keep: &dyn Fn(&Value, &Value) -> bool, verbose: bool| -> Value {
        let docs: Vec<&Value> = data()
            .docs("genes_transcripts_genes")
            .iter()
            .filter(|e| e["log2FC"].is_number() && e["significant"].is_boolean())
            .filter(|e| {
                data()
                    .handle(s(e, "_from"))
                    .is_some_and(|construct| keep(e, construct))
            })
            .collect();
        json!(sorted_by_key(docs)
            .into_iter()
            .map(|e| morf_row(e, verbose))
            .collect::<Vec<_>>())
    };
    let (a, b, c) = (
        "genes/ENSG90000000001",
        "genes/ENSG90000000002",
        "genes/ENSG90000000003",
    );
    let want = rows(&|_, g| s(g, "_from") == a, false);
    assert_eq!(want.as_array().unwrap().len(), 2, "{want}");
    assert_json_eq(
        &get_json("/genes/transcripts/genes?gene_name=TSTA1"),
        &want,
        "by the construct's gene",
    );
    assert_json_eq(
        &get_json("/genes/transcripts/genes?gene_id=ENSG90000000001.1&verbose=true"),
        &rows(&|_, g| s(g, "_from") == a, true),
        "verbose",
    );
    assert_json_eq(
        &get_json(
            "/genes/transcripts/genes?gene_id=ENSG90000000001&transcript_id=ENST90000000002.1",
        ),
        &rows(
            &|_, g| s(g, "_from") == a && s(g, "_to") == "transcripts/ENST90000000002",
            false,
        ),
        "gene and transcript",
    );
    assert_json_eq(
        &get_json("/genes/transcripts/genes?readout_gene_name=TSTA1"),
        &rows(&|e, _| s(e, "_to") == a, false),
        "by the readout gene",
    );
    assert_json_eq(
        &get_json("/genes/transcripts/genes?gene_name=TST-B&readout_gene_id=ENSG90000000001"),
        &rows(&|e, g| s(e, "_to") == a && s(g, "_from") == b, false),
        "both ends",
    );
    let num = |e: &Value, m: &str| e[m].as_f64().unwrap_or(f64::NAN);
    for (q, keep) in [
        (
            "method=MORF%20screen&log2FC=gt:0",
            &(|e: &Value| num(e, "log2FC") > 0.0) as &dyn Fn(&Value) -> bool,
        ),
        ("method=MORF%20screen&log2FC=eq:-0.3", &|e| {
            num(e, "log2FC") == -0.3
        }),
        ("files_fileset=IGVFFI9000MRF&significant=false", &|e| {
            e["significant"] == json!(false)
        }),
        (
            "method=MORF%20screen&neg_log10_pvalue=gte:3&p_value_adj=lt:0.05",
            &|e| num(e, "neg_log10_pvalue") >= 3.0 && num(e, "p_value_adj") < 0.05,
        ),
        (
            "morf_id=ccsbBroad304_90001&biosample_term=EFO_0002067",
            &|e| s(e, "morf_id") == "ccsbBroad304_90001",
        ),
        (
            "readout_gene_id=ENSG90000000003&biological_context=K562",
            &|e| s(e, "_to") == c,
        ),
    ] {
        let want = rows(&|e, _| keep(e), false);
        assert!(!want.as_array().unwrap().is_empty(), "{q}");
        assert_json_eq(
            &get_json(&format!("/genes/transcripts/genes?{q}")),
            &want,
            q,
        );
    }
    // The construct missing from the catalog and the incomplete rows have no row.
    let all = rows(&|_, _| true, false);
    let got = get_json("/genes/transcripts/genes?method=MORF%20screen");
    assert_json_eq(&got, &all, "all");
    assert_eq!(all.as_array().unwrap().len(), 3);
    check_paging(
        "/genes/transcripts/genes?method=MORF%20screen",
        all.as_array().unwrap(),
        2,
    );
    assert_bad_request(
        "/genes/transcripts/genes?log2FC=gt:0",
        &[(
            "at least one of gene_id, gene_name, transcript_id, readout_gene_id, readout_gene_name, morf_id, files_fileset, method must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/genes/transcripts/genes?method=CRISPR",
        &[(
            "method must be one of 'MORF screen', got 'CRISPR'",
            &["method"],
        )],
    );
}

#[test]
fn test_interaction_filters_take_igvf_enumerations() {
    // Rows of `coll` touching `node` whose member `m` is `v`, as their `_id`s in key order.
    let want = |coll: &str, node: &str, m: &str, v: &str| -> Value {
        let docs: Vec<&Value> = data()
            .docs(coll)
            .iter()
            .filter(|e| (s(e, "_from") == node || s(e, "_to") == node) && s(e, m) == v)
            .collect();
        json!(sorted_by_key(docs)
            .into_iter()
            .map(|e| json!(format!("{coll}/{}", s(e, "_key"))))
            .collect::<Vec<_>>())
    };
    let ids = |q: &str| -> Value {
        json!(get_json(q)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["_id"].clone())
            .collect::<Vec<_>>())
    };
    let (g, p) = ("genes/ENSG90000000001", "proteins/ENSP90000000001");
    for (q, coll, node, m, v) in [
        (
            "/genes/genes?gene_id=ENSG90000000001&method=COXPRESdb",
            "genes_genes",
            g,
            "method",
            "COXPRESdb",
        ),
        (
            "/genes/genes?gene_id=ENSG90000000001&method=positive%20genetic%20interaction%20(sensu%20BioGRID)",
            "genes_genes",
            g,
            "method",
            "positive genetic interaction (sensu BioGRID)",
        ),
        (
            "/genes/genes?gene_id=ENSG90000000001&label=co-expression",
            "genes_genes",
            g,
            "label",
            "co-expression",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&detection_method=two%20hybrid",
            "proteins_proteins",
            p,
            "detection_method",
            "two hybrid",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&label=pull%20down",
            "proteins_proteins",
            p,
            "label",
            "pull down",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&method=physical%20association",
            "proteins_proteins",
            p,
            "method",
            "physical association",
        ),
    ] {
        let w = want(coll, node, m, v);
        assert_eq!(w.as_array().unwrap().len(), 1, "{q}");
        assert_json_eq(&ids(q), &w, q);
    }
    // A value IGVF's enumeration lacks is a 400 naming the parameter, as in IGVF; one it has
    // but no row carries selects nothing.
    for (q, param) in [
        (
            "/genes/genes?gene_id=ENSG90000000001&method=coexpression",
            "method",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&detection_method=telepathy",
            "detection_method",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&label=interaction",
            "label",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&method=two%20hybrid",
            "method",
        ),
    ] {
        let r = crate::util::get(q);
        assert_eq!(r.status, 400, "{q}: {}", r.text());
        let body = r.json();
        assert_eq!(body["issues"][0]["path"], json!([param]), "{q}");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{param} must be one of")),
            "{q}: {body}"
        );
    }
    assert_eq!(
        ids("/proteins/proteins?protein_id=ENSP90000000001&detection_method=3D%20electron%20microscopy"),
        json!([])
    );
}

/// The LD edges' records keep no `_key` (`Spec::key_stored: false`: a digest printed by no
/// shape), every other collection's do, and no LD answer prints a `_key` or `_id`.
#[test]
fn test_ld_records_store_no_key_and_answers_print_none() {
    use varcat_format::catalog::Catalog;
    use varcat_format::collection::Collections;
    let cat = Collections::open(Catalog::open(crate::util::catalog()).unwrap()).unwrap();
    for spec in varcat_format::schema::SPECS {
        let Some(c) = cat.get(spec.name) else {
            continue;
        };
        let key = c.field("_key").expect("every collection names _key");
        let with_key = (0..c.len())
            .filter(|&o| c.record(o).unwrap().get(key).is_some())
            .count();
        let want = if spec.key_stored { c.len() as usize } else { 0 };
        assert_eq!(with_key, want, "{}: records with _key", spec.name);
    }
    let ld = cat.get("variants_variants").unwrap();
    assert!(!ld.is_empty() && !varcat_format::schema::spec(ld.name()).unwrap().key_stored);
    for q in [
        "/variants/variant-ld?rsid=rs900001",
        "/variants/variant-ld?rsid=rs900001&verbose=true",
        "/variants/variant-ld/summary?rsid=rs900001",
    ] {
        let got = get_json(q);
        let rows = got.as_array().unwrap();
        assert!(!rows.is_empty(), "{q}");
        for r in rows {
            assert!(
                r.get("_key").is_none() && r.get("_id").is_none(),
                "{q}: {r}"
            );
        }
    }
}
