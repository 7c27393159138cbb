//! Coding variants: 4.14 `/variants/coding-variants`, 4.15 `/coding-variants/variants` and
//! 4.4 `/genes/coding-variants/scores`.

use serde_json::Value;
use varcat_format::collection::Collection;

use crate::api::variants::{self, SHORT_VARIANT};
use crate::api::{genes, sets, Ctx, Reply};
use crate::engine::{Filter, Set};
use crate::params::Params;
use crate::shape::{field, member, Shape, Src, Ty};

/// The coding-variant record (2.15).
pub static CODING_VARIANT: Shape = Shape {
    name: "CodingVariant",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field("name", Ty::Str),
        field("ref", Ty::Str),
        field("alt", Ty::Str),
        field("protein_name", Ty::Str),
        field("protein_id", Ty::Str),
        field("gene_name", Ty::Str),
        field("transcript_id", Ty::Str),
        field("hgvsp", Ty::Str),
        field("hgvsc", Ty::Str),
        field("refcodon", Ty::Str),
        field("aapos", Ty::Int),
        field("codonpos", Ty::Int),
        field("SIFT_score", Ty::Num),
        field("SIFT4G_score", Ty::Num),
        field("Polyphen2_HDIV_score", Ty::Num),
        field("Polyphen2_HVAR_score", Ty::Num),
        field("VEST4_score", Ty::Num),
        field("REVEL_score", Ty::Num),
        field("MutPred_score", Ty::Num),
        field("BayesDel_addAF_score", Ty::Num),
        field("BayesDel_noAF_score", Ty::Num),
        field("VARITY_R_score", Ty::Num),
        field("VARITY_ER_score", Ty::Num),
        field("VARITY_R_LOO_score", Ty::Num),
        field("VARITY_ER_LOO_score", Ty::Num),
        field("ESM1b_score", Ty::Num),
        field("AlphaMissense_score", Ty::Num),
        field("CADD_raw_score", Ty::Num),
        field("source", Ty::Str).required(),
        field("source_url", Ty::Str).required(),
    ],
};

/// 4.14: the coding variants of the matching variants, ordered by the linking edge's key.
pub fn variants_coding_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let v = ctx.coll("variants");
    let edges = ctx.coll("variants_coding_variants");
    let cv = ctx.coll("coding_variants");
    let mut f = Filter::over(edges);
    f.and(sets::adjacent_to(
        edges,
        "_from",
        v,
        variants::matching(v, p).lazy(),
    ));
    // A row is its coding variant: an edge to a missing one has no row.
    let target = move |e: u32| -> Option<(&Collection, u32)> {
        let h = edges?.string(e, "_to")?;
        let c = cv?;
        Some((c, c.ord(h.strip_prefix("coding_variants/")?)?))
    };
    f.pred(move |e| target(e).is_some());
    let items: Vec<(&Collection, u32)> = f
        .page(p.offset(), p.limit)
        .into_iter()
        .filter_map(target)
        .collect();
    Ok(ctx.render(p).array_of(&items, &CODING_VARIANT).into())
}

/// Coding variants matching 4.15's filters.
fn matching_coding<'a>(cv: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = Filter::over(cv);
    if let Some(n) = p.str("coding_variant_name") {
        f.and(sets::exact_any(
            cv,
            "name",
            &varcat_format::text::coding_variant_names(n),
        ));
    }
    for (param, member) in [
        ("hgvsp", "hgvsp"),
        ("gene_name", "gene_name"),
        ("protein_id", "protein_id"),
        ("uniprot_name", "protein_name"),
        ("transcript_id", "transcript_id"),
    ] {
        if let Some(x) = p.str(param) {
            f.and(sets::exact_any(
                cv,
                member,
                &crate::parse::ident::ensembl_candidates(x),
            ));
        }
    }
    if let Some(pos) = p.int("amino_acid_position") {
        f.and(sets::exact(cv, "aapos", &pos.to_string()));
    }
    if let Some(alt) = p.str("alt_amino_acid") {
        f.and(sets::facet(cv, "alt", alt));
    }
    f
}

/// 4.15: the variants linked to the matching coding variants, each once, in key order.
pub fn coding_variants_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let cv = ctx.coll("coding_variants");
    let edges = ctx.coll("variants_coding_variants");
    let v = ctx.coll("variants");
    let links = sets::adjacent_to(edges, "_to", cv, matching_coding(cv, p).lazy());
    let ords: Vec<u32> = match (edges, v) {
        (Some(e), Some(v)) => links
            .iter()
            .filter_map(|l| e.string(l, "_from"))
            .filter_map(|h| v.ord(h.strip_prefix("variants/")?))
            .collect(),
        _ => Vec::new(),
    };
    let all = Set::from_unsorted(ords);
    let mut f = Filter::over(v);
    f.and(all);
    ctx.page(p, v, &f, &SHORT_VARIANT)
}

/// 4.4 `protein_change`.
pub static PROTEIN_CHANGE: Shape = Shape {
    name: "ProteinChange",
    members: &[
        field("protein_id", Ty::Str),
        field("protein_name", Ty::Str),
        field("transcript_id", Ty::Str),
        field("hgvsp", Ty::Str),
        field("aapos", Ty::Int),
        field("ref", Ty::Str),
        field("alt", Ty::Str),
    ],
};

/// One score of 4.4.
pub static SCORE: Shape = Shape {
    name: "CodingVariantScore",
    members: &[
        field("method", Ty::Str).required(),
        field("score", Ty::Num),
        field("source_url", Ty::Str),
        field("files_filesets", Ty::Str),
    ],
};

/// One linked variant of 4.4 with its scores.
pub static SCORED_VARIANT: Shape = Shape {
    name: "ScoredVariant",
    members: &[
        field("variant", Ty::Obj(&SHORT_VARIANT)),
        field("scores", Ty::Arr(&SCORE)),
    ],
};

/// 4.4 record.
pub static GENE_CODING_SCORES: Shape = Shape {
    name: "GeneCodingVariantScores",
    members: &[
        field("protein_change", Ty::Obj(&PROTEIN_CHANGE)),
        field("variants", Ty::Arr(&SCORED_VARIANT)),
    ],
};

/// 4.4: one record per coding variant of the resolved genes, in (protein_id, aapos, hgvsp,
/// key) order, with its linked variants (key order) and their scores. With `method` or
/// `files_fileset`, only coding variants with a matching score, and only those scores.
pub fn gene_coding_scores(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let cv = ctx.coll("coding_variants");
    let scores = ctx.coll("coding_variant_scores");
    let g = genes::collection(ctx, crate::params::Organism::Human);
    let names: Vec<String> = genes::resolve(ctx, p, crate::params::Organism::Human)
        .into_iter()
        .filter_map(|o| g?.string(o, "name"))
        .collect();
    // Declared before the filter, which borrows them.
    let method = p.str("method");
    let files = p
        .str("files_fileset")
        .map(|x| format!("files_filesets/{x}"));
    let keep = |s: &Value| {
        method.is_none_or(|m| s["method"] == m)
            && files.as_deref().is_none_or(|fs| s["files_filesets"] == fs)
    };
    let mut f = Filter::over(cv);
    f.and(sets::exact_any(cv, "gene_name", &names));
    // The score table shares the coding variants' ordinals (same records, same order).
    if let Some(m) = method {
        f.and(sets::facet(scores, "score_methods", m));
    }
    if let Some(fs) = &files {
        f.and(sets::exact(scores, "score_files", fs));
    }
    let Some(cv) = cv else {
        return Ok(b"[]".to_vec().into());
    };
    if method.is_some() && files.is_some() {
        // The facets pre-select; one score must match both filters.
        f.pred(move |o| score_list(cv, scores, o).iter().any(&keep));
    }
    let render = ctx.render(p);
    let mut out = vec![b'['];
    for (i, o) in f.page(p.offset(), p.limit).into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"protein_change\":");
        render.object(&mut out, cv, o, &PROTEIN_CHANGE);
        out.extend_from_slice(b",\"variants\":[");
        let kept: Vec<Value> = score_list(cv, scores, o).into_iter().filter(keep).collect();
        let kept = serde_json::to_vec(&kept).expect("serialises");
        for (j, h) in linked_variants(ctx, cv, o).iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"variant\":");
            match ctx.cat.resolve(h) {
                Some((vc, vo)) => render.object(&mut out, vc, vo, &SHORT_VARIANT),
                None => out.extend_from_slice(b"null"),
            }
            out.extend_from_slice(b",\"scores\":");
            out.extend_from_slice(&kept);
            out.push(b'}');
        }
        out.extend_from_slice(b"]}");
    }
    out.push(b']');
    Ok(out.into())
}

/// The scores of coding variant `o` (from the score table, which shares its ordinals).
fn score_list(cv: &Collection, scores: Option<&Collection>, o: u32) -> Vec<Value> {
    let Some(sc) = scores else { return Vec::new() };
    let key = cv.string(o, "_key");
    // Ordinals are aligned by construction; the key check guards against a foreign table.
    let so = if sc.string(o, "_key") == key {
        Some(o)
    } else {
        key.as_deref().and_then(|k| sc.ord(k))
    };
    so.and_then(|so| sc.value(so, "scores"))
        .and_then(|b| serde_json::from_slice::<Vec<Value>>(b).ok())
        .unwrap_or_default()
}

/// Handles of the variants linked to coding variant `o`, sorted and distinct.
fn linked_variants(ctx: &Ctx<'_>, cv: &Collection, o: u32) -> Vec<String> {
    let edges = ctx.coll("variants_coding_variants");
    let Some(h) = sets::handle(cv, o) else {
        return Vec::new();
    };
    let mut out: Vec<String> = sets::adjacent(edges, "_to", [h])
        .iter()
        .filter_map(|e| edges.and_then(|c| c.string(e, "_from")))
        .collect();
    out.sort();
    out.dedup();
    out
}
