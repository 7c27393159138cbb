//! Property tests of the ordinal adjacency (`adj._from`, `adj._to`): write → read round trip
//! against a naive model (dense, sparse and handle-only targets, dangling handles), and
//! corrupt bytes never panic.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use varcat_format::adjacency::{self, Adjacency, TargetLists};
use varcat_format::bytes::Bytes;
use varcat_format::fstmap::{MultiMap, MultiMapBuilder};
use varcat_format::keylookup::KeyLookup;
use varcat_format::keys::KeyEncoding;
use varcat_format::postings::PostingsWriter;

/// One target: its record count and the edges of each node with some.
type Target = (u64, BTreeMap<u64, BTreeSet<u64>>);

/// The key of node `o` in the model (keys sort differently from ordinals on purpose).
fn key(o: u64) -> String {
    format!("k{o}")
}

/// Writes the model (`targets` by name; `handle_only` targets have no key map: their handles
/// are in `unresolved` with the dangling ones) and opens it linked to the targets' key maps.
fn build(
    targets: &BTreeMap<String, Target>,
    handle_only: &BTreeSet<String>,
    unresolved: &BTreeMap<String, BTreeSet<u64>>,
) -> (Adjacency, Vec<u8>) {
    let mut post = PostingsWriter::new(Vec::new());
    let mut lists = Vec::new();
    let names: BTreeSet<&String> = targets.keys().chain(handle_only).collect();
    for name in names {
        let (nodes, edges) = targets.get(name).cloned().unwrap_or_default();
        let mut l = Vec::new();
        for (o, es) in &edges {
            let v: Vec<u64> = es.iter().copied().collect();
            l.push((*o, post.push(&v).unwrap()));
        }
        lists.push(TargetLists::in_memory(
            name,
            nodes,
            !handle_only.contains(name),
            &l,
        ));
    }
    let table = adjacency::write(Vec::new(), &mut lists).unwrap();
    let mut u = MultiMapBuilder::new(Vec::new(), Vec::new(), "u").unwrap();
    for (h, es) in unresolved {
        u.insert(h.as_bytes(), &es.iter().copied().collect::<Vec<_>>())
            .unwrap();
    }
    let (f, p) = u.finish().unwrap();
    let u = MultiMap::open(Bytes::from_vec(f), Bytes::from_vec(p), "u").unwrap();
    let mut a = Adjacency::open(
        Bytes::from_vec(table.clone()),
        Bytes::from_vec(post.into_inner()),
        u,
        "t",
    )
    .unwrap();
    for (name, (nodes, _)) in targets {
        let keys: BTreeMap<String, u64> = (0..*nodes).map(|o| (key(o), o)).collect();
        a.link(name, KeyLookup::in_memory(keys, KeyEncoding::Text).unwrap());
    }
    (a, table)
}

fn list(a: Option<varcat_format::postings::List>) -> Vec<u64> {
    a.map(|l| l.iter().collect()).unwrap_or_default()
}

/// A target of up to `max` records, about `fill` of them with edges.
fn target(max: u64) -> impl Strategy<Value = Target> {
    (1..max, 0.0f64..1.0).prop_flat_map(|(n, fill)| {
        let k = ((n as f64 * fill) as usize).max(1);
        (
            Just(n),
            prop::collection::btree_map(0..n, prop::collection::btree_set(0u64..5000, 1..5), 0..=k),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every node's list, by ordinal and by handle, equals the model's; handles of handle-only
    /// targets and dangling keys come from the unresolved map; the nodes with edges are listed.
    #[test]
    fn prop_adjacency_equals_model(
        targets in prop::collection::btree_map("[a-d]{1,3}", target(1500), 0..4),
        handle_only in prop::collection::btree_map("h[a-c]{1,2}/[a-c]{1,3}", prop::collection::btree_set(0u64..99, 1..4), 0..5),
        dangling_keys in prop::collection::btree_set("z[a-c]{1,3}", 0..4),
    ) {
        // Dangling handles name keys the targets lack (keys are `k<n>`).
        let mut dangling = BTreeMap::new();
        for (i, name) in targets.keys().enumerate() {
            for k in &dangling_keys {
                dangling.insert(format!("{name}/{k}"), BTreeSet::from([i as u64]));
            }
        }
        let handle_targets: BTreeSet<String> = handle_only
            .keys()
            .map(|h| h.split_once('/').unwrap().0.to_string())
            .collect();
        let mut unresolved = handle_only.clone();
        unresolved.extend(dangling.clone());
        let (a, _) = build(&targets, &handle_targets, &unresolved);
        prop_assert!(handle_targets.iter().all(|t| a.by_handle_only(t)));
        for (name, (n, edges)) in &targets {
            prop_assert!(!a.by_handle_only(name));
            for o in 0..*n + 2 {
                let want: Vec<u64> = edges.get(&o).map(|s| s.iter().copied().collect()).unwrap_or_default();
                prop_assert_eq!(list(a.of(name, o)), want.clone());
                prop_assert_eq!(list(a.get(&format!("{name}/{}", key(o)))), want);
            }
            prop_assert_eq!(a.nodes(name).collect::<Vec<u64>>(), edges.keys().copied().collect::<Vec<u64>>());
        }
        for (h, es) in &unresolved {
            prop_assert_eq!(list(a.get(h)), es.iter().copied().collect::<Vec<u64>>());
        }
        prop_assert!(a.get("nowhere/k0").is_none());
        prop_assert!(a.get("no-slash").is_none());
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Truncated or altered tables are refused or read without panicking.
    #[test]
    fn prop_corrupt_adjacency_never_panics(
        targets in prop::collection::btree_map("[a-b]{1,2}", target(1500), 1..3),
        cut in any::<prop::sample::Index>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..6),
        probes in prop::collection::vec(0u64..3000, 0..20),
    ) {
        let (_, table) = build(&targets, &BTreeSet::new(), &BTreeMap::new());
        let mut bad = table.clone();
        for (i, x) in &flips {
            let at = i.index(bad.len());
            bad[at] ^= x;
        }
        for bytes in [bad, table[..cut.index(table.len())].to_vec()] {
            if let Ok(a) = Adjacency::open(Bytes::from_vec(bytes), Bytes::from_vec(vec![7; 64]), MultiMap::empty(), "t") {
                for name in targets.keys() {
                    for &o in &probes {
                        let _ = list(a.of(name, o));
                    }
                    let _ = a.nodes(name).count();
                }
            }
        }
    }
}

/// Empty: no targets; a sparse part spans many fences; a mostly-connected target is dense.
#[test]
fn test_empty_sparse_and_dense_parts() {
    let (a, table) = build(&BTreeMap::new(), &BTreeSet::new(), &BTreeMap::new());
    assert_eq!(a.targets().count(), 0);
    assert!(a.of("variants", 0).is_none() && a.get("variants/k0").is_none());
    assert_eq!(table.len(), 32, "an empty table is its trailer");

    let sparse: BTreeMap<u64, BTreeSet<u64>> =
        (0..5000).map(|i| (i * 37, BTreeSet::from([i]))).collect();
    let dense: BTreeMap<u64, BTreeSet<u64>> =
        (0..900).map(|i| (i, BTreeSet::from([i, i + 1]))).collect();
    let targets = BTreeMap::from([
        ("s".to_string(), (200_000, sparse.clone())),
        ("d".to_string(), (1000, dense.clone())),
    ]);
    let (a, table) = build(&targets, &BTreeSet::new(), &BTreeMap::new());
    // Sparse: 12 bytes per node with edges (+ fences); dense: 8 per record.
    assert!(table.len() < 5000 * 13 + 1000 * 8 + 256, "{}", table.len());
    for (o, es) in &sparse {
        assert_eq!(list(a.of("s", *o)), es.iter().copied().collect::<Vec<_>>());
        assert!(a.of("s", o + 1).is_none());
    }
    assert_eq!(list(a.of("d", 899)), vec![899, 900]);
    assert!(a.of("d", 950).is_none() && a.of("d", 5000).is_none());
    assert_eq!(a.nodes("s").count(), 5000);
}

/// The writer refuses targets or nodes out of order.
#[test]
fn test_writer_refuses_unsorted_input() {
    let t = |name: &str, lists: &[(u64, u64)]| TargetLists::in_memory(name, 10, true, lists);
    assert!(adjacency::write(Vec::new(), &mut [t("b", &[]), t("a", &[])]).is_err());
    // Out of order, repeated, past the collection: in a dense part and in a sparse one.
    for lists in [
        &[(3, 0), (2, 8)][..],
        &[(2, 0), (2, 8)],
        &[(10, 0)],
        &[(4, 0), (9, 8), (3, 16)],
    ] {
        assert!(
            adjacency::write(Vec::new(), &mut [t("a", lists)]).is_err(),
            "{lists:?}"
        );
        let dense = [(0, 0), (1, 8), (5, 16), (6, 24), (7, 32), (8, 40), (9, 48)];
        let mut many: Vec<(u64, u64)> = dense.to_vec();
        many.extend_from_slice(lists);
        assert!(
            adjacency::write(Vec::new(), &mut [t("a", &many)]).is_err(),
            "{many:?}"
        );
    }
    let h = TargetLists::in_memory("a", 10, false, &[(1, 0)]);
    assert!(
        adjacency::write(Vec::new(), &mut [h]).is_err(),
        "a handle-only target has no lists"
    );
}

/// A key map built as the indexer builds one (values are ranks), in either key encoding (a
/// hex key's stored order is its text's).
fn ranked(keys: &BTreeSet<Vec<u8>>, encoding: KeyEncoding) -> KeyLookup {
    KeyLookup::in_memory(keys.iter().zip(0..), encoding).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `key_of` reads a key map backwards: the key of every rank, nothing past the end.
    #[test]
    fn prop_key_of_inverts_the_key_map(text in prop::collection::btree_set("[a-d]{0,7}", 0..80),
                                      hex in prop::collection::btree_set("([0-9a-f]{2}){1,5}", 0..80)) {
        for (keys, encoding) in [(text, KeyEncoding::Text), (hex, KeyEncoding::Hex)] {
            let bytes: BTreeSet<Vec<u8>> = keys.iter().map(|k| k.as_bytes().to_vec()).collect();
            let l = ranked(&bytes, encoding);
            for (i, k) in keys.iter().enumerate() {
                prop_assert_eq!(l.key_of(i as u64), Some(k.clone()));
                prop_assert_eq!(l.ord(k), Some(i as u64));
            }
            prop_assert_eq!(l.key_of(keys.len() as u64), None);
            prop_assert_eq!(l.key_of(u64::MAX), None);
        }
    }
}
