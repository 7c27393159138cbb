//! Builder hooks of overexpression screens.

use super::{genes_transcripts_genes as gtg, genes_transcripts_genes_input as input, Hooks};
use crate::derive::Ctx;
use crate::doc::Doc;

/// The hooks of these collections.
pub(super) const HOOKS: &[(&str, Hooks)] = &[(gtg::NAME, Hooks::prepare(standard_error))];

/// IGVF's MORF router reads the standard error as `log2FC_se`, the client as
/// `standard_error`: the client's member takes the first non-null of the two.
fn standard_error(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    if doc.get(gtg::standard_error).is_some_and(|v| !v.is_null()) {
        return Ok(());
    }
    if let Some(v) = doc.get(input::log2FC_se).filter(|v| !v.is_null()).cloned() {
        doc.insert(gtg::standard_error.into(), v);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn run(text: &str) -> Value {
        let mut doc = Doc::parse(text).unwrap();
        standard_error(&mut doc, &Ctx::default()).unwrap();
        let members = doc
            .into_members()
            .map(|(n, t)| (n.into_owned(), t.value().unwrap()));
        Value::Object(members.collect())
    }

    #[test]
    fn test_standard_error_falls_back_to_the_router_name() {
        assert_eq!(run(r#"{"log2FC_se": 0.2}"#)["standard_error"], json!(0.2));
        let both = run(r#"{"standard_error": 0.1, "log2FC_se": 0.2}"#);
        assert_eq!(both["standard_error"], json!(0.1));
        let neither = run(r#"{"standard_error": null, "log2FC_se": null}"#);
        assert_eq!(neither["standard_error"], json!(null));
    }
}
