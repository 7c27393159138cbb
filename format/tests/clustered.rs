//! Clustered record stores (FORMAT.md "Records"): records stored in an order of their own
//! with a slots table, ordinal → position. Every ordinal reads back its own record whatever
//! the order, block size, codec and slot width; a store whose slots are damaged answers
//! nothing wrong and never panics.

use std::collections::BTreeMap;
use std::io;

use proptest::prelude::*;
use varcat_format::bytes::Bytes;
use varcat_format::record::RecordBuf;
use varcat_format::records::{BlockOptions, Codec, RecordStore, RecordWriter, StoredOrder};
use varcat_format::spool::Spool;
use varcat_format::width::Width;

/// The naive model of the builder's sort: records stably ordered by a key each.
struct VecOrder {
    /// Ordinals in stored order.
    order: Vec<usize>,
    recs: Vec<Vec<u8>>,
    next: usize,
    /// Override of the positions handed back (for the writer's checks).
    positions: Option<Vec<u64>>,
}

impl VecOrder {
    fn new(recs: &[Vec<u8>], keys: &[u8]) -> VecOrder {
        let mut order: Vec<usize> = (0..recs.len()).collect();
        order.sort_by_key(|&o| keys[o]);
        VecOrder {
            order,
            recs: recs.to_vec(),
            next: 0,
            positions: None,
        }
    }
}

impl StoredOrder for VecOrder {
    fn next_record(&mut self) -> io::Result<Option<Vec<u8>>> {
        let Some(&o) = self.order.get(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        Ok(Some(self.recs[o].clone()))
    }

    fn positions(&mut self, each: &mut dyn FnMut(u64) -> io::Result<()>) -> io::Result<()> {
        let positions = self.positions.clone().unwrap_or_else(|| {
            let mut p = vec![0u64; self.order.len()];
            for (pos, &o) in self.order.iter().enumerate() {
                p[o] = pos as u64;
            }
            p
        });
        positions.into_iter().try_for_each(each)
    }
}

fn encode(r: &BTreeMap<u16, String>) -> Vec<u8> {
    let mut b = RecordBuf::new();
    for (id, v) in r {
        b.set(*id, serde_json::to_vec(v).unwrap());
    }
    b.encode()
}

/// A store's section, dictionary and codebook.
type Store = (Vec<u8>, Vec<u8>, Vec<u8>);

/// A clustered store of `recs`, in `order`.
fn clustered(
    recs: &[Vec<u8>],
    order: &mut VecOrder,
    opts: BlockOptions,
    width: Width,
) -> Result<Store, varcat_format::WriteError> {
    let mut w = RecordWriter::with_options(Vec::new(), Spool::memory(), Spool::memory(), opts);
    for r in recs {
        w.note(r)?;
    }
    let done = w.finish_clustered(order, width)?;
    Ok((done.out, done.dict, done.codebook))
}

fn members(store: &RecordStore, ord: u64) -> Option<BTreeMap<u16, String>> {
    let rec = store.get(ord)?;
    Some(
        rec.members()
            .map(|(id, v)| (id, serde_json::from_slice(v).unwrap()))
            .collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn prop_clustered_records_round_trip(
        recs in prop::collection::vec(prop::collection::btree_map(0u16..20, "[ -~]{0,12}", 0..8), 0..120),
        keys in prop::collection::vec(0u8..6, 120),
        ahead in prop::collection::vec(0u64..130, 0..6),
        per_block in prop::option::of(1u32..9),
        codec in prop::sample::select(vec![Codec::None, Codec::Zstd]),
        wide in any::<bool>(),
    ) {
        let enc: Vec<Vec<u8>> = recs.iter().map(encode).collect();
        let width = if wide { Width::Wide } else { Width::Narrow };
        let opts = BlockOptions { per_block, codec: Some(codec), ..BlockOptions::default() };
        let mut order = VecOrder::new(&enc, &keys);
        let (bytes, dict, cb) = clustered(&enc, &mut order, opts, width).unwrap();
        let store = RecordStore::open(Bytes::from_vec(bytes), &dict, &cb, "t").unwrap();
        prop_assert!(store.is_clustered());
        prop_assert_eq!(store.len(), recs.len());
        store.prefetch(&ahead);
        // Backwards, then forwards: the thread's caches are keyed by ordinal, not position.
        for i in (0..recs.len()).rev().chain(0..recs.len()) {
            prop_assert_eq!(members(&store, i as u64), Some(recs[i].clone()));
            for id in [0u16, 5, 19] {
                let want = recs[i].get(&id).map(|v| serde_json::to_vec(v).unwrap());
                prop_assert_eq!(store.member(i as u64, id).map(|m| m.to_vec()), want);
            }
        }
        prop_assert!(store.get(recs.len() as u64).is_none());
    }
}

fn sample(n: usize) -> (Vec<Vec<u8>>, Vec<u8>) {
    let recs = (0..n)
        .map(|i| {
            let mut m = BTreeMap::new();
            m.insert(1, format!("genes/ENSG{:011}", i % 7));
            m.insert(2, format!("variant {i}"));
            encode(&m)
        })
        .collect();
    let keys = (0..n).map(|i| (i % 7) as u8).collect();
    (recs, keys)
}

#[test]
fn test_clustered_store_refuses_what_it_cannot_read() {
    let (recs, keys) = sample(50);
    let opts = BlockOptions {
        per_block: Some(4),
        codec: Some(Codec::None),
        ..BlockOptions::default()
    };
    let (bytes, dict, cb) =
        clustered(&recs, &mut VecOrder::new(&recs, &keys), opts, Width::Narrow).unwrap();
    let open = |b: Vec<u8>| RecordStore::open(Bytes::from_vec(b), &dict, &cb, "t");
    assert!(open(bytes.clone()).unwrap().is_clustered());
    // The trailer's last word: codec in the low byte, slot width (4 or 8) above it.
    let word = bytes.len() - 4;
    for (w, ok) in [(4u32, true), (8, false), (3, false), (16, false)] {
        let mut b = bytes.clone();
        b[word..].copy_from_slice(&(w << 8).to_le_bytes());
        // 8-byte slots do not fit the section written with 4: refused, like any other width.
        assert_eq!(open(b).is_ok(), ok, "slot width {w}");
    }
    // A slots table cut short or grown is refused at open.
    let t = bytes.len() - 32;
    for cut in [1usize, 4, 200] {
        let mut b = bytes[..t - cut].to_vec();
        b.extend_from_slice(&bytes[t..]);
        assert!(open(b).is_err(), "{cut} bytes of slots missing");
    }
}

#[test]
fn test_clustered_slot_past_the_records_reads_nothing() {
    let (recs, keys) = sample(40);
    for codec in [Codec::None, Codec::Zstd] {
        let opts = BlockOptions {
            per_block: Some(3),
            codec: Some(codec),
            ..BlockOptions::default()
        };
        let (bytes, dict, cb) =
            clustered(&recs, &mut VecOrder::new(&recs, &keys), opts, Width::Narrow).unwrap();
        // Slot of ordinal 5, pointing past the 40 records: that record reads as absent, the
        // others as written.
        let slots = bytes.len() - 32 - 4 * recs.len();
        let mut b = bytes.clone();
        b[slots + 4 * 5..slots + 4 * 6].copy_from_slice(&40u32.to_le_bytes());
        let store = RecordStore::open(Bytes::from_vec(b), &dict, &cb, "t").unwrap();
        assert!(store.get(5).is_none());
        assert!(store.member(5, 1).is_none());
        store.prefetch(&[4, 5, 6]);
        let good = RecordStore::open(Bytes::from_vec(bytes.clone()), &dict, &cb, "t").unwrap();
        for o in (0..40).filter(|&o| o != 5) {
            assert_eq!(members(&store, o), members(&good, o), "ordinal {o}");
        }
        // Any damaged byte: refused or read, never a panic.
        for at in (0..bytes.len()).step_by(7) {
            let mut b = bytes.clone();
            b[at] ^= 0xa5;
            if let Ok(s) = RecordStore::open(Bytes::from_vec(b), &dict, &cb, "t") {
                for o in 0..42 {
                    if let Some(r) = s.get(o) {
                        let _ = r.members().count();
                    }
                }
            }
        }
    }
}

#[test]
fn test_clustered_writer_checks_its_order() {
    let (recs, keys) = sample(20);
    let opts = BlockOptions::default();
    // Fewer records handed back than noted.
    let mut short = VecOrder::new(&recs, &keys);
    short.order.pop();
    assert!(clustered(&recs, &mut short, opts, Width::Narrow).is_err());
    // A position past the records, or one missing.
    for positions in [vec![20u64; 20], vec![0; 19], vec![0; 21]] {
        let mut bad = VecOrder::new(&recs, &keys);
        bad.positions = Some(positions.clone());
        assert!(
            clustered(&recs, &mut bad, opts, Width::Narrow).is_err(),
            "{positions:?}"
        );
    }
}
