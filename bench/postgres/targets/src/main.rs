//! `pg-targets --variants N [--seed S] [--n 4096] > targets.tsv`
//!
//! One line per target: `group<TAB>varcat URL<TAB>SQL parameter<TAB>…`. The draws are those of
//! `urls()` in `tools/src/bench/groups.rs` (same RNG seeds, same order), so varcat and
//! PostgreSQL are asked the same questions, and the same ones as varcat-bench asks.

use varcat_tools::synth::{self, Plan, Rng};

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
        // varcat-bench: Rng::new(hash(&[seed, 99, group.len(), first byte]))
        let mut rng = Rng::new(synth::hash(&[
            plan.seed,
            99,
            group.len() as u64,
            group.as_bytes()[0] as u64,
        ]));
        let region = |rng: &mut Rng| {
            let c = plan.chrom_of(rng.below(plan.variants));
            let s =
                synth::ORIGIN + rng.below((c.span - synth::ORIGIN).saturating_sub(10_000).max(1));
            (c.name.to_string(), s, s + 10_000)
        };
        let rsid = |rng: &mut Rng| loop {
            if let Some(r) = synth::rsid(rng.below(plan.variants)) {
                return r;
            }
        };
        for _ in 0..n {
            let line = match group {
                "point" => {
                    let r = rsid(&mut rng);
                    format!("/api/variants/freq?source=bravo_af&rsid={r}\t{r}")
                }
                "region" => {
                    let (c, s, e) = region(&mut rng);
                    format!(
                        "/api/variants/freq?source=bravo_af&region={c}:{s}-{e}&limit=100\t{c}\t{s}\t{e}"
                    )
                }
                "assoc" => {
                    let g = synth::gene_id(rng.below(plan.genes));
                    format!(
                        "/api/genes/variants?gene_id={g}&method=eQTL&neg_log10_pvalue=gte:2\t{g}"
                    )
                }
                "verbose" => {
                    let g = synth::gene_id(rng.below(plan.genes));
                    format!(
                        "/api/genes/variants?gene_id={g}&method=eQTL&verbose=true&limit=10\t{g}"
                    )
                }
                "name" => {
                    let s = synth::symbol(rng.below(plan.genes)).to_lowercase();
                    format!("/api/genes/proteins?gene_name={s}\t{s}")
                }
                "closure" => {
                    let o = rng.below(synth::ONTOLOGIES.len() as u64) as usize;
                    let k = plan.terms / 2 + rng.below(plan.terms / 2);
                    let end = synth::term_parent(synth::term_parent(k).max(2));
                    let (a, b) = (synth::term(o, k), synth::term(o, end));
                    format!("/api/ontology-terms/{a}/transitive-closure/{b}\t{a}\t{b}")
                }
                "summary" => {
                    let (c, s, e) = region(&mut rng);
                    format!("/api/variants/region-summary?region={c}:{s}-{e}\t{c}\t{s}\t{e}")
                }
                _ => unreachable!(),
            };
            println!("{group}\t{line}");
        }
    }
}
