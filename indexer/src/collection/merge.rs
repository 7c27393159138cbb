//! Pass 2: pass 1's sorted documents with duplicate keys resolved in load order by each file's
//! policy ([`crate::duplicates`]), repeated keyless edges named, and re-sorted when the
//! collection's order is not `_key`.

use std::path::PathBuf;

use serde_json::Value;
use varcat_format::record::{Record, RecordBuf};
use varcat_format::records::json_bytes;

use super::env::{finish_reader, Env};
use super::members::{member, Members};
use super::payload::{payload, raw_line, split_payload, FLAG_KEYLESS, FLAG_NULLS};
use super::reshape::Reshape;
use crate::derive::Ctx;
use crate::duplicates::{patch_member, OnDuplicate};
use crate::error::BuildError;
use crate::report::Report;
use crate::schema::{system, Order, Spec};
use crate::sorter::Sorter;
use crate::sortkey::{KeyReader, SortKey};

/// Pass 2 over pass 1's `sorter`: the records to store, in ordinal order.
pub(super) fn merge<'a>(
    spec: &'a Spec,
    sorter: Sorter,
    files: &[PathBuf],
    policies: &[OnDuplicate],
    ctx: &'a Ctx,
    env: &mut Env,
) -> Result<Stream<'a>, BuildError> {
    let name = spec.name;
    env.progress.phase(&format!("{name}: sorting"));
    let sorted = finish_reader(sorter, env)?;
    let reshape = Reshape::new(spec, ctx);
    let stream = match spec.order {
        Order::Key => Stream::groups(sorted, policies, reshape),
        Order::Fields(_) => {
            env.progress.phase(&format!("{name}: ordering"));
            let mut reorder = env.sorter(1);
            let mut groups = Stream::groups(sorted, policies, reshape);
            while let Some((key, rec)) = groups.next(spec, files, env)? {
                let k = order_key(spec, rec, key);
                reorder.push(&k, &payload(0, 0, 0, rec))?;
            }
            drop(groups);
            Stream::new(
                From::Reordered(finish_reader(reorder, env)?),
                Vec::new(),
                None,
            )
        }
    };
    Ok(stream)
}

/// Pass 2's records in ordinal order.
pub(super) struct Stream<'a> {
    from: From,
    /// The record last handed out: (key, bytes).
    cur: (String, Vec<u8>),
    /// The buffers of the item being read (reused: a record costs no allocation).
    item: (Vec<u8>, Vec<u8>),
    /// By input file: its duplicate policy.
    policies: Vec<OnDuplicate>,
    /// For a collection prepared as read: the documents of a key with an `update` among them
    /// folded as read.
    reshape: Option<Reshape<'a>>,
}

enum From {
    /// Pass 1's sorted output, equal keys merged (see [`resolve_group`]).
    Groups {
        sorted: crate::sorter::Sorted,
        /// The first item of the next group, when `has_ahead` (already read; its buffers are
        /// reused).
        ahead: (Vec<u8>, Vec<u8>),
        has_ahead: bool,
        /// Records of the last group not yet handed out.
        ready: std::collections::VecDeque<(String, Vec<u8>)>,
    },
    /// Records in field order, key last (see [`order_key`]).
    Reordered(crate::sorter::Sorted),
}

impl<'a> Stream<'a> {
    fn new(from: From, policies: Vec<OnDuplicate>, reshape: Option<Reshape<'a>>) -> Stream<'a> {
        Stream {
            from,
            cur: Default::default(),
            item: Default::default(),
            policies,
            reshape,
        }
    }

    fn groups(
        sorted: crate::sorter::Sorted,
        policies: &[OnDuplicate],
        reshape: Option<Reshape<'a>>,
    ) -> Stream<'a> {
        Stream::new(
            From::Groups {
                sorted,
                ahead: Default::default(),
                has_ahead: false,
                ready: Default::default(),
            },
            policies.to_vec(),
            reshape,
        )
    }

    /// The next record's key and bytes.
    pub(super) fn next(
        &mut self,
        spec: &Spec,
        files: &[PathBuf],
        env: &mut Env,
    ) -> Result<Option<(&str, &[u8])>, BuildError> {
        let (cur, (k, p)) = (&mut self.cur, &mut self.item);
        match &mut self.from {
            From::Reordered(s) => {
                if !s.next_into(k, p)? {
                    return Ok(None);
                }
                let (_, _, _, rec) = split_payload(p);
                cur.0.clear();
                if let Some(key) = member(spec, &Record::new(rec), system::KEY) {
                    cur.0.push_str(key.as_str().unwrap_or_default());
                }
                set_bytes(&mut cur.1, rec);
            }
            From::Groups {
                sorted,
                ahead,
                has_ahead,
                ready,
            } => loop {
                if let Some(r) = ready.pop_front() {
                    *cur = r;
                    break;
                }
                if *has_ahead {
                    std::mem::swap(k, &mut ahead.0);
                    std::mem::swap(p, &mut ahead.1);
                } else if !sorted.next_into(k, p)? {
                    return Ok(None);
                }
                *has_ahead = sorted.next_into(&mut ahead.0, &mut ahead.1)?;
                if !*has_ahead || ahead.0 != *k {
                    // Most groups are one document, handed out from the buffers.
                    cur.0.clear();
                    push_key(&mut cur.0, k);
                    let (flags, _, _, rec) = split_payload(p);
                    if flags & FLAG_NULLS != 0 {
                        cur.1 = without_nulls(rec);
                    } else {
                        set_bytes(&mut cur.1, rec);
                    }
                    break;
                }
                let mut group = vec![(k.clone(), p.clone()), std::mem::take(ahead)];
                *has_ahead = false;
                while let Some(item) = sorted.next_item()? {
                    if item.0 == group[0].0 {
                        group.push(item);
                    } else {
                        *ahead = item;
                        *has_ahead = true;
                        break;
                    }
                }
                let reshape = self.reshape.as_mut();
                ready.extend(resolve_group(
                    spec,
                    group,
                    files,
                    &self.policies,
                    reshape,
                    env,
                )?);
            },
        }
        Ok(Some((&self.cur.0, &self.cur.1)))
    }
}

/// `buf` holding `bytes` (its memory reused).
fn set_bytes(buf: &mut Vec<u8>, bytes: &[u8]) {
    buf.clear();
    buf.extend_from_slice(bytes);
}

/// Appends a sort key's `_key` to `out`.
fn push_key(out: &mut String, k: &[u8]) {
    out.push_str(&String::from_utf8_lossy(
        &KeyReader::new(k).str().unwrap_or_default(),
    ));
}

/// A sort key's `_key`.
fn key_of(k: &[u8]) -> String {
    let mut s = String::new();
    push_key(&mut s, k);
    s
}

/// A record without its `null` members (which mean "absent" once duplicates are resolved).
fn without_nulls(rec: &[u8]) -> Vec<u8> {
    let mut rb = RecordBuf::new();
    for (id, v) in Record::new(rec).members() {
        if v != b"null" {
            rb.set(id, v.to_vec());
        }
    }
    rb.encode()
}

/// Turns a group of equal keys (in load order) into the records to store.
fn resolve_group(
    spec: &Spec,
    group: Vec<(Vec<u8>, Vec<u8>)>,
    files: &[PathBuf],
    policies: &[OnDuplicate],
    reshape: Option<&mut Reshape<'_>>,
    env: &mut Env,
) -> Result<Vec<(String, Vec<u8>)>, BuildError> {
    let key = key_of(&group[0].0);
    let (flags, _, _, _) = split_payload(&group[0].1);
    if flags & FLAG_KEYLESS != 0 {
        // Repeated (from, to) pairs without keys stay distinct: `<from> <to> #<n>` in input order.
        let key_id = spec.field_id(system::KEY).expect("every spec keeps _key");
        let mut out = Vec::new();
        for (i, (_, p)) in group.iter().enumerate() {
            let rec = Record::new(split_payload(p).3);
            let k = if i == 0 {
                key.clone()
            } else {
                format!("{key} #{:06}", i + 1)
            };
            let mut rb = RecordBuf::new();
            for (id, v) in rec.members().filter(|m| m.1 != b"null") {
                rb.set(id, v.to_vec());
            }
            if spec.stores(system::KEY) {
                rb.set(key_id, json_bytes(&Value::String(k.clone())));
            }
            out.push((k, rb.encode()));
        }
        Report::bump(
            &mut env.report.derived_keys,
            spec.name.to_string(),
            group.len() as u64 - 1,
        );
        return Ok(out);
    }
    let at = |p: &[u8]| {
        let (_, fi, line, _) = split_payload(p);
        (
            files.get(fi as usize).cloned().unwrap_or_default(),
            line,
            fi,
        )
    };
    if env.strict {
        let (file, line, _) = at(&group[1].1);
        return Err(BuildError::Input {
            file,
            line,
            reason: format!("duplicate _key {key} in {} (--strict)", spec.name),
        });
    }
    let policy_of = |p: &[u8]| {
        let fi = split_payload(p).1;
        policies.get(fi as usize).copied().unwrap_or_default()
    };
    for (_, p) in &group[1..] {
        let (file, line, _) = at(p);
        env.report.duplicate(
            spec.name,
            policy_of(p),
            format!("{}:{line}", file.display()),
        );
    }
    // An update of a collection prepared as read patches the lines as read, which the payloads
    // carry (see `read`); the other policies keep or take whole documents, prepared alike.
    let last_update = group[1..]
        .iter()
        .rposition(|(_, p)| policy_of(p) == OnDuplicate::Update);
    let lines: Option<Vec<&[u8]>> = group.iter().map(|(_, p)| raw_line(p)).collect();
    if let (Some(reshape), Some(u), Some(lines)) = (reshape, last_update, lines) {
        let policies = group.iter().map(|(_, p)| policy_of(p));
        let rec = reshape
            .fold(lines.into_iter().zip(policies))
            .map_err(|reason| {
                let (file, line, _) = at(&group[1 + u].1);
                BuildError::Input { file, line, reason }
            })?;
        return Ok(vec![(key, rec)]);
    }
    // The first record, then each later one acting on it by its file's policy.
    let members = |p: &[u8]| -> Vec<(u16, Vec<u8>)> {
        Record::new(split_payload(p).3)
            .members()
            .map(|(id, v)| (id, v.to_vec()))
            .collect()
    };
    let mut doc = members(&group[0].1);
    for (_, p) in &group[1..] {
        doc = policy_of(p).apply(doc, members(p), |mut doc, later| {
            for (id, v) in later {
                match doc.binary_search_by_key(&id, |m| m.0) {
                    Ok(i) => doc[i].1 = patch_member(&doc[i].1, &v),
                    Err(i) => doc.insert(i, (id, v)),
                }
            }
            doc
        });
    }
    let mut rb = RecordBuf::new();
    for (id, v) in doc.into_iter().filter(|m| m.1 != b"null") {
        rb.set(id, v);
    }
    Ok(vec![(key, rb.encode())])
}

/// The sort key of a record under an `Order::Fields` order (then `_key`).
fn order_key(spec: &Spec, rec: &[u8], key: &str) -> Vec<u8> {
    let Order::Fields(fields) = spec.order else {
        return SortKey::new().str(key.as_bytes()).0.clone();
    };
    let rec = Record::new(rec);
    let m = Members::new(spec, &rec);
    let mut k = SortKey::new();
    for f in fields {
        match m.get(f) {
            Some(Value::String(s)) => k.str(s.as_bytes()),
            Some(Value::Number(n)) => k.f64(n.as_f64().unwrap_or(f64::NAN)),
            _ => k.missing(),
        };
    }
    k.str(key.as_bytes());
    k.0
}
