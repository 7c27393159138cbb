//! The codebook's wire form: varints, the bounds-checked cursor over encoded bytes, and a
//! codebook's own bytes (its classes).

use super::{Class, Codebook, Dict, Entry, Obj, Ref, MAGIC, MAX_ENTRIES, OBJ_MAX};
use crate::bytes::u16_at;

// ---- varints ---------------------------------------------------------------------------

pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(super) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

pub(super) fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// A bounds-checked reader over encoded bytes; every read fails (None) past the end.
#[derive(Clone, Copy)]
pub(super) struct Cursor<'a> {
    pub(super) b: &'a [u8],
    pub(super) at: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn byte(&mut self) -> Option<u8> {
        let v = *self.b.get(self.at)?;
        self.at += 1;
        Some(v)
    }

    pub(super) fn varint(&mut self) -> Option<u64> {
        // Most varints (lengths, dictionary codes, small numbers) are one byte.
        let first = *self.b.get(self.at)?;
        if first < 0x80 {
            self.at += 1;
            return Some(first as u64);
        }
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= ((b & 0x7f) as u64).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    /// Moves past a varint: [`Cursor::varint`] with its usual one-byte case inline, for
    /// walks that pass many members and read none.
    #[inline(always)]
    pub(super) fn skip_varint(&mut self) -> Option<()> {
        match self.b.get(self.at) {
            Some(&b) if b < 0x80 => self.at += 1,
            _ => {
                self.varint()?;
            }
        }
        Some(())
    }

    /// Moves past a varint length and that many bytes ([`Cursor::bytes`]), the one-byte
    /// length inline.
    #[inline(always)]
    pub(super) fn skip_bytes(&mut self) -> Option<()> {
        match self.b.get(self.at) {
            Some(&n) if n < 0x80 => {
                let end = self.at + 1 + n as usize;
                if end > self.b.len() {
                    return None;
                }
                self.at = end;
            }
            _ => {
                self.bytes()?;
            }
        }
        Some(())
    }

    pub(super) fn len(&mut self) -> Option<usize> {
        usize::try_from(self.varint()?).ok()
    }

    pub(super) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.b.get(self.at..end)?;
        self.at = end;
        Some(s)
    }

    pub(super) fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.len()?;
        self.take(n)
    }
}

pub(super) fn u32_le(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Codebook {
    /// The codebook's bytes (section [`super::section`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&self.escapes.to_le_bytes());
        put_varint(&mut out, self.entries.len() as u64);
        for e in &self.entries {
            out.extend_from_slice(&e.field.to_le_bytes());
            out.push(e.always as u8);
            put_class(&mut out, &e.class);
        }
        out
    }

    /// Reads a codebook; None when malformed.
    pub fn from_bytes(b: &[u8]) -> Option<Codebook> {
        if b.get(..4)? != MAGIC {
            return None;
        }
        let escapes = u64::from_le_bytes(b.get(4..12)?.try_into().ok()?);
        let mut c = Cursor { b, at: 12 };
        let n = c.len()?;
        if n > MAX_ENTRIES.min(u16::MAX as usize + 1) {
            return None;
        }
        let mut entries: Vec<Entry> = Vec::with_capacity(n);
        for i in 0..n {
            let field = u16_at(c.take(2)?, 0);
            if entries.last().is_some_and(|l| l.field >= field) {
                return None;
            }
            let always = match c.byte()? {
                0 => false,
                1 => true,
                _ => return None,
            };
            let class = get_class(&mut c, 0)?;
            if let Class::Same(m) = class {
                if m >= i || matches!(entries[m].class, Class::Same(_)) {
                    return None;
                }
            }
            entries.push(Entry {
                field,
                always,
                class,
            });
        }
        if c.at != b.len() {
            return None;
        }
        let mut cb = Codebook::new(entries);
        cb.escapes = escapes;
        Some(cb)
    }
}

pub(super) fn put_class(out: &mut Vec<u8>, class: &Class) {
    out.push(class.tag());
    match class {
        Class::Const(v) => {
            put_varint(out, v.len() as u64);
            out.extend_from_slice(v);
        }
        Class::Dict(d) => {
            put_varint(out, d.values.len() as u64);
            for v in &d.values {
                put_varint(out, v.len() as u64);
                out.extend_from_slice(v);
            }
        }
        Class::Same(m) => put_varint(out, *m as u64),
        Class::Obj(members) => {
            put_varint(out, members.len() as u64);
            for (name, class) in members.iter() {
                put_varint(out, name.len() as u64);
                out.extend_from_slice(name);
                put_class(out, class);
            }
        }
        Class::Arr(element) => put_class(out, element),
        Class::Ref(r) | Class::Link(r) => {
            put_varint(out, r.target.len() as u64);
            out.extend_from_slice(r.target.as_bytes());
        }
        Class::Raw | Class::Int | Class::Float | Class::Str => {}
    }
}

/// Reads a class at `depth`: 0 a record member (every class), 1 an array's element (no
/// `Same`, no `Arr`), 2 an object's member (no `Same`, `Obj` or `Arr`).
pub(super) fn get_class(c: &mut Cursor<'_>, depth: u8) -> Option<Class> {
    Some(match c.byte()? {
        0 => Class::Raw,
        1 => Class::Const(c.bytes()?.to_vec()),
        2 => {
            let n = c.len()?;
            if n > MAX_ENTRIES || n > c.b.len() {
                return None;
            }
            Class::Dict(Dict::new(
                (0..n)
                    .map(|_| c.bytes().map(<[u8]>::to_vec))
                    .collect::<Option<_>>()?,
            ))
        }
        3 if depth == 0 => Class::Same(c.len()?),
        4 => Class::Int,
        5 => Class::Float,
        6 => Class::Str,
        7 if depth < 2 => {
            let n = c.len()?;
            if n > OBJ_MAX {
                return None;
            }
            let mut members = Vec::with_capacity(n);
            for _ in 0..n {
                let name = c.bytes()?.to_vec();
                members.push((name, get_class(c, 2)?));
            }
            Class::Obj(Obj::new(members))
        }
        8 if depth == 0 => Class::Arr(Box::new(get_class(c, 1)?)),
        9 if depth == 0 => Class::Ref(Ref::new(String::from_utf8(c.bytes()?.to_vec()).ok()?)),
        10 if depth == 0 => Class::Link(Ref::new(String::from_utf8(c.bytes()?.to_vec()).ok()?)),
        _ => return None,
    })
}
