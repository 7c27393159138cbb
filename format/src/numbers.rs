//! Numeric columns: one f64 per record ordinal, NaN for null, for threshold and range filters.
//!
//! Section layout: `n` f64 values, then the trailer `n u64 · tag "NUM1" · 0 u32`.

use std::io::Write;

use crate::arrays::F64s;
use crate::bytes::{u64_at, Bytes};
use crate::error::{ReadError, WriteError};

const TAG: [u8; 4] = *b"NUM1";
const TRAILER: usize = 16;

/// Streams a column in ordinal order.
pub struct NumberWriter<W: Write> {
    out: W,
    n: u64,
}

impl<W: Write> NumberWriter<W> {
    /// Starts a column written to `out`.
    pub fn new(out: W) -> NumberWriter<W> {
        NumberWriter { out, n: 0 }
    }

    /// Appends the value of the next ordinal (`None` = null).
    pub fn push(&mut self, v: Option<f64>) -> Result<(), WriteError> {
        let v = v.filter(|x| x.is_finite()).unwrap_or(f64::NAN);
        self.out.write_all(&v.to_bits().to_le_bytes())?;
        self.n += 1;
        Ok(())
    }

    /// Writes the trailer.
    pub fn finish(mut self) -> Result<W, WriteError> {
        self.out.write_all(&self.n.to_le_bytes())?;
        self.out.write_all(&TAG)?;
        self.out.write_all(&0u32.to_le_bytes())?;
        Ok(self.out)
    }
}

/// A read view of a column.
#[derive(Clone, Debug)]
pub struct Numbers {
    values: F64s,
}

impl Numbers {
    /// Opens a section.
    pub fn open(bytes: Bytes, section: &str) -> Result<Numbers, ReadError> {
        let b = bytes.as_ref();
        if b.len() < TRAILER || b[b.len() - 8..b.len() - 4] != TAG {
            return Err(ReadError::invalid(section, "not a numeric column"));
        }
        let n = u64_at(b, b.len() - TRAILER);
        let n = usize::try_from(n).map_err(|_| ReadError::invalid(section, "count too large"))?;
        if n.checked_mul(8) != Some(b.len() - TRAILER) {
            return Err(ReadError::invalid(section, "length does not match count"));
        }
        Ok(Numbers {
            values: F64s::new(bytes, n, section)?,
        })
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of ordinal `ord`; `None` for null or an ordinal out of range.
    pub fn get(&self, ord: u32) -> Option<f64> {
        let i = ord as usize;
        if i >= self.values.len() {
            return None;
        }
        Some(self.values.get(i)).filter(|v| !v.is_nan())
    }
}
