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

    /// What a key holding `earlier` holds once `later` arrives under this policy; `update`
    /// patches one with the other (the representation's own [`OnDuplicate::Update`]).
    pub fn apply<T>(self, earlier: T, later: T, update: impl FnOnce(T, T) -> T) -> T {
        match self {
            OnDuplicate::Error | OnDuplicate::Ignore => earlier,
            OnDuplicate::Replace => later,
            OnDuplicate::Update => update(earlier, later),
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

/// The JSON object text `old` patched by `new` under [`OnDuplicate::Update`], as text: each
/// member of `new` [`patch_member`]ed onto `old`'s, `old`'s other members kept as written. A
/// name repeated within one document counts with its last value, as in a parsed object.
pub fn patch_document(old: &str, new: &str) -> Result<String, serde_json::Error> {
    let mut doc = distinct_members(old)?;
    for (name, v) in distinct_members(new)? {
        match doc.iter_mut().find(|m| m.0 == name) {
            Some(m) => m.1 = patch_member(&m.1, &v),
            None => doc.push((name, v)),
        }
    }
    let mut out = String::with_capacity(old.len() + new.len());
    out.push('{');
    for (i, (name, v)) in doc.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&Value::String(name.clone()).to_string());
        out.push(':');
        // Raw member texts and `patch_member`'s output are JSON, so UTF-8.
        out.push_str(std::str::from_utf8(v).expect("JSON text"));
    }
    out.push('}');
    Ok(out)
}

/// The members of the JSON object `text`, each name once (in its first place, with its last
/// value), values as JSON text.
fn distinct_members(text: &str) -> Result<Vec<(String, Vec<u8>)>, serde_json::Error> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, raw) in crate::doc::raw_members(text)? {
        let v = raw.get().as_bytes().to_vec();
        match out.iter_mut().find(|m| m.0 == name) {
            Some(m) => m.1 = v,
            None => out.push((name.into_owned(), v)),
        }
    }
    Ok(out)
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

    #[test]
    fn test_documents_patch_as_values_do() {
        let old = r#"{"_key": "k", "a": {"x": 1, "y": [1, 2]}, "n": 1.50, "keep": "t\u00e9", "dup": 1, "dup": {"p": 1}}"#;
        let new = r#"{"a": {"y": [3], "z": null}, "n": null, "dup": {"q": 2}, "add": true}"#;
        let got = patch_document(old, new).unwrap();
        let mut want: Value = serde_json::from_str(old).unwrap();
        let patch: Value = serde_json::from_str(new).unwrap();
        merge_objects(
            want.as_object_mut().unwrap(),
            patch.as_object().unwrap().clone(),
        );
        assert_eq!(serde_json::from_str::<Value>(&got).unwrap(), want);
        // Members the patch leaves alone keep their text.
        assert!(got.contains(r#""keep":"t\u00e9""#), "{got}");
        assert!(patch_document("[1]", "{}").is_err());
    }
}
