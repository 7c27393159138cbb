//! What the viewer's search box (`/view?q=…`) means: a region, a variant (rsid or SPDI), an
//! Ensembl gene or transcript id, or a gene symbol, in that order; then the region to show, and
//! in which organism's catalog (human, or mouse: `mm_*` collections, GRCm39).

use varcat_format::collection::Collection;
use varcat_format::schema::{genes, transcripts, variants, Member};

use varcat_query::engine::Read;
use varcat_query::handler::Ctx;
use varcat_query::params::{Organism, GENES, TRANSCRIPTS, VARIANTS};
use varcat_query::parse::region::Region;
use varcat_query::parse::variant::{Rsid, Spdi};
use varcat_query::sets;

/// The longest region the viewer draws (bases).
pub const MAX_REGION: u32 = 1_000_000;
/// Bases shown on each side of a variant found by id.
pub const VARIANT_FLANK: u32 = 5_000;
/// The least flank on each side of a gene or transcript found by id or symbol.
pub const MIN_FEATURE_FLANK: u32 = 10_000;

/// A search, classified by its shape alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// A region, already checked (length within [`MAX_REGION`]).
    Region(Region),
    /// A dbSNP id.
    Rsid(String),
    /// An SPDI.
    Spdi(String),
    /// An Ensembl gene or transcript id (version allowed).
    Ensembl(String),
    /// Anything else that could be a gene symbol.
    Symbol(String),
}

/// What the search shapes are, for the 400 page.
pub const EXPECTED: &str = "a region (chr20:9540000-9600000, 20:9,540,000-9,600,000), an \
rsid (rs2045642915), an SPDI (NC_000020.11:9564577:A:T), an Ensembl gene or transcript id \
(ENSG00000101349, ENST00000353224, ENSMUSG00000102693) or a gene symbol (PAK5)";

/// Parses a region as typed by a person: thousands separators (`,`) and a contig without its
/// `chr` prefix are accepted; the length is capped. The error is the reason for a 400 page.
pub fn region(text: &str) -> Result<Region, String> {
    let t: String = text.trim().chars().filter(|&c| c != ',').collect();
    let t = if t.starts_with("chr") {
        t
    } else {
        format!("chr{t}")
    };
    let r: Region = t.parse().map_err(|e| format!("the region {e}"))?;
    if r.len() > MAX_REGION {
        return Err(format!(
            "the region is {} bases; the viewer shows at most {MAX_REGION}",
            r.len()
        ));
    }
    Ok(r)
}

/// Classifies the search text `q` (trimmed); the error is the reason for a 400 page.
pub fn classify(q: &str) -> Result<Query, String> {
    let q = q.trim();
    if q.is_empty() {
        return Err(format!("the search is empty; give {EXPECTED}"));
    }
    if q.parse::<Spdi>().is_ok() {
        return Ok(Query::Spdi(q.to_string()));
    }
    if q.contains(':') {
        return region(q).map(Query::Region);
    }
    if q.parse::<Rsid>().is_ok() {
        return Ok(Query::Rsid(q.to_string()));
    }
    let symbol_like = q.len() <= 64
        && q.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'@'));
    if !symbol_like {
        return Err(format!(
            "\"{q}\" is not a search the viewer knows; give {EXPECTED}"
        ));
    }
    if ["ENSG", "ENST", "ENSMUSG", "ENSMUST"]
        .iter()
        .any(|p| q.starts_with(p))
    {
        return Ok(Query::Ensembl(q.to_string()));
    }
    Ok(Query::Symbol(q.to_string()))
}

/// A region of one organism's assembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The region.
    pub region: Region,
    /// Whose catalog it is read from.
    pub organism: Organism,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// One region to show.
    Region(Place),
    /// Several matches: (label, place) each, for a page of links.
    Choices(Vec<(String, Place)>),
    /// Nothing in the catalog.
    Nothing,
}

/// The integer member `m` of record `o`.
pub fn int(c: &Collection, o: u64, m: Member) -> Option<u32> {
    let raw = c.raw(o, m)?;
    std::str::from_utf8(&raw).ok()?.trim().parse().ok()
}

/// `[start - flank, end + flank)` on `chr`, clipped at 0 and to [`MAX_REGION`] bases.
pub fn padded(chr: &str, start: u32, end: u32, flank: u32) -> Option<Region> {
    let s = start.saturating_sub(flank);
    let e = end.max(start + 1).saturating_add(flank).min(s + MAX_REGION);
    format!("{chr}:{s}-{e}").parse().ok()
}

/// The span of a feature record (`chr`, `start`, `end` members) plus 10 % on each side (at
/// least [`MIN_FEATURE_FLANK`]).
fn feature(c: &Collection, o: u64, chr: Member, start: Member, end: Member) -> Option<Region> {
    let (s, e) = (int(c, o, start)?, int(c, o, end)?);
    let flank = (e.saturating_sub(s) / 10).max(MIN_FEATURE_FLANK);
    padded(&c.str_of(o, chr)?, s, e, flank)
}

fn variant_region(c: &Collection, o: u64) -> Option<Region> {
    let pos = int(c, o, variants::m::pos)?;
    padded(&c.str_of(o, variants::m::chr)?, pos, pos + 1, VARIANT_FLANK)
}

fn gene_region(c: &Collection, o: u64) -> Option<Region> {
    feature(c, o, genes::m::chr, genes::m::start, genes::m::end)
}

/// One match → its region; several → choices labelled by `label`; none → nothing.
fn found(
    c: &Collection,
    organism: Organism,
    ords: Vec<u64>,
    place: impl Fn(&Collection, u64) -> Option<Region>,
    label: impl Fn(&Collection, u64) -> Option<String>,
) -> Found {
    let mut hits: Vec<(String, Place)> = ords
        .into_iter()
        .filter_map(|o| {
            let region = place(c, o)?;
            Some((label(c, o).unwrap_or_default(), Place { region, organism }))
        })
        .collect();
    hits.dedup();
    match hits.len() {
        0 => Found::Nothing,
        1 => Found::Region(hits.remove(0).1),
        _ => Found::Choices(hits),
    }
}

/// Finds where `q` is in the catalog of `organism`, or when none is given in the human
/// catalog and then the mouse one (so `Xkr4` or a mouse SPDI needs no organism).
pub fn find(ctx: &Ctx<'_>, q: &Query, organism: Option<Organism>) -> Found {
    if let Query::Region(r) = q {
        return Found::Region(Place {
            region: r.clone(),
            organism: organism.unwrap_or(Organism::Human),
        });
    }
    let tries = match organism {
        Some(o) => vec![o],
        None => vec![Organism::Human, Organism::Mouse],
    };
    tries
        .into_iter()
        .map(|o| find_in(ctx, q, o))
        .find(|f| *f != Found::Nothing)
        .unwrap_or(Found::Nothing)
}

/// How people type a symbol, tried after the exact text: human symbols are upper case
/// (`pak5` → `PAK5`), mouse symbols capitalised (`pax6`, `PAX6` → `Pax6`).
fn symbol_forms(s: &str, organism: Organism) -> [String; 2] {
    let other = match organism {
        Organism::Human => s.to_ascii_uppercase(),
        Organism::Mouse => {
            let lower = s.to_ascii_lowercase();
            let mut chars = lower.chars();
            chars.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + chars.as_str()
            })
        }
    };
    [s.to_string(), other]
}

fn find_in(ctx: &Ctx<'_>, q: &Query, organism: Organism) -> Found {
    let v = ctx.coll(organism.collection(VARIANTS));
    let g = ctx.coll(organism.collection(GENES));
    let spdi = |c: &Collection, o| c.str_of(o, variants::m::spdi);
    let symbol = |c: &Collection, o| {
        let key = sets::key(c, o)?;
        Some(match c.str_of(o, genes::m::symbol) {
            Some(s) => format!("{s} ({key})"),
            None => key,
        })
    };
    match q {
        Query::Region(r) => Found::Region(Place {
            region: r.clone(),
            organism,
        }),
        Query::Rsid(id) => v.map_or(Found::Nothing, |c| {
            let ords = sets::exact(v, variants::m::rsid, id).to_vec();
            found(c, organism, ords, variant_region, spdi)
        }),
        Query::Spdi(id) => v.map_or(Found::Nothing, |c| {
            let ords = sets::exact(v, variants::m::spdi, id).to_vec();
            found(c, organism, ords, variant_region, spdi)
        }),
        Query::Ensembl(id) if id.starts_with("ENST") || id.starts_with("ENSMUST") => {
            let t = ctx.coll(organism.collection(TRANSCRIPTS));
            t.map_or(Found::Nothing, |c| {
                let place = |c: &Collection, o| {
                    feature(
                        c,
                        o,
                        transcripts::m::chr,
                        transcripts::m::start,
                        transcripts::m::end,
                    )
                };
                found(c, organism, sets::keys(t, id).to_vec(), place, sets::key)
            })
        }
        Query::Ensembl(id) => g.map_or(Found::Nothing, |c| {
            found(c, organism, sets::keys(g, id).to_vec(), gene_region, symbol)
        }),
        Query::Symbol(s) => g.map_or(Found::Nothing, |c| {
            for t in symbol_forms(s, organism) {
                for m in [genes::m::symbol, genes::m::name] {
                    let ords = sets::exact(g, m, &t).to_vec();
                    if !ords.is_empty() {
                        return found(c, organism, ords, gene_region, symbol);
                    }
                }
            }
            Found::Nothing
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(s: &str) -> Query {
        Query::Region(s.parse().unwrap())
    }

    #[test]
    fn test_classify_each_kind() {
        let cases = [
            ("chr20:9540000-9600000", reg("chr20:9540000-9600000")),
            ("  20:9,540,000-9,600,000 ", reg("chr20:9540000-9600000")),
            ("chrX:1-2", reg("chrX:1-2")),
            ("rs2045642915", Query::Rsid("rs2045642915".into())),
            (
                "NC_000020.11:9564577:A:T",
                Query::Spdi("NC_000020.11:9564577:A:T".into()),
            ),
            (
                "NC_000010.11:79347444::CCTC",
                Query::Spdi("NC_000010.11:79347444::CCTC".into()),
            ),
            (
                "ENSG00000101349.17",
                Query::Ensembl("ENSG00000101349.17".into()),
            ),
            ("ENST00000353224", Query::Ensembl("ENST00000353224".into())),
            (
                "ENSMUSG00000102693",
                Query::Ensembl("ENSMUSG00000102693".into()),
            ),
            (
                "ENSMUST00000193812",
                Query::Ensembl("ENSMUST00000193812".into()),
            ),
            ("Xkr4", Query::Symbol("Xkr4".into())),
            ("PAK5", Query::Symbol("PAK5".into())),
            ("pak5", Query::Symbol("pak5".into())),
            ("HLA-A", Query::Symbol("HLA-A".into())),
            // `rs` not followed by digits is a symbol-shaped word, not an rsid.
            ("rsx", Query::Symbol("rsx".into())),
        ];
        for (q, want) in cases {
            assert_eq!(classify(q), Ok(want), "{q:?}");
        }
    }

    #[test]
    fn test_classify_refusals_say_why() {
        let e = classify("chr1:5-").unwrap_err();
        assert!(e.contains("must look like chr<name>:<start>-<end>"), "{e}");
        let e = classify("chr1:9-5").unwrap_err();
        assert!(e.contains("start < end"), "{e}");
        let e = classify("chr1:0-1000001").unwrap_err();
        assert_eq!(
            e,
            "the region is 1000001 bases; the viewer shows at most 1000000"
        );
        assert!(classify("chr1:0-1000000").is_ok());
        for q in ["", "   ", "two words", "<script>", "a\"b"] {
            let e = classify(q).unwrap_err();
            assert!(e.contains("rs2045642915"), "{q:?}: {e}");
        }
    }

    #[test]
    fn test_region_with_commas_and_bare_contig() {
        assert_eq!(
            region("1:1,000-2,000").unwrap().to_string(),
            "chr1:1000-2000"
        );
        assert!(region("chr1:1,000").is_err());
    }

    #[test]
    fn test_symbol_forms_follow_each_organisms_case() {
        assert_eq!(symbol_forms("pak5", Organism::Human), ["pak5", "PAK5"]);
        assert_eq!(symbol_forms("PAX6", Organism::Mouse), ["PAX6", "Pax6"]);
        assert_eq!(
            symbol_forms("4933401j01rik", Organism::Mouse),
            ["4933401j01rik", "4933401j01rik"]
        );
    }

    #[test]
    fn test_padded_clips_at_zero_and_at_the_cap() {
        assert_eq!(
            padded("chr1", 100, 101, 5_000).unwrap().to_string(),
            "chr1:0-5101"
        );
        let r = padded("chr1", 10_000_000, 12_000_000, 200_000).unwrap();
        assert_eq!((r.start(), r.len()), (9_800_000, MAX_REGION));
    }
}
