//! What an endpoint is: its declaration ([`Endpoint`]: path, parameters, what answers it
//! ([`Run`]), response form, examples). The path modules under `api/` declare one each; the
//! table in `api` lists them. What a handler reads and answers is in [`crate::handler`], apart,
//! so that the node and edge kinds this module names can use it without naming this module.

use crate::edge::EdgeQuery;
use crate::handler::{Ctx, Reply};
use crate::node::NodeQuery;
use crate::params::{Accepts, Params};
use crate::shape::Shape;

/// The response body's form.
#[derive(Clone, Copy, Debug)]
pub enum Body {
    /// A JSON array of records of a shape.
    Array(&'static Shape),
    /// One JSON object of a shape.
    Object(&'static Shape),
    /// A JSON array whose records each have one of these shapes.
    ArrayOf(&'static [&'static Shape]),
    /// A JSON array of numbers.
    Numbers,
    /// A table: a JSON array of rows, each an array of strings, numbers or nulls.
    Table,
    /// Any JSON (the client declares `object` and checks nothing).
    Any,
}

/// One endpoint.
pub struct Endpoint {
    /// Path under the base path; `{name}` marks a path parameter.
    pub path: &'static str,
    /// Section of the interface specification (`4.1` … `4.25`); None for the IGVF client's
    /// other paths, which the specification does not number.
    pub section: Option<&'static str>,
    /// One-line description.
    pub summary: &'static str,
    /// Parameters, rules, paging, organisms.
    pub accepts: Accepts,
    /// Whether `verbose=true` changes the answer (it is accepted everywhere).
    pub verbose: bool,
    /// What answers it.
    pub run: Run,
    /// Response form.
    pub body: Body,
    /// Examples that answer with data from the bundled sample catalog: a query string for
    /// `path`, or (starting with `/`) a whole path and query for endpoints with path parameters.
    pub examples: &'static [&'static str],
}

/// What answers an endpoint: a node or edge query declared as data (answered by its kind's one
/// handler), or a handler of its own. Tests find every node and edge endpoint through it.
#[derive(Clone, Copy)]
pub enum Run {
    /// A node look-up.
    Node(&'static NodeQuery),
    /// An edge listing.
    Edge(&'static EdgeQuery),
    /// A handler of its own (aggregations, unions, groupings, single objects).
    Handler(fn(&Ctx<'_>, &Params) -> Reply),
}

impl Run {
    /// The answer to `p`.
    pub fn answer(self, ctx: &Ctx<'_>, p: &Params) -> Reply {
        match self {
            Run::Node(q) => q.run(ctx, p),
            Run::Edge(q) => q.run(ctx, p),
            Run::Handler(f) => f(ctx, p),
        }
    }
}

impl Endpoint {
    /// The answer to `p`.
    pub fn answer(&self, ctx: &Ctx<'_>, p: &Params) -> Reply {
        self.run.answer(ctx, p)
    }

    /// The examples as URLs below the base path.
    pub fn example_urls(&self) -> Vec<String> {
        self.examples
            .iter()
            .map(|e| {
                if e.starts_with('/') {
                    e.to_string()
                } else {
                    format!("{}?{e}", self.path)
                }
            })
            .collect()
    }
}
