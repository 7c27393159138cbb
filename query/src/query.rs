//! Layer 1 of query parsing: the raw query string → decoded (name, value) pairs.
//!
//! `+` and `%20` decode to a space; an invalid percent escape or a value that is not UTF-8 is
//! an error naming the parameter (IGVF keeps such bytes literally, which hides client bugs).
//! Values are trimmed and an empty value counts as absent. More than [`MAX_PARAMS`] parameters,
//! or one given twice, is an error. Typed checks happen in [`crate::params`].

use std::borrow::Cow;

use crate::error::{ApiError, Issue};

/// Most parameters a request may carry.
pub const MAX_PARAMS: usize = 64;

/// Decoded query parameters, in request order, empty values removed; a name or value with
/// nothing to decode is borrowed from the query string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawQuery<'q> {
    /// (name, trimmed non-empty value).
    pub pairs: Vec<(Cow<'q, str>, Cow<'q, str>)>,
}

/// Percent-decodes one component (`plus_is_space` for query strings).
pub fn percent_decode(s: &str, plus_is_space: bool) -> Result<String, &'static str> {
    decode(s, plus_is_space).map(Cow::into_owned)
}

/// [`percent_decode`], borrowing `s` when there is nothing to decode in it.
pub fn decode(s: &str, plus_is_space: bool) -> Result<Cow<'_, str>, &'static str> {
    let b = s.as_bytes();
    if !b.iter().any(|&c| c == b'%' || (plus_is_space && c == b'+')) {
        return Ok(Cow::Borrowed(s));
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = |c: u8| (c as char).to_digit(16);
                match (
                    b.get(i + 1).copied().and_then(hex),
                    b.get(i + 2).copied().and_then(hex),
                ) {
                    (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
                    _ => return Err("invalid percent-encoding"),
                }
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out)
        .map(Cow::Owned)
        .map_err(|_| "not valid UTF-8 after percent-decoding")
}

impl<'q> RawQuery<'q> {
    /// Parses the part of a URL after `?` (without the `?`).
    pub fn parse(query: &'q str) -> Result<RawQuery<'q>, ApiError> {
        let mut pairs: Vec<(Cow<'q, str>, Cow<'q, str>)> = Vec::new();
        let mut issues = Vec::new();
        let mut count = 0;
        for part in query.split('&') {
            if part.is_empty() {
                continue;
            }
            count += 1;
            if count > MAX_PARAMS {
                return Err(ApiError::invalid(vec![Issue::general(format!(
                    "too many parameters: at most {MAX_PARAMS} are accepted"
                ))]));
            }
            let (raw_name, raw_value) = part.split_once('=').unwrap_or((part, ""));
            let name = match decode(raw_name, true) {
                Ok(n) => n,
                Err(why) => {
                    issues.push(Issue::general(format!(
                        "a parameter name is {why}: {raw_name:?}"
                    )));
                    continue;
                }
            };
            let value = match decode(raw_value, true) {
                Ok(v) => v,
                Err(why) => {
                    issues.push(Issue::param(
                        &name,
                        format!("{name} is {why}: {raw_value:?}"),
                    ));
                    continue;
                }
            };
            let value = match value {
                Cow::Borrowed(v) => Cow::Borrowed(v.trim()),
                Cow::Owned(v) if v.trim().len() == v.len() => Cow::Owned(v),
                Cow::Owned(v) => Cow::Owned(v.trim().to_string()),
            };
            if value.is_empty() {
                continue;
            }
            if pairs.iter().any(|(n, _)| *n == name) {
                if !issues.iter().any(|i: &Issue| i.path == [&*name]) {
                    issues.push(Issue::param(
                        &name,
                        format!("{name} is given more than once"),
                    ));
                }
                continue;
            }
            pairs.push((name, value));
        }
        if issues.is_empty() {
            Ok(RawQuery { pairs })
        } else {
            Err(ApiError::invalid(issues))
        }
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_decoding() {
        let q = RawQuery::parse("a=1&b=x+y&c=x%20y&d=&e=%20%20&f=%C3%A9&g").unwrap();
        assert_eq!(
            q.pairs,
            vec![
                ("a".into(), "1".into()),
                ("b".into(), "x y".into()),
                ("c".into(), "x y".into()),
                ("f".into(), "é".into())
            ]
        );
    }

    #[test]
    fn test_errors() {
        let e = RawQuery::parse("a=%zz&b=%FF").unwrap_err();
        assert_eq!(e.issues.len(), 2);
        assert_eq!(e.issues[0].path, vec!["a"]);
        assert!(e.issues[1].message.contains("UTF-8"));
        let e = RawQuery::parse("a=1&a=2&a=3").unwrap_err();
        assert_eq!(e.message, "a is given more than once");
        let many: Vec<String> = (0..65).map(|i| format!("p{i}=1")).collect();
        assert!(RawQuery::parse(&many.join("&"))
            .unwrap_err()
            .message
            .contains("at most 64"));
        // An empty duplicate is not a repeat: empty values are absent.
        assert!(RawQuery::parse("a=1&a=").is_ok());
    }
}
