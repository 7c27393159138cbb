//! Layer 2 of query parsing: decoded pairs → typed parameters of one endpoint.
//!
//! Each endpoint declares its parameters ([`Param`]) and rules ([`Rule`]) in the endpoint
//! table; this module is the one place that checks them. `page`, `limit`, `verbose` and
//! `organism` are accepted everywhere. Every problem is reported at once.

use std::fmt;
use std::str::FromStr;
use varcat_format::schema::{self, Coll};

use crate::error::{ApiError, Issue};
use crate::parse::ident::{self, HgncId, TermId};
use crate::parse::number::{finite, non_negative};
use crate::parse::region::Region;
use crate::parse::threshold::Threshold;
use crate::parse::variant::{CaId, Hgvs, Rsid, Spdi, VariantId};
use crate::query::RawQuery;

/// The type of a parameter's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An identifier looked up as given (≤ `MAX_ID_LEN` bytes, no control characters).
    Id,
    /// Free text for name search (same limits as `Id`).
    Text,
    /// One of these exact values.
    Enum(&'static [&'static str]),
    /// `true` or `false`.
    Bool,
    /// A region; `Some(n)` caps its length at `n` bases.
    Region(Option<u32>),
    /// A threshold expression.
    Threshold,
    /// A finite number.
    Number,
    /// A non-negative integer.
    Int,
    /// A non-negative integer, or an inclusive range of them, `range:<a>-<b>`.
    IntRange,
    /// `rs<digits>`.
    Rsid,
    /// `CA<digits>`.
    CaId,
    /// SPDI.
    Spdi,
    /// HGVS genomic.
    Hgvs,
    /// SPDI-shaped when it contains `:`, else a key.
    VariantId,
    /// `HGNC:<n>` or `<n>`.
    Hgnc,
    /// An ontology term id, `PREFIX_LOCALID`.
    TermId,
}

impl Kind {
    /// The [`Value`] variant a value of this kind is held in (for the accessors' debug check).
    fn value_variant(self) -> &'static str {
        match self {
            Kind::Id | Kind::Text | Kind::Enum(_) => "Str",
            Kind::Hgnc => "Hgnc",
            Kind::Bool => "Bool",
            Kind::Region(_) => "Region",
            Kind::Threshold => "Threshold",
            Kind::Number => "Num",
            Kind::Int => "Int",
            Kind::IntRange => "IntRange",
            Kind::Rsid => "Rsid",
            Kind::CaId => "CaId",
            Kind::Spdi => "Spdi",
            Kind::Hgvs => "Hgvs",
            Kind::VariantId => "VariantId",
            Kind::TermId => "TermId",
        }
    }
}

/// A parameter of an endpoint.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Name in the query string (or the path).
    pub name: &'static str,
    /// Value type.
    pub kind: Kind,
    /// Other accepted names (`alias` for `synonym`); giving two of them is a repeat.
    pub aliases: &'static [&'static str],
    /// One-line description (OpenAPI, landing page).
    pub doc: &'static str,
}

impl Param {
    /// A parameter.
    pub const fn new(name: &'static str, kind: Kind, doc: &'static str) -> Param {
        Param {
            name,
            kind,
            aliases: &[],
            doc,
        }
    }

    /// The same parameter with alternative names.
    pub const fn aliases(self, aliases: &'static [&'static str]) -> Param {
        Param { aliases, ..self }
    }
}

/// A rule over several parameters, naming them by their constants (so a rule cannot name a
/// parameter that does not exist).
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// At least one of these must be given.
    AtLeastOne(&'static [&'static Param]),
    /// This one must be given.
    Required(&'static Param),
}

/// Paging of an endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paging {
    /// `page` (default 0) and `limit` (default, maximum).
    Paged {
        /// Default page size.
        default: u32,
        /// Largest page size.
        max: u32,
    },
    /// The endpoint returns what it returns; `page`/`limit` are checked and ignored.
    Ignored,
}

/// Species.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Organism {
    /// Homo sapiens (GRCh38).
    Human,
    /// Mus musculus (GRCm39).
    Mouse,
}

impl Organism {
    /// The parameter value.
    pub fn name(self) -> &'static str {
        match self {
            Organism::Human => "Homo sapiens",
            Organism::Mouse => "Mus musculus",
        }
    }

    /// The organism named `name` (the parameter's value), if any.
    pub fn named(name: &str) -> Option<Organism> {
        [Organism::Human, Organism::Mouse]
            .into_iter()
            .find(|o| o.name() == name)
    }

    /// The assembly of its catalog's coordinates.
    pub fn assembly(self) -> &'static str {
        match self {
            Organism::Human => "GRCh38",
            Organism::Mouse => "GRCm39",
        }
    }

    /// The collection of `c` holding this organism's documents.
    pub fn collection(self, c: ByOrganism) -> Coll {
        match self {
            Organism::Human => c.human,
            Organism::Mouse => c.mouse,
        }
    }
}

/// A human collection and its mouse copy, which has the same members (so a member handle
/// reads either).
#[derive(Clone, Copy, Debug)]
pub struct ByOrganism {
    human: Coll,
    mouse: Coll,
}

impl ByOrganism {
    /// The pair; fails to compile in a `const` when the two have different members.
    pub const fn new(human: Coll, mouse: Coll) -> ByOrganism {
        assert!(
            mouse.shares_members(human),
            "a mouse copy has the human members"
        );
        ByOrganism { human, mouse }
    }
}

/// Genes of either organism.
pub const GENES: ByOrganism = ByOrganism::new(schema::genes::COLL, schema::mm_genes::COLL);
/// Transcripts of either organism.
pub const TRANSCRIPTS: ByOrganism =
    ByOrganism::new(schema::transcripts::COLL, schema::mm_transcripts::COLL);
/// Gene structure of either organism.
pub const GENES_STRUCTURE: ByOrganism = ByOrganism::new(
    schema::genes_structure::COLL,
    schema::mm_genes_structure::COLL,
);
/// Variants of either organism.
pub const VARIANTS: ByOrganism = ByOrganism::new(schema::variants::COLL, schema::mm_variants::COLL);
/// Genomic elements of either organism.
pub const GENOMIC_ELEMENTS: ByOrganism = ByOrganism::new(
    schema::genomic_elements::COLL,
    schema::mm_genomic_elements::COLL,
);

/// Human only.
pub const HUMAN: &[Organism] = &[Organism::Human];
/// Human and mouse.
pub const HUMAN_MOUSE: &[Organism] = &[Organism::Mouse, Organism::Human];

/// What an endpoint accepts.
#[derive(Clone, Copy, Debug)]
pub struct Accepts {
    /// Its own parameters.
    pub params: &'static [&'static Param],
    /// Rules over them.
    pub rules: &'static [Rule],
    /// Paging.
    pub paging: Paging,
    /// Allowed organisms (the first human one is the default).
    pub organisms: &'static [Organism],
}

/// A typed value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Identifier, text or enum value (an enum value is the declared one, not a copy).
    Str(std::borrow::Cow<'static, str>),
    /// HGNC id.
    Hgnc(HgncId),
    /// Region.
    Region(Region),
    /// Threshold.
    Threshold(Threshold),
    /// Boolean.
    Bool(bool),
    /// Number.
    Num(f64),
    /// Integer.
    Int(u64),
    /// Inclusive integer range (a single integer `n` is `n..=n`).
    IntRange(u64, u64),
    /// dbSNP id.
    Rsid(Rsid),
    /// ClinGen allele id.
    CaId(CaId),
    /// SPDI.
    Spdi(Spdi),
    /// Genomic HGVS.
    Hgvs(Hgvs),
    /// Variant key.
    VariantId(VariantId),
    /// Ontology term id.
    TermId(TermId),
}

/// The typed parameters of one request. Handlers read them through the [`Param`] constants
/// their endpoint declares (never by name, so a typo cannot silently drop a filter).
#[derive(Clone, Debug)]
pub struct Params {
    /// Page index.
    pub page: u64,
    /// Page size.
    pub limit: u64,
    /// `verbose=true`.
    pub verbose: bool,
    /// `format` when given (without it, the `Accept` header decides).
    pub format: Option<Format>,
    /// Organism.
    pub organism: Organism,
    /// What the endpoint declares: reading anything else is a bug (checked in debug builds).
    declared: &'static [&'static Param],
    /// Each given parameter's value, by declared name (a handful: a list beats hashing).
    values: Vec<(&'static str, Value)>,
}

/// One typed accessor per [`Value`] variant: `$name(&PARAM)` is the value of `PARAM` when it
/// was given.
macro_rules! accessors {
    ($($(#[$doc:meta])* $name:ident($variant:ident) -> $ty:ty = $conv:expr;)*) => {$(
        $(#[$doc])*
        pub fn $name(&self, p: &Param) -> Option<$ty> {
            debug_assert!(
                p.kind.value_variant() == stringify!($variant),
                "{} is read as {} but holds {}",
                p.name,
                stringify!($variant),
                p.kind.value_variant()
            );
            match self.get(p) {
                Some(Value::$variant(x)) => Some($conv(x)),
                _ => None,
            }
        }
    )*};
}

impl Params {
    /// The value of `p`.
    pub fn get(&self, p: &Param) -> Option<&Value> {
        debug_assert!(
            self.declared.iter().any(|d| d.name == p.name
                && std::mem::discriminant(&d.kind) == std::mem::discriminant(&p.kind)),
            "a handler reads `{}`, which its endpoint does not declare",
            p.name
        );
        self.values
            .iter()
            .find(|(n, _)| *n == p.name)
            .map(|(_, v)| v)
    }

    /// True when `p` was given.
    pub fn has(&self, p: &Param) -> bool {
        self.get(p).is_some()
    }

    /// True when any of `ps` was given.
    pub fn any(&self, ps: &[&Param]) -> bool {
        ps.iter().any(|p| self.has(p))
    }

    accessors! {
        /// A string value (identifier, text, enum).
        str(Str) -> &str = std::ops::Deref::deref;
        /// A region value.
        region(Region) -> &Region = std::convert::identity;
        /// A threshold value.
        threshold(Threshold) -> Threshold = Clone::clone;
        /// A boolean value.
        bool(Bool) -> bool = Clone::clone;
        /// A number value.
        num(Num) -> f64 = Clone::clone;
        /// An integer value.
        int(Int) -> u64 = Clone::clone;
        /// An HGNC id.
        hgnc_id(Hgnc) -> &HgncId = std::convert::identity;
        /// A dbSNP id.
        rsid(Rsid) -> &Rsid = std::convert::identity;
        /// A ClinGen allele id.
        ca_id(CaId) -> &CaId = std::convert::identity;
        /// An SPDI.
        spdi(Spdi) -> &Spdi = std::convert::identity;
        /// A genomic HGVS.
        hgvs(Hgvs) -> &Hgvs = std::convert::identity;
        /// A variant key.
        variant_id(VariantId) -> &VariantId = std::convert::identity;
        /// An ontology term id.
        term_id(TermId) -> &TermId = std::convert::identity;
    }

    /// An integer-or-range value, as an inclusive range.
    pub fn int_range(&self, p: &Param) -> Option<(u64, u64)> {
        debug_assert!(
            p.kind.value_variant() == "IntRange",
            "{} is not a range",
            p.name
        );
        match self.get(p) {
            Some(Value::IntRange(a, b)) => Some((*a, *b)),
            _ => None,
        }
    }

    /// Offset of the first row of the requested page (saturating).
    pub fn offset(&self) -> u64 {
        self.page.saturating_mul(self.limit)
    }
}

/// The requested page of `it` and whether more items follow it (one item past the page is
/// taken, never rendered): for handlers that page their own rows.
pub fn window<T>(it: impl IntoIterator<Item = T>, p: &Params) -> (Vec<T>, bool) {
    let limit = usize::try_from(p.limit).unwrap_or(usize::MAX);
    let mut page: Vec<T> = it
        .into_iter()
        .skip(usize::try_from(p.offset()).unwrap_or(usize::MAX))
        .take(limit.saturating_add(1))
        .collect();
    let more = page.len() > limit;
    page.truncate(limit);
    (page, more)
}

/// The answer's representation asked for by the shared `format` parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// JSON (the default).
    Json,
    /// Tab-separated values (see `tsv.rs`).
    Tsv,
}

/// The names of `ps`, comma-separated (rule messages and documentation).
pub fn names(ps: &[&Param]) -> String {
    ps.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

fn quote_list(values: &[&str]) -> String {
    values
        .iter()
        .map(|v| format!("'{v}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Edit distance, for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for j in 0..b.len() {
            cur[j + 1] = (prev[j] + usize::from(ca != b[j]))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The accepted name closest to `name`, if reasonably close.
fn suggest<'a>(name: &str, accepted: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let lname = name.to_lowercase();
    accepted
        .map(|a| {
            let d = distance(&lname, a);
            // A typo, or one name containing the other (log10pvalue ~ neg_log10_pvalue).
            let contained = lname.len() >= 4 && (a.contains(&lname) || lname.contains(a));
            // Ties go to the smaller raw distance (uniprot → uniprot_name, not uniprot_full_name).
            (if contained { d.min(2) } else { d }, d, a)
        })
        .filter(|(d, _, a)| *d <= 2.max(a.len() / 3))
        .min()
        .map(|(_, _, a)| a)
}

/// Checks one value against its kind.
pub fn check(kind: Kind, name: &str, v: &str) -> Result<Value, String> {
    // The value types' errors say what was expected; the parameter's name goes in front.
    fn parsed<T: FromStr>(name: &str, v: &str) -> Result<T, String>
    where
        T::Err: fmt::Display,
    {
        v.parse::<T>().map_err(|e| format!("{name} {e}"))
    }
    match kind {
        Kind::Id | Kind::Text => {
            if ident::plain(v) {
                Ok(Value::Str(v.to_string().into()))
            } else {
                Err(format!("{name} {}", ident::IdError))
            }
        }
        Kind::Hgnc => parsed(name, v).map(Value::Hgnc),
        Kind::Enum(allowed) => allowed
            .iter()
            .find(|&&a| a == v)
            .map(|&a| Value::Str(a.into()))
            .ok_or_else(|| format!("{name} must be one of {}, got '{v}'", quote_list(allowed))),
        Kind::Bool => match v {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("{name} must be 'true' or 'false', got '{v}'")),
        },
        Kind::Region(cap) => {
            let r: Region = parsed(name, v)?;
            match cap {
                Some(max) if r.len() > max => Err(format!(
                    "{name} spans {} bases; at most {max} are allowed, got \"{v}\"",
                    r.len()
                )),
                _ => Ok(Value::Region(r)),
            }
        }
        Kind::Threshold => parsed(name, v).map(Value::Threshold),
        Kind::Number => finite(v)
            .map(Value::Num)
            .ok_or_else(|| format!("{name} must be a finite number, got \"{v}\"")),
        Kind::Int => non_negative(v)
            .map(Value::Int)
            .map_err(|_| format!("{name} must be a non-negative integer, got \"{v}\"")),
        Kind::IntRange => int_range(v)
            .map(|(a, b)| Value::IntRange(a, b))
            .ok_or_else(|| {
                format!("{name} must be a non-negative integer or range:<a>-<b> with a <= b, got \"{v}\"")
            }),
        Kind::Rsid => parsed(name, v).map(Value::Rsid),
        Kind::CaId => parsed(name, v).map(Value::CaId),
        Kind::Spdi => parsed(name, v).map(Value::Spdi),
        Kind::Hgvs => parsed(name, v).map(Value::Hgvs),
        Kind::TermId => parsed(name, v).map(Value::TermId),
        Kind::VariantId => parsed(name, v).map(Value::VariantId),
    }
}

/// `n` as `(n, n)`, or `range:<a>-<b>` (a ≤ b) as `(a, b)`.
fn int_range(v: &str) -> Option<(u64, u64)> {
    match v.strip_prefix("range:") {
        Some(r) => {
            let (a, b) = r.split_once('-')?;
            let (a, b) = (non_negative(a).ok()?, non_negative(b).ok()?);
            (a <= b).then_some((a, b))
        }
        None => non_negative(v).ok().map(|n| (n, n)),
    }
}

const SHARED: &[&str] = &["page", "limit", "verbose", "organism", "format"];

/// Parses `raw` (plus path parameters, already decoded) against what an endpoint accepts.
pub fn parse(
    accepts: &Accepts,
    raw: &RawQuery,
    path: &[(&'static str, String)],
) -> Result<Params, ApiError> {
    let mut issues = Vec::new();
    let mut values: Vec<(&'static str, Value)> = Vec::new();
    // (declared name, the name it was given by)
    let mut seen: Vec<(&'static str, &str)> = Vec::new();
    let is_seen = |seen: &[(&str, &str)], name: &str| seen.iter().any(|(n, _)| *n == name);
    let (mut page, mut limit, mut verbose, mut format) = (0u64, None, false, None);
    let mut organism = accepts
        .organisms
        .iter()
        .copied()
        .find(|o| *o == Organism::Human)
        .unwrap_or(Organism::Human);

    let given = raw.pairs.iter().map(|(n, v)| (n.as_ref(), v.as_ref()));
    for (name, v) in given.chain(path.iter().map(|(n, v)| (*n, v.as_str()))) {
        match name {
            "page" => match non_negative(v) {
                Ok(p) => page = p,
                Err(_) => issues.push(Issue::param(
                    "page",
                    format!("page must be a non-negative integer, got \"{v}\""),
                )),
            },
            "limit" => {
                let max = match accepts.paging {
                    Paging::Paged { max, .. } => max as u64,
                    Paging::Ignored => u64::MAX,
                };
                match non_negative(v) {
                    Ok(l) if l >= 1 && l <= max => limit = Some(l),
                    _ if max == u64::MAX => issues.push(Issue::param(
                        "limit",
                        format!("limit must be a positive integer, got \"{v}\""),
                    )),
                    _ => issues.push(Issue::param(
                        "limit",
                        format!("limit must be an integer from 1 to {max}, got \"{v}\""),
                    )),
                }
            }
            "verbose" => match check(Kind::Bool, "verbose", v) {
                Ok(Value::Bool(b)) => verbose = b,
                Err(m) => issues.push(Issue::param("verbose", m)),
                Ok(_) => {}
            },
            "format" => match v {
                "json" => format = Some(Format::Json),
                "tsv" => format = Some(Format::Tsv),
                _ => issues.push(Issue::param(
                    "format",
                    format!("format must be one of 'json', 'tsv', got '{v}'"),
                )),
            },
            "organism" => match accepts.organisms.iter().find(|o| o.name() == v) {
                Some(o) => organism = *o,
                None => {
                    let names: Vec<&str> = accepts.organisms.iter().map(|o| o.name()).collect();
                    issues.push(Issue::param(
                        "organism",
                        format!("organism must be one of {}, got '{v}'", quote_list(&names)),
                    ));
                }
            },
            _ => {
                let found = accepts
                    .params
                    .iter()
                    .find(|p| p.name == name || p.aliases.contains(&name));
                let Some(p) = found else {
                    let accepted = accepts
                        .params
                        .iter()
                        .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()))
                        .chain(SHARED.iter().copied());
                    let msg = match suggest(name, accepted) {
                        Some(s) => format!("unknown parameter `{name}`; did you mean `{s}`?"),
                        None => format!("unknown parameter `{name}`"),
                    };
                    issues.push(Issue::param(name, msg));
                    continue;
                };
                if let Some(&(_, first)) = seen.iter().find(|(n, _)| *n == p.name) {
                    issues.push(Issue::param(
                        name,
                        format!("{first} and {name} are the same parameter; give it once"),
                    ));
                    continue;
                }
                seen.push((p.name, name));
                match check(p.kind, name, v) {
                    Ok(val) => values.push((p.name, val)),
                    Err(m) => issues.push(Issue::param(name, m)),
                }
            }
        }
    }
    for rule in accepts.rules {
        match rule {
            Rule::AtLeastOne(ps) => {
                if !ps.iter().any(|p| is_seen(&seen, p.name)) {
                    issues.push(Issue::general(format!(
                        "at least one of {} must be given",
                        names(ps)
                    )));
                }
            }
            Rule::Required(p) => {
                if !is_seen(&seen, p.name) {
                    let name = p.name;
                    issues.push(Issue::param(name, format!("{name} is required")));
                }
            }
        }
    }
    if !issues.is_empty() {
        return Err(ApiError::invalid(issues));
    }
    let limit = match accepts.paging {
        Paging::Paged { default, .. } => limit.unwrap_or(default as u64),
        Paging::Ignored => limit.unwrap_or(u64::MAX),
    };
    Ok(Params {
        page,
        limit,
        verbose,
        format,
        organism,
        declared: accepts.params,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GENE_ID: Param = Param::new("gene_id", Kind::Id, "");
    const SYNONYM: Param = Param::new("synonym", Kind::Id, "").aliases(&["alias"]);
    const PVALUE: Param = Param::new("neg_log10_pvalue", Kind::Threshold, "");
    const REGION: Param = Param::new("region", Kind::Region(Some(10_000)), "");
    const METHOD: Param = Param::new("method", Kind::Enum(&["eQTL", "spliceQTL"]), "");

    const ACCEPTS: Accepts = Accepts {
        params: &[&GENE_ID, &SYNONYM, &PVALUE, &REGION, &METHOD],
        rules: &[Rule::AtLeastOne(&[&GENE_ID, &SYNONYM, &METHOD])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    };

    fn run(q: &str) -> Result<Params, ApiError> {
        parse(&ACCEPTS, &RawQuery::parse(q).unwrap(), &[])
    }

    #[test]
    fn test_good_request() {
        let p = run("gene_id=ENSG1&page=2&limit=10.0&verbose=true&neg_log10_pvalue=gte:2").unwrap();
        assert_eq!((p.page, p.limit, p.verbose, p.offset()), (2, 10, true, 20));
        assert_eq!(p.str(&GENE_ID), Some("ENSG1"));
        assert_eq!(p.threshold(&PVALUE).unwrap().to_string(), "gte:2");
        let p = run("alias=FOO").unwrap();
        assert_eq!(p.str(&SYNONYM), Some("FOO"));
        assert_eq!(p.limit, 25);
    }

    #[test]
    fn test_all_problems_at_once() {
        let e = run("limit=1000&organism=human&log10pvalue=2&region=chr1:0-10001").unwrap_err();
        let msgs: Vec<&str> = e.issues.iter().map(|i| i.message.as_str()).collect();
        assert_eq!(
            msgs,
            vec![
                "limit must be an integer from 1 to 500, got \"1000\"",
                "organism must be one of 'Homo sapiens', got 'human'",
                "unknown parameter `log10pvalue`; did you mean `neg_log10_pvalue`?",
                "region spans 10001 bases; at most 10000 are allowed, got \"chr1:0-10001\"",
                "at least one of gene_id, synonym, method must be given",
            ]
        );
        assert_eq!(e.message, format!("5 problems: {}", msgs.join("; ")));
        assert_eq!(e.issues[4].path, Vec::<String>::new());
        assert!(run("region=chr1:0-10000&method=eQTL").is_ok());
    }

    #[test]
    fn test_alias_repeat_and_enum() {
        let e = run("synonym=A&alias=B").unwrap_err();
        assert_eq!(
            e.message,
            "synonym and alias are the same parameter; give it once"
        );
        let e = run("method=eqtl").unwrap_err();
        assert_eq!(
            e.message,
            "method must be one of 'eQTL', 'spliceQTL', got 'eqtl'"
        );
        let e = run("gene_id=x&limit=0").unwrap_err();
        assert_eq!(
            e.message,
            "limit must be an integer from 1 to 500, got \"0\""
        );
        let e = run("gene_id=x&page=-1").unwrap_err();
        assert_eq!(e.message, "page must be a non-negative integer, got \"-1\"");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "which its endpoint does not declare")]
    fn test_reading_an_undeclared_parameter_is_a_bug() {
        const OTHER: Param = Param::new("transcript_id", Kind::Id, "");
        let _ = run("gene_id=x").unwrap().str(&OTHER);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "region is read as Str but holds Region")]
    fn test_reading_a_parameter_as_another_kind_is_a_bug() {
        let _ = run("gene_id=x").unwrap().str(&REGION);
    }

    #[test]
    fn test_value_types_keep_their_messages() {
        for (kind, name, v, msg) in [
            (Kind::Id, "gene_id", "a\u{1}", "gene_id must be at most 65536 bytes without control characters"),
            (Kind::Hgnc, "hgnc_id", "a\u{1}", "hgnc_id must be at most 65536 bytes without control characters"),
            (Kind::Rsid, "rsid", "x", "rsid must look like rs<digits>, got \"x\""),
            (Kind::CaId, "ca_id", "x", "ca_id must look like CA<digits>, got \"x\""),
            (Kind::Spdi, "spdi", "x", "spdi must be SPDI, <accession>:<position>:<ref>:<alt>, got \"x\""),
            (Kind::Hgvs, "hgvs", "x", "hgvs must be genomic HGVS, <accession>:g.<change>, got \"x\""),
            (
                Kind::VariantId,
                "variant_id",
                "a:b",
                "variant_id must be SPDI (<accession>:<position>:<ref>:<alt>) or a variant key without ':', got \"a:b\"",
            ),
            (
                Kind::TermId,
                "ontology_term_id",
                "x",
                "ontology_term_id must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9), got \"x\"",
            ),
            (
                Kind::Threshold,
                "effect_size",
                "gt:x",
                "effect_size must be gt:<number>, gte:<number>, lt:<number>, lte:<number> or a number, got \"gt:x\"",
            ),
            (Kind::Region(None), "region", "chr1:5-5", "region must have start < end, got \"chr1:5-5\""),
            (
                Kind::Region(None),
                "region",
                "chr1",
                "region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1\"",
            ),
            (
                Kind::Region(Some(10)),
                "region",
                "chr1:0-11",
                "region spans 11 bases; at most 10 are allowed, got \"chr1:0-11\"",
            ),
        ] {
            assert_eq!(check(kind, name, v), Err(msg.to_string()), "{kind:?} {v:?}");
        }
        let Ok(Value::Hgnc(h)) = check(Kind::Hgnc, "hgnc_id", "15916") else {
            panic!("an HGNC id");
        };
        assert_eq!(h.stored(), "HGNC:15916");
    }
}
