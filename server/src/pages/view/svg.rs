//! The region drawn as one inline SVG: a ruler, genes (packed rows, strand chevrons), QTL links,
//! variants (ticks coloured by allele frequency, with a legend), genomic elements, and one row
//! per transcript (exons, CDS). Every item is a link to its JSON answer with a tooltip.

use std::fmt::Write;

use crate::pages::html::escape;
use crate::pages::view::organism_param;
use crate::pages::view::tracks::{Track, View};
use varcat_query::params::Organism;

/// Drawing width (px).
pub const WIDTH: u32 = 1_200;
const LEFT: f64 = 40.0;
const PLOT: f64 = 1_120.0;
/// Most gene rows.
pub const GENE_ROWS: usize = 12;
const ELEMENT_ROWS: usize = 4;
/// Width of a label character (px, 11 px system-ui), for packing.
const CHAR_PX: f64 = 6.5;
const GAP_PX: f64 = 4.0;

/// Allele-frequency bins: (upper bound, colour, legend); a missing frequency is grey.
pub const AF_BINS: [(f64, &str, &str); 4] = [
    (0.001, "#2166ac", "AF < 0.001"),
    (0.01, "#67a9cf", "0.001 ≤ AF < 0.01"),
    (0.05, "#ef8a62", "0.01 ≤ AF < 0.05"),
    (f64::INFINITY, "#b2182b", "AF ≥ 0.05"),
];
/// The colour of a variant without a frequency.
pub const AF_NONE: &str = "#999";

/// Colours of the known element types (others grey).
const ELEMENT_COLOURS: [(&str, &str); 3] = [
    ("candidate cis regulatory element", "#e6550d"),
    ("accessible dna elements", "#31a354"),
    ("tested elements", "#756bb1"),
];

/// Colours of QTL labels (others grey).
const LINK_COLOURS: [(&str, &str); 3] = [
    ("eQTL", "#d62728"),
    ("spliceQTL", "#1f77b4"),
    ("caQTL", "#2ca02c"),
];

/// The colour of allele frequency `af`.
pub fn af_colour(af: Option<f64>) -> &'static str {
    match af {
        None => AF_NONE,
        Some(f) => AF_BINS
            .iter()
            .find(|(upper, _, _)| f < *upper)
            .map_or(AF_NONE, |b| b.1),
    }
}

fn colour_of(table: &[(&str, &'static str)], key: &str) -> &'static str {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("#888", |(_, c)| c)
}

/// Maps positions of the view's region to x.
struct Scale {
    start: f64,
    len: f64,
}

impl Scale {
    fn x(&self, pos: u32) -> f64 {
        let x = LEFT + (f64::from(pos) - self.start) / self.len * PLOT;
        x.clamp(LEFT, LEFT + PLOT)
    }

    /// The x span of `[s, e)`, at least 1 px wide.
    fn span(&self, s: u32, e: u32) -> (f64, f64) {
        let (a, b) = (self.x(s), self.x(e));
        (a, (b - a).max(1.0))
    }
}

/// Tick step (1-2-5 series) giving 5–10 ticks over `len` bases.
pub fn tick_step(len: u32) -> u32 {
    let mut step = 1u32;
    loop {
        for m in [1, 2, 5] {
            let s = step.saturating_mul(m);
            if len / s <= 10 {
                return s;
            }
        }
        step = step.saturating_mul(10);
    }
}

/// A position as a ruler label: `9.55 Mb`, `120 kb`, `15 bp`.
pub fn tick_label(pos: u32, step: u32) -> String {
    let (unit, div) = if step >= 100_000 {
        ("Mb", 1e6)
    } else if step >= 100 {
        ("kb", 1e3)
    } else {
        ("bp", 1.0)
    };
    let v = f64::from(pos) / div;
    // Enough decimals to tell neighbouring ticks apart.
    let decimals = [1.0, 10.0, 100.0, 1_000.0]
        .iter()
        .position(|&m| ((f64::from(step) / div) * m).fract().abs() < 1e-9)
        .unwrap_or(3);
    format!("{v:.decimals$} {unit}")
}

/// Whether a label `label` px wide goes left of the bar at `x`, `w` wide: when it does not fit
/// on the right and does on the left.
fn label_left(x: f64, w: f64, label: f64) -> bool {
    x + w + label > f64::from(WIDTH) && x - label >= 0.0
}

/// Greedy interval packing: the row of each `(x, width)` (in input order), None past `rows`.
pub fn pack(items: &[(f64, f64)], rows: usize) -> Vec<Option<usize>> {
    let mut ends: Vec<f64> = Vec::new();
    items
        .iter()
        .map(|&(x, w)| {
            if let Some(r) = ends.iter().position(|&e| e + GAP_PX <= x) {
                ends[r] = x + w;
                Some(r)
            } else if ends.len() < rows {
                ends.push(x + w);
                Some(ends.len() - 1)
            } else {
                None
            }
        })
        .collect()
}

fn title(out: &mut String, text: &str) {
    let _ = write!(out, "<title>{}</title>", escape(text));
}

fn heading(out: &mut String, y: f64, name: &str, note: Option<String>) {
    let _ = write!(
        out,
        "<text x=\"{LEFT}\" y=\"{y:.1}\" class=\"h\">{}</text>",
        escape(name)
    );
    if let Some(n) = note {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{y:.1}\" class=\"note\">{}</text>",
            LEFT + PLOT,
            escape(&n)
        );
    }
}

fn empty_note<T>(out: &mut String, y: f64, t: &Track<T>, what: &str) {
    if t.items.is_empty() {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{y:.1}\" class=\"l\">no {} in this region</text>",
            LEFT + 8.0,
            escape(what)
        );
    }
}

/// The SVG of `view`, its links below `base` (the API's base path).
pub fn render(view: &View, base: &str) -> String {
    let r = &view.region;
    let org = organism_param(view.organism);
    let sc = Scale {
        start: f64::from(r.start()),
        len: f64::from(r.len()),
    };
    let mut body = String::with_capacity(64 * 1024);
    let mut y = 14.0;

    // Ruler.
    let step = tick_step(r.len());
    let _ = write!(
        body,
        "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" class=\"axis\"/>",
        LEFT + PLOT
    );
    let mut t = r.start().div_ceil(step).saturating_mul(step);
    while t < r.end() {
        let x = sc.x(t);
        let _ = write!(
            body,
            "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" class=\"axis\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" class=\"tick\">{}</text>",
            y + 5.0,
            y + 16.0,
            escape(&tick_label(t, step))
        );
        t = match t.checked_add(step) {
            Some(n) => n,
            None => break,
        };
    }
    y += 40.0;

    // Genes: packed rows, label after the bar.
    let genes = &view.genes;
    let spans: Vec<(f64, f64)> = genes
        .items
        .iter()
        .map(|g| {
            let (x, w) = sc.span(g.start, g.end);
            let label = GAP_PX + CHAR_PX * g.label.chars().count() as f64;
            if label_left(x, w, label) {
                (x - label, w + label)
            } else {
                (x, w + label)
            }
        })
        .collect();
    let rows = pack(&spans, GENE_ROWS);
    let unplaced = rows.iter().filter(|r| r.is_none()).count();
    let note = match genes.left_out + unplaced {
        0 => None,
        n => Some(format!("{n} more not shown")),
    };
    heading(&mut body, y, "Genes", note);
    y += 8.0;
    empty_note(&mut body, y + 10.0, genes, "genes");
    let used_rows = rows.iter().flatten().max().map_or(1, |m| m + 1);
    let mut tss = std::collections::HashMap::new();
    for (g, row) in genes.items.iter().zip(&rows) {
        let Some(row) = row else { continue };
        let gy = y + 4.0 + *row as f64 * 22.0;
        let (x, w) = sc.span(g.start, g.end);
        let label = GAP_PX + CHAR_PX * g.label.chars().count() as f64;
        let (lx, anchor) = if label_left(x, w, label) {
            (x - GAP_PX, " end")
        } else {
            (x + w + GAP_PX, "")
        };
        tss.insert(g.label.as_str(), gy + 8.0);
        let _ = write!(
            body,
            "<a href=\"{}\">",
            escape(&format!("{base}/genes?gene_id={}{org}", enc(&g.key)))
        );
        title(
            &mut body,
            &format!(
                "{} {} {}:{}-{} ({}) {}",
                g.label,
                g.key,
                r.chr(),
                g.start,
                g.end,
                if g.reverse { "-" } else { "+" },
                g.kind
            ),
        );
        let _ = write!(
            body,
            "<rect x=\"{x:.1}\" y=\"{gy:.1}\" width=\"{w:.1}\" height=\"8\" class=\"gene\"/>\
             <rect x=\"{x:.1}\" y=\"{gy:.1}\" width=\"{w:.1}\" height=\"8\" fill=\"url(#{})\"/>\
             <text x=\"{lx:.1}\" y=\"{:.1}\" class=\"l{anchor}\">{}</text></a>",
            if g.reverse { "rev" } else { "fwd" },
            gy + 8.0,
            escape(&g.label)
        );
    }
    y += 8.0 + used_rows as f64 * 22.0;

    // QTL links: from the variants' track (below) to the gene's TSS or an element's middle.
    let links_top = y;
    let band = 70.0;
    let var_y = links_top + band + 14.0;
    heading(&mut body, links_top + 4.0, "QTL links", view.links.note());
    let elements_y = var_y + 12.0 + 52.0;
    let mut link_svg = String::new();
    for l in &view.links.items {
        let x1 = sc.x(l.from);
        let to_element = l.endpoint.ends_with("genomic-elements");
        let (y1, y2) = if to_element {
            (var_y + 10.0, elements_y + 14.0)
        } else {
            (
                var_y,
                tss.get(l.target.as_str())
                    .copied()
                    .unwrap_or(links_top + 10.0),
            )
        };
        let inside = l.to.filter(|&p| p >= r.start() && p < r.end());
        let x2 = match (inside, l.to) {
            (Some(p), _) => sc.x(p),
            (None, Some(p)) if p < r.start() => LEFT,
            _ => LEFT + PLOT,
        };
        let opacity = l
            .neg_log10_p
            .map_or(0.5, |p| (0.3 + p / 20.0).clamp(0.3, 1.0));
        let cy = if to_element {
            y2 + 20.0
        } else {
            links_top + 10.0
        };
        let _ = write!(
            link_svg,
            "<a href=\"{}\">",
            escape(&format!("{base}{}?spdi={}", l.endpoint, enc(&l.spdi)))
        );
        title(
            &mut link_svg,
            &format!(
                "{} {} → {}{}",
                l.label,
                l.spdi,
                l.target,
                l.neg_log10_p
                    .map_or(String::new(), |p| format!(" (−log10 p {p:.2})"))
            ),
        );
        let _ = write!(
            link_svg,
            "<path d=\"M{x1:.1} {y1:.1} Q{:.1} {cy:.1} {x2:.1} {y2:.1}\" stroke=\"{}\" \
             stroke-opacity=\"{opacity:.2}\" class=\"link\"/>",
            (x1 + x2) / 2.0,
            colour_of(&LINK_COLOURS, &l.label)
        );
        if inside.is_none() {
            let _ = write!(
                link_svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" class=\"l edge\">{}</text>",
                x2,
                y2 - 2.0,
                escape(&format!("→ {}", l.target))
            );
        }
        link_svg.push_str("</a>");
    }
    if view.links.items.is_empty() {
        let why = match view.organism {
            Organism::Human => "no QTL links from this region's variants",
            Organism::Mouse => "no QTL links: the catalog's QTLs are human",
        };
        let _ = write!(
            body,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"l\">{}</text>",
            LEFT + 8.0,
            links_top + 22.0,
            escape(why)
        );
    }

    // Variants.
    let vars = &view.variants;
    heading(&mut body, var_y - 4.0, "Variants", vars.note());
    let tick_w = if vars.items.len() < 300 { 3.0 } else { 1.0 };
    empty_note(&mut body, var_y + 10.0, vars, "variants");
    for v in &vars.items {
        let x = sc.x(v.pos);
        let _ = write!(
            body,
            "<a href=\"{}\">",
            escape(&format!("{base}/variants?spdi={}{org}", enc(&v.spdi)))
        );
        title(
            &mut body,
            &format!(
                "{} {}:{} AF {}{}",
                v.spdi,
                r.chr(),
                v.pos,
                v.af.map_or("unknown".to_string(), |f| format!("{f}")),
                if v.strains.is_empty() {
                    String::new()
                } else {
                    format!(", strains {}", v.strains.join(", "))
                }
            ),
        );
        let _ = write!(
            body,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{tick_w}\" height=\"10\" fill=\"{}\"/></a>",
            x - tick_w / 2.0,
            var_y + 2.0,
            af_colour(v.af)
        );
    }
    // Legend.
    let mut lx = LEFT;
    let ly = var_y + 26.0;
    for (colour, text) in AF_BINS
        .iter()
        .map(|b| (b.1, b.2))
        .chain([(AF_NONE, "AF unknown")])
    {
        let _ = write!(
            body,
            "<rect x=\"{lx:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"l\">{}</text>",
            ly - 9.0,
            lx + 14.0,
            ly,
            escape(text)
        );
        lx += 14.0 + CHAR_PX * text.chars().count() as f64 + 16.0;
    }

    // Elements: packed rows, no labels.
    let els = &view.elements;
    heading(&mut body, elements_y, "Genomic elements", els.note());
    empty_note(&mut body, elements_y + 14.0, els, "genomic elements");
    let spans: Vec<(f64, f64)> = els.items.iter().map(|e| sc.span(e.start, e.end)).collect();
    let rows = pack(&spans, ELEMENT_ROWS);
    for ((e, row), (x, w)) in els.items.iter().zip(&rows).zip(&spans) {
        // Past the last row, elements overlap on it rather than vanish.
        let row = row.unwrap_or(ELEMENT_ROWS - 1);
        let ey = elements_y + 6.0 + row as f64 * 10.0;
        let _ = write!(
            body,
            "<a href=\"{}\">",
            escape(&format!(
                "{base}/genomic-elements?region={}:{}-{}{org}",
                e.chr, e.start, e.end
            ))
        );
        title(
            &mut body,
            &format!("{} {} {}:{}-{}", e.kind, e.key, e.chr, e.start, e.end),
        );
        let _ = write!(
            body,
            "<rect x=\"{x:.1}\" y=\"{ey:.1}\" width=\"{w:.1}\" height=\"8\" fill=\"{}\"/></a>",
            colour_of(&ELEMENT_COLOURS, &e.kind)
        );
    }
    y = elements_y + 6.0 + ELEMENT_ROWS as f64 * 10.0 + 18.0;

    // Transcripts: one row each.
    let trs = &view.transcripts;
    heading(&mut body, y, "Transcripts", trs.note());
    y += 8.0;
    empty_note(&mut body, y + 10.0, trs, "transcripts");
    for t in &trs.items {
        let mid = y + 16.0;
        let (x, w) = sc.span(t.start, t.end);
        let _ = write!(
            body,
            "<a href=\"{}\">",
            escape(&format!(
                "{base}/transcripts?transcript_id={}{org}",
                enc(&t.key)
            ))
        );
        title(
            &mut body,
            &format!(
                "{} {} {}:{}-{} ({}), {} parts",
                t.label,
                t.key,
                r.chr(),
                t.start,
                t.end,
                if t.reverse { "-" } else { "+" },
                t.parts.len()
            ),
        );
        let _ = write!(
            body,
            "<text x=\"{x:.1}\" y=\"{:.1}\" class=\"l\">{}</text>\
             <rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"6\" fill=\"url(#{})\"/>\
             <line x1=\"{x:.1}\" y1=\"{mid:.1}\" x2=\"{:.1}\" y2=\"{mid:.1}\" class=\"intron\"/>",
            mid - 9.0,
            escape(&t.label),
            mid - 3.0,
            if t.reverse { "revl" } else { "fwdl" },
            x + w,
        );
        for p in &t.parts {
            let h = match p.kind.as_str() {
                "CDS" => 12.0,
                "exon" | "UTR" => 8.0,
                _ => continue,
            };
            let (px, pw) = sc.span(p.start, p.end);
            let _ = write!(
                body,
                "<rect x=\"{px:.1}\" y=\"{:.1}\" width=\"{pw:.1}\" height=\"{h}\" class=\"{}\"/>",
                mid - h / 2.0,
                if h > 10.0 { "cds" } else { "exon" }
            );
        }
        body.push_str("</a>");
        y += 26.0;
    }
    y += 16.0;

    let mut out = String::with_capacity(body.len() + link_svg.len() + 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {WIDTH} {h:.0}\" role=\"img\" aria-label=\"{}\">\
         <style>text{{font:11px system-ui,sans-serif;fill:#222}}.h{{font-weight:bold}}\
         .note{{text-anchor:end;fill:#a00}}.tick{{text-anchor:middle;fill:#555}}\
         .axis{{stroke:#555}}.gene{{fill:#3b5b92}}.exon{{fill:#3b5b92}}.cds{{fill:#1b2b52}}\
         .intron{{stroke:#3b5b92}}.link{{fill:none;stroke-width:1.5}}.edge,.end{{text-anchor:end}}\
         a:hover rect,a:hover path{{stroke:#000}}</style>\
         <defs><pattern id=\"fwd\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">\
         <path d=\"M2 1L5 4L2 7\" stroke=\"#fff\" fill=\"none\"/></pattern>\
         <pattern id=\"rev\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">\
         <path d=\"M5 1L2 4L5 7\" stroke=\"#fff\" fill=\"none\"/></pattern>\
         <pattern id=\"fwdl\" width=\"10\" height=\"6\" patternUnits=\"userSpaceOnUse\">\
         <path d=\"M3 0L6 3L3 6\" stroke=\"#3b5b92\" fill=\"none\"/></pattern>\
         <pattern id=\"revl\" width=\"10\" height=\"6\" patternUnits=\"userSpaceOnUse\">\
         <path d=\"M6 0L3 3L6 6\" stroke=\"#3b5b92\" fill=\"none\"/></pattern></defs>",
        escape(&r.to_string()),
        h = y
    );
    out.push_str(&body);
    // Links last: drawn over the tracks they join.
    out.push_str(&link_svg);
    out.push_str("</svg>");
    out
}

/// Percent-encodes a query-string value (everything but unreserved characters and `:`).
pub fn enc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b':') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pages::view::tracks::{Element, Gene, Link, Part, Transcript, Variant};

    /// Checks that `s` is well-formed XML as far as tags go: every start tag is closed in
    /// order, attributes are quoted, and no text holds a raw `<` or an unescaped `&`.
    pub(crate) fn well_formed(s: &str) -> Result<(), String> {
        let mut stack: Vec<&str> = Vec::new();
        let mut rest = s;
        while let Some(i) = rest.find(['<', '&']) {
            let (text, tail) = rest.split_at(i);
            let _ = text;
            if tail.starts_with('&') {
                let end = tail.find(';').ok_or("& without ;")?;
                let ent = &tail[1..end];
                let ok = matches!(ent, "amp" | "lt" | "gt" | "quot" | "#39");
                if !ok {
                    return Err(format!("unknown entity &{ent};"));
                }
                rest = &tail[end + 1..];
                continue;
            }
            let end = tail.find('>').ok_or("unclosed tag")?;
            let tag = &tail[1..end];
            if tag.contains('<') {
                return Err(format!("< inside tag {tag:?}"));
            }
            if tag.matches('"').count() % 2 != 0 {
                return Err(format!("unbalanced quotes in {tag:?}"));
            }
            if let Some(name) = tag.strip_prefix('/') {
                match stack.pop() {
                    Some(open) if open == name => {}
                    other => return Err(format!("</{name}> closes {other:?}")),
                }
            } else if !tag.ends_with('/') && !tag.starts_with('!') {
                let name = tag.split([' ', '\n']).next().unwrap_or("");
                if !matches!(name, "meta" | "br" | "input") {
                    stack.push(name);
                }
            }
            rest = &tail[end + 1..];
        }
        if stack.is_empty() {
            Ok(())
        } else {
            Err(format!("unclosed {stack:?}"))
        }
    }

    pub(crate) fn sample_view() -> View {
        let region: varcat_query::parse::region::Region = "chr20:9540000-9600000".parse().unwrap();
        View {
            organism: Organism::Human,
            genes: Track {
                items: vec![Gene {
                    key: "ENSG00000101349".into(),
                    label: "PAK<5>&\"x\"".into(),
                    start: 9_537_369,
                    end: 9_839_076,
                    reverse: true,
                    kind: "protein_coding".into(),
                }],
                left_out: 0,
            },
            transcripts: Track {
                items: vec![Transcript {
                    key: "ENST00000353224".into(),
                    label: "PAK5-201".into(),
                    start: 9_537_369,
                    end: 9_839_076,
                    reverse: true,
                    parts: vec![
                        Part {
                            kind: "exon".into(),
                            start: 9_560_000,
                            end: 9_560_500,
                        },
                        Part {
                            kind: "CDS".into(),
                            start: 9_560_100,
                            end: 9_560_400,
                        },
                    ],
                }],
                left_out: 0,
            },
            variants: Track {
                items: vec![
                    Variant {
                        spdi: "NC_000020.11:9564577:A:T".into(),
                        handle: "variants/NC_000020.11:9564577:A:T".into(),
                        pos: 9_564_577,
                        af: Some(0.2),
                        strains: Vec::new(),
                    },
                    Variant {
                        spdi: "NC_000020.11:9564584:T:C".into(),
                        handle: "variants/NC_000020.11:9564584:T:C".into(),
                        pos: 9_564_584,
                        af: None,
                        strains: vec!["A_J".into(), "CAST_EiJ".into()],
                    },
                ],
                left_out: 7,
            },
            elements: Track {
                items: vec![Element {
                    key: "e1".into(),
                    kind: "tested elements".into(),
                    start: 9_550_320,
                    end: 9_550_587,
                    chr: "chr20".into(),
                }],
                left_out: 0,
            },
            links: Track {
                items: vec![Link {
                    spdi: "NC_000020.11:9564577:A:T".into(),
                    from: 9_564_577,
                    to: Some(9_839_076),
                    target: "PAK<5>&\"x\"".into(),
                    label: "eQTL".into(),
                    neg_log10_p: Some(4.0),
                    endpoint: "/variants/genes",
                }],
                left_out: 0,
            },
            region,
        }
    }

    /// Asserts that `svg` links each item of the sample view to its JSON answer, every link
    /// ending with `org` (the organism parameter, escaped, or nothing).
    fn assert_links(svg: &str, org: &str) {
        for href in [
            "/api/genes?gene_id=ENSG00000101349",
            "/api/transcripts?transcript_id=ENST00000353224",
            "/api/variants?spdi=NC_000020.11:9564577:A:T",
            "/api/genomic-elements?region=chr20:9550320-9550587",
        ] {
            assert!(
                svg.contains(&format!("href=\"{href}{org}\"")),
                "{href}{org}"
            );
        }
    }

    #[test]
    fn test_svg_is_well_formed_escaped_and_links_every_item() {
        let svg = render(&sample_view(), "/api");
        well_formed(&svg).unwrap();
        assert!(!svg.contains("PAK<5>"));
        assert!(svg.contains("PAK&lt;5&gt;&amp;&quot;x&quot;"));
        assert_links(&svg, "");
        assert!(svg.contains("href=\"/api/variants/genes?spdi=NC_000020.11:9564577:A:T\""));
        // The cap note and the colours of both variants.
        assert!(svg.contains("7 more not shown"));
        assert!(svg.contains("AF unknown, strains A_J, CAST_EiJ</title>"));
        assert!(svg.contains("fill=\"#b2182b\"") && svg.contains("fill=\"#999\""));
        // The eQTL gene's TSS (reverse strand: its end) is outside the region: an edge label.
        assert!(svg.contains("→ PAK&lt;5&gt;"));
    }

    #[test]
    fn test_mouse_view_links_name_the_organism() {
        let mut view = sample_view();
        view.organism = Organism::Mouse;
        view.links = Track::default();
        let svg = render(&view, "/api");
        well_formed(&svg).unwrap();
        assert_links(&svg, "&amp;organism=Mus%20musculus");
        assert!(svg.contains("no QTL links: the catalog&#39;s QTLs are human"));
    }

    #[test]
    fn test_checker_refuses_broken_markup() {
        assert!(well_formed("<a><b></a></b>").is_err());
        assert!(well_formed("<a>x < y</a>").is_err());
        assert!(well_formed("<a>&nbsp;</a>").is_err());
        assert!(well_formed("<a x=\"1></a>").is_err());
        assert!(well_formed("<a><br><rect/></a>").is_ok());
    }

    #[test]
    fn test_ruler_steps_and_labels() {
        assert_eq!(tick_step(60_000), 10_000);
        assert_eq!(tick_step(1_000_000), 100_000);
        assert_eq!(tick_step(1), 1);
        assert_eq!(tick_step(15), 2);
        assert_eq!(tick_label(9_550_000, 10_000), "9550 kb");
        assert_eq!(tick_label(9_500_000, 100_000), "9.5 Mb");
        assert_eq!(tick_label(9_550_000, 50_000), "9550 kb");
        assert_eq!(tick_label(12, 2), "12 bp");
    }

    #[test]
    fn test_pack_and_colours() {
        let rows = pack(&[(0.0, 10.0), (5.0, 10.0), (20.0, 5.0), (6.0, 1.0)], 2);
        assert_eq!(rows, vec![Some(0), Some(1), Some(0), None]);
        assert_eq!(af_colour(None), "#999");
        assert_eq!(af_colour(Some(0.0005)), "#2166ac");
        assert_eq!(af_colour(Some(0.001)), "#67a9cf");
        assert_eq!(af_colour(Some(0.03)), "#ef8a62");
        assert_eq!(af_colour(Some(0.5)), "#b2182b");
        assert_eq!(enc("a b/c:d"), "a%20b%2Fc:d");
        // A label that would run off the right edge goes left of its bar.
        assert!(label_left(1_160.0, 5.0, 40.0));
        assert!(!label_left(40.0, 5.0, 40.0) && !label_left(10.0, 1_180.0, 40.0));
    }
}
