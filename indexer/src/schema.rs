//! What the indexer builds: the collections [`varcat_format::schema`] declares (re-exported
//! here), and the builder-only behaviour some of them have ([`Hooks`]), defined beside the
//! collections they serve and found by collection name.

pub use varcat_format::schema::*;
pub use varcat_format::vocab::AF_SOURCES;

use crate::derive::{Ctx, Generator};
use crate::doc::Doc;

mod associations;
mod elements;
mod genome;
mod interactions;
mod screens;
mod variation;

/// Per-document preparation run before a document is stored (derived members, renames).
pub type Prepare = fn(&mut Doc<'_>, &Ctx) -> Result<(), String>;

/// What the builder does for a collection beyond storing what its spec keeps.
#[derive(Clone, Copy, Default)]
pub struct Hooks {
    /// Preparation of each document.
    pub prepare: Option<Prepare>,
    /// For derived tables: the generator of their documents.
    pub derive: Option<Generator>,
}

impl Hooks {
    const fn prepare(f: Prepare) -> Hooks {
        Hooks {
            prepare: Some(f),
            derive: None,
        }
    }

    const fn derive(g: Generator) -> Hooks {
        Hooks {
            prepare: None,
            derive: Some(g),
        }
    }
}

/// The collections with hooks, by name.
const HOOKS: &[&[(&str, Hooks)]] = &[
    genome::HOOKS,
    variation::HOOKS,
    associations::HOOKS,
    elements::HOOKS,
    interactions::HOOKS,
    screens::HOOKS,
];

/// The hooks of collection `name` (none for most).
pub fn hooks(name: &str) -> Hooks {
    HOOKS
        .iter()
        .flat_map(|t| t.iter())
        .find(|(n, _)| *n == name)
        .map_or(Hooks::default(), |(_, h)| *h)
}

/// The longest string an index takes (stated in the format crate, which the server reads too).
pub use varcat_format::MAX_INDEXED_BYTES;

#[cfg(test)]
mod tests {
    use super::*;

    /// Hooks name collections the schema has, once each; a derived table has a generator and
    /// only derived tables have one.
    #[test]
    fn test_hooks_serve_declared_collections() {
        let mut names: Vec<&str> = HOOKS.iter().flat_map(|t| t.iter().map(|h| h.0)).collect();
        for n in &names {
            assert!(spec(n).is_some(), "hooks for unknown collection {n}");
        }
        names.sort();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count, "a collection has two hook entries");
        for s in SPECS {
            assert_eq!(
                hooks(s.name).derive.is_some(),
                s.kind == Kind::Derived,
                "{}",
                s.name
            );
        }
    }
}
