//! Reading members back out of encoded records.

use std::cell::OnceCell;

use serde_json::Value;
use varcat_format::record::Record;

use crate::doc::{last_member, raw_members, RawMembers};
use crate::schema::Spec;

/// A member of an encoded record as a JSON value; `a.b` is member `b` of object member `a`.
pub(super) fn member(spec: &Spec, rec: &Record<'_>, name: &str) -> Option<Value> {
    Members::new(spec, rec).get(name)
}

/// The members of one encoded record, each read at most once: a variant's `annotations` object
/// feeds some thirty number columns. A column `a.b` finds `b` among the raw members of `a` and
/// parses that value alone (building the whole object once per record was most of the final
/// pass).
pub(super) struct Members<'s, 'r> {
    spec: &'s Spec,
    rec: &'r Record<'r>,
    /// By field id: the parsed member (None when absent or not JSON).
    parsed: Vec<OnceCell<Option<Value>>>,
    /// By field id: the raw members of an object member (empty when absent or not an object).
    objects: Vec<OnceCell<RawMembers<'r>>>,
}

impl<'s, 'r> Members<'s, 'r> {
    pub(super) fn new(spec: &'s Spec, rec: &'r Record<'r>) -> Members<'s, 'r> {
        Members {
            spec,
            rec,
            parsed: (0..spec.fields.len()).map(|_| OnceCell::new()).collect(),
            objects: (0..spec.fields.len()).map(|_| OnceCell::new()).collect(),
        }
    }

    /// Member `name` (`a.b`: member `b` of object member `a`).
    pub(super) fn get(&self, name: &str) -> Option<Value> {
        let (top, sub) = match name.split_once('.') {
            Some((t, s)) => (t, Some(s)),
            None => (name, None),
        };
        let id = self.spec.field_id(top)?;
        let bytes = || self.rec.get(id);
        match sub {
            None => self.parsed[id as usize]
                .get_or_init(|| serde_json::from_slice(bytes()?).ok())
                .clone(),
            Some(s) => {
                let members = self.objects[id as usize].get_or_init(|| {
                    bytes()
                        .and_then(|b| raw_members(std::str::from_utf8(b).ok()?).ok())
                        .unwrap_or_default()
                });
                serde_json::from_str(last_member(members, s)?.get()).ok()
            }
        }
    }
}
