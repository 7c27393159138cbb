//! Numeric columns: one number per record ordinal, null allowed, for threshold and range
//! filters.
//!
//! Two layouts (FORMAT.md "Numeric columns"):
//! - `NUM1`: `n` f64 values (NaN = null), then `n u64 · "NUM1" · 0 u32`;
//! - `NUM2`, scaled decimals: when every value is `m / 10^k` for one `k` ≤ 9 with `m` fitting
//!   1, 2 or 4 bytes, `n` signed integers `m` of that width (its minimum = null), zero padding
//!   to 8 bytes, then `n u64 · k u32 · width u32 · "NUM2" · 0 u32`. A reader computes
//!   `m as f64 / 10^k`: both operands are exact, so IEEE division gives the nearest f64 to the
//!   decimal, the very value parsing its text gave (an LD r² of 4 digits is 2 bytes, not 8).

use std::io::Write;

use crate::arrays::F64s;
use crate::bytes::{u32_at, u64_at, Bytes};
use crate::error::{ReadError, WriteError};
use crate::spool::Spool;

const TAG: [u8; 4] = *b"NUM1";
const TRAILER: usize = 16;
const SCALED_TAG: [u8; 4] = *b"NUM2";
const SCALED_TRAILER: usize = 24;

/// The largest decimal scale a `NUM2` column uses.
pub const MAX_SCALE: u32 = 9;

const POW10: [f64; MAX_SCALE as usize + 1] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/// The smallest scale `k` at which `v` is exactly `m / 10^k` for an integer `m` (None when
/// there is none up to [`MAX_SCALE`], or `v` is −0, which an integer cannot carry).
fn scale_of(v: f64) -> Option<u32> {
    if v.to_bits() == (-0.0f64).to_bits() {
        return None;
    }
    (0..=MAX_SCALE).find(|&k| {
        let m = (v * POW10[k as usize]).round();
        m.abs() < (1u64 << 53) as f64 && (m / POW10[k as usize]).to_bits() == v.to_bits()
    })
}

/// Streams a column in ordinal order (values spooled as f64; the layout is chosen at the end).
pub struct NumberWriter {
    spool: Spool,
    n: u64,
    /// The scale every value so far fits (None once one fits none).
    scale: Option<u32>,
    /// The largest magnitude so far.
    max_abs: f64,
}

impl NumberWriter {
    /// Starts a column spooled to `spool`.
    pub fn new(spool: Spool) -> NumberWriter {
        NumberWriter {
            spool,
            n: 0,
            scale: Some(0),
            max_abs: 0.0,
        }
    }

    /// Appends the value of the next ordinal (`None` = null; non-finite values are null).
    pub fn push(&mut self, v: Option<f64>) -> Result<(), WriteError> {
        let v = v.filter(|x| x.is_finite()).unwrap_or(f64::NAN);
        if !v.is_nan() {
            self.scale = self.scale.zip(scale_of(v)).map(|(a, b)| a.max(b));
            self.max_abs = self.max_abs.max(v.abs());
        }
        self.spool.write_all(&v.to_bits().to_le_bytes())?;
        self.n += 1;
        Ok(())
    }

    /// The scaled layout's (scale, width in bytes), when every value fits one.
    fn scaled(&self) -> Option<(u32, usize)> {
        let k = self.scale?;
        // Values at smaller scales are exact at `k` too (the same real number, rounded once).
        let max = (self.max_abs * POW10[k as usize]).round();
        // The width's minimum is null, so the range is symmetric without it.
        [1usize, 2, 4]
            .into_iter()
            .find(|&w| max <= (i64::MAX >> (64 - 8 * w)) as f64)
            .map(|w| (k, w))
    }

    /// Writes the section to `out`: scaled decimals when they fit, else f64 values.
    pub fn finish_into<O: Write>(mut self, mut out: O) -> Result<O, WriteError> {
        match self.scaled() {
            None => {
                self.spool.copy_into(&mut out)?;
                out.write_all(&self.n.to_le_bytes())?;
                out.write_all(&TAG)?;
                out.write_all(&0u32.to_le_bytes())?;
            }
            Some((k, w)) => {
                let mut conv = Scaler {
                    out: &mut out,
                    pending: Vec::with_capacity(8),
                    k,
                    w,
                    bad: false,
                };
                self.spool.copy_into(&mut conv)?;
                if conv.bad || !conv.pending.is_empty() {
                    return Err(WriteError::Invalid(
                        "numeric column: a value does not fit its scale".into(),
                    ));
                }
                let len = self.n as usize * w;
                out.write_all(&[0u8; 8][..len.next_multiple_of(8) - len])?;
                out.write_all(&self.n.to_le_bytes())?;
                out.write_all(&k.to_le_bytes())?;
                out.write_all(&(w as u32).to_le_bytes())?;
                out.write_all(&SCALED_TAG)?;
                out.write_all(&0u32.to_le_bytes())?;
            }
        }
        Ok(out)
    }
}

/// Rewrites spooled f64 values as scaled integers of width `w`.
struct Scaler<'a, O: Write> {
    out: &'a mut O,
    pending: Vec<u8>,
    k: u32,
    w: usize,
    /// A value did not reproduce at the scale (cannot happen for values `push` accepted).
    bad: bool,
}

impl<O: Write> Scaler<'_, O> {
    fn value(&mut self, v: f64) -> std::io::Result<()> {
        let null = i64::MIN >> (64 - 8 * self.w);
        let m = if v.is_nan() {
            null
        } else {
            let p = POW10[self.k as usize];
            let m = (v * p).round();
            if (m / p).to_bits() != v.to_bits() || m.abs() > -(null + 1) as f64 {
                self.bad = true;
            }
            m as i64
        };
        self.out.write_all(&m.to_le_bytes()[..self.w])
    }
}

impl<O: Write> Write for Scaler<'_, O> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        if !self.pending.is_empty() {
            let take = (8 - self.pending.len()).min(rest.len());
            self.pending.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.pending.len() == 8 {
                let v = f64::from_le_bytes(self.pending[..].try_into().expect("8 bytes"));
                self.pending.clear();
                self.value(v)?;
            }
        }
        let mut chunks = rest.chunks_exact(8);
        for c in &mut chunks {
            self.value(f64::from_le_bytes(c.try_into().expect("8 bytes")))?;
        }
        self.pending.extend_from_slice(chunks.remainder());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// A read view of a column.
#[derive(Clone, Debug)]
pub enum Numbers {
    /// f64 values (`NUM1`).
    Floats(F64s),
    /// Scaled decimals (`NUM2`).
    Scaled {
        /// The section.
        bytes: Bytes,
        /// Values.
        n: usize,
        /// 10^scale.
        divisor: f64,
        /// Bytes per value: 1, 2 or 4.
        width: usize,
    },
}

impl Numbers {
    /// Opens a section.
    pub fn open(bytes: Bytes, section: &str) -> Result<Numbers, ReadError> {
        let b = bytes.as_ref();
        let bad = |why: &str| ReadError::invalid(section, why);
        if b.len() >= SCALED_TRAILER && b[b.len() - 8..b.len() - 4] == SCALED_TAG {
            let t = b.len() - SCALED_TRAILER;
            let n = usize::try_from(u64_at(b, t)).map_err(|_| bad("count too large"))?;
            let k = u32_at(b, t + 8);
            let width = u32_at(b, t + 12) as usize;
            if k > MAX_SCALE || ![1, 2, 4].contains(&width) {
                return Err(bad("bad scale or width"));
            }
            let len = n.checked_mul(width).ok_or_else(|| bad("count too large"))?;
            if len.next_multiple_of(8) != t {
                return Err(bad("length does not match count"));
            }
            return Ok(Numbers::Scaled {
                bytes,
                n,
                divisor: POW10[k as usize],
                width,
            });
        }
        if b.len() < TRAILER || b[b.len() - 8..b.len() - 4] != TAG {
            return Err(bad("not a numeric column"));
        }
        let n = u64_at(b, b.len() - TRAILER);
        let n = usize::try_from(n).map_err(|_| bad("count too large"))?;
        if n.checked_mul(8) != Some(b.len() - TRAILER) {
            return Err(bad("length does not match count"));
        }
        Ok(Numbers::Floats(F64s::new(bytes, n, section)?))
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Numbers::Floats(v) => v.len(),
            Numbers::Scaled { n, .. } => *n,
        }
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of ordinal `ord`; `None` for null or an ordinal out of range.
    pub fn get(&self, ord: u64) -> Option<f64> {
        let i = usize::try_from(ord).ok().filter(|&i| i < self.len())?;
        match self {
            Numbers::Floats(v) => Some(v.get(i)).filter(|v| !v.is_nan()),
            Numbers::Scaled {
                bytes,
                divisor,
                width,
                ..
            } => {
                let at = i * width;
                let mut b = [0u8; 8];
                b[..*width].copy_from_slice(&bytes.as_ref()[at..at + width]);
                // Sign-extend from the width.
                let shift = 64 - 8 * *width as u32;
                let m = (i64::from_le_bytes(b) << shift) >> shift;
                (m != i64::MIN >> shift).then(|| m as f64 / divisor)
            }
        }
    }

    /// Bytes per value (8 for f64 columns), for `varcat info`.
    pub fn width(&self) -> usize {
        match self {
            Numbers::Floats(_) => 8,
            Numbers::Scaled { width, .. } => *width,
        }
    }
}
