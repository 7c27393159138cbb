//! Decoding an encoded record: whole, one member, or visiting members in place.

use super::value::{decode_value, exact_f64, skip_value};
use super::wire::{u32_le, Cursor};
use super::{Class, Codebook, Skip, Visited};

/// An encoded record's head, and a cursor at its first value.
pub(super) struct Head<'a> {
    c: Cursor<'a>,
    bitmap: &'a [u8],
    /// Escaped entries, ascending.
    escaped: Vec<usize>,
}

impl Codebook {
    /// Reads an encoded record's head: the presence bitmap and the escaped entries.
    fn head<'e>(&self, enc: &'e [u8]) -> Option<Head<'e>> {
        let mut c = Cursor { b: enc, at: 0 };
        let bitmap = c.take(self.optional.div_ceil(8))?;
        let n_esc = c.len()?;
        if n_esc > self.entries.len() {
            return None;
        }
        let mut escaped = Vec::with_capacity(n_esc);
        let mut last = 0usize;
        for _ in 0..n_esc {
            last = last.checked_add(c.len()?)?;
            escaped.push(last);
        }
        Some(Head { c, bitmap, escaped })
    }

    /// Decodes an encoded record into the v2 member encoding; None when corrupt.
    pub fn decode(&self, enc: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(enc.len() * 3);
        self.decode_into(enc, &mut out)?;
        Some(out)
    }

    /// Decodes an encoded record into the v2 member encoding (`Record`), replacing `out`'s
    /// contents: the layout is written in place (ids, then value ends filled in as each value
    /// is printed), so a reader reusing `out` allocates nothing per record. None when corrupt.
    pub fn decode_into(&self, enc: &[u8], out: &mut Vec<u8>) -> Option<()> {
        let Head {
            mut c,
            bitmap,
            escaped,
        } = self.head(enc)?;
        out.clear();
        // Decoded records run 3-5x their encoding: one allocation instead of a doubling chain.
        out.reserve(4 * enc.len() + 64);
        let n = self.steps.iter().filter(|s| s.present(bitmap)).count();
        out.extend_from_slice(&(n as u16).to_le_bytes());
        for (e, s) in self.entries.iter().zip(&self.steps) {
            if s.present(bitmap) {
                out.extend_from_slice(&e.field.to_le_bytes());
            }
        }
        let ends = out.len();
        out.resize(ends + 4 * n, 0);
        let body = out.len();
        // The slot of each entry's value, for `Same` members (their source is earlier).
        let slot_end = |out: &Vec<u8>, k: usize| u32_le(out, ends + 4 * k) as usize;
        let mut k = 0;
        let mut esc = escaped.iter().peekable();
        for (i, (e, s)) in self.entries.iter().zip(&self.steps).enumerate() {
            if !s.present(bitmap) {
                if esc.peek() == Some(&&i) {
                    return None;
                }
                continue;
            }
            if esc.peek() == Some(&&i) {
                esc.next();
                out.extend_from_slice(c.bytes()?);
            } else if let Class::Same(m) = e.class {
                // The source's slot: the present entries before it.
                let before = self.steps[..m].iter().filter(|s| s.present(bitmap)).count();
                let slot = self.steps.get(m)?.present(bitmap).then_some(before);
                let s = slot?;
                let from = body + if s == 0 { 0 } else { slot_end(out, s - 1) };
                let to = body + slot_end(out, s);
                out.extend_from_within(from..to);
            } else {
                decode_value(&e.class, &mut c, out)?;
            }
            let end = u32::try_from(out.len() - body).ok()?;
            out[ends + 4 * k..ends + 4 * k + 4].copy_from_slice(&end.to_le_bytes());
            k += 1;
        }
        if esc.next().is_some() || c.at != enc.len() {
            return None;
        }
        Some(())
    }

    /// The member names of object member `field` when every record stores it as an object
    /// (class `obj`), in the order [`Codebook::visit`] numbers them; None otherwise.
    pub fn inner_names(&self, field: u16) -> Option<Vec<&[u8]>> {
        let e = self.entries.iter().find(|e| e.field == field)?;
        match &e.class {
            Class::Obj(members) => Some(members.iter().map(|(n, _)| n.as_slice()).collect()),
            _ => None,
        }
    }

    /// One pass over an encoded record that decodes only what is asked: each present member
    /// whose id is in `top` (ascending) as [`Visited::Member`], and of the object member
    /// `inner.0` each non-null inner member `i` with `inner.1[i]` as [`Visited::Inner`]
    /// (numbered as [`Codebook::inner_names`]); the rest is skipped, not printed. The bytes
    /// are what [`Codebook::decode`] prints for them. None when corrupt, or when `inner`'s
    /// member cannot be read so (escaped, `same`, not an object): read the record whole then
    /// (callbacks may have run).
    pub fn visit(
        &self,
        enc: &[u8],
        top: &[u16],
        inner: Option<(u16, &[bool])>,
        scratch: &mut Vec<u8>,
        mut f: impl FnMut(Visited<'_>),
    ) -> Option<()> {
        let Head {
            mut c,
            bitmap,
            escaped,
        } = self.head(enc)?;
        // Sources of wanted `same` members (earlier entries): their bytes are kept.
        let sources: Vec<usize> = self
            .entries
            .iter()
            .filter(|e| top.binary_search(&e.field).is_ok())
            .filter_map(|e| match e.class {
                Class::Same(m) => Some(m),
                _ => None,
            })
            .collect();
        let mut kept: Vec<(usize, Vec<u8>)> = Vec::new();
        let mut esc = escaped.iter().peekable();
        for (i, (e, s)) in self.entries.iter().zip(&self.steps).enumerate() {
            let present = s.present(bitmap);
            let is_escaped = esc.peek() == Some(&&i);
            if !present {
                if is_escaped {
                    return None;
                }
                continue;
            }
            let wanted = top.binary_search(&e.field).is_ok();
            let within = inner.filter(|(field, _)| *field == e.field);
            let keep = sources.contains(&i);
            if is_escaped {
                esc.next();
                let v = c.bytes()?;
                if within.is_some() {
                    return None;
                }
                if keep {
                    kept.push((i, v.to_vec()));
                }
                if wanted {
                    f(Visited::Member(e.field, v));
                }
                continue;
            }
            match (&e.class, within) {
                (Class::Same(_), Some(_)) => return None,
                (Class::Same(m), None) if wanted => {
                    // Its source is earlier; an absent source makes the record corrupt.
                    let (_, v) = kept.iter().find(|(k, _)| k == m)?;
                    f(Visited::Member(e.field, v));
                }
                (Class::Same(_), None) => {}
                (Class::Obj(members), Some((_, want))) if !wanted => {
                    let nulls = c.take(members.len().div_ceil(8))?;
                    for (j, (_, class)) in members.iter().enumerate() {
                        if nulls[j / 8] >> (j % 8) & 1 == 1 {
                            continue;
                        }
                        if want.get(j) == Some(&true) {
                            scratch.clear();
                            decode_value(class, &mut c, scratch)?;
                            f(Visited::Inner(j, scratch));
                        } else {
                            skip_value(class, &mut c)?;
                        }
                    }
                }
                (_, Some(_)) => return None,
                (class, None) if wanted || keep => {
                    scratch.clear();
                    decode_value(class, &mut c, scratch)?;
                    if keep {
                        kept.push((i, scratch.clone()));
                    }
                    if wanted {
                        f(Visited::Member(e.field, scratch));
                    }
                }
                (class, None) => skip_value(class, &mut c)?,
            }
        }
        if esc.next().is_some() || c.at != enc.len() {
            return None;
        }
        Some(())
    }

    /// Places a cursor at member `field`'s value: None when the record lacks it or is
    /// corrupt. The value is read by `Place`'s class (`None` for an escaped, verbatim value).
    fn place<'e>(&'e self, enc: &'e [u8], field: u16) -> Option<(Cursor<'e>, Option<&'e Class>)> {
        let target = self
            .entries
            .binary_search_by_key(&field, |e| e.field)
            .ok()?;
        let Head {
            mut c,
            bitmap,
            escaped,
        } = self.head(enc)?;
        if !self.steps[target].present(bitmap) {
            return None;
        }
        // A `Same` member reads its source's value.
        let want = match self.entries[target].class {
            Class::Same(m) if !escaped.contains(&target) => m,
            _ => target,
        };
        for (i, step) in self.steps[..want].iter().enumerate() {
            if !step.present(bitmap) {
                continue;
            }
            if !escaped.is_empty() && escaped.contains(&i) {
                c.bytes()?;
                continue;
            }
            match step.skip {
                Skip::Nothing => {}
                Skip::Varint => c.skip_varint()?,
                Skip::Bytes => c.skip_bytes()?,
                Skip::Float => {
                    c.skip_varint()?;
                    c.byte()?;
                }
                Skip::Walk => skip_value(&self.entries[i].class, &mut c)?,
            }
        }
        if !self.steps[want].present(bitmap) {
            return None;
        }
        Some((
            c,
            (!escaped.contains(&want)).then_some(&self.entries[want].class),
        ))
    }

    /// Decodes member `field` of an encoded record alone (the others are skipped, not
    /// printed): None when the record lacks it or is corrupt. Agrees with [`Codebook::decode`]
    /// on every well-formed record; a corrupt one may give a member here that `decode`
    /// refuses (a reader never trusts either further than the member's bytes).
    pub fn decode_member(&self, enc: &[u8], field: u16) -> Option<Vec<u8>> {
        let (mut c, class) = self.place(enc, field)?;
        let mut out = Vec::new();
        match class {
            None => out.extend_from_slice(c.bytes()?),
            Some(class) => decode_value(class, &mut c, &mut out)?,
        }
        Some(out)
    }

    /// Member `name` of object member `field`, decoded alone (a filter on one number of a
    /// 35-member object prints that number only): its JSON bytes, `null` for a null member;
    /// None when absent or corrupt. Agrees with `json_scan::member` over
    /// [`Codebook::decode_member`]'s bytes.
    pub fn decode_inner(&self, enc: &[u8], field: u16, name: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        self.decode_inner_into(enc, field, name, &mut out)?;
        Some(out)
    }

    /// [`Codebook::decode_inner`] into `out` (cleared first), so that a caller testing one
    /// member of many records reuses one buffer.
    pub fn decode_inner_into(
        &self,
        enc: &[u8],
        field: u16,
        name: &[u8],
        out: &mut Vec<u8>,
    ) -> Option<()> {
        out.clear();
        match self.place_inner(enc, field, name, out)? {
            Inner::Value(mut c, class) => decode_value(class, &mut c, out),
            Inner::Null => {
                out.extend_from_slice(b"null");
                Some(())
            }
            Inner::Printed => Some(()),
        }
    }

    /// The number member `name` of object member `field` (None when absent, null, not a
    /// number or corrupt): what `json_scan::number` reads from [`Codebook::decode_inner`]'s
    /// bytes. A `float` value becomes the number without printing it and parsing it back when
    /// its digits make it exactly (a filter on a frequency reads one per candidate);
    /// `scratch` holds the text otherwise.
    pub fn inner_number(
        &self,
        enc: &[u8],
        field: u16,
        name: &[u8],
        scratch: &mut Vec<u8>,
    ) -> Option<f64> {
        scratch.clear();
        match self.place_inner(enc, field, name, scratch)? {
            Inner::Value(mut c, class) => {
                if let Class::Float = class {
                    let mut digits = c;
                    let m = digits.varint()?;
                    if let Some(x) = exact_f64(m & 1 == 1, m >> 1, digits.byte()?) {
                        return Some(x);
                    }
                }
                decode_value(class, &mut c, scratch)?;
            }
            Inner::Null => return None,
            Inner::Printed => {}
        }
        crate::json_scan::number(scratch)
    }

    /// Finds member `name` of object member `field`: its value to read, null, or (a member
    /// stored verbatim or in another class) the member printed into `out` already.
    fn place_inner<'e>(
        &'e self,
        enc: &'e [u8],
        field: u16,
        name: &[u8],
        out: &mut Vec<u8>,
    ) -> Option<Inner<'e>> {
        let (mut c, class) = self.place(enc, field)?;
        let Some(Class::Obj(members)) = class else {
            // Stored verbatim or in another class: print it and scan the text.
            match class {
                None => out.extend_from_slice(c.bytes()?),
                Some(class) => decode_value(class, &mut c, out)?,
            }
            let (start, len) = {
                let member = crate::json_scan::member(out, name)?;
                (
                    member.as_ptr() as usize - out.as_ptr() as usize,
                    member.len(),
                )
            };
            out.copy_within(start..start + len, 0);
            out.truncate(len);
            return Some(Inner::Printed);
        };
        let nulls = c.take(members.len().div_ceil(8))?;
        for (i, (n, class)) in members.iter().enumerate() {
            let null = nulls[i / 8] >> (i % 8) & 1 == 1;
            if n.as_slice() == name {
                return Some(if null {
                    Inner::Null
                } else {
                    Inner::Value(c, class)
                });
            }
            if !null {
                skip_value(class, &mut c)?;
            }
        }
        None
    }
}

/// Where [`Codebook::place_inner`] found an inner member.
enum Inner<'e> {
    /// Its value, at the cursor, in this class.
    Value(Cursor<'e>, &'e Class),
    Null,
    /// Printed into the caller's buffer.
    Printed,
}
