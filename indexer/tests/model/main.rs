//! Whole-catalog property test: random JSON Lines for four real collections (genes,
//! genes_structure, variants, variants_genes) are built into a catalog, and every record and
//! index read back is compared with a model computed by scanning the generated documents.
//!
//! The model states each rule plainly (merge = later members win, keyless edges are keyed
//! `<from> <to>`, record order, what an index holds) and is computed without the indexer's
//! code; the only schema-specific normalisations modelled are the simple ones of the
//! generated members.

mod checks;
mod expect;
mod input;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering as Atomic};

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
use serde_json::json;
use varcat_format::collection::Collections;
use varcat_format::Catalog;
use varcat_indexer::{build, Options};

use checks::{check, Tally};
use input::{input, Input};

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
