//! Just enough JSON reading for stored member bytes (compact JSON written by the indexer):
//! a top-level member of an object, a string's content, an array of strings. No values are
//! built, so annotating a record allocates nothing for JSON.

/// The end (exclusive) of the JSON value starting at `i` (after whitespace), or None.
fn value_end(b: &[u8], mut i: usize) -> Option<usize> {
    while b.get(i)?.is_ascii_whitespace() {
        i += 1;
    }
    let mut depth = 0usize;
    let mut in_str = false;
    let mut j = i;
    while j < b.len() {
        let c = b[j];
        if in_str {
            match c {
                b'\\' => j += 1,
                b'"' => {
                    in_str = false;
                    if depth == 0 {
                        return Some(j + 1);
                    }
                }
                _ => {}
            }
        } else {
            match c {
                b'"' => in_str = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    if depth == 0 {
                        return Some(j);
                    }
                    depth -= 1;
                    if depth == 0 {
                        return Some(j + 1);
                    }
                }
                b',' if depth == 0 => return Some(j),
                _ => {}
            }
        }
        j += 1;
    }
    (depth == 0 && !in_str).then_some(j)
}

/// The value bytes of top-level member `key` of the JSON object `obj` (None when absent or
/// `obj` is not an object). Keys are compared as raw bytes (annotation keys need no escapes).
pub fn member<'a>(obj: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    let mut i = obj.iter().position(|b| !b.is_ascii_whitespace())?;
    if obj[i] != b'{' {
        return None;
    }
    i += 1;
    loop {
        while obj.get(i)?.is_ascii_whitespace() || obj[i] == b',' {
            i += 1;
        }
        if obj[i] != b'"' {
            return None;
        }
        let ks = i + 1;
        let ke = value_end(obj, i)? - 1;
        i = ke + 1;
        while obj.get(i)?.is_ascii_whitespace() {
            i += 1;
        }
        if obj[i] != b':' {
            return None;
        }
        let vs = i + 1;
        let ve = value_end(obj, vs)?;
        if &obj[ks..ke] == key {
            return Some(obj[vs..ve].trim_ascii());
        }
        i = ve;
    }
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
    let mut i = 1;
    while i < v.len() {
        match v[i] {
            b'"' => {
                let Some(end) = value_end(v, i) else { return };
                f(&v[i + 1..end - 1]);
                i = end;
            }
            _ => i += 1,
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

/// A JSON number's value (None for null, strings and anything else).
pub fn number(v: &[u8]) -> Option<f64> {
    std::str::from_utf8(v.trim_ascii()).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
