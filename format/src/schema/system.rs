//! The members ArangoDB gives documents, which every collection that keeps them declares under
//! the same names (`variants::_key` is [`KEY`]): for code that reads any collection.

/// A document's key.
pub const KEY: &str = "_key";
/// An edge's source handle (`<collection>/<key>`).
pub const FROM: &str = "_from";
/// An edge's target handle.
pub const TO: &str = "_to";

#[cfg(test)]
mod tests {
    use super::super::{Kind, SPECS};
    use super::*;

    /// Every collection keeps its key under [`KEY`], and every edge collection its ends under
    /// [`FROM`] and [`TO`].
    #[test]
    fn test_every_collection_declares_the_system_members() {
        for s in SPECS {
            let has = |n: &str| s.fields.iter().any(|f| f.name == n);
            assert!(has(KEY), "{}", s.name);
            if s.kind == Kind::Edge {
                assert!(has(FROM) && has(TO), "{}", s.name);
            }
        }
    }
}
