//! Numbers in parameters.

/// Longest number text accepted.
pub const MAX_LEN: usize = 64;

/// A finite decimal number (`1`, `-2.5`, `1e-6`, `.5`); no hex, no `inf`/`nan`, no spaces.
pub fn finite(s: &str) -> Option<f64> {
    let ok = !s.is_empty()
        && s.len() <= MAX_LEN
        && s.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
        && s.bytes().any(|b| b.is_ascii_digit());
    if !ok {
        return None;
    }
    s.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// Why an integer was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntError {
    /// Not decimal digits (optionally followed by `.` and zeros).
    NotAnInteger,
}

/// A non-negative integer: decimal digits optionally followed by `.` and zeros (`10.0`, which
/// generated clients send). Values beyond u64 saturate (a page that far is simply empty).
pub fn non_negative(s: &str) -> Result<u64, IntError> {
    let digits = match s.split_once('.') {
        Some((d, z)) if z.bytes().all(|b| b == b'0') => d,
        Some(_) => return Err(IntError::NotAnInteger),
        None => s,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(IntError::NotAnInteger);
    }
    Ok(digits.bytes().fold(0u64, |acc, b| {
        acc.saturating_mul(10).saturating_add((b - b'0') as u64)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_finite() {
        assert_eq!(finite("0.25"), Some(0.25));
        assert_eq!(finite("-1e-6"), Some(-1e-6));
        assert_eq!(finite(".5"), Some(0.5));
        for bad in ["", "inf", "NaN", "1e999", "0x10", " 1", "abc", "-", "e"] {
            assert_eq!(finite(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn test_non_negative() {
        assert_eq!(non_negative("10"), Ok(10));
        assert_eq!(non_negative("10.0"), Ok(10));
        assert_eq!(non_negative("10."), Ok(10));
        assert_eq!(non_negative("99999999999999999999999"), Ok(u64::MAX));
        for bad in ["", "-1", "1.5", "1e2", "+1", ".0", "ten"] {
            assert_eq!(non_negative(bad), Err(IntError::NotAnInteger), "{bad:?}");
        }
    }
}
