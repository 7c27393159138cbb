//! `GET /view`: a region you can look at. `/view?region=chr20:9540000-9600000` is one
//! self-contained HTML page (inline CSS and SVG, no script, no external asset: it works
//! air-gapped) with tracks for genes, QTL links, variants, genomic elements and transcripts;
//! `/view?q=<search>` (the landing page's search box) resolves the search and answers 303 to
//! the region, a page of choices, or a 400/404 page saying why. `organism=Mus musculus` reads
//! the mouse collections (GRCm39); a search without it tries human, then mouse.

pub mod resolve;
pub mod svg;
pub mod tracks;

use std::fmt::Write;

use varcat_format::collection::Collections;

use crate::http::message::Response;
use crate::pages::html::escape;
use resolve::{Found, Place, MAX_REGION};
use svg::enc;
use varcat_query::handler::{Answer, Ctx};
use varcat_query::params::Organism;
use varcat_query::parse::region::Region;
use varcat_query::query::RawQuery;

/// The viewer's path (beside the landing page, outside the API's base path).
pub const PATH: &str = "/view";

/// The example region (the sample catalog's PAK5 locus).
pub const EXAMPLE: &str = "chr20:9540000-9600000";

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1240px;\
padding:0 1em;color:#222}a{color:#0645ad}form{margin:.6em 0}input[type=search]{width:28em;\
font:inherit;padding:.2em .4em}nav a{margin-right:1em}.why{color:#a00}svg{display:block;\
margin-top:.5em}small{color:#666}";

/// Answers `/view?<query>` from `cat`, with links to the API below `base`: the page (200), or
/// the finished response (303, 400, 404).
pub fn answer(cat: &Collections, base: &str, query: &str) -> Result<Answer, Response> {
    let raw = RawQuery::parse(query).map_err(|e| {
        let why: Vec<String> = e.issues.into_iter().map(|i| i.message).collect();
        refusal(400, &why.join("; "), "")
    })?;
    let q = raw.get("q").unwrap_or("");
    let organism = match raw.get("organism") {
        None => None,
        Some(name) => Some(Organism::named(name).ok_or_else(|| {
            let why = format!(
                "organism must be '{}' or '{}', got '{name}'",
                Organism::Human.name(),
                Organism::Mouse.name()
            );
            refusal(400, &why, q)
        })?),
    };
    if let Some(text) = raw.get("region") {
        let region = resolve::region(text).map_err(|why| refusal(400, &why, q))?;
        let organism = organism.unwrap_or(Organism::Human);
        let view = tracks::gather(&Ctx { cat }, &region, organism);
        return Ok(html_answer(page(&view, base, q)));
    }
    let query = resolve::classify(q).map_err(|why| refusal(400, &why, q))?;
    match resolve::find(&Ctx { cat }, &query, organism) {
        Found::Region(p) => Err(see_other(&p, q)),
        Found::Choices(list) => Ok(html_answer(choices(&list, q))),
        Found::Nothing => Err(refusal(
            404,
            &format!(
                "nothing in the {}catalog matches \"{}\"",
                organism.map_or(String::new(), |o| format!("{} ", o.name())),
                q.trim()
            ),
            q,
        )),
    }
}

fn html_answer(body: String) -> Answer {
    Answer {
        body: body.into_bytes(),
        headers: vec![("Content-Type", "text/html; charset=utf-8".into())],
        more: None,
    }
}

/// `&organism=…` for a link to the API or the viewer in `o`'s catalog; nothing for human, the
/// default everywhere.
pub fn organism_param(o: Organism) -> &'static str {
    match o {
        Organism::Human => "",
        Organism::Mouse => "&organism=Mus%20musculus",
    }
}

/// The URL of the view of `p` (with the search that led there, to keep it in the box).
pub fn url(p: &Place, q: &str) -> String {
    let mut u = format!(
        "{PATH}?region={}{}",
        enc(&p.region.to_string()),
        organism_param(p.organism)
    );
    if !q.trim().is_empty() {
        let _ = write!(u, "&q={}", enc(q.trim()));
    }
    u
}

fn see_other(p: &Place, q: &str) -> Response {
    let to = url(p, q);
    Response {
        status: 303,
        headers: vec![
            ("Location", to.clone().into()),
            ("Content-Type", "text/html; charset=utf-8".into()),
            ("Cache-Control", "no-cache".into()),
        ],
        body: format!(
            "<!doctype html><a href=\"{}\">{}</a>\n",
            escape(&to),
            escape(&to)
        )
        .into_bytes(),
    }
}

fn head(h: &mut String, title: &str, q: &str, organism: Option<Organism>) {
    let _ = write!(
        h,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>\
         <p><a href=\"/\">varcat</a> · region viewer</p>",
        escape(title)
    );
    search_form(h, q, organism);
}

/// The search box (a plain form: no script), with the organism to search (`organism`
/// selected; none: human, then mouse).
pub fn search_form(h: &mut String, q: &str, organism: Option<Organism>) {
    let _ = write!(
        h,
        "<form action=\"{PATH}\" method=\"get\"><input type=\"search\" name=\"q\" value=\"{}\" \
         placeholder=\"PAK5, ENSG00000101349, rs2045642915, NC_000020.11:9564577:A:T or {EXAMPLE}\" \
         aria-label=\"gene, variant or region\"> <select name=\"organism\" aria-label=\"organism\">\
         <option value=\"\">any organism</option>",
        escape(q),
    );
    for o in [Organism::Human, Organism::Mouse] {
        let _ = write!(
            h,
            "<option{}>{}</option>",
            if organism == Some(o) { " selected" } else { "" },
            o.name()
        );
    }
    let _ = write!(
        h,
        "</select> <button type=\"submit\">View</button> \
         <small>regions up to {MAX_REGION} bases</small></form>"
    );
}

/// Example regions of the sample catalog: the PAK5 locus, test genes with QTL links, and the
/// mouse fixture's start of chromosome 1 (strain variants, cCREs, genes).
pub const EXAMPLES: [(&str, Organism); 3] = [
    (EXAMPLE, Organism::Human),
    ("chr1:0-60000", Organism::Human),
    ("chr1:3000000-3200000", Organism::Mouse),
];

/// The landing page's section: the search box and example views.
pub fn landing_section(h: &mut String) {
    h.push_str(
        "<h2 id=\"viewer\">Region viewer</h2><p>A gene symbol or id, an rsid or SPDI, or a \
         region opens a drawing of the region (up to 1 Mb): genes, transcripts, catalog variants \
         by allele frequency, genomic elements and QTL links, each linked to its JSON answer; \
         human (GRCh38) or mouse (GRCm39).</p>",
    );
    search_form(h, "", None);
    h.push_str("<p>Examples:");
    for (e, organism) in EXAMPLES {
        if let Ok(region) = e.parse::<Region>() {
            let _ = write!(
                h,
                " <a class=\"view\" href=\"{}\">{}</a>{}",
                escape(&url(&Place { region, organism }, "")),
                escape(e),
                match organism {
                    Organism::Human => String::new(),
                    o => format!(" <small>({})</small>", o.name()),
                }
            );
        }
    }
    h.push_str("</p>");
}

/// A 400 or 404 page with its reason.
fn refusal(status: u16, why: &str, q: &str) -> Response {
    let mut h = String::with_capacity(2048);
    let title = if status == 404 {
        "Not found"
    } else {
        "Bad request"
    };
    head(&mut h, title, q, None);
    let _ = writeln!(
        h,
        "<h1>{}</h1><p class=\"why\">{}</p><p>Try {}.</p></body></html>",
        escape(title),
        escape(why),
        escape(resolve::EXPECTED)
    );
    Response {
        status,
        headers: vec![
            ("Content-Type", "text/html; charset=utf-8".into()),
            ("Cache-Control", "no-store".into()),
        ],
        body: h.into_bytes(),
    }
}

fn choices(list: &[(String, Place)], q: &str) -> String {
    let mut h = String::with_capacity(4096);
    head(&mut h, "Several matches", q, None);
    let _ = write!(
        h,
        "<h1>{} matches for “{}”</h1><ul>",
        list.len(),
        escape(q.trim())
    );
    for (label, p) in list {
        let _ = write!(
            h,
            "<li><a href=\"{}\">{}</a> <small>{} ({})</small></li>",
            escape(&url(p, q)),
            escape(label),
            escape(&p.region.to_string()),
            p.organism.name()
        );
    }
    h.push_str("</ul></body></html>\n");
    h
}

/// A region `len` bases long centred on `mid`, clipped at 0 and to [`MAX_REGION`].
fn around(chr: &str, mid: u64, len: u64) -> Option<Region> {
    let len = len.clamp(2, u64::from(MAX_REGION));
    let s = mid.saturating_sub(len / 2);
    let e = (s + len).min(u64::from(u32::MAX));
    format!("{chr}:{s}-{e}").parse().ok()
}

fn page(view: &tracks::View, base: &str, q: &str) -> String {
    let r = &view.region;
    let mut h = String::with_capacity(256 * 1024);
    head(&mut h, &format!("{r} · varcat"), q, Some(view.organism));
    let (start, len) = (u64::from(r.start()), u64::from(r.len()));
    let mid = start + len / 2;
    let nav = [
        ("← left", around(r.chr(), mid.saturating_sub(len / 2), len)),
        ("right →", around(r.chr(), mid + len / 2, len)),
        ("zoom in", around(r.chr(), mid, len / 3)),
        ("zoom out", around(r.chr(), mid, len * 3)),
    ];
    let _ = write!(
        h,
        "<h1>{}</h1><p><small>{} {} · {} bases, 0-based half-open · {} genes, {} transcripts, {} \
         variants, {} genomic elements, {} QTL links drawn</small></p><nav>",
        escape(&r.to_string()),
        view.organism.name(),
        view.organism.assembly(),
        r.len(),
        view.genes.items.len(),
        view.transcripts.items.len(),
        view.variants.items.len(),
        view.elements.items.len(),
        view.links.items.len(),
    );
    for (label, to) in nav {
        if let Some(region) = to.filter(|to| to != r) {
            let to = Place {
                region,
                organism: view.organism,
            };
            let _ = write!(
                h,
                "<a href=\"{}\">{}</a>",
                escape(&url(&to, "")),
                escape(label)
            );
        }
    }
    h.push_str("</nav>");
    h.push_str(&svg::render(view, base));
    h.push_str(
        "<p><small>Each item links to its JSON answer; hover for its id and position. \
         Variants are coloured by allele frequency (gnomAD total, else BRAVO; mouse variants \
         have none: their tooltip names the strains carrying them).</small></p>\
         </body></html>\n",
    );
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_page_is_well_formed_and_self_contained() {
        let view = svg::tests::sample_view();
        let html = page(&view, "/api", "pak<5>");
        svg::tests::well_formed(&html).unwrap();
        assert!(html.contains("value=\"pak&lt;5&gt;\""));
        // No external asset: every src/href is a path on this server.
        assert!(!html.contains("src="));
        for href in html.split("href=\"").skip(1) {
            assert!(href.starts_with('/'), "{}", &href[..40.min(href.len())]);
        }
        assert!(html.contains("href=\"/view?region=chr20:9510000-9570000\""));
    }

    #[test]
    fn test_refusal_pages_escape_the_reason() {
        let r = refusal(400, "bad <b>", "<q>");
        assert_eq!(r.status, 400);
        let body = String::from_utf8(r.body).unwrap();
        svg::tests::well_formed(&body).unwrap();
        assert!(body.contains("bad &lt;b&gt;") && !body.contains("<q>"));
        assert_eq!(refusal(404, "none", "").status, 404);
    }

    #[test]
    fn test_urls_and_nav_regions() {
        let region: Region = "chr20:9540000-9600000".parse().unwrap();
        let r = Place {
            region: region.clone(),
            organism: Organism::Human,
        };
        assert_eq!(url(&r, ""), "/view?region=chr20:9540000-9600000");
        let mouse = Place {
            region,
            organism: Organism::Mouse,
        };
        assert_eq!(
            url(&mouse, "Xkr4"),
            "/view?region=chr20:9540000-9600000&organism=Mus%20musculus&q=Xkr4"
        );
        assert_eq!(
            url(&r, " pak 5&x "),
            "/view?region=chr20:9540000-9600000&q=pak%205%26x"
        );
        assert_eq!(
            around("chr1", 100, 3_000_000).unwrap().to_string(),
            "chr1:0-1000000"
        );
        let s = see_other(&r, "PAK5");
        assert_eq!(
            (s.status, s.header("Location")),
            (303, Some("/view?region=chr20:9540000-9600000&q=PAK5"))
        );
    }
}
