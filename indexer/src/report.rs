//! The build summary: counts per collection, duplicates, dangling references, warnings.

use std::collections::BTreeMap;
use std::fmt;

use crate::duplicates::OnDuplicate;

/// How many unplaceable documents the summary names by `file:line`, per collection.
const UNPLACED_SHOWN: usize = 3;

/// How many later duplicates the summary names by `file:line`, per collection and policy.
const DUPLICATES_SHOWN: usize = 3;

/// What a build did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Documents stored per collection.
    pub documents: BTreeMap<String, u64>,
    /// Documents read per collection (before merging duplicates).
    pub read: BTreeMap<String, u64>,
    /// Later documents of a `_key` already loaded, per collection and the policy that
    /// resolved them: how many, and the first few `file:line`s.
    pub duplicates: BTreeMap<String, BTreeMap<OnDuplicate, (u64, Vec<String>)>>,
    /// Keys derived for edges without `_key`, per collection.
    pub derived_keys: BTreeMap<String, u64>,
    /// Dangling references: (collection, field, target collection) → count.
    pub dangling: BTreeMap<(String, String, String), u64>,
    /// References checked: (collection, field) → count.
    pub references: BTreeMap<(String, String), u64>,
    /// Fields dropped because no endpoint knows them: (collection, field) → documents.
    pub unknown_fields: BTreeMap<(String, String), u64>,
    /// Input collections skipped (no endpoint uses them): name → reason.
    pub skipped: BTreeMap<String, String>,
    /// `NaN`/`Infinity` tokens replaced by null.
    pub non_finite: u64,
    /// Null elements dropped from string arrays.
    pub null_elements: u64,
    /// Values of integer fields that were not integers (kept as given).
    pub non_integer: u64,
    /// Documents whose coordinates cannot be placed, per collection (stored, found by id, in
    /// no region index), with the first few `file:line: reason`s.
    pub unplaced: BTreeMap<String, (u64, Vec<String>)>,
    /// Sorted runs spilled to disk because a sorter passed its memory budget.
    pub spilled_runs: u64,
    /// Catalog size in bytes.
    pub catalog_bytes: u64,
    /// Catalog checksum.
    pub checksum: u64,
}

impl Report {
    pub(crate) fn bump<K: Ord>(m: &mut BTreeMap<K, u64>, k: K, n: u64) {
        *m.entry(k).or_insert(0) += n;
    }

    /// Counts a later document of a `_key` already loaded (at `file:line`), resolved by
    /// `policy`.
    pub fn duplicate(&mut self, collection: &str, policy: OnDuplicate, at: String) {
        let (n, first) = self
            .duplicates
            .entry(collection.to_string())
            .or_default()
            .entry(policy)
            .or_default();
        *n += 1;
        if first.len() < DUPLICATES_SHOWN {
            first.push(at);
        }
    }

    /// Later documents of a `_key` already loaded in `collection`, whatever became of them.
    pub fn duplicates_in(&self, collection: &str) -> u64 {
        self.duplicates
            .get(collection)
            .map_or(0, |m| m.values().map(|(n, _)| n).sum())
    }

    /// Counts a document of `collection` whose coordinates cannot be placed (at `file:line`).
    pub fn unplaced(&mut self, collection: &str, at: String, reason: &str) {
        let (n, first) = self.unplaced.entry(collection.to_string()).or_default();
        *n += 1;
        if first.len() < UNPLACED_SHOWN {
            first.push(format!("{at}: {reason}"));
        }
    }

    /// [`Report::duplicates`] as the catalog's metadata holds it: collection → policy →
    /// `{"count", "first"}`.
    pub fn duplicates_json(&self) -> serde_json::Value {
        let by_policy = |by: &BTreeMap<OnDuplicate, (u64, Vec<String>)>| {
            by.iter()
                .map(|(p, (n, first))| {
                    (
                        p.as_str().to_string(),
                        serde_json::json!({"count": n, "first": first}),
                    )
                })
                .collect::<serde_json::Map<_, _>>()
        };
        self.duplicates
            .iter()
            .map(|(c, by)| (c.clone(), serde_json::Value::Object(by_policy(by))))
            .collect::<serde_json::Map<_, _>>()
            .into()
    }

    /// Members dropped because no endpoint knows them: collection → member → documents.
    pub fn skipped_members(&self) -> BTreeMap<&str, BTreeMap<&str, u64>> {
        let mut out: BTreeMap<&str, BTreeMap<&str, u64>> = BTreeMap::new();
        for ((c, f), n) in &self.unknown_fields {
            out.entry(c).or_default().insert(f, *n);
        }
        out
    }

    /// Warnings to show the user (unknown collections and fields, unplaceable coordinates).
    pub fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        for (c, (n, first)) in &self.unplaced {
            let more = if *n > first.len() as u64 { ", …" } else { "" };
            w.push(format!(
                "{c}: {n} documents with coordinates that cannot be placed (stored and found by id, in no region query; --strict refuses them): {}{more}",
                first.join("; ")
            ));
        }
        for (name, why) in &self.skipped {
            w.push(format!("collection {name} skipped: {why}"));
        }
        for ((c, f), n) in &self.unknown_fields {
            w.push(format!("{c}: unknown field {f} ({n} documents) not stored"));
        }
        w
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<34} {:>12} {:>10}",
            "collection", "documents", "duplicates"
        )?;
        for (c, n) in &self.documents {
            writeln!(f, "{:<34} {:>12} {:>10}", c, n, self.duplicates_in(c))?;
        }
        for (c, by) in &self.duplicates {
            for (policy, (n, first)) in by {
                let more = if *n > first.len() as u64 { ", …" } else { "" };
                writeln!(
                    f,
                    "{c}: {n} duplicate _keys {}: {}{more}",
                    policy.outcome(),
                    first.join(", ")
                )?;
            }
        }
        if !self.dangling.is_empty() {
            writeln!(f, "dangling references (normal in IGVF data):")?;
            for ((c, field, target), n) in &self.dangling {
                let total = self
                    .references
                    .get(&(c.clone(), field.clone()))
                    .copied()
                    .unwrap_or(0);
                writeln!(f, "  {c}.{field} -> {target}: {n} of {total}")?;
            }
        }
        for (c, n) in &self.derived_keys {
            writeln!(f, "{c}: {n} edges without _key got derived keys")?;
        }
        if self.non_finite > 0 {
            writeln!(f, "NaN/Infinity values stored as null: {}", self.non_finite)?;
        }
        if self.null_elements > 0 {
            writeln!(
                f,
                "null elements dropped from string arrays: {}",
                self.null_elements
            )?;
        }
        if self.non_integer > 0 {
            writeln!(
                f,
                "non-integer values in integer fields (kept as given): {}",
                self.non_integer
            )?;
        }
        for w in self.warnings() {
            writeln!(f, "warning: {w}")?;
        }
        write!(
            f,
            "catalog: {} bytes, checksum {:016x}",
            self.catalog_bytes, self.checksum
        )
    }
}
