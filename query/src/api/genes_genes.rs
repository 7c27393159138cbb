//! `/genes/genes` (an IGVF client path): genetic interactions and co-expression between the genes the gene
//! parameters select (either end) and, with `associated_*`, the genes at the other end.

use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::params::{ByOrganism, GENES};
use crate::prelude::*;
use crate::shape::{field, member, Render, Shape, Src, Ty};
use crate::vocab::genes::GeneParams;
use varcat_format::schema::{genes_genes as gg, mm_genes_mm_genes};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/genes",
    section: None,
    summary: "Genetic interactions and co-expression between genes",
    accepts: Accepts {
        params: &[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM,
            &genes::REGION,
            &ASSOCIATED_GENE_ID,
            &ASSOCIATED_HGNC_ID,
            &ASSOCIATED_GENE_NAME,
            &ASSOCIATED_SYNONYM,
            &Z_SCORE,
            &INTERACTION_TYPE,
            &LABEL,
            &METHOD,
            &SOURCE,
            &NAME,
            &FILESET,
        ],
        rules: &[Rule::AtLeastOne(&[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM,
            &genes::REGION,
            &ASSOCIATED_GENE_ID,
            &ASSOCIATED_HGNC_ID,
            &ASSOCIATED_GENE_NAME,
            &ASSOCIATED_SYNONYM,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&GENE_GENE),
    examples: &[
        "gene_name=TSTA1",
        "gene_name=TSTA1&verbose=true",
        "gene_name=TSTA1&associated_gene_name=TST-B",
    ],
};

/// The other end's Ensembl id.
pub const ASSOCIATED_GENE_ID: Param = Param::new(
    "associated_gene_id",
    Kind::Id,
    "the other gene's Ensembl id (a version suffix is ignored)",
);
/// The other end's HGNC id.
pub const ASSOCIATED_HGNC_ID: Param =
    Param::new("associated_hgnc_id", Kind::Hgnc, "the other gene's HGNC id");
/// The other end's symbol.
pub const ASSOCIATED_GENE_NAME: Param = Param::new(
    "associated_gene_name",
    Kind::Text,
    "the other gene's symbol: exact, else all tokens, else one typo",
);
/// The other end's synonym.
pub const ASSOCIATED_SYNONYM: Param =
    Param::new("associated_synonym", Kind::Id, "the other gene's synonym");
/// z-score threshold.
pub const Z_SCORE: Param = Param::new(
    "z_score",
    Kind::Threshold,
    "co-expression z-score threshold",
);
/// BioGRID interaction type.
pub const INTERACTION_TYPE: Param = Param::new(
    "interaction_type",
    Kind::Enum(&[
        "dosage growth defect (sensu BioGRID)",
        "dosage lethality (sensu BioGRID)",
        "dosage rescue (sensu BioGRID)",
        "negative genetic interaction (sensu BioGRID)",
        "phenotypic enhancement (sensu BioGRID)",
        "phenotypic suppression (sensu BioGRID)",
        "positive genetic interaction (sensu BioGRID)",
        "synthetic growth defect (sensu BioGRID)",
        "synthetic lethality (sensu BioGRID)",
        "synthetic rescue (sensu BioGRID)",
    ]),
    "interaction type",
);
/// Label.
pub const LABEL: Param = Param::new(
    "label",
    Kind::Enum(&["co-expression", "genetic interference"]),
    "label",
);
/// Method (IGVF's enumeration: BioGRID's interaction-type combinations, COXPRESdb).
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(crate::vocab::interactions::GENE_METHODS),
    "method, e.g. COXPRESdb",
);
/// Data source.
pub const SOURCE: Param = Param::new(
    "source",
    Kind::Enum(&["BioGRID", "COXPRESdb"]),
    "data source",
);
/// Relation.
pub const NAME: Param = Param::new(
    "name",
    Kind::Enum(&["coexpressed with", "interacts with"]),
    "relation",
);

const ASSOCIATED: GeneParams = GeneParams {
    id: &ASSOCIATED_GENE_ID,
    hgnc: &ASSOCIATED_HGNC_ID,
    name: &ASSOCIATED_GENE_NAME,
    synonym: &ASSOCIATED_SYNONYM,
    region: None,
};

/// The other end's genes.
fn associated<'a>(ctx: &Ctx<'a>, g: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    crate::edge::from_ords(g, genes::resolve_by(ctx, p, p.organism, &ASSOCIATED))
}

/// The gene object without synonyms (the client's `GeneNoSynonyms`).
pub static GENE_NO_SYNONYMS: Shape = Shape {
    name: "GeneNoSynonyms",
    members: crate::vocab::shapes::GENE.members.split_at(14).0,
};

/// The edge's handle (`genes_genes/<key>`, as IGVF's `_id`).
fn handle(_: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    sets::handle(e, o)
        .map(|h| crate::shape::write_str(out, &h))
        .is_some()
}

/// The gene–gene edge (the client's `GenesGenes`); verbose genes are one-element arrays.
pub static GENE_GENE: Shape = Shape {
    name: "GenesGenes",
    members: &[
        member("_id", Src::Fn(handle), Ty::Str).required(),
        member(
            "gene_1",
            Src::RefList(gg::m::_from, &GENE_NO_SYNONYMS),
            Ty::IdOrList(&GENE_NO_SYNONYMS),
        )
        .required(),
        member(
            "gene_2",
            Src::RefList(gg::m::_to, &GENE_NO_SYNONYMS),
            Ty::IdOrList(&GENE_NO_SYNONYMS),
        )
        .required(),
        field(gg::m::z_score, Ty::Num),
        field(gg::m::associated_process, Ty::Str),
        field(gg::m::detection_method, Ty::Str),
        field(gg::m::detection_method_code, Ty::Str),
        field(gg::m::interaction_type, Ty::StrArr),
        field(gg::m::interaction_type_code, Ty::StrArr),
        field(gg::m::confidence_value_biogrid, Ty::Num),
        field(gg::m::confidence_value_intact, Ty::Num),
        field(gg::m::pmids, Ty::StrArr),
        field(gg::m::label, Ty::Str).required(),
        field(gg::m::method, Ty::Str).required(),
        field(gg::m::class, Ty::Str).required(),
        field(gg::m::source, Ty::Str).required(),
        field(gg::m::source_url, Ty::Str),
        field(gg::m::name, Ty::Str).required(),
        field(gg::m::files_filesets, Ty::Str),
    ],
};

const EDGES: ByOrganism = ByOrganism::new(gg::COLL, mm_genes_mm_genes::COLL);

/// `/genes/genes` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::ByOrganism(EDGES),
    from: gg::m::_from,
    to: gg::m::_to,
    anchors: &[
        Anchor {
            params: &genes::PARAMS,
            nodes: Nodes::ByOrganism(GENES),
            resolve: Resolve::Fn(genes::anchor),
            end: End::Either,
        },
        Anchor {
            params: &[
                &ASSOCIATED_GENE_ID,
                &ASSOCIATED_HGNC_ID,
                &ASSOCIATED_GENE_NAME,
                &ASSOCIATED_SYNONYM,
            ],
            nodes: Nodes::ByOrganism(GENES),
            resolve: Resolve::Fn(associated),
            end: End::Partner,
        },
    ],
    filters: &[
        NodeFilter::Threshold(&Z_SCORE, gg::m::z_score),
        NodeFilter::Facet(&INTERACTION_TYPE, gg::m::interaction_type),
        NodeFilter::Facet(&LABEL, gg::m::label),
        NodeFilter::Facet(&METHOD, gg::m::method),
        NodeFilter::Facet(&SOURCE, gg::m::source),
        NodeFilter::Facet(&NAME, gg::m::name),
        NodeFilter::Fileset(&FILESET, gg::m::files_filesets),
    ],
    record: Record::One(&GENE_GENE),
};

#[cfg(test)]
mod tests {
    #[test]
    fn test_gene_no_synonyms_is_gene_minus_synonyms() {
        let m = super::GENE_NO_SYNONYMS.members;
        assert_eq!(m.len() + 1, crate::vocab::shapes::GENE.members.len());
        assert!(m.iter().all(|x| x.name != "synonyms"));
    }
}
