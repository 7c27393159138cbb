//! The Model Context Protocol server: the catalog's tools for LLM agents, answered in-process
//! from the same query library as the HTTP interface. [`Server::answer`] takes one JSON-RPC
//! 2.0 message and gives its answer, whatever the transport ([`stdio`], or [`http`] at
//! `POST <base>/mcp` on `varcat serve`).
//!
//! Tools and resources are those of IGVF's MCP server (`igvf-catalog-mcp`), drop-in: same
//! names, arguments and result members. Where the catalog knows better, the result says so:
//! `has_more` comes from whether the catalog has a next page, not from a page being full.

mod assoc;
mod edges;
pub mod http;
mod ids;
mod lookup;
mod region;
mod resources;
mod schema;
pub mod stdio;
mod tools;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};

use serde_json::{json, Value};

use crate::cors::Policy;
use crate::http::message::{Request, Response};

/// What the MCP server answers through: the HTTP application (a tool's answer is an endpoint's),
/// its origin policy and the MCP server it holds.
pub trait Host {
    /// The API's base path (`/api`).
    fn base_path(&self) -> &str;
    /// Answers one request as the HTTP surface does.
    fn handle(&self, req: &Request<'_>) -> Response;
    /// The origin policy of every HTTP surface.
    fn cors(&self) -> &Policy;
    /// The MCP server.
    fn mcp(&self) -> &Server;
}

/// The longest message read; a longer one is refused (and skipped) without being held.
pub const MAX_MESSAGE: usize = 1 << 20;

/// Protocol revisions spoken, oldest first; a client asking for another gets the latest.
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// JSON-RPC error codes.
pub mod code {
    /// Not JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// JSON, but not a request (or a batch).
    pub const INVALID_REQUEST: i64 = -32600;
    /// No such method.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Bad parameters (or an unknown tool).
    pub const INVALID_PARAMS: i64 = -32602;
    /// A bug.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// No such resource.
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
}

/// The server: what it answers from (one per [`App`], which it asks).
pub struct Server {
    tools: Value,
    /// Set when the background checksum pass found the catalog damaged: tools then refuse.
    damaged: Arc<OnceLock<String>>,
}

/// A JSON-RPC error answer to `id`.
pub fn error(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn tool_error(message: impl Into<String>) -> Value {
    json!({"content": [{"type": "text", "text": message.into()}], "isError": true})
}

impl Server {
    /// A server.
    pub fn new() -> Server {
        Server {
            tools: schema::tools(),
            damaged: Arc::new(OnceLock::new()),
        }
    }

    /// Where a background verification reports damage (tool calls are refused after it).
    pub fn damage_flag(&self) -> Arc<OnceLock<String>> {
        self.damaged.clone()
    }

    /// The answer to one message (its raw bytes), or None when it needs none (a notification,
    /// a client's response).
    pub fn answer(&self, app: &dyn Host, msg: &[u8]) -> Option<Value> {
        if msg.len() > MAX_MESSAGE {
            return Some(error(
                Value::Null,
                code::INVALID_REQUEST,
                format!(
                    "message of {} bytes refused: the limit is {MAX_MESSAGE}",
                    msg.len()
                ),
            ));
        }
        let v: Value = match serde_json::from_slice(msg) {
            Ok(v) => v,
            Err(e) => {
                return Some(error(
                    Value::Null,
                    code::PARSE_ERROR,
                    format!("not JSON: {e}"),
                ))
            }
        };
        self.answer_value(app, v)
    }

    /// The answer to one parsed message.
    pub fn answer_value(&self, app: &dyn Host, v: Value) -> Option<Value> {
        let Value::Object(m) = v else {
            let what = if v.is_array() {
                "batches are not supported: send one request per message"
            } else {
                "a message must be a JSON-RPC 2.0 object"
            };
            return Some(error(Value::Null, code::INVALID_REQUEST, what));
        };
        let id = m.get("id").cloned();
        let Some(method) = m.get("method").and_then(Value::as_str) else {
            // A response to a request of ours (we send none) or garbage without a method.
            return match (&id, m.contains_key("result") || m.contains_key("error")) {
                (_, true) | (None, _) => None,
                (Some(id), false) => Some(error(id.clone(), code::INVALID_REQUEST, "no method")),
            };
        };
        let valid_id = matches!(&id, Some(Value::String(_) | Value::Number(_)));
        if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || (id.is_some() && !valid_id) {
            let id = if valid_id {
                id.unwrap_or(Value::Null)
            } else {
                Value::Null
            };
            return Some(error(
                id,
                code::INVALID_REQUEST,
                "not a JSON-RPC 2.0 request (jsonrpc must be \"2.0\"; id a string or a number)",
            ));
        }
        let params = m.get("params").cloned().unwrap_or(Value::Null);
        let Some(id) = id else {
            return None; // a notification: initialized, cancelled, …
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| self.request(app, method, &params)));
        Some(match outcome {
            Ok(Ok(r)) => result(id, r),
            Ok(Err((code, message))) => error(id, code, message),
            Err(_) => error(id, code::INTERNAL_ERROR, "internal error"),
        })
    }

    fn request(
        &self,
        app: &dyn Host,
        method: &str,
        params: &Value,
    ) -> Result<Value, (i64, String)> {
        if !(params.is_object() || params.is_null()) {
            return Err((code::INVALID_PARAMS, "params must be an object".into()));
        }
        match method {
            "initialize" => initialize(params),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({ "tools": self.tools })),
            "tools/call" => self.call(app, params),
            "resources/list" => Ok(resources::list()),
            "resources/read" => {
                let uri = params.get("uri").and_then(Value::as_str).ok_or((
                    code::INVALID_PARAMS,
                    "params.uri (a string) is required".to_string(),
                ))?;
                resources::read(uri).ok_or((
                    code::RESOURCE_NOT_FOUND,
                    format!("Resource not found: {uri}"),
                ))
            }
            other => Err((code::METHOD_NOT_FOUND, format!("Method not found: {other}"))),
        }
    }

    fn call(&self, app: &dyn Host, params: &Value) -> Result<Value, (i64, String)> {
        let name = params.get("name").and_then(Value::as_str).ok_or((
            code::INVALID_PARAMS,
            "params.name (a string) is required".to_string(),
        ))?;
        let args = match params.get("arguments") {
            None | Some(Value::Null) => json!({}),
            Some(a) if a.is_object() => a.clone(),
            Some(_) => {
                return Err((
                    code::INVALID_PARAMS,
                    "params.arguments must be an object".into(),
                ))
            }
        };
        let Some(input) = schema::input_schema(&self.tools, name) else {
            return Err((code::INVALID_PARAMS, format!("Unknown tool: {name}")));
        };
        if let Err(e) = schema::check(&input, &args, "") {
            return Ok(tool_error(format!("Input validation error: {e}")));
        }
        if let Some(damage) = self.damaged.get() {
            return Ok(tool_error(format!(
                "the catalog failed verification: {damage}"
            )));
        }
        let cat = lookup::Catalog { app };
        let out = match name {
            "igvf_catalog_get_entity" => tools::get_entity(&cat, &args),
            "igvf_catalog_search_region" => tools::search_region(&cat, &args),
            "igvf_catalog_find_associations" => assoc::find_associations(&cat, &args),
            "igvf_catalog_find_ld" => assoc::find_ld(&cat, &args),
            "igvf_catalog_resolve_id" => tools::resolve_id(&cat, &args),
            _ => tools::list_sources(&args),
        };
        Ok(match out {
            Ok(tools::Out::Json(v)) => {
                let text = serde_json::to_string_pretty(&v).unwrap_or_default();
                json!({"content": [{"type": "text", "text": text}], "isError": false})
            }
            Ok(tools::Out::Text(t)) => {
                json!({"content": [{"type": "text", "text": t}], "isError": false})
            }
            Err(e) => tool_error(e),
        })
    }
}

impl Default for Server {
    fn default() -> Server {
        Server::new()
    }
}

fn initialize(params: &Value) -> Result<Value, (i64, String)> {
    let asked = params
        .get("protocolVersion")
        .and_then(Value::as_str)
        .ok_or((
            code::INVALID_PARAMS,
            "params.protocolVersion (a string) is required".to_string(),
        ))?;
    let version = PROTOCOL_VERSIONS
        .iter()
        .find(|v| **v == asked)
        .unwrap_or(&PROTOCOL_VERSIONS[PROTOCOL_VERSIONS.len() - 1]);
    Ok(json!({
        "protocolVersion": version,
        "capabilities": {
            "tools": {"listChanged": false},
            "resources": {"subscribe": false, "listChanged": false},
        },
        "serverInfo": {"name": "varcat", "title": "varcat IGVF Catalog", "version": env!("CARGO_PKG_VERSION")},
        "instructions": "Read-only access to a local IGVF Catalog: genes, transcripts, proteins, \
            variants, ontology terms, drugs, complexes, studies and pathways, and the edges between \
            them. Start with igvf_catalog_get_entity or igvf_catalog_resolve_id; \
            _pagination.has_more is exact.",
    }))
}
