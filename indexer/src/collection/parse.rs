//! Documents → records: a document's key, validation, normalised members, and why its
//! coordinates cannot be placed.

use std::collections::BTreeMap;

use serde_json::Value;
use varcat_format::namemap::FastMap;
use varcat_format::record::RecordBuf;
use varcat_format::records::json_bytes;

use super::payload::{FLAG_KEYLESS, FLAG_NULLS};
use crate::derive::Ctx;
use crate::doc::Doc;
use crate::input::fix_non_finite;
use crate::normalize::{is_stored_as_read, normalize, Counts};
use crate::schema::{system, Kind, Place, Prepare, Spec, MAX_INDEXED_BYTES};
use crate::validate;

pub(super) struct Processor<'a> {
    spec: &'a Spec,
    /// The spec's coordinates ([`Spec::places`]).
    places: Vec<Place>,
    /// The collection's preparation hook.
    prepare: Option<Prepare>,
    /// By member name: its field id and whether it is a coordinate (one hash per member: the
    /// scans of the spec's ~60 fields were 1.3 % of a build).
    slots: FastMap<&'static str, Slot>,
    pub(super) counts: Counts,
    pub(super) unknown: BTreeMap<String, u64>,
    /// Members whose value is null are kept in the record as `null` (flagged
    /// [`FLAG_NULLS`]): a document of an `update` file that repeats a key sets them to null.
    pub(super) keep_nulls: bool,
}

/// What a kept member is to the collection.
#[derive(Clone, Copy)]
struct Slot {
    id: u16,
    coordinate: bool,
}

/// One input line, parsed and encoded.
pub(super) struct Parsed {
    pub(super) key: String,
    pub(super) flags: u8,
    pub(super) rec: Vec<u8>,
    /// Why its coordinates cannot be placed, if they cannot.
    pub(super) unplaced: Option<String>,
    /// `NaN`/`Infinity` tokens replaced by null.
    pub(super) non_finite: u64,
}

/// What [`Processor::process`] makes of a document: key, flags, record, and why its
/// coordinates cannot be placed.
type Processed = (String, u8, Vec<u8>, Option<String>);

impl<'a> Processor<'a> {
    /// A processor for the same collection with its own counts (one per parsing worker).
    pub(super) fn fresh(&self) -> Processor<'a> {
        Processor {
            keep_nulls: self.keep_nulls,
            ..Processor::new(self.spec)
        }
    }

    pub(super) fn new(spec: &'a Spec) -> Processor<'a> {
        let places: Vec<Place> = spec.places().collect();
        let slots = spec
            .fields
            .iter()
            .enumerate()
            .rev() // the first of a repeated name wins, as in `Spec::field_id`
            .map(|(i, f)| {
                let coordinate = validate::is_coordinate(&places, f.name);
                (
                    f.name,
                    Slot {
                        id: i as u16,
                        coordinate,
                    },
                )
            })
            .collect();
        Processor {
            spec,
            places,
            slots,
            prepare: crate::schema::hooks(spec.name).prepare,
            counts: Counts::default(),
            unknown: BTreeMap::new(),
            keep_nulls: false,
        }
    }

    /// Adds a worker's counts to these.
    pub(super) fn absorb(&mut self, other: Processor<'_>) {
        self.counts.null_elements += other.counts.null_elements;
        self.counts.non_integer += other.counts.non_integer;
        for (f, n) in other.unknown {
            *self.unknown.entry(f).or_insert(0) += n;
        }
    }

    /// Parses and encodes one input line.
    pub(super) fn parse(&mut self, line: &str, ctx: &Ctx) -> Result<Parsed, String> {
        let fixed = fix_non_finite(line);
        let (text, non_finite) = match &fixed {
            Some((s, n)) => (s.as_str(), *n),
            None => (line, 0),
        };
        let doc = Doc::parse(text).map_err(|e| e.to_string())?;
        let (key, flags, rec, unplaced) = self.process(doc, ctx)?;
        Ok(Parsed {
            key,
            flags,
            rec,
            unplaced,
            non_finite,
        })
    }

    /// Validates and encodes one document; returns (key, flags, record, why its coordinates
    /// cannot be placed).
    pub(super) fn process(&mut self, mut doc: Doc<'_>, ctx: &Ctx) -> Result<Processed, String> {
        let mut flags = 0;
        let key = match self.spec.kind {
            Kind::Node | Kind::Derived => match doc.get(system::KEY) {
                Some(Value::String(k)) if !k.is_empty() => k.clone(),
                Some(Value::Number(n)) => n.to_string(),
                _ => return Err("document has no _key".into()),
            },
            Kind::Edge => {
                let end = |f: &str| match doc.get(f) {
                    Some(Value::String(s))
                        if s.split_once('/')
                            .is_some_and(|(c, k)| !c.is_empty() && !k.is_empty()) =>
                    {
                        Ok(s.clone())
                    }
                    _ => Err(format!(
                        "edge has no valid {f} (expected \"collection/key\")"
                    )),
                };
                let (from, to) = (end(system::FROM)?, end(system::TO)?);
                match doc.get(system::KEY) {
                    Some(Value::String(k)) if !k.is_empty() => k.clone(),
                    _ => {
                        // Handles contain no spaces, so this key cannot collide with a real one.
                        flags |= FLAG_KEYLESS;
                        let k = format!("{from} {to}");
                        doc.insert(system::KEY.into(), Value::String(k.clone()));
                        k
                    }
                }
            }
        };
        if key.len() > MAX_INDEXED_BYTES {
            return Err(validate::too_long(system::KEY));
        }
        doc.insert(system::KEY.into(), Value::String(key.clone()));
        if let Some(prepare) = self.prepare {
            prepare(&mut doc, ctx)?;
        }
        let mut rb = RecordBuf::new();
        let mut coords: Vec<(String, Value)> = Vec::new();
        // Only kept members are parsed; the others were checked for syntax only.
        for (name, member) in doc.into_members() {
            if let Some(&Slot { id, coordinate }) = self.slots.get(name.as_ref()) {
                let ty = self.spec.fields[id as usize].ty;
                // Most members are stored as read (see `is_stored_as_read`); a coordinate is
                // parsed for `unplaced`, and a long one for its length check.
                let as_read = member.as_read().filter(|raw| {
                    raw.len() <= MAX_INDEXED_BYTES && is_stored_as_read(raw, ty) && !coordinate
                });
                if let Some(raw) = as_read {
                    if self.spec.stores(&name) {
                        rb.set(id, raw.as_bytes().to_vec());
                    }
                    continue;
                }
                let value = member
                    .value()
                    .map_err(|e| format!("invalid JSON in member {name}: {e}"))?;
                let v = normalize(value, ty, &mut self.counts);
                if !v.is_null() {
                    let json = json_bytes(&v);
                    validate::indexed_length(self.spec, &name, &v, &json)?;
                    if self.spec.stores(&name) {
                        rb.set(id, json);
                    }
                } else if self.keep_nulls && self.spec.stores(&name) {
                    rb.set(id, b"null".to_vec());
                    flags |= FLAG_NULLS;
                }
                if coordinate {
                    coords.push((name.into_owned(), v));
                }
            } else if !self.spec.known.contains(&name.as_ref()) {
                *self.unknown.entry(name.into_owned()).or_insert(0) += 1;
            }
        }
        let unplaced = validate::unplaced(&self.places, |n| {
            // A later duplicate member wins, as it does in the record.
            coords.iter().rev().find(|c| c.0 == n).map(|c| &c.1)
        })?;
        Ok((key, flags, rb.encode(), unplaced))
    }
}
