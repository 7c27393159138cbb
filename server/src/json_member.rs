//! One member of a stored JSON object, read from its bytes without building a
//! `serde_json::Value` (a filter over a region's records reads one number from each).

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// The number member `name` of the JSON object `obj` (None when `obj` is not an object, has no
/// such member, or it is not a number). The first of repeated names counts; stored objects
/// hold none (the builder writes them from maps).
pub fn number(obj: &[u8], name: &str) -> Option<f64> {
    let mut de = serde_json::Deserializer::from_slice(obj);
    let found = Find(name).deserialize(&mut de).ok()?;
    de.end().ok()?;
    found
}

/// Seed and visitor of an object's member `.0`: its number, if it is one.
struct Find<'n>(&'n str);

impl<'de> DeserializeSeed<'de> for Find<'_> {
    type Value = Option<f64>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<f64>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Find<'_> {
    type Value = Option<f64>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Option<f64>, A::Error> {
        let mut found = None;
        while let Some(is) = m.next_key_seed(Is(self.0))? {
            if is && found.is_none() {
                // JSON number text is valid Rust float text, and both parse correctly rounded:
                // the value a numeric column of this member held.
                let raw: &RawValue = m.next_value()?;
                found = Some(raw.get().parse::<f64>().ok());
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        // The deserializer checks the object's end, so the rest is skipped, not parsed.
        Ok(found.flatten())
    }
}

/// Seed and visitor of a member name: whether it is `.0` (compared where it lies: no copy).
struct Is<'n>(&'n str);

impl<'de> DeserializeSeed<'de> for Is<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Is<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E>(self, v: &str) -> Result<bool, E> {
        Ok(v == self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn test_number_reads_one_member() {
        let obj = br#"{"bravo_af":0.000123,"gnomad_af_total":null,"x":"\"bravo_af\":1","n":{"bravo_af":2},"gnomad_af_afr":3,"e\u0041":1e-5}"#;
        assert_eq!(number(obj, "bravo_af"), Some(0.000123));
        assert_eq!(number(obj, "gnomad_af_total"), None);
        assert_eq!(number(obj, "gnomad_af_afr"), Some(3.0));
        assert_eq!(number(obj, "x"), None);
        assert_eq!(number(obj, "n"), None);
        assert_eq!(number(obj, "eA"), Some(1e-5));
        assert_eq!(number(obj, "missing"), None);
        assert_eq!(number(br#"{"a":1,"a":2}"#, "a"), Some(1.0));
    }

    #[test]
    fn test_number_refuses_what_is_no_object() {
        for bad in [
            &b""[..],
            b"null",
            b"[1]",
            b"{\"a\":1",
            b"{\"a\":1}x",
            b"{\"a\":}",
            b"\xff",
        ] {
            assert_eq!(number(bad, "a"), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    proptest! {
        /// Every number member reads back as the value `serde_json` parses (what a numeric
        /// column held), whatever the other members and their order.
        #[test]
        fn prop_number_matches_serde_json(
            members in proptest::collection::btree_map("[a-z_\"]{1,8}", prop_oneof![
                any::<f64>().prop_filter("finite", |x| x.is_finite()).prop_map(serde_json::Value::from),
                any::<i64>().prop_map(serde_json::Value::from),
                Just(serde_json::Value::Null),
                "[ -~]{0,10}".prop_map(serde_json::Value::from),
            ], 0..12),
            probe in "[a-z_\"]{1,8}",
        ) {
            let obj: serde_json::Map<String, serde_json::Value> = members.into_iter().collect();
            let bytes = serde_json::to_vec(&obj).unwrap();
            for name in obj.keys().chain([&probe]) {
                let want = obj.get(name).and_then(serde_json::Value::as_f64);
                prop_assert_eq!(number(&bytes, name), want);
            }
        }

        /// Arbitrary bytes never panic.
        #[test]
        fn prop_number_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = number(&bytes, "a");
        }
    }
}
