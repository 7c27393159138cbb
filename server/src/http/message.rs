//! One request in, one response out: the parts of a request that matter, the response, and
//! what every answer shares (JSON headers, the error response, gzip, ETag and 304).

use std::borrow::Cow;
use std::io::Write;

use varcat_query::error::ApiError;
use varcat_query::handler::Answer;
use varcat_query::spare;

use crate::http::value::Value;

/// Bodies at least this long are gzip-compressed when the client accepts it.
pub const GZIP_MIN: usize = 1024;

/// The parts of a request that matter.
#[derive(Clone, Debug, Default)]
pub struct Request<'a> {
    /// Method.
    pub method: &'a str,
    /// Raw URL (path and query, still percent-encoded).
    pub url: &'a str,
    /// `Accept-Encoding`.
    pub accept_encoding: Option<&'a str>,
    /// `Accept` (TSV or JSON).
    pub accept: Option<&'a str>,
    /// `If-None-Match`.
    pub if_none_match: Option<&'a str>,
    /// `Access-Control-Request-Headers` (CORS pre-flight).
    pub cors_request_headers: Option<&'a str>,
    /// `Origin` (the page a browser sends the request for).
    pub origin: Option<&'a str>,
    /// The body, read only for a route that takes one ([`App::reads_body`]).
    pub body: ReqBody<'a>,
    /// `Host` (the MCP transport tells the server's own origin by it).
    pub host: Option<&'a str>,
}

/// A request's body as the server read it.
#[derive(Clone, Copy, Debug, Default)]
pub enum ReqBody<'a> {
    /// Not read (no route of this request takes one).
    #[default]
    Unread,
    /// The whole body.
    Read(&'a [u8]),
    /// Longer than the route reads: left unread (the connection is then closed).
    TooLarge,
    /// The read failed (the client stopped sending).
    Failed,
}

/// A response.
#[derive(Clone, Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Headers (besides Content-Length).
    pub headers: Vec<(&'static str, Value)>,
    /// Body (the server omits it for HEAD).
    pub body: Vec<u8>,
}

impl Response {
    /// The value of header `name`.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A response's header list.
pub type Headers = Vec<(&'static str, Value)>;

thread_local! {
    static HEADERS: std::cell::Cell<Headers> = const { std::cell::Cell::new(Vec::new()) };
}

/// An empty response header list: the thread's spare, given back by [`give_back`] once the
/// last answer was written (no allocation per answer).
fn spare_headers() -> Headers {
    HEADERS.with(std::cell::Cell::take)
}

/// Gives a written response's buffers back for the thread's next answer
/// ([`varcat_query::spare`] for the body).
pub fn give_back(r: Response) {
    let mut headers = r.headers;
    headers.clear();
    if headers.capacity() <= 64 {
        HEADERS.with(|spare| spare.set(headers));
    }
    spare::give_body(r.body);
}

/// The headers of a JSON answer, then `extra`.
pub fn json_headers(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, Value)> {
    let mut h = Vec::with_capacity(2 + extra.len() + CORS_ROOM);
    h.push(("Content-Type", Value::Static("application/json")));
    h.push(("Vary", Value::Static("Accept-Encoding")));
    h.extend(extra.iter().map(|&(n, v)| (n, Value::Static(v))));
    h
}

/// Room left in an answer's header list for the origin policy's headers (added last), so that
/// adding them does not move the list.
const CORS_ROOM: usize = 3;

/// The methods a path answers (`Allow`, CORS): POST too where batches are taken.
pub fn methods(batchable: bool) -> &'static str {
    if batchable {
        "GET, HEAD, POST, OPTIONS"
    } else {
        "GET, HEAD, OPTIONS"
    }
}

/// The response for an error.
pub fn error_response(e: &ApiError) -> Response {
    error_allowing(e, false)
}

/// The response for an error of a path that answers POST batches when `batchable` (its
/// `Allow` says so).
pub fn error_allowing(e: &ApiError, batchable: bool) -> Response {
    let mut headers = json_headers(&[("Cache-Control", "no-store")]);
    if e.status == 405 {
        headers.push(("Allow", Value::Static(methods(batchable))));
    }
    if e.status == 503 {
        headers.push(("Retry-After", Value::Static("1")));
    }
    Response {
        status: e.status,
        headers,
        body: e.body(),
    }
}

/// The response for an error (also used by the server for overload and oversize requests).
pub fn error(e: &ApiError) -> Response {
    error_response(e)
}

/// Whether an `Accept-Encoding` value accepts gzip.
pub fn accepts_gzip(h: Option<&str>) -> bool {
    h.is_some_and(|v| {
        v.split(',').any(|part| {
            let mut it = part.split(';');
            let coding = it.next().unwrap_or("").trim();
            let q0 = it.any(|p| {
                matches!(
                    p.trim().replace(' ', "").as_str(),
                    "q=0" | "q=0.0" | "q=0.00" | "q=0.000"
                )
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !q0
        })
    })
}

/// `body`, gzip-compressed.
pub fn gzip(body: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4),
        flate2::Compression::fast(),
    );
    enc.write_all(body).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

/// A 200 answer of `answer` (or 304 when the client has the entity `etag`), cacheable but
/// revalidated.
pub fn ok(req: &Request<'_>, etag: impl Into<Value>, mut answer: Answer) -> Response {
    let etag = etag.into();
    let not_modified = req.if_none_match.is_some_and(|v| {
        v.split(',').any(|t| {
            let t = t.trim();
            t == &*etag || t == "*" || t == &etag[2..]
        })
    });
    let gzip_body =
        !not_modified && answer.body.len() >= GZIP_MIN && accepts_gzip(req.accept_encoding);
    let answers = |name: &str| answer.headers.iter().any(|(n, _)| *n == name);
    let mut headers = spare_headers();
    headers.reserve(5 + answer.headers.len() + CORS_ROOM);
    // The answer's own Content-Type, Cache-Control or Vary replaces the default; a 304 has no
    // Content-Type.
    if !not_modified && !answers("Content-Type") {
        headers.push(("Content-Type", Value::Static("application/json")));
    }
    if !answers("Vary") {
        headers.push(("Vary", Value::Static("Accept-Encoding")));
    }
    // A cache may keep an answer but must revalidate it (a 304 costs little): after a
    // reload the ETag changes and the new catalog's answer comes.
    if !answers("Cache-Control") {
        headers.push(("Cache-Control", Value::Static("no-cache")));
    }
    headers.push(("ETag", etag));
    headers.extend(
        answer
            .headers
            .drain(..)
            .filter(|(n, _)| !(not_modified && *n == "Content-Type"))
            .map(|(n, v)| match v {
                Cow::Borrowed(v) => (n, Value::Static(v)),
                Cow::Owned(v) => (n, Value::Owned(v)),
            }),
    );
    spare::give_headers(answer.headers);
    if not_modified {
        spare::give_body(answer.body);
        return Response {
            status: 304,
            headers,
            body: Vec::new(),
        };
    }
    if gzip_body {
        headers.push(("Content-Encoding", Value::Static("gzip")));
        let body = gzip(&answer.body);
        spare::give_body(answer.body);
        return Response {
            status: 200,
            headers,
            body,
        };
    }
    Response {
        status: 200,
        headers,
        body: answer.body,
    }
}

/// The error of a method other than GET and HEAD.
pub fn method_error(method: &str) -> Option<ApiError> {
    (method != "GET" && method != "HEAD").then(|| ApiError::method(method))
}

/// The origin form (`/path?query`) of a request target; an absolute-form target
/// (`http://host/path?query`, which a client talking to a proxy sends) is routed by its path.
pub fn origin_form(url: &str) -> &str {
    let Some(rest) = ["http://", "https://"]
        .iter()
        .find(|s| {
            url.get(..s.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(s))
        })
        .map(|s| &url[s.len()..])
    else {
        return url;
    };
    match rest.find(['/', '?']) {
        Some(i) if rest.as_bytes()[i] == b'/' => &rest[i..],
        // No path: the root, with the query if any.
        Some(i) => &rest[i..],
        None => "/",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_origin_form() {
        assert_eq!(origin_form("/api/health"), "/api/health");
        assert_eq!(
            origin_form("http://h:2023/api/health?x=1"),
            "/api/health?x=1"
        );
        assert_eq!(origin_form("HTTPS://h/api"), "/api");
        assert_eq!(origin_form("http://h"), "/");
        assert_eq!(origin_form("http://h?x"), "?x");
        assert_eq!(origin_form("httpx"), "httpx");
    }

    #[test]
    fn test_accepts_gzip() {
        assert!(accepts_gzip(Some("gzip, deflate, br")));
        assert!(accepts_gzip(Some("br;q=1.0, gzip;q=0.8")));
        assert!(accepts_gzip(Some("*")));
        assert!(!accepts_gzip(Some("gzip;q=0")));
        assert!(!accepts_gzip(Some("br")));
        assert!(!accepts_gzip(None));
    }
}
