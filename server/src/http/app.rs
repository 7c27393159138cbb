//! The application: the catalog being served (replaced on reload, taken down when its file is
//! changed in place), the base path, the origin policy and the MCP server. How a request is
//! answered is the dispatcher's (`dispatch.rs`).

use std::sync::{Arc, RwLock};

use crate::cors;
use crate::http::loaded::Loaded;
use crate::http::message::Response;
use crate::mcp;
use crate::pages::openapi;

/// The application: the current catalog and the HTTP options.
pub struct App {
    current: RwLock<Arc<Loaded>>,
    /// Path prefix of the API (`/api`).
    pub base_path: String,
    /// The OpenAPI document (it depends on the base path only), serialised once.
    pub(super) openapi: Vec<u8>,
    /// Who may read answers from a browser.
    cors: cors::Policy,
    /// The MCP server (`POST <base>/mcp`, and `varcat mcp` on stdio).
    mcp: mcp::Server,
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
            mcp: mcp::Server::new(),
        }
    }

    /// The MCP server answering from this application.
    pub fn mcp(&self) -> &mcp::Server {
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
        self.cors.add_headers(origin, &mut r.headers);
    }

    /// `path` below the base path (None when it is not below it).
    pub(super) fn below_base<'p>(&self, path: &'p str) -> Option<&'p str> {
        path.strip_prefix(self.base_path.as_str())
            .filter(|r| r.is_empty() || r.starts_with('/'))
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
}
