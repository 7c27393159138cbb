//! Finding an input allele among the catalog's variants (docs/DESIGN.md#annotation): contig names
//! in either spelling, candidates from the variants' point index (keyed by SPDI position), the
//! equivalence test, and the REF-mismatch rule.

use std::collections::HashMap;

use varcat_format::collection::{Collection, Collections};
use varcat_format::points::PointIndex;
use varcat_format::schema::variants;

use crate::allele::{self, Edit};

/// What became of one ALT allele.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The catalog variant with this ordinal is the same allele.
    Found(u64),
    /// Not in the catalog.
    Absent,
    /// The catalog's reference bases there disagree with the input REF.
    RefMismatch,
}

/// The variants collection opened for matching.
pub struct Matcher<'c> {
    /// The `variants` collection.
    pub variants: &'c Collection,
    points: &'c PointIndex,
    spdi: u16,
    window: u64,
    cands: Vec<u64>,
    contigs: HashMap<String, Option<String>>,
    /// Input contigs the catalog has in neither spelling (each warned about once).
    pub unknown_contigs: Vec<String>,
}

/// The catalog's variants and their point index (by SPDI position), or why it has none.
pub fn variants_by_position(cols: &Collections) -> Result<(&Collection, &PointIndex), String> {
    let variants = cols
        .get(variants::NAME)
        .ok_or("the catalog has no variants collection")?;
    let points = variants
        .points()
        .ok_or("the catalog's variants have no point index")?;
    Ok((variants, points))
}

impl<'c> Matcher<'c> {
    /// Opens the matcher; `window` is how far left of an indel to look for an expanded SPDI.
    pub fn new(cols: &'c Collections, window: u64) -> Result<Matcher<'c>, String> {
        let (variants, points) = variants_by_position(cols)?;
        let spdi = variants
            .field(variants::spdi)
            .ok_or("the catalog's variants have no spdi member")?;
        Ok(Matcher {
            variants,
            points,
            spdi,
            window,
            cands: Vec::new(),
            contigs: HashMap::new(),
            unknown_contigs: Vec::new(),
        })
    }

    /// The catalog's name for input contig `name`: as is, with `chr` added or removed, or
    /// `MT` ↔ `chrM` (None, remembered, when it has none).
    pub fn contig(&mut self, name: &str) -> Option<&str> {
        if !self.contigs.contains_key(name) {
            let have = |n: &str| self.points.chroms().iter().any(|c| c.name == n);
            let bare = name.strip_prefix("chr").unwrap_or(name);
            let tries = [
                name.to_string(),
                bare.to_string(),
                format!("chr{bare}"),
                match bare {
                    "MT" => "chrM".to_string(),
                    "M" => "MT".to_string(),
                    _ => String::new(),
                },
            ];
            let found = tries.into_iter().find(|t| !t.is_empty() && have(t));
            if found.is_none() {
                self.unknown_contigs.push(name.to_string());
            }
            self.contigs.insert(name.to_string(), found);
        }
        self.contigs.get(name).and_then(|c| c.as_deref())
    }

    /// Tests candidates `cands[from..]`: (the smallest equivalent ordinal, whether one
    /// contradicts the input REF).
    fn test(&self, e: &Edit<'_>, ref_pos: u64, r: &[u8], from: usize) -> (Option<u64>, bool) {
        let (mut best, mut mismatch) = (None::<u64>, false);
        for &ord in &self.cands[from..] {
            let Some(spdi) = self.spdi_of(ord) else {
                continue;
            };
            let Some(c) = allele::parse_spdi(&spdi) else {
                continue;
            };
            if allele::equivalent(&c, e) {
                best = Some(best.map_or(ord, |b| b.min(ord)));
            } else if allele::ref_disagrees(&c, ref_pos, r) {
                mismatch = true;
            }
        }
        (best, mismatch)
    }

    /// A candidate's SPDI, decoded alone (not the whole record: most candidates at a
    /// position are not the input's allele).
    fn spdi_of(&self, ord: u64) -> Option<Vec<u8>> {
        let v = self.variants.record_store().member(ord, self.spdi)?;
        varcat_format::json_scan::str_content(&v).map(<[u8]>::to_vec)
    }

    /// Matches edit `e` (trimmed from input REF `r` at 0-based `ref_pos`) on catalog contig
    /// `chrom`.
    pub fn find(&mut self, chrom: &str, e: &Edit<'_>, ref_pos: u64, r: &[u8]) -> Outcome {
        let (Ok(q), Ok(end)) = (u32::try_from(e.pos), u32::try_from(e.pos + 1)) else {
            return Outcome::Absent;
        };
        self.cands.clear();
        let cands = &mut self.cands;
        self.points.for_each_in(chrom, q, end, |_, o| cands.push(o));
        let (mut best, mut mismatch) = self.test(e, ref_pos, r, 0);
        if best.is_none() && e.is_indel() {
            // An expanded SPDI starts at or before the left-aligned trimmed start.
            let from = q.saturating_sub(u32::try_from(self.window).unwrap_or(u32::MAX));
            let at = self.cands.len();
            let cands = &mut self.cands;
            self.points
                .for_each_in(chrom, from, q, |_, o| cands.push(o));
            let (b, m) = self.test(e, ref_pos, r, at);
            (best, mismatch) = (b, mismatch || m);
        }
        match best {
            Some(o) => Outcome::Found(o),
            None if mismatch => Outcome::RefMismatch,
            None => Outcome::Absent,
        }
    }
}
