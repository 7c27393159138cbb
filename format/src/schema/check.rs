//! Checks of the names a reader uses against the schema, for tests of the server's handlers:
//! a collection, member or index the schema does not declare is in no catalog.

use super::{spec, Member, Spec, COLLS};
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

/// Checks a reader's use of member handle `m` in collection `coll`: `coll` has `m`'s members
/// (it is `m`'s collection or copies it) and stores an index of `kind` over it, or, without a
/// kind, keeps it.
pub fn check_read(coll: &str, m: Member, kind: Option<IndexKind>) -> Result<(), String> {
    let c = COLLS
        .iter()
        .find(|c| c.name() == coll)
        .ok_or_else(|| format!("no collection {coll}"))?;
    if !c.has(m) {
        return Err(format!(
            "{coll} has not the members of {} (member {})",
            m.of(),
            m.name()
        ));
    }
    match kind {
        Some(kind) => check(coll, m.name(), kind),
        None => check_member(coll, m.name()),
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
        check(variants_genes::NAME, variants_genes::_from, Adj).unwrap();
        // An edge end has an adjacency instead of a value map.
        assert!(check(variants_genes::NAME, variants_genes::_from, By).is_err());
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
            // No allele-frequency columns: `/variants/freq` reads the records.
            check(variants::NAME, "annotations.gnomad_af_total", Num),
            check_member(variants_genes::NAME, "rsid"),
            check_member(variants_genes::NAME, "nothing"),
        ];
        for r in bad {
            assert!(r.is_err());
        }
    }

    #[test]
    fn test_handles_name_what_specs_declare() {
        // `catalog!` pairs each spec with its module's handle (names checked at compile time).
        assert_eq!(COLLS.len(), SPECS.len());
        for c in COLLS {
            assert!(spec(c.members_of()).is_some());
        }
        assert_eq!(variants_genes::m::method.name(), variants_genes::method);
        assert_eq!(genes_structure::m::r#type.name(), "type");
        assert_eq!(mm_genes::COLL.name(), "mm_genes");
        assert!(mm_genes::COLL.has(genes::m::chr) && mm_genes::COLL.shares_members(genes::COLL));
        assert_eq!(mm_genes::m::chr, genes::m::chr);
        assert!(!proteins::COLL.has(genes::m::name));
        check_read(mm_genes::NAME, genes::m::name, Some(Tok)).unwrap();
        check_read(mm_variants::NAME, variants::m::pos, None).unwrap();
        check_read(
            variants::NAME,
            variant_annotations::GENCODE_category,
            Some(Facet),
        )
        .unwrap();
        let bravo = variant_annotations::af("bravo_af").unwrap();
        check_read(variants::NAME, bravo, None).unwrap();
        check_read(mm_variants::NAME, bravo, None).unwrap();
        assert!(check_read(variants::NAME, bravo, Some(Num)).is_err());
        assert!(variant_annotations::af("bravo").is_none());
        assert!(check_read(proteins::NAME, genes::m::name, None).is_err());
        assert!(check_read(variants_genes::NAME, variants_genes::m::method, Some(By)).is_err());
        for s in crate::vocab::AF_SOURCES {
            check_read(variants::NAME, variant_annotations::af(s).unwrap(), None).unwrap();
        }
    }

    /// Every index a spec stores passes, named as metadata names it; every declared member
    /// (place, order, cluster) is a kept field of its collection.
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
            // The builder clusters records by a top-level kept field.
            if let Some(f) = s.cluster {
                assert!(s.field_id(f).is_some(), "{}: cluster by {f}", s.name);
            }
        }
    }
}
