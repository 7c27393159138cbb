//! The bundled sample catalog: built from `testdata/catalog` into `target/sample.varcat` the
//! first time `varcat serve` runs without a catalog, and rebuilt when the inputs, the format
//! or the schema changed.

use std::path::{Path, PathBuf};

use varcat_format::{Catalog, Meta};

/// The collections the sample is built from (in the source tree).
pub fn input_dir() -> PathBuf {
    let compiled = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/catalog");
    if compiled.is_dir() {
        compiled
    } else {
        PathBuf::from("testdata/catalog")
    }
}

/// Where the sample catalog is kept (git-ignored).
pub fn catalog_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/sample.varcat")
}

fn file_xxh3(p: &Path) -> Option<String> {
    let bytes = std::fs::read(p).ok()?;
    Some(format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes)))
}

/// True when the catalog at `path` was built from exactly the files in `dir` by this version
/// and schema.
pub fn is_fresh(path: &Path, dir: &Path) -> bool {
    let Ok(cat) = Catalog::open(path) else {
        return false;
    };
    // An encoding change that leaves version and schema alone (a new section kind, say) shows
    // only when the collections open as the server opens them.
    if varcat_format::collection::Collections::open(cat.clone()).is_err() {
        return false;
    }
    let Some(meta) = cat
        .section(varcat_format::meta::META_SECTION)
        .and_then(|b| Meta::from_bytes(b.as_ref()).ok())
    else {
        return false;
    };
    if meta.varcat_version != env!("CARGO_PKG_VERSION")
        || meta.options.get("schema").and_then(|v| v.as_str())
            != Some(varcat_indexer::schema::fingerprint().as_str())
    {
        return false;
    }
    let Ok(files) = varcat_indexer::input::discover(dir) else {
        return false;
    };
    let mut current: Vec<(String, u64, Option<String>)> = files
        .values()
        .flatten()
        .map(|f| (f.name.clone(), f.bytes, file_xxh3(&f.path)))
        .collect();
    current.sort();
    let recorded: Vec<(String, u64, Option<String>)> = meta
        .inputs
        .iter()
        .map(|i| (i.name.clone(), i.bytes, Some(i.xxh3.clone())))
        .collect();
    // Collections the schema skips are not recorded as inputs; compare only recorded names.
    current.retain(|c| varcat_indexer::schema::spec(c.0.split('.').next().unwrap_or("")).is_some());
    current == recorded
}

/// The sample catalog's path, building it first when missing or stale.
pub fn ensure() -> Result<PathBuf, String> {
    let (dir, path) = (input_dir(), catalog_path());
    if is_fresh(&path, &dir) {
        return Ok(path);
    }
    eprintln!(
        "varcat: building the sample catalog {} from {}",
        path.display(),
        dir.display()
    );
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let mut opts = varcat_indexer::Options::new(&dir, &path);
    opts.progress = false;
    let report = varcat_indexer::build(&opts).map_err(|e| e.to_string())?;
    eprintln!(
        "varcat: sample catalog ready ({} bytes)",
        report.catalog_bytes
    );
    Ok(path)
}
