//! Variant–gene and variant–protein associations: 4.1 `/genes/variants`, 4.19
//! `/variants/genes/summary`, 4.17 `/genes-proteins/variants`.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde_json::{json, Map, Value};
use varcat_format::collection::Collection;

use crate::api::shapes::{id_or, GENE, STUDY};
use crate::api::variants::{self, FREQUENCY};
use crate::api::{genes, sets, Ctx, Reply};
use crate::engine::{cascade, Filter, Set, CONTEXT_TIERS};
use crate::error::ApiError;
use crate::params::{Organism, Params};
use crate::shape::{field, member, renamed, Render, Shape, Src, Ty};

const GENE_M: crate::shape::Member = id_or("gene", "_to", &GENE);
const VARIANT_M: crate::shape::Member = id_or("sequence_variant", "_from", &FREQUENCY);
const EFFECT: crate::shape::Member = field("effect_size", Ty::Num);
const PVAL: crate::shape::Member = field("neg_log10_pvalue", Ty::Num);
const PIP: crate::shape::Member = field("posterior_inclusion_probability", Ty::Num);
const LOG2FC: crate::shape::Member = field("log2FC", Ty::Num);
const METHOD: crate::shape::Member = field("method", Ty::Str);
const SOURCE: crate::shape::Member = field("source", Ty::Str).required();
const SOURCE_URL: crate::shape::Member = field("source_url", Ty::Str).required();
const LABEL: crate::shape::Member = field("label", Ty::Str).required();
const P: crate::shape::Member = field("p_value", Ty::Num);
const CHR: crate::shape::Member = field("chr", Ty::Str);
const CONTEXT: crate::shape::Member = field("biological_context", Ty::Str).required();
const BIOSAMPLE: crate::shape::Member = field("biosample_term", Ty::Str).required();
const NAME: crate::shape::Member = renamed("name", "inverse_name", Ty::Str);
const CLASS: crate::shape::Member = field("class", Ty::Str);
const FILES: crate::shape::Member = field("files_filesets", Ty::Str);

/// 4.1 rows: every member of IGVF's output shape, in its order, whatever the source (IGVF's
/// rows of each source carry only that source's members; a client sees them come and go).
pub static GENE_VARIANT: Shape = Shape {
    name: "GeneVariant",
    members: &[
        GENE_M,
        VARIANT_M,
        field("intron_chr", Ty::Str),
        field("intron_start", Ty::Int),
        field("intron_end", Ty::Int),
        EFFECT,
        PVAL,
        field("neg_log10_pvalue_adj", Ty::Num),
        LOG2FC,
        PIP,
        field("coefficient_stddev", Ty::Num),
        field("power", Ty::Num),
        field("significant", Ty::Bool),
        field("standard_error", Ty::Num),
        field("z_score", Ty::Num),
        field("credible_set_min_r2", Ty::Num),
        METHOD,
        field("crispr_modality", Ty::Str),
        SOURCE,
        SOURCE_URL,
        LABEL,
        P,
        CHR,
        CONTEXT,
        BIOSAMPLE,
        id_or("study", "study", &STUDY),
        NAME,
        CLASS,
        FILES,
    ],
};

/// The 4.1 thresholds, each on the numeric column of the same name.
const THRESHOLDS: &[&str] = &[
    "neg_log10_pvalue",
    "effect_size",
    "log2FC",
    "posterior_inclusion_probability",
];

/// 4.1: variant–gene associations by gene, filters and biological context.
pub fn genes_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll("variants_genes");
    let gene_edges = (genes::any_given(p) || p.has("region")).then(|| {
        let g = genes::collection(ctx, Organism::Human);
        sets::adjacent_to(e, "_to", g, genes::resolve(ctx, p, Organism::Human)).to_vec()
    });
    let base = || {
        let mut f = Filter::over(e);
        if let Some(v) = &gene_edges {
            f.and(Set::Vec(v.clone()));
        }
        for (param, member) in [
            ("method", "method"),
            ("label", "label"),
            ("source", "source"),
            ("name", "inverse_name"),
        ] {
            if let Some(v) = p.str(param) {
                f.and(sets::facet(e, member, v));
            }
        }
        if let Some(b) = p.bool("significant") {
            f.and(sets::facet(
                e,
                "significant",
                if b { "true" } else { "false" },
            ));
        }
        if let Some(t) = p.str("biosample_term") {
            f.and(sets::handle_is(e, "biosample_term", "ontology_terms", t));
        }
        if let Some(fs) = p.str("files_fileset") {
            f.and(sets::handle_is(e, "files_filesets", "files_filesets", fs));
        }
        for name in THRESHOLDS {
            if let Some(t) = p.threshold(name) {
                f.pred(sets::threshold(e, name, t));
            }
        }
        f
    };
    let f = match (p.str("biological_context"), e) {
        (Some(q), Some(c)) => cascade(c, "biological_context", q, CONTEXT_TIERS, base),
        _ => base(),
    };
    ctx.page(p, e, &f, &GENE_VARIANT)
}

/// The gene of a 4.19 row.
pub static GENE_SUMMARY: Shape = Shape {
    name: "GeneSummary",
    members: &[
        renamed("gene_name", "name", Ty::Str).required(),
        member("gene_id", Src::Key, Ty::Str),
        renamed("gene_start", "start", Ty::Int),
        renamed("gene_end", "end", Ty::Int),
    ],
};

/// `chr` of a 4.19 row: the edge's, else its variant's.
fn summary_chr(r: &Render<'_>, e: &Collection, o: u32, out: &mut Vec<u8>) -> bool {
    let chr = e.string(o, "chr").or_else(|| {
        let (c, vo) = r.cat.resolve(&e.string(o, "_from")?)?;
        c.string(vo, "chr")
    });
    crate::shape::write_str(out, chr.as_deref().unwrap_or(""));
    true
}

/// 4.19 record.
pub static QTL_SUMMARY: Shape = Shape {
    name: "QtlSummary",
    members: &[
        renamed("qtl_type", "label", Ty::Str).required(),
        field("neg_log10_pvalue", Ty::Num),
        member("chr", Src::Fn(summary_chr), Ty::Str),
        field("biological_context", Ty::Str),
        field("effect_size", Ty::Num),
        member(
            "gene",
            Src::Obj("_to", &GENE_SUMMARY),
            Ty::Obj(&GENE_SUMMARY),
        ),
        field("name", Ty::Str),
        field("files_filesets", Ty::Str),
    ],
};

/// The matching variants of `p.organism`, or 404 when there is none (4.12, 4.19).
pub fn required_variants<'a>(
    ctx: &Ctx<'a>,
    p: &Params,
) -> Result<(Option<&'a Collection>, Vec<u32>), ApiError> {
    let v = ctx.coll(&p.organism.collection("variants"));
    let ords = variants::matching(v, p).collect();
    if ords.is_empty() {
        return Err(ApiError::not_found("variant not found"));
    }
    Ok((v, ords))
}

/// 4.19: expression and splicing QTLs of a variant.
pub fn genes_summary(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let (v, ords) = required_variants(ctx, p)?;
    let e = ctx.coll("variants_genes");
    let mut f = Filter::over(e);
    f.and(sets::adjacent_to(e, "_from", v, ords));
    if let Some(fs) = p.str("files_fileset") {
        f.and(sets::handle_is(e, "files_filesets", "files_filesets", fs));
    }
    ctx.page(p, e, &f, &QTL_SUMMARY)
}

/// The full handle of a record as a JSON string (`_id` of 4.17's compact objects).
fn handle_json(_: &Render<'_>, c: &Collection, o: u32, out: &mut Vec<u8>) -> bool {
    match sets::handle(c, o) {
        Some(h) => {
            crate::shape::write_str(out, &h);
            true
        }
        None => false,
    }
}

/// 4.17 gene.
pub static GENE_COMPACT: Shape = Shape {
    name: "GeneCompact",
    members: &[
        member("_id", Src::Fn(handle_json), Ty::Str),
        field("chr", Ty::Str).required(),
        field("gene_id", Ty::Str).required(),
        field("name", Ty::Str).required(),
        field("organism", Ty::Str).required(),
        field("hgnc", Ty::Str),
        field("files_filesets", Ty::Str),
    ],
};

/// 4.17 protein.
pub static PROTEIN_COMPACT: Shape = Shape {
    name: "ProteinCompact",
    members: &[
        member("_id", Src::Fn(handle_json), Ty::Str),
        field("name", Ty::Str).required(),
        field("uniprot_names", Ty::StrArr).required(),
        field("files_filesets", Ty::Str),
    ],
};

/// 4.17 sequence variant.
pub static VARIANT_9: Shape = Shape {
    name: "GeneProteinVariant",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field("chr", Ty::Str).required(),
        field("pos", Ty::Int),
        field("rsid", Ty::StrArr),
        field("ref", Ty::Str).required(),
        field("alt", Ty::Str).required(),
        field("spdi", Ty::Str).required(),
        field("hgvs", Ty::Str).required(),
        field("ca_id", Ty::Str),
    ],
};

/// 4.17 record (documentation; rendered by [`genes_proteins_variants`]).
pub static GENES_PROTEINS_VARIANT: Shape = Shape {
    name: "GenesProteinsVariant",
    members: &[
        member("sequence_variant", Src::Const("null"), Ty::Obj(&VARIANT_9)),
        member("related", Src::Const("[]"), Ty::Any),
    ],
};

/// An edge's member as a JSON value (null when absent).
fn val(c: &Collection, o: u32, f: &str) -> Value {
    c.value(o, f)
        .and_then(|b| serde_json::from_slice(b).ok())
        .unwrap_or(Value::Null)
}

/// Sorts JSON objects by the string members `keys`, nulls last.
fn sort_by_members(items: &mut [Value], keys: &[&str]) {
    items.sort_by(|a, b| {
        for k in keys {
            let ord = match (a[*k].as_str(), b[*k].as_str()) {
                (Some(x), Some(y)) => x.cmp(y),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        Ordering::Equal
    });
}

/// 4.17: variants associated with the genes and proteins `query` names (exactly: a gene by key,
/// versioned id, symbol, name, HGNC id or synonym; a protein by key, versioned id, name or
/// UniProt id, entry name or full name), grouped by variant in key order; a variant missing from
/// the catalog has no row.
pub fn genes_proteins_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let q = p.str("query").unwrap_or_default();
    let g = ctx.coll("genes");
    let genes = Set::union([
        sets::keys(g, q),
        sets::exact(g, "name", q),
        sets::exact(g, "gene_id", q),
        sets::exact(g, "hgnc", &crate::parse::ident::hgnc(q)),
        sets::exact(g, "symbol", q),
        sets::exact(g, "synonyms", q),
    ]);
    let pr = ctx.coll("proteins");
    let proteins = Set::union([
        sets::keys(pr, q),
        sets::exact(pr, "protein_id", q),
        sets::exact(pr, "name", q),
        sets::exact(pr, "uniprot_ids", q),
        sets::exact(pr, "uniprot_names", q),
        sets::exact(pr, "uniprot_full_names", q),
    ]);
    // (variant handle) -> (target handle, is_gene) -> edge ordinals
    let mut groups: BTreeMap<String, BTreeMap<(bool, String), Vec<u32>>> = BTreeMap::new();
    for (edges_name, targets, coll, is_gene) in [
        ("variants_genes", &genes, g, true),
        ("variants_proteins", &proteins, pr, false),
    ] {
        let e = ctx.coll(edges_name);
        let Some(ec) = e else { continue };
        for o in sets::adjacent_to(e, "_to", coll, targets.iter()).iter() {
            let (Some(from), Some(to)) = (ec.string(o, "_from"), ec.string(o, "_to")) else {
                continue;
            };
            groups
                .entry(from)
                .or_default()
                .entry((!is_gene, to))
                .or_default()
                .push(o);
        }
    }
    let render = ctx.render(p);
    let rows = groups
        .into_iter()
        .filter_map(|(h, related)| ctx.cat.resolve(&h).map(|(c, o)| (c, o, related)));
    let page = rows
        .skip(p.offset().min(usize::MAX as u64) as usize)
        .take(p.limit.min(usize::MAX as u64) as usize);
    let (vg, vp) = (ctx.coll("variants_genes"), ctx.coll("variants_proteins"));
    let mut out = vec![b'['];
    for (i, (vc, vo, related)) in page.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"sequence_variant\":");
        render.object(&mut out, vc, vo, &VARIANT_9);
        out.extend_from_slice(b",\"related\":[");
        for (j, ((is_protein, target), edges)) in related.into_iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            let ec = if is_protein { vp } else { vg };
            let mut sources: Vec<Value> = edges
                .iter()
                .filter_map(|&o| {
                    let ec = ec?;
                    let mut m = Map::new();
                    if is_protein {
                        m.insert("motif".into(), val(ec, o, "motif"));
                    } else {
                        m.insert(
                            "label".into(),
                            json!(ec.string(o, "label").unwrap_or_default()),
                        );
                    }
                    m.insert(
                        "source".into(),
                        json!(ec.string(o, "source").unwrap_or_default()),
                    );
                    if !is_protein {
                        m.insert("neg_log10_pvalue".into(), val(ec, o, "neg_log10_pvalue"));
                        m.insert(
                            "biological_context".into(),
                            json!(ec.string(o, "biological_context").unwrap_or_default()),
                        );
                    }
                    m.insert(
                        "name".into(),
                        json!(ec.string(o, "inverse_name").unwrap_or_default()),
                    );
                    m.insert("files_filesets".into(), val(ec, o, "files_filesets"));
                    if is_protein {
                        m.insert("label".into(), val(ec, o, "label"));
                        m.insert(
                            "biological_context".into(),
                            val(ec, o, "biological_context"),
                        );
                        m.insert("neg_log10_pvalue".into(), val(ec, o, "neg_log10_pvalue"));
                    }
                    Some(Value::Object(m))
                })
                .collect();
            sort_by_members(&mut sources, &["source", "name", "biological_context"]);
            let shape = if is_protein {
                &PROTEIN_COMPACT
            } else {
                &GENE_COMPACT
            };
            let mut target_json = Vec::new();
            match ctx.cat.resolve(&target) {
                Some((tc, to)) => render.object(&mut target_json, tc, to, shape),
                None => crate::shape::write_str(&mut target_json, &target),
            }
            let (gene, protein): (&[u8], &[u8]) = if is_protein {
                (b"null", &target_json)
            } else {
                (&target_json, b"null")
            };
            out.extend_from_slice(b"{\"gene\":");
            out.extend_from_slice(gene);
            out.extend_from_slice(b",\"protein\":");
            out.extend_from_slice(protein);
            out.extend_from_slice(b",\"sources\":");
            out.extend_from_slice(&serde_json::to_vec(&sources).expect("serialises"));
            out.push(b'}');
        }
        out.extend_from_slice(b"]}");
    }
    out.push(b']');
    Ok(out.into())
}
