//! Every record and index of the built catalog compared with the model.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use varcat_format::collection::{Collection, Collections};
use varcat_format::fstmap::MultiMap;
use varcat_format::points::PointIndex;
use varcat_format::KeyEncoding;
use varcat_indexer::Report;

use super::expect::*;
use super::input::*;

/// Queries asked per kind, and how many the model answers with something (so that a run
/// whose queries all miss fails instead of passing).
#[derive(Default)]
pub(crate) struct Tally(pub(crate) BTreeMap<&'static str, (usize, usize)>);

impl Tally {
    fn add(&mut self, kind: &'static str, hit: bool) {
        let t = self.0.entry(kind).or_default();
        t.0 += 1;
        t.1 += hit as usize;
    }
}

pub(crate) fn list(l: Option<varcat_format::postings::List>) -> Vec<u64> {
    l.map(|l| l.iter().collect()).unwrap_or_default()
}

pub(crate) fn union(lists: Vec<varcat_format::postings::List>) -> Vec<u64> {
    let s: BTreeSet<u64> = lists.iter().flat_map(|l| l.iter()).collect();
    s.into_iter().collect()
}

pub(crate) fn check_exact(
    c: &Collection,
    field: &str,
    e: &Expected,
    queries: &[String],
    t: &mut Tally,
) {
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
pub(crate) fn check_adjacency(
    c: &Collection,
    field: &str,
    e: &Expected,
    queries: &[String],
    t: &mut Tally,
) {
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
pub(crate) fn check_text(
    c: &Collection,
    field: &str,
    e: &Expected,
    queries: &[String],
    t: &mut Tally,
) {
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

pub(crate) fn check_facet(c: &Collection, field: &str, e: &Expected, t: &mut Tally) {
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
pub(crate) fn check_numbers(c: &Collection, field: &str, e: &Expected, t: &mut Tally) {
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
pub(crate) fn probes() -> impl Iterator<Item = (&'static str, u32, u32)> {
    let chroms = ["chr1", "chr2", "chrX", "1", "chrY"];
    chroms.into_iter().flat_map(|chr| {
        (0..70)
            .step_by(2)
            .flat_map(move |s| [1, 4, 16, 64].map(|len| (chr, s, s + len)))
    })
}

pub(crate) fn check_intervals(c: &Collection, e: &Expected, t: &mut Tally) {
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
pub(crate) fn check_points(
    ix: &PointIndex,
    points: Vec<(String, u32, u64)>,
    what: &str,
    t: &mut Tally,
) {
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
pub(crate) fn check_records(c: &Collection, e: &Expected, report: &Report, t: &mut Tally) {
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
pub(crate) fn placed<'a>(
    e: &'a Expected,
    start: &'a str,
    end: &'a str,
) -> impl Iterator<Item = (Place, u64)> + 'a {
    let recs = e.recs.iter().enumerate();
    recs.filter_map(move |(o, r)| place(r, start, end).map(|p| (p, o as u64)))
}

/// Query strings for a field: every word, every value present, and some that match nothing.
pub(crate) fn queries(e: &Expected, field: &str, pool: &[&str]) -> Vec<String> {
    let mut q: BTreeSet<String> = pool.iter().map(|s| s.to_string()).collect();
    q.extend(e.recs.iter().flat_map(|r| index_values(get(r, field))));
    q.extend(["zzz".to_string(), String::new(), "BRCA".to_string()]);
    q.into_iter().collect()
}

pub(crate) fn check(cat: &Collections, report: &Report, input: &Input, t: &mut Tally) {
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
