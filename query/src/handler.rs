//! What a handler reads ([`Ctx`]: the catalog, with the paging and rendering every handler
//! uses) and what it answers ([`Answer`], [`Reply`]).

use varcat_format::collection::{Collection, Collections};
use varcat_format::schema::{Coll, Member};

use crate::engine::{Filter, Read};
use crate::error::ApiError;
use crate::params::Params;
use crate::shape::{Render, Shape};

/// A handler's answer: the JSON body and any extra response headers.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// JSON body.
    pub body: Vec<u8>,
    /// Extra headers (e.g. the mark of a capped answer).
    pub headers: crate::spare::Headers,
    /// Whether another page follows (None: not a page, or an empty one); the `Link` header's
    /// `rel="next"` comes from it.
    pub more: Option<bool>,
}

impl Answer {
    /// `body`, a page after which another follows when `more`.
    pub fn page(body: Vec<u8>, more: bool) -> Answer {
        Answer {
            body,
            headers: crate::spare::headers(),
            more: Some(more),
        }
    }
}

impl From<Vec<u8>> for Answer {
    fn from(body: Vec<u8>) -> Answer {
        Answer {
            body,
            headers: crate::spare::headers(),
            more: None,
        }
    }
}

/// Member `m` of record `o` as a JSON value (null when absent).
pub fn member_value(c: &Collection, o: u64, m: Member) -> serde_json::Value {
    c.raw(o, m)
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(serde_json::Value::Null)
}

/// What a handler returns.
pub type Reply = Result<Answer, ApiError>;

/// What a handler reads.
pub struct Ctx<'a> {
    /// The catalog's collections.
    pub cat: &'a Collections,
}

impl<'a> Ctx<'a> {
    /// Collection `c` (None when the catalog has none: answers are then empty).
    #[allow(clippy::disallowed_methods)]
    pub fn coll(&self, c: Coll) -> Option<&'a Collection> {
        self.cat.get(c.name())
    }

    /// A renderer that never expands references.
    pub fn render_plain(&self) -> Render<'a> {
        Render::new(self.cat, false)
    }

    /// The requested page of `f`'s records of `coll`, in `shape` (the usual handler answer).
    pub fn page(
        &self,
        p: &Params,
        coll: Option<&Collection>,
        f: &Filter<'_>,
        shape: &Shape,
    ) -> Reply {
        self.page_with(p, coll, f, |_, _| shape)
    }

    /// The requested page of `f`'s records of `coll`, each in the shape `select` picks.
    pub fn page_with<'s>(
        &self,
        p: &Params,
        coll: Option<&Collection>,
        f: &Filter<'_>,
        select: impl Fn(&Collection, u64) -> &'s Shape,
    ) -> Reply {
        let (page, more) = f.window(p.offset(), p.limit);
        let body = self.render(p).array_with(coll, &page, select);
        Ok(Answer::page(body, more))
    }

    /// A renderer honouring `verbose`.
    pub fn render(&self, p: &Params) -> Render<'a> {
        Render::new(self.cat, p.verbose)
    }
}
