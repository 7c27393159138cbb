//! Ordinal width at the 32-bit boundary: the wide forms of postings, facets, points and
//! intervals round-trip ordinals around 2³² and up to 2⁶³ − 1 (sections written directly: no
//! 4 × 10⁹ documents needed), the narrow forms refuse them, and a reader told the other width
//! refuses the section.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use varcat_format::bytes::Bytes;
use varcat_format::facets::{Facet, FacetBuilder};
use varcat_format::fstmap::{MultiMap, MultiMapBuilder};
use varcat_format::intervals::{IntervalIndex, IntervalWriter};
use varcat_format::points::{PointIndex, PointWriter};
use varcat_format::width::{Width, DEFAULT_WIDE_ABOVE};

const TOP: u64 = (1 << 63) - 1;

/// Ordinals at the boundary: 2³² − 2 … 2³² + 2, 2⁶³ − 1, and a few small ones.
fn ordinal() -> impl Strategy<Value = u64> {
    prop_oneof![
        ((1u64 << 32) - 2..=(1u64 << 32) + 2),
        Just(TOP),
        TOP - 3..=TOP,
        0u64..1000,
        any::<u64>().prop_map(|v| v & TOP),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_wide_postings_round_trip(model in prop::collection::btree_map("[a-c]{1,4}", prop::collection::btree_set(ordinal(), 1..8), 0..30)) {
        let mut b = MultiMapBuilder::with_width(Vec::new(), Vec::new(), "t", Width::Wide).unwrap();
        for (k, v) in &model {
            b.insert(k.as_bytes(), &v.iter().copied().collect::<Vec<_>>()).unwrap();
        }
        let (f, p) = b.finish().unwrap();
        let m = MultiMap::open_with_width(Bytes::from_vec(f), Bytes::from_vec(p), "t", Width::Wide).unwrap();
        prop_assert_eq!(m.len(), model.len());
        for (k, v) in &model {
            let list = m.get(k.as_bytes()).unwrap();
            let got: BTreeSet<u64> = list.iter().collect();
            prop_assert_eq!(&got, v);
        }
    }

    #[test]
    fn prop_wide_facets_round_trip(raw in prop::collection::vec((prop::sample::select(vec!["eQTL", "GWAS", "SGE"]), ordinal()), 0..200)) {
        let mut b = FacetBuilder::new();
        let mut model: BTreeMap<&str, BTreeSet<u64>> = BTreeMap::new();
        for (v, o) in &raw {
            b.add(v, *o);
            model.entry(v).or_default().insert(*o);
        }
        let mut bytes = Vec::new();
        b.write_width(&mut bytes, Width::Wide).unwrap();
        let f = Facet::open_width(&bytes, "t", Width::Wide).unwrap();
        prop_assert_eq!(f.values().count(), model.len());
        for (v, set) in &model {
            let bits = f.get(v).unwrap();
            let got: BTreeSet<u64> = bits.iter().collect();
            prop_assert_eq!(&got, set);
            prop_assert_eq!(bits.len(), set.len() as u64);
        }
        prop_assert!(Facet::open(&bytes, "t").is_err());
        // Narrow output holds only 32-bit ordinals.
        let past = raw.iter().any(|(_, o)| *o > u32::MAX as u64);
        prop_assert_eq!(b.write_width(&mut Vec::new(), Width::Narrow).is_err(), past);
    }

    #[test]
    fn prop_wide_points_round_trip(raw in prop::collection::vec((0usize..2, 0u32..3000, ordinal()), 0..300),
        queries in prop::collection::vec((0usize..2, 0u32..3100, 1u32..500), 1..20)) {
        let chroms = ["chr1", "chr2"];
        let mut pts: Vec<(&str, u32, u64)> = raw.iter().map(|(c, p, o)| (chroms[*c], *p, *o)).collect();
        pts.sort();
        pts.dedup();
        let mut w = PointWriter::with_width(Vec::new(), Width::Wide);
        for (c, p, o) in &pts {
            w.push(c, *p, *o).unwrap();
        }
        let bytes = w.finish().unwrap();
        let idx = PointIndex::open_width(Bytes::from_vec(bytes.clone()), "t", Width::Wide).unwrap();
        for (c, qs, len) in queries {
            let (c, qe) = (chroms[c], qs + len);
            let want: Vec<(u32, u64)> = pts.iter().filter(|(ch, p, _)| *ch == c && *p >= qs && *p < qe).map(|x| (x.1, x.2)).collect();
            let mut got = Vec::new();
            idx.for_each_in(c, qs, qe, |p, o| got.push((p, o)));
            prop_assert_eq!(idx.count_in(c, qs, qe), want.len());
            prop_assert_eq!(got, want);
        }
        prop_assert!(PointIndex::open(Bytes::from_vec(bytes), "t").is_err());
    }

    #[test]
    fn prop_wide_intervals_round_trip(raw in prop::collection::vec((0usize..2, 0u32..2000, 0u32..3000, ordinal()), 0..200),
        queries in prop::collection::vec((0usize..2, 0u32..2100, 1u32..400), 1..20)) {
        let chroms = ["chr1", "chr2"];
        let mut ivs: Vec<(&str, u32, u32, u64)> = raw.iter().map(|(c, s, l, o)| (chroms[*c], *s, s + l, *o)).collect();
        ivs.sort();
        ivs.dedup();
        let mut w = IntervalWriter::with_width(Vec::new(), Width::Wide);
        for (c, s, e, o) in &ivs {
            w.push(c, *s, *e, *o).unwrap();
        }
        let bytes = w.finish().unwrap();
        let idx = IntervalIndex::open_width(Bytes::from_vec(bytes.clone()), "t", Width::Wide).unwrap();
        for (c, qs, len) in queries {
            let (c, qe) = (chroms[c], qs + len);
            let want: Vec<u64> = ivs.iter().filter(|(ch, s, e, _)| *ch == c && *s < qe && *e > qs).map(|x| x.3).collect();
            let mut got = Vec::new();
            idx.for_each_overlap(c, qs, qe, |_, _, o| got.push(o));
            prop_assert_eq!(got, want);
        }
        for c in chroms {
            let want: Vec<(u32, u32, u64)> = ivs.iter().filter(|x| x.0 == c).map(|x| (x.1, x.2, x.3)).collect();
            prop_assert_eq!(idx.entries(c), want);
        }
        prop_assert!(IntervalIndex::open(Bytes::from_vec(bytes), "t").is_err());
    }
}

#[test]
fn test_narrow_writers_refuse_wide_ordinals() {
    let past = u32::MAX as u64 + 1;
    let mut b = MultiMapBuilder::new(Vec::new(), Vec::new(), "t").unwrap();
    assert!(b.insert(b"a", &[1, past]).is_err());
    let mut p = PointWriter::new(Vec::new());
    assert!(p.push("chr1", 1, past).is_err());
    let mut i = IntervalWriter::new(Vec::new());
    assert!(i.push("chr1", 1, 2, past).is_err());
    // The largest narrow ordinal still fits.
    assert!(p.push("chr1", 2, u32::MAX as u64).is_ok());
    assert!(i.push("chr1", 1, 2, u32::MAX as u64).is_ok());
    // Wide ordinals stop below the FST inline bit.
    let mut w = PointWriter::with_width(Vec::new(), Width::Wide);
    assert!(w.push("chr1", 1, TOP + 1).is_err());
}

#[test]
fn test_narrow_sections_are_refused_as_wide() {
    let mut p = PointWriter::new(Vec::new());
    p.push("chr1", 5, 7).unwrap();
    let bytes = Bytes::from_vec(p.finish().unwrap());
    let e = PointIndex::open_width(bytes, "c.points", Width::Wide).unwrap_err();
    assert!(
        e.to_string()
            .contains("4-byte ordinals where the metadata says 8"),
        "{e}"
    );
    let mut i = IntervalWriter::new(Vec::new());
    i.push("chr1", 5, 9, 7).unwrap();
    let bytes = Bytes::from_vec(i.finish().unwrap());
    assert!(IntervalIndex::open_width(bytes, "c.intervals", Width::Wide).is_err());
    let mut f = FacetBuilder::new();
    f.add("x", 3);
    let mut bytes = Vec::new();
    f.write(&mut bytes).unwrap();
    assert!(Facet::open_width(&bytes, "c.facet.x", Width::Wide).is_err());
    assert_eq!(
        Facet::open(&bytes, "c.facet.x")
            .unwrap()
            .get("x")
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        vec![3]
    );
}

#[test]
fn test_width_threshold() {
    // A narrow collection holds at most 2³² − 2 documents (ordinals up to 2³² − 3).
    assert_eq!(
        Width::for_count(DEFAULT_WIDE_ABOVE, DEFAULT_WIDE_ABOVE),
        Width::Narrow
    );
    assert_eq!(DEFAULT_WIDE_ABOVE, (1u64 << 32) - 2);
    assert_eq!(
        Width::for_count(DEFAULT_WIDE_ABOVE + 1, DEFAULT_WIDE_ABOVE),
        Width::Wide
    );
    assert_eq!(
        Width::for_count(12_000_000_000, DEFAULT_WIDE_ABOVE),
        Width::Wide
    );
    assert_eq!(Width::for_count(0, 0), Width::Narrow);
    assert_eq!(Width::for_count(1, 0), Width::Wide);
    assert_eq!(Width::from_bytes(8, "c").unwrap(), Width::Wide);
    assert_eq!(Width::from_bytes(4, "c").unwrap(), Width::Narrow);
    assert!(Width::from_bytes(5, "c").is_err());
}

#[test]
fn test_record_store_reads_ordinals_past_2_pow_32() {
    use varcat_format::record::RecordBuf;
    use varcat_format::records::{BlockOptions, Codec, RecordStore, RecordWriter};
    use varcat_format::spool::Spool;
    // Five real records become the last block of a store of 2³² + 5: the blocks before it are
    // empty frames (offsets only, 8 MiB), so ordinals past 2³² are read without 4 × 10⁹
    // documents.
    const PER_BLOCK: u32 = 4096;
    let opts = BlockOptions {
        per_block: Some(PER_BLOCK),
        codec: Some(Codec::None),
        ..BlockOptions::default()
    };
    let mut w = RecordWriter::with_options(Vec::new(), Spool::memory(), Spool::memory(), opts);
    let values: Vec<String> = (0..5).map(|i| format!("\"record {i}\"")).collect();
    for v in &values {
        let mut b = RecordBuf::new();
        b.set(1, v.clone().into_bytes());
        assert_eq!(
            w.push(&b.encode()).unwrap(),
            values.iter().position(|x| x == v).unwrap() as u64
        );
    }
    let done = w.finish().unwrap();
    let out = &done.out;
    let trailer = out.len() - 32;
    let frames_end =
        u64::from_le_bytes(out[trailer + 8..trailer + 16].try_into().unwrap()) as usize;
    let last_block = 1u64 << 20;
    let n = last_block * PER_BLOCK as u64 + 5;
    assert_eq!(n, (1u64 << 32) + 5);
    let mut file = out[..frames_end].to_vec();
    for _ in 0..=last_block {
        file.extend_from_slice(&0u64.to_le_bytes());
    }
    file.extend_from_slice(&(frames_end as u64).to_le_bytes());
    file.extend_from_slice(&n.to_le_bytes());
    file.extend_from_slice(&(frames_end as u64).to_le_bytes());
    file.extend_from_slice(&out[trailer + 16..]);
    let store = RecordStore::open(Bytes::from_vec(file), &done.dict, &done.codebook, "t").unwrap();
    assert_eq!(store.len() as u64, n);
    let first = 1u64 << 32;
    for (i, v) in values.iter().enumerate() {
        let o = first + i as u64;
        assert_eq!(
            store.get(o).unwrap().get(1),
            Some(v.as_bytes()),
            "ordinal {o}"
        );
        assert_eq!(store.member(o, 1).as_deref(), Some(v.as_bytes()));
        // The same ordinal modulo 2³² is an empty (here: unreadable) block, not this record.
        assert!(store.get(o - first).is_none());
    }
    assert!(store.get(n).is_none());
    assert!(store.get(u64::MAX).is_none());
}
