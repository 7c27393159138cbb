//! 4.19 `/variants/genes/summary`: the expression and splicing QTLs of a variant.

use crate::engine::Filter;
use crate::engine::Read;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, renamed, Render, Shape, Src, Ty};
use crate::vocab::variants::{self, required_variants};
use varcat_format::collection::Collection;
use varcat_format::schema::{self, variants_genes as vg};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/genes/summary",
    section: Some("4.19"),
    summary: "Expression and splicing QTLs of a variant",
    accepts: Accepts {
        params: &[
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &FILESET,
        ],
        rules: &[variants::ID_RULE],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: Run::Handler(genes_summary),
    body: Body::Array(&QTL_SUMMARY),
    examples: &[
        "rsid=rs900001",
        "variant_id=NC_000001.11:25000:C:T",
        "hgvs=NC_000001.11:g.15001A%3EG",
    ],
};

/// The gene of a 4.19 row.
pub static GENE_SUMMARY: Shape = Shape {
    name: "GeneSummary",
    members: &[
        renamed("gene_name", schema::genes::m::name, Ty::Str).required(),
        member("gene_id", Src::Key, Ty::Str),
        renamed("gene_start", schema::genes::m::start, Ty::Int),
        renamed("gene_end", schema::genes::m::end, Ty::Int),
    ],
};

/// `chr` of a 4.19 row: the edge's, else its variant's.
fn summary_chr(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let chr = e.str_of(o, vg::m::chr).or_else(|| {
        let (c, vo) = r.cat.resolve(&e.str_of(o, vg::m::_from)?)?;
        c.str_of(vo, schema::variants::m::chr)
    });
    crate::shape::write_str(out, chr.as_deref().unwrap_or(""));
    true
}

/// 4.19 record.
pub static QTL_SUMMARY: Shape = Shape {
    name: "QtlSummary",
    members: &[
        renamed("qtl_type", schema::variants_genes::m::label, Ty::Str).required(),
        field(schema::variants_genes::m::neg_log10_pvalue, Ty::Num),
        member("chr", Src::Fn(summary_chr), Ty::Str),
        field(schema::variants_genes::m::biological_context, Ty::Str),
        field(schema::variants_genes::m::effect_size, Ty::Num),
        member(
            "gene",
            Src::Obj(schema::variants_genes::m::_to, &GENE_SUMMARY),
            Ty::Obj(&GENE_SUMMARY),
        ),
        field(schema::variants_genes::m::name, Ty::Str),
        field(schema::variants_genes::m::files_filesets, Ty::Str),
    ],
};

/// 4.19: expression and splicing QTLs of a variant.
pub fn genes_summary(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let (v, ords) = required_variants(ctx, p)?;
    let e = ctx.coll(vg::COLL);
    let mut f = Filter::over(e);
    f.and(sets::adjacent_to(e, vg::m::_from, v, ords));
    if let Some(fs) = p.str(&FILESET) {
        f.and(sets::in_fileset(e, vg::m::files_filesets, fs));
    }
    ctx.page(p, e, &f, &QTL_SUMMARY)
}
