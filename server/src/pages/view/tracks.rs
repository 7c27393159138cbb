//! The data of each track of a region: genes, transcripts with their structure, catalog
//! variants with an allele frequency, genomic elements, and QTL links from the shown variants,
//! read from one organism's collections (the QTL edges are human only).
//! Every track keeps at most [`CAP`] items, the first in position order, and counts the rest.

use std::collections::HashMap;

use varcat_format::collection::Collection;
use varcat_format::schema::{
    genes, genes_structure, genomic_elements, transcripts, variants, variants_genes,
    variants_genomic_elements, Member,
};

use crate::pages::view::resolve::int;
use varcat_format::indexes::IndexKind;
use varcat_query::engine::{check_whole, Read};
use varcat_query::handler::{member_value, Ctx};
use varcat_query::params::{
    Organism, GENES, GENES_STRUCTURE, GENOMIC_ELEMENTS, TRANSCRIPTS, VARIANTS,
};
use varcat_query::parse::region::Region;
use varcat_query::sets;

/// Most items a track draws.
pub const CAP: usize = 2_000;
/// Most transcripts drawn (one row each).
pub const TRANSCRIPT_CAP: usize = 50;

/// The first items of a track and how many were left out.
#[derive(Clone, Debug)]
pub struct Track<T> {
    /// Drawn items, in position order.
    pub items: Vec<T>,
    /// Items over the cap, not drawn.
    pub left_out: usize,
}

impl<T> Default for Track<T> {
    fn default() -> Track<T> {
        Track {
            items: Vec::new(),
            left_out: 0,
        }
    }
}

impl<T> Track<T> {
    /// Keeps the first `cap` of `all` (sorted by `pos`, then as given).
    fn capped(mut all: Vec<T>, cap: usize, pos: impl Fn(&T) -> u32) -> Track<T> {
        all.sort_by_key(|t| pos(t));
        let left_out = all.len().saturating_sub(cap);
        all.truncate(cap);
        Track {
            items: all,
            left_out,
        }
    }

    /// "N more not shown", or nothing under the cap.
    pub fn note(&self) -> Option<String> {
        (self.left_out > 0).then(|| format!("{} more not shown", self.left_out))
    }
}

/// A gene.
#[derive(Clone, Debug)]
pub struct Gene {
    /// `_key` (Ensembl id without version).
    pub key: String,
    /// Symbol (or the key when it has none).
    pub label: String,
    /// 0-based start, end.
    pub start: u32,
    /// End.
    pub end: u32,
    /// `-` for the reverse strand.
    pub reverse: bool,
    /// `gene_type`.
    pub kind: String,
}

/// A part of a transcript's structure (`exon`, `CDS`, `UTR`, …).
#[derive(Clone, Debug)]
pub struct Part {
    /// `type`.
    pub kind: String,
    /// Start.
    pub start: u32,
    /// End.
    pub end: u32,
}

/// A transcript and its structure rows.
#[derive(Clone, Debug)]
pub struct Transcript {
    /// `_key`.
    pub key: String,
    /// Name (or the key).
    pub label: String,
    /// Start.
    pub start: u32,
    /// End.
    pub end: u32,
    /// Reverse strand.
    pub reverse: bool,
    /// Structure rows (exons, CDS, UTRs; introns are drawn as the line).
    pub parts: Vec<Part>,
}

/// A catalog variant.
#[derive(Clone, Debug)]
pub struct Variant {
    /// SPDI (its id in links).
    pub spdi: String,
    /// Document handle (`variants/<key>`), which QTL edges start from.
    pub handle: String,
    /// 0-based position.
    pub pos: u32,
    /// `gnomad_af_total`, else `bravo_af`.
    pub af: Option<f64>,
    /// The mouse strains carrying it (`strain`; empty for human variants).
    pub strains: Vec<String>,
}

/// A genomic element.
#[derive(Clone, Debug)]
pub struct Element {
    /// `_key`.
    pub key: String,
    /// `type`.
    pub kind: String,
    /// Start.
    pub start: u32,
    /// End.
    pub end: u32,
    /// Chromosome (its link names the element's own region).
    pub chr: String,
}

/// A QTL link from a shown variant to a gene (eQTL, spliceQTL, …) or an element (caQTL).
#[derive(Clone, Debug)]
pub struct Link {
    /// The variant's SPDI.
    pub spdi: String,
    /// The variant's position.
    pub from: u32,
    /// Where the target is on the same chromosome (a gene's TSS, an element's middle); None
    /// when it is elsewhere.
    pub to: Option<u32>,
    /// The target: the gene's symbol or the element's key.
    pub target: String,
    /// `label` (`eQTL`, `spliceQTL`, `caQTL`, …).
    pub label: String,
    /// `neg_log10_pvalue`.
    pub neg_log10_p: Option<f64>,
    /// The edge's endpoint below the API (`/variants/genes`, `/variants/genomic-elements`).
    pub endpoint: &'static str,
}

/// Every track of one region.
#[derive(Clone, Debug)]
pub struct View {
    /// The region.
    pub region: Region,
    /// Whose catalog the tracks come from.
    pub organism: Organism,
    /// Genes.
    pub genes: Track<Gene>,
    /// Transcripts.
    pub transcripts: Track<Transcript>,
    /// Variants.
    pub variants: Track<Variant>,
    /// Elements.
    pub elements: Track<Element>,
    /// QTL links of the drawn variants.
    pub links: Track<Link>,
}

fn float(c: &Collection, o: u64, m: Member) -> Option<f64> {
    member_value(c, o, m).as_f64()
}

fn span(c: &Collection, o: u64, start: Member, end: Member) -> Option<(u32, u32)> {
    Some((int(c, o, start)?, int(c, o, end)?))
}

/// Gathers the tracks of `r` from `organism`'s collections.
pub fn gather(ctx: &Ctx<'_>, r: &Region, organism: Organism) -> View {
    let variants = variant_track(ctx, r, organism);
    // The QTL edges start from human variants only; a mouse variant's handle has none.
    let links = match organism {
        Organism::Human => link_track(ctx, r, &variants.items),
        Organism::Mouse => Track::default(),
    };
    View {
        region: r.clone(),
        organism,
        genes: gene_track(ctx, r, organism),
        transcripts: transcript_track(ctx, r, organism),
        links,
        elements: element_track(ctx, r, organism),
        variants,
    }
}

fn gene_track(ctx: &Ctx<'_>, r: &Region, organism: Organism) -> Track<Gene> {
    let g = ctx.coll(organism.collection(GENES));
    let mut all = Vec::new();
    if let Some(c) = g {
        for o in sets::overlapping(g, r).iter() {
            let (Some(key), Some((start, end))) =
                (sets::key(c, o), span(c, o, genes::m::start, genes::m::end))
            else {
                continue;
            };
            all.push(Gene {
                label: c
                    .str_of(o, genes::m::symbol)
                    .or_else(|| c.str_of(o, genes::m::name))
                    .unwrap_or_else(|| key.clone()),
                key,
                start,
                end,
                reverse: c.str_of(o, genes::m::strand).as_deref() == Some("-"),
                kind: c.str_of(o, genes::m::gene_type).unwrap_or_default(),
            });
        }
    }
    Track::capped(all, CAP, |g| g.start)
}

fn transcript_track(ctx: &Ctx<'_>, r: &Region, organism: Organism) -> Track<Transcript> {
    let t = ctx.coll(organism.collection(TRANSCRIPTS));
    let s = ctx.coll(organism.collection(GENES_STRUCTURE));
    let mut all = Vec::new();
    if let Some(c) = t {
        for o in sets::overlapping(t, r).iter() {
            let (Some(key), Some((start, end))) = (
                sets::key(c, o),
                span(c, o, transcripts::m::start, transcripts::m::end),
            ) else {
                continue;
            };
            all.push(Transcript {
                label: c
                    .str_of(o, transcripts::m::name)
                    .unwrap_or_else(|| key.clone()),
                key,
                start,
                end,
                reverse: c.str_of(o, transcripts::m::strand).as_deref() == Some("-"),
                parts: Vec::new(),
            });
        }
    }
    let mut track = Track::capped(all, TRANSCRIPT_CAP, |t| t.start);
    // Structure only for the drawn transcripts.
    if let Some(sc) = s {
        for tr in &mut track.items {
            for o in sets::exact(s, genes_structure::m::transcript_id, &tr.key).iter() {
                let kind = sc.str_of(o, genes_structure::m::r#type).unwrap_or_default();
                if kind == "intron" {
                    continue;
                }
                if let Some((start, end)) =
                    span(sc, o, genes_structure::m::start, genes_structure::m::end)
                {
                    tr.parts.push(Part { kind, start, end });
                }
            }
        }
    }
    track
}

fn variant_track(ctx: &Ctx<'_>, r: &Region, organism: Organism) -> Track<Variant> {
    let v = ctx.coll(organism.collection(VARIANTS));
    let mut track = Track::default();
    let Some(c) = v else { return track };
    check_whole(c, IndexKind::Points);
    let Some(points) = c.points() else {
        return track;
    };
    // The index lists a region's points in position order: the drawn ones are its first CAP,
    // and only their records are read (a dense megabase holds far more).
    let mut ords = points.in_range(r.chr(), r.start(), r.end());
    track.left_out = ords.len().saturating_sub(CAP);
    ords.truncate(CAP);
    c.prefetch(&ords);
    for o in ords {
        let (Some(spdi), Some(pos), Some(handle)) = (
            c.str_of(o, variants::m::spdi),
            int(c, o, variants::m::pos),
            sets::handle(c, o),
        ) else {
            continue;
        };
        // From the record's `annotations` (the numeric columns are an index detail).
        let ann = member_value(c, o, variants::m::annotations);
        let af = ["gnomad_af_total", "bravo_af"]
            .iter()
            .find_map(|k| ann.get(k).and_then(af_value));
        let strains = match member_value(c, o, variants::m::strain) {
            serde_json::Value::Array(a) => a
                .iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect(),
            _ => Vec::new(),
        };
        track.items.push(Variant {
            spdi,
            handle,
            pos,
            af,
            strains,
        });
    }
    track
}

/// A frequency stored as a number or as numeric text (`"0.1"`).
fn af_value(v: &serde_json::Value) -> Option<f64> {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
        .filter(|f: &f64| f.is_finite())
}

fn element_track(ctx: &Ctx<'_>, r: &Region, organism: Organism) -> Track<Element> {
    let e = ctx.coll(organism.collection(GENOMIC_ELEMENTS));
    let mut all = Vec::new();
    if let Some(c) = e {
        for o in sets::overlapping(e, r).iter() {
            let (Some(key), Some((start, end))) = (
                sets::key(c, o),
                span(c, o, genomic_elements::m::start, genomic_elements::m::end),
            ) else {
                continue;
            };
            all.push(Element {
                key,
                kind: c.str_of(o, genomic_elements::m::r#type).unwrap_or_default(),
                start,
                end,
                chr: r.chr().to_string(),
            });
        }
    }
    Track::capped(all, CAP, |e| e.start)
}

/// The QTL edges from the drawn variants: to genes (`variants_genes`) and to elements
/// (`variants_genomic_elements`, caQTL).
fn link_track(ctx: &Ctx<'_>, r: &Region, shown: &[Variant]) -> Track<Link> {
    let by_handle: HashMap<&str, &Variant> = shown.iter().map(|x| (x.handle.as_str(), x)).collect();
    let mut all = Vec::new();
    let targets = [
        (
            variants_genes::COLL,
            variants_genes::m::_from,
            variants_genes::m::_to,
            variants_genes::m::label,
            variants_genes::m::neg_log10_pvalue,
            "/variants/genes",
        ),
        (
            variants_genomic_elements::COLL,
            variants_genomic_elements::m::_from,
            variants_genomic_elements::m::_to,
            variants_genomic_elements::m::label,
            variants_genomic_elements::m::neg_log10_pvalue,
            "/variants/genomic-elements",
        ),
    ];
    for (coll, from, to, label, p, endpoint) in targets {
        let edges = ctx.coll(coll);
        let Some(ec) = edges else { continue };
        let set = sets::adjacent(edges, from, shown.iter().map(|x| x.handle.clone()));
        for o in set.iter() {
            let (Some(f), Some(t)) = (ec.str_of(o, from), ec.str_of(o, to)) else {
                continue;
            };
            let Some(x) = by_handle.get(f.as_str()) else {
                continue;
            };
            let (target, place) = target_of(ctx, &t, r);
            all.push(Link {
                spdi: x.spdi.clone(),
                from: x.pos,
                to: place,
                target,
                label: ec.str_of(o, label).unwrap_or_default(),
                neg_log10_p: float(ec, o, p),
                endpoint,
            });
        }
    }
    Track::capped(all, CAP, |l| l.from)
}

/// The name and (when on the region's chromosome) the position of an edge's target handle:
/// a gene's symbol and TSS, or an element's key and middle.
fn target_of(ctx: &Ctx<'_>, handle: &str, r: &Region) -> (String, Option<u32>) {
    let fallback = handle.rsplit('/').next().unwrap_or(handle).to_string();
    if let Some((c, o)) = ctx.cat.resolve(handle) {
        if sets::key_in(handle, genes::COLL).is_some() {
            let name = c.str_of(o, genes::m::symbol).unwrap_or(fallback);
            let on = c.str_of(o, genes::m::chr).as_deref() == Some(r.chr());
            let reverse = c.str_of(o, genes::m::strand).as_deref() == Some("-");
            let tss = if reverse {
                int(c, o, genes::m::end)
            } else {
                int(c, o, genes::m::start)
            };
            return (name, tss.filter(|_| on));
        }
        if sets::key_in(handle, genomic_elements::COLL).is_some() {
            let on = c.str_of(o, genomic_elements::m::chr).as_deref() == Some(r.chr());
            let mid = span(c, o, genomic_elements::m::start, genomic_elements::m::end)
                .map(|(s, e)| s + (e - s) / 2);
            return (fallback, mid.filter(|_| on));
        }
    }
    (fallback, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_cap_keeps_the_first_in_position_order_and_counts_the_rest() {
        let t = Track::capped((0..2_005u32).rev().collect(), CAP, |&x| x);
        assert_eq!(t.items.len(), CAP);
        assert_eq!((t.items[0], t.items[CAP - 1]), (0, 1_999));
        assert_eq!(t.note().as_deref(), Some("5 more not shown"));
        let small = Track::capped(vec![3u32, 1], CAP, |&x| x);
        assert_eq!((small.items, small.left_out), (vec![1, 3], 0));
        assert_eq!(Track::<u32>::default().note(), None);
    }

    #[test]
    fn test_af_value_reads_numbers_and_numeric_text() {
        use serde_json::json;
        assert_eq!(af_value(&json!(0.25)), Some(0.25));
        assert_eq!(af_value(&json!("0.1")), Some(0.1));
        assert_eq!(af_value(&json!("x")), None);
        assert_eq!(af_value(&json!(null)), None);
    }
}
