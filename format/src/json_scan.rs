//! Just enough JSON reading for stored member bytes (compact JSON written by the indexer, read
//! without building a `serde_json::Value`): the members of an object, one member's value, a
//! string's content, the strings of an array. A filter over a region's records reads one number
//! from each; `varcat annotate` reads many fields of every variant.

/// Calls `f(key, value)` for each top-level member of the JSON object `obj` (key raw, still
/// escaped; value bytes) until `f` returns false. Stops quietly at anything that is not an
/// object, and at the first malformed member (the ones before it were answered).
pub fn for_each_member<'a>(obj: &'a [u8], mut f: impl FnMut(&'a [u8], &'a [u8]) -> bool) {
    members(obj, |k, _, v| f(k, v));
}

/// The value bytes of top-level member `key` (compared as raw bytes: stored member names need
/// no escapes) of the JSON object `obj`; None when absent or `obj` is not an object.
pub fn member<'a>(obj: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    let mut found = None;
    members(obj, |k, _, v| {
        if k == key {
            found = Some(v);
        }
        found.is_none()
    });
    found
}

/// The number member `name` of the JSON object `obj` (None when `obj` is not an object, has no
/// such member, or it is not a number). The first of repeated names counts; stored objects
/// hold none (the builder writes them from maps). The scan stops at the member: the members
/// before it are skipped, not parsed, and the ones after it are not read (`bravo_af`, the
/// default source, is the first member of a variant's `annotations`).
pub fn number_member(obj: &[u8], name: &str) -> Option<f64> {
    let mut found = None;
    members(obj, |k, escaped, v| {
        if key_is(k, escaped, name) {
            found = Some(number(v));
            return false;
        }
        true
    });
    found.flatten()
}

/// A JSON number's value (None for null, strings and anything else). JSON number text is valid
/// Rust float text, and both parse correctly rounded: the value a numeric column held.
pub fn number(v: &[u8]) -> Option<f64> {
    std::str::from_utf8(v.trim_ascii()).ok()?.parse().ok()
}

/// The raw (still escaped) content of a JSON string value, None for anything else.
pub fn str_content(v: &[u8]) -> Option<&[u8]> {
    let v = v.trim_ascii();
    (v.len() >= 2 && v[0] == b'"' && v[v.len() - 1] == b'"').then(|| &v[1..v.len() - 1])
}

/// Calls `f` with the raw content of each string of a JSON array (or of a lone string).
pub fn for_each_str(v: &[u8], mut f: impl FnMut(&[u8])) {
    let v = v.trim_ascii();
    if let Some(s) = str_content(v) {
        f(s);
        return;
    }
    if v.first() != Some(&b'[') {
        return;
    }
    let mut s = Scan { b: v, i: 1 };
    while let Some(c) = s.peek() {
        if c == b'"' {
            let Some((raw, _)) = s.string() else { return };
            f(raw);
        } else {
            s.i += 1;
        }
    }
}

/// Decodes the escapes of raw string content into `out` (only `\"`, `\\`, `\/` and `\uXXXX`
/// of the BMP matter for catalog text; anything else is copied as is).
pub fn unescape(raw: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' && i + 1 < raw.len() {
            let c = raw[i + 1];
            match c {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'r' => out.push(b'\r'),
                b'u' if i + 6 <= raw.len() => {
                    let ch = std::str::from_utf8(&raw[i + 2..i + 6])
                        .ok()
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .and_then(char::from_u32)
                        .unwrap_or('\u{fffd}');
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    i += 6;
                    continue;
                }
                _ => out.push(c),
            }
            i += 2;
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
}

/// Walks the members of `obj`: `f(raw key, whether it holds an escape, value bytes)` until it
/// returns false. None at the first malformed byte.
fn members<'a>(obj: &'a [u8], mut f: impl FnMut(&'a [u8], bool, &'a [u8]) -> bool) -> Option<()> {
    let mut s = Scan { b: obj, i: 0 };
    s.ws();
    s.eat(b'{')?;
    s.ws();
    if s.peek()? == b'}' {
        return Some(());
    }
    loop {
        s.ws();
        let (key, escaped) = s.string()?;
        s.ws();
        s.eat(b':')?;
        s.ws();
        let start = s.i;
        s.skip_value()?;
        if !f(key, escaped, &obj[start..s.i]) {
            return Some(());
        }
        s.ws();
        s.eat(b',')?;
    }
}

/// The members of a whole JSON object as (raw name, value bytes), in order; None unless `obj`
/// is exactly one well-formed object (the record codebook classes values by it, strictly).
pub fn object_members(obj: &[u8]) -> Option<Vec<(&[u8], &[u8])>> {
    let mut out = Vec::new();
    strict_items(obj, b'{', b'}', |s| {
        let (key, _) = s.string()?;
        s.eat(b':')?;
        let start = s.i;
        s.skip_value()?;
        out.push((key, &obj[start..s.i]));
        Some(())
    })?;
    Some(out)
}

/// The elements of a whole JSON array as their value bytes, in order; None unless `arr` is
/// exactly one well-formed array without white space (the codebook's strict reading, as
/// [`object_members`]).
pub fn array_elements(arr: &[u8]) -> Option<Vec<&[u8]>> {
    let mut out = Vec::new();
    strict_items(arr, b'[', b']', |s| {
        let start = s.i;
        s.skip_value()?;
        out.push(&arr[start..s.i]);
        Some(())
    })?;
    Some(out)
}

/// Walks the items of `b`, exactly one `open … close` container whose items `item` reads, one
/// `,` between them and nothing after the close: the strict reading the codebook classes by.
fn strict_items<'a>(
    b: &'a [u8],
    open: u8,
    close: u8,
    mut item: impl FnMut(&mut Scan<'a>) -> Option<()>,
) -> Option<()> {
    let mut s = Scan { b, i: 0 };
    s.eat(open)?;
    if s.peek()? == close {
        return (b.len() == 2).then_some(());
    }
    loop {
        item(&mut s)?;
        match s.next()? {
            b',' => {}
            c if c == close && s.i == b.len() => return Some(()),
            _ => return None,
        }
    }
}

/// Whether `v` is exactly one JSON string.
pub fn is_string(v: &[u8]) -> bool {
    let mut s = Scan { b: v, i: 0 };
    s.string().is_some() && s.i == v.len()
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
            // Jump to the next quote or backslash (member names and values are mostly plain).
            let at = memchr::memchr2(b'"', b'\\', &self.b[self.i..])?;
            self.i += at + 1;
            if self.b[self.i - 1] == b'"' {
                return Some((&self.b[start..self.i - 1], escaped));
            }
            escaped = true;
            self.next()?;
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
        assert_eq!(number_member(obj, "bravo_af"), Some(0.000123));
        assert_eq!(number_member(obj, "gnomad_af_total"), None);
        assert_eq!(number_member(obj, "gnomad_af_afr"), Some(3.0));
        assert_eq!(number_member(obj, "x"), None);
        assert_eq!(number_member(obj, "n"), None);
        assert_eq!(number_member(obj, "eA"), Some(1e-5));
        assert_eq!(number_member(obj, "missing"), None);
        assert_eq!(number_member(br#"{"a":1,"a":2}"#, "a"), Some(1.0));
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
            assert_eq!(
                number_member(bad, "a"),
                None,
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        // What follows the member is not read (the builder wrote the object whole).
        assert_eq!(number_member(b"{\"a\":1,\"b\"", "a"), Some(1.0));
    }

    #[test]
    fn finds_top_level_members_only() {
        let o = br#"{"freq":{"bravo_af":9},"s":"a,}\"b","bravo_af":0.25,"x":[1,{"y":2}],"n":null}"#;
        assert_eq!(member(o, b"bravo_af"), Some(&b"0.25"[..]));
        assert_eq!(member(o, b"s"), Some(&br#""a,}\"b""#[..]));
        assert_eq!(member(o, b"x"), Some(&br#"[1,{"y":2}]"#[..]));
        assert_eq!(member(o, b"n"), Some(&b"null"[..]));
        assert_eq!(member(o, b"y"), None);
        assert_eq!(member(b"[1]", b"y"), None);
        assert_eq!(member(b"{", b"y"), None);
        assert_eq!(member(br#"{"a":1"#, b"a"), Some(&b"1"[..]));
        assert_eq!(number(b"0.25"), Some(0.25));
        assert_eq!(number(b"null"), None);
    }

    #[test]
    fn strings_and_arrays() {
        let mut got = Vec::new();
        for_each_str(br#"["rs1","r\"s2"]"#, |s| got.push(s.to_vec()));
        assert_eq!(got, vec![b"rs1".to_vec(), br#"r\"s2"#.to_vec()]);
        got.clear();
        for_each_str(br#""one""#, |s| got.push(s.to_vec()));
        assert_eq!(got, vec![b"one".to_vec()]);
        let mut out = Vec::new();
        unescape(br#"a\"b\u00e9"#, &mut out);
        assert_eq!(out, "a\"bé".as_bytes());
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
                    prop_assert_eq!(number_member(&bytes, name), want);
                }
            }
        }

        /// Arbitrary bytes never panic.
        #[test]
        fn prop_number_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = number_member(&bytes, "a");
        }
    }
}
