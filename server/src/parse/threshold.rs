//! Threshold expressions: `gt:<n>`, `gte:<n>`, `lt:<n>`, `lte:<n>`, or a plain number meaning
//! equality. The number must be finite.

use std::fmt;
use std::str::FromStr;

use super::number::finite;

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
    /// Operator.
    pub op: Op,
    /// Operand.
    pub value: f64,
}

impl Threshold {
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
    type Err = ();

    fn from_str(s: &str) -> Result<Threshold, ()> {
        let (op, num) = match s.split_once(':') {
            Some(("gt", n)) => (Op::Gt, n),
            Some(("gte", n)) => (Op::Gte, n),
            Some(("lt", n)) => (Op::Lt, n),
            Some(("lte", n)) => (Op::Lte, n),
            Some(_) => return Err(()),
            None => (Op::Eq, s),
        };
        Ok(Threshold {
            op,
            value: finite(num).ok_or(())?,
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
        write!(f, "{op}{}", self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_thresholds() {
        let t: Threshold = "gte:2.5".parse().unwrap();
        assert!(t.test(2.5) && !t.test(2.4));
        let t: Threshold = "lt:-1e-3".parse().unwrap();
        assert!(t.test(-0.01) && !t.test(0.0));
        let t: Threshold = "400".parse().unwrap();
        assert!(t.test(400.0) && !t.test(400.1));
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
        ] {
            assert!(bad.parse::<Threshold>().is_err(), "{bad:?}");
        }
        for s in ["gt:5", "gte:0.25", "lt:-3", "lte:100", "7"] {
            assert_eq!(s.parse::<Threshold>().unwrap().to_string(), s);
        }
    }
}
