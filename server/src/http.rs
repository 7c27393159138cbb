//! The HTTP surface, independent of the server library: one request in, one response out.
//! `varcat serve` and `varcat query` both answer through [`App::handle`].

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use serde_json::json;
use varcat_format::collection::Collections;
use varcat_format::{Catalog, ReadError};

use crate::batch;
use crate::cors;
use crate::landing;
use crate::openapi;
use crate::view;
use varcat_query::api;
use varcat_query::endpoint::{Answer, Body, Ctx, Endpoint};
use varcat_query::error::ApiError;
use varcat_query::link;
use varcat_query::params::{self, Format};
use varcat_query::query::RawQuery;
use varcat_query::tsv;

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
    pub headers: Vec<(&'static str, String)>,
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

/// A loaded catalog and what is derived from it once.
pub struct Loaded {
    /// The collections.
    pub cat: Collections,
    /// Weak entity tag: the catalog checksum.
    pub etag: String,
    /// Where it was loaded from.
    pub path: Option<PathBuf>,
    /// The `/api/health` body: it depends on the catalog alone, so it is made once.
    health: Vec<u8>,
    /// Size and modification time of the mapped file when it was opened.
    mapped: Option<FileStamp>,
    /// Set once its file was changed in place: why nothing more is read from it.
    gone: std::sync::OnceLock<Arc<str>>,
}

/// Size and modification time of an open file: what a rewrite in place changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStamp {
    /// Size in bytes.
    pub len: u64,
    /// Modification time (seconds, nanoseconds).
    pub mtime: (i64, i64),
}

impl FileStamp {
    /// The stamp of an open file (`fstat` of its descriptor).
    pub fn of(file: &std::fs::File) -> Option<FileStamp> {
        use std::os::unix::fs::MetadataExt;
        let m = file.metadata().ok()?;
        Some(FileStamp {
            len: m.size(),
            mtime: (m.mtime(), m.mtime_nsec()),
        })
    }
}

impl Loaded {
    /// Opens (and unless `no_verify`, verifies every checksum of) the catalog at `path`.
    pub fn open(path: &std::path::Path, verify: bool) -> Result<Loaded, ReadError> {
        let catalog = Catalog::open(path)?;
        if verify {
            catalog.verify()?;
        }
        Loaded::from_catalog(catalog, Some(path.to_path_buf()))
    }

    /// Wraps an opened catalog.
    pub fn from_catalog(catalog: Catalog, path: Option<PathBuf>) -> Result<Loaded, ReadError> {
        let etag = format!("W/\"{:016x}\"", catalog.checksum());
        let mut loaded = Loaded {
            cat: Collections::open(catalog)?,
            etag,
            path,
            health: Vec::new(),
            mapped: None,
            gone: std::sync::OnceLock::new(),
        };
        loaded.mapped = loaded.cat.catalog.file().and_then(FileStamp::of);
        loaded.health = health(&loaded);
        Ok(loaded)
    }
}

impl Loaded {
    /// How the mapped file was changed in place since it was opened (truncated, extended or
    /// rewritten), from `fstat` of its descriptor, not of the path: a file renamed over the
    /// path leaves the mapped one intact, while `cp` or `truncate` on the path change it
    /// under the mapping, whose pages past the new end fault (SIGBUS) when read.
    pub fn changed_in_place(&self) -> Option<String> {
        let (was, file) = (self.mapped?, self.cat.catalog.file()?);
        let now = FileStamp::of(file)?;
        let name = self
            .path
            .as_deref()
            .map_or_else(|| "the catalog".into(), |p| p.display().to_string());
        if now.len != was.len {
            Some(format!(
                "the catalog file {name} was changed in place while served ({} from {} to {} \
                 bytes); answering again once a valid catalog is at that path",
                if now.len < was.len {
                    "truncated"
                } else {
                    "resized"
                },
                was.len,
                now.len
            ))
        } else if now.mtime != was.mtime {
            Some(format!(
                "the catalog file {name} was changed in place while served (rewritten); \
                 answering again once a valid catalog is at that path"
            ))
        } else {
            None
        }
    }

    /// Why nothing more is read from this catalog (its file was changed in place), if so.
    pub fn gone(&self) -> Option<Arc<str>> {
        self.gone.get().cloned()
    }

    /// Stops reading this catalog: requests that would read it are answered 503 with `why`,
    /// and batch answers in progress end. False when it was already stopped.
    pub fn take_down(&self, why: &str) -> bool {
        self.gone.set(why.into()).is_ok()
    }

    /// Stops reading this catalog if its file was changed in place (logging why once); why,
    /// if it is stopped.
    pub fn check_mapped_file(&self) -> Option<Arc<str>> {
        if let Some(why) = self.changed_in_place() {
            if self.take_down(&why) {
                eprintln!("varcat: {why}");
            }
        }
        self.gone()
    }
}

/// The application: the current catalog and the HTTP options.
pub struct App {
    current: RwLock<Arc<Loaded>>,
    /// Path prefix of the API (`/api`).
    pub base_path: String,
    /// The OpenAPI document (it depends on the base path only), serialised once.
    openapi: Vec<u8>,
    /// Who may read answers from a browser.
    cors: cors::Policy,
    /// The MCP server (`POST <base>/mcp`, and `varcat mcp` on stdio).
    mcp: crate::mcp::Server,
}

/// The pages outside the endpoint table.
enum Page {
    /// `/openapi.json` (also below the base path).
    OpenApi,
    /// `/`: the landing page.
    Landing,
    /// `/view`: the region viewer.
    View,
}

fn json_headers(extra: &[(&'static str, String)]) -> Vec<(&'static str, String)> {
    let mut h = vec![
        ("Content-Type", "application/json".to_string()),
        ("Vary", "Accept-Encoding".to_string()),
    ];
    h.extend_from_slice(extra);
    h
}

/// The methods a path answers (`Allow`, CORS): POST too where batches are taken.
fn methods(batchable: bool) -> &'static str {
    if batchable {
        "GET, HEAD, POST, OPTIONS"
    } else {
        "GET, HEAD, OPTIONS"
    }
}

fn error_response(e: &ApiError) -> Response {
    error_allowing(e, false)
}

fn error_allowing(e: &ApiError, batchable: bool) -> Response {
    let mut extra = vec![("Cache-Control", "no-store".to_string())];
    if e.status == 405 {
        extra.push(("Allow", methods(batchable).to_string()));
    }
    if e.status == 503 {
        extra.push(("Retry-After", "1".to_string()));
    }
    Response {
        status: e.status,
        headers: json_headers(&extra),
        body: e.body(),
    }
}

/// The response for an error (also used by the server for overload and oversize requests).
pub fn error(e: &ApiError) -> Response {
    error_response(e)
}

fn accepts_gzip(h: Option<&str>) -> bool {
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

fn gzip(body: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4),
        flate2::Compression::fast(),
    );
    enc.write_all(body).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

impl App {
    /// An application serving `loaded` under `base_path`.
    pub fn new(loaded: Loaded, base_path: &str) -> App {
        let base_path = base_path.trim_end_matches('/').to_string();
        let openapi =
            serde_json::to_vec(&openapi::document(&base_path)).expect("the document serialises");
        App {
            current: RwLock::new(Arc::new(loaded)),
            base_path,
            openapi,
            cors: cors::Policy::Any,
            mcp: crate::mcp::Server::new(),
        }
    }

    /// The MCP server answering from this application.
    pub fn mcp(&self) -> &crate::mcp::Server {
        &self.mcp
    }

    /// The application under origin policy `cors` (`*` unless told).
    pub fn with_cors(mut self, cors: cors::Policy) -> App {
        self.cors = cors;
        self
    }

    /// The origin policy: every HTTP surface of the server applies this one.
    pub fn cors(&self) -> &cors::Policy {
        &self.cors
    }

    /// Adds the origin policy's headers for a request from `origin` to `r` (an answer made
    /// outside [`App::answer`], as the server's own 414, 431 and 503 answers).
    pub fn apply_cors(&self, origin: Option<&str>, r: &mut Response) {
        r.headers.extend(self.cors.headers(origin));
    }

    /// `path` below the base path (None when it is not below it).
    fn below_base<'p>(&self, path: &'p str) -> Option<&'p str> {
        path.strip_prefix(self.base_path.as_str())
            .filter(|r| r.is_empty() || r.starts_with('/'))
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
            Some(rest) if api::llm_query::is(rest) => api::llm_query::MAX_BODY,
            Some(rest) if crate::mcp::http::is(rest) => crate::mcp::http::MAX_BODY,
            Some(rest) if batchable(rest).is_some() => varcat_query::batch::MAX_BODY,
            _ => 0,
        }
    }

    /// Which page outside the endpoint table `path` asks for, if any.
    fn page(&self, path: &str) -> Option<Page> {
        let below = path.strip_prefix(self.base_path.as_str());
        if path == "/openapi.json" || below == Some("/openapi.json") {
            Some(Page::OpenApi)
        } else if matches!(path, "/" | "/index.html") {
            Some(Page::Landing)
        } else if path == view::PATH {
            Some(Page::View)
        } else {
            None
        }
    }

    /// The catalog loaded last (a request keeps its Arc to the end), even when it is not read
    /// ([`Loaded::gone`]).
    pub fn current(&self) -> Arc<Loaded> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The catalog to answer from, or why none may be read now.
    pub fn serving(&self) -> Result<Arc<Loaded>, Arc<str>> {
        let loaded = self.current();
        match loaded.gone() {
            Some(why) => Err(why),
            None => Ok(loaded),
        }
    }

    /// Why the catalog is not read now (its file was changed in place), if it is not.
    pub fn unavailable(&self) -> Option<Arc<str>> {
        self.current().gone()
    }

    /// Replaces the catalog (and reads again if it was stopped); requests in flight finish on
    /// the old one.
    pub fn replace(&self, loaded: Loaded) {
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(loaded);
    }

    /// Stops reading the catalog if its file was changed in place; the reason, if it is
    /// stopped.
    pub fn check_mapped_file(&self) -> Option<Arc<str>> {
        self.current().check_mapped_file()
    }

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
            || self.handle_inner(req, &mut stream),
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

    fn handle_inner(&self, req: &Request<'_>, stream: &mut Option<batch::Items>) -> Response {
        let url = origin_form(req.url);
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let query = query.split('#').next().unwrap_or("");
        let llm = self.below_base(path).is_some_and(api::llm_query::is);
        if self.below_base(path).is_some_and(crate::mcp::http::is) {
            return crate::mcp::http::answer(self, req);
        }
        if req.method == "OPTIONS" {
            let methods = if llm {
                "POST, OPTIONS"
            } else {
                methods(self.below_base(path).and_then(batchable).is_some())
            };
            let h = self
                .cors
                .preflight(req.origin, methods, req.cors_request_headers);
            return Response {
                status: 204,
                headers: h,
                body: Vec::new(),
            };
        }
        if llm {
            return llm_query(req);
        }
        let loaded = match self.serving() {
            Ok(loaded) => loaded,
            Err(why) => return error_response(&ApiError::unavailable(why.to_string())),
        };
        if let Some(page) = self.page(path) {
            if let Some(e) = method_error(req.method) {
                return error_response(&e);
            }
            let answer = match page {
                Page::OpenApi => Answer::from(self.openapi.clone()),
                Page::Landing => Answer {
                    body: landing::page(&self.base_path, &loaded),
                    headers: vec![("Content-Type", "text/html; charset=utf-8".into())],
                    more: None,
                },
                // A redirect or an error page is answered as it is.
                Page::View => match view::answer(&loaded.cat, &self.base_path, query) {
                    Ok(answer) => answer,
                    Err(response) => return response,
                },
            };
            // The pages also change with the binary, not only with the catalog.
            let etag = format!(
                "{}-{}\"",
                loaded.etag.trim_end_matches('"'),
                env!("CARGO_PKG_VERSION")
            );
            return self.ok(req, &etag, answer);
        }
        let Some(rest) = self.below_base(path) else {
            return error_response(&ApiError::not_found(format!("no endpoint at {path}")));
        };
        let body = if rest == "/health" || rest == "/health/" {
            if let Some(e) = method_error(req.method) {
                return error_response(&e);
            }
            // The catalog's state now: never from a cache (a reload changes it).
            let mut answer = Answer::from(loaded.health.clone());
            answer.headers.push(("Cache-Control", "no-store".into()));
            Ok(answer)
        } else if let Some(n) = bench_floor(rest, query) {
            // A fixed body of n bytes, answered through the same path as an endpoint.
            let mut body = vec![b' '; n];
            (body[0], body[n - 1]) = (b'[', b']');
            Ok(body.into())
        } else {
            match api::route(rest) {
                None => {
                    return error_response(&ApiError::not_found(format!("no endpoint at {path}")))
                }
                Some(Err(e)) => Err(e),
                Some(Ok((ep, path_params))) => {
                    let batchable = varcat_query::batch::is_batchable(ep);
                    if req.method == "POST" && batchable {
                        return self.batch(req, loaded, ep, &path_params, query, stream);
                    }
                    if let Some(mut e) = method_error(req.method) {
                        if batchable {
                            e.message += " (or POST, for a batch)";
                        }
                        return error_allowing(&e, batchable);
                    }
                    let p = RawQuery::parse(query)
                        .and_then(|raw| params::parse(&ep.accepts, &raw, &path_params));
                    return match p {
                        Ok(p) => self.endpoint(req, &loaded, ep, &p, (path, query)),
                        Err(e) => error_response(&e),
                    };
                }
            }
        };
        match body {
            Err(e) => error_response(&e),
            Ok(answer) => self.ok(req, &loaded.etag, answer),
        }
    }

    /// Runs endpoint `ep` for `p` and answers in the representation asked for (JSON, or TSV by
    /// `format=tsv` or `Accept`), with a `Link` header on a page of a paged endpoint.
    fn endpoint(
        &self,
        req: &Request<'_>,
        loaded: &Loaded,
        ep: &Endpoint,
        p: &params::Params,
        (path, query): (&str, &str),
    ) -> Response {
        let has_tsv = tsv::available(ep.body);
        let want_tsv =
            match p.format {
                Some(Format::Tsv) if !has_tsv => return error_response(&ApiError::param(
                    "format",
                    "format=tsv is not available on this endpoint (its answer is not a list of \
                     records)",
                )),
                Some(Format::Tsv) => true,
                Some(Format::Json) => false,
                None => has_tsv && tsv::accepts_tsv(req.accept),
            };
        let mut answer = match (ep.run)(&Ctx { cat: &loaded.cat }, p) {
            Ok(a) => a,
            Err(e) => return error_response(&e),
        };
        if let Some(l) = link::of_answer(ep, &answer, path, query, p.page) {
            answer.headers.push(("Link", l));
        }
        if has_tsv {
            answer
                .headers
                .push(("Vary", "Accept, Accept-Encoding".to_string()));
        }
        // The column plan is made only for a TSV answer (JSON answers pay nothing for it).
        let plan = want_tsv
            .then(|| tsv::Plan::of_body(ep.body, p.verbose))
            .flatten();
        let Some(plan) = plan else {
            return self.ok(req, &loaded.etag, answer);
        };
        match plan.transcode(&answer.body, matches!(ep.body, Body::Object(_))) {
            Some(body) => {
                answer.body = body;
                answer
                    .headers
                    .push(("Content-Type", tsv::CONTENT_TYPE.into()));
                // Its own entity tag: a cache must not answer a TSV request with the JSON.
                let etag = format!("{}-tsv\"", loaded.etag.trim_end_matches('"'));
                self.ok(req, &etag, answer)
            }
            None => {
                debug_assert!(false, "{}: the answer is not its declared body", ep.path);
                self.ok(req, &loaded.etag, answer)
            }
        }
    }

    /// A POST batch ([`batch`]): never cached (no ETag), gzip as a GET's. The head is answered
    /// here; the items follow in `stream`.
    fn batch(
        &self,
        req: &Request<'_>,
        loaded: Arc<Loaded>,
        ep: &'static Endpoint,
        path_params: &[(&'static str, String)],
        query: &str,
        stream: &mut Option<batch::Items>,
    ) -> Response {
        let items = match req.body {
            ReqBody::Read(b) => batch::start(loaded, ep, path_params, query, b),
            ReqBody::TooLarge => Err(ApiError::too_large(
                413,
                format!(
                    "request body larger than {} bytes",
                    varcat_query::batch::MAX_BODY
                ),
            )),
            ReqBody::Unread | ReqBody::Failed => Err(ApiError::invalid(vec![
                varcat_query::error::Issue::general("the request body could not be read"),
            ])),
        };
        match items {
            Ok(items) => *stream = Some(items),
            Err(e) => return error_allowing(&e, true),
        }
        let mut headers = json_headers(&[("Cache-Control", "no-store".to_string())]);
        if accepts_gzip(req.accept_encoding) {
            headers.push(("Content-Encoding", "gzip".to_string()));
        }
        Response {
            status: 200,
            headers,
            body: Vec::new(),
        }
    }

    fn ok(&self, req: &Request<'_>, etag: &str, answer: Answer) -> Response {
        // A cache may keep an answer but must revalidate it (a 304 costs little): after a
        // reload the ETag changes and the new catalog's answer comes.
        let mut headers = json_headers(&[
            ("Cache-Control", "no-cache".to_string()),
            ("ETag", etag.to_string()),
        ]);
        for name in ["Content-Type", "Cache-Control", "Vary"] {
            if answer.headers.iter().any(|(n, _)| *n == name) {
                headers.retain(|(n, _)| *n != name);
            }
        }
        headers.extend(answer.headers);
        let body = answer.body;
        let not_modified = req.if_none_match.is_some_and(|v| {
            v.split(',')
                .any(|t| t.trim() == etag || t.trim() == "*" || t.trim() == &etag[2..])
        });
        if not_modified {
            headers.retain(|(n, _)| *n != "Content-Type");
            return Response {
                status: 304,
                headers,
                body: Vec::new(),
            };
        }
        ok_response(req, headers, body)
    }
}

/// A 200 answer, gzip-compressed when it is long enough and the client accepts it.
fn ok_response(
    req: &Request<'_>,
    mut headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
) -> Response {
    if body.len() >= GZIP_MIN && accepts_gzip(req.accept_encoding) {
        headers.push(("Content-Encoding", "gzip".to_string()));
        return Response {
            status: 200,
            headers,
            body: gzip(&body),
        };
    }
    Response {
        status: 200,
        headers,
        body,
    }
}

/// The current time as an HTTP date (`Wed, 25 Nov 2026 21:15:00 GMT`), formatted once a second
/// per thread.
pub fn date_now() -> String {
    thread_local! {
        static LAST: std::cell::RefCell<(u64, String)> = const { std::cell::RefCell::new((u64::MAX, String::new())) };
    }
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    LAST.with(|l| {
        let mut l = l.borrow_mut();
        if l.0 != secs {
            *l = (secs, http_date(secs));
        }
        l.1.clone()
    })
}

/// `secs` since the Unix epoch as an HTTP date (IMF-fixdate, RFC 9110 §5.6.7).
fn http_date(secs: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = secs / 86_400;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{}, {day:02} {} {year} {:02}:{:02}:{:02} GMT",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1) as usize],
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The origin form (`/path?query`) of a request target; an absolute-form target
/// (`http://host/path?query`, which a client talking to a proxy sends) is routed by its path.
fn origin_form(url: &str) -> &str {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let Some(rest) = ["http://", "https://"]
        .iter()
        .find(|s| lower.starts_with(*s))
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

/// Benchmark aid, off unless the server runs with `VARCAT_BENCH_FLOOR=1` in its environment:
/// `GET {base}/__floor?bytes=N` answers a fixed JSON body of N bytes (2 ≤ N ≤ 16 MiB) through
/// the same server, worker and response path as an endpoint, without routing or a handler:
/// the HTTP floor BENCHMARKS.md compares every endpoint with. Not in the endpoint table.
fn bench_floor(rest: &str, query: &str) -> Option<usize> {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if rest != "/__floor"
        || !*ON.get_or_init(|| std::env::var_os("VARCAT_BENCH_FLOOR").is_some_and(|v| v == "1"))
    {
        return None;
    }
    let n: usize = query.strip_prefix("bytes=")?.parse().ok()?;
    (2..=16 << 20).contains(&n).then_some(n)
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

/// `/llm-query`: a POST with a valid body gets 501 (no language model here); other methods 405
/// with `Allow: POST`.
fn llm_query(req: &Request<'_>) -> Response {
    use api::llm_query as llm;
    let e = match (req.method, req.body) {
        ("POST", ReqBody::Read(b)) => match llm::check(b) {
            Ok(()) => {
                return Response {
                    status: 501,
                    headers: json_headers(&[("Cache-Control", "no-store".to_string())]),
                    body: llm::not_implemented_body(),
                }
            }
            Err(e) => e,
        },
        ("POST", ReqBody::TooLarge) => llm::too_large(),
        ("POST", ReqBody::Unread | ReqBody::Failed) => {
            ApiError::invalid(vec![varcat_query::error::Issue::general(
                "the request body could not be read",
            )])
        }
        (m, _) => llm::method_error(m),
    };
    let mut r = error_response(&e);
    for (name, v) in &mut r.headers {
        if *name == "Allow" {
            *v = llm::ALLOW.to_string();
        }
    }
    r
}

/// The endpoint at `rest` (below the base path) when it takes POST batches.
fn batchable(rest: &str) -> Option<&'static Endpoint> {
    match api::route(rest) {
        Some(Ok((ep, _))) if varcat_query::batch::is_batchable(ep) => Some(ep),
        _ => None,
    }
}

fn method_error(method: &str) -> Option<ApiError> {
    (method != "GET" && method != "HEAD").then(|| ApiError::method(method))
}

fn health(loaded: &Loaded) -> Vec<u8> {
    let m = &loaded.cat.meta;
    let collections: serde_json::Map<String, serde_json::Value> = m
        .collections
        .iter()
        .map(|c| (c.name.clone(), json!(c.documents)))
        .collect();
    serde_json::to_vec(&json!({
        "status": "ok",
        "catalog": {
            "checksum": format!("{:016x}", loaded.cat.catalog.checksum()),
            "bytes": loaded.cat.catalog.file_len(),
            "format_version": m.format_version,
            "built_by": format!("varcat {}", m.varcat_version),
            "release": m.release,
            "collections": collections,
        },
        "varcat_version": env!("CARGO_PKG_VERSION"),
    }))
    .expect("health serialises")
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

    #[test]
    fn test_http_date() {
        assert_eq!(http_date(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(http_date(951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT");
        assert_eq!(http_date(1_795_641_300), "Wed, 25 Nov 2026 21:15:00 GMT");
        assert_eq!(date_now().len(), 29);
    }

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
