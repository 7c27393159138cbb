//! Writing the documents: one job for the genome-independent collections, one per part of the
//! chromosomes; each collection family is written by its own module.

use std::collections::VecDeque;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::sink::Sink;
use super::variants::{Site, Var};
use super::*;

/// Generates the catalog of `opts` into `opts.out`; returns what was written. The collections
/// are written into a directory beside it, which replaces `opts.out` only when complete; an
/// existing `opts.out` is replaced only if it is empty or an earlier output of this generator
/// (it has a `synth.json`), never a directory of someone's data.
pub fn generate(opts: &Options) -> io::Result<Summary> {
    replaceable(&opts.out)?;
    let staged = varcat_outfile::StagedDir::create(&opts.out).map_err(io::Error::other)?;
    let mut into = opts.clone();
    into.out = staged.path().to_path_buf();
    let summary = generate_into(&into)?;
    staged.commit().map_err(io::Error::other)?;
    Ok(summary)
}

/// `Err` when `dir` exists and is not an empty directory or an earlier output of `generate`.
fn replaceable(dir: &Path) -> io::Result<()> {
    let refuse = |why: String| Err(io::Error::other(why));
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
        Ok(m) if !m.is_dir() => return refuse("exists and is not a directory".into()),
        Ok(_) => {}
    }
    if dir.join("synth.json").is_file() {
        return Ok(());
    }
    let mut names: Vec<String> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<io::Result<_>>()?;
    if names.is_empty() {
        return Ok(());
    }
    names.sort();
    let more = if names.len() > 3 { ", …" } else { "" };
    names.truncate(3);
    refuse(format!(
        "holds files this generator did not write ({}{more}); synth writes a new directory or \
         replaces one of its own outputs, never other data",
        names.join(", ")
    ))
}

/// Writes the catalog of `opts` into the (new, empty) directory `opts.out`.
fn generate_into(opts: &Options) -> io::Result<Summary> {
    let plan = Plan::new(opts.variants, opts.seed);
    let summary = Mutex::new(Summary::default());
    let next = AtomicUsize::new(0);
    let first_error: Mutex<Option<io::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.clamp(1, PARTS + 1) {
            scope.spawn(|| loop {
                let job = next.fetch_add(1, Ordering::Relaxed);
                if job > PARTS {
                    return;
                }
                let r = if job == 0 {
                    let mut s = Sink::new(&opts.out, "", opts.gz);
                    global(&plan, &mut s).and_then(|_| s.finish(&summary))
                } else {
                    let part = job - 1;
                    let mut s = Sink::new(&opts.out, &format!(".p{part}"), opts.gz);
                    plan.chroms
                        .iter()
                        .filter(|c| c.index % PARTS == part)
                        .try_for_each(|c| chromosome(&plan, c, opts.ld_draws, &mut s))
                        .and_then(|_| s.finish(&summary))
                };
                if let Err(e) = r {
                    first_error
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(e);
                    return;
                }
            });
        }
    });
    if let Some(e) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut summary = summary.into_inner().unwrap_or_else(|e| e.into_inner());
    for e in std::fs::read_dir(&opts.out)? {
        let e = e?;
        let n = e.file_name();
        let n = n.to_string_lossy();
        if n.ends_with(".jsonl") || n.ends_with(".jsonl.gz") {
            summary.disk_bytes += e.metadata()?.len();
        }
    }
    manifest(&opts.out, opts, &summary)?;
    Ok(summary)
}

/// The collections that do not depend on the genome layout.
fn global(plan: &Plan, s: &mut Sink) -> io::Result<()> {
    let mut rng = Rng::new(hash(&[plan.seed, 7]));
    filesets::files_filesets(s)?;
    ontology::terms(plan, s)?;
    studies::studies(plan, s, &mut rng)?;
    drugs::drugs(plan, s)?;
    pathways::pathways(plan, s)?;
    motifs::motifs(plan, s, &mut rng)?;
    motifs::complexes(plan, s)?;
    mouse::mouse(plan, s, &mut rng)
}

/// The chromosome's genes, elements, variants and every association; one generator draws
/// them all in this order, so the order of the calls is part of the output.
fn chromosome(plan: &Plan, c: &Chrom, ld_draws: u32, s: &mut Sink) -> io::Result<()> {
    let mut rng = Rng::new(hash(&[plan.seed, 1000 + c.index as u64]));
    for g in 0..c.genes {
        let gene = plan.gene(c, g);
        genes::gene(plan, c, &gene, s, &mut rng)?;
    }
    for e in 0..c.elements {
        let el = plan.element(c, e);
        elements::element(plan, c, &el, s, &mut rng)?;
    }
    let mut recent: VecDeque<Var> = VecDeque::with_capacity(33);
    let mut pos = ORIGIN - MEAN_GAP;
    let mut gene_cache: Option<(u64, Gene)> = None;
    for j in 0..c.variants {
        let gi = c.first_variant + j;
        pos += 1 + rng.below(2 * MEAN_GAP - 1);
        let v = variants::draw(c, gi, pos, &mut rng);
        variants::doc(c, &v, s, &mut rng)?;
        let g = (pos.saturating_sub(ORIGIN) / GENE_PITCH).min(c.genes - 1);
        let gene = match &gene_cache {
            Some((k, gene)) if *k == g => gene.clone(),
            _ => {
                let gene = plan.gene(c, g);
                gene_cache = Some((g, gene.clone()));
                gene
            }
        };
        let x = Site {
            plan,
            c,
            v: &v,
            from: format!("variants/{}", v.key),
            gene: &gene,
            gid: gene_id(gene.gg),
        };
        qtl::genes(&x, s, &mut rng)?;
        qtl::elements(&x, s, &mut rng)?;
        qtl::proteins(&x, s, &mut rng)?;
        traits::gwas(&x, &recent, s, &mut rng)?;
        qtl::biosamples(&x, s, &mut rng)?;
        drugs::pharmgkb(&x, s, &mut rng)?;
        traits::clingen(&x, s, &mut rng)?;
        coding::coding(&x, s, &mut rng)?;
        ld::topld(&x, &recent, ld_draws, s, &mut rng)?;
        if recent.len() == 32 {
            recent.pop_front();
        }
        recent.push_back(v);
    }
    Ok(())
}
