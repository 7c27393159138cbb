//! One cell of varcat's TSV dialect: how a JSON value is written so that pandas and R, read with
//! the README's recipe, give back the same value, and a spreadsheet runs no formula from it.
//!
//! - null (and an absent member) is `\N`; an empty string is an empty cell;
//! - a number or a boolean is its JSON text as stored (`5.0`, `-0.25`, `true`);
//! - an array or an object is its compact JSON text, every control character in it written as a
//!   JSON `\u00XX` escape, so it holds no tab, line break or terminal escape;
//! - a string is its text with `\\`, `\t`, `\n`, `\r` and `\uXXXX` (four lowercase hex digits)
//!   for backslash, tab, line feed, carriage return and every other control character (C0, DEL,
//!   C1); a string that would start, after any run of `'`, with a formula character (`=`, `+`,
//!   `-`, `@`, tab, carriage return), with `"` (a quoting reader would merge rows from there)
//!   or with `[` or `{` (it would read as JSON) gets one `'` in front, as the OWASP CSV-injection
//!   guidance says. A lone `+` or `-` (a strand) cannot be a formula and stays as it is. Reading
//!   back, a string cell that starts with `'` followed by (more `'` and) one of those characters
//!   loses its first `'`.

use std::fmt::Write as _;

use serde_json::value::RawValue;

/// The cell of null or of an absent member.
pub const NULL: &str = "\\N";

/// The characters that make a string cell start with a `'` (after any run of `'`).
const GUARDED: [char; 9] = ['=', '+', '-', '@', '\t', '\r', '"', '[', '{'];

/// Appends the cell of JSON value `v` (None: absent) to `out`.
pub fn write(out: &mut String, v: Option<&RawValue>) {
    let text = v.map_or("null", |v| v.get().trim());
    match text.as_bytes().first() {
        None | Some(b'n') => out.push_str(NULL),
        Some(b'"') => match serde_json::from_str::<String>(text) {
            Ok(s) => string(out, &s),
            // Not a string after all (a lone surrogate): its JSON text, guarded as a string.
            Err(_) => string(out, text),
        },
        Some(b'[' | b'{') => json(out, text),
        // A number or a boolean: its JSON text as stored.
        _ => out.push_str(text),
    }
}

/// Appends string `s` as a cell: guarded, then escaped.
pub fn string(out: &mut String, s: &str) {
    if guarded(s) {
        out.push('\'');
    }
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => control(out, c),
            c => out.push(c),
        }
    }
}

/// Whether string `s` gets a `'` in front (see the module's documentation).
fn guarded(s: &str) -> bool {
    let first = s.trim_start_matches('\'').chars().next();
    first.is_some_and(|c| GUARDED.contains(&c)) && s != "+" && s != "-"
}

/// Appends JSON text `json` without the whitespace outside its strings and with every control
/// character inside them as a `\u00XX` escape (valid JSON text, read back by any JSON parser).
fn json(out: &mut String, json: &str) {
    let (mut in_str, mut esc) = (false, false);
    for ch in json.chars() {
        if in_str {
            if esc {
                esc = false;
            } else if ch == '\\' {
                esc = true;
            } else if ch == '"' {
                in_str = false;
            }
            if ch.is_control() {
                control(out, ch);
            } else {
                out.push(ch);
            }
        } else if ch == '"' {
            in_str = true;
            out.push(ch);
        } else if !ch.is_ascii_whitespace() {
            out.push(ch);
        }
    }
}

/// `\uXXXX` for control character `c` (C0, DEL and C1 are all below U+00A0).
fn control(out: &mut String, c: char) {
    let _ = write!(out, "\\u{:04x}", u32::from(c));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(json: &str) -> String {
        let raw: Box<RawValue> = serde_json::from_str(json).unwrap();
        let mut out = String::new();
        write(&mut out, Some(&raw));
        out
    }

    #[test]
    fn test_scalars_null_and_empty() {
        assert_eq!(cell("null"), "\\N");
        let mut absent = String::new();
        write(&mut absent, None);
        assert_eq!(absent, "\\N");
        assert_eq!(cell(r#""""#), "");
        assert_eq!(cell(r#""\\N""#), "\\\\N");
        // Numbers keep their stored text, negative ones included: numbers are never guarded.
        for n in ["5.0", "0.00001", "-0.25", "-3", "1e-300", "true", "false"] {
            assert_eq!(cell(n), n);
        }
    }

    #[test]
    fn test_every_control_character_is_escaped() {
        assert_eq!(cell(r#""a\tb\\c\nd\re""#), "a\\tb\\\\c\\nd\\re");
        for c in (0u32..0x20).chain(0x7f..0xa0) {
            let s = char::from_u32(c).unwrap().to_string();
            let want = match c {
                0x09 => "'\\t".to_string(),
                0x0a => "\\n".to_string(),
                0x0d => "'\\r".to_string(),
                _ => format!("\\u{c:04x}"),
            };
            let mut out = String::new();
            string(&mut out, &s);
            assert_eq!(out, want, "U+{c:04X}");
        }
        // ESC and NUL inside a value; characters above C1 are as they are.
        assert_eq!(cell(r#""x\u001b[31my\u0000é""#), "x\\u001b[31my\\u0000é");
    }

    #[test]
    fn test_formula_and_quote_guard() {
        for (value, want) in [
            ("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),
            ("+/+ (A)", "'+/+ (A)"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\"quoted\" name", "'\"quoted\" name"),
            ("[not json", "'[not json"),
            ("{not json", "'{not json"),
            // A run of quotes before a guarded character gets one more, so reading back (drop
            // one quote) is exact.
            ("'=x", "''=x"),
            // A lone strand, and quotes not before a guarded character, stay as they are.
            ("+", "+"),
            ("-", "-"),
            ("'5' UTR", "'5' UTR"),
            ("a=b", "a=b"),
        ] {
            let json = serde_json::to_string(value).unwrap();
            assert_eq!(cell(&json), want, "{value}");
        }
        let mut out = String::new();
        string(&mut out, "\tx");
        assert_eq!(out, "'\\tx");
    }

    #[test]
    fn test_arrays_and_objects_are_json_text() {
        assert_eq!(cell(r#"[ "a,b", "=c" ]"#), r#"["a,b","=c"]"#);
        assert_eq!(cell("[]"), "[]");
        assert_eq!(
            cell("{\"k\" : [1.50, null],\n \"t\": \"a\\tb\u{85}\u{7f}\"}"),
            r#"{"k":[1.50,null],"t":"a\tb\u0085\u007f"}"#
        );
        // The cell is JSON that parses back to the value.
        let v = r#"{"s":"x\u001b\"y","n":[1,"\\"]}"#;
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&cell(v)).unwrap(),
            serde_json::from_str::<serde_json::Value>(v).unwrap()
        );
    }
}
