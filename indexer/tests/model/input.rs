//! The generated input: random documents of the four collections, split into files.

use std::fmt;

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{json, Map, Value};

/// A document or a record: members by name.
pub(crate) type Rec = Map<String, Value>;

/// Words of names and contexts: mixed case, accents, scripts whose case folding is not ASCII,
/// an embedded NUL (escaped in sort keys).
pub(crate) const WORDS: &[&str] = &[
    "BRCA1", "brca1", "HLA", "a", "Éclair", "café", "ΣΑΣ", "straße", "İz", "p53", "TP53", "ǅx",
    "n\u{0}l",
];
pub(crate) const SYMBOLS: &[&str] = &["BRCA1", "TP53", "tp53", "HLA-A"];
pub(crate) const CHROMS: &[&str] = &["chr1", "chr1", "chr1", "chr2", "chrX"];
pub(crate) const NUMS: &[f64] = &[0.0, 0.5, 1.0, 2.5, -1.25, 3.0, 1e-8, 123.456];
pub(crate) const HEX_KEYS: &[&str] = &["00", "0a", "ab12", "ff", "0a0b", "ffff00"];

/// One input file: its documents and whether it is gzip-compressed.
#[derive(Clone)]
pub(crate) struct File {
    pub(crate) gz: bool,
    pub(crate) docs: Vec<Rec>,
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
pub(crate) struct Input {
    /// (collection, its files in name order).
    pub(crate) collections: Vec<(&'static str, Vec<File>)>,
    pub(crate) threads: usize,
    pub(crate) mem_budget: usize,
}

/// A member that is usually present, sometimes missing (None), sometimes an explicit null.
pub(crate) fn member(s: impl Strategy<Value = Value>) -> impl Strategy<Value = Option<Value>> {
    prop_oneof![1 => Just(None), 1 => Just(Some(Value::Null)), 6 => s.prop_map(Some)]
}

/// A document from its members (missing ones left out).
pub(crate) fn doc(members: Vec<(&str, Option<Value>)>) -> Rec {
    members
        .into_iter()
        .filter_map(|(k, v)| Some((k.to_string(), v?)))
        .collect()
}

pub(crate) fn word() -> impl Strategy<Value = String> {
    select(WORDS).prop_map(str::to_string)
}

/// One to three words joined by a separator; sometimes empty.
pub(crate) fn text() -> impl Strategy<Value = Value> {
    let joined = (
        prop::collection::vec(word(), 1..=3),
        select(&[" ", "-", ", "][..]),
    )
        .prop_map(|(w, sep)| json!(w.join(sep)));
    prop_oneof![8 => joined, 1 => Just(json!(""))]
}

/// A string member, now and then given as a number (stored as its text).
pub(crate) fn string(pool: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop_oneof![4 => select(pool).prop_map(|s| json!(s)), 1 => (0u32..20).prop_map(|n| json!(n))]
}

/// A string array with null and numeric elements, or a lone string.
pub(crate) fn strings(pool: &'static [&'static str]) -> impl Strategy<Value = Value> {
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
pub(crate) fn number() -> impl Strategy<Value = Value> {
    (select(NUMS), any::<bool>()).prop_map(|(f, text)| {
        if text {
            json!(format!("{f:?}"))
        } else {
            json!(f)
        }
    })
}

/// An integer coordinate written as `n`, `"n"` or `n.0`; rarely one that cannot be placed.
pub(crate) fn coordinate(n: u32, form: u8) -> Value {
    match form {
        0 => json!(n),
        1 => json!(n.to_string()),
        2 => json!(n as f64),
        3 => json!(-1),
        _ => json!(1.5),
    }
}

pub(crate) fn form() -> impl Strategy<Value = u8> {
    prop_oneof![12 => 0u8..3, 1 => 3u8..5]
}

/// chr/start/end: mostly start <= end on a few chromosomes (most on chr1, so that its interval
/// tree is deeper than a linear scan), sometimes unplaceable.
pub(crate) fn interval() -> impl Strategy<Value = Vec<(&'static str, Option<Value>)>> {
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

pub(crate) fn gene() -> impl Strategy<Value = Rec> {
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

pub(crate) fn structure() -> impl Strategy<Value = Rec> {
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

pub(crate) fn variant() -> impl Strategy<Value = Rec> {
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
pub(crate) fn edge() -> impl Strategy<Value = Rec> {
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
pub(crate) fn files<S: Strategy<Value = Rec>>(
    docs: S,
    max: usize,
) -> impl Strategy<Value = Vec<File>> {
    let file = (
        prop::bool::weighted(0.3),
        prop::collection::vec(docs, 0..=max),
    )
        .prop_map(|(gz, docs)| File { gz, docs });
    prop::collection::vec(file, 1..=3)
}

pub(crate) fn input() -> impl Strategy<Value = Input> {
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
