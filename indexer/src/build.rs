//! The whole build: discover inputs, build every collection in schema order, write metadata,
//! check the result (each collection as soon as it is written, then the finished file's table).

use std::path::{Path, PathBuf};

use serde_json::json;
use varcat_format::build::keyindex::KeyIndex;
use varcat_format::collection::{Collection, Collections};
use varcat_format::meta::META_SECTION;
use varcat_format::{Catalog, CatalogWriter, Meta, FORMAT_VERSION};

use crate::collection::{self, Env, Source};
use crate::derive::Ctx;
use crate::duplicates::OnDuplicate;
use crate::error::BuildError;
use crate::input;
use crate::interrupt;
use crate::plan::LoadPlan;
use crate::progress::Progress;
use crate::report::Report;
use crate::schema::{self, Kind, SPECS, UNUSED};

/// Default memory budget for one sorting phase.
pub const DEFAULT_MEM_BUDGET: usize = 2 << 30;

/// Default limit on an input line's length (the largest real IGVF document seen is 9.6 KB).
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

/// Build options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Directory of collections: `<collection>[.<part>].jsonl[.gz]` files and collection
    /// folders ([`input::discover`]).
    pub input: PathBuf,
    /// Catalog file to write (atomically replaced).
    pub output: PathBuf,
    /// Memory budget of the build's heap, bytes (output does not depend on it).
    pub mem_budget: usize,
    /// Scratch directory (default: next to the output).
    pub tmp_dir: Option<PathBuf>,
    /// Any duplicate `_key`, and an unknown collection, stops the build.
    pub strict: bool,
    /// What a document whose `_key` is already loaded does, in collections the load plan does
    /// not name.
    pub on_duplicate: OnDuplicate,
    /// A load plan: per collection, its files' order and policies ([`LoadPlan`]).
    pub plan: Option<PathBuf>,
    /// The release the input is (recorded in the catalog).
    pub release: Option<String>,
    /// Show progress on stderr.
    pub progress: bool,
    /// Threads for parsing and index building (output does not depend on it).
    pub threads: usize,
    /// The longest input line accepted, bytes: a longer one stops the build with `file:line`
    /// (each parsing thread holds a few copies of a line, so this bounds their memory).
    pub max_line: usize,
    /// Collections with more documents than this get 8-byte ordinals (the default keeps every
    /// collection that fits 32 bits narrow; tests lower it to exercise the wide sections).
    pub wide_above: u64,
    /// Collections whose encoded records pass this many bytes may be stored in zstd blocks
    /// (tests lower it to exercise the compressed reads on the small sample).
    pub zstd_above: u64,
}

impl Options {
    /// Options with defaults for `input` → `output`.
    pub fn new(input: &Path, output: &Path) -> Options {
        Options {
            input: input.to_path_buf(),
            output: output.to_path_buf(),
            mem_budget: DEFAULT_MEM_BUDGET,
            tmp_dir: None,
            strict: false,
            on_duplicate: OnDuplicate::default(),
            plan: None,
            release: None,
            progress: false,
            threads: crate::parallel::threads(),
            max_line: DEFAULT_MAX_LINE,
            wide_above: varcat_format::width::DEFAULT_WIDE_ABOVE,
            zstd_above: varcat_format::records::DEFAULT_ZSTD_ABOVE,
        }
    }
}

/// Builds a catalog; returns the summary.
pub fn build(opts: &Options) -> Result<Report, BuildError> {
    let mut files = input::discover(&opts.input)?;
    for f in files.values_mut().flatten() {
        f.on_duplicate = opts.on_duplicate;
    }
    let plan = match &opts.plan {
        Some(p) => Some(LoadPlan::read(p)?.apply(&mut files)?),
        None => None,
    };
    if files.values().all(|parts| parts.is_empty()) {
        return Err(BuildError::Usage(format!(
            "{}: no collection files found (<collection>.jsonl or .jsonl.gz, or a folder \
             <collection>/ of them)",
            opts.input.display()
        )));
    }
    // Refused before anything is written: the catalog is renamed over its destination at the
    // end, which would replace an input of the same name.
    if opts.output.is_dir() {
        return Err(BuildError::Usage(format!(
            "{}: is a directory (-o names the catalog file)",
            opts.output.display()
        )));
    }
    let inputs: Vec<&Path> = files.values().flatten().map(|f| f.path.as_path()).collect();
    varcat_outfile::check_distinct(&opts.output, &inputs).map_err(BuildError::Usage)?;
    let parent = opts
        .output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let base = opts.tmp_dir.clone().unwrap_or_else(|| parent.to_path_buf());
    let scratch = base.join(format!(".varcat-build-{}", std::process::id()));
    // Registered before they are created, so an interruption at any point finds them; the
    // scratch directory goes however the build ends.
    let _owned = [
        interrupt::scratch(&scratch),
        interrupt::register(&CatalogWriter::temp_path(&opts.output)),
    ];
    std::fs::create_dir_all(&scratch)
        .map_err(|e| BuildError::io(scratch.display().to_string(), e))?;

    let total: u64 = files.values().flatten().map(|f| f.bytes).sum();
    let mut env = Env::new(
        scratch.clone(),
        opts.mem_budget,
        opts.strict,
        opts.threads,
        Progress::new(opts.progress, total),
    );
    env.max_line = opts.max_line;
    env.wide_above = opts.wide_above;
    env.zstd_above = opts.zstd_above;
    for (name, parts) in &files {
        if schema::spec(name).is_none() {
            let why = if UNUSED.contains(&name.as_str()) {
                "no endpoint uses it"
            } else if opts.strict {
                let at = parts
                    .first()
                    .map_or(opts.input.join(name), |f| f.path.clone());
                return Err(BuildError::Usage(format!(
                    "{}: unknown collection {name} (--strict)",
                    at.display()
                )));
            } else {
                "unknown collection"
            };
            env.report.skipped.insert(name.clone(), why.to_string());
        }
    }

    let mut w = CatalogWriter::create(&opts.output)?;
    let mut ctx = Ctx {
        threads: env.threads,
        ..Ctx::default()
    };
    let mut metas = Vec::new();
    // Sections written and checked so far, in file order.
    let mut verified = Vec::new();
    for spec in SPECS {
        let source = match (spec.kind, schema::hooks(spec.name).derive) {
            (Kind::Derived, Some(g)) => Source::Derived(g),
            _ => match files.get(spec.name) {
                Some(parts) => Source::Files(parts),
                None => continue,
            },
        };
        let meta = collection::build(&mut w, spec, source, &ctx, &mut env)?;
        // The schema's index list is what readers check their names against (schema::check).
        debug_assert!(
            meta.indexes.iter().eq(spec
                .index_names()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .iter()),
            "{}: indexes written differ from the schema's",
            spec.name
        );
        let cat = w.read_back()?;
        // The new sections are checked now, while the page cache still holds them: once the
        // file is complete, re-reading a 41 GB catalog took 20-43 s, half of it from the disk.
        cat.verify_from(verified.len(), env.threads)
            .map_err(|e| BuildError::Usage(format!("checking {}: {e}", spec.name)))?;
        verified = cat.sections().to_vec();
        let mut coll = Collection::open(&cat, &meta)
            .map_err(|e| BuildError::Usage(format!("reading back {}: {e}", spec.name)))?;
        // Its adjacencies resolve handles with the key maps of the collections built before.
        coll.link_with(|n| ctx.get(n), |n| ctx.key_lookup(n))
            .map_err(|e| BuildError::Usage(format!("reading back {}: {e}", spec.name)))?;
        // Keyed nodes are what edges point at: their keys get a fingerprint index while there
        // is room.
        if spec.kind == Kind::Node && spec.keyed.is_some() {
            // What the sorts freed goes back to the system first: the index is held on top of
            // it for the rest of the build. (Trimming after every collection cost page faults
            // when the next one's sorts touched fresh memory; memory kept between them is
            // reused within the budget.)
            varcat_format::build::heap::release_free();
            if let Some(s) =
                KeyIndex::from_keys(coll.len(), env.pin_room(), |add| coll.for_each_key(add))
            {
                env.pin(s.heap_bytes());
                ctx.key_indexes
                    .insert(spec.name.to_string(), std::sync::Arc::new(s));
            }
        }
        ctx.built.insert(spec.name.to_string(), coll);
        metas.push(meta);
    }
    env.progress.done();

    let mut inputs = env.inputs.clone();
    inputs.sort_by(|a, b| a.name.cmp(&b.name));
    let r = &env.report;
    let meta = Meta {
        format_version: FORMAT_VERSION,
        varcat_version: env!("CARGO_PKG_VERSION").to_string(),
        inputs,
        options: [("strict".to_string(), json!(opts.strict)), ("on_duplicate".to_string(), json!(opts.on_duplicate)), ("schema".to_string(), json!(schema::fingerprint())), ("wide_threshold".to_string(), json!(opts.wide_above)), ("zstd_above".to_string(), json!(opts.zstd_above))]
            .into_iter()
            .collect(),
        collections: metas,
        summary: [
            ("documents".to_string(), json!(r.documents)),
            ("duplicates".to_string(), r.duplicates_json()),
            ("derived_edge_keys".to_string(), json!(r.derived_keys)),
            (
                "dangling_references".to_string(),
                json!(r.dangling.iter().map(|((c, f, t), n)| json!({"collection": c, "field": f, "target": t, "count": n})).collect::<Vec<_>>()),
            ),
            ("non_finite_values".to_string(), json!(r.non_finite)),
            ("null_array_elements".to_string(), json!(r.null_elements)),
            ("skipped_collections".to_string(), json!(r.skipped)),
            ("skipped_members".to_string(), json!(r.skipped_members())),
        ]
        .into_iter()
        .collect(),
        release: opts.release.clone(),
        load_plan: plan.map(|p| json!(p)),
    };
    w.add(META_SECTION, &meta.to_bytes())?;
    drop(ctx);
    let checksum = w.finish()?;

    // Open what was written, as the server will, before declaring success: its table must
    // list the sections checked above, unchanged, and the rest (the metadata) is checked here.
    let bad = |e: String| BuildError::Usage(format!("verifying the new catalog: {e}"));
    let cat = Catalog::open(&opts.output).map_err(|e| bad(e.to_string()))?;
    if cat.sections().get(..verified.len()) != Some(&verified[..]) {
        return Err(bad(
            "its section table differs from the sections written".into()
        ));
    }
    cat.verify_from(verified.len(), env.threads)
        .map_err(|e| bad(e.to_string()))?;
    Collections::open(cat.clone()).map_err(|e| bad(e.to_string()))?;
    env.report.catalog_bytes = cat.file_len() as u64;
    env.report.checksum = checksum;
    Ok(env.report)
}
