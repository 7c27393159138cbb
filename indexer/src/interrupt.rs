//! What a running build has on disk besides its input (its scratch directory of sort runs and
//! spools, the catalog file being written), so that an interrupted build can remove it: a 10M
//! build stopped with Ctrl-C left 7 GB of sort runs and a partial catalog of tens of GB.
//!
//! The build registers paths here; whoever handles the stop signal (the CLI, on a thread of its
//! own, not in a signal handler: this takes a lock and allocates) calls [`remove_all`], then
//! exits.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Paths to remove on interruption.
pub struct Registry {
    paths: Mutex<Vec<PathBuf>>,
    /// Set by [`Registry::remove_all`], which keeps the lock: guards dropped later let go.
    removed: AtomicBool,
}

/// The process's registry, which [`register`] and [`remove_all`] use.
static GLOBAL: Registry = Registry::new();

/// A registered path; dropping it unregisters the path (the build removed or kept it).
pub struct Registered<'r> {
    registry: &'r Registry,
    path: PathBuf,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        if self.registry.removed.load(Ordering::SeqCst) {
            return;
        }
        let mut paths = self.registry.lock();
        if let Some(i) = paths.iter().position(|p| *p == self.path) {
            paths.swap_remove(i);
        }
    }
}

impl Registry {
    const fn new() -> Registry {
        Registry {
            paths: Mutex::new(Vec::new()),
            removed: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<PathBuf>> {
        self.paths.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers `path` (a file or a directory) for removal.
    pub fn register(&self, path: &Path) -> Registered<'_> {
        self.lock().push(path.to_path_buf());
        Registered {
            registry: self,
            path: path.to_path_buf(),
        }
    }

    /// Removes every registered path that exists; returns those removed. The registry stays
    /// locked afterwards: the process is about to exit, and a build thread that would register
    /// (then create) another path waits instead.
    pub fn remove_all(&self) -> Vec<PathBuf> {
        let paths = self.lock();
        self.removed.store(true, Ordering::SeqCst);
        let mut removed = Vec::new();
        for p in paths.iter() {
            let done = match std::fs::symlink_metadata(p) {
                Ok(m) if m.is_dir() => std::fs::remove_dir_all(p).is_ok(),
                Ok(_) => std::fs::remove_file(p).is_ok(),
                Err(_) => false,
            };
            if done {
                removed.push(p.clone());
            }
        }
        std::mem::forget(paths);
        removed
    }
}

/// Registers `path` (a file or a directory) for removal if the build is interrupted.
pub fn register(path: &Path) -> Registered<'static> {
    GLOBAL.register(path)
}

/// Removes every path registered with [`register`] (see [`Registry::remove_all`]).
pub fn remove_all() -> Vec<PathBuf> {
    GLOBAL.remove_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_registered_paths_are_removed_and_dropped_ones_kept() {
        let base = std::env::temp_dir().join(format!("varcat-interrupt-{}", std::process::id()));
        let (dir, file, kept) = (base.join("d"), base.join("f"), base.join("k"));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/x"), b"x").unwrap();
        std::fs::write(&file, b"y").unwrap();
        std::fs::write(&kept, b"z").unwrap();
        let r = Registry::new();
        let _d = r.register(&dir);
        let _f = r.register(&file);
        drop(r.register(&kept));
        let _missing = r.register(&base.join("never-created"));
        let mut removed = r.remove_all();
        removed.sort();
        assert_eq!(removed, vec![dir.clone(), file.clone()]);
        assert!(!dir.exists() && !file.exists() && kept.exists());
        let _ = std::fs::remove_dir_all(&base);
    }
}
