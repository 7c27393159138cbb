//! `/variants/genes-proteins` (the IGVF client\'s `genes_proteins_from_variants`): 4.17 reversed —
//! the genes and proteins associated with one variant, as one record whose `related` list is
//! paged.

use std::collections::BTreeMap;

use crate::api::genes_proteins_variants::{related_entries, GENES_PROTEINS_VARIANT, VARIANT_9};
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::vocab::variants::VARIANT_ID;
use varcat_format::schema::{self, variants_genes as vg, variants_proteins as vp};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/genes-proteins",
    section: None,
    summary: "Genes and proteins associated with a variant (one record, related paged)",
    accepts: Accepts {
        params: &[&VARIANT_ID],
        rules: &[Rule::Required(&VARIANT_ID)],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(variants_genes_proteins),
    body: Body::Array(&GENES_PROTEINS_VARIANT),
    examples: &["variant_id=NC_000001.11:15000:A:G"],
};

/// One record `{sequence_variant, related}` for a variant in the catalog (none otherwise);
/// `related` in 4.17's order (genes then proteins, each by handle), paged; a protein missing
/// from the catalog is left out.
fn variants_genes_proteins(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let v = ctx.coll(schema::variants::COLL);
    let Some(id) = p.variant_id(&VARIANT_ID) else {
        return Ok(b"[]".to_vec().into());
    };
    let Some((vc, vo)) = v.and_then(|c| Some((c, c.ord(id.as_str())?))) else {
        return Ok(b"[]".to_vec().into());
    };
    let handle = format!("{}/{}", schema::variants::COLL.name(), id.as_str());
    let mut related: BTreeMap<(bool, String), Vec<u64>> = BTreeMap::new();
    for (edges, (from_m, to_m), is_gene) in [
        (vg::COLL, (vg::m::_from, vg::m::_to), true),
        (vp::COLL, (vp::m::_from, vp::m::_to), false),
    ] {
        let e = ctx.coll(edges);
        let Some(ec) = e else { continue };
        for o in sets::adjacent(e, from_m, [handle.clone()]).iter() {
            if let Some(to) = ec.str_of(o, to_m) {
                related.entry((!is_gene, to)).or_default().push(o);
            }
        }
    }
    let render = ctx.render(p);
    // The one variant's related list is what is paged.
    let (entries, more) = crate::params::window(related_entries(ctx, &render, related, false), p);
    let mut out = b"[{\"sequence_variant\":".to_vec();
    render.object(&mut out, vc, vo, &VARIANT_9);
    out.extend_from_slice(b",\"related\":[");
    out.extend_from_slice(&entries.join(&b',')[..]);
    out.extend_from_slice(b"]}]");
    Ok(crate::handler::Answer::page(out, more))
}
