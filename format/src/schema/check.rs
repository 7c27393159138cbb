//! Checks of the names a reader uses against the schema, for tests of the server's handlers:
//! a collection, member or index the schema does not declare is in no catalog.

use super::{spec, Spec};
use crate::indexes::{IndexKind, IndexName};

/// Checks that collection `coll` stores an index of `kind` over `member` (`""` for the
/// whole-collection kinds: intervals, ends, points).
pub fn check(coll: &str, member: &str, kind: IndexKind) -> Result<(), String> {
    let s = known(coll)?;
    if kind.per_field() == member.is_empty() {
        return Err(match kind.per_field() {
            true => format!("{coll}: a {kind} index needs a member"),
            false => format!("{coll}: a {kind} index is over no single member ({member})"),
        });
    }
    check_member(coll, member)?;
    let want = IndexName::new(kind, member);
    if s.index_names().any(|n| n == want) {
        Ok(())
    } else {
        Err(format!("{coll} has no index {want}"))
    }
}

/// Checks that collection `coll` keeps member `member` (`a.b`: member `b` of kept object
/// member `a`), or, for `""`, just that the collection exists.
pub fn check_member(coll: &str, member: &str) -> Result<(), String> {
    let s = known(coll)?;
    let top = member.split_once('.').map_or(member, |(a, _)| a);
    if member.is_empty() || s.field_id(top).is_some() {
        Ok(())
    } else if s.known.contains(&top) {
        Err(format!("{coll}.{top} is dropped at build time"))
    } else {
        Err(format!("{coll} keeps no member {top}"))
    }
}

fn known(coll: &str) -> Result<&'static Spec, String> {
    spec(coll).ok_or_else(|| format!("no collection {coll}"))
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::*;
    use IndexKind::*;

    #[test]
    fn test_check_accepts_what_specs_declare() {
        check(variants_genes::NAME, variants_genes::method, Facet).unwrap();
        check(variants_genes::NAME, variants_genes::_from, By).unwrap();
        check(
            variants_genes::NAME,
            variants_genes::biological_context,
            Tok,
        )
        .unwrap();
        check(variants_genes::NAME, variants_genes::log2FC, Num).unwrap();
        check(genes::NAME, "", Intervals).unwrap();
        check(mm_genes::NAME, "", Ends).unwrap();
        check(genes_structure::NAME, genes_structure::r#type, Facet).unwrap();
        check(variants::NAME, "annotations.GENCODE_category", Facet).unwrap();
        check(variants::NAME, "annotations.gnomad_af_total", Num).unwrap();
        check_member(coding_variants::NAME, coding_variants::r#ref).unwrap();
        check_member(variants::NAME, "annotations.bravo_af").unwrap();
    }

    #[test]
    fn test_check_refuses_what_no_catalog_holds() {
        let bad = [
            check("variant_genes", "method", Facet),
            check(variants_genes::NAME, variants_genes::method, By),
            check(variants_genes::NAME, "rsid", By),
            check(variants_genes::NAME, "", Intervals),
            check(genes::NAME, genes::chr, Intervals),
            check(genes::NAME, "", Facet),
            check(mm_variants::NAME, "annotations.bravo_af", Num),
            check_member(variants_genes::NAME, "rsid"),
            check_member(variants_genes::NAME, "nothing"),
        ];
        for r in bad {
            assert!(r.is_err());
        }
    }

    /// Every index a spec stores passes, named as metadata names it; every declared member is
    /// a kept field of its collection.
    #[test]
    fn test_every_stored_index_checks() {
        for s in SPECS {
            for ix in s.index_names() {
                check(s.name, &ix.field, ix.kind).unwrap();
                assert_eq!(ix.to_string().parse::<IndexName>(), Ok(ix));
            }
            for p in s.places() {
                for m in [Some(p.chr), Some(p.start), p.end].into_iter().flatten() {
                    check_member(s.name, m).unwrap();
                }
            }
            if let Order::Fields(fs) = s.order {
                fs.iter().for_each(|f| check_member(s.name, f).unwrap());
            }
        }
    }
}
