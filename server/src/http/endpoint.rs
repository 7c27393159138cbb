//! The endpoint arm: a GET (or HEAD) of an endpoint of the table answered in the representation
//! asked for (JSON, or TSV by `format=tsv` or `Accept`) with its `Link` header, or a POST batch
//! whose items follow the head.

use std::sync::Arc;

use varcat_query::batch::{is_batchable, MAX_BODY};
use varcat_query::endpoint::{Body, Endpoint};
use varcat_query::error::{ApiError, Issue};
use varcat_query::handler::Ctx;
use varcat_query::link;
use varcat_query::params::{self, Format, Params};
use varcat_query::query::RawQuery;
use varcat_query::tsv;

use crate::batch;
use crate::http::loaded::Loaded;
use crate::http::message::{
    accepts_gzip, error_allowing, error_response, json_headers, method_error, ok, ReqBody, Request,
    Response,
};

/// Answers `req` to endpoint `ep` (with `path_params`) at `path?query`; a batch's items are left
/// in `stream`.
pub fn answer(
    req: &Request<'_>,
    loaded: Arc<Loaded>,
    ep: &'static Endpoint,
    path_params: &[(&'static str, String)],
    (path, query): (&str, &str),
    stream: &mut Option<batch::Items>,
) -> Response {
    let batchable = is_batchable(ep);
    if req.method == "POST" && batchable {
        return batch_head(req, loaded, ep, path_params, query, stream);
    }
    if let Some(mut e) = method_error(req.method) {
        if batchable {
            e.message += " (or POST, for a batch)";
        }
        return error_allowing(&e, batchable);
    }
    let p = RawQuery::parse(query).and_then(|raw| params::parse(&ep.accepts, &raw, path_params));
    match p {
        Ok(p) => run(req, &loaded, ep, &p, (path, query)),
        Err(e) => error_response(&e),
    }
}

/// Runs endpoint `ep` for `p` and answers in the representation asked for (JSON, or TSV by
/// `format=tsv` or `Accept`), with a `Link` header on a page of a paged endpoint.
fn run(
    req: &Request<'_>,
    loaded: &Loaded,
    ep: &Endpoint,
    p: &Params,
    (path, query): (&str, &str),
) -> Response {
    let has_tsv = tsv::available(ep.body);
    let want_tsv = match p.format {
        Some(Format::Tsv) if !has_tsv => {
            return error_response(&ApiError::param(
                "format",
                "format=tsv is not available on this endpoint (its answer is not a list of \
                 records)",
            ))
        }
        Some(Format::Tsv) => true,
        Some(Format::Json) => false,
        None => has_tsv && tsv::accepts_tsv(req.accept),
    };
    let mut answer = match ep.answer(&Ctx { cat: &loaded.cat }, p) {
        Ok(a) => a,
        Err(e) => return error_response(&e),
    };
    if let Some(l) = link::of_answer(ep, &answer, path, query, p.page) {
        answer.headers.push(("Link", l.into()));
    }
    if has_tsv {
        answer
            .headers
            .push(("Vary", "Accept, Accept-Encoding".into()));
    }
    // The column plan is made only for a TSV answer (JSON answers pay nothing for it).
    let plan = want_tsv
        .then(|| tsv::Plan::of_body(ep.body, p.verbose))
        .flatten();
    let Some(plan) = plan else {
        return ok(req, loaded.etag.clone(), answer);
    };
    match plan.transcode(&answer.body, matches!(ep.body, Body::Object(_))) {
        Some(body) => {
            answer.body = body;
            answer
                .headers
                .push(("Content-Type", tsv::CONTENT_TYPE.into()));
            // Its own entity tag: a cache must not answer a TSV request with the JSON.
            let etag = format!("{}-tsv\"", loaded.etag.trim_end_matches('"'));
            ok(req, etag, answer)
        }
        None => {
            debug_assert!(false, "{}: the answer is not its declared body", ep.path);
            ok(req, loaded.etag.clone(), answer)
        }
    }
}

/// A POST batch ([`batch`]): never cached (no ETag), gzip as a GET's. The head is answered
/// here; the items follow in `stream`.
fn batch_head(
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
            format!("request body larger than {} bytes", MAX_BODY),
        )),
        ReqBody::Unread | ReqBody::Failed => Err(ApiError::invalid(vec![Issue::general(
            "the request body could not be read",
        )])),
    };
    match items {
        Ok(items) => *stream = Some(items),
        Err(e) => return error_allowing(&e, true),
    }
    let mut headers = json_headers(&[("Cache-Control", "no-store")]);
    if accepts_gzip(req.accept_encoding) {
        headers.push(("Content-Encoding", "gzip".into()));
    }
    Response {
        status: 200,
        headers,
        body: Vec::new(),
    }
}
