//! Duplicates of collections whose documents are prepared as they are read (the schema's
//! preparation hook derives and reshapes members): an `update` patches the documents as read,
//! so a group of one key with an `update` among it is folded from the input lines the records
//! carry (pass 1 keeps them for such collections) and the result prepared as one document.

use super::parse::Processor;
use crate::derive::Ctx;
use crate::duplicates::{patch_document, OnDuplicate};
use crate::input::fix_non_finite;
use crate::schema::Spec;

/// Folds and prepares documents of one collection.
pub(super) struct Reshape<'a> {
    proc: Processor<'a>,
    ctx: &'a Ctx,
}

impl<'a> Reshape<'a> {
    /// The reshaper of `spec`'s collection, if it has a preparation hook.
    pub(super) fn new(spec: &'a Spec, ctx: &'a Ctx) -> Option<Reshape<'a>> {
        crate::schema::hooks(spec.name).prepare.map(|_| Reshape {
            proc: Processor::new(spec),
            ctx,
        })
    }

    /// The record of one key's documents, given in load order as (input line, its file's
    /// policy): each later line acting on the document so far as read, by its policy, and the
    /// result prepared and encoded as a line of its own would be. Its members set to `null`
    /// are not stored.
    pub(super) fn fold<'l>(
        &mut self,
        docs: impl IntoIterator<Item = (&'l [u8], OnDuplicate)>,
    ) -> Result<Vec<u8>, String> {
        let mut doc: Option<Result<String, String>> = None;
        for (line, policy) in docs {
            let line = std::str::from_utf8(line)
                .map_err(|_| "line is not valid UTF-8".to_string())
                // As pass 1 read it: non-finite numbers are nulls (counted then).
                .map(|l| fix_non_finite(l).map_or_else(|| l.to_string(), |(s, _)| s));
            doc = Some(match doc {
                None => line,
                Some(earlier) => policy.apply(earlier, line, |e, l| {
                    patch_document(&e?, &l?).map_err(|e| format!("invalid JSON: {e}"))
                }),
            });
        }
        let doc = doc.ok_or("no document")??;
        // Counts were taken as each line was read; this one is not a line of the input.
        Ok(self.proc.parse(&doc, self.ctx)?.rec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};
    use varcat_format::record::Record;

    fn record(spec: &Spec, rec: &[u8]) -> Value {
        let rec = Record::new(rec);
        Value::Object(
            rec.members()
                .map(|(id, v)| {
                    let name = spec.fields[id as usize].name.to_string();
                    (name, serde_json::from_slice(v).unwrap())
                })
                .collect(),
        )
    }

    /// A proteins line's `dbxref_ids` are derived from its `dbxrefs`: after an update that
    /// leaves `dbxrefs` alone, they are the earlier document's, not the later one's (empty).
    #[test]
    fn test_update_patches_lines_then_prepares() {
        let spec = crate::schema::spec(crate::schema::proteins::NAME).unwrap();
        let ctx = Ctx::default();
        let mut r = Reshape::new(spec, &ctx).unwrap();
        let first = br#"{"_key": "P1", "name": "A", "dbxrefs": [{"name": "X", "id": "x1"}], "organism": "H", "uniprot_ids": ["u1"]}"#;
        let later = br#"{"_key": "P1", "name": "B", "organism": null, "uniprot_ids": ["u2"]}"#;
        let got = r
            .fold([
                (&first[..], OnDuplicate::Error),
                (&later[..], OnDuplicate::Update),
            ])
            .unwrap();
        assert_eq!(
            record(spec, &got),
            json!({"_key": "P1", "name": "B", "uniprot_ids": ["u2"],
                   "dbxrefs": [{"name": "X", "id": "x1"}], "dbxref_ids": ["x1"]})
        );
        // The other policies act on lines too: ignore keeps, replace takes the later.
        let kept = r
            .fold([
                (&first[..], OnDuplicate::Error),
                (&later[..], OnDuplicate::Ignore),
            ])
            .unwrap();
        assert_eq!(record(spec, &kept)["name"], "A");
        let replaced = r
            .fold([
                (&first[..], OnDuplicate::Error),
                (&later[..], OnDuplicate::Replace),
            ])
            .unwrap();
        assert_eq!(record(spec, &replaced)["dbxref_ids"], json!([]));
        assert!(Reshape::new(
            crate::schema::spec(crate::schema::genes::NAME).unwrap(),
            &ctx
        )
        .is_none());
    }
}
