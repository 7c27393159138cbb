use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::*;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("varcat-synth-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn gen(dir: &Path, variants: u64, seed: u64, gz: bool, threads: usize) -> Summary {
    generate(&Options {
        seed,
        gz,
        threads,
        ..Options::new(variants, dir)
    })
    .unwrap()
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn test_same_seed_same_bytes_whatever_the_threads() {
    let (a, b, c) = (
        TempDir::new("det-a"),
        TempDir::new("det-b"),
        TempDir::new("det-c"),
    );
    gen(&a.0, 500, 7, false, 1);
    gen(&b.0, 500, 7, false, 3);
    gen(&c.0, 500, 8, false, 2);
    let (fa, fb, fc) = (files(&a.0), files(&b.0), files(&c.0));
    assert_eq!(fa, fb);
    assert_ne!(fa.get("variants.p0.jsonl"), fc.get("variants.p0.jsonl"));
}

#[test]
fn test_every_reference_resolves_and_keys_are_unique() {
    let d = TempDir::new("refs");
    let s = gen(&d.0, 1_500, 1, false, 2);
    let mut keys: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut docs = Vec::new();
    for (name, bytes) in files(&d.0) {
        let Some(stem) = name.strip_suffix(".jsonl") else {
            continue;
        };
        let coll = stem.split('.').next().unwrap().to_string();
        for line in String::from_utf8(bytes).unwrap().lines() {
            let v: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{name}: {e}: {line}"));
            if let Some(k) = v.get("_key").and_then(|k| k.as_str()) {
                assert!(
                    keys.entry(coll.clone()).or_default().insert(k.to_string()),
                    "{coll}: duplicate _key {k}"
                );
            }
            docs.push((coll.clone(), v));
        }
    }
    assert_eq!(docs.len() as u64, s.total_docs());
    fn strings<'a>(v: &'a serde_json::Value, out: &mut Vec<&'a str>) {
        match v {
            serde_json::Value::String(s) => out.push(s),
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
            _ => {}
        }
    }
    let mut checked = 0;
    for (coll, v) in &docs {
        let mut ss = Vec::new();
        strings(v, &mut ss);
        for s in ss {
            let Some((target, key)) = s.split_once('/') else {
                continue;
            };
            if target.is_empty() || !target.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
                continue; // URLs, categories such as "Metabolism/PK"
            }
            let set = keys
                .get(target)
                .unwrap_or_else(|| panic!("{coll}: reference {s} to a collection not written"));
            assert!(set.contains(key), "{coll}: dangling reference {s}");
            checked += 1;
        }
    }
    assert!(checked > 5_000, "only {checked} references checked");
    // Every collection an endpoint reads is written.
    for c in varcat_indexer::schema::SPECS {
        if c.kind != varcat_indexer::schema::Kind::Derived {
            assert!(s.docs.contains_key(c.name), "{} not generated", c.name);
        }
    }
}

#[test]
fn test_tiny_catalog_builds_with_no_dangling_or_unknown_fields() {
    let d = TempDir::new("build");
    gen(&d.0, 400, 3, true, 2);
    let out = d.0.join("cat.varcat");
    let mut opts = varcat_indexer::Options::new(&d.0, &out);
    opts.mem_budget = 1 << 20;
    let report = varcat_indexer::build(&opts).unwrap();
    assert!(report.dangling.is_empty(), "{:?}", report.dangling);
    assert!(
        report.unknown_fields.is_empty(),
        "{:?}",
        report.unknown_fields
    );
    assert!(report.documents["variants"] >= 400);
}

#[test]
fn test_plan_identifiers_match_the_data() {
    let d = TempDir::new("plan");
    gen(&d.0, 1_000, 5, false, 2);
    let plan = Plan::new(1_000, 5);
    let all: String = files(&d.0)
        .into_iter()
        .filter(|(n, _)| n.starts_with("variants.") || n.starts_with("genes."))
        .map(|(_, b)| String::from_utf8(b).unwrap())
        .collect();
    assert!(all.contains(&format!("\"{}\"", rsid(0).unwrap())));
    assert!(all.contains(&format!("\"{}\"", rsid(998).unwrap())));
    assert!(rsid(99).is_none());
    let c = plan.chrom_of(500);
    let g = plan.gene(c, 0);
    assert!(all.contains(&format!("\"_key\": \"{}\"", gene_id(g.gg))));
    assert!(all.contains(&format!("\"symbol\": \"{}\"", symbol(g.gg))));
    assert_eq!(plan.chroms.iter().map(|c| c.variants).sum::<u64>(), 1_000);
}

#[test]
fn test_interaction_collections_scale_with_genes_and_use_client_types() {
    let d = TempDir::new("interactions");
    let s = gen(&d.0, 3_000, 2, false, 2);
    let plan = Plan::new(3_000, 2);
    let n = |c: &str| s.docs.get(c).copied().unwrap_or(0);
    assert_eq!(n("genes"), plan.genes);
    // Three protein pairs, five GO annotations and one or two pathways per gene; a BioGRID
    // edge per even gene and a COXPRESdb edge per third.
    assert_eq!(n("proteins_proteins"), 3 * plan.genes);
    assert_eq!(n("gene_products_terms"), 5 * plan.genes);
    assert_eq!(
        n("genes_genes"),
        plan.genes.div_ceil(2) + plan.genes.div_ceil(3)
    );
    assert!(n("genes_pathways") >= plan.genes && n("genes_pathways") <= 2 * plan.genes);
    assert_eq!(n("pathways_pathways"), n("pathways") - 20);
    assert_eq!(n("complexes_proteins"), 3 * n("complexes"));
    assert!(n("mm_genes_mm_genes") > 0 && n("genomic_elements_phenotypes") > 0);
    // Perturbed promoters: Perturb-seq element–gene edges and Multiome element pairs.
    assert!(n("genomic_elements_genomic_elements") > 0);
    // Two MORF effects per fifth gene.
    assert_eq!(n("genes_transcripts_genes"), 2 * plan.genes.div_ceil(5));
    let text: String = files(&d.0)
        .into_iter()
        .filter(|(f, _)| f.starts_with("proteins_proteins"))
        .map(|(_, b)| String::from_utf8(b).unwrap())
        .collect();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for t in v["interaction_type"].as_array().unwrap() {
            let t = t.as_str().unwrap();
            assert!(
                varcat_indexer::schema::PROTEIN_INTERACTION_TYPES.contains(&t),
                "{t}"
            );
        }
    }
}

/// The JSON documents of a collection (all its part files).
fn docs_of(dir: &Path, coll: &str) -> Vec<serde_json::Value> {
    files(dir)
        .into_iter()
        .filter(|(name, _)| name.split('.').next() == Some(coll) && name.ends_with(".jsonl"))
        .flat_map(|(_, bytes)| {
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn test_heavy_benchmark_targets_have_many_rows() {
    let d = TempDir::new("heavy");
    gen(&d.0, 30_000, 1, false, 2);
    let plan = Plan::new(30_000, 1);
    // The common traits take a share of the GWAS hits; an ordinary term a handful.
    let gwas = docs_of(&d.0, "variants_phenotypes");
    let to = |t: String| {
        gwas.iter()
            .filter(|e| e["_to"] == format!("ontology_terms/{t}"))
            .count()
    };
    let common = to(term(0, COMMON_TRAIT)) + to(term(7, COMMON_TRAIT));
    assert!(
        common * 6 > gwas.len() && common * 3 < gwas.len(),
        "{common} of {} GWAS hits on the common traits",
        gwas.len()
    );
    assert!(to(term(0, COMMON_TRAIT + 1)) < common / 10);
    // A dense gene has a coding variant for every SNV inside it: hundreds.
    let coding = docs_of(&d.0, "coding_variants");
    let dense: Vec<Gene> = plan
        .chroms
        .iter()
        .flat_map(|c| (0..c.genes).map(move |g| (c, g)))
        .map(|(c, g)| (c, plan.gene(c, g)))
        .filter(|(c, g)| dense_coding(g) && g.end <= c.span)
        .map(|(_, g)| g)
        .collect();
    assert!(!dense.is_empty());
    for g in &dense {
        let n = coding
            .iter()
            .filter(|cv| cv["gene_name"] == symbol(g.gg))
            .count() as u64;
        // about (length / MEAN_GAP) × the SNV share (92 %)
        let want = (g.end - g.start) / MEAN_GAP * 3 / 4;
        assert!(
            n >= want,
            "{}: {n} coding variants, want ≥ {want}",
            symbol(g.gg)
        );
    }
}

/// Expected LD rows of a plan at `draws` draws per variant: the j-th variant of a chromosome
/// draws among min(j, 32) previous ones, k·(1 − ((k−1)/k)^draws) distinct on average.
fn expected_ld_rows(plan: &Plan, draws: u32) -> f64 {
    let per_chrom = |n: u64| -> f64 {
        (0..n)
            .map(|j| j.min(32) as f64)
            .filter(|&k| k > 0.0)
            .map(|k| k * (1.0 - ((k - 1.0) / k).powi(draws as i32)))
            .sum()
    };
    plan.chroms.iter().map(|c| per_chrom(c.variants)).sum()
}

#[test]
fn test_ld_draws_set_the_ld_rows_per_variant() {
    let plan = Plan::new(4_600, 3);
    for (draws, name) in [(LD_DRAWS, "ld-default"), (12, "ld-12"), (0, "ld-0")] {
        let d = TempDir::new(name);
        let s = generate(&Options {
            seed: 3,
            threads: 2,
            ld_draws: draws,
            ..Options::new(4_600, &d.0)
        })
        .unwrap();
        let rows = s.docs.get("variants_variants").copied().unwrap_or(0) as f64;
        let want = expected_ld_rows(&plan, draws);
        assert!(
            (rows - want).abs() <= 0.03 * want,
            "{draws} draws: {rows} LD rows, expected {want:.0}"
        );
        assert_eq!(
            s.docs["variants"], 4_600,
            "the variants do not depend on the LD rate"
        );
        let manifest: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.0.join("synth.json")).unwrap()).unwrap();
        let recorded = (draws != LD_DRAWS).then_some(draws);
        assert_eq!(
            manifest.get("ld_draws").and_then(|d| d.as_u64()),
            recorded.map(u64::from)
        );
    }
    // Far from a chromosome's start: 3.8 rows at the default (RATES), ~10 for the LD rung.
    assert!((ld_rows_per_variant(LD_DRAWS) - 3.81).abs() < 0.01);
    assert!((ld_rows_per_variant(12) - 10.13).abs() < 0.01);
}
