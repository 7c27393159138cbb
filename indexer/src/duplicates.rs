//! What a document whose `_key` was already loaded does, in `arangoimport`'s words
//! (`--on-duplicate`), and the one place the four rules are applied.
//!
//! Documents are folded in load order (collections' parts in order, lines in order): the first
//! document of a key is kept, and each later one acts on it by the policy of the file it comes
//! from, as a later `arangoimport` of that file would on the collection loaded so far.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The policy for a document whose `_key` is already loaded.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum OnDuplicate {
    /// The earlier document is kept; the later one is refused and counted (arangoimport's
    /// default).
    #[default]
    Error,
    /// The earlier document is kept; the later one is skipped and counted.
    Ignore,
    /// The later document replaces the earlier one whole.
    Replace,
    /// The later document patches the earlier one: members set, nested objects merged member
    /// by member, arrays and other values replaced, an explicit `null` stored.
    Update,
}

impl OnDuplicate {
    /// Every policy, as the flag spells them.
    pub const ALL: [OnDuplicate; 4] = [
        OnDuplicate::Error,
        OnDuplicate::Ignore,
        OnDuplicate::Replace,
        OnDuplicate::Update,
    ];

    /// The policy named `s` (`error`, `ignore`, `replace`, `update`).
    pub fn parse(s: &str) -> Result<OnDuplicate, String> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| {
                format!("--on-duplicate {s:?}: expected one of error, ignore, replace, update")
            })
    }

    /// The policy's name.
    pub fn as_str(self) -> &'static str {
        match self {
            OnDuplicate::Error => "error",
            OnDuplicate::Ignore => "ignore",
            OnDuplicate::Replace => "replace",
            OnDuplicate::Update => "update",
        }
    }

    /// What became of the later documents, for the summary.
    pub fn outcome(self) -> &'static str {
        match self {
            OnDuplicate::Error => "refused, the first kept (error)",
            OnDuplicate::Ignore => "skipped, the first kept (ignore)",
            OnDuplicate::Replace => "replaced the earlier whole (replace)",
            OnDuplicate::Update => "patched the earlier (update)",
        }
    }
}

impl std::fmt::Display for OnDuplicate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One top-level member value under [`OnDuplicate::Update`]: `old` patched by `new`. Both are
/// JSON; when both are objects they are merged member by member (recursively), otherwise `new`
/// replaces `old`.
pub fn patch_member(old: &[u8], new: &[u8]) -> Vec<u8> {
    if old.first() != Some(&b'{') || new.first() != Some(&b'{') {
        return new.to_vec();
    }
    match (
        serde_json::from_slice::<Value>(old),
        serde_json::from_slice::<Value>(new),
    ) {
        (Ok(Value::Object(mut o)), Ok(Value::Object(n))) => {
            merge_objects(&mut o, n);
            varcat_format::records::json_bytes(&Value::Object(o))
        }
        _ => new.to_vec(),
    }
}

/// ArangoDB's update with `mergeObjects` and `keepNull`: `patch`'s members set on `target`,
/// objects within objects merged, `null` stored as a value.
pub fn merge_objects(target: &mut Map<String, Value>, patch: Map<String, Value>) {
    for (k, v) in patch {
        match (target.get_mut(&k), v) {
            (Some(Value::Object(t)), Value::Object(p)) => merge_objects(t, p),
            (_, v) => {
                target.insert(k, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn test_policies_parse_by_name_only() {
        for p in OnDuplicate::ALL {
            assert_eq!(OnDuplicate::parse(p.as_str()), Ok(p));
        }
        let err = OnDuplicate::parse("merge").unwrap_err();
        assert!(err.contains("error, ignore, replace, update"), "{err}");
        assert_eq!(OnDuplicate::default(), OnDuplicate::Error);
    }

    #[test]
    fn test_update_merges_objects_replaces_arrays_and_stores_null() {
        let old =
            json!({"a": {"x": 1, "y": {"p": 1, "q": 2}}, "arr": [1, 2], "keep": 1, "gone": 2});
        let new = json!({"a": {"y": {"q": 3}, "z": 4}, "arr": [9], "gone": null});
        let got = patch_member(old.to_string().as_bytes(), new.to_string().as_bytes());
        let got: Value = serde_json::from_slice(&got).unwrap();
        assert_eq!(
            got,
            json!({"a": {"x": 1, "y": {"p": 1, "q": 3}, "z": 4}, "arr": [9], "keep": 1, "gone": null})
        );
        // Not both objects: the later value.
        assert_eq!(patch_member(b"{\"a\":1}", b"[1]"), b"[1]");
        assert_eq!(patch_member(b"5", b"{\"a\":1}"), b"{\"a\":1}");
    }
}
