//! 4.4 `/genes/coding-variants/scores`: scores of every protein change of a gene, with the
//! variants that cause it.

use crate::engine::Filter;
use crate::engine::Read;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{doc, field, Shape, Ty};
use crate::vocab::genes;
use crate::vocab::variants::SHORT_VARIANT;
use serde_json::Value;
use varcat_format::collection::Collection;
use varcat_format::schema::{
    self, coding_variant_scores, coding_variants, variants_coding_variants,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/coding-variants/scores",
    section: Some("4.4"),
    summary: "Scores of every protein change of a gene, with the variants that cause it",
    accepts: Accepts {
        params: &[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM_OR_ALIAS,
            &genes::REGION,
            &METHOD,
            &FILES_FILESET,
        ],
        rules: &[genes::RULE],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(gene_coding_scores),
    body: Body::Array(&GENE_CODING_SCORES),
    examples: &["gene_name=TSTA1", "gene_id=ENSG90000000001&method=ESM-1v"],
};

/// Score method.
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(SCORE_METHODS),
    "only coding variants scored by this method, and only those scores",
);
/// Score file set.
pub const FILES_FILESET: Param = Param::new(
    "files_fileset",
    Kind::Id,
    "only scores from this file set (IGVFFI…)",
);

/// 4.4 `protein_change`.
pub static PROTEIN_CHANGE: Shape = Shape {
    name: "ProteinChange",
    members: &[
        field(schema::coding_variants::m::protein_id, Ty::Str),
        field(schema::coding_variants::m::protein_name, Ty::Str),
        field(schema::coding_variants::m::transcript_id, Ty::Str),
        field(schema::coding_variants::m::hgvsp, Ty::Str),
        field(schema::coding_variants::m::aapos, Ty::Int),
        field(schema::coding_variants::m::r#ref, Ty::Str),
        field(schema::coding_variants::m::alt, Ty::Str),
    ],
};

/// One score of 4.4.
pub static SCORE: Shape = Shape {
    name: "CodingVariantScore",
    members: &[
        doc("method", Ty::Str).required(),
        doc("score", Ty::Num),
        doc("source_url", Ty::Str),
        doc("files_filesets", Ty::Str),
    ],
};

/// One linked variant of 4.4 with its scores.
pub static SCORED_VARIANT: Shape = Shape {
    name: "ScoredVariant",
    members: &[
        doc("variant", Ty::Obj(&SHORT_VARIANT)),
        doc("scores", Ty::Arr(&SCORE)),
    ],
};

/// 4.4 record.
pub static GENE_CODING_SCORES: Shape = Shape {
    name: "GeneCodingVariantScores",
    members: &[
        doc("protein_change", Ty::Obj(&PROTEIN_CHANGE)),
        doc("variants", Ty::Arr(&SCORED_VARIANT)),
    ],
};

/// 4.4: one record per coding variant of the resolved genes, in (protein_id, aapos, hgvsp,
/// key) order, with its linked variants (key order) and their scores. With `method` or
/// `files_fileset`, only coding variants with a matching score, and only those scores.
pub fn gene_coding_scores(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let cv = ctx.coll(coding_variants::COLL);
    let scores = ctx.coll(coding_variant_scores::COLL);
    let g = genes::collection(ctx, crate::params::Organism::Human);
    let names: Vec<String> = genes::resolve(ctx, p, crate::params::Organism::Human)
        .into_iter()
        .filter_map(|o| g?.str_of(o, schema::genes::m::name))
        .collect();
    // Declared before the filter, which borrows them.
    let method = p.str(&METHOD);
    let files = p.str(&FILES_FILESET).map(sets::fileset_handle);
    let keep = |s: &Value| {
        method.is_none_or(|m| s["method"] == m)
            && files.as_deref().is_none_or(|fs| s["files_filesets"] == fs)
    };
    let mut f = Filter::over(cv);
    f.and(sets::exact_any(cv, coding_variants::m::gene_name, &names));
    // The score table shares the coding variants' ordinals (same records, same order).
    if let Some(m) = method {
        f.and(sets::facet(
            scores,
            coding_variant_scores::m::score_methods,
            m,
        ));
    }
    if let Some(fs) = &files {
        f.and(sets::exact(
            scores,
            coding_variant_scores::m::score_files,
            fs,
        ));
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
    let (page, more) = f.window(p.offset(), p.limit);
    for (i, o) in page.into_iter().enumerate() {
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
    Ok(crate::handler::Answer::page(out, more))
}

/// The scores of coding variant `o` (from the score table, which shares its ordinals).
fn score_list(cv: &Collection, scores: Option<&Collection>, o: u64) -> Vec<Value> {
    let Some(sc) = scores else { return Vec::new() };
    let key = sets::key(cv, o);
    // Ordinals are aligned by construction; the key check guards against a foreign table.
    let so = if sets::key(sc, o) == key {
        Some(o)
    } else {
        key.as_deref().and_then(|k| sc.ord(k))
    };
    so.and_then(|so| sc.raw(so, coding_variant_scores::m::scores))
        .and_then(|b| serde_json::from_slice::<Vec<Value>>(&b).ok())
        .unwrap_or_default()
}

/// Handles of the variants linked to coding variant `o`, sorted and distinct.
fn linked_variants(ctx: &Ctx<'_>, cv: &Collection, o: u64) -> Vec<String> {
    let edges = ctx.coll(variants_coding_variants::COLL);
    let Some(h) = sets::handle(cv, o) else {
        return Vec::new();
    };
    let mut out: Vec<String> = sets::adjacent(edges, variants_coding_variants::m::_to, [h])
        .iter()
        .filter_map(|e| edges.and_then(|c| c.str_of(e, variants_coding_variants::m::_from)))
        .collect();
    out.sort();
    out.dedup();
    out
}
