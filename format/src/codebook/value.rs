//! One value's codec: encoding, decoding and skipping a member's value by its class, and
//! the number text the `int` and `float` classes reproduce.

use super::refs::{handle_key, print_handle, print_ref, remember};
use super::wire::{put_varint, unzigzag, zigzag, Cursor};
use super::{Class, ARR_MAX, INT_TEXT};
// ---- JSON scanning: `json_scan`, the one member scanner -------------------------------

use crate::json_scan::{is_string, object_members};

pub(super) fn is_int_text(v: &[u8]) -> bool {
    let d = v.strip_prefix(b"-").unwrap_or(v);
    !d.is_empty() && d.iter().all(u8::is_ascii_digit)
}

pub(super) fn is_number_text(v: &[u8]) -> bool {
    matches!(v.first(), Some(b'-' | b'0'..=b'9'))
}

// ---- numbers ---------------------------------------------------------------------------

/// The shortest decimal of number text: (negative, magnitude, exponent), the exponent
/// [`INT_TEXT`] for integer text. None when it does not fit.
pub(super) fn decimal(text: &[u8]) -> Option<(bool, u64, u8)> {
    let s = std::str::from_utf8(text).ok()?;
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (m, e, int_text) = match s.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().ok()?, false),
        None => (s, 0, !s.contains('.')),
    };
    let (int, frac) = m.split_once('.').unwrap_or((m, ""));
    if int.is_empty() {
        return None;
    }
    let mut mag: u64 = 0;
    for c in int.bytes().chain(frac.bytes()) {
        if !c.is_ascii_digit() {
            return None;
        }
        mag = mag.checked_mul(10)?.checked_add((c - b'0') as u64)?;
    }
    if int_text {
        return Some((neg, mag, INT_TEXT));
    }
    let exp = e.checked_sub(frac.len() as i32)?;
    let exp = i8::try_from(exp).ok().filter(|&x| x as u8 != INT_TEXT)?;
    Some((neg, mag, exp as u8))
}

/// The zeros a number's text pads with: at most 16 (`kk ≤ 16` with `e ≥ 0`) or 4 (`kk > -5`).
/// Copied as a slice: `extend(repeat_n(..))` reserved and called `memset` for each, 3 % of a
/// region page's handler.
const ZEROS: &[u8; 16] = b"0000000000000000";

/// Writes the JSON number (sign, magnitude, exponent byte) in the layout `ryu` (serde_json's
/// float printer) gives shortest digits, from the stored digits themselves: no float is
/// parsed or formatted. A value the layout does not reproduce is escaped at build, so this
/// only has to be deterministic; for serde_json output it is exact.
pub(super) fn write_number(out: &mut Vec<u8>, neg: bool, mag: u64, exp: u8) -> Option<()> {
    if neg {
        out.push(b'-');
    }
    let mut buf = itoa::Buffer::new();
    let d = buf.format(mag).as_bytes();
    let n = d.len();
    if exp == INT_TEXT {
        out.extend_from_slice(d);
        return Some(());
    }
    let e = exp as i8 as i32;
    // The decimal point's position in the digits (ryu's `kk`).
    let kk = n as i32 + e;
    if e >= 0 && kk <= 16 {
        // 1234e2 → 123400.0
        out.extend_from_slice(d);
        out.extend_from_slice(&ZEROS[..e as usize]);
        out.extend_from_slice(b".0");
    } else if 0 < kk && kk <= 16 {
        // 1234e-2 → 12.34
        out.extend_from_slice(&d[..kk as usize]);
        out.push(b'.');
        out.extend_from_slice(&d[kk as usize..]);
    } else if -5 < kk && kk <= 0 {
        // 1234e-7 → 0.0001234
        out.extend_from_slice(b"0.");
        out.extend_from_slice(&ZEROS[..(-kk) as usize]);
        out.extend_from_slice(d);
    } else {
        // 1234e20 → 1.234e+23; 1e-7
        out.push(d[0]);
        if n > 1 {
            out.push(b'.');
            out.extend_from_slice(&d[1..]);
        }
        out.extend_from_slice(if kk > 0 { b"e+" } else { b"e" });
        write_i64(out, (kk - 1) as i64);
    }
    Some(())
}

/// The number (sign, magnitude, exponent byte) is, when its digits and a power of ten are
/// both exact doubles (magnitude ≤ 2^53, exponent within ±22): one multiplication or
/// division of exact operands rounds once, correctly, to what parsing its text gives
/// (Clinger's fast path, the one `str::parse` takes first). None otherwise.
pub(super) fn exact_f64(neg: bool, mag: u64, exp: u8) -> Option<f64> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    if mag > 1 << 53 {
        return None;
    }
    let m = mag as f64;
    let x = match exp {
        INT_TEXT => m,
        e => {
            let e = e as i8;
            let p = *POW10.get(e.unsigned_abs() as usize)?;
            if e >= 0 {
                m * p
            } else {
                m / p
            }
        }
    };
    Some(if neg { -x } else { x })
}

pub(super) fn write_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

pub(super) fn write_i64(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    write_u64(out, v.unsigned_abs());
}

// ---- encoding and decoding one value ---------------------------------------------------
/// Encodes `v` by `class` (not `Same`); None when the class cannot hold it.
pub(super) fn encode_value(class: &Class, v: &[u8], out: &mut Vec<u8>) -> Option<()> {
    match class {
        Class::Raw => {
            put_varint(out, v.len() as u64);
            out.extend_from_slice(v);
        }
        Class::Const(c) => {
            if c != v {
                return None;
            }
        }
        Class::Dict(d) => {
            let code = d.code_of(v)?;
            put_varint(out, u64::from(code));
        }
        Class::Same(_) => return None,
        Class::Int => {
            if !is_int_text(v) {
                return None;
            }
            let x: i64 = std::str::from_utf8(v).ok()?.parse().ok()?;
            put_varint(out, zigzag(x));
        }
        Class::Float => {
            // Sign and magnitude rather than zigzag: `-0.0` is a value of its own.
            let (neg, mag, e) = decimal(v)?;
            put_varint(out, mag.checked_mul(2)? | neg as u64);
            out.push(e);
        }
        Class::Str => {
            if !is_string(v) {
                return None;
            }
            put_varint(out, (v.len() - 2) as u64);
            out.extend_from_slice(&v[1..v.len() - 1]);
        }
        Class::Obj(members) => {
            let got = object_members(v)?;
            if got.len() != members.len() {
                return None;
            }
            let mut nulls = vec![0u8; members.len().div_ceil(8)];
            let mut body = Vec::new();
            for (i, ((name, class), (gname, gv))) in members.iter().zip(&got).enumerate() {
                if name != gname {
                    return None;
                }
                if *gv == b"null" {
                    nulls[i / 8] |= 1 << (i % 8);
                } else {
                    encode_value(class, gv, &mut body)?;
                }
            }
            out.extend_from_slice(&nulls);
            out.extend_from_slice(&body);
        }
        Class::Ref(r) | Class::Link(r) => {
            let key = handle_key(r, v)?;
            let ord = r.lookup.get()?.0.ord(std::str::from_utf8(key).ok()?)?;
            put_varint(out, ord);
            if matches!(class, Class::Link(_)) {
                put_varint(out, key.len() as u64);
                out.extend_from_slice(key);
            }
        }
        Class::Arr(element) => {
            let got = crate::json_scan::array_elements(v)?;
            if got.len() > ARR_MAX {
                return None;
            }
            put_varint(out, got.len() as u64);
            for e in got {
                encode_value(element, e, out)?;
            }
        }
    }
    Some(())
}

/// Decodes one value of `class` (not `Same`) onto `out`.
pub(super) fn decode_value(class: &Class, c: &mut Cursor<'_>, out: &mut Vec<u8>) -> Option<()> {
    match class {
        Class::Raw => out.extend_from_slice(c.bytes()?),
        Class::Const(v) => out.extend_from_slice(v),
        Class::Dict(d) => out.extend_from_slice(d.values.get(c.len()?)?),
        Class::Same(_) => return None,
        Class::Int => write_i64(out, unzigzag(c.varint()?)),
        Class::Float => {
            let m = c.varint()?;
            let e = c.byte()?;
            write_number(out, m & 1 == 1, m >> 1, e)?;
        }
        Class::Str => {
            out.push(b'"');
            out.extend_from_slice(c.bytes()?);
            out.push(b'"');
        }
        Class::Obj(members) => {
            let nulls = c.take(members.len().div_ceil(8))?;
            for (i, (_, class)) in members.iter().enumerate() {
                members.keys.put(i, out);
                if nulls[i / 8] >> (i % 8) & 1 == 1 {
                    out.extend_from_slice(b"null");
                } else {
                    decode_value(class, c, out)?;
                }
            }
            members.keys.close(out);
        }
        Class::Ref(r) => {
            let (lookup, id) = r.lookup.get()?;
            let ord = c.varint()?;
            print_ref(out, &r.target, lookup, *id, ord)?;
        }
        Class::Link(r) => {
            let ord = c.varint()?;
            let key = c.bytes()?;
            // Unlinked (the target absent at open), the handle still prints; nothing is
            // remembered. Linked, an ordinal past the target's end is corrupt.
            if let Some((lookup, id)) = r.lookup.get() {
                if ord >= lookup.len {
                    return None;
                }
                remember(*id, key, ord);
            }
            print_handle(out, &r.target, key);
        }
        Class::Arr(element) => {
            let n = c.len()?;
            if n > ARR_MAX {
                return None;
            }
            out.push(b'[');
            for i in 0..n {
                if i > 0 {
                    out.push(b',');
                }
                decode_value(element, c, out)?;
            }
            out.push(b']');
        }
    }
    Some(())
}

/// Moves past one value of `class` (not `Same`) without decoding it.
pub(super) fn skip_value(class: &Class, c: &mut Cursor<'_>) -> Option<()> {
    match class {
        Class::Raw | Class::Str => c.skip_bytes()?,
        Class::Const(_) => {}
        Class::Dict(_) | Class::Int | Class::Ref(_) => c.skip_varint()?,
        Class::Float => {
            c.skip_varint()?;
            c.byte()?;
        }
        Class::Link(_) => {
            c.skip_varint()?;
            c.skip_bytes()?;
        }
        Class::Same(_) => return None,
        Class::Obj(members) => {
            let nulls = c.take(members.len().div_ceil(8))?;
            for (i, (_, class)) in members.iter().enumerate() {
                if nulls[i / 8] >> (i % 8) & 1 == 0 {
                    skip_value(class, c)?;
                }
            }
        }
        Class::Arr(element) => {
            let n = c.len()?;
            if n > ARR_MAX {
                return None;
            }
            for _ in 0..n {
                skip_value(element, c)?;
            }
        }
    }
    Some(())
}
