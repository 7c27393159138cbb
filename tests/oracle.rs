//! The test oracle: reads `testdata/catalog/*.jsonl` with serde_json and computes expected
//! answers the slow, obvious way. It shares no code with varcat, so a wrong index cannot agree
//! with itself.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use serde_json::{json, Map, Value};

use crate::util::testdata;

pub struct Data {
    colls: HashMap<String, Vec<Value>>,
    index: HashMap<String, HashMap<String, usize>>,
}

/// Every collection of testdata, parts merged (later duplicates' members win).
pub fn data() -> &'static Data {
    static D: OnceLock<Data> = OnceLock::new();
    D.get_or_init(|| {
        let mut files: Vec<_> = std::fs::read_dir(testdata())
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".jsonl"))
            .collect();
        files.sort();
        let mut colls: HashMap<String, Vec<Value>> = HashMap::new();
        let mut index: HashMap<String, HashMap<String, usize>> = HashMap::new();
        for f in files {
            let coll = f.split('.').next().unwrap().to_string();
            let text = std::fs::read_to_string(testdata().join(&f)).unwrap();
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let line = line.replace(": NaN", ": null");
                let mut doc: Value = serde_json::from_str(&line).unwrap();
                if doc.get("_key").is_none() {
                    // Keyless edges get "<_from> <_to>" (FORMAT.md).
                    let k = format!(
                        "{} {}",
                        doc["_from"].as_str().unwrap(),
                        doc["_to"].as_str().unwrap()
                    );
                    doc["_key"] = json!(k);
                }
                let key = doc["_key"].as_str().unwrap().to_string();
                let docs = colls.entry(coll.clone()).or_default();
                let idx = index.entry(coll.clone()).or_default();
                match idx.get(&key) {
                    Some(&i) => {
                        for (k, v) in doc.as_object().unwrap() {
                            docs[i][k] = v.clone();
                        }
                    }
                    None => {
                        idx.insert(key, docs.len());
                        docs.push(doc);
                    }
                }
            }
        }
        Data { colls, index }
    })
}

impl Data {
    pub fn docs(&self, coll: &str) -> &[Value] {
        self.colls.get(coll).map_or(&[], |v| v.as_slice())
    }

    pub fn get(&self, coll: &str, key: &str) -> Option<&Value> {
        let i = *self.index.get(coll)?.get(key)?;
        Some(&self.colls[coll][i])
    }

    /// Resolves `collection/key`.
    pub fn handle(&self, h: &str) -> Option<&Value> {
        let (c, k) = h.split_once('/')?;
        self.get(c, k)
    }
}

pub fn s<'a>(v: &'a Value, f: &str) -> &'a str {
    v.get(f).and_then(Value::as_str).unwrap_or("")
}

/// Builds an object with members in the given order; absent members are null, and an
/// integral float in a listed integer member becomes an integer.
pub fn obj(doc: &Value, members: &[(&str, &str)]) -> Value {
    let mut m = Map::new();
    for (out, from) in members {
        let mut v = doc.get(*from).cloned().unwrap_or(Value::Null);
        if let Value::Array(a) = &mut v {
            a.retain(|x| !x.is_null());
        }
        m.insert(out.to_string(), v);
    }
    Value::Object(m)
}

pub const GENE: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("chr", "chr"),
    ("start", "start"),
    ("end", "end"),
    ("gene_type", "gene_type"),
    ("name", "name"),
    ("strand", "strand"),
    ("hgnc", "hgnc"),
    ("entrez", "entrez"),
    ("collections", "collections"),
    ("study_sets", "study_sets"),
    ("source", "source"),
    ("version", "version"),
    ("source_url", "source_url"),
    ("synonyms", "synonyms"),
];

pub const PROTEIN: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("uniprot_names", "uniprot_names"),
    ("uniprot_full_names", "uniprot_full_names"),
    ("uniprot_ids", "uniprot_ids"),
    ("dbxrefs", "dbxrefs"),
    ("MANE_Select", "MANE_Select"),
    ("organism", "organism"),
    ("source", "source"),
    ("source_url", "source_url"),
];

/// A handle member: the id string, or with `verbose` the target in `shape` when it exists.
pub fn id_or(handle: &str, verbose: bool, shape: &[(&str, &str)]) -> Value {
    match data().handle(handle) {
        Some(doc) if verbose => obj(doc, shape),
        _ => json!(handle),
    }
}

pub fn mouse(org: &str) -> bool {
    org == "Mus musculus"
}

pub fn coll(org: &str, human: &str) -> String {
    if mouse(org) {
        format!("mm_{human}")
    } else {
        human.to_string()
    }
}

pub fn overlaps(doc: &Value, region: (&str, u64, u64)) -> bool {
    s(doc, "chr") == region.0
        && doc["start"].as_f64().unwrap() < region.2 as f64
        && doc["end"].as_f64().unwrap() > region.1 as f64
}

/// Lower-cased tokens: maximal runs of letters and digits.
pub fn tokens(x: &str) -> Vec<String> {
    x.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect()
}

pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            d[i][j] = (d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]))
                .min(d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1);
        }
    }
    d[a.len()][b.len()]
}

/// The name cascade over `docs` already filtered by everything else: exact, then all tokens,
/// then one edit on the first token.
pub fn name_cascade<'a>(docs: Vec<&'a Value>, field: &str, q: &str) -> Vec<&'a Value> {
    let exact: Vec<&Value> = docs.iter().copied().filter(|d| s(d, field) == q).collect();
    if !exact.is_empty() {
        return exact;
    }
    let qt = tokens(q);
    if qt.is_empty() {
        return Vec::new();
    }
    let all: Vec<&Value> = docs
        .iter()
        .copied()
        .filter(|d| {
            let t = tokens(s(d, field));
            qt.iter().all(|x| t.contains(x))
        })
        .collect();
    if !all.is_empty() {
        return all;
    }
    docs.into_iter()
        .filter(|d| {
            tokens(s(d, field))
                .iter()
                .any(|t| edit_distance(t, &qt[0]) <= 1)
        })
        .collect()
}

pub fn sorted_by_key(mut v: Vec<&Value>) -> Vec<&Value> {
    v.sort_by(|a, b| s(a, "_key").cmp(s(b, "_key")));
    v
}

/// Genes of `org` matching the gene parameters (4.1, 4.4, 4.24).
pub fn genes(
    org: &str,
    gene_id: Option<&str>,
    hgnc: Option<&str>,
    synonym: Option<&str>,
    name: Option<&str>,
) -> Vec<&'static Value> {
    let hgnc = hgnc.map(|h| {
        if h.chars().all(|c| c.is_ascii_digit()) {
            format!("HGNC:{h}")
        } else {
            h.to_string()
        }
    });
    let docs: Vec<&Value> = data()
        .docs(&coll(org, "genes"))
        .iter()
        .filter(|g| {
            gene_id.is_none_or(|id| {
                s(g, "_key") == id || s(g, "_key") == id.split('.').next().unwrap()
            })
        })
        .filter(|g| hgnc.as_deref().is_none_or(|h| s(g, "hgnc") == h))
        .filter(|g| {
            synonym.is_none_or(|x| {
                g["synonyms"]
                    .as_array()
                    .is_some_and(|a| a.iter().any(|v| v == x))
            })
        })
        .collect();
    let docs = match name {
        Some(q) => name_cascade(docs, "name", q),
        None => docs,
    };
    sorted_by_key(docs)
}

/// Every (gene handle, protein handle) pair linked through a transcript, with the protein's
/// organism (or the edge's when the protein is missing), sorted.
pub fn gene_protein_pairs() -> Vec<(String, String, String)> {
    let mut out = BTreeSet::new();
    for tp in data().docs("transcripts_proteins") {
        for gt in data().docs("genes_transcripts") {
            if gt["_to"] == tp["_from"] {
                let organism = data()
                    .handle(s(tp, "_to"))
                    .map(|p| s(p, "organism").to_string())
                    .unwrap_or_else(|| s(tp, "organism").to_string());
                out.insert((
                    s(gt, "_from").to_string(),
                    s(tp, "_to").to_string(),
                    organism,
                ));
            }
        }
    }
    out.into_iter().collect()
}

/// The protein a transcript translates to (first transcripts_proteins edge by key).
pub fn protein_of_transcript(handle: &str) -> Option<String> {
    let mut edges: Vec<&Value> = data()
        .docs("transcripts_proteins")
        .iter()
        .filter(|e| s(e, "_from") == handle)
        .collect();
    edges.sort_by(|a, b| s(a, "_key").cmp(s(b, "_key")));
    edges
        .first()
        .map(|e| s(e, "_to").split_once('/').unwrap().1.to_string())
}

/// Proteins matching 4.23's filters.
pub fn proteins(org: &str, filters: &BTreeMap<&str, &str>) -> Vec<&'static Value> {
    let has =
        |p: &Value, f: &str, v: &str| p[f].as_array().is_some_and(|a| a.iter().any(|x| x == v));
    data()
        .docs("proteins")
        .iter()
        .filter(|p| s(p, "organism") == org)
        .filter(|p| {
            filters.iter().all(|(k, v)| match *k {
                "protein_id" => {
                    let bare = v.split('.').next().unwrap();
                    s(p, "_key") == *v
                        || s(p, "_key") == bare
                        || s(p, "protein_id") == *v
                        || has(p, "uniprot_ids", v)
                }
                "protein_name" | "name" => s(p, "name") == *v,
                "uniprot_name" => has(p, "uniprot_names", v),
                "uniprot_full_name" => has(p, "uniprot_full_names", v),
                "dbxrefs" => p["dbxrefs"]
                    .as_array()
                    .is_some_and(|a| a.iter().any(|x| x["id"] == *v)),
                _ => panic!("unknown filter {k}"),
            })
        })
        .collect()
}

/// Allele-frequency sources in output order (written out here, independently of varcat).
pub const AF: &[&str] = &[
    "bravo_af",
    "gnomad_af_total",
    "gnomad_af_afr",
    "gnomad_af_afr_female",
    "gnomad_af_afr_male",
    "gnomad_af_ami",
    "gnomad_af_ami_female",
    "gnomad_af_ami_male",
    "gnomad_af_amr",
    "gnomad_af_amr_female",
    "gnomad_af_amr_male",
    "gnomad_af_asj",
    "gnomad_af_asj_female",
    "gnomad_af_asj_male",
    "gnomad_af_eas",
    "gnomad_af_eas_female",
    "gnomad_af_eas_male",
    "gnomad_af_female",
    "gnomad_af_fin",
    "gnomad_af_fin_female",
    "gnomad_af_fin_male",
    "gnomad_af_male",
    "gnomad_af_nfe",
    "gnomad_af_nfe_female",
    "gnomad_af_nfe_male",
    "gnomad_af_oth",
    "gnomad_af_oth_female",
    "gnomad_af_oth_male",
    "gnomad_af_sas",
    "gnomad_af_sas_male",
    "gnomad_af_sas_female",
    "gnomad_af_raw",
];

/// The frequency of `source` of a variant document (gnomad_af_X is stored as af_X).
pub fn af(v: &Value, source: &str) -> Option<f64> {
    let raw = source.strip_prefix("gnomad_").unwrap_or(source);
    v.get("annotations")?.get(raw)?.as_f64()
}

/// The output `annotations` of a variant document.
pub fn annotations(v: &Value) -> Value {
    let mut m = Map::new();
    for src in AF {
        m.insert(
            src.to_string(),
            af(v, src).map_or(Value::Null, |x| json!(x)),
        );
    }
    let funseq = v
        .get("annotations")
        .and_then(|a| a.get("funseq_description"))
        .cloned()
        .unwrap_or(Value::Null);
    m.insert("GENCODE_category".into(), funseq.clone());
    m.insert("funseq_description".into(), funseq);
    Value::Object(m)
}

/// Variant identifier filters of a request.
#[derive(Default, Clone, Copy)]
pub struct VariantQuery<'a> {
    pub variant_id: Option<&'a str>,
    pub spdi: Option<&'a str>,
    pub hgvs: Option<&'a str>,
    pub rsid: Option<&'a str>,
    pub ca_id: Option<&'a str>,
    pub region: Option<(&'a str, u64, u64)>,
}

/// Variants matching every given identifier, in key order.
pub fn variants(coll: &str, q: VariantQuery<'_>) -> Vec<&'static Value> {
    sorted_by_key(
        data()
            .docs(coll)
            .iter()
            .filter(|v| q.variant_id.is_none_or(|x| s(v, "_key") == x))
            .filter(|v| q.spdi.is_none_or(|x| s(v, "spdi") == x))
            .filter(|v| q.hgvs.is_none_or(|x| s(v, "hgvs") == x))
            .filter(|v| q.ca_id.is_none_or(|x| s(v, "ca_id") == x))
            .filter(|v| {
                q.rsid.is_none_or(|x| {
                    v["rsid"]
                        .as_array()
                        .is_some_and(|a| a.iter().any(|r| r == x))
                })
            })
            .filter(|v| {
                q.region.is_none_or(|(c, st, en)| {
                    let p = v["pos"].as_f64().unwrap() as u64;
                    s(v, "chr") == c && st <= p && p < en
                })
            })
            .collect(),
    )
}

pub const SHORT_VARIANT: &[(&str, &str)] = &[
    ("chr", "chr"),
    ("pos", "pos"),
    ("ref", "ref"),
    ("alt", "alt"),
    ("rsid", "rsid"),
    ("spdi", "spdi"),
    ("hgvs", "hgvs"),
    ("ca_id", "ca_id"),
    ("_id", "_key"),
];

/// The display form of a stored coding-variant name: `!` → `?`, and the last `-` of the `c.`
/// part → `>`.
pub fn display_name(n: &str) -> String {
    let n = n.replace('!', "?");
    match n.rfind("_c.") {
        Some(i) => {
            let (head, tail) = n.split_at(i + 3);
            match tail.rfind('-') {
                Some(j) if j > 0 && !tail.contains('>') => {
                    format!("{head}{}>{}", &tail[..j], &tail[j + 1..])
                }
                _ => n.clone(),
            }
        }
        None => n,
    }
}

/// The full variant object (verbose variants of 4.1 and the 4.2 record).
pub fn variant_full(v: &Value) -> Value {
    let mut m = Map::new();
    m.insert(
        "organism".into(),
        json!(v
            .get("organism")
            .and_then(Value::as_str)
            .unwrap_or("Homo sapiens")),
    );
    for (out, from) in [
        ("_id", "_key"),
        ("chr", "chr"),
        ("pos", "pos"),
        ("rsid", "rsid"),
        ("ref", "ref"),
        ("alt", "alt"),
        ("spdi", "spdi"),
        ("hgvs", "hgvs"),
        ("ca_id", "ca_id"),
        ("qual", "qual"),
        ("files_filesets", "files_filesets"),
    ] {
        m.insert(out.into(), v.get(from).cloned().unwrap_or(Value::Null));
    }
    m.insert("annotations".into(), annotations(v));
    for f in ["source", "source_url", "strain"] {
        m.insert(f.into(), v.get(f).cloned().unwrap_or(Value::Null));
    }
    Value::Object(m)
}

pub const STUDY: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("ancestry_initial", "ancestry_initial"),
    ("ancestry_replication", "ancestry_replication"),
    ("n_cases", "n_cases"),
    ("n_initial", "n_initial"),
    ("n_replication", "n_replication"),
    ("pmid", "pmid"),
    ("pub_author", "pub_author"),
    ("pub_date", "pub_date"),
    ("pub_journal", "pub_journal"),
    ("pub_title", "pub_title"),
    ("has_sumstats", "has_sumstats"),
    ("num_assoc_loci", "num_assoc_loci"),
    ("study_source", "study_source"),
    ("trait_reported", "trait_reported"),
    ("trait_efos", "trait_efos"),
    ("trait_category", "trait_category"),
    ("source", "source"),
    ("study_type", "study_type"),
    ("version", "version"),
    ("files_filesets", "files_filesets"),
];
pub const DRUG: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("drug_ontology_terms", "drug_ontology_terms"),
    ("source", "source"),
    ("source_url", "source_url"),
    ("class", "class"),
    ("method", "method"),
    ("files_filesets", "files_filesets"),
];
pub const TERM: &[(&str, &str)] = &[
    ("uri", "uri"),
    ("term_id", "term_id"),
    ("name", "name"),
    ("synonyms", "synonyms"),
    ("description", "description"),
    ("source", "source"),
    ("subontology", "subontology"),
    ("source_url", "source_url"),
    ("class", "class"),
    ("method", "method"),
    ("files_filesets", "files_filesets"),
];
/// Edges of `coll` whose `_from` is one of `variants`, in key order.
pub fn edges_from<'a>(coll: &str, variants: &[&Value]) -> Vec<&'a Value> {
    let handles: Vec<String> = variants
        .iter()
        .map(|v| format!("variants/{}", s(v, "_key")))
        .collect();
    sorted_by_key(
        data()
            .docs(coll)
            .iter()
            .filter(|e| handles.iter().any(|h| h == s(e, "_from")))
            .collect(),
    )
}
