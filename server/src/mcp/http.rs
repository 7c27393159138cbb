//! The Streamable HTTP transport at `POST <base>/mcp` on `varcat serve`: one JSON-RPC message
//! per request, answered as `application/json` (202 without a body for a notification), no
//! session state (the catalog is read-only) and no event stream (`GET` is 405).
//!
//! The MCP specification requires the `Origin` of this transport to be checked, against DNS
//! rebinding: a request that carries an `Origin` other than the server's own host is refused,
//! whatever the CORS setting of the other routes.

use crate::cors::{Allowed, Policy};
use serde_json::Value;

use super::{code, error, Host, MAX_MESSAGE};
use crate::http::message::{ReqBody, Request, Response};
use crate::http::value::Value as HeaderValue;

/// The path below the base path.
pub const PATH: &str = "/mcp";

/// Whether `rest` (the path below the base path) is this transport's.
pub fn is(rest: &str) -> bool {
    rest == PATH || rest.strip_suffix('/') == Some(PATH)
}

/// The longest body read.
pub const MAX_BODY: usize = MAX_MESSAGE;

/// Whether a request with `origin` (its `Origin` header) to `host` (its `Host` header) may use
/// this transport under the server's origin policy `cors`: no `Origin` (not a browser), the
/// server's own origin, or an origin `--cors-origin` names. The MCP specification requires the
/// origin to be validated here (a web page must not drive a local agent's tools), so `*`, the
/// default for the read-only GET surface, does not extend to this transport.
pub fn origin_allowed(cors: &Policy, origin: Option<&str>, host: Option<&str>) -> bool {
    let Some(origin) = origin else {
        return true;
    };
    if cors.allows(Some(origin)) == Allowed::Explicitly {
        return true;
    }
    let Some((scheme, authority)) = origin.trim().split_once("://") else {
        return false;
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return false,
    };
    let norm = |a: &str| {
        let a = a.trim().trim_end_matches('/').to_ascii_lowercase();
        a.strip_suffix(default_port)
            .map(str::to_string)
            .unwrap_or(a)
    };
    host.is_some_and(|h| !h.trim().is_empty() && norm(h) == norm(authority))
}

fn json_response(status: u16, body: Option<&Value>, extra: &[(&'static str, &str)]) -> Response {
    let mut headers: Vec<(&'static str, HeaderValue)> = vec![("Cache-Control", "no-store".into())];
    headers.extend(extra.iter().map(|(n, v)| (*n, v.to_string().into())));
    let body = match body {
        Some(v) => {
            headers.push(("Content-Type", "application/json".into()));
            serde_json::to_vec(v).unwrap_or_default()
        }
        None => Vec::new(),
    };
    Response {
        status,
        headers,
        body,
    }
}

const ALLOW: (&str, &str) = ("Allow", "POST, OPTIONS");

/// Answers a request to this transport.
pub fn answer(app: &dyn Host, req: &Request<'_>) -> Response {
    if !origin_allowed(app.cors(), req.origin, req.host) {
        let e = error(
            Value::Null,
            code::INVALID_REQUEST,
            format!(
                "cross-origin request refused: Origin {} is not this server",
                req.origin.unwrap_or("")
            ),
        );
        return json_response(403, Some(&e), &[]);
    }
    match req.method {
        "OPTIONS" => return json_response(204, None, &[ALLOW]),
        "POST" => {}
        other => {
            let e = error(
                Value::Null,
                code::INVALID_REQUEST,
                format!("method {other} not allowed: POST one JSON-RPC message"),
            );
            return json_response(405, Some(&e), &[ALLOW]);
        }
    }
    let body = match req.body {
        ReqBody::Read(b) => b,
        ReqBody::TooLarge => {
            let e = error(
                Value::Null,
                code::INVALID_REQUEST,
                format!("message refused: the limit is {MAX_MESSAGE} bytes"),
            );
            return json_response(413, Some(&e), &[]);
        }
        ReqBody::Unread | ReqBody::Failed => {
            let e = error(Value::Null, code::PARSE_ERROR, "the body could not be read");
            return json_response(400, Some(&e), &[]);
        }
    };
    match app.mcp().answer(app, body) {
        Some(v) => json_response(200, Some(&v), &[]),
        None => json_response(202, None, &[]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_only_the_servers_own_origin_or_a_listed_one_is_allowed() {
        let any = Policy::Any;
        let allowed = |o, h| origin_allowed(&any, o, h);
        let host = Some("127.0.0.1:2023");
        assert!(allowed(None, host));
        assert!(allowed(Some("http://127.0.0.1:2023"), host));
        assert!(allowed(Some("HTTP://LOCALHOST"), Some("localhost:80")));
        // `*` does not extend to this transport.
        assert!(!allowed(Some("http://evil.example"), host));
        assert!(!allowed(Some("http://127.0.0.1:2024"), host));
        assert!(!allowed(Some("null"), host));
        assert!(!allowed(Some("http://127.0.0.1:2023"), None));
        let listed = Policy::parse("https://lab.example.org").unwrap();
        assert!(origin_allowed(
            &listed,
            Some("https://lab.example.org"),
            host
        ));
        assert!(!origin_allowed(&listed, Some("https://evil.example"), host));
    }
}
