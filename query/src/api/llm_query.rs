//! `POST /llm-query` (the IGVF client\'s `llm_query`): IGVF forwards the question to an external
//! language-model service. varcat is offline and read-only, so the route exists (it is not a
//! 404, and the OpenAPI document lists it with its request body) and checks the request, then
//! answers 501 `NOT_IMPLEMENTED`. It is the one route that is not GET: `GET`/`HEAD` get 405
//! with `Allow: POST`, and the body, `Content-Length` framed, is read up to [`MAX_BODY`] (more
//! is a 413, the body left unread and the connection closed).

use serde_json::{json, Value};

use crate::error::{ApiError, Issue};

/// The path below the base path.
pub const PATH: &str = "/llm-query";
/// One-line description.
pub const SUMMARY: &str = "Question in natural language (needs a language model: 501 here)";
/// The largest body read.
pub const MAX_BODY: usize = 64 * 1024;
/// The longest `query` (IGVF's limit).
pub const MAX_QUERY_CHARS: usize = 5000;
/// What the route allows.
pub const ALLOW: &str = "POST";

/// True when `rest` (the path below the base path) is this route: ASCII case-insensitive, one
/// trailing `/` ignored, as every route.
pub fn is(rest: &str) -> bool {
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    rest.eq_ignore_ascii_case(PATH)
}

/// Checks a request body against the client's `LlmQueryRequest`: a JSON object with `query`
/// (a string of at most 5000 characters) and `password` (a string), `verbose` `"true"` or
/// `"false"` when given. Every problem is listed, each naming its member.
pub fn check(body: &[u8]) -> Result<(), ApiError> {
    let v: Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::invalid(vec![Issue::general(format!(
            "the body must be a JSON object (LlmQueryRequest): {e}"
        ))])
    })?;
    let Some(o) = v.as_object() else {
        return Err(ApiError::invalid(vec![Issue::general(
            "the body must be a JSON object (LlmQueryRequest)",
        )]));
    };
    let mut issues = Vec::new();
    match o.get("query") {
        Some(Value::String(q)) if q.chars().count() <= MAX_QUERY_CHARS => {}
        Some(Value::String(_)) => issues.push(Issue::param(
            "query",
            format!("query must be at most {MAX_QUERY_CHARS} characters"),
        )),
        _ => issues.push(Issue::param(
            "query",
            "query is required and must be a string",
        )),
    }
    if !matches!(o.get("password"), Some(Value::String(_))) {
        issues.push(Issue::param(
            "password",
            "password is required and must be a string",
        ));
    }
    match o.get("verbose") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) if s == "true" || s == "false" => {}
        Some(_) => issues.push(Issue::param(
            "verbose",
            "verbose must be one of 'true', 'false'",
        )),
    }
    if issues.is_empty() {
        Ok(())
    } else {
        Err(ApiError::invalid(issues))
    }
}

/// The 501 answer's body: the error body with its (empty) issues.
pub fn not_implemented_body() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "message": "llm-query needs an external language-model service; this server has none",
        "code": "NOT_IMPLEMENTED",
        "issues": [],
    }))
    .expect("error body serialises")
}

/// 405 for a method other than POST (and OPTIONS).
pub fn method_error(method: &str) -> ApiError {
    ApiError {
        status: 405,
        code: "METHOD_NOT_SUPPORTED",
        message: format!("method {method} is not supported on {PATH}; use POST"),
        issues: Vec::new(),
    }
}

/// 413 for a body over [`MAX_BODY`].
pub fn too_large() -> ApiError {
    ApiError::too_large(413, format!("request body larger than {MAX_BODY} bytes"))
}

/// The client's `LlmQueryRequest` (the request body's schema).
pub fn request_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "maxLength": MAX_QUERY_CHARS},
            "password": {"type": "string"},
            "verbose": {"type": "string", "enum": ["true", "false"], "default": "false"},
        },
        "required": ["query", "password"],
    })
}

/// The client's `LlmQuery` (what IGVF answers; varcat never does).
pub fn response_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "aql": {"type": "string", "maxLength": 5000},
            "aql_result": {"type": "array", "maxItems": 5},
            "answer": {"type": "string"},
        },
        "required": ["query", "answer"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_the_path_matches_as_routes_do() {
        assert!(is("/llm-query"));
        assert!(is("/LLM-Query/"));
        assert!(!is("/llm-query/x"));
    }

    #[test]
    fn test_bodies_are_checked_against_the_client_model() {
        assert!(check(br#"{"query":"q","password":"p"}"#).is_ok());
        assert!(check(br#"{"query":"q","password":"p","verbose":"true"}"#).is_ok());
        let e = check(br#"{"query":1,"verbose":true}"#).unwrap_err();
        let paths: Vec<_> = e.issues.iter().map(|i| i.path.clone()).collect();
        assert_eq!(paths, [vec!["query"], vec!["password"], vec!["verbose"]]);
        assert_eq!(check(b"[]").unwrap_err().status, 400);
        assert_eq!(check(b"{").unwrap_err().status, 400);
        let long = format!(r#"{{"query":"{}","password":"p"}}"#, "x".repeat(5001));
        assert_eq!(
            check(long.as_bytes()).unwrap_err().issues[0].path,
            ["query"]
        );
    }
}
