//! A header's value without a copy per answer: text fixed in the program, text shared with the
//! catalog being served (its entity tag), or text made for this answer.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A header's value.
#[derive(Clone, Debug)]
pub enum Value {
    /// Fixed in the program (`application/json`, `no-cache`).
    Static(&'static str),
    /// Shared with longer-lived state (the catalog's entity tag).
    Shared(Arc<str>),
    /// Made for this answer (a `Link`, an origin echoed back).
    Owned(String),
}

impl Value {
    /// The value's text.
    pub fn as_str(&self) -> &str {
        match self {
            Value::Static(s) => s,
            Value::Shared(s) => s,
            Value::Owned(s) => s,
        }
    }
}

impl Deref for Value {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&'static str> for Value {
    fn from(s: &'static str) -> Value {
        Value::Static(s)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Owned(s)
    }
}

impl From<Arc<str>> for Value {
    fn from(s: Arc<str>) -> Value {
        Value::Shared(s)
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_every_kind_reads_as_its_text() {
        let shared: Arc<str> = Arc::from("W/\"1\"");
        for (v, text) in [
            (Value::from("no-cache"), "no-cache"),
            (Value::from(shared.clone()), "W/\"1\""),
            (Value::from(String::from("<a>")), "<a>"),
        ] {
            assert_eq!(v.as_str(), text);
            assert_eq!(v, text);
            assert_eq!(v.to_string(), text);
        }
        assert_eq!(Arc::strong_count(&shared), 1, "the shared text was kept");
    }
}
