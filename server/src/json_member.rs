//! One member of a stored JSON object, read from its bytes without building a
//! `serde_json::Value` (a filter over a region's records reads one number from each).

/// The number member `name` of the JSON object `obj` (None when `obj` is not an object, has no
/// such member, or it is not a number). The first of repeated names counts; stored objects
/// hold none (the builder writes them from maps). The scan stops at the member: the members
/// before it are skipped, not parsed, and the ones after it are not read (`bravo_af`, the
/// default source, is the first member of a variant's `annotations`).
pub fn number(obj: &[u8], name: &str) -> Option<f64> {
    let mut s = Scan { b: obj, i: 0 };
    s.ws();
    s.eat(b'{')?;
    s.ws();
    if s.peek()? == b'}' {
        return None;
    }
    loop {
        s.ws();
        let (key, escaped) = s.string()?;
        s.ws();
        s.eat(b':')?;
        s.ws();
        if key_is(key, escaped, name) {
            // JSON number text is valid Rust float text, and both parse correctly rounded:
            // the value a numeric column of this member held. Other values fail to parse.
            return std::str::from_utf8(s.scalar()).ok()?.parse().ok();
        }
        s.skip_value()?;
        s.ws();
        s.eat(b',')?;
    }
}

/// Whether the raw (still escaped, if `escaped`) member name `key` is `name`.
fn key_is(key: &[u8], escaped: bool, name: &str) -> bool {
    if !escaped {
        return key == name.as_bytes();
    }
    // Rare (names are plain identifiers): decode this one.
    let mut quoted = Vec::with_capacity(key.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(key);
    quoted.push(b'"');
    serde_json::from_slice::<String>(&quoted).is_ok_and(|k| k == name)
}

/// A cursor over JSON bytes; every step returns None at the end of the bytes.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn eat(&mut self, want: u8) -> Option<()> {
        (self.next()? == want).then_some(())
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// A string at the cursor: its raw bytes between the quotes, and whether they hold an escape.
    fn string(&mut self) -> Option<(&'a [u8], bool)> {
        self.eat(b'"')?;
        let start = self.i;
        let mut escaped = false;
        loop {
            match self.next()? {
                b'"' => return Some((&self.b[start..self.i - 1], escaped)),
                b'\\' => {
                    escaped = true;
                    self.next()?;
                }
                _ => {}
            }
        }
    }

    /// A number, literal or malformed value at the cursor: the bytes up to the next delimiter.
    fn scalar(&mut self) -> &'a [u8] {
        let start = self.i;
        while !matches!(
            self.peek(),
            None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
        ) {
            self.i += 1;
        }
        &self.b[start..self.i]
    }

    /// Skips the value at the cursor (objects and arrays whole, strings with their escapes).
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => {
                self.string()?;
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth -= 1,
                        _ => {}
                    }
                    self.i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => {
                self.scalar();
            }
        }
        Some(())
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
            b"{\"b\":1",
            b"{\"b\":\"x",
            b"{\"b\":[1,{\"a\":2}",
            b"{\"a\"",
            b"{\"a\":}",
            b"{\"a\":\"1\"}",
            b"\xff",
        ] {
            assert_eq!(number(bad, "a"), None, "{:?}", String::from_utf8_lossy(bad));
        }
        // What follows the member is not read (the builder wrote the object whole).
        assert_eq!(number(b"{\"a\":1,\"b\"", "a"), Some(1.0));
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
                // Nested values with delimiters inside strings, skipped whole.
                ("[ -~]{0,6}", any::<bool>()).prop_map(|(t, b)| serde_json::json!(
                    [{"k": t, "}": [b, null, []]}, t, {}]
                )),
            ], 0..12),
            probe in "[a-z_\"]{1,8}",
        ) {
            let obj: serde_json::Map<String, serde_json::Value> = members.into_iter().collect();
            // Compact, as stored, and pretty (whitespace between the tokens).
            for bytes in [serde_json::to_vec(&obj).unwrap(), serde_json::to_vec_pretty(&obj).unwrap()] {
                for name in obj.keys().chain([&probe]) {
                    let want = obj.get(name).and_then(serde_json::Value::as_f64);
                    prop_assert_eq!(number(&bytes, name), want);
                }
            }
        }

        /// Arbitrary bytes never panic.
        #[test]
        fn prop_number_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = number(&bytes, "a");
        }
    }
}
