//! Just enough JSON reading for stored member bytes (compact JSON written by the indexer):
//! a top-level member of an object, a string's content, an array of strings. No values are
//! built, so annotating a record allocates nothing for JSON.

/// The index just past the closing quote of the string whose opening quote is at `i`.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        j += memchr::memchr2(b'"', b'\\', b.get(j..)?)?;
        if b[j] == b'\\' {
            j += 2;
        } else {
            return Some(j + 1);
        }
    }
}

/// The end (exclusive) of the JSON value starting at `i` (after whitespace), or None.
fn value_end(b: &[u8], mut i: usize) -> Option<usize> {
    while b.get(i)?.is_ascii_whitespace() {
        i += 1;
    }
    match b[i] {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        // A number or literal: up to the next delimiter.
        _ => Some(
            b[i..]
                .iter()
                .position(|&c| matches!(c, b',' | b'}' | b']') || c.is_ascii_whitespace())
                .map_or(b.len(), |n| i + n),
        ),
    }
}

/// Calls `f(key, value)` for each top-level member of JSON object `obj` (key raw, value bytes
/// trimmed) until `f` returns false. Stops quietly at anything that is not an object.
pub fn for_each_member<'a>(obj: &'a [u8], mut f: impl FnMut(&'a [u8], &'a [u8]) -> bool) {
    let Some(mut i) = obj.iter().position(|b| !b.is_ascii_whitespace()) else {
        return;
    };
    if obj[i] != b'{' {
        return;
    }
    i += 1;
    loop {
        while obj
            .get(i)
            .is_some_and(|c| c.is_ascii_whitespace() || *c == b',')
        {
            i += 1;
        }
        if obj.get(i) != Some(&b'"') {
            return;
        }
        let Some(ke) = string_end(obj, i) else { return };
        let key = &obj[i + 1..ke - 1];
        i = ke;
        while obj.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        if obj.get(i) != Some(&b':') {
            return;
        }
        let Some(ve) = value_end(obj, i + 1) else {
            return;
        };
        if !f(key, obj[i + 1..ve].trim_ascii()) {
            return;
        }
        i = ve;
    }
}

/// The value bytes of top-level member `key` of the JSON object `obj` (None when absent or
/// `obj` is not an object). Keys are compared as raw bytes (annotation keys need no escapes).
pub fn member<'a>(obj: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    let mut found = None;
    for_each_member(obj, |k, v| {
        if k == key {
            found = Some(v);
        }
        found.is_none()
    });
    found
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
