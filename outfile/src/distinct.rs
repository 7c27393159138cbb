//! An output must not be one of the command's inputs: `annotate big.vcf.gz -o big.vcf.gz`
//! truncated its input to a sixteenth before failing, and `export-vcf x.varcat -o x.varcat`
//! emptied the catalog it was reading (then died of SIGBUS on the mapping).
//!
//! Two names are the same file when both exist with the same device and inode (hard links,
//! symbolic links, `./` and `../` detours), or, when the output does not exist yet, when their
//! paths are equal once the directories are resolved.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// `Err` naming both when `output` is the same file as one of `inputs` (`-`, standard input or
/// output, is never the same as anything).
pub fn check_distinct(output: &Path, inputs: &[&Path]) -> Result<(), String> {
    if is_stdio(output) {
        return Ok(());
    }
    for input in inputs.iter().filter(|i| !is_stdio(i)) {
        if same_file(output, input) {
            return Err(format!(
                "{}: the output is the input {}; refusing to overwrite it (write elsewhere, then \
                 rename)",
                output.display(),
                input.display()
            ));
        }
    }
    Ok(())
}

fn is_stdio(p: &Path) -> bool {
    p.as_os_str() == "-"
}

/// True when `a` and `b` name the same file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    matches!((resolved(a), resolved(b)), (Some(x), Some(y)) if x == y)
}

/// `p` made absolute with its directory resolved (links followed), whether or not `p` itself
/// exists; None when its directory cannot be resolved either.
fn resolved(p: &Path) -> Option<PathBuf> {
    if let Ok(c) = std::fs::canonicalize(p) {
        return Some(c);
    }
    let name = p.file_name()?;
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(dir).ok()?.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("varcat-distinct-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("sub")).unwrap();
        d
    }

    #[test]
    fn test_the_same_file_by_any_name_is_refused() {
        let d = dir("same");
        let f = d.join("in.vcf");
        std::fs::write(&f, b"x").unwrap();
        std::fs::hard_link(&f, d.join("hard.vcf")).unwrap();
        std::os::unix::fs::symlink(&f, d.join("soft.vcf")).unwrap();
        for other in [
            "in.vcf",
            "hard.vcf",
            "soft.vcf",
            "sub/../in.vcf",
            "./in.vcf",
        ] {
            let e = check_distinct(&d.join(other), &[&d.join("x"), &f]).unwrap_err();
            assert!(e.contains("refusing to overwrite"), "{e}");
        }
        assert!(check_distinct(&d.join("out.vcf"), &[&f]).is_ok());
        assert!(check_distinct(Path::new("-"), &[&f, Path::new("-")]).is_ok());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn test_a_missing_output_is_compared_by_resolved_path() {
        let d = dir("missing");
        let missing = d.join("sub/../new.vcf");
        assert!(same_file(&missing, &d.join("new.vcf")));
        assert!(!same_file(&missing, &d.join("sub/new.vcf")));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
