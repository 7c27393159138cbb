//! `/view`, the region viewer, end to end on the sample catalog: each track holds the items
//! the JSONL says are in the region, every link answers 200, searches redirect (303), and bad
//! or fruitless searches get 400/404 pages.

use crate::oracle::{data, overlaps, s};
use crate::util::{request, server};

fn view(target: &str) -> crate::util::Resp {
    request(&server().addr, "GET", target, &[])
}

fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].replace("&amp;", "&"))
        .collect()
}

/// Checks that every gene, transcript, variant and element of `colls` (the organism's
/// collections, in that order) in `region` has its JSON link (with `org`, the organism
/// parameter, appended) among `links`; returns how many of each.
fn track_links(
    links: &[String],
    region: (&str, u64, u64),
    colls: [&str; 4],
    org: &str,
) -> [usize; 4] {
    let has = |l: &str| links.iter().any(|x| x == l);
    let d = data();
    let (chr, start, end) = region;
    let mut counts = [0usize; 4];
    for (k, coll) in colls.iter().enumerate() {
        for doc in d.docs(coll) {
            let link = match k {
                0 if overlaps(doc, region) => format!("/api/genes?gene_id={}", s(doc, "_key")),
                1 if overlaps(doc, region) => {
                    format!("/api/transcripts?transcript_id={}", s(doc, "_key"))
                }
                2 if s(doc, "chr") == chr
                    && (start..end).contains(&doc["pos"].as_u64().unwrap()) =>
                {
                    format!("/api/variants?spdi={}", s(doc, "spdi"))
                }
                3 if overlaps(doc, region) => format!(
                    "/api/genomic-elements?region={chr}:{}-{}",
                    doc["start"], doc["end"]
                ),
                _ => continue,
            };
            assert!(has(&format!("{link}{org}")), "{link}{org}");
            counts[k] += 1;
        }
    }
    counts
}

#[test]
fn test_region_page_holds_every_track_item_and_its_links_answer() {
    let region = ("chr20", 9_540_000u64, 9_600_000u64);
    let r = view("/view?region=chr20:9540000-9600000");
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("Content-Type"), Some("text/html; charset=utf-8"));
    let html = r.text();
    assert!(html.contains("<svg") && html.contains("</svg>"));
    let links = hrefs(&html);
    let has = |l: &str| links.iter().any(|x| x == l);
    let human = ["genes", "transcripts", "variants", "genomic_elements"];
    let counts = track_links(&links, region, human, "");
    for g in data().docs("genes").iter().filter(|g| overlaps(g, region)) {
        assert!(html.contains(&format!(">{}</text>", s(g, "name"))), "{g}");
    }
    // PAK5 and ENSG00000286740 (and one more), their transcripts, FAVOR variants at 9.56 Mb
    // and cCREs from 9,550,320.
    assert!(
        counts[0] >= 2 && counts[1] >= 4 && counts[2] > 900 && counts[3] > 40,
        "{counts:?}"
    );
    assert!(has("/api/genes?gene_id=ENSG00000101349") && html.contains(">PAK5</text>"));
    assert!(has("/api/genomic-elements?region=chr20:9550320-9550587"));
    // Exons and CDS of the transcripts (genes_structure), the legend, the empty QTL track.
    assert!(html.contains("class=\"exon\"") && html.contains("class=\"cds\""));
    assert!(html.contains("AF &lt; 0.001") && html.contains("AF unknown"));
    assert!(html.contains("no QTL links from this region"));
    // Every link answers 200 (the page's own navigation included).
    let mut seen = std::collections::BTreeSet::new();
    for l in links.iter().filter(|l| seen.insert((*l).clone())) {
        let r = view(l);
        assert_eq!(r.status, 200, "{l}: {}", r.text());
    }
    assert!(seen.len() > 950, "{} links", seen.len());
}

#[test]
fn test_qtl_links_join_variants_to_their_genes() {
    let html = view("/view?region=chr1:0-60000").text();
    let links = hrefs(&html);
    // The consistent fixture's eQTL/spliceQTL edges from NC_000001.11:15000:A:G.
    assert!(
        links.contains(&"/api/variants/genes?spdi=NC_000001.11:15000:A:G".to_string()),
        "{links:?}"
    );
    assert!(html.contains("eQTL NC_000001.11:15000:A:G → TSTA1"));
    assert!(html.contains("spliceQTL NC_000001.11:15000:A:G → TSTA1"));
    assert!(!html.contains("no QTL links"));
    let r = view("/api/variants/genes?spdi=NC_000001.11:15000:A:G");
    assert_eq!(r.status, 200);
}

#[test]
fn test_searches_redirect_to_their_region() {
    for (q, to) in [
        ("PAK5", "/view?region=chr20:9507199-9869246&q=PAK5"),
        ("pak5", "/view?region=chr20:9507199-9869246&q=pak5"),
        (
            "ENSG00000101349.17",
            "/view?region=chr20:9507199-9869246&q=ENSG00000101349.17",
        ),
        (
            "rs2045642915",
            "/view?region=chr20:9559577-9569578&q=rs2045642915",
        ),
        (
            "NC_000020.11:9564577:A:T",
            "/view?region=chr20:9559577-9569578&q=NC_000020.11:9564577:A:T",
        ),
        (
            "20:9,540,000-9,600,000",
            "/view?region=chr20:9540000-9600000&q=20:9%2C540%2C000-9%2C600%2C000",
        ),
    ] {
        let url = format!("/view?q={}", q.replace(',', "%2C"));
        let r = view(&url);
        assert_eq!(r.status, 303, "{q}: {}", r.text());
        assert_eq!(r.header("Location"), Some(to), "{q}");
        assert_eq!(view(to).status, 200, "{to}");
    }
}

#[test]
fn test_bad_and_fruitless_searches_get_pages_saying_why() {
    for (url, status, why) in [
        (
            "/view?q=chr1:5-",
            400,
            "must look like chr&lt;name&gt;:&lt;start&gt;-&lt;end&gt;",
        ),
        (
            "/view?region=chr1:0-2000000",
            400,
            "the region is 2000000 bases; the viewer shows at most 1000000",
        ),
        ("/view?region=chr1:9-5", 400, "start &lt; end"),
        ("/view", 400, "the search is empty"),
        (
            "/view?q=%3Cscript%3E",
            400,
            "&quot;&lt;script&gt;&quot; is not a search",
        ),
        (
            "/view?q=NOSUCHGENE1",
            404,
            "nothing in the catalog matches &quot;NOSUCHGENE1&quot;",
        ),
        ("/view?q=rs1", 404, "nothing in the catalog matches"),
        ("/view?q=%ZZ", 400, "invalid percent-encoding"),
    ] {
        let r = view(url);
        assert_eq!(r.status, status, "{url}: {}", r.text());
        assert_eq!(
            r.header("Content-Type"),
            Some("text/html; charset=utf-8"),
            "{url}"
        );
        let html = r.text();
        assert!(html.contains(why), "{url}: {html}");
        assert!(!html.contains("<script>"), "{url}");
    }
    // A region with nothing in it is a page with empty tracks, not an error.
    let r = view("/view?region=chr20:1-2");
    assert_eq!(r.status, 200);
    assert!(r.text().contains("no genes in this region"));
    let h = request(&server().addr, "HEAD", "/view?region=chr20:1-2", &[]);
    assert_eq!(h.status, 200);
}

#[test]
fn test_mouse_region_reads_the_mouse_collections() {
    let region = ("chr1", 3_000_000u64, 3_200_000u64);
    let r = view("/view?region=chr1:3000000-3200000&organism=Mus%20musculus");
    assert_eq!(r.status, 200, "{}", r.text());
    let html = r.text();
    assert!(html.contains("Mus musculus GRCm39"), "{html}");
    let links = hrefs(&html);
    let has = |l: &str| links.iter().any(|x| x == l);
    let mouse = [
        "mm_genes",
        "mm_transcripts",
        "mm_variants",
        "mm_genomic_elements",
    ];
    let counts = track_links(&links, region, mouse, "&organism=Mus%20musculus");
    assert!(
        counts[0] >= 2 && counts[1] >= 2 && counts[2] >= 70 && counts[3] >= 5,
        "{counts:?}"
    );
    // Human genes on chr1 at 3 Mb are not drawn; strains are in the tooltips.
    assert!(!links.iter().any(|l| l.contains("gene_id=ENSG")));
    assert!(html.contains("strains "));
    assert!(html.contains("the catalog&#39;s QTLs are human"));
    // Navigation stays in the mouse catalog, and every link answers with the mouse document.
    assert!(has(
        "/view?region=chr1:3100000-3300000&organism=Mus%20musculus"
    ));
    let mut seen = std::collections::BTreeSet::new();
    for l in links.iter().filter(|l| seen.insert((*l).clone())) {
        let r = view(l);
        assert_eq!(r.status, 200, "{l}: {}", r.text());
        if l.starts_with("/api/") {
            let body: serde_json::Value = serde_json::from_str(&r.text()).unwrap();
            assert_eq!(body.as_array().map(Vec::len), Some(1), "{l}: {body}");
        }
    }
}

#[test]
fn test_mouse_searches_find_the_mouse_catalog() {
    let mouse = "&organism=Mus%20musculus";
    for (q, to) in [
        // Mouse ids, symbols and SPDIs need no organism: human is tried first, then mouse.
        ("ENSMUSG00000102693", "chr1:3133475-3154545"),
        ("ENSMUST00000193812", "chr1:3133475-3154545"),
        ("4933401J01Rik", "chr1:3133475-3154545"),
        ("NC_000067.7:3050068:C:T", "chr1:3045068-3055069"),
        ("xkr4&organism=Mus+musculus", "chr1:3229564-3788280"),
    ] {
        let r = view(&format!("/view?q={q}"));
        assert_eq!(r.status, 303, "{q}: {}", r.text());
        let q_only = q.split('&').next().unwrap();
        let want = format!("/view?region={to}{mouse}&q={q_only}");
        assert_eq!(r.header("Location"), Some(want.as_str()), "{q}");
        assert_eq!(view(&want).status, 200, "{want}");
    }
    // The organism limits the search; a name the viewer does not know is a 400 page.
    let r = view("/view?q=PAK5&organism=Mus%20musculus");
    assert_eq!(r.status, 404);
    assert!(r
        .text()
        .contains("nothing in the Mus musculus catalog matches &quot;PAK5&quot;"));
    let r = view("/view?q=PAK5&organism=Homo+sapiens");
    assert_eq!(r.status, 303);
    let r = view("/view?region=chr1:1-5&organism=Rattus%20norvegicus");
    assert_eq!(r.status, 400);
    assert!(r.text().contains("organism must be"), "{}", r.text());
    // The landing page's search box offers both organisms, and a mouse example.
    let landing = view("/").text();
    assert!(landing.contains("<option>Mus musculus</option>"));
    assert!(landing.contains("/view?region=chr1:3000000-3200000&amp;organism=Mus%20musculus"));
}
