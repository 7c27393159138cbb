//! Normalising a member value to its field type before it is stored.

use serde_json::{Number, Value};

use crate::schema::Ty;

/// Counters of normalisations worth reporting.
#[derive(Default, Debug, Clone, Copy)]
pub struct Counts {
    /// Null elements dropped from string arrays.
    pub null_elements: u64,
    /// Non-integral values in integer fields.
    pub non_integer: u64,
}

/// An integer `Value` from a float with an integral value, if it fits i64.
fn integral(f: f64) -> Option<Value> {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        Some(Value::Number(Number::from(f as i64)))
    } else {
        None
    }
}

/// Normalises `v` for a field of type `ty`.
pub fn normalize(v: Value, ty: Ty, counts: &mut Counts) -> Value {
    match (ty, v) {
        (Ty::Int, Value::Number(n)) if n.is_f64() => match integral(n.as_f64().unwrap_or(f64::NAN))
        {
            Some(i) => i,
            None => {
                counts.non_integer += 1;
                Value::Number(n)
            }
        },
        (Ty::Int, Value::String(s)) => match s.trim().parse::<i64>() {
            Ok(i) => Value::Number(i.into()),
            Err(_) => match s.trim().parse::<f64>().ok().and_then(integral) {
                Some(i) => i,
                None => {
                    counts.non_integer += 1;
                    Value::String(s)
                }
            },
        },
        (Ty::Num, Value::String(s)) => match s.trim().parse::<f64>() {
            Ok(f) if f.is_finite() => integral(f)
                .filter(|_| !s.contains(['.', 'e', 'E']))
                .unwrap_or_else(|| Number::from_f64(f).map_or(Value::Null, Value::Number)),
            _ => Value::String(s),
        },
        (Ty::Str, Value::Number(n)) => Value::String(n.to_string()),
        (Ty::StrArray, Value::Array(a)) => Value::Array(
            a.into_iter()
                .filter(|e| {
                    let keep = !e.is_null();
                    if !keep {
                        counts.null_elements += 1;
                    }
                    keep
                })
                .map(|e| match e {
                    Value::Number(n) => Value::String(n.to_string()),
                    other => other,
                })
                .collect(),
        ),
        (Ty::StrArray, Value::String(s)) => Value::Array(vec![Value::String(s)]),
        (_, v) => v,
    }
}

/// Whether `raw`, a member's JSON text as read, is what [`normalize`] keeps for `ty` and
/// `json_bytes` prints again byte for byte: a string without escapes or control characters,
/// an integer of at most 15 digits in canonical form, or a boolean. Such a member is stored as
/// read, neither parsed into a `Value` nor printed (parsing, printing and dropping values were
/// 8 % of a 1M build's CPU samples).
pub fn is_stored_as_read(raw: &str, ty: Ty) -> bool {
    let b = raw.as_bytes();
    match b {
        [b'"', inner @ .., b'"'] => {
            !matches!(ty, Ty::Int | Ty::Num | Ty::StrArray)
                && inner.iter().all(|&c| c >= 0x20 && c != b'"' && c != b'\\')
        }
        [b'-' | b'0'..=b'9', ..] => {
            let digits = b.strip_prefix(b"-").unwrap_or(b);
            !matches!(ty, Ty::Str | Ty::StrArray)
                && (1..=15).contains(&digits.len())
                && digits.iter().all(u8::is_ascii_digit)
                // No leading zero, and no `-0` (which parses as 0).
                && (digits[0] != b'0' || b == b"0")
        }
        _ => raw == "true" || raw == "false",
    }
}

/// The index values of a stored member: strings as is, numbers as canonical text, booleans as
/// `true`/`false`, arrays element by element; null and objects give nothing.
pub fn index_values(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Number(n) => vec![canonical_number(n)],
        Value::Bool(b) => vec![b.to_string()],
        Value::Array(a) => {
            let mut out: Vec<String> = a.iter().flat_map(index_values).collect();
            out.sort();
            out.dedup();
            out
        }
        _ => Vec::new(),
    }
}

/// Canonical text of a number: integers without a fraction (`135.0` → `135`).
pub fn canonical_number(n: &Number) -> String {
    match n.as_f64() {
        Some(f) if n.is_f64() => integral(f).map_or_else(|| n.to_string(), |i| i.to_string()),
        _ => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn test_normalize() {
        let mut c = Counts::default();
        assert_eq!(normalize(json!(1234.0), Ty::Int, &mut c), json!(1234));
        assert_eq!(normalize(json!("1234"), Ty::Int, &mut c), json!(1234));
        assert_eq!(normalize(json!(1.5), Ty::Int, &mut c), json!(1.5));
        assert_eq!(c.non_integer, 1);
        assert_eq!(
            normalize(json!(["a", null, "b"]), Ty::StrArray, &mut c),
            json!(["a", "b"])
        );
        assert_eq!(c.null_elements, 1);
        assert_eq!(normalize(json!("0.25"), Ty::Num, &mut c), json!(0.25));
        assert_eq!(normalize(json!("7"), Ty::Num, &mut c), json!(7));
        assert_eq!(normalize(json!(5), Ty::Str, &mut c), json!("5"));
        assert_eq!(normalize(json!(null), Ty::Int, &mut c), json!(null));
    }

    #[test]
    fn test_stored_as_read() {
        assert!(is_stored_as_read(r#""chr1""#, Ty::Str));
        assert!(is_stored_as_read(r#""""#, Ty::Any));
        assert!(!is_stored_as_read(r#""a\"b""#, Ty::Str));
        assert!(!is_stored_as_read(r#""\u00e9""#, Ty::Str));
        assert!(!is_stored_as_read(r#""7""#, Ty::Num));
        assert!(!is_stored_as_read(r#""x""#, Ty::StrArray));
        assert!(is_stored_as_read("123", Ty::Int) && is_stored_as_read("-5", Ty::Num));
        assert!(is_stored_as_read("0", Ty::Any));
        assert!(!is_stored_as_read("-0", Ty::Int) && !is_stored_as_read("012", Ty::Int));
        assert!(!is_stored_as_read("5", Ty::Str) && !is_stored_as_read("1.5", Ty::Num));
        assert!(!is_stored_as_read("1234567890123456", Ty::Int));
        assert!(is_stored_as_read("true", Ty::Bool) && is_stored_as_read("false", Ty::Str));
        assert!(!is_stored_as_read("null", Ty::Any) && !is_stored_as_read("\"", Ty::Any));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// A member stored as read holds the bytes that parsing, normalising and printing give.
        #[test]
        fn prop_stored_as_read_is_parse_normalize_print(
            raw in proptest::prop_oneof![
                "\"[ -~\u{7f}-\u{10ffff}\\\\\"\u{0}-\u{1f}]{0,12}\"",
                "-?[0-9]{1,17}(\\.[0-9]{1,3})?([eE][-+]?[0-9]{1,2})?",
                proptest::prelude::Just("true".to_string()),
                proptest::prelude::Just("false".to_string()),
            ],
            ty in proptest::sample::select(vec![Ty::Any, Ty::Str, Ty::Int, Ty::Num, Ty::Bool, Ty::StrArray]),
        ) {
            if is_stored_as_read(&raw, ty) {
                let v: Value = serde_json::from_str(&raw).expect("a member stored as read is valid JSON");
                let printed = serde_json::to_vec(&normalize(v, ty, &mut Counts::default())).unwrap();
                proptest::prop_assert_eq!(String::from_utf8(printed).unwrap(), raw);
            }
        }
    }

    #[test]
    fn test_index_values() {
        assert_eq!(index_values(&json!(["b", "a", "b"])), vec!["a", "b"]);
        assert_eq!(index_values(&json!(135.0)), vec!["135"]);
        assert_eq!(index_values(&json!(true)), vec!["true"]);
        assert!(index_values(&json!(null)).is_empty());
    }
}
