//! Whole-catalog property test: random JSON Lines for four real collections (genes,
//! genes_structure, variants, variants_genes) are built into a catalog, and every record and
//! index read back is compared with a model computed by scanning the generated documents.
//!
//! The model states each rule plainly (merge = later members win, keyless edges are keyed
//! `<from> <to>`, record order, what an index holds) and is computed without the indexer's
//! code; the only schema-specific normalisations modelled are the simple ones of the
//! generated members.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering as Atomic};

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
use serde_json::{json, Map, Value};
use varcat_format::collection::{Collection, Collections};
use varcat_format::fstmap::MultiMap;
use varcat_format::points::PointIndex;
use varcat_format::vocab::AF_SOURCES;
use varcat_format::{Catalog, KeyEncoding};
use varcat_indexer::{build, Options, Report};

// ---------------------------------------------------------------- input

/// A document or a record: members by name.
type Rec = Map<String, Value>;

/// Words of names and contexts: mixed case, accents, scripts whose case folding is not ASCII,
/// an embedded NUL (escaped in sort keys).
const WORDS: &[&str] = &[
    "BRCA1", "brca1", "HLA", "a", "Éclair", "café", "ΣΑΣ", "straße", "İz", "p53", "TP53", "ǅx",
    "n\u{0}l",
];
const SYMBOLS: &[&str] = &["BRCA1", "TP53", "tp53", "HLA-A"];
const CHROMS: &[&str] = &["chr1", "chr1", "chr1", "chr2", "chrX"];
const NUMS: &[f64] = &[0.0, 0.5, 1.0, 2.5, -1.25, 3.0, 1e-8, 123.456];
const HEX_KEYS: &[&str] = &["00", "0a", "ab12", "ff", "0a0b", "ffff00"];

/// One input file: its documents and whether it is gzip-compressed.
#[derive(Clone)]
struct File {
    gz: bool,
    docs: Vec<Rec>,
}

impl fmt::Debug for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.docs.iter().map(|d| json!(d).to_string()).collect();
        f.debug_struct("File")
            .field("gz", &self.gz)
            .field("lines", &lines)
            .finish()
    }
}

#[derive(Clone, Debug)]
struct Input {
    /// (collection, its files in name order).
    collections: Vec<(&'static str, Vec<File>)>,
    threads: usize,
    mem_budget: usize,
}

/// A member that is usually present, sometimes missing (None), sometimes an explicit null.
fn member(s: impl Strategy<Value = Value>) -> impl Strategy<Value = Option<Value>> {
    prop_oneof![1 => Just(None), 1 => Just(Some(Value::Null)), 6 => s.prop_map(Some)]
}

/// A document from its members (missing ones left out).
fn doc(members: Vec<(&str, Option<Value>)>) -> Rec {
    members
        .into_iter()
        .filter_map(|(k, v)| Some((k.to_string(), v?)))
        .collect()
}

fn word() -> impl Strategy<Value = String> {
    select(WORDS).prop_map(str::to_string)
}

/// One to three words joined by a separator; sometimes empty.
fn text() -> impl Strategy<Value = Value> {
    let joined = (
        prop::collection::vec(word(), 1..=3),
        select(&[" ", "-", ", "][..]),
    )
        .prop_map(|(w, sep)| json!(w.join(sep)));
    prop_oneof![8 => joined, 1 => Just(json!(""))]
}

/// A string member, now and then given as a number (stored as its text).
fn string(pool: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop_oneof![4 => select(pool).prop_map(|s| json!(s)), 1 => (0u32..20).prop_map(|n| json!(n))]
}

/// A string array with null and numeric elements, or a lone string.
fn strings(pool: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let element = prop_oneof![
        4 => select(pool).prop_map(|s| json!(s)),
        1 => Just(Value::Null),
        1 => (0u32..5).prop_map(|n| json!(n)),
    ];
    prop_oneof![
        3 => prop::collection::vec(element, 0..4).prop_map(Value::Array),
        1 => select(pool).prop_map(|s| json!(s)),
    ]
}

/// A number, sometimes as numeric text.
fn number() -> impl Strategy<Value = Value> {
    (select(NUMS), any::<bool>()).prop_map(|(f, text)| {
        if text {
            json!(format!("{f:?}"))
        } else {
            json!(f)
        }
    })
}

/// An integer coordinate written as `n`, `"n"` or `n.0`; rarely one that cannot be placed.
fn coordinate(n: u32, form: u8) -> Value {
    match form {
        0 => json!(n),
        1 => json!(n.to_string()),
        2 => json!(n as f64),
        3 => json!(-1),
        _ => json!(1.5),
    }
}

fn form() -> impl Strategy<Value = u8> {
    prop_oneof![12 => 0u8..3, 1 => 3u8..5]
}

/// chr/start/end: mostly start <= end on a few chromosomes (most on chr1, so that its interval
/// tree is deeper than a linear scan), sometimes unplaceable.
fn interval() -> impl Strategy<Value = Vec<(&'static str, Option<Value>)>> {
    let chr = prop_oneof![
        10 => select(CHROMS).prop_map(|c| json!(c)),
        1 => Just(json!("")),
        1 => Just(json!(1)),
    ];
    (
        member(chr),
        0u32..60,
        prop_oneof![4 => (0u32..25).prop_map(Some), 1 => Just(None)],
        0u32..60,
        form(),
        form(),
        prop::option::weighted(0.9, Just(())),
    )
        .prop_map(|(chr, s, len, other, fs, fe, has_start)| {
            let e = len.map_or(other, |l| s + l);
            vec![
                ("chr", chr),
                ("start", has_start.map(|_| coordinate(s, fs))),
                ("end", Some(coordinate(e, fe))),
            ]
        })
}

fn gene() -> impl Strategy<Value = Rec> {
    let key = prop_oneof![
        8 => (0u32..40).prop_map(|n| json!(format!("G{n}"))),
        1 => (0u32..4).prop_map(|n| json!(n)),
        1 => select(&["Gé", "g1", "G1 x", "3", "G\u{0}1"][..]).prop_map(|s| json!(s)),
    ];
    (
        key,
        member(text()),
        member(string(SYMBOLS)),
        member(strings(WORDS)),
        interval(),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(key, name, symbol, synonyms, place, mystery)| {
            let mut m = vec![
                ("_key", Some(key)),
                ("name", name),
                ("symbol", symbol),
                ("synonyms", synonyms),
            ];
            m.extend(place);
            // An unknown member: dropped with a warning.
            m.push(("mystery", mystery.then(|| json!(1))));
            doc(m)
        })
}

fn structure() -> impl Strategy<Value = Rec> {
    (
        (0u32..30).prop_map(|n| json!(format!("S{n}"))),
        member(string(&["ENSG1", "ENSG2", "ENSG10"])),
        member(select(&["T1", "T2", "T10"][..]).prop_map(|s| json!(s))),
        member(select(&["exon", "CDS", "UTR"][..]).prop_map(|s| json!(s))),
        interval(),
    )
        .prop_map(|(key, gene, transcript, ty, place)| {
            let mut m = vec![
                ("_key", Some(key)),
                ("gene_id", gene),
                ("transcript_id", transcript),
                ("type", ty),
            ];
            m.extend(place);
            doc(m)
        })
}

fn variant() -> impl Strategy<Value = Rec> {
    let chr = prop_oneof![10 => select(CHROMS).prop_map(|c| json!(c)), 1 => Just(json!(""))];
    let annotations = (
        member(number()),
        member(number()),
        member(number()),
        member(prop_oneof![
            3 => select(&["coding", "noncoding", "intronic"][..]).prop_map(|s| json!(s)),
            1 => Just(json!(5)),
        ]),
    )
        .prop_map(|(bravo, total, afr, funseq)| {
            json!(doc(vec![
                ("bravo_af", bravo),
                ("af_total", total),
                ("af_afr", afr),
                ("funseq_description", funseq),
                ("cadd", Some(json!(7))),
            ]))
        });
    (
        (0u32..30).prop_map(|n| json!(format!("V{n}"))),
        member(chr),
        (0u32..40, form()),
        member(select(&["NC_1:5:A:T", "NC_1:9:G:C", "NC_2:1:T:A"][..]).prop_map(|s| json!(s))),
        member(strings(&["rs1", "rs2", "rs10"])),
        member(annotations),
        prop_oneof![6 => Just(None), 1 => Just(Some(json!("Mus musculus")))],
    )
        .prop_map(|(key, chr, (pos, f), spdi, rsid, ann, organism)| {
            doc(vec![
                ("_key", Some(key)),
                ("chr", chr),
                ("pos", Some(coordinate(pos, f))),
                ("spdi", spdi),
                ("rsid", rsid),
                ("annotations", ann),
                ("organism", organism),
            ])
        })
}

/// An edge: its key is lowercase hex, text or absent (then keyed `<from> <to>`).
fn edge() -> impl Strategy<Value = Rec> {
    let key = prop_oneof![
        2 => Just(None),
        1 => select(HEX_KEYS).prop_map(|k| Some(json!(k))),
        1 => select(&["E1", "E2", "E10"][..]).prop_map(|k| Some(json!(k))),
    ];
    (
        key,
        (0u32..35).prop_map(|n| json!(format!("variants/V{n}"))),
        (0u32..45).prop_map(|n| json!(format!("genes/G{n}"))),
        member(select(&["eQTL", "caQTL", "CRISPR"][..]).prop_map(|s| json!(s))),
        member(any::<bool>().prop_map(|b| json!(b))),
        member(text()),
        member(number()),
        member(number()),
    )
        .prop_map(|(key, from, to, method, sig, context, p, effect)| {
            doc(vec![
                ("_key", key),
                ("_from", Some(from)),
                ("_to", Some(to)),
                ("method", method),
                ("significant", sig),
                ("biological_context", context),
                ("neg_log10_pvalue", p),
                ("effect_size", effect),
            ])
        })
}

/// One to three files of up to `max` documents each, some gzip-compressed.
fn files<S: Strategy<Value = Rec>>(docs: S, max: usize) -> impl Strategy<Value = Vec<File>> {
    let file = (
        prop::bool::weighted(0.3),
        prop::collection::vec(docs, 0..=max),
    )
        .prop_map(|(gz, docs)| File { gz, docs });
    prop::collection::vec(file, 1..=3)
}

fn input() -> impl Strategy<Value = Input> {
    (
        files(gene(), 20),
        files(structure(), 12),
        files(variant(), 14),
        files(edge(), 12),
        any::<bool>(),
        1usize..=2,
        // A tiny budget makes every sorter spill and merge runs.
        prop_oneof![Just(varcat_indexer::DEFAULT_MEM_BUDGET), Just(8usize << 10)],
    )
        .prop_map(|(g, s, v, mut e, hex_only, threads, mem_budget)| {
            if hex_only {
                // Every edge keyed in lowercase hex: the key map stores them packed.
                let docs = e.iter_mut().flat_map(|f| &mut f.docs);
                for (i, d) in docs.enumerate() {
                    if !d
                        .get("_key")
                        .is_some_and(|k| HEX_KEYS.iter().any(|h| k == h))
                    {
                        d.insert("_key".into(), json!(HEX_KEYS[i % HEX_KEYS.len()]));
                    }
                }
            }
            Input {
                collections: vec![
                    ("genes", g),
                    ("genes_structure", s),
                    ("variants", v),
                    ("variants_genes", e),
                ],
                threads,
                mem_budget,
            }
        })
}

// ---------------------------------------------------------------- model

/// How the schema normalises each generated member.
#[derive(Clone, Copy, PartialEq)]
enum Ty {
    Str,
    Int,
    Num,
    StrArray,
    Any,
}

fn ty(member: &str) -> Ty {
    match member {
        "start" | "end" | "pos" => Ty::Int,
        "synonyms" | "rsid" => Ty::StrArray,
        "neg_log10_pvalue" | "effect_size" => Ty::Num,
        "significant" | "annotations" => Ty::Any,
        _ => Ty::Str,
    }
}

/// A member as stored (None: not stored). Numbers in string fields become their text, integral
/// coordinates become integers, numeric text in number fields becomes a number, string arrays
/// lose null elements and hold numbers as text, a lone string becomes a one-element array.
fn normal(member: &str, v: &Value) -> Option<Value> {
    Some(match (ty(member), v) {
        (_, Value::Null) => return None,
        (Ty::Str, Value::Number(n)) => json!(n.to_string()),
        (Ty::Int, Value::String(s)) => json!(s.parse::<i64>().expect("integer text")),
        (Ty::Int, Value::Number(n)) if n.as_f64().unwrap().fract() == 0.0 => {
            json!(n.as_f64().unwrap() as i64)
        }
        (Ty::Num, Value::String(s)) => json!(s.parse::<f64>().expect("numeric text")),
        (Ty::StrArray, Value::String(s)) => json!([s]),
        (Ty::StrArray, Value::Array(a)) => a
            .iter()
            .filter(|e| !e.is_null())
            .map(|e| match e {
                Value::Number(n) => json!(n.to_string()),
                e => e.clone(),
            })
            .collect(),
        (_, v) => v.clone(),
    })
}

/// A variant's `annotations` as stored: every allele-frequency source (read from the given
/// member without `gnomad_`, numbers only), then `GENCODE_category` and `funseq_description`
/// (from `funseq_description`, strings only). A variant without annotations gets all nulls.
fn variant_annotations(given: Option<&Value>) -> Value {
    let get = |name: &str, keep: fn(&Value) -> bool| {
        given
            .and_then(|a| a.get(name))
            .filter(|v| keep(v))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let mut out = Map::new();
    for s in AF_SOURCES {
        let v = get(s.strip_prefix("gnomad_").unwrap_or(s), Value::is_number);
        out.insert(s.to_string(), v);
    }
    let funseq = get("funseq_description", Value::is_string);
    out.insert("GENCODE_category".into(), funseq.clone());
    out.insert("funseq_description".into(), funseq);
    Value::Object(out)
}

/// Where a record lies: (chr, start, end); None when it cannot be placed (chr not a non-empty
/// string, a coordinate not a non-negative integer, start after end).
type Place = (String, u32, u32);

fn place(rec: &Rec, start: &str, end: &str) -> Option<Place> {
    let chr = rec.get("chr")?.as_str().filter(|c| !c.is_empty())?;
    let coord = |n: &str| rec.get(n)?.as_u64().and_then(|x| u32::try_from(x).ok());
    let (s, e) = (coord(start)?, coord(end)?);
    (s <= e).then(|| (chr.to_string(), s, e))
}

/// What one collection should hold.
struct Expected {
    name: &'static str,
    /// Records in ordinal order, `_key` included.
    recs: Vec<Rec>,
    merged: u64,
    derived_keys: u64,
    /// Documents (before merging) whose coordinates cannot be placed.
    unplaced: u64,
    null_elements: u64,
    /// Every key read is lowercase hex of even length.
    hex: bool,
}

/// Its coordinates (start, end members; the same member twice for points).
fn coords(name: &str) -> Option<(&'static str, &'static str)> {
    match name {
        "genes" | "genes_structure" => Some(("start", "end")),
        "variants" => Some(("pos", "pos")),
        _ => None,
    }
}

fn expect(name: &'static str, files: &[File]) -> Expected {
    let edge = name == "variants_genes";
    let mut e = Expected {
        name,
        recs: Vec::new(),
        merged: 0,
        derived_keys: 0,
        unplaced: 0,
        null_elements: 0,
        hex: true,
    };
    // Documents grouped by key, in input order (files in name order, then lines).
    let mut groups: BTreeMap<String, Vec<(bool, Rec)>> = BTreeMap::new();
    for d in files.iter().flat_map(|f| &f.docs) {
        let mut d = d.clone();
        if name == "variants" {
            let ann = variant_annotations(d.get("annotations"));
            d.insert("annotations".into(), ann);
            if d.get("organism").is_none_or(Value::is_null) {
                d.insert("organism".into(), json!("Homo sapiens"));
            }
        }
        for v in d.values().filter_map(Value::as_array) {
            e.null_elements += v.iter().filter(|x| x.is_null()).count() as u64;
        }
        let (key, keyless) = match (edge, d.get("_key")) {
            (_, Some(Value::String(k))) => (k.clone(), false),
            (false, Some(Value::Number(n))) => (n.to_string(), false),
            _ => (
                format!(
                    "{} {}",
                    d["_from"].as_str().unwrap(),
                    d["_to"].as_str().unwrap()
                ),
                true,
            ),
        };
        let mut rec: Rec = d
            .iter()
            .filter(|(k, _)| *k != "mystery")
            .filter_map(|(k, v)| Some((k.clone(), normal(k, v)?)))
            .collect();
        rec.insert("_key".into(), json!(key));
        if let Some((s, en)) = coords(name) {
            e.unplaced += place(&rec, s, en).is_none() as u64;
        }
        e.hex &= key.len().is_multiple_of(2)
            && key.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        groups.entry(key).or_default().push((keyless, rec));
    }
    e.hex &= !groups.is_empty();
    for (key, group) in groups {
        let extra = group.len() as u64 - 1;
        if group[0].0 {
            // Repeated keyless edges stay distinct: `<from> <to> #<n>` in input order.
            e.derived_keys += extra;
            for (i, (_, mut rec)) in group.into_iter().enumerate() {
                if i > 0 {
                    rec.insert("_key".into(), json!(format!("{key} #{:06}", i + 1)));
                }
                e.recs.push(rec);
            }
        } else {
            // Duplicates: the first document is kept (the default policy, `error`).
            e.merged += extra;
            let (_, rec) = group.into_iter().next().expect("a group has a document");
            e.recs.push(rec);
        }
    }
    let key = |r: &Rec| r["_key"].as_str().unwrap().to_string();
    match name {
        // 4.10 order: (gene_id, transcript_id, start), missing last, then _key.
        "genes_structure" => e.recs.sort_by(|a, b| {
            ["gene_id", "transcript_id", "start"]
                .iter()
                .map(|f| order_cmp(a.get(*f), b.get(*f)))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
                .then_with(|| key(a).cmp(&key(b)))
        }),
        _ => e.recs.sort_by_key(key),
    }
    e
}

/// Strings in byte order, numbers numerically, missing last.
fn order_cmp(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, _) => Ordering::Greater,
        (_, None) => Ordering::Less,
        (Some(Value::String(x)), Some(Value::String(y))) => x.cmp(y),
        (Some(x), Some(y)) => x.as_f64().unwrap().total_cmp(&y.as_f64().unwrap()),
    }
}

/// Member `name` of a record; `a.b` is member `b` of object member `a`.
fn get<'r>(rec: &'r Rec, name: &str) -> Option<&'r Value> {
    match name.split_once('.') {
        Some((top, sub)) => rec.get(top)?.get(sub),
        None => rec.get(name),
    }
}

/// The values an index takes from a stored member: a string, a boolean as text, each element
/// of an array.
fn index_values(v: Option<&Value>) -> BTreeSet<String> {
    match v {
        Some(Value::String(s)) => [s.clone()].into(),
        Some(Value::Bool(b)) => [b.to_string()].into(),
        Some(Value::Array(a)) => a.iter().flat_map(|x| index_values(Some(x))).collect(),
        _ => BTreeSet::new(),
    }
}

fn fold(s: &str) -> String {
    s.to_lowercase()
}

/// Folded text split at every character that is not a letter or digit.
fn tokens(s: &str) -> BTreeSet<String> {
    fold(s)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + (ca != cb) as usize).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// An exact-value index: value → ordinals whose member has it (`f` maps a value to its keys).
fn index_of(
    recs: &[Rec],
    field: &str,
    f: impl Fn(&str) -> BTreeSet<String>,
) -> BTreeMap<Vec<u8>, Vec<u64>> {
    let mut m: BTreeMap<Vec<u8>, Vec<u64>> = BTreeMap::new();
    for (o, r) in recs.iter().enumerate() {
        let keys: BTreeSet<String> = index_values(get(r, field))
            .iter()
            .flat_map(|v| f(v))
            .collect();
        for k in keys {
            m.entry(k.into_bytes()).or_default().push(o as u64);
        }
    }
    m
}

// ---------------------------------------------------------------- checks

/// Queries asked per kind, and how many the model answers with something (so that a run
/// whose queries all miss fails instead of passing).
#[derive(Default)]
struct Tally(BTreeMap<&'static str, (usize, usize)>);

impl Tally {
    fn add(&mut self, kind: &'static str, hit: bool) {
        let t = self.0.entry(kind).or_default();
        t.0 += 1;
        t.1 += hit as usize;
    }
}

fn list(l: Option<varcat_format::postings::List>) -> Vec<u64> {
    l.map(|l| l.iter().collect()).unwrap_or_default()
}

fn union(lists: Vec<varcat_format::postings::List>) -> Vec<u64> {
    let s: BTreeSet<u64> = lists.iter().flat_map(|l| l.iter()).collect();
    s.into_iter().collect()
}

fn check_exact(c: &Collection, field: &str, e: &Expected, queries: &[String], t: &mut Tally) {
    let ix = c
        .by(field)
        .unwrap_or_else(|| panic!("{}: no by.{field}", e.name));
    let model = index_of(&e.recs, field, |v| [v.to_string()].into());
    let entries: BTreeMap<Vec<u8>, Vec<u64>> = ix.entries().into_iter().collect();
    assert_eq!(entries, model, "{}: by.{field}", e.name);
    for q in queries {
        let want = model.get(q.as_bytes()).cloned().unwrap_or_default();
        assert_eq!(
            list(ix.get(q.as_bytes())),
            want,
            "{}: by.{field} {q:?}",
            e.name
        );
        t.add("exact", !want.is_empty());
    }
}

/// An edge end's adjacency answers every handle (stored, dangling or queried) as a value map
/// of the end would.
fn check_adjacency(c: &Collection, field: &str, e: &Expected, queries: &[String], t: &mut Tally) {
    let adj = c
        .adjacency(field)
        .unwrap_or_else(|| panic!("{}: no adj.{field}", e.name));
    let model = index_of(&e.recs, field, |v| [v.to_string()].into());
    for (h, want) in &model {
        let h = String::from_utf8_lossy(h);
        assert_eq!(list(adj.get(&h)), *want, "{}: adj.{field} {h:?}", e.name);
    }
    for q in queries {
        let want = model.get(q.as_bytes()).cloned().unwrap_or_default();
        assert_eq!(list(adj.get(q)), want, "{}: adj.{field} {q:?}", e.name);
        t.add("exact", !want.is_empty());
    }
}

/// The name-search tiers: exact, folded prefix, all tokens, first token within one edit.
fn check_text(c: &Collection, field: &str, e: &Expected, queries: &[String], t: &mut Tally) {
    check_exact(c, field, e, queries, t);
    let (fold_ix, tok_ix) = (c.fold(field).unwrap(), c.tokens(field).unwrap());
    let folded = index_of(&e.recs, field, |v| [fold(v)].into());
    let toks = index_of(&e.recs, field, tokens);
    let entries = |m: &MultiMap| m.entries().into_iter().collect::<BTreeMap<_, _>>();
    assert_eq!(entries(fold_ix), folded, "{}: fold.{field}", e.name);
    assert_eq!(entries(tok_ix), toks, "{}: tok.{field}", e.name);
    let value_tokens = |o: usize| -> BTreeSet<String> {
        index_values(get(&e.recs[o], field))
            .iter()
            .flat_map(|v| tokens(v))
            .collect()
    };
    for q in queries {
        let matching = |p: &dyn Fn(usize) -> bool| -> Vec<u64> {
            (0..e.recs.len())
                .filter(|&o| p(o))
                .map(|o| o as u64)
                .collect()
        };
        let prefix = matching(&|o| {
            index_values(get(&e.recs[o], field))
                .iter()
                .any(|v| fold(v).starts_with(&fold(q)))
        });
        let got = union(fold_ix.prefix(fold(q).as_bytes()));
        assert_eq!(got, prefix, "{}: prefix {q:?}", e.name);
        t.add("prefix", !prefix.is_empty());

        let qt = tokens(q);
        let Some(first) = fold(q)
            .split(|c: char| !c.is_alphanumeric())
            .find(|s| !s.is_empty())
            .map(str::to_string)
        else {
            continue;
        };
        let all = matching(&|o| qt.is_subset(&value_tokens(o)));
        let mut got: Option<BTreeSet<u64>> = None;
        for tok in &qt {
            let l: BTreeSet<u64> = list(tok_ix.get(tok.as_bytes())).into_iter().collect();
            got = Some(got.map_or(l.clone(), |g| &g & &l));
        }
        let got: Vec<u64> = got.unwrap_or_default().into_iter().collect();
        assert_eq!(got, all, "{}: tokens {q:?}", e.name);
        t.add("tokens", !all.is_empty());

        let fuzzy = matching(&|o| value_tokens(o).iter().any(|v| levenshtein(v, &first) <= 1));
        assert_eq!(
            union(tok_ix.fuzzy(&first, 1)),
            fuzzy,
            "{}: fuzzy {q:?}",
            e.name
        );
        t.add("fuzzy", !fuzzy.is_empty());
    }
}

fn check_facet(c: &Collection, field: &str, e: &Expected, t: &mut Tally) {
    let facet = c
        .facet(field)
        .unwrap_or_else(|| panic!("{}: no facet.{field}", e.name));
    let model: BTreeMap<String, Vec<u64>> = index_of(&e.recs, field, |v| [v.to_string()].into())
        .into_iter()
        .map(|(k, v)| (String::from_utf8(k).unwrap(), v))
        .collect();
    let got: BTreeMap<String, Vec<u64>> = facet
        .values()
        .map(|(v, b)| (v.to_string(), b.iter().collect()))
        .collect();
    assert_eq!(got, model, "{}: facet.{field}", e.name);
    t.add("facet", !model.is_empty());
}

/// A number column: the member's value where it is a number, else none.
fn check_numbers(c: &Collection, field: &str, e: &Expected, t: &mut Tally) {
    let col = c
        .number(field)
        .unwrap_or_else(|| panic!("{}: no num.{field}", e.name));
    assert_eq!(col.len(), e.recs.len());
    for (o, r) in e.recs.iter().enumerate() {
        let want = get(r, field).and_then(Value::as_f64);
        assert_eq!(col.get(o as u64), want, "{}: num.{field} of {o}", e.name);
        t.add("number", want.is_some());
    }
}

/// Windows and positions probed on every chromosome.
fn probes() -> impl Iterator<Item = (&'static str, u32, u32)> {
    let chroms = ["chr1", "chr2", "chrX", "1", "chrY"];
    chroms.into_iter().flat_map(|chr| {
        (0..70)
            .step_by(2)
            .flat_map(move |s| [1, 4, 16, 64].map(|len| (chr, s, s + len)))
    })
}

fn check_intervals(c: &Collection, e: &Expected, t: &mut Tally) {
    let ix = c.intervals().unwrap();
    // Empty intervals overlap nothing and are left out.
    let mut model: BTreeMap<String, Vec<(u32, u32, u64)>> = BTreeMap::new();
    for (o, r) in e.recs.iter().enumerate() {
        if let Some((chr, s, en)) = place(r, "start", "end").filter(|p| p.1 < p.2) {
            model.entry(chr).or_default().push((s, en, o as u64));
        }
    }
    model.values_mut().for_each(|v| v.sort());
    let chroms: BTreeSet<&str> = ix.chroms().iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        chroms,
        model.keys().map(String::as_str).collect(),
        "{}: chroms",
        e.name
    );
    for (chr, entries) in &model {
        assert_eq!(&ix.entries(chr), entries, "{}: intervals on {chr}", e.name);
    }
    for (chr, qs, qe) in probes() {
        let on = model.get(chr).map(Vec::as_slice).unwrap_or_default();
        let want: Vec<u64> = on
            .iter()
            .filter(|x| x.0 < qe && x.1 > qs)
            .map(|x| x.2)
            .collect();
        assert_eq!(
            ix.overlapping(chr, qs, qe),
            want,
            "{}: {chr}:{qs}-{qe}",
            e.name
        );
        t.add("overlap", !want.is_empty());
        let best = on.iter().map(|x| x.0).filter(|&s| s >= qs).min();
        let want = best.map(|b| {
            let mut o: Vec<u64> = on.iter().filter(|x| x.0 == b).map(|x| x.2).collect();
            o.sort();
            (b, o)
        });
        assert_eq!(
            ix.first_start_at_or_after(chr, qs),
            want,
            "{}: start >= {qs}",
            e.name
        );
        t.add("first start", want.is_some());
    }
}

/// A point index (variant positions, gene ends) against (chr, pos, ordinal) points.
fn check_points(ix: &PointIndex, points: Vec<(String, u32, u64)>, what: &str, t: &mut Tally) {
    let mut model: BTreeMap<String, Vec<(u32, u64)>> = BTreeMap::new();
    for (chr, p, o) in points {
        model.entry(chr).or_default().push((p, o));
    }
    model.values_mut().for_each(|v| v.sort());
    let chroms: BTreeSet<&str> = ix.chroms().iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        chroms,
        model.keys().map(String::as_str).collect(),
        "{what}: chroms"
    );
    for (chr, qs, qe) in probes() {
        let on = model.get(chr).map(Vec::as_slice).unwrap_or_default();
        let want: Vec<u64> = on
            .iter()
            .filter(|x| x.0 >= qs && x.0 < qe)
            .map(|x| x.1)
            .collect();
        assert_eq!(ix.in_range(chr, qs, qe), want, "{what}: {chr}:{qs}-{qe}");
        assert_eq!(
            ix.count_in(chr, qs, qe),
            want.len(),
            "{what}: count {chr}:{qs}-{qe}"
        );
        t.add("in range", !want.is_empty());
        let best = on.iter().map(|x| x.0).filter(|&p| p <= qs).max();
        let want = best.map(|b| (b, on.iter().filter(|x| x.0 == b).map(|x| x.1).collect()));
        assert_eq!(
            ix.last_at_or_below(chr, qs),
            want,
            "{what}: last <= {chr}:{qs}"
        );
        t.add("last below", want.is_some());
    }
}

/// Records (members and order), the key map and the report's counts.
fn check_records(c: &Collection, e: &Expected, report: &Report, t: &mut Tally) {
    let n = e.name;
    assert_eq!(c.len() as usize, e.recs.len(), "{n}: records");
    assert_eq!(
        report.documents.get(n).copied(),
        Some(e.recs.len() as u64),
        "{n}: documents"
    );
    assert_eq!(report.duplicates_in(n), e.merged, "{n}: merged");
    assert_eq!(
        report.derived_keys.get(n).copied().unwrap_or(0),
        e.derived_keys,
        "{n}: keys"
    );
    let unplaced = report.unplaced.get(n).map_or(0, |u| u.0);
    assert_eq!(unplaced, e.unplaced, "{n}: unplaced");
    let encoding = if e.hex {
        KeyEncoding::Hex
    } else {
        KeyEncoding::Text
    };
    assert_eq!(c.meta.key_encoding, encoding, "{n}: key encoding");
    // Only collections some request looks up by key have a key map (the schema says which).
    let keyed = varcat_format::schema::spec(n).is_some_and(|s| s.keyed.is_some());
    assert_eq!(c.meta.keyed, keyed, "{n}: keyed");
    for (o, want) in e.recs.iter().enumerate() {
        let rec = c.record(o as u64).unwrap();
        let got: Rec = rec
            .members()
            .map(|(id, b)| {
                let name = c.meta.fields[id as usize].clone();
                (name, serde_json::from_slice(b).unwrap())
            })
            .collect();
        assert_eq!(&got, want, "{n}: record {o}");
        let key = want["_key"].as_str().unwrap();
        assert_eq!(c.ord(key), keyed.then_some(o as u64), "{n}: key {key:?}");
        t.add("key", keyed);
    }
    // Keys no record has (here) are found nowhere.
    for k in ["G1", "G39", "0", "Gé", "S3", "V7", "ff", "E1", "absent", ""] {
        let want = e.recs.iter().position(|r| r["_key"] == k).map(|o| o as u64);
        assert_eq!(c.ord(k), want.filter(|_| keyed), "{n}: key {k:?}");
    }
}

/// The placed records: (place, ordinal).
fn placed<'a>(
    e: &'a Expected,
    start: &'a str,
    end: &'a str,
) -> impl Iterator<Item = (Place, u64)> + 'a {
    let recs = e.recs.iter().enumerate();
    recs.filter_map(move |(o, r)| place(r, start, end).map(|p| (p, o as u64)))
}

/// Query strings for a field: every word, every value present, and some that match nothing.
fn queries(e: &Expected, field: &str, pool: &[&str]) -> Vec<String> {
    let mut q: BTreeSet<String> = pool.iter().map(|s| s.to_string()).collect();
    q.extend(e.recs.iter().flat_map(|r| index_values(get(r, field))));
    q.extend(["zzz".to_string(), String::new(), "BRCA".to_string()]);
    q.into_iter().collect()
}

fn check(cat: &Collections, report: &Report, input: &Input, t: &mut Tally) {
    let mut nulls = 0;
    let mut keys: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (name, files) in &input.collections {
        let e = expect(name, files);
        let c = cat
            .get(name)
            .unwrap_or_else(|| panic!("no collection {name}"));
        check_records(c, &e, report, t);
        nulls += e.null_elements;
        keys.insert(
            name,
            e.recs
                .iter()
                .map(|r| r["_key"].as_str().unwrap().into())
                .collect(),
        );
        match *name {
            "genes" => {
                check_text(c, "name", &e, &queries(&e, "name", WORDS), t);
                check_exact(c, "symbol", &e, &queries(&e, "symbol", SYMBOLS), t);
                check_exact(c, "synonyms", &e, &queries(&e, "synonyms", WORDS), t);
                check_intervals(c, &e, t);
                // Nearest-gene queries read the interval ends, empty intervals included.
                let ends = placed(&e, "start", "end")
                    .map(|((chr, _, en), o)| (chr, en, o))
                    .collect();
                check_points(c.ends().unwrap(), ends, "genes ends", t);
            }
            "genes_structure" => {
                for f in ["gene_id", "transcript_id"] {
                    check_exact(c, f, &e, &queries(&e, f, &["ENSG1", "T1", "7"]), t);
                }
                check_facet(c, "type", &e, t);
                check_intervals(c, &e, t);
            }
            "variants" => {
                check_exact(c, "spdi", &e, &queries(&e, "spdi", &["NC_1:5:A:T"]), t);
                check_exact(c, "rsid", &e, &queries(&e, "rsid", &["rs1", "3"]), t);
                check_facet(c, "annotations.GENCODE_category", &e, t);
                // The allele frequencies have no columns (format v3): check_records compares
                // the `annotations` the server filters on.
                for f in ["annotations.bravo_af", "annotations.gnomad_af_total"] {
                    assert!(c.number(f).is_none(), "variants column {f}");
                }
                let points = placed(&e, "pos", "pos")
                    .map(|((chr, p, _), o)| (chr, p, o))
                    .collect();
                check_points(c.points().unwrap(), points, "variants", t);
            }
            _ => {
                for f in ["_from", "_to"] {
                    check_adjacency(c, f, &e, &queries(&e, f, &["genes/G1", "variants/V1"]), t);
                }
                check_facet(c, "method", &e, t);
                check_facet(c, "significant", &e, t);
                check_text(
                    c,
                    "biological_context",
                    &e,
                    &queries(&e, "biological_context", WORDS),
                    t,
                );
                for f in ["neg_log10_pvalue", "effect_size", "log2FC"] {
                    check_numbers(c, f, &e, t);
                }
            }
        }
    }
    assert_eq!(report.null_elements, nulls, "null elements");
    // Edge ends that resolve to no record are counted per target collection.
    let edges = expect("variants_genes", &input.collections[3].1);
    for (end, target) in [("_from", "variants"), ("_to", "genes")] {
        let dangling = edges
            .recs
            .iter()
            .filter(|r| {
                let k = r[end].as_str().unwrap().split_once('/').unwrap().1;
                !keys[target].contains(k)
            })
            .count() as u64;
        let id = (
            "variants_genes".to_string(),
            end.to_string(),
            target.to_string(),
        );
        assert_eq!(
            report.dangling.get(&id).copied().unwrap_or(0),
            dangling,
            "dangling {end}"
        );
        t.add("dangling", dangling > 0);
    }
}

// ---------------------------------------------------------------- runner

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write_input(dir: &Path, input: &Input) {
    for (name, files) in &input.collections {
        for (i, f) in files.iter().enumerate() {
            let text: String = f.docs.iter().map(|d| format!("{}\n", json!(d))).collect();
            let path = dir.join(format!("{name}.p{i}.jsonl"));
            if f.gz {
                let mut enc = flate2::write::GzEncoder::new(Vec::new(), Default::default());
                enc.write_all(text.as_bytes()).unwrap();
                std::fs::write(path.with_extension("jsonl.gz"), enc.finish().unwrap()).unwrap();
            } else {
                std::fs::write(path, text).unwrap();
            }
        }
    }
}

#[test]
fn test_catalog_matches_model() {
    static CASE: AtomicUsize = AtomicUsize::new(0);
    let tally = std::cell::RefCell::new(Tally::default());
    let mut runner = TestRunner::new(Config {
        cases: 24,
        // Beside the crate's other regressions (cargo runs tests in the crate directory).
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/model.txt",
        ))),
        ..Config::default()
    });
    let result = runner.run(&input(), |input| {
        let case = CASE.fetch_add(1, Atomic::Relaxed);
        let dir = Scratch(
            std::env::temp_dir().join(format!("varcat-model-{}-{case}", std::process::id())),
        );
        let _ = std::fs::remove_dir_all(&dir.0);
        let src = dir.0.join("in");
        std::fs::create_dir_all(&src).unwrap();
        write_input(&src, &input);
        let out = dir.0.join("x.varcat");
        let mut opts = Options::new(&src, &out);
        opts.threads = input.threads;
        opts.mem_budget = input.mem_budget;
        let report = build(&opts).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let cat = Collections::open(Catalog::open(&out).unwrap()).unwrap();
        check(&cat, &report, &input, &mut tally.borrow_mut());
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // No vacuous pass: every kind of query found something at least one time in ten.
    let tally = tally.into_inner();
    for (kind, (asked, hit)) in &tally.0 {
        assert!(
            *asked > 0 && *hit * 10 >= *asked,
            "{kind}: {hit} of {asked} queries hit"
        );
    }
    assert_eq!(tally.0.len(), 12, "query kinds: {:?}", tally.0.keys());
}
