//! The pages outside the endpoint table: the OpenAPI document, the landing page and the region
//! viewer, all written through one HTML escaper ([`html::escape`]).

pub mod html;
pub mod landing;
pub mod openapi;
pub mod view;

use varcat_query::handler::Answer;

use crate::http::loaded::Loaded;
use crate::http::message::Response;

/// A page outside the endpoint table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// `/openapi.json` (also below the base path).
    OpenApi,
    /// `/`: the landing page.
    Landing,
    /// `/view`: the region viewer.
    View,
}

impl Page {
    /// The page `path` asks for, with the API under `base_path`.
    pub fn of(path: &str, base_path: &str) -> Option<Page> {
        let below = path.strip_prefix(base_path);
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
}

/// Page `page` of the API under `base_path` over `loaded` (`openapi`: the document, made
/// once), for `query`; a redirect or an error page is the finished response.
pub fn answer(
    page: Page,
    base_path: &str,
    openapi: &[u8],
    loaded: &Loaded,
    query: &str,
) -> Result<Answer, Response> {
    match page {
        Page::OpenApi => Ok(Answer::from(openapi.to_vec())),
        Page::Landing => Ok(Answer {
            body: landing::page(base_path, loaded),
            headers: vec![("Content-Type", "text/html; charset=utf-8".into())],
            more: None,
        }),
        Page::View => view::answer(&loaded.cat, base_path, query),
    }
}
