//! The dispatcher: which kind of request this is ([`Kind`], decided from the method and path
//! alone), then one arm per kind. [`App::handle`] and [`App::answer`] are the entry points;
//! a panic in an arm is caught here.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use varcat_query::api::{self, llm_query, Routed};
use varcat_query::batch::is_batchable;
use varcat_query::endpoint::Endpoint;
use varcat_query::error::{ApiError, Issue};
use varcat_query::handler::Answer;

use crate::batch;
use crate::http::app::App;
use crate::http::endpoint;
use crate::http::loaded::Loaded;
use crate::http::message::{
    error_response, gzip, json_headers, method_error, methods, ok, origin_form, ReqBody, Request,
    Response,
};
use crate::mcp;
use crate::pages::{self, Page};

/// What a request asks for, in the order the kinds are told apart.
enum Kind {
    /// `{base}/mcp`: the MCP transport (its own methods, origin check and errors).
    Mcp,
    /// A CORS pre-flight, to any path.
    Options,
    /// `{base}/llm-query`: no language model here.
    LlmQuery,
    /// A page outside the endpoint table.
    Page(Page),
    /// `{base}/health`.
    Health,
    /// `{base}/__floor?bytes=N`, in a bench build only.
    #[cfg(feature = "bench-floor")]
    Floor(usize),
    /// `{base}/__floor/handler`: the handler clock's reading, in a bench build only.
    #[cfg(feature = "bench-floor")]
    HandlerClock,
    /// An endpoint of the table, with its path parameters.
    Endpoint(Routed),
    /// A path parameter that does not decode.
    BadPath(ApiError),
    /// Nothing here.
    NotFound,
}

impl App {
    /// Answers one request, whole. Never panics: a bug becomes a 500, or a 503 when the panic
    /// came from a catalog file changed in place under the mapping.
    pub fn handle(&self, req: &Request<'_>) -> Response {
        let (mut r, items) = self.answer(req);
        if let Some(items) = items {
            match items.collect() {
                Ok(body) if r.header("Content-Encoding") == Some("gzip") => r.body = gzip(&body),
                Ok(body) => r.body = body,
                Err(batch::Stopped(why)) => {
                    return error_response(&ApiError::unavailable(why.to_string()))
                }
            }
        }
        r
    }

    /// Answers one request as [`App::handle`] does, but a batch's body is left to come from the
    /// items returned with the head (the server streams them; the head's body is then empty,
    /// and its `Content-Encoding` says whether to compress them).
    pub fn answer(&self, req: &Request<'_>) -> (Response, Option<batch::Items>) {
        let mut stream = None;
        let r = guarded(
            req.url,
            || self.dispatch(req, &mut stream),
            || self.check_mapped_file(),
        );
        if r.status != 200 {
            stream = None;
        }
        let mut r = r;
        if req.method != "OPTIONS" {
            self.apply_cors(req.origin, &mut r);
        }
        (r, stream)
    }

    /// Whether the server must read the body of a `method` request to `url` (before
    /// [`App::handle`]): a POST to `/llm-query` or to a batchable endpoint, at most
    /// [`App::body_limit`] bytes.
    pub fn reads_body(&self, method: &str, url: &str) -> bool {
        method == "POST" && self.body_limit(url) > 0
    }

    /// The longest body a POST to `url` may have (0: the route takes none).
    pub fn body_limit(&self, url: &str) -> usize {
        let url = origin_form(url);
        let path = url.split(['?', '#']).next().unwrap_or("");
        match self.below_base(path) {
            Some(rest) if llm_query::is(rest) => llm_query::MAX_BODY,
            Some(rest) if mcp::http::is(rest) => mcp::http::MAX_BODY,
            Some(rest) if batchable(rest).is_some() => varcat_query::batch::MAX_BODY,
            _ => 0,
        }
    }

    /// The kind of a `method` request to `path` (with `query`).
    fn kind(&self, method: &str, path: &str, query: &str) -> Kind {
        let below = self.below_base(path);
        if below.is_some_and(mcp::http::is) {
            return Kind::Mcp;
        }
        if method == "OPTIONS" {
            return Kind::Options;
        }
        if below.is_some_and(llm_query::is) {
            return Kind::LlmQuery;
        }
        if let Some(page) = Page::of(path, &self.base_path) {
            return Kind::Page(page);
        }
        let Some(rest) = below else {
            return Kind::NotFound;
        };
        if rest == "/health" || rest == "/health/" {
            return Kind::Health;
        }
        #[cfg(feature = "bench-floor")]
        if let Some(n) = crate::http::floor::bytes(rest, query) {
            return Kind::Floor(n);
        }
        #[cfg(feature = "bench-floor")]
        if crate::http::floor::is_clock(rest) {
            return Kind::HandlerClock;
        }
        let _ = query;
        match api::route(rest) {
            None => Kind::NotFound,
            Some(Err(e)) => Kind::BadPath(e),
            Some(Ok(routed)) => Kind::Endpoint(routed),
        }
    }

    fn dispatch(&self, req: &Request<'_>, stream: &mut Option<batch::Items>) -> Response {
        let url = origin_form(req.url);
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let query = query.split('#').next().unwrap_or("");
        let (kind, loaded) = match self.kind(req.method, path, query) {
            Kind::Mcp => return mcp::http::answer(self, req),
            Kind::Options => return self.preflight(req, path),
            Kind::LlmQuery => return llm(req),
            kind => match self.serving() {
                Ok(loaded) => (kind, loaded),
                Err(why) => return error_response(&ApiError::unavailable(why.to_string())),
            },
        };
        match kind {
            Kind::Page(page) => self.page(req, page, &loaded, query),
            Kind::Health => health(req, &loaded),
            #[cfg(feature = "bench-floor")]
            Kind::Floor(n) => ok(req, loaded.etag.clone(), crate::http::floor::answer(n)),
            #[cfg(feature = "bench-floor")]
            Kind::HandlerClock => {
                use crate::http::floor::{clock_answer, HANDLER};
                ok(req, loaded.etag.clone(), clock_answer(&HANDLER))
            }
            Kind::Endpoint((ep, path_params)) => {
                endpoint::answer(req, loaded, ep, &path_params, (path, query), stream)
            }
            Kind::BadPath(e) => error_response(&e),
            Kind::NotFound | Kind::Mcp | Kind::Options | Kind::LlmQuery => {
                error_response(&ApiError::not_found(format!("no endpoint at {path}")))
            }
        }
    }

    /// A CORS pre-flight: the methods the path answers.
    fn preflight(&self, req: &Request<'_>, path: &str) -> Response {
        let below = self.below_base(path);
        let methods = if below.is_some_and(llm_query::is) {
            "POST, OPTIONS"
        } else {
            methods(below.and_then(batchable).is_some())
        };
        Response {
            status: 204,
            headers: self
                .cors()
                .preflight(req.origin, methods, req.cors_request_headers),
            body: Vec::new(),
        }
    }

    /// A page outside the endpoint table: GET and HEAD, revalidated (its entity tag changes
    /// with the catalog and with the binary).
    fn page(&self, req: &Request<'_>, page: Page, loaded: &Loaded, query: &str) -> Response {
        if let Some(e) = method_error(req.method) {
            return error_response(&e);
        }
        let answer = match pages::answer(page, &self.base_path, &self.openapi, loaded, query) {
            Ok(answer) => answer,
            // A redirect or an error page is answered as it is.
            Err(response) => return response,
        };
        let etag = format!(
            "{}-{}\"",
            loaded.etag.trim_end_matches('"'),
            env!("CARGO_PKG_VERSION")
        );
        ok(req, etag, answer)
    }
}

/// `{base}/health`: the catalog's state now, never from a cache (a reload changes it).
fn health(req: &Request<'_>, loaded: &Loaded) -> Response {
    if let Some(e) = method_error(req.method) {
        return error_response(&e);
    }
    let mut body = varcat_query::spare::body(loaded.health().len());
    body.extend_from_slice(loaded.health());
    let mut answer = Answer::from(body);
    answer.headers.push(("Cache-Control", "no-store".into()));
    ok(req, loaded.etag.clone(), answer)
}

impl mcp::Host for App {
    fn base_path(&self) -> &str {
        &self.base_path
    }

    fn handle(&self, req: &Request<'_>) -> Response {
        App::handle(self, req)
    }

    fn cors(&self) -> &crate::cors::Policy {
        App::cors(self)
    }

    fn mcp(&self) -> &mcp::Server {
        App::mcp(self)
    }
}

/// The endpoint at `rest` (below the base path) when it takes POST batches.
pub fn batchable(rest: &str) -> Option<&'static Endpoint> {
    match api::route(rest) {
        Some(Ok((ep, _))) if is_batchable(ep) => Some(ep),
        _ => None,
    }
}

/// `/llm-query`: a POST with a valid body gets 501 (no language model here); other methods 405
/// with `Allow: POST`.
fn llm(req: &Request<'_>) -> Response {
    let e = match (req.method, req.body) {
        ("POST", ReqBody::Read(b)) => match llm_query::check(b) {
            Ok(()) => {
                return Response {
                    status: 501,
                    headers: json_headers(&[("Cache-Control", "no-store")]),
                    body: llm_query::not_implemented_body(),
                }
            }
            Err(e) => e,
        },
        ("POST", ReqBody::TooLarge) => llm_query::too_large(),
        ("POST", ReqBody::Unread | ReqBody::Failed) => {
            ApiError::invalid(vec![Issue::general("the request body could not be read")])
        }
        (m, _) => llm_query::method_error(m),
    };
    let mut r = error_response(&e);
    for (name, v) in &mut r.headers {
        if *name == "Allow" {
            *v = llm_query::ALLOW.into();
        }
    }
    r
}

/// Runs `answer`; a panic in it (a bug) is logged and becomes a 500 with the error body, and the
/// calling worker lives on. A panic while `unreadable` gives a reason (the catalog's file was
/// rewritten under its mapping, so the bytes read were not the catalog's) is a 503 instead.
fn guarded(
    url: &str,
    answer: impl FnOnce() -> Response,
    unreadable: impl FnOnce() -> Option<Arc<str>>,
) -> Response {
    match catch_unwind(AssertUnwindSafe(answer)) {
        Ok(r) => r,
        Err(p) => {
            if let Some(why) = unreadable() {
                return error_response(&ApiError::unavailable(why.to_string()));
            }
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into());
            eprintln!("varcat: internal error answering {url}: {what}");
            error_response(&ApiError::internal(
                "internal error; the request has been logged",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_a_panicking_handler_is_answered_500_with_the_error_body() {
        let r = guarded("/api/x", || panic!("a bug"), || None);
        assert_eq!(r.status, 500);
        assert_eq!(r.header("Cache-Control"), Some("no-store"));
        let body: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(body["code"], "INTERNAL_SERVER_ERROR");
        // The thread that caught it goes on answering.
        let ok = guarded(
            "/api/y",
            || error_response(&ApiError::not_found("none")),
            || None,
        );
        assert_eq!(ok.status, 404);
    }
}
