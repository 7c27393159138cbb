//! The annotation fields: name, VCF Type and Description, and where each value comes from in
//! the catalog (docs/DESIGN.md#annotation). `--list-fields`, `--fields` and the output header all read this
//! one table. Every field is `Number=A`: the catalog is per allele.

use varcat_format::schema::{coding_variants as cv, variant_annotations, variants, Member};
use varcat_format::vocab::AF_SOURCES;

/// VCF INFO Type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `Float`.
    Float,
    /// `Integer`.
    Integer,
    /// `String`.
    String,
}

impl Ty {
    /// The header spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Ty::Float => "Float",
            Ty::Integer => "Integer",
            Ty::String => "String",
        }
    }
}

/// QTL kinds counted from `variants_genes` by their `label` facet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qtl {
    /// `label` = `eQTL`.
    Expression,
    /// `label` = `spliceQTL`.
    Splice,
}

impl Qtl {
    /// The `label` facet value.
    pub fn label(self) -> &'static str {
        match self {
            Qtl::Expression => "eQTL",
            Qtl::Splice => "spliceQTL",
        }
    }
}

/// Where a field's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `variants.rsid`, `|`-joined.
    Rsid,
    /// `variants.spdi`.
    Spdi,
    /// A numeric member of `variants.annotations` (allele frequencies), as shortest f32 text.
    AnnotationNumber(&'static str),
    /// A string member of `variants.annotations`.
    AnnotationString(&'static str),
    /// A numeric member of the variant record, as shortest f32 text.
    VariantNumber(&'static str),
    /// Number of `variants_genes` edges of a QTL kind.
    QtlCount(Qtl),
    /// Gene symbol of that kind's edge with the largest −log10 p.
    QtlTopGene(Qtl),
    /// Number of caQTL `variants_genomic_elements` edges.
    CaqtlCount,
    /// Number of GWAS `variants_phenotypes` edges.
    GwasCount,
    /// Smallest GWAS p-value (the stored number text: p-values underflow f32).
    GwasMinP,
    /// Trait of the smallest GWAS p-value.
    GwasTopTrait,
    /// ClinGen assertions, distinct and sorted.
    Clingen,
    /// Protein changes per coding variant, in coding-variant key order.
    Hgvsp,
    /// A score member of the coding variants, aligned with `hgvsp`.
    Coding(&'static str),
}

/// One annotation field.
#[derive(Clone, Debug)]
pub struct Field {
    /// Name without the prefix.
    pub name: String,
    /// VCF Type.
    pub ty: Ty,
    /// VCF Description.
    pub description: String,
    /// Its source.
    pub source: Source,
}

/// The coding scores: (field name, `coding_variants` member, what it is).
const CODING: &[(&str, &str, &str)] = &[
    ("sift", cv::SIFT_score, "SIFT"),
    ("sift4g", cv::SIFT4G_score, "SIFT4G"),
    (
        "polyphen2_hdiv",
        cv::Polyphen2_HDIV_score,
        "PolyPhen-2 HDIV",
    ),
    (
        "polyphen2_hvar",
        cv::Polyphen2_HVAR_score,
        "PolyPhen-2 HVAR",
    ),
    ("vest4", cv::VEST4_score, "VEST4"),
    ("revel", cv::REVEL_score, "REVEL"),
    ("mutpred", cv::MutPred_score, "MutPred"),
    ("bayesdel_addaf", cv::BayesDel_addAF_score, "BayesDel addAF"),
    ("bayesdel_noaf", cv::BayesDel_noAF_score, "BayesDel noAF"),
    ("varity_r", cv::VARITY_R_score, "VARITY_R"),
    ("varity_er", cv::VARITY_ER_score, "VARITY_ER"),
    ("esm1b", cv::ESM1b_score, "ESM1b"),
    ("alphamissense", cv::AlphaMissense_score, "AlphaMissense"),
    ("cadd_raw_coding", cv::CADD_raw_score, "CADD raw"),
];

/// The name within the variants' `annotations` of member `m` of it.
fn in_annotations(m: Member) -> &'static str {
    m.name()
        .strip_prefix(variants::annotations)
        .and_then(|n| n.strip_prefix('.'))
        .expect("a member of annotations")
}

/// The default `--fields` (the speed-target set).
pub const DEFAULT: &str = "rsid,gnomad_af_total,bravo_af";

/// Every field, in `--list-fields` order.
pub fn all() -> Vec<Field> {
    let f = |name: &str, ty, description: &str, source| Field {
        name: name.to_string(),
        ty,
        description: description.to_string(),
        source,
    };
    let mut v = vec![
        f(
            "rsid",
            Ty::String,
            "dbSNP rsid(s) of the allele, |-joined",
            Source::Rsid,
        ),
        f(
            "spdi",
            Ty::String,
            "catalog SPDI of the matched allele",
            Source::Spdi,
        ),
    ];
    for &af in AF_SOURCES {
        let what = if af == "bravo_af" {
            "BRAVO (TOPMed)".to_string()
        } else {
            format!("gnomAD ({})", af.trim_start_matches("gnomad_af_"))
        };
        v.push(f(
            af,
            Ty::Float,
            &format!("allele frequency from {what}"),
            Source::AnnotationNumber(af),
        ));
    }
    v.extend([
        f(
            "gencode_category",
            Ty::String,
            "GENCODE category (FAVOR/funseq)",
            Source::AnnotationString(in_annotations(variant_annotations::GENCODE_category)),
        ),
        f(
            "cadd_phred",
            Ty::Float,
            "CADD PHRED-scaled score of the variant",
            Source::VariantNumber(variants::cadd_phred),
        ),
        f(
            "cadd_raw",
            Ty::Float,
            "CADD raw score of the variant",
            Source::VariantNumber(variants::cadd_rawscore),
        ),
        f(
            "eqtl_n",
            Ty::Integer,
            "number of eQTL associations",
            Source::QtlCount(Qtl::Expression),
        ),
        f(
            "eqtl_top_gene",
            Ty::String,
            "gene symbol of the eQTL association with the largest -log10 p",
            Source::QtlTopGene(Qtl::Expression),
        ),
        f(
            "sqtl_n",
            Ty::Integer,
            "number of splice-QTL associations",
            Source::QtlCount(Qtl::Splice),
        ),
        f(
            "sqtl_top_gene",
            Ty::String,
            "gene symbol of the splice-QTL association with the largest -log10 p",
            Source::QtlTopGene(Qtl::Splice),
        ),
        f(
            "caqtl_n",
            Ty::Integer,
            "number of caQTL (chromatin accessibility) associations",
            Source::CaqtlCount,
        ),
        f(
            "gwas_n",
            Ty::Integer,
            "number of GWAS associations",
            Source::GwasCount,
        ),
        f(
            "gwas_min_p",
            Ty::Float,
            "smallest GWAS p-value",
            Source::GwasMinP,
        ),
        f(
            "gwas_top_trait",
            Ty::String,
            "trait of the GWAS association with the smallest p-value",
            Source::GwasTopTrait,
        ),
        f(
            "clingen",
            Ty::String,
            "ClinGen assertion(s), distinct, sorted, |-joined",
            Source::Clingen,
        ),
        f(
            "hgvsp",
            Ty::String,
            "protein change(s), one per coding variant in key order, |-joined",
            Source::Hgvsp,
        ),
    ]);
    for &(name, member, what) in CODING {
        v.push(f(
            name,
            Ty::String,
            &format!("{what} score per coding variant, aligned with hgvsp (. when missing)"),
            Source::Coding(member),
        ));
    }
    v
}

/// The fields named by `--fields` (comma-separated, or `all`), in the order given; an unknown
/// name is refused with the valid ones listed.
pub fn parse(spec: &str) -> Result<Vec<Field>, String> {
    let table = all();
    if spec.trim() == "all" {
        return Ok(table);
    }
    let mut out: Vec<Field> = Vec::new();
    for name in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some(f) = table.iter().find(|f| f.name == name) else {
            let valid: Vec<&str> = table.iter().map(|f| f.name.as_str()).collect();
            let near = table
                .iter()
                .find(|f| f.name.starts_with(name) || name.starts_with(f.name.as_str()))
                .map(|f| format!(" (did you mean '{}'?)", f.name))
                .unwrap_or_default();
            return Err(format!(
                "unknown field '{name}'{near}; valid: {}",
                valid.join(", ")
            ));
        };
        if !out.iter().any(|o| o.name == f.name) {
            out.push(f.clone());
        }
    }
    if out.is_empty() {
        return Err("--fields names no field".into());
    }
    Ok(out)
}

/// `--list-fields`: `name<TAB>Number<TAB>Type<TAB>Description` per field, names prefixed.
pub fn listing(prefix: &str) -> String {
    all()
        .iter()
        .map(|f| {
            format!(
                "{prefix}{}\tA\t{}\t{}\n",
                f.name,
                f.ty.as_str(),
                f.description
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_vcf_keys() {
        let t = all();
        for (i, f) in t.iter().enumerate() {
            assert!(t[..i].iter().all(|g| g.name != f.name), "{}", f.name);
            assert!(f
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_'));
            assert!(!f.description.contains('"'));
        }
        assert!(t.len() > 50);
    }

    #[test]
    fn parse_refuses_unknown_names_listing_valid_ones() {
        let e = parse("rsid,gnomad_af").unwrap_err();
        assert!(e.starts_with("unknown field 'gnomad_af'"), "{e}");
        assert!(e.contains("valid: rsid, spdi, bravo_af"), "{e}");
        let names: Vec<String> = parse(DEFAULT)
            .unwrap()
            .into_iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(names, ["rsid", "gnomad_af_total", "bravo_af"]);
        assert_eq!(parse("all").unwrap().len(), all().len());
        assert!(parse(",").is_err());
    }
}
