//! Alleles as the catalog spells them: trimming a VCF allele to an SPDI-like edit, and the
//! reference-free test that an input edit is the same allele as a catalog SPDI (docs/DESIGN.md#annotation).
//!
//! The catalog's indel SPDIs may be VRS-expanded across a repeat (`NC_000020.11:9566884:AATA:A`
//! for VCF `AAAT>A`), so building the SPDI string and looking it up is not enough: a candidate's
//! deleted sequence `D` *is* the reference over its interval, and applying the input's edit
//! inside it must give its inserted sequence `I`.

/// An edit in 0-based coordinates: at `pos`, `del` is replaced by `ins`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edit<'a> {
    /// 0-based start.
    pub pos: u64,
    /// Deleted (reference) bases.
    pub del: &'a [u8],
    /// Inserted bases.
    pub ins: &'a [u8],
}

impl Edit<'_> {
    /// True for an insertion or deletion (the catalog may hold it expanded).
    pub fn is_indel(&self) -> bool {
        self.del.len() != self.ins.len()
    }
}

/// Why an ALT allele cannot be annotated at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Symbolic (`<DEL>`), `*`, a breakend, `.`, or bases other than ACGTN.
    NotSequence,
    /// ALT equal to REF: no edit.
    NoChange,
}

/// True for a sequence the catalog can hold: upper- or lower-case ACGTN, non-empty.
fn is_bases(s: &[u8]) -> bool {
    !s.is_empty()
        && s.iter().all(|b| {
            matches!(
                b,
                b'A' | b'C' | b'G' | b'T' | b'N' | b'a' | b'c' | b'g' | b't' | b'n'
            )
        })
}

/// Trims VCF `(POS, REF, ALT)` (POS 1-based) to an edit: common suffix first, then common
/// prefix, as VRS does. Input bases must already be upper case for the comparisons downstream.
pub fn trim<'a>(pos: u64, r: &'a [u8], a: &'a [u8]) -> Result<Edit<'a>, Skip> {
    if !is_bases(r) || !is_bases(a) {
        return Err(Skip::NotSequence);
    }
    if r == a {
        return Err(Skip::NoChange);
    }
    let s = r
        .iter()
        .rev()
        .zip(a.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (r, a) = (&r[..r.len() - s], &a[..a.len() - s]);
    let k = r.iter().zip(a).take_while(|(x, y)| x == y).count();
    Ok(Edit {
        pos: (pos - 1) + k as u64,
        del: &r[k..],
        ins: &a[k..],
    })
}

/// Splits a stored SPDI `acc:pos:del:ins` into its edit (None when it is not one).
pub fn parse_spdi(spdi: &[u8]) -> Option<Edit<'_>> {
    let mut it = spdi.rsplitn(4, |&b| b == b':');
    let ins = it.next()?;
    let del = it.next()?;
    let pos = std::str::from_utf8(it.next()?).ok()?.parse().ok()?;
    it.next()?;
    Some(Edit { pos, del, ins })
}

/// True when the catalog edit `c` and the input edit `e` make the same sequence: `e` lies
/// inside `c`'s deleted interval and applying it to `c.del` (the reference there) gives `c.ins`.
pub fn equivalent(c: &Edit<'_>, e: &Edit<'_>) -> bool {
    if c.pos > e.pos || e.pos + e.del.len() as u64 > c.pos + c.del.len() as u64 {
        return false;
    }
    let off = (e.pos - c.pos) as usize;
    // The input's deleted bases must be the reference the catalog recorded there.
    if c.del[off..off + e.del.len()] != *e.del {
        return false;
    }
    let (left, right) = (&c.del[..off], &c.del[off + e.del.len()..]);
    c.ins.len() == left.len() + e.ins.len() + right.len()
        && c.ins.starts_with(left)
        && c.ins[left.len()..].starts_with(e.ins)
        && c.ins.ends_with(right)
}

/// True when catalog edit `c`'s reference bases contradict the input REF (starting at 0-based
/// `ref_pos`) on a base both cover; `N` on either side agrees with anything.
pub fn ref_disagrees(c: &Edit<'_>, ref_pos: u64, r: &[u8]) -> bool {
    let (cs, ce) = (c.pos, c.pos + c.del.len() as u64);
    let (rs, re) = (ref_pos, ref_pos + r.len() as u64);
    let (s, e) = (cs.max(rs), ce.min(re));
    (s..e).any(|p| {
        let x = c.del[(p - cs) as usize];
        let y = r[(p - rs) as usize];
        x != y && x != b'N' && y != b'N'
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(pos: u64, d: &'static str, i: &'static str) -> Edit<'static> {
        Edit {
            pos,
            del: d.as_bytes(),
            ins: i.as_bytes(),
        }
    }

    #[test]
    fn trims_suffix_then_prefix() {
        assert_eq!(trim(9564578, b"A", b"T"), Ok(e(9564577, "A", "T")));
        // Deletion with its anchor base: VCF POS 9564644 TA>T is SPDI 9564644:A:.
        assert_eq!(trim(9564644, b"TA", b"T"), Ok(e(9564644, "A", "")));
        assert_eq!(trim(100, b"AAAT", b"A"), Ok(e(100, "AAT", "")));
        assert_eq!(trim(100, b"CAGT", b"CTGT"), Ok(e(100, "A", "T")));
        assert_eq!(trim(100, b"A", b"<DEL>"), Err(Skip::NotSequence));
        assert_eq!(trim(100, b"A", b"*"), Err(Skip::NotSequence));
        assert_eq!(trim(100, b"A", b"A[1:5["), Err(Skip::NotSequence));
        assert_eq!(trim(100, b"A", b"A"), Err(Skip::NoChange));
    }

    #[test]
    fn parses_spdi() {
        assert_eq!(
            parse_spdi(b"NC_000020.11:9566884:AATA:A"),
            Some(e(9566884, "AATA", "A"))
        );
        assert_eq!(
            parse_spdi(b"NC_000010.11:79347444::CCTCCTCAGG"),
            Some(e(79347444, "", "CCTCCTCAGG"))
        );
        assert_eq!(parse_spdi(b"9566884:AATA:A"), None);
        assert_eq!(parse_spdi(b"NC:x:A:T"), None);
    }

    #[test]
    fn expanded_indel_of_the_fixture() {
        // VCF AAAT>A at POS 9566884 (anchor A at 0-based 9566883) is SPDI 9566884:AAT:,
        // stored VRS-expanded as 9566884:AATA:A.
        let input = trim(9566884, b"AAAT", b"A").unwrap();
        assert_eq!(input, e(9566884, "AAT", ""));
        let cat = parse_spdi(b"NC_000020.11:9566884:AATA:A").unwrap();
        assert!(equivalent(&cat, &input));
        // A different deletion in the same repeat is not the same allele.
        assert!(!equivalent(&cat, &e(9566884, "AA", "")));
        assert!(!equivalent(&cat, &e(9566885, "AT", "")));
    }

    #[test]
    fn equivalence_of_shifted_repeat_deletions() {
        // Reference ...CAGAGAGT...: deleting any one AG of the repeat gives the same sequence.
        let cat = e(10, "AGAGAG", "AGAG");
        assert!(equivalent(&cat, &e(10, "AG", "")));
        assert!(equivalent(&cat, &e(12, "AG", "")));
        assert!(equivalent(&cat, &e(11, "GA", "")));
        assert!(!equivalent(&cat, &e(10, "A", "")));
        // Insertions in the repeat, too.
        let ins = e(10, "AGAG", "AGAGAG");
        assert!(equivalent(&ins, &e(12, "", "AG")));
        assert!(equivalent(&ins, &e(11, "", "GA")));
        assert!(!equivalent(&ins, &e(11, "", "AG")));
        // Exact match and outside the interval.
        assert!(equivalent(&e(5, "A", "T"), &e(5, "A", "T")));
        assert!(!equivalent(&e(5, "A", "T"), &e(5, "A", "G")));
        assert!(!equivalent(&e(5, "A", "T"), &e(6, "A", "T")));
    }

    /// Equivalence agrees with a naive model that applies both edits to a reference.
    #[test]
    fn equivalence_matches_applying_both_edits() {
        let reference = b"ACAGAGAGTTTACGTAAAATA";
        let apply = |ed: &Edit<'_>| -> Vec<u8> {
            let p = ed.pos as usize;
            let mut v = reference[..p].to_vec();
            v.extend_from_slice(ed.ins);
            v.extend_from_slice(&reference[p + ed.del.len()..]);
            v
        };
        let inserts: [&[u8]; 4] = [b"", b"A", b"AG", b"T"];
        let mut edits = Vec::new();
        for p in 0..reference.len() {
            for len in 0..=4.min(reference.len() - p) {
                for ins in inserts {
                    edits.push((p, len, ins));
                }
            }
        }
        for &(cp, cl, ci) in &edits {
            let c = Edit {
                pos: cp as u64,
                del: &reference[cp..cp + cl],
                ins: ci,
            };
            for &(ep, el, ei) in &edits {
                let x = Edit {
                    pos: ep as u64,
                    del: &reference[ep..ep + el],
                    ins: ei,
                };
                if equivalent(&c, &x) {
                    assert_eq!(apply(&c), apply(&x), "{c:?} ~ {x:?}");
                }
            }
        }
    }

    #[test]
    fn ref_disagreement() {
        assert!(ref_disagrees(&e(9, "A", "T"), 9, b"C"));
        assert!(!ref_disagrees(&e(9, "A", "T"), 9, b"A"));
        assert!(!ref_disagrees(&e(9, "N", "T"), 9, b"C"));
        assert!(!ref_disagrees(&e(9, "A", "T"), 10, b"C"));
        assert!(ref_disagrees(&e(9, "AGT", ""), 8, b"CAC"));
    }
}
