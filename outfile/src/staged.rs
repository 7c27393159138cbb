//! Outputs that appear only when complete. A file is written as `.NAME.tmp-PID-N` in its
//! destination's directory (the same file system, so the rename is atomic), fsynced and renamed
//! over `NAME` by [`Staged::commit`]; dropped without a commit (an error, a panic unwinding) it is
//! removed, and a stop signal removes it through [`crate::interrupt`]. A reader of `NAME` thus
//! sees the old file or the whole new one, never a prefix that looks complete (a BGZF file cut
//! after any block still ends in a valid block, and `bcftools` read a failed run's 19,996 records
//! as a whole file).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::interrupt::{self, Registered};

/// Distinguishes the temporary names of one process.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// The temporary name of `dest`, beside it.
fn temp_for(dest: &Path) -> PathBuf {
    let name = dest.file_name().map(|n| n.to_string_lossy().into_owned());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    dest.with_file_name(format!(
        ".{}.tmp-{}-{n}",
        name.unwrap_or_default(),
        std::process::id()
    ))
}

/// The directory `dest` goes into (`.` for a bare name).
fn dir_of(dest: &Path) -> &Path {
    match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The message for a failure to create something in `dest`'s directory: permissions and a
/// missing directory are said plainly.
fn create_error(dest: &Path, e: &io::Error) -> String {
    let dir = dir_of(dest).display();
    match e.kind() {
        io::ErrorKind::PermissionDenied => format!(
            "{}: cannot write in {dir}: permission denied (the output's directory must be \
             writable: the output is written there under a temporary name, then renamed)",
            dest.display()
        ),
        io::ErrorKind::NotFound => {
            format!("{}: the directory {dir} does not exist", dest.display())
        }
        _ => format!("{}: cannot create it in {dir}: {e}", dest.display()),
    }
}

/// A file being written under a temporary name until [`Staged::commit`].
pub struct Staged {
    tmp: PathBuf,
    dest: PathBuf,
    /// A handle of the file kept for the fsync, whoever writes through the other.
    file: File,
    committed: bool,
    _registered: Registered<'static>,
}

impl Staged {
    /// Creates the temporary file of `dest`; returns the guard and the file to write.
    pub fn create(dest: &Path) -> Result<(Staged, File), String> {
        if dest.is_dir() {
            return Err(format!("{}: is a directory", dest.display()));
        }
        let tmp = temp_for(dest);
        // Registered first, so that a stop signal between the two finds it.
        let registered = interrupt::register(&tmp);
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| create_error(dest, &e))?;
        let keep = file
            .try_clone()
            .map_err(|e| format!("{}: {e}", tmp.display()))?;
        Ok((
            Staged {
                tmp,
                dest: dest.to_path_buf(),
                file: keep,
                committed: false,
                _registered: registered,
            },
            file,
        ))
    }

    /// The destination.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// The temporary path the data is written to.
    pub fn temp_path(&self) -> &Path {
        &self.tmp
    }

    /// Makes the written bytes durable and renames the file into place. Everything written
    /// through the other handle must have been flushed.
    pub fn commit(mut self) -> Result<(), String> {
        let fail = |e: io::Error| format!("{}: {e}", self.dest.display());
        self.file.sync_all().map_err(fail)?;
        std::fs::rename(&self.tmp, &self.dest).map_err(fail)?;
        self.committed = true;
        sync_dir(dir_of(&self.dest));
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// A directory being filled under a temporary name until [`StagedDir::commit`], which puts it
/// in place of the destination (an earlier one is replaced only then).
pub struct StagedDir {
    tmp: PathBuf,
    dest: PathBuf,
    committed: bool,
    _registered: Registered<'static>,
}

impl StagedDir {
    /// Creates the temporary directory of `dest`.
    pub fn create(dest: &Path) -> Result<StagedDir, String> {
        let tmp = temp_for(dest);
        let registered = interrupt::register(&tmp);
        std::fs::create_dir(&tmp).map_err(|e| create_error(dest, &e))?;
        Ok(StagedDir {
            tmp,
            dest: dest.to_path_buf(),
            committed: false,
            _registered: registered,
        })
    }

    /// The temporary directory to fill.
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// Renames the directory into place; an existing destination (which the caller has judged
    /// replaceable) is moved aside first and removed after.
    pub fn commit(mut self) -> Result<(), String> {
        let fail = |e: io::Error| format!("{}: {e}", self.dest.display());
        let old = self.dest.exists().then(|| temp_for(&self.dest));
        if let Some(old) = &old {
            std::fs::rename(&self.dest, old).map_err(fail)?;
        }
        if let Err(e) = std::fs::rename(&self.tmp, &self.dest) {
            if let Some(old) = &old {
                let _ = std::fs::rename(old, &self.dest);
            }
            return Err(fail(e));
        }
        self.committed = true;
        if let Some(old) = &old {
            let _ = std::fs::remove_dir_all(old);
        }
        sync_dir(dir_of(&self.dest));
        Ok(())
    }
}

impl Drop for StagedDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
    }
}

/// Persists a rename: without it a crash can lose the new name on some file systems. Not
/// fatal where directories cannot be fsynced.
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("varcat-staged-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn test_a_file_appears_only_when_committed() {
        let d = dir("file");
        let dest = d.join("out.vcf");
        std::fs::write(&dest, b"old").unwrap();
        let (staged, mut f) = Staged::create(&dest).unwrap();
        f.write_all(b"new").unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"old");
        assert_eq!(names(&d).len(), 2);
        staged.commit().unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"new");
        assert_eq!(names(&d), ["out.vcf"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn test_a_dropped_file_is_removed_and_the_old_one_kept() {
        let d = dir("drop");
        let dest = d.join("out.vcf");
        std::fs::write(&dest, b"old").unwrap();
        let (staged, mut f) = Staged::create(&dest).unwrap();
        f.write_all(b"half").unwrap();
        drop(staged);
        assert_eq!(names(&d), ["out.vcf"]);
        assert_eq!(std::fs::read(&dest).unwrap(), b"old");
        let (_, _) = Staged::create(&d.join("new.vcf")).unwrap();
        assert_eq!(names(&d), ["out.vcf"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn test_a_directory_replaces_the_old_one_when_committed() {
        let d = dir("dir");
        let dest = d.join("synth");
        std::fs::create_dir(&dest).unwrap();
        std::fs::write(dest.join("old.jsonl"), b"old").unwrap();
        let staged = StagedDir::create(&dest).unwrap();
        std::fs::write(staged.path().join("new.jsonl"), b"new").unwrap();
        assert_eq!(names(&dest), ["old.jsonl"]);
        staged.commit().unwrap();
        assert_eq!(names(&dest), ["new.jsonl"]);
        assert_eq!(names(&d), ["synth"]);
        let dropped = StagedDir::create(&dest).unwrap();
        std::fs::write(dropped.path().join("x.jsonl"), b"x").unwrap();
        drop(dropped);
        assert_eq!(names(&d), ["synth"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn test_an_unwritable_directory_is_said_plainly() {
        let e = Staged::create(Path::new("/proc/varcat-out.vcf"))
            .err()
            .unwrap();
        assert!(e.contains("/proc"), "{e}");
        let e = Staged::create(Path::new("/nonexistent-dir/out.vcf"))
            .err()
            .unwrap();
        assert!(e.contains("does not exist"), "{e}");
    }
}
