//! `pg-targets --variants N [--seed S] [--n 4096] > targets.tsv`
//!
//! One line per target: `group<TAB>varcat URL<TAB>SQL parameter<TAB>…`. The URLs are varcat-bench's
//! own (`varcat_tools::bench::groups::urls`), so varcat and PostgreSQL are asked the same
//! questions, and the same ones as varcat-bench asks.

use varcat_tools::bench::groups::urls;
use varcat_tools::synth::Plan;

const GROUPS: [&str; 7] = [
    "point", "region", "assoc", "verbose", "name", "closure", "summary",
];

fn main() {
    let mut variants = 0u64;
    let mut seed = 1u64;
    let mut n = 4096usize;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--variants" => variants = v.parse().expect("--variants N"),
            "--seed" => seed = v.parse().expect("--seed S"),
            "--n" => n = v.parse().expect("--n N"),
            a => panic!("unknown argument {a}"),
        }
        i += 2;
    }
    assert!(
        variants > 0,
        "usage: pg-targets --variants N [--seed S] [--n 4096]"
    );
    let plan = Plan::new(variants, seed);
    for group in GROUPS {
        for url in urls(&plan, group, n) {
            println!("{group}\t{url}\t{}", sql_params(group, &url).join("\t"));
        }
    }
}

/// The SQL parameters of a varcat URL: what the PostgreSQL client binds for the same question.
fn sql_params(group: &str, url: &str) -> Vec<String> {
    let query = |name: &str| {
        url.split(['?', '&'])
            .find_map(|p| p.strip_prefix(name)?.strip_prefix('='))
            .unwrap_or_else(|| panic!("{url}: no {name}"))
            .to_string()
    };
    // `chr:start-end` as three parameters.
    let region = || {
        let r = query("region");
        let (c, span) = r.split_once(':').expect("region chr:start-end");
        let (s, e) = span.split_once('-').expect("region chr:start-end");
        vec![c.to_string(), s.to_string(), e.to_string()]
    };
    match group {
        "point" => vec![query("rsid")],
        "region" | "summary" => region(),
        "assoc" | "verbose" => vec![query("gene_id")],
        "name" => vec![query("gene_name")],
        "closure" => {
            // /api/ontology-terms/{a}/transitive-closure/{b}
            let parts: Vec<&str> = url.split('/').collect();
            vec![parts[3].to_string(), parts[5].to_string()]
        }
        _ => unreachable!(),
    }
}
