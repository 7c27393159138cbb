//! The model: what the catalog should hold, computed by scanning the generated documents.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};
use varcat_format::vocab::AF_SOURCES;

use super::input::*;

/// How the schema normalises each generated member.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Ty {
    Str,
    Int,
    Num,
    StrArray,
    Any,
}

pub(crate) fn ty(member: &str) -> Ty {
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
pub(crate) fn normal(member: &str, v: &Value) -> Option<Value> {
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
pub(crate) fn variant_annotations(given: Option<&Value>) -> Value {
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
pub(crate) type Place = (String, u32, u32);

pub(crate) fn place(rec: &Rec, start: &str, end: &str) -> Option<Place> {
    let chr = rec.get("chr")?.as_str().filter(|c| !c.is_empty())?;
    let coord = |n: &str| rec.get(n)?.as_u64().and_then(|x| u32::try_from(x).ok());
    let (s, e) = (coord(start)?, coord(end)?);
    (s <= e).then(|| (chr.to_string(), s, e))
}

/// What one collection should hold.
pub(crate) struct Expected {
    pub(crate) name: &'static str,
    /// Records in ordinal order, `_key` included.
    pub(crate) recs: Vec<Rec>,
    pub(crate) merged: u64,
    pub(crate) derived_keys: u64,
    /// Documents (before merging) whose coordinates cannot be placed.
    pub(crate) unplaced: u64,
    pub(crate) null_elements: u64,
    /// Every key read is lowercase hex of even length.
    pub(crate) hex: bool,
}

/// Its coordinates (start, end members; the same member twice for points).
pub(crate) fn coords(name: &str) -> Option<(&'static str, &'static str)> {
    match name {
        "genes" | "genes_structure" => Some(("start", "end")),
        "variants" => Some(("pos", "pos")),
        _ => None,
    }
}

pub(crate) fn expect(name: &'static str, files: &[File]) -> Expected {
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
pub(crate) fn order_cmp(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, _) => Ordering::Greater,
        (_, None) => Ordering::Less,
        (Some(Value::String(x)), Some(Value::String(y))) => x.cmp(y),
        (Some(x), Some(y)) => x.as_f64().unwrap().total_cmp(&y.as_f64().unwrap()),
    }
}

/// Member `name` of a record; `a.b` is member `b` of object member `a`.
pub(crate) fn get<'r>(rec: &'r Rec, name: &str) -> Option<&'r Value> {
    match name.split_once('.') {
        Some((top, sub)) => rec.get(top)?.get(sub),
        None => rec.get(name),
    }
}

/// The values an index takes from a stored member: a string, a boolean as text, each element
/// of an array.
pub(crate) fn index_values(v: Option<&Value>) -> BTreeSet<String> {
    match v {
        Some(Value::String(s)) => [s.clone()].into(),
        Some(Value::Bool(b)) => [b.to_string()].into(),
        Some(Value::Array(a)) => a.iter().flat_map(|x| index_values(Some(x))).collect(),
        _ => BTreeSet::new(),
    }
}

pub(crate) fn fold(s: &str) -> String {
    s.to_lowercase()
}

/// Folded text split at every character that is not a letter or digit.
pub(crate) fn tokens(s: &str) -> BTreeSet<String> {
    fold(s)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

pub(crate) fn levenshtein(a: &str, b: &str) -> usize {
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
pub(crate) fn index_of(
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
