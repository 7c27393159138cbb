//! `GET /view`: a region you can look at. `/view?region=chr20:9540000-9600000` is one
//! self-contained HTML page (inline CSS and SVG, no script, no external asset: it works
//! air-gapped) with tracks for genes, QTL links, variants, genomic elements and transcripts;
//! `/view?q=<search>` (the landing page's search box) resolves the search and answers 303 to
//! the region, a page of choices, or a 400/404 page saying why.

pub mod resolve;
pub mod svg;
pub mod tracks;

use std::fmt::Write;

use varcat_format::collection::Collections;

use crate::api::{Answer, Ctx};
use crate::http::Response;
use crate::landing::escape;
use crate::parse::region::Region;
use crate::query::RawQuery;
use resolve::{Found, MAX_REGION};
use svg::enc;

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
    if let Some(text) = raw.get("region") {
        let r = resolve::region(text).map_err(|why| refusal(400, &why, q))?;
        let ctx = Ctx { cat };
        let view = tracks::gather(&ctx, &r);
        return Ok(html_answer(page(&view, base, q)));
    }
    let query = resolve::classify(q).map_err(|why| refusal(400, &why, q))?;
    match resolve::find(&Ctx { cat }, &query) {
        Found::Region(r) => Err(see_other(&r, q)),
        Found::Choices(list) => Ok(html_answer(choices(&list, q))),
        Found::Nothing => Err(refusal(
            404,
            &format!("nothing in the catalog matches \"{}\"", q.trim()),
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

/// The URL of the view of `r` (with the search that led there, to keep it in the box).
pub fn url(r: &Region, q: &str) -> String {
    let mut u = format!("{PATH}?region={}", enc(&r.to_string()));
    if !q.trim().is_empty() {
        let _ = write!(u, "&q={}", enc(q.trim()));
    }
    u
}

fn see_other(r: &Region, q: &str) -> Response {
    let to = url(r, q);
    Response {
        status: 303,
        headers: vec![
            ("Location", to.clone()),
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

fn head(h: &mut String, title: &str, q: &str) {
    let _ = write!(
        h,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>\
         <p><a href=\"/\">varcat</a> · region viewer</p>",
        escape(title)
    );
    search_form(h, q);
}

/// The search box (a plain form: no script).
pub fn search_form(h: &mut String, q: &str) {
    let _ = write!(
        h,
        "<form action=\"{PATH}\" method=\"get\"><input type=\"search\" name=\"q\" value=\"{}\" \
         placeholder=\"PAK5, ENSG00000101349, rs2045642915, NC_000020.11:9564577:A:T or {EXAMPLE}\" \
         aria-label=\"gene, variant or region\"> <button type=\"submit\">View</button> \
         <small>regions up to {} bases</small></form>",
        escape(q),
        MAX_REGION
    );
}

/// Example regions of the sample catalog: the PAK5 locus, and test genes with QTL links.
pub const EXAMPLES: [&str; 2] = [EXAMPLE, "chr1:0-60000"];

/// The landing page's section: the search box and example views.
pub fn landing_section(h: &mut String) {
    h.push_str(
        "<h2 id=\"viewer\">Region viewer</h2><p>A gene symbol or id, an rsid or SPDI, or a \
         region opens a drawing of the region (up to 1 Mb): genes, transcripts, catalog variants \
         by allele frequency, genomic elements and QTL links, each linked to its JSON answer.</p>",
    );
    search_form(h, "");
    h.push_str("<p>Examples:");
    for e in EXAMPLES {
        if let Ok(r) = e.parse::<Region>() {
            let _ = write!(
                h,
                " <a class=\"view\" href=\"{}\">{}</a>",
                escape(&url(&r, "")),
                escape(e)
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
    head(&mut h, title, q);
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

fn choices(list: &[(String, Region)], q: &str) -> String {
    let mut h = String::with_capacity(4096);
    head(&mut h, "Several matches", q);
    let _ = write!(
        h,
        "<h1>{} matches for “{}”</h1><ul>",
        list.len(),
        escape(q.trim())
    );
    for (label, r) in list {
        let _ = write!(
            h,
            "<li><a href=\"{}\">{}</a> <small>{}</small></li>",
            escape(&url(r, q)),
            escape(label),
            escape(&r.to_string())
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
    head(&mut h, &format!("{r} · varcat"), q);
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
        "<h1>{}</h1><p><small>{} bases, 0-based half-open · {} genes, {} transcripts, {} \
         variants, {} genomic elements, {} QTL links drawn</small></p><nav>",
        escape(&r.to_string()),
        r.len(),
        view.genes.items.len(),
        view.transcripts.items.len(),
        view.variants.items.len(),
        view.elements.items.len(),
        view.links.items.len(),
    );
    for (label, to) in nav {
        if let Some(to) = to.filter(|to| to != r) {
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
         Variants are coloured by allele frequency (gnomAD total, else BRAVO).</small></p>\
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
        let r: Region = "chr20:9540000-9600000".parse().unwrap();
        assert_eq!(url(&r, ""), "/view?region=chr20:9540000-9600000");
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
