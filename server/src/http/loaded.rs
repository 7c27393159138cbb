//! A loaded catalog and what is derived from it once (entity tag, health body), and how a
//! catalog file changed in place under its mapping is noticed.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::json;
use varcat_format::collection::Collections;
use varcat_format::{Catalog, ReadError};

/// A loaded catalog and what is derived from it once.
pub struct Loaded {
    /// The collections.
    pub cat: Collections,
    /// Weak entity tag: the catalog checksum.
    pub etag: Arc<str>,
    /// Where it was loaded from.
    pub path: Option<PathBuf>,
    /// The `/api/health` body: it depends on the catalog alone, so it is made once.
    health: Vec<u8>,
    /// Size and modification time of the mapped file when it was opened.
    mapped: Option<FileStamp>,
    /// Set once its file was changed in place: why nothing more is read from it.
    gone: std::sync::OnceLock<Arc<str>>,
}

/// Size and modification time of an open file: what a rewrite in place changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStamp {
    /// Size in bytes.
    pub len: u64,
    /// Modification time (seconds, nanoseconds).
    pub mtime: (i64, i64),
}

impl FileStamp {
    /// The stamp of an open file (`fstat` of its descriptor).
    pub fn of(file: &std::fs::File) -> Option<FileStamp> {
        use std::os::unix::fs::MetadataExt;
        let m = file.metadata().ok()?;
        Some(FileStamp {
            len: m.size(),
            mtime: (m.mtime(), m.mtime_nsec()),
        })
    }
}

impl Loaded {
    /// Opens (and unless `no_verify`, verifies every checksum of) the catalog at `path`.
    pub fn open(path: &std::path::Path, verify: bool) -> Result<Loaded, ReadError> {
        let catalog = Catalog::open(path)?;
        if verify {
            catalog.verify()?;
        }
        Loaded::from_catalog(catalog, Some(path.to_path_buf()))
    }

    /// Wraps an opened catalog.
    pub fn from_catalog(catalog: Catalog, path: Option<PathBuf>) -> Result<Loaded, ReadError> {
        let etag = format!("W/\"{:016x}\"", catalog.checksum()).into();
        let mut loaded = Loaded {
            cat: Collections::open(catalog)?,
            etag,
            path,
            health: Vec::new(),
            mapped: None,
            gone: std::sync::OnceLock::new(),
        };
        loaded.mapped = loaded.cat.catalog.file().and_then(FileStamp::of);
        loaded.health = health_body(&loaded);
        Ok(loaded)
    }
}

impl Loaded {
    /// The `/api/health` body.
    pub fn health(&self) -> &[u8] {
        &self.health
    }

    /// How the mapped file was changed in place since it was opened (truncated, extended or
    /// rewritten), from `fstat` of its descriptor, not of the path: a file renamed over the
    /// path leaves the mapped one intact, while `cp` or `truncate` on the path change it
    /// under the mapping, whose pages past the new end fault (SIGBUS) when read.
    pub fn changed_in_place(&self) -> Option<String> {
        let (was, file) = (self.mapped?, self.cat.catalog.file()?);
        let now = FileStamp::of(file)?;
        let name = self
            .path
            .as_deref()
            .map_or_else(|| "the catalog".into(), |p| p.display().to_string());
        if now.len != was.len {
            Some(format!(
                "the catalog file {name} was changed in place while served ({} from {} to {} \
                 bytes); answering again once a valid catalog is at that path",
                if now.len < was.len {
                    "truncated"
                } else {
                    "resized"
                },
                was.len,
                now.len
            ))
        } else if now.mtime != was.mtime {
            Some(format!(
                "the catalog file {name} was changed in place while served (rewritten); \
                 answering again once a valid catalog is at that path"
            ))
        } else {
            None
        }
    }

    /// Why nothing more is read from this catalog (its file was changed in place), if so.
    pub fn gone(&self) -> Option<Arc<str>> {
        self.gone.get().cloned()
    }

    /// Stops reading this catalog: requests that would read it are answered 503 with `why`,
    /// and batch answers in progress end. False when it was already stopped.
    pub fn take_down(&self, why: &str) -> bool {
        self.gone.set(why.into()).is_ok()
    }

    /// Stops reading this catalog if its file was changed in place (logging why once); why,
    /// if it is stopped.
    pub fn check_mapped_file(&self) -> Option<Arc<str>> {
        if let Some(why) = self.changed_in_place() {
            if self.take_down(&why) {
                eprintln!("varcat: {why}");
            }
        }
        self.gone()
    }
}

fn health_body(loaded: &Loaded) -> Vec<u8> {
    let m = &loaded.cat.meta;
    let collections: serde_json::Map<String, serde_json::Value> = m
        .collections
        .iter()
        .map(|c| (c.name.clone(), json!(c.documents)))
        .collect();
    serde_json::to_vec(&json!({
        "status": "ok",
        "catalog": {
            "checksum": format!("{:016x}", loaded.cat.catalog.checksum()),
            "bytes": loaded.cat.catalog.file_len(),
            "format_version": m.format_version,
            "built_by": format!("varcat {}", m.varcat_version),
            "release": m.release,
            "collections": collections,
        },
        "varcat_version": env!("CARGO_PKG_VERSION"),
    }))
    .expect("health serialises")
}
