//! Who may read answers from a browser: the origin policy (`--cors-origin`), applied in one
//! place to every answer, error or not, and to the preflight.
//!
//! A browser lets a page read a cross-origin answer only when the answer names the page's
//! origin (or `*`) in `Access-Control-Allow-Origin`. With `*`, any website a user visits can
//! read whatever the server answers that user's browser: for a catalog of unpublished data on
//! an intranet, any website visited from inside. A list of origins lets only those pages read;
//! `none` lets none (the server then serves browsers on its own origin and non-browser clients
//! alone). The policy guards reading only: the server has no side effects to guard.

use crate::http::value::Value;

/// The origin policy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Policy {
    /// Any origin may read (`*`, the IGVF Catalog's behaviour).
    #[default]
    Any,
    /// Only these origins (`scheme://host[:port]`, as browsers send them) may read.
    Listed(Vec<String>),
    /// No cross-origin page may read.
    None,
}

/// Whether an origin may read, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// The origin is listed by name.
    Explicitly,
    /// Only because the policy is `*`: a surface that must not be open to every website by
    /// default treats this as not allowed.
    ByWildcard,
    /// Not allowed (or no `Origin` was sent).
    No,
}

/// The request headers a preflight grants under a list of origins: those the server reads.
const GRANTED_HEADERS: &str = "Accept, Accept-Encoding, Content-Type, If-None-Match";

impl Policy {
    /// Parses `--cors-origin`: `*`, `none`, or a comma-separated list of origins.
    pub fn parse(s: &str) -> Result<Policy, String> {
        let s = s.trim();
        if s == "*" {
            return Ok(Policy::Any);
        }
        if s.eq_ignore_ascii_case("none") {
            return Ok(Policy::None);
        }
        let mut origins = Vec::new();
        for o in s.split(',').map(str::trim).filter(|o| !o.is_empty()) {
            let ok = ["http://", "https://"].iter().any(|p| {
                o.strip_prefix(p)
                    .is_some_and(|h| !h.is_empty() && !h.contains(['/', '?', '#', ' ']))
            });
            if !ok {
                return Err(format!(
                    "--cors-origin takes *, none, or origins like https://example.org separated \
                     by commas (no path, no trailing /), got {o:?}"
                ));
            }
            origins.push(o.to_ascii_lowercase());
        }
        if origins.is_empty() {
            return Err("--cors-origin is empty: give *, none, or a list of origins".into());
        }
        Ok(Policy::Listed(origins))
    }

    /// Whether a page of `origin` (the request's `Origin` header) may read answers.
    pub fn allows(&self, origin: Option<&str>) -> Allowed {
        match (self, origin) {
            (Policy::Any, _) => Allowed::ByWildcard,
            (Policy::Listed(list), Some(o)) if list.iter().any(|l| l.eq_ignore_ascii_case(o)) => {
                Allowed::Explicitly
            }
            _ => Allowed::No,
        }
    }

    /// The headers every answer to a request from `origin` carries (none when it may not
    /// read). An answer that depends on the origin says so (`Vary: Origin`).
    pub fn headers(&self, origin: Option<&str>) -> Vec<(&'static str, Value)> {
        let mut h = Vec::new();
        self.add_headers(origin, &mut h);
        h
    }

    /// Adds [`Policy::headers`] to `h`.
    pub fn add_headers(&self, origin: Option<&str>, h: &mut Vec<(&'static str, Value)>) {
        let allow = match self.allows(origin) {
            Allowed::ByWildcard => Some(Value::Static("*")),
            Allowed::Explicitly => Some(Value::Owned(origin.unwrap_or_default().to_string())),
            Allowed::No => None,
        };
        if let Some(allow) = allow {
            h.push(("Access-Control-Allow-Origin", allow));
            // Cross-origin scripts may read the paging links.
            h.push(("Access-Control-Expose-Headers", Value::Static("Link")));
        }
        h.extend(self.vary());
    }

    fn vary(&self) -> Option<(&'static str, Value)> {
        match self {
            Policy::Listed(_) => Some(("Vary", Value::Static("Origin"))),
            _ => None,
        }
    }

    /// The headers of the answer to a preflight (`OPTIONS`) from `origin` for a path that takes
    /// `methods`, asking to send `request_headers`: nothing is granted to an origin that may
    /// not read. Under `*` the headers asked for are granted as asked (as the IGVF Catalog
    /// does); under a list, only those the server reads.
    pub fn preflight(
        &self,
        origin: Option<&str>,
        methods: &str,
        request_headers: Option<&str>,
    ) -> Vec<(&'static str, Value)> {
        let allowed = self.allows(origin);
        if allowed == Allowed::No {
            return self.vary().into_iter().collect();
        }
        let mut h = self.headers(origin);
        h.retain(|(n, _)| *n != "Access-Control-Expose-Headers" && *n != "Vary");
        h.push(("Access-Control-Allow-Methods", methods.to_string().into()));
        h.push(("Access-Control-Max-Age", "86400".into()));
        match (allowed, request_headers) {
            (Allowed::ByWildcard, Some(rh)) => {
                h.push(("Access-Control-Allow-Headers", rh.to_string().into()));
                h.push(("Vary", "Access-Control-Request-Headers".into()));
            }
            (Allowed::Explicitly, _) => {
                h.push(("Access-Control-Allow-Headers", GRANTED_HEADERS.into()));
                h.push(("Vary", "Origin".into()));
            }
            _ => {}
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_parse() {
        assert_eq!(Policy::parse("*"), Ok(Policy::Any));
        assert_eq!(Policy::parse("none"), Ok(Policy::None));
        assert_eq!(
            Policy::parse("https://a.org, http://b.org:8080"),
            Ok(Policy::Listed(vec![
                "https://a.org".into(),
                "http://b.org:8080".into()
            ]))
        );
        assert!(Policy::parse("a.org").is_err());
        assert!(Policy::parse("https://a.org/").is_err());
        assert!(Policy::parse("").is_err());
        assert!(Policy::parse(",").is_err());
    }

    #[test]
    fn test_explicit_is_told_from_wildcard() {
        let listed = Policy::parse("https://lab.example").unwrap();
        assert_eq!(
            listed.allows(Some("https://lab.example")),
            Allowed::Explicitly
        );
        assert_eq!(listed.allows(Some("https://evil.example")), Allowed::No);
        assert_eq!(listed.allows(None), Allowed::No);
        assert_eq!(
            Policy::Any.allows(Some("https://evil.example")),
            Allowed::ByWildcard
        );
        assert_eq!(
            Policy::None.allows(Some("https://lab.example")),
            Allowed::No
        );
    }

    #[test]
    fn test_headers() {
        let listed = Policy::parse("https://lab.example").unwrap();
        let h = listed.headers(Some("https://lab.example"));
        assert!(h.contains(&("Access-Control-Allow-Origin", "https://lab.example".into())));
        assert!(h.contains(&("Vary", "Origin".into())));
        let h = listed.headers(Some("https://evil.example"));
        assert!(!h.iter().any(|(n, _)| n.starts_with("Access-Control")));
        assert!(Policy::None.headers(Some("https://x.org")).is_empty());
        let pre = listed.preflight(Some("https://lab.example"), "GET, POST", Some("x-evil"));
        assert!(pre.contains(&("Access-Control-Allow-Headers", GRANTED_HEADERS.into())));
        let pre = listed.preflight(Some("https://evil.example"), "GET", Some("content-type"));
        assert!(!pre.iter().any(|(n, _)| n.starts_with("Access-Control")));
    }
}
