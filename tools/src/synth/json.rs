//! A minimal JSON object writer producing the byte style of the IGVF adapters (Python's
//! `json.dumps`: `", "` between members, `": "` after keys, floats with a fractional part).

use std::fmt::Write;

/// Appends a JSON string literal.
pub fn push_str(b: &mut String, s: &str) {
    b.push('"');
    for c in s.chars() {
        match c {
            '"' => b.push_str("\\\""),
            '\\' => b.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(b, "\\u{:04x}", c as u32);
            }
            c => b.push(c),
        }
    }
    b.push('"');
}

/// Appends a float as Python prints it (`1.0`, `0.000204012`, `4.92793e-10`); non-finite → null.
pub fn push_f64(b: &mut String, v: f64) {
    if v.is_finite() {
        let _ = write!(b, "{v:?}");
    } else {
        b.push_str("null");
    }
}

/// One JSON object being written into a buffer; [`Obj::end`] closes it.
pub struct Obj<'a> {
    b: &'a mut String,
    first: bool,
}

impl<'a> Obj<'a> {
    /// Opens an object.
    pub fn new(b: &'a mut String) -> Obj<'a> {
        b.push('{');
        Obj { b, first: true }
    }

    fn key(&mut self, k: &str) -> &mut String {
        if !self.first {
            self.b.push_str(", ");
        }
        self.first = false;
        push_str(self.b, k);
        self.b.push_str(": ");
        self.b
    }

    /// A string member.
    pub fn s(&mut self, k: &str, v: &str) -> &mut Self {
        let b = self.key(k);
        push_str(b, v);
        self
    }

    /// A string member or null.
    pub fn os(&mut self, k: &str, v: Option<&str>) -> &mut Self {
        match v {
            Some(v) => self.s(k, v),
            None => self.null(k),
        }
    }

    /// An integer member.
    pub fn i(&mut self, k: &str, v: i64) -> &mut Self {
        let b = self.key(k);
        let _ = write!(b, "{v}");
        self
    }

    /// A float member.
    pub fn f(&mut self, k: &str, v: f64) -> &mut Self {
        let b = self.key(k);
        push_f64(b, v);
        self
    }

    /// A boolean member.
    pub fn b(&mut self, k: &str, v: bool) -> &mut Self {
        let b = self.key(k);
        b.push_str(if v { "true" } else { "false" });
        self
    }

    /// A null member.
    pub fn null(&mut self, k: &str) -> &mut Self {
        let b = self.key(k);
        b.push_str("null");
        self
    }

    /// A member whose value is already-serialised JSON.
    pub fn raw(&mut self, k: &str, json: &str) -> &mut Self {
        let b = self.key(k);
        b.push_str(json);
        self
    }

    /// An array-of-strings member.
    pub fn strs<S: AsRef<str>>(&mut self, k: &str, v: &[S]) -> &mut Self {
        let b = self.key(k);
        b.push('[');
        for (i, s) in v.iter().enumerate() {
            if i > 0 {
                b.push_str(", ");
            }
            push_str(b, s.as_ref());
        }
        b.push(']');
        self
    }

    /// A nested object member, written by `f`.
    pub fn obj(&mut self, k: &str, f: impl FnOnce(&mut Obj<'_>)) -> &mut Self {
        let b = self.key(k);
        let mut o = Obj::new(b);
        f(&mut o);
        o.end();
        self
    }

    /// Closes the object.
    pub fn end(self) {
        self.b.push('}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_obj_is_json() {
        let mut b = String::new();
        let mut o = Obj::new(&mut b);
        o.s("a", "x\"y")
            .i("n", 3)
            .f("f", 1.0)
            .f("g", 4.92793e-10)
            .null("z");
        o.strs("l", &["p", "q"]).obj("o", |o| {
            o.b("t", true);
        });
        o.end();
        assert_eq!(
            b,
            r#"{"a": "x\"y", "n": 3, "f": 1.0, "g": 4.92793e-10, "z": null, "l": ["p", "q"], "o": {"t": true}}"#
        );
        let v: serde_json::Value = serde_json::from_str(&b).unwrap();
        assert_eq!(v["a"], "x\"y");
    }
}
