//! The record codebook: whatever the members, decode(encode(record)) is the record, through
//! the codebook's bytes and through a whole record store (any R, either codec).

use proptest::prelude::*;
use varcat_format::bytes::Bytes;
use varcat_format::codebook::{Chooser, Codebook, Handles, Visited};
use varcat_format::keylookup::KeyLookup;
use varcat_format::keys::KeyEncoding;
use varcat_format::record::{Record, RecordBuf};
use varcat_format::records::{BlockOptions, Codec, RecordStore, RecordWriter};
use varcat_format::spool::Spool;

/// One generated document: a presence mask and the raw material of its members.
type Doc = (u16, i64, f64, u8, String, Option<f64>, bool);

/// Members chosen so that every class is exercised, with values that sometimes break their
/// member's class (escapes): field 0 a key (str), 1 const, 2 dict, 3 same as 0, 4 int, 5 float,
/// 6 obj of fixed shape with nulls, 7 arrays of integers, 8 numbers mixing integer and float
/// text, 9 arrays of objects.
fn record(i: usize, d: &Doc) -> Vec<u8> {
    let (mask, int, float, pick, text, opt, odd) = d;
    let key = serde_json::to_vec(&format!("k{i}{text}")).unwrap();
    let mut rb = RecordBuf::new();
    let mut put = |bit: u16, id: u16, v: Vec<u8>| {
        if mask >> bit & 1 == 1 {
            rb.set(id, v);
        }
    };
    put(0, 0, key.clone());
    put(
        1,
        1,
        if *odd && pick % 7 == 0 {
            b"[true]".to_vec()
        } else {
            b"\"SNV\"".to_vec()
        },
    );
    put(2, 2, format!("\"src{}\"", pick % 5).into_bytes());
    put(
        3,
        3,
        if *odd && pick % 5 == 1 {
            b"\"other\"".to_vec()
        } else {
            key
        },
    );
    put(
        4,
        4,
        if *odd && pick % 3 == 2 {
            b"1.5".to_vec()
        } else {
            int.to_string().into_bytes()
        },
    );
    put(5, 5, serde_json::to_vec(float).unwrap());
    let obj = serde_json::json!({"af": opt, "n": text, "x": *int % 100});
    put(
        6,
        6,
        if *odd && pick % 4 == 3 {
            b"{\"af\":1}".to_vec()
        } else {
            serde_json::to_vec(&obj).unwrap()
        },
    );
    put(7, 7, serde_json::to_vec(&[*int, *pick as i64]).unwrap());
    put(
        8,
        8,
        if pick % 2 == 0 {
            int.to_string().into_bytes()
        } else {
            serde_json::to_vec(float).unwrap()
        },
    );
    // Arrays of objects (a coding variant's scores): 0–3 elements of one shape, sometimes a
    // null element or another shape (escapes, or the member falls back to raw).
    let n = (*pick % 4) as usize;
    let mut scores: Vec<serde_json::Value> = (0..n)
        .map(|k| serde_json::json!({"method": format!("m{}", (k + *pick as usize) % 3), "score": float, "url": text}))
        .collect();
    if *odd && pick % 6 == 5 {
        scores.push(if pick % 12 == 5 {
            serde_json::Value::Null
        } else {
            serde_json::json!({"other": 1})
        });
    }
    put(9, 9, serde_json::to_vec(&scores).unwrap());
    rb.encode()
}

fn doc() -> impl Strategy<Value = Doc> {
    (
        any::<u16>(),
        any::<i64>(),
        any::<f64>().prop_filter("finite", |x| x.is_finite()),
        any::<u8>(),
        "[ -~é\"\\\\]{0,6}",
        prop::option::of(prop::num::f64::NORMAL | prop::num::f64::ZERO | prop::num::f64::SUBNORMAL),
        prop::bool::weighted(0.1),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_codebook_round_trips_every_member(docs in prop::collection::vec(doc(), 0..120)) {
        let recs: Vec<Vec<u8>> = docs.iter().enumerate().map(|(i, d)| record(i, d)).collect();
        let mut ch = Chooser::new();
        for r in &recs {
            ch.add(r);
        }
        let cb = Codebook::from_bytes(&ch.codebook().to_bytes()).unwrap();
        for r in &recs {
            let (enc, _) = cb.encode(r).unwrap();
            prop_assert_eq!(cb.decode(&enc).unwrap(), r.clone());
            // One member alone decodes to the same bytes, and an absent one to nothing.
            for e in &cb.entries {
                let want = Record::new(r).get(e.field).map(<[u8]>::to_vec);
                prop_assert_eq!(cb.decode_member(&enc, e.field), want);
            }
            prop_assert_eq!(cb.decode_member(&enc, 999), None);
            // One value of an object member alone (the obj member 6, escaped or not, and
            // members of other classes) agrees with scanning the printed member.
            let mut reused = vec![7u8; 3];
            cb.decode_into(&enc, &mut reused).unwrap();
            prop_assert_eq!(&reused, r);
            for field in [6u16, 0, 7] {
                for name in [&b"af"[..], b"n", b"x", b"y"] {
                    let want = Record::new(r)
                        .get(field)
                        .and_then(|v| varcat_format::json_scan::member(v, name))
                        .map(<[u8]>::to_vec);
                    // Read as a number, it is what the printed member parses to.
                    let number = want.as_deref().and_then(varcat_format::json_scan::number);
                    let got = cb.inner_number(&enc, field, name, &mut Vec::new());
                    prop_assert_eq!(got.map(f64::to_bits), number.map(f64::to_bits));
                    prop_assert_eq!(cb.decode_inner(&enc, field, name), want);
                }
            }
        }
        // A record with a member the codebook never saw is refused, not mis-encoded.
        let mut rb = RecordBuf::new();
        rb.set(99, b"1".to_vec());
        prop_assert!(cb.encode(&rb.encode()).is_none());
    }

    #[test]
    fn prop_record_store_returns_the_v2_members(docs in prop::collection::vec(doc(), 0..80), per_block in prop::option::of(1u32..9), zstd in any::<bool>()) {
        let recs: Vec<Vec<u8>> = docs.iter().enumerate().map(|(i, d)| record(i, d)).collect();
        let codec = Some(if zstd { Codec::Zstd } else { Codec::None });
        let opts = BlockOptions { per_block, codec, ..BlockOptions::default() };
        let mut w = RecordWriter::with_options(Vec::new(), Spool::memory(), Spool::memory(), opts);
        for r in &recs {
            w.push(r).unwrap();
        }
        let done = w.finish().unwrap();
        let store = RecordStore::open(Bytes::from_vec(done.out), &done.dict, &done.codebook, "t").unwrap();
        prop_assert_eq!(store.codebook().escapes, done.escapes);
        for (i, r) in recs.iter().enumerate() {
            let got = store.get(i as u64).unwrap();
            let want: Vec<(u16, &[u8])> = Record::new(r).members().collect();
            prop_assert_eq!(got.members().collect::<Vec<_>>(), want.clone());
        }
        // Members read alone, on a cold thread cache (records decoded above may be cached).
        let (store2, recs2) = (store.clone(), recs.clone());
        let cold = std::thread::spawn(move || {
            let (store, recs) = (store2, recs2);
            recs.iter().enumerate().all(|(i, r)| {
                Record::new(r).members().all(|(f, v)| store.member(i as u64, f).as_deref() == Some(v))
            })
        });
        prop_assert!(cold.join().unwrap());
        prop_assert!(store.get(recs.len() as u64).is_none());
    }

    /// Handles stored as ordinals (`ref`) or beside them (`link`), dangling or escaped ones
    /// among them: every record decodes to its bytes through the codebook's bytes once
    /// linked, alone or by the one-pass read, and a `link` decodes unlinked too.
    #[test]
    fn prop_handles_round_trip(keys in prop::collection::btree_set("[0-9a-z:]{1,8}", 20..60), picks in prop::collection::vec((any::<u16>(), 0u8..12), 1..80), linked in any::<bool>()) {
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let lookup = ranked(&keys);
        // At least one handle the chooser sees, so that the member has a class.
        let mut picks = picks;
        picks[0].1 = 2;
        let recs: Vec<Vec<u8>> = picks.iter().map(|&(k, odd)| {
            let key = keys[k as usize % keys.len()];
            let handle = match odd {
                0 => format!("\"variants/{key}~gone\""),
                1 => format!("\"variants/{key}\\u0041\""),
                _ => format!("\"variants/{key}\""),
            };
            let mut rb = RecordBuf::new();
            rb.set(0, handle.into_bytes());
            rb.set(1, format!("\"x{k}\"").into_bytes());
            rb.encode()
        }).collect();
        // The chooser sees no escaped handle (one would make the member a string): those are
        // met first when encoding, as a build's later records may be.
        let mut ch = Chooser::new();
        for (r, &(_, odd)) in recs.iter().zip(&picks) {
            if odd != 1 {
                ch.add(r);
            }
        }
        let how = if linked { Handles::Linked } else { Handles::Ordinals };
        let cb = ch.codebook_with_refs(&|t: &str| (t == "variants").then(|| (lookup.clone(), how)));
        // Few distinct handles make a dictionary (or a constant) first.
        let class = cb.entries[0].class.name();
        prop_assert!([if linked { "link" } else { "ref" }, "dict", "const"].contains(&class), "{}", class);
        let read = Codebook::from_bytes(&cb.to_bytes()).unwrap();
        let encoded: Vec<Vec<u8>> = recs.iter().map(|r| cb.encode(r).unwrap().0).collect();
        if linked {
            for (enc, r) in encoded.iter().zip(&recs) {
                prop_assert_eq!(&read.decode(enc).unwrap(), r);
            }
        }
        // Each case's key map its own identity, as each opened store has.
        static ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let id = ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        read.refs().for_each(|(r, _)| r.link(lookup.clone(), id));
        for (enc, r) in encoded.iter().zip(&recs) {
            prop_assert_eq!(&read.decode(enc).unwrap(), r);
            let mut got = None;
            read.visit(enc, &[0], None, &mut Vec::new(), |v| {
                if let Visited::Member(0, b) = v {
                    got = Some(b.to_vec());
                }
            }).unwrap();
            prop_assert_eq!(got.as_deref(), Record::new(r).get(0));
        }
    }

    /// Arbitrary bytes as a codebook or as an encoded record: refused or decoded, no panic.
    #[test]
    fn prop_corrupt_codebooks_and_records_never_panic(book in prop::collection::vec(any::<u8>(), 0..64), rec in prop::collection::vec(any::<u8>(), 0..64)) {
        let mut b = b"CBK1".to_vec();
        b.extend_from_slice(&book);
        if let Some(cb) = Codebook::from_bytes(&b) {
            let _ = cb.decode(&rec);
            for f in 0..4 {
                let _ = cb.decode_member(&rec, f);
            }
        }
        let mut ch = Chooser::new();
        for i in 0..20 {
            ch.add(&record(i, &(0xffff, i as i64, 0.5, i as u8, "t".into(), Some(0.25), false)));
        }
        let _ = ch.codebook().decode(&rec);
    }
}

/// A key map of `keys` (sorted, distinct) valued by rank, as the indexer builds one.
fn ranked(keys: &[&str]) -> KeyLookup {
    KeyLookup::in_memory(keys.iter().zip(0..), KeyEncoding::Text).unwrap()
}

/// Empty records and a collection of nothing but empty records.
#[test]
fn test_empty_records_round_trip() {
    let empty = RecordBuf::new().encode();
    let mut ch = Chooser::new();
    for _ in 0..3 {
        ch.add(&empty);
    }
    let cb = ch.codebook();
    assert!(cb.is_empty());
    let (enc, esc) = cb.encode(&empty).unwrap();
    assert_eq!((enc.as_slice(), esc), (&[0u8][..], 0));
    assert_eq!(cb.decode(&enc).unwrap(), empty);
}
