//! A load plan: per collection, the order its files are loaded in and the duplicate policy of
//! each, as a series of `arangoimport` runs would load them.
//!
//! ```json
//! {
//!   "description": "what the plan is for",
//!   "collections": {
//!     "variants": [
//!       {"files": "favor_*", "on_duplicate": "error"},
//!       {"files": "*y2ave*", "on_duplicate": "replace", "note": "why"}
//!     ]
//!   }
//! }
//! ```
//!
//! Patterns name files of the collection's folder (in the flat layout, the whole file name),
//! case-sensitive; `*` stands for any run of characters within the name. A
//! file goes to the first step whose pattern matches it; the steps load in plan order, each
//! step's files in byte order of their names. A file of a planned collection that no step
//! matches, and a step that matches no file, are errors: a plan that silently missed a file
//! would serve other documents than the load it describes.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::duplicates::OnDuplicate;
use crate::error::BuildError;
use crate::input::InputFile;

/// A load plan, as read from its file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadPlan {
    /// What the plan describes and where its patterns come from.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Per collection, its steps in load order.
    pub collections: BTreeMap<String, Vec<Step>>,
}

/// One step of a collection's load: the files a pattern matches, with their policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The files' pattern (`*` within a name).
    pub files: String,
    /// What a document of these files does when its `_key` is already loaded.
    #[serde(default)]
    pub on_duplicate: OnDuplicate,
    /// Why (free text, kept in the catalog).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// The files the step loaded, as the build found them (written into the catalog's copy
    /// of the plan; never read from a plan file).
    #[serde(default, skip_serializing_if = "Vec::is_empty", skip_deserializing)]
    pub matched: Vec<String>,
}

impl LoadPlan {
    /// Reads and checks the plan at `path`.
    pub fn read(path: &Path) -> Result<LoadPlan, BuildError> {
        let text =
            std::fs::read(path).map_err(|e| BuildError::io(path.display().to_string(), e))?;
        let bad = |why: String| BuildError::Usage(format!("load plan {}: {why}", path.display()));
        let plan: LoadPlan = serde_json::from_slice(&text).map_err(|e| bad(e.to_string()))?;
        for (coll, steps) in &plan.collections {
            if steps.is_empty() {
                return Err(bad(format!("{coll}: no steps")));
            }
            for s in steps {
                if s.files.is_empty() || s.files.contains('/') {
                    return Err(bad(format!(
                        "{coll}: pattern {:?} must be a non-empty file name (no /)",
                        s.files
                    )));
                }
            }
        }
        Ok(plan)
    }

    /// Orders the files of every planned collection by the plan and gives each its step's
    /// policy; returns the plan with each step's files listed.
    pub fn apply(
        &self,
        files: &mut BTreeMap<String, Vec<InputFile>>,
    ) -> Result<LoadPlan, BuildError> {
        let mut applied = self.clone();
        for (coll, steps) in &mut applied.collections {
            let parts = files.remove(coll).unwrap_or_default();
            let mut by_step: Vec<Vec<InputFile>> = vec![Vec::new(); steps.len()];
            for f in parts {
                let Some(i) = steps.iter().position(|s| matches(&s.files, &f.part)) else {
                    return Err(BuildError::Usage(format!(
                        "{}: no step of the load plan for {coll} matches it",
                        f.path.display()
                    )));
                };
                by_step[i].push(f);
            }
            let mut ordered = Vec::new();
            for (step, mut fs) in steps.iter_mut().zip(by_step) {
                if fs.is_empty() {
                    return Err(BuildError::Usage(format!(
                        "load plan: {coll} step {:?} matches no input file",
                        step.files
                    )));
                }
                fs.sort_by(|a, b| a.part.cmp(&b.part));
                for f in &mut fs {
                    f.on_duplicate = step.on_duplicate;
                }
                step.matched = fs.iter().map(|f| f.name.clone()).collect();
                ordered.extend(fs);
            }
            files.insert(coll.clone(), ordered);
        }
        Ok(applied)
    }
}

/// Whether `name` matches `pattern`, where `*` matches any run of characters (case-sensitive).
pub fn matches(pattern: &str, name: &str) -> bool {
    let mut pieces = pattern.split('*');
    let first = pieces.next().unwrap_or("");
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    let Some((last, middle)) = pieces.split_last() else {
        return rest.is_empty();
    };
    for p in middle {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_patterns() {
        assert!(matches("favor_*", "favor_IGVFFI0843RDRY_chr1.vcf.jsonl"));
        assert!(matches("*y2ave*", "annotations_y2ave_chr1.jsonl"));
        assert!(matches("*", "x"));
        assert!(matches("a*b*c", "abc"));
        assert!(matches("a*b*c", "axxbyyc"));
        assert!(!matches("a*b*c", "axxc"));
        assert!(!matches("favor_*", "Favor_x"), "case-sensitive");
        assert!(!matches("x.jsonl", "x.jsonl.gz"));
        assert!(matches("x.jsonl", "x.jsonl"));
        // The last piece is not allowed to overlap the first.
        assert!(!matches("ab*ba", "aba"));
    }

    #[test]
    fn test_steps_are_checked_when_read() {
        let dir = std::env::temp_dir().join(format!("varcat-plan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("plan.json");
        for (text, want) in [
            (r#"{"collections": {"variants": []}}"#, "no steps"),
            (
                r#"{"collections": {"variants": [{"files": "a/b"}]}}"#,
                "no /",
            ),
            (
                r#"{"collections": {"variants": [{"files": "a", "on_duplicate": "merge"}]}}"#,
                "unknown variant",
            ),
            (
                r#"{"collections": {"variants": [{"file": "a"}]}}"#,
                "unknown field",
            ),
        ] {
            std::fs::write(&p, text).unwrap();
            let err = LoadPlan::read(&p).unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
