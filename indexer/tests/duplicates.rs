//! Duplicate `_key`s resolved by arangoimport's policies (`--on-duplicate`), and load plans:
//! the documents stored are those a series of `arangoimport` runs would leave.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};
use varcat_format::collection::{Collection, Collections};
use varcat_format::Catalog;
use varcat_indexer::duplicates::merge_objects;
use varcat_indexer::{build, OnDuplicate, Options, Report};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("varcat-dup-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `docs` as the JSON Lines file `path`.
fn write(path: &Path, docs: &[Value]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text: String = docs.iter().map(|d| format!("{d}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// A variant document.
fn variant(key: &str, extra: Value) -> Value {
    let mut d = json!({"_key": key, "chr": "chr1", "pos": 10, "ref": "A", "alt": "G"});
    d.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    d
}

/// Every stored member of `key`'s record.
fn stored(c: &Collection, key: &str) -> Value {
    let o = c.ord(key).unwrap_or_else(|| panic!("{key} not stored"));
    let mut m = Map::new();
    for f in &c.meta.fields {
        if let Some(v) = c.value(o, f) {
            m.insert(f.clone(), serde_json::from_slice(&v).unwrap());
        }
    }
    Value::Object(m)
}

fn build_with(input: &Path, out: &Path, set: impl FnOnce(&mut Options)) -> (Report, Collections) {
    let mut opts = Options::new(input, out);
    opts.threads = 1;
    set(&mut opts);
    let report = build(&opts).unwrap();
    (
        report,
        Collections::open(Catalog::open(out).unwrap()).unwrap(),
    )
}

/// The stored documents of `collection` in a catalog built from `docs` alone (no duplicates):
/// what varcat stores for the documents a load should leave.
fn stored_alone(dir: &Path, collection: &str, docs: &[Value]) -> BTreeMap<String, Value> {
    let input = dir.join(format!("alone-{collection}"));
    let _ = std::fs::remove_dir_all(&input);
    write(&input.join(format!("{collection}.jsonl")), docs);
    let (_, cat) = build_with(&input, &dir.join("alone.varcat"), |_| {});
    let c = cat.get(collection).unwrap();
    docs.iter()
        .map(|d| {
            let k = d["_key"].as_str().unwrap();
            (k.to_string(), stored(c, k))
        })
        .collect()
}

/// `later` acting on `first` as arangoimport's `policy` would.
fn model(first: &Value, later: &Value, policy: OnDuplicate) -> Value {
    match policy {
        OnDuplicate::Error | OnDuplicate::Ignore => first.clone(),
        OnDuplicate::Replace => later.clone(),
        OnDuplicate::Update => {
            let mut d = first.clone();
            merge_objects(
                d.as_object_mut().unwrap(),
                later.as_object().unwrap().clone(),
            );
            d
        }
    }
}

/// The same two documents of one key, in two files of a collection folder, under each policy:
/// error and ignore keep the first whole and count the later at its `file:line`; replace keeps
/// the later whole; update patches it (arrays replaced, an explicit null stored, which a
/// catalog stores as no member, members the later lacks kept).
#[test]
fn test_each_policy_gives_arangoimports_document() {
    let dir = scratch("policies");
    let input = dir.join("in");
    let first = json!({"_key": "G1", "name": "A", "chr": "chr1", "start": 5, "end": 9, "synonyms": ["a", "b"], "hgnc": "HGNC:1"});
    let later = json!({"_key": "G1", "name": "B", "synonyms": ["c"], "hgnc": null, "source": "S"});
    write(&input.join("genes/a.jsonl"), std::slice::from_ref(&first));
    write(
        &input.join("genes/b.jsonl"),
        &[json!({"_key": "G0", "name": "Z"}), later.clone()],
    );
    for p in OnDuplicate::ALL {
        let out = dir.join(format!("{p}.varcat"));
        let (report, cat) = build_with(&input, &out, |o| o.on_duplicate = p);
        let (n, at) = &report.duplicates["genes"][&p];
        assert_eq!((*n, at.len()), (1, 1), "{p}");
        assert!(at[0].ends_with("genes/b.jsonl:2"), "{p}: {at:?}");
        let want = stored_alone(&dir, "genes", &[model(&first, &later, p)]);
        assert_eq!(stored(cat.get("genes").unwrap(), "G1"), want["G1"], "{p}");
    }
    // The four differ, and update's is the patch: B's name and synonyms, no hgnc, A's chr.
    let update = stored_alone(&dir, "genes", &[model(&first, &later, OnDuplicate::Update)]);
    assert_eq!(
        update["G1"],
        json!({"_key": "G1", "name": "B", "chr": "chr1", "start": 5, "end": 9, "synonyms": ["c"], "source": "S"})
    );

    // --strict: any duplicate stops the build at the later document's file:line (every
    // document placed, which strict also demands).
    let placed = |k: &str| json!({"_key": k, "chr": "chr1", "start": 5, "end": 9});
    write(&input.join("genes/a.jsonl"), &[placed("G1")]);
    write(&input.join("genes/b.jsonl"), &[placed("G0"), placed("G1")]);
    let mut strict = Options::new(&input, &dir.join("strict.varcat"));
    strict.strict = true;
    strict.on_duplicate = OnDuplicate::Replace;
    let msg = build(&strict).unwrap_err().to_string();
    assert!(msg.contains("genes/b.jsonl:2: duplicate _key G1"), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Within one file the file's policy applies too (arangoimport checks each line against what
/// is loaded so far), and a key repeated three times is folded in line order.
#[test]
fn test_duplicates_within_a_file_fold_in_line_order() {
    let dir = scratch("within");
    let input = dir.join("in");
    let docs = [
        json!({"_key": "G1", "name": "A", "hgnc": "H1"}),
        json!({"_key": "G1", "name": "B", "source": "S"}),
        json!({"_key": "G1", "hgnc": "H3"}),
    ];
    write(&input.join("genes.jsonl"), &docs);
    for p in OnDuplicate::ALL {
        let out = dir.join(format!("{p}.varcat"));
        let (report, cat) = build_with(&input, &out, |o| o.on_duplicate = p);
        assert_eq!(report.duplicates_in("genes"), 2, "{p}");
        let want = model(&model(&docs[0], &docs[1], p), &docs[2], p);
        let want = stored_alone(&dir, "genes", &[want]);
        assert_eq!(stored(cat.get("genes").unwrap(), "G1"), want["G1"], "{p}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two documents of one key in files `a.jsonl` and `b.jsonl` (line 2) of a `collection`
/// folder, built under each policy: the stored record is varcat's form of the document
/// arangoimport leaves, as built from that document alone. Returns it by policy.
fn each_policy(
    dir: &Path,
    collection: &str,
    first: &Value,
    later: &Value,
) -> BTreeMap<OnDuplicate, Value> {
    let input = dir.join("in");
    let key = first["_key"].as_str().unwrap();
    let other = json!({"_key": format!("{key}-other"), "name": "Z"});
    write(
        &input.join(format!("{collection}/a.jsonl")),
        std::slice::from_ref(first),
    );
    write(
        &input.join(format!("{collection}/b.jsonl")),
        &[other, later.clone()],
    );
    let mut got = BTreeMap::new();
    for p in OnDuplicate::ALL {
        let out = dir.join(format!("{collection}-{p}.varcat"));
        let (report, cat) = build_with(&input, &out, |o| o.on_duplicate = p);
        let (n, at) = &report.duplicates[collection][&p];
        assert_eq!(*n, 1, "{p}");
        assert!(
            at[0].ends_with(&format!("{collection}/b.jsonl:2")),
            "{p}: {at:?}"
        );
        let want = stored_alone(dir, collection, &[model(first, later, p)]);
        let stored = stored(cat.get(collection).unwrap(), key);
        assert_eq!(stored, want[key], "{collection} {p}");
        got.insert(p, stored);
    }
    let update = &got[&OnDuplicate::Update];
    assert_ne!(update, &got[&OnDuplicate::Replace], "{collection}");
    assert_ne!(update, &got[&OnDuplicate::Ignore], "{collection}");
    std::fs::remove_dir_all(&input).unwrap();
    got
}

/// Variants are reshaped as read (FAVOR's `annotations` become the output's, some of its
/// members moved to the top level): an update patches the documents as read, then reshapes.
/// Nested `annotations` merge member by member, `rsid` is replaced, an explicit null leaves no
/// `source`, and what only the earlier document had (`hgvs`, FAVOR's `af_afr`) stays.
#[test]
fn test_update_of_variants_patches_the_documents_as_read() {
    let dir = scratch("variants-update");
    let first = variant(
        "v1",
        json!({"rsid": ["rs1", "rs2"], "hgvs": "NC_000001.11:g.10A>G", "source": "FAVOR",
               "annotations": {"af_total": 0.1, "af_afr": 0.3, "funseq_description": "coding",
                               "cadd_phred": 12.5}}),
    );
    let later = variant(
        "v1",
        json!({"rsid": ["rs9"], "source": null, "annotations": {"af_total": 0.2, "varinfo": "x"}}),
    );
    let got = each_policy(&dir, "variants", &first, &later);
    let update = &got[&OnDuplicate::Update];
    let a = &update["annotations"];
    assert_eq!(
        (&a["gnomad_af_total"], &a["gnomad_af_afr"]),
        (&json!(0.2), &json!(0.3))
    );
    assert_eq!(a["funseq_description"], "coding");
    assert_eq!(
        (&update["cadd_phred"], &update["varinfo"]),
        (&json!(12.5), &json!("x"))
    );
    assert_eq!(update["rsid"], json!(["rs9"]));
    assert_eq!(update["hgvs"], "NC_000001.11:g.10A>G");
    assert!(update.get("source").is_none(), "{update}");
    // Replacing takes the later document whole: FAVOR's af_afr is gone.
    assert!(got[&OnDuplicate::Replace]["annotations"]["gnomad_af_afr"].is_null());

    // A key repeated in one update file folds in line order, as read.
    let third = json!({"_key": "v1", "annotations": {"af_afr": 0.5}, "hgvs": null});
    let input = dir.join("in");
    write(
        &input.join("variants.jsonl"),
        &[first.clone(), later.clone(), third.clone()],
    );
    let (_, cat) = build_with(&input, &dir.join("fold.varcat"), |o| {
        o.on_duplicate = OnDuplicate::Update
    });
    let want = model(
        &model(&first, &later, OnDuplicate::Update),
        &third,
        OnDuplicate::Update,
    );
    let want = stored_alone(&dir, "variants", &[want]);
    let stored = stored(cat.get("variants").unwrap(), "v1");
    assert_eq!(stored, want["v1"]);
    assert_eq!(stored["annotations"]["gnomad_af_afr"], json!(0.5));
    assert!(stored.get("hgvs").is_none());

    // --strict stops at the first duplicate, at its file:line, whatever the policy (every
    // document placed, which strict also demands).
    std::fs::remove_file(input.join("variants.jsonl")).unwrap();
    write(
        &input.join("variants/a.jsonl"),
        std::slice::from_ref(&first),
    );
    write(
        &input.join("variants/b.jsonl"),
        &[variant("v0", json!({})), later, variant("v1", json!({}))],
    );
    let mut strict = Options::new(&input, &dir.join("strict.varcat"));
    strict.strict = true;
    strict.on_duplicate = OnDuplicate::Update;
    let msg = build(&strict).unwrap_err().to_string();
    assert!(
        msg.contains("variants/b.jsonl:2: duplicate _key v1 in variants (--strict)"),
        "{msg}"
    );
    assert!(!dir.join("strict.varcat").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Proteins derive `dbxref_ids` from `dbxrefs` as read: after an update that leaves `dbxrefs`
/// alone they are still the earlier document's (patching the derived records would have taken
/// the later one's, empty).
#[test]
fn test_update_of_proteins_derives_from_the_patched_document() {
    let dir = scratch("proteins-update");
    let first = json!({"_key": "P1", "name": "A", "source": "UniProt", "uniprot_ids": ["u1", "u2"],
                       "dbxrefs": [{"name": "X", "id": "x1"}, {"name": "Y", "id": "y1"}]});
    let later = json!({"_key": "P1", "name": "B", "source": null, "uniprot_ids": ["u3"],
                       "version": "2"});
    let got = each_policy(&dir, "proteins", &first, &later);
    let update = &got[&OnDuplicate::Update];
    assert_eq!(
        update,
        &json!({"_key": "P1", "name": "B", "uniprot_ids": ["u3"], "version": "2",
                "dbxrefs": [{"name": "X", "id": "x1"}, {"name": "Y", "id": "y1"}],
                "dbxref_ids": ["x1", "y1"]})
    );
    assert_eq!(got[&OnDuplicate::Replace]["dbxref_ids"], json!([]));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The shipped plan for IGVF's variants load, on three sources whose keys overlap every way:
/// the documents stored are those IGVF's three `arangoimport` steps leave, computed here by
/// applying the steps to a map (and they differ from what any single policy gives).
#[test]
fn test_the_shipped_igvf_plan_leaves_what_igvfs_three_imports_leave() {
    let dir = scratch("igvf");
    let input = dir.join("in");
    let favor = vec![
        variant(
            "k1",
            json!({"rsid": ["rs1"], "source": "FAVOR", "annotations": {"af_total": 0.1, "af_afr": 0.3}}),
        ),
        variant(
            "k2",
            json!({"rsid": ["rs2"], "source": "FAVOR", "annotations": {"af_total": 0.2}}),
        ),
        variant("k6", json!({"rsid": ["rs6"], "source": "FAVOR"})),
    ];
    let y2ave = vec![
        variant(
            "k1",
            json!({"source": "FAVOR", "annotations": {"af_total": 0.15}, "y2ave": true}),
        ),
        variant(
            "k4",
            json!({"source": "FAVOR", "annotations": {"af_total": 0.4}, "y2ave": true}),
        ),
    ];
    let dbnsfp = vec![
        variant("k1", json!({"source": "Autogenerated from dbNSFP 5.1a"})),
        variant("k2", json!({"source": "Autogenerated from dbNSFP 5.1a"})),
        variant("k3", json!({"source": "Autogenerated from dbNSFP 5.1a"})),
        variant("k5", json!({"source": "Autogenerated from dbNSFP 5.1a"})),
    ];
    let topld = vec![
        variant("k5", json!({"source": "Autogenerated from TopLD"})),
        variant("k6", json!({"source": "Autogenerated from TopLD"})),
        variant("k7", json!({"source": "Autogenerated from TopLD"})),
    ];
    let v = input.join("variants");
    write(&v.join("favor_IGVFFI0843RDRY_chr1.vcf.jsonl"), &favor[..2]);
    write(&v.join("favor_IGVFFI1938SSTV_chr2.vcf.jsonl"), &favor[2..]);
    write(&v.join("annotations_y2ave_chr1.jsonl"), &y2ave);
    write(&v.join("autogenerated_dbnsfp_variants.jsonl"), &dbnsfp);
    write(
        &v.join("autogenerated_topld_variants_with_keys.jsonl"),
        &topld,
    );

    // IGVF's steps, applied to a map: 1) FAVOR (default: the first kept), 2) y2ave replace,
    // 3) the autogenerated files ignore.
    let mut want: BTreeMap<String, Value> = BTreeMap::new();
    let import = |want: &mut BTreeMap<String, Value>, docs: &[Value], p: OnDuplicate| {
        for d in docs {
            let k = d["_key"].as_str().unwrap().to_string();
            match (want.get_mut(&k), p) {
                (None, _) => {
                    want.insert(k, d.clone());
                }
                (Some(_), OnDuplicate::Error | OnDuplicate::Ignore) => {}
                (Some(old), OnDuplicate::Replace) => *old = d.clone(),
                (Some(old), OnDuplicate::Update) => {
                    merge_objects(old.as_object_mut().unwrap(), d.as_object().unwrap().clone())
                }
            }
        }
    };
    import(&mut want, &favor, OnDuplicate::Error);
    import(&mut want, &y2ave, OnDuplicate::Replace);
    import(&mut want, &dbnsfp, OnDuplicate::Ignore);
    import(&mut want, &topld, OnDuplicate::Ignore);

    let plan = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/igvf-load-plan.json");
    let (report, cat) = build_with(&input, &dir.join("plan.varcat"), |o| o.plan = Some(plan));
    let c = cat.get("variants").unwrap();
    let docs: Vec<Value> = want.values().cloned().collect();
    let want = stored_alone(&dir, "variants", &docs);
    assert_eq!(c.len(), want.len() as u64);
    for (k, d) in &want {
        assert_eq!(&stored(c, k), d, "{k}");
    }
    // The load the plan describes: y2ave replaced k1's FAVOR document (its rsid gone), the
    // autogenerated variants added k3, k5 (dbNSFP's, the first in name order) and k7 only.
    assert_eq!(
        stored(c, "k1")["annotations"]["gnomad_af_total"],
        json!(0.15)
    );
    assert!(stored(c, "k1").get("rsid").is_none());
    assert_eq!(stored(c, "k5")["source"], "Autogenerated from dbNSFP 5.1a");
    assert_eq!(stored(c, "k2")["source"], "FAVOR");
    let counts: BTreeMap<OnDuplicate, u64> = report.duplicates["variants"]
        .iter()
        .map(|(p, (n, _))| (*p, *n))
        .collect();
    assert_eq!(
        counts,
        BTreeMap::from([(OnDuplicate::Replace, 1), (OnDuplicate::Ignore, 4)])
    );

    // The same files with one policy for all, in name order, give other documents.
    for p in [
        OnDuplicate::Error,
        OnDuplicate::Ignore,
        OnDuplicate::Replace,
    ] {
        let out = dir.join(format!("{p}.varcat"));
        let (_, one) = build_with(&input, &out, |o| o.on_duplicate = p);
        let one = one.get("variants").unwrap();
        let same = want.iter().all(|(k, d)| &stored(one, k) == d);
        assert!(!same, "--on-duplicate {p} alone gave the plan's documents");
    }

    // The catalog records the plan as applied: each step with the files it loaded.
    let meta = Catalog::open(&dir.join("plan.varcat")).unwrap();
    let meta = Collections::open(meta).unwrap().meta;
    let steps = &meta.load_plan.as_ref().unwrap()["collections"]["variants"];
    assert_eq!(steps[1]["on_duplicate"], "replace");
    assert_eq!(
        steps[2]["matched"],
        json!([
            "variants/autogenerated_dbnsfp_variants.jsonl",
            "variants/autogenerated_topld_variants_with_keys.jsonl"
        ])
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A plan that misses: a file of a planned collection no step matches, and a step that
/// matches no file, stop the build naming them.
#[test]
fn test_a_plan_that_misses_a_file_or_a_step_is_refused() {
    let dir = scratch("miss");
    let input = dir.join("in");
    let plan = dir.join("plan.json");
    write(
        &input.join("variants/favor_chr1.jsonl"),
        &[variant("k1", json!({}))],
    );
    write(
        &input.join("variants/bluestarr_x.jsonl"),
        &[variant("k2", json!({}))],
    );
    std::fs::write(
        &plan,
        r#"{"collections": {"variants": [{"files": "favor_*"}, {"files": "*y2ave*", "on_duplicate": "replace"}]}}"#,
    )
    .unwrap();
    let mut opts = Options::new(&input, &dir.join("x.varcat"));
    opts.plan = Some(plan.clone());
    let msg = build(&opts).unwrap_err().to_string();
    assert!(
        msg.contains(
            "variants/bluestarr_x.jsonl: no step of the load plan for variants matches it"
        ),
        "{msg}"
    );
    std::fs::remove_file(input.join("variants/bluestarr_x.jsonl")).unwrap();
    let msg = build(&opts).unwrap_err().to_string();
    assert!(
        msg.contains("variants step \"*y2ave*\" matches no input file"),
        "{msg}"
    );
    assert!(!dir.join("x.varcat").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
