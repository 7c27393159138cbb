//! Threshold expressions: `gt:<n>`, `gte:<n>`, `lt:<n>`, `lte:<n>`, or a plain number meaning
//! equality (`eq:<n>` too, as IGVF's newer routers spell it). The number must be finite.

use std::fmt;
use std::str::FromStr;

use super::number::{finite, MAX_LEN};

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `>`
    Gt,
    /// `>=`
    Gte,
    /// `<`
    Lt,
    /// `<=`
    Lte,
    /// `==`
    Eq,
}

/// A parsed threshold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    op: Op,
    value: f64,
}

/// Why a threshold was refused (with the text refused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThresholdError {
    got: String,
}

impl fmt::Display for ThresholdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "must be gt:<number>, gte:<number>, lt:<number>, lte:<number> or a number, got \"{}\"",
            self.got
        )
    }
}

impl std::error::Error for ThresholdError {}

impl Threshold {
    /// The operator.
    pub fn op(&self) -> Op {
        self.op
    }

    /// The operand (finite).
    pub fn value(&self) -> f64 {
        self.value
    }

    /// True when `x` passes.
    pub fn test(&self, x: f64) -> bool {
        match self.op {
            Op::Gt => x > self.value,
            Op::Gte => x >= self.value,
            Op::Lt => x < self.value,
            Op::Lte => x <= self.value,
            Op::Eq => x == self.value,
        }
    }
}

impl FromStr for Threshold {
    type Err = ThresholdError;

    fn from_str(s: &str) -> Result<Threshold, ThresholdError> {
        let refused = || ThresholdError { got: s.to_string() };
        let (op, num) = match s.split_once(':') {
            Some(("gt", n)) => (Op::Gt, n),
            Some(("gte", n)) => (Op::Gte, n),
            Some(("lt", n)) => (Op::Lt, n),
            Some(("lte", n)) => (Op::Lte, n),
            Some(("eq", n)) => (Op::Eq, n),
            Some(_) => return Err(refused()),
            None => (Op::Eq, s),
        };
        Ok(Threshold {
            op,
            value: finite(num).ok_or_else(refused)?,
        })
    }
}

impl fmt::Display for Threshold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.op {
            Op::Gt => "gt:",
            Op::Gte => "gte:",
            Op::Lt => "lt:",
            Op::Lte => "lte:",
            Op::Eq => "",
        };
        // Plain decimals spell 1e300 with 301 digits, more than a number may have; the
        // exponent form then (both are the shortest that give the same value back).
        let plain = self.value.to_string();
        if plain.len() <= MAX_LEN {
            write!(f, "{op}{plain}")
        } else {
            write!(f, "{op}{:e}", self.value)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn test_thresholds() {
        let t: Threshold = "gte:2.5".parse().unwrap();
        assert!(t.test(2.5) && !t.test(2.4));
        let t: Threshold = "lt:-1e-3".parse().unwrap();
        assert!(t.test(-0.01) && !t.test(0.0));
        let t: Threshold = "400".parse().unwrap();
        assert!(t.test(400.0) && !t.test(400.1));
        let t: Threshold = "eq:-0.5".parse().unwrap();
        assert!(t.test(-0.5) && !t.test(0.5));
        assert_eq!(t, "-0.5".parse().unwrap());
        for bad in [
            "",
            "gt:",
            "foo:5",
            "gt:inf",
            "gt:NaN",
            "gt:abc",
            "range:1-2",
            "gt: 5",
            "0x10",
            "gt:1e999",
            "eq:",
            "eq:x",
        ] {
            assert_eq!(
                bad.parse::<Threshold>(),
                Err(ThresholdError {
                    got: bad.to_string()
                }),
                "{bad:?}"
            );
        }
        assert_eq!(
            "gt:x".parse::<Threshold>().unwrap_err().to_string(),
            "must be gt:<number>, gte:<number>, lt:<number>, lte:<number> or a number, got \"gt:x\""
        );
        for s in [
            "gt:5",
            "gte:0.25",
            "lt:-3",
            "lte:100",
            "7",
            "gt:1e300",
            "lt:-5e-324",
        ] {
            assert_eq!(s.parse::<Threshold>().unwrap().to_string(), s);
        }
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            Just(Op::Gt),
            Just(Op::Gte),
            Just(Op::Lt),
            Just(Op::Lte),
            Just(Op::Eq)
        ]
    }

    proptest! {
        #[test]
        fn test_round_trips(op in op(), value in proptest::num::f64::NORMAL
            | proptest::num::f64::SUBNORMAL
            | proptest::num::f64::ZERO
            | proptest::num::f64::NEGATIVE
            | proptest::num::f64::POSITIVE)
        {
            let t = Threshold { op, value };
            prop_assert_eq!(t.to_string().parse::<Threshold>(), Ok(t));
        }

        #[test]
        fn test_texts_round_trip(s in "((gt|gte|lt|lte):)?[-+]?[0-9]{0,30}(\\.[0-9]{0,30})?([eE][-+]?[0-9]{1,3})?") {
            if let Ok(t) = s.parse::<Threshold>() {
                prop_assert_eq!(t.to_string().parse::<Threshold>(), Ok(t));
            }
        }
    }
}
