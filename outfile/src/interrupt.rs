//! What a running command has on disk besides its input (a build's scratch directory of sort
//! runs and spools, any output still under its temporary name), so that an interrupted command
//! can remove it: a 10M build stopped with Ctrl-C left 7 GB of sort runs and a partial catalog of
//! tens of GB.
//!
//! Commands register paths here; whoever handles the stop signal (the CLI, on a thread of its
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

/// A registered path; dropping it unregisters the path, and removes it if it is scratch.
pub struct Registered<'r> {
    registry: &'r Registry,
    path: PathBuf,
    /// Removed however the build ends (its scratch directory), not only when interrupted.
    scratch: bool,
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
        drop(paths);
        if self.scratch {
            remove(&self.path);
        }
    }
}

/// Removes a file or a directory with what it holds; true when something was removed.
fn remove(p: &Path) -> bool {
    match std::fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => remove_dir(p),
        Ok(_) => std::fs::remove_file(p).is_ok(),
        Err(_) => false,
    }
}

/// Removes a directory that build threads may still be writing into: a file they create while
/// `remove_dir_all` runs makes its last `rmdir` fail (ENOTEMPTY), which left an interrupted
/// build's sort runs behind about one time in three. So: again until it is gone, for at most a
/// second; once it is, their next file fails to open.
fn remove_dir(p: &Path) -> bool {
    for _ in 0..1000 {
        if std::fs::remove_dir_all(p).is_ok() || !p.exists() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    false
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

    /// Registers `path` (a file or a directory) for removal; a `scratch` path is also
    /// removed when its guard drops.
    pub fn register(&self, path: &Path, scratch: bool) -> Registered<'_> {
        self.lock().push(path.to_path_buf());
        Registered {
            registry: self,
            path: path.to_path_buf(),
            scratch,
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
            if remove(p) {
                removed.push(p.clone());
            }
        }
        std::mem::forget(paths);
        removed
    }
}

/// Registers `path` (a file or a directory) for removal if the build is interrupted; whoever
/// creates it removes it otherwise (the catalog writer, unless it renamed it into place).
pub fn register(path: &Path) -> Registered<'static> {
    GLOBAL.register(path, false)
}

/// Registers a scratch path: removed when the guard drops, however the build ends, or when it
/// is interrupted.
pub fn scratch(path: &Path) -> Registered<'static> {
    GLOBAL.register(path, true)
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
        let _d = r.register(&dir, false);
        let _f = r.register(&file, false);
        drop(r.register(&kept, false));
        let _missing = r.register(&base.join("never-created"), false);
        let mut removed = r.remove_all();
        removed.sort();
        assert_eq!(removed, vec![dir.clone(), file.clone()]);
        assert!(!dir.exists() && !file.exists() && kept.exists());
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn test_a_directory_still_being_written_is_removed() {
        let r = Registry::new();
        let dir = std::env::temp_dir().join(format!("varcat-busy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let _d = r.register(&dir, true);
        // A writer that keeps adding files until the directory is gone, as sort threads do.
        let writer = {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let mut n = 0u64;
                while std::fs::write(dir.join(format!("run-{n}")), b"x").is_ok() {
                    n += 1;
                }
                n
            })
        };
        while std::fs::read_dir(&dir).map_or(0, |d| d.count()) < 100 {
            std::thread::yield_now();
        }
        assert_eq!(r.remove_all(), vec![dir.clone()]);
        assert!(!dir.exists());
        assert!(writer.join().unwrap() >= 100);
    }

    #[test]
    fn test_scratch_is_removed_when_its_guard_drops() {
        let r = Registry::new();
        let dir = std::env::temp_dir().join(format!("varcat-scratch-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/x"), b"x").unwrap();
        drop(r.register(&dir, true));
        assert!(!dir.exists());
        assert!(
            r.remove_all().is_empty(),
            "the dropped guard stayed registered"
        );
    }
}
