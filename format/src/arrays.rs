//! Fixed-width little-endian arrays inside a section, read by index.
//!
//! A view is created only after its byte length was proven to be `len * WIDTH`, so `get(i)`
//! for `i < len()` cannot go out of bounds.

use crate::bytes::{f64_at, mul, u32_at, u64_at, Bytes};
use crate::error::ReadError;

macro_rules! array_view {
    ($name:ident, $ty:ty, $width:expr, $read:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Debug)]
        pub struct $name {
            bytes: Bytes,
            len: usize,
        }

        impl $name {
            /// Element width in bytes.
            pub const WIDTH: usize = $width;

            /// Views `len` elements at the start of `bytes`.
            pub fn new(bytes: Bytes, len: usize, section: &str) -> Result<$name, ReadError> {
                let need = mul(len, $width, section, stringify!($name))?;
                let bytes = bytes.slice(0..need).ok_or_else(|| {
                    ReadError::truncated(format!("section {section}: {} array", stringify!($name)))
                })?;
                Ok($name { bytes, len })
            }

            /// An empty array.
            pub fn empty() -> $name {
                $name {
                    bytes: Bytes::from_vec(Vec::new()),
                    len: 0,
                }
            }

            /// Number of elements.
            #[inline]
            pub fn len(&self) -> usize {
                self.len
            }

            /// True when empty.
            #[inline]
            pub fn is_empty(&self) -> bool {
                self.len == 0
            }

            /// Element `i`; panics only if `i >= len()` (callers check).
            #[inline]
            pub fn get(&self, i: usize) -> $ty {
                $read(self.bytes.as_ref(), i * $width)
            }

            /// First index in `lo..hi` for which `pred` is false, assuming `pred` is true on a
            /// prefix (binary search).
            pub fn partition_point_in(
                &self,
                mut lo: usize,
                mut hi: usize,
                pred: impl Fn($ty) -> bool,
            ) -> usize {
                hi = hi.min(self.len);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if pred(self.get(mid)) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                lo
            }

            /// All elements (tests and small arrays).
            pub fn to_vec(&self) -> Vec<$ty> {
                (0..self.len).map(|i| self.get(i)).collect()
            }
        }
    };
}

array_view!(U32s, u32, 4, u32_at, "A view of little-endian u32 values.");
array_view!(U64s, u64, 8, u64_at, "A view of little-endian u64 values.");
array_view!(
    F64s,
    f64,
    8,
    f64_at,
    "A view of little-endian f64 values (NaN = null)."
);
