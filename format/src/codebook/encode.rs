//! Encoding a record by its codebook.

use super::value::{decode_value, encode_value};
use super::wire::{put_varint, Cursor};
use super::{Class, Codebook, ALWAYS};
use crate::record::Record;

/// Buffers [`Codebook::encode`] reuses on each thread.
#[derive(Default)]
pub(super) struct EncodeScratch {
    values: Vec<Option<(usize, usize)>>,
    escaped: Vec<usize>,
    body: Vec<u8>,
    one: Vec<u8>,
    check: Vec<u8>,
}

thread_local! {
    static ENCODE_SCRATCH: std::cell::RefCell<EncodeScratch> = std::cell::RefCell::default();
}

impl Codebook {
    /// Encodes a v2 record (`RecordBuf::encode` bytes); members whose class does not
    /// reproduce them are stored verbatim and counted in the second value. None when the
    /// record has a member the codebook does not know or lacks an `always` one (the caller
    /// builds the codebook from every record, so this means a bug or a corrupt spool).
    pub fn encode(&self, rec: &[u8]) -> Option<(Vec<u8>, u64)> {
        ENCODE_SCRATCH.with(|s| self.encode_with(rec, &mut s.borrow_mut()))
    }

    fn encode_with(&self, rec: &[u8], s: &mut EncodeScratch) -> Option<(Vec<u8>, u64)> {
        let r = Record::new(rec);
        // Each entry's value as a range of `rec` (ranges, not slices, so the buffer outlives
        // the record and is reused: the build encodes every record once).
        let values = &mut s.values;
        values.clear();
        values.resize(self.entries.len(), None);
        let base = rec.as_ptr() as usize;
        let mut k = 0;
        for (id, v) in r.members() {
            while k < self.entries.len() && self.entries[k].field < id {
                k += 1;
            }
            if k == self.entries.len() || self.entries[k].field != id {
                return None;
            }
            let at = v.as_ptr() as usize - base;
            values[k] = Some((at, at + v.len()));
        }
        let value = |i: usize| values.get(i).copied().flatten().map(|(a, b)| &rec[a..b]);
        let mut out = vec![0u8; self.optional.div_ceil(8)];
        let (escaped, body, one, check) = (&mut s.escaped, &mut s.body, &mut s.one, &mut s.check);
        escaped.clear();
        body.clear();
        for (i, (e, step)) in self.entries.iter().zip(&self.steps).enumerate() {
            if step.bit != ALWAYS {
                if values[i].is_some() {
                    out[step.bit as usize / 8] |= 1 << (step.bit % 8);
                }
            } else if values[i].is_none() {
                return None;
            }
            let Some(v) = value(i) else { continue };
            one.clear();
            let fits = match &e.class {
                Class::Same(m) => value(*m) == Some(v),
                // A handle decodes to itself by construction (the key is stored, or the key
                // map found its ordinal and reads it back): no check, which for `ref` would
                // walk the map backwards once per handle of the build.
                class @ (Class::Ref(_) | Class::Link(_)) => encode_value(class, v, one).is_some(),
                // These store the bytes themselves (or an exact match of them): decoding gives
                // them back by construction (checking every value was ~15 % of the encoding).
                class @ (Class::Raw | Class::Const(_) | Class::Dict(_) | Class::Str) => {
                    encode_value(class, v, one).is_some()
                }
                class => {
                    check.clear();
                    encode_value(class, v, one).is_some()
                        && decode_value(class, &mut Cursor { b: one, at: 0 }, check).is_some()
                        && check.as_slice() == v
                }
            };
            if fits {
                body.extend_from_slice(one);
            } else {
                escaped.push(i);
                put_varint(body, v.len() as u64);
                body.extend_from_slice(v);
            }
        }
        put_varint(&mut out, escaped.len() as u64);
        let mut last = 0;
        for &i in escaped.iter() {
            put_varint(&mut out, (i - last) as u64);
            last = i;
        }
        out.extend_from_slice(body);
        Some((out, escaped.len() as u64))
    }
}
