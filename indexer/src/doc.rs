//! One input document whose members are parsed only when something reads them.
//!
//! Parsing a whole document into a `serde_json::Value` tree cost a third of a build: a
//! variant's FAVOR `annotations` alone has about 95 members, most of which no endpoint returns.
//! Here the top level is split into members that borrow their raw JSON text from the input
//! line, in document order. A member becomes a `Value` when a preparation hook or the encoder
//! asks for it, so dropped members are checked for syntax but never built.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// A document: its members in order, each raw (from the input text) or already a value.
pub struct Doc<'a> {
    members: Vec<Member<'a>>,
}

struct Member<'a> {
    name: Cow<'a, str>,
    raw: Option<&'a RawValue>,
    value: OnceCell<Value>,
}

impl Member<'_> {
    /// The member as a value; a raw member that is not a representable JSON value (a number
    /// beyond f64) is an error, reported by whoever needs the member.
    fn parsed(&self) -> Result<&Value, serde_json::Error> {
        if let Some(v) = self.value.get() {
            return Ok(v);
        }
        let raw = self.raw.map_or("null", RawValue::get);
        let v = serde_json::from_str(raw)?;
        Ok(self.value.get_or_init(|| v))
    }
}

/// Why a line is not a document.
#[derive(Debug)]
pub enum DocError {
    /// Valid JSON, but not an object.
    NotObject,
    /// Not valid JSON.
    Syntax(serde_json::Error),
}

impl fmt::Display for DocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DocError::NotObject => f.write_str("a document must be a JSON object"),
            DocError::Syntax(e) => write!(f, "invalid JSON: {e}"),
        }
    }
}

impl<'a> Doc<'a> {
    /// Splits the JSON object `text` into its members (a repeated name keeps its first place
    /// and its last value, as `serde_json::Map` does).
    pub fn parse(text: &'a str) -> Result<Doc<'a>, DocError> {
        let members = raw_members(text).map_err(|e| match e.classify() {
            serde_json::error::Category::Data => DocError::NotObject,
            _ => DocError::Syntax(e),
        })?;
        let mut doc = Doc {
            members: Vec::with_capacity(members.len()),
        };
        for (name, raw) in members {
            match doc.position(&name) {
                Some(i) => {
                    doc.members[i].raw = Some(raw);
                    doc.members[i].value = OnceCell::new();
                }
                None => doc.members.push(Member {
                    name,
                    raw: Some(raw),
                    value: OnceCell::new(),
                }),
            }
        }
        Ok(doc)
    }

    /// A document made of values (the derived tables' documents).
    pub fn from_map(map: Map<String, Value>) -> Doc<'static> {
        Doc {
            members: map
                .into_iter()
                .map(|(name, v)| Member {
                    name: Cow::Owned(name),
                    raw: None,
                    value: OnceCell::from(v),
                })
                .collect(),
        }
    }

    // Documents have tens of members: a scan is cheaper than hashing their names.
    fn position(&self, name: &str) -> Option<usize> {
        self.members.iter().position(|m| m.name == name)
    }

    /// Member `name`, parsed on first use (None when absent or unparsable).
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.members[self.position(name)?].parsed().ok()
    }

    /// The raw JSON text of member `name`, if it has not been replaced by a value.
    pub fn raw(&self, name: &str) -> Option<&'a RawValue> {
        self.members[self.position(name)?].raw
    }

    /// Sets member `name` (in its place when present, else last).
    pub fn insert(&mut self, name: String, v: Value) {
        match self.position(&name) {
            Some(i) => {
                self.members[i].raw = None;
                self.members[i].value = OnceCell::from(v);
            }
            None => self.members.push(Member {
                name: Cow::Owned(name),
                raw: None,
                value: OnceCell::from(v),
            }),
        }
    }

    /// The members in order, each as its name and a way to take its value.
    pub fn into_members(self) -> impl Iterator<Item = (Cow<'a, str>, Taken<'a>)> {
        self.members.into_iter().map(|m| {
            (
                m.name,
                Taken {
                    raw: m.raw,
                    value: m.value,
                },
            )
        })
    }
}

/// A member handed out by [`Doc::into_members`]: parsed only if [`Taken::value`] is called.
pub struct Taken<'a> {
    raw: Option<&'a RawValue>,
    value: OnceCell<Value>,
}

impl<'a> Taken<'a> {
    /// The member's JSON text as read (None once a preparation hook set its value).
    pub fn as_read(&self) -> Option<&'a str> {
        match self.value.get() {
            Some(_) => None,
            None => self.raw.map(RawValue::get),
        }
    }

    /// The member's value.
    pub fn value(self) -> Result<Value, serde_json::Error> {
        match self.value.into_inner() {
            Some(v) => Ok(v),
            None => serde_json::from_str(self.raw.map_or("null", RawValue::get)),
        }
    }
}

/// The members of a JSON object, in order, each as raw text borrowed from the object's text.
pub type RawMembers<'a> = Vec<(Cow<'a, str>, &'a RawValue)>;

/// The members of the JSON object `text`, in order, each borrowed from `text`. It takes a
/// `str`: parsing bytes, serde_json checks every string and raw member for UTF-8 again (3 % of
/// a build).
pub fn raw_members(text: &str) -> Result<RawMembers<'_>, serde_json::Error> {
    serde_json::from_str::<RawObject<'_>>(text).map(|o| o.0)
}

/// Member `name` of raw `members`: a repeated name counts with its last value, as in a parsed
/// object.
pub fn last_member<'a>(members: &RawMembers<'a>, name: &str) -> Option<&'a RawValue> {
    members.iter().rev().find(|(n, _)| n == name).map(|m| m.1)
}

struct RawObject<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

/// A member name, borrowed from the input unless it had escapes.
struct Name<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Name<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Name<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(s.to_string())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Deserialize<'de> for RawObject<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawObject<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<RawObject<'de>, A::Error> {
                let mut out = Vec::with_capacity(m.size_hint().unwrap_or(16));
                while let Some((k, v)) = m.next_entry::<Name<'de>, &'de RawValue>()? {
                    out.push((k.0, v));
                }
                Ok(RawObject(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn test_members_in_order_parsed_on_demand() {
        let text = r#"{"b": [1, 2], "a": {"x": 1e999}, "c": "t\u00e9", "b": 3}"#;
        let doc = Doc::parse(text).unwrap();
        assert_eq!(doc.get("b"), Some(&json!(3)));
        assert_eq!(doc.get("c"), Some(&json!("té")));
        assert_eq!(doc.raw("a").map(RawValue::get), Some(r#"{"x": 1e999}"#));
        // Out of f64's range: not a value, but only an error for whoever reads it.
        assert_eq!(doc.get("a"), None);
        let names: Vec<String> = doc.into_members().map(|(n, _)| n.into_owned()).collect();
        assert_eq!(names, ["b", "a", "c"]);
    }

    #[test]
    fn test_insert_replaces_in_place() {
        let mut doc = Doc::parse(r#"{"a": 1, "b": 2}"#).unwrap();
        doc.insert("a".into(), json!("x"));
        doc.insert("z".into(), json!(null));
        assert!(doc.raw("a").is_none());
        let members: Vec<(String, Value)> = doc
            .into_members()
            .map(|(n, t)| (n.into_owned(), t.value().unwrap()))
            .collect();
        assert_eq!(
            members,
            [
                ("a".to_string(), json!("x")),
                ("b".to_string(), json!(2)),
                ("z".to_string(), json!(null))
            ]
        );
    }

    #[test]
    fn test_errors() {
        assert_eq!(
            Doc::parse("[1]").err().unwrap().to_string(),
            "a document must be a JSON object"
        );
        assert!(Doc::parse(r#"{"a": "#)
            .err()
            .unwrap()
            .to_string()
            .starts_with("invalid JSON: "));
        assert!(Doc::parse(r#"{"a": 1} x"#)
            .err()
            .unwrap()
            .to_string()
            .starts_with("invalid JSON: "));
    }

    #[test]
    fn test_same_members_as_a_value_tree() {
        let text = r#"{"_key": "k", "n": 1.50, "s": "a\"b", "o": {"p": [null, true]}, "e": {}}"#;
        let doc = Doc::parse(text).unwrap();
        let got: Map<String, Value> = doc
            .into_members()
            .map(|(n, t)| (n.into_owned(), t.value().unwrap()))
            .collect();
        let want: Value = serde_json::from_str(text).unwrap();
        assert_eq!(Value::Object(got), want);
    }
}
