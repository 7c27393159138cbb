//! Which kind of entity an identifier names, from its shape alone, and the form the catalog
//! stores it in. The shapes and their order are those IGVF's MCP server recognises, so that an
//! agent's identifier selects the same lookup here; matching ignores case throughout.

/// The entity types an identifier can name.
pub const ENTITY_TYPES: [&str; 9] = [
    "gene",
    "transcript",
    "protein",
    "variant",
    "ontology",
    "drug",
    "complex",
    "study",
    "pathway",
];

/// What a type is called in messages.
pub fn label(entity_type: &str) -> &str {
    if entity_type == "ontology" {
        "ontology term"
    } else {
        entity_type
    }
}

/// The type a hint selects (`disease` is an ontology term).
pub fn hinted_type(hint: &str) -> Option<&'static str> {
    let hint = hint.to_ascii_lowercase();
    if hint == "disease" {
        return Some("ontology");
    }
    ENTITY_TYPES.iter().copied().find(|t| *t == hint)
}

/// The lookup parameter of a type's name, for types that can be looked up by name.
pub fn name_param(entity_type: &str) -> Option<&'static str> {
    matches!(
        entity_type,
        "gene" | "protein" | "ontology" | "drug" | "complex" | "pathway"
    )
    .then_some("name")
}

/// Ontology prefixes the catalog stores term ids under, in the catalog's case.
const ONTOLOGY_PREFIXES: &[&str] = &[
    "AfPO",
    "BAO",
    "BFO",
    "BSPO",
    "BTO",
    "CARO",
    "CHEBI",
    "CHMO",
    "CL",
    "CLM",
    "CLO",
    "COB",
    "CVCL",
    "DDANAT",
    "DHBA",
    "DISDRIV",
    "DOID",
    "ECO",
    "ECTO",
    "EFO",
    "ENVO",
    "EO",
    "ExO",
    "FBbi",
    "FBbt",
    "FBdv",
    "FMA",
    "FOODON",
    "GAZ",
    "GENO",
    "GO",
    "GOREL",
    "GSSO",
    "HANCESTRO",
    "HBA",
    "HP",
    "HsapDv",
    "IAO",
    "IDO",
    "MA",
    "MAXO",
    "MBA",
    "MF",
    "MFOMD",
    "MIM",
    "MOD",
    "MONDO",
    "MOP",
    "MP",
    "MPATH",
    "MRO",
    "NBO",
    "NCBITaxon",
    "NCIT",
    "NTR",
    "OBA",
    "OBI",
    "OGMS",
    "OMIABIS",
    "OMIT",
    "OMO",
    "OMRSE",
    "Oncotree",
    "OPL",
    "Orphanet",
    "PATO",
    "PCL",
    "PCO",
    "PO",
    "PR",
    "REO",
    "RO",
    "SIO",
    "SLM",
    "SO",
    "STATO",
    "SYMP",
    "TO",
    "TRANS",
    "UBERON",
    "UBPROP",
    "UBREL",
    "UO",
    "UPHENO",
    "VO",
    "VariO",
    "WBls",
    "ZEA",
    "ZFA",
];

/// A cursor over an identifier's bytes, matching ASCII letters without regard to case.
struct Cur<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cur<'a> {
    fn new(s: &'a str) -> Cur<'a> {
        Cur {
            s: s.as_bytes(),
            i: 0,
        }
    }
    fn done(&self) -> bool {
        self.i == self.s.len()
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).map(u8::to_ascii_uppercase)
    }
    fn lit(&mut self, lit: &str) -> bool {
        let end = self.i + lit.len();
        let ok = self
            .s
            .get(self.i..end)
            .is_some_and(|b| b.eq_ignore_ascii_case(lit.as_bytes()));
        if ok {
            self.i = end;
        }
        ok
    }
    /// Between `min` and `max` bytes satisfying `f` (greedy); false when fewer than `min`.
    fn run(&mut self, min: usize, max: usize, f: impl Fn(u8) -> bool) -> bool {
        let start = self.i;
        while self.i - start < max && self.peek().is_some_and(&f) {
            self.i += 1;
        }
        self.i - start >= min
    }
    fn digits(&mut self) -> bool {
        self.run(1, usize::MAX, |b| b.is_ascii_digit())
    }
    fn rest(&self) -> &'a [u8] {
        &self.s[self.i..]
    }
}

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// `PREFIX digits[.digits][_PAR_Y]` (Ensembl gene and transcript ids).
fn ensembl(s: &str, prefix: &str, par_y: bool) -> bool {
    let mut c = Cur::new(s);
    if !(c.lit(prefix) && c.digits()) {
        return false;
    }
    if c.lit(".") && !c.digits() {
        return false;
    }
    if par_y {
        c.lit("_PAR_Y");
    }
    c.done()
}

fn prefixed_digits(s: &str, prefix: &str) -> bool {
    let mut c = Cur::new(s);
    c.lit(prefix) && c.digits() && c.done()
}

/// A UniProt accession at the cursor (its two published shapes).
fn uniprot(c: &mut Cur) -> bool {
    let digit = |b: u8| b.is_ascii_digit();
    let upper = |b: u8| b.is_ascii_uppercase();
    let start = c.i;
    if c.run(1, 1, |b| matches!(b, b'O' | b'P' | b'Q'))
        && c.run(1, 1, digit)
        && c.run(3, 3, alnum)
        && c.run(1, 1, digit)
    {
        return true;
    }
    c.i = start;
    if !(c.run(1, 1, |b| upper(b) && !matches!(b, b'O' | b'P' | b'Q')) && c.run(1, 1, digit)) {
        return false;
    }
    let mut groups = 0;
    while groups < 2 {
        let at = c.i;
        if c.run(1, 1, upper) && c.run(2, 2, alnum) && c.run(1, 1, digit) {
            groups += 1;
        } else {
            c.i = at;
            break;
        }
    }
    groups >= 1
}

fn uniprot_accession(s: &str) -> bool {
    let mut c = Cur::new(s);
    uniprot(&mut c) && c.done()
}

fn uniprot_isoform(s: &str) -> bool {
    let mut c = Cur::new(s);
    // The accession's shapes are of fixed lengths 6 or 10, so try each before the dash.
    for len in [6, 10] {
        c.i = 0;
        let Some(head) = s.get(..len) else { continue };
        if uniprot_accession(head) {
            c.i = len;
            if c.lit("-") && c.digits() && c.done() {
                return true;
            }
        }
    }
    false
}

fn spdi(s: &str) -> bool {
    let mut c = Cur::new(s);
    c.lit("NC_")
        && c.digits()
        && c.lit(".")
        && c.digits()
        && c.lit(":")
        && c.digits()
        && c.lit(":")
        && c.run(0, usize::MAX, |b| b.is_ascii_uppercase())
        && c.lit(":")
        && c.run(0, usize::MAX, |b| b.is_ascii_uppercase())
        && c.done()
}

/// A genomic HGVS change: substitution, deletion, duplication, insertion or deletion-insertion.
fn hgvs_change(s: &[u8]) -> bool {
    let s = String::from_utf8_lossy(s).to_ascii_uppercase();
    let letters = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_uppercase());
    let nums = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    // `N` or `N_N`, with whether it was a range.
    let span = |t: &str| match t.split_once('_') {
        Some((a, b)) => nums(a) && nums(b),
        None => nums(t),
    };
    if let Some((pos, alt)) = s.split_once('>') {
        let (n, r) = pos.split_at(pos.len().saturating_sub(1));
        return nums(n) && letters(r) && alt.len() == 1 && letters(alt);
    }
    if let Some((sp, ins)) = s.split_once("DELINS") {
        return span(sp) && letters(ins);
    }
    if let Some((sp, ins)) = s.split_once("INS") {
        return sp.contains('_') && span(sp) && letters(ins);
    }
    for op in ["DEL", "DUP"] {
        if let Some(sp) = s.strip_suffix(op) {
            return span(sp);
        }
    }
    false
}

fn hgvs(s: &str) -> bool {
    let mut c = Cur::new(s);
    c.lit("NC_") && c.digits() && c.lit(".") && c.digits() && c.lit(":G.") && hgvs_change(c.rest())
}

/// A UniProt entry name with a letter species code (`HBA_HUMAN`): not a term id, except under
/// the one prefix whose local ids look like that (`Oncotree_ACC`).
fn entry_name_shaped(s: &str) -> bool {
    let upper = s.to_ascii_uppercase();
    if upper.starts_with("ONCOTREE_") {
        return false;
    }
    let mut c = Cur::new(s);
    c.run(1, 10, alnum) && c.lit("_") && c.run(1, 5, |b| b.is_ascii_uppercase()) && c.done()
}

/// The canonical prefix and the local id of an ontology term id.
fn ontology_term(s: &str) -> Option<(&'static str, &str)> {
    if entry_name_shaped(s) {
        return None;
    }
    ONTOLOGY_PREFIXES.iter().find_map(|p| {
        let head = s.get(..p.len())?;
        let rest = &s[p.len()..];
        let local = rest.strip_prefix(['_', ':'])?;
        let ok = head.eq_ignore_ascii_case(p)
            && !local.is_empty()
            && local
                .split(['-', '_'])
                .all(|part| !part.is_empty() && part.bytes().all(alnum));
        ok.then_some((*p, local))
    })
}

fn pathway(s: &str) -> bool {
    let mut c = Cur::new(s);
    c.lit("R-") && c.run(3, 3, |b| b.is_ascii_uppercase()) && c.lit("-") && c.digits() && c.done()
}

/// A gene symbol: letters and digits in dash-separated parts, starting with a letter.
fn gene_symbol(s: &str) -> bool {
    (2..=25).contains(&s.len())
        && s.as_bytes()[0].is_ascii_alphabetic()
        && s.split('-')
            .all(|part| !part.is_empty() && part.bytes().all(alnum))
}

/// A symbol of the irregular kinds (`C4B_2`, `7SK`, `CTD-2194D22.4`): a gene only if one has it.
pub fn irregular_symbol(s: &str) -> bool {
    (2..=25).contains(&s.len())
        && s.bytes().any(|b| b.is_ascii_alphabetic())
        && s.as_bytes()[0].is_ascii_alphanumeric()
        && s.bytes()
            .all(|b| alnum(b) || matches!(b, b'.' | b'_' | b'-'))
}

/// Short symbols that may also fit another id shape (`RS1`, `CA1`, `P2RY12`).
pub fn id_shaped_symbol(s: &str) -> bool {
    (2..=10).contains(&s.len()) && s.as_bytes()[0].is_ascii_alphabetic() && s.bytes().all(alnum)
}

/// The shapes, in the order they are tried: (matcher, entity type, lookup parameter).
type Shape = (fn(&str) -> bool, &'static str, &'static str);
const SHAPES: &[Shape] = &[
    (|s| ensembl(s, "ENSG", true), "gene", "gene_id"),
    (|s| prefixed_digits(s, "HGNC:"), "gene", "hgnc_id"),
    (|s| prefixed_digits(s, "ENTREZ:"), "gene", "entrez"),
    (|s| ensembl(s, "ENST", true), "transcript", "transcript_id"),
    (|s| ensembl(s, "ENSP", false), "protein", "protein_id"),
    (uniprot_isoform, "protein", "protein_id"),
    (uniprot_accession, "protein", "dbxrefs"),
    (|s| prefixed_digits(s, "rs"), "variant", "rsid"),
    (spdi, "variant", "spdi"),
    (hgvs, "variant", "hgvs"),
    (|s| prefixed_digits(s, "CA"), "variant", "ca_id"),
    (|s| ontology_term(s).is_some(), "ontology", "term_id"),
    (|s| prefixed_digits(s, "PA"), "drug", "drug_id"),
    (|s| prefixed_digits(s, "CPX-"), "complex", "complex_id"),
    (|s| prefixed_digits(s, "GCST"), "study", "study_id"),
    (pathway, "pathway", "id"),
    (gene_symbol, "gene", "name"),
];

/// The entity type and lookup parameter of `identifier`, given an optional type `hint`.
///
/// With a hint, an identifier that is no id of that type is a name of it (for the types that
/// have names); an id of another type is refused, except a short symbol-shaped one.
pub fn detect(
    identifier: &str,
    hint: Option<&str>,
) -> Result<(&'static str, &'static str), String> {
    let id = identifier.trim();
    if id.is_empty() {
        return Err("the identifier is empty: give an id or a name".into());
    }
    if let Some(hint) = hint {
        let Some(hinted) = hinted_type(hint) else {
            return Err(format!(
                "hint: unknown hint {hint:?}; valid: {}, disease",
                ENTITY_TYPES.join(", ")
            ));
        };
        let id_of = |want: Option<&str>| {
            SHAPES
                .iter()
                .find(|(m, t, p)| *p != "name" && want.is_none_or(|w| w == *t) && m(id))
        };
        if let Some((_, t, p)) = id_of(Some(hinted)) {
            return Ok((t, p));
        }
        if !id_shaped_symbol(id) {
            if let Some((_, t, _)) = id_of(None) {
                let expected = if name_param(hinted).is_some() {
                    "name"
                } else {
                    "id"
                };
                return Err(format!(
                    "'{id}' is {} id, not {} {expected}",
                    with_article(label(t)),
                    with_article(&hint.to_ascii_lowercase())
                ));
            }
        }
        return match name_param(hinted) {
            Some(p) => Ok((hinted, p)),
            None => Err(format!(
                "'{id}' is not a {hint} identifier, and {hint} entities have no name to look up"
            )),
        };
    }
    SHAPES
        .iter()
        .find(|(m, _, _)| m(id))
        .map(|(_, t, p)| (*t, *p))
        .ok_or_else(|| {
            format!(
                "Could not detect entity type for identifier: {id}. Known shapes: gene symbols and \
                 ENSG*, HGNC:*, ENTREZ:* (genes), ENST* (transcripts), ENSP* and UniProt \
                 accessions (proteins), rs*, SPDI, genomic HGVS and CA* (variants), ontology \
                 term ids such as MONDO_0007915 or HP:0033726, PA* (drugs), CPX-* (complexes), \
                 GCST* (studies), R-HSA-* (pathways); a hint selects names of other types."
            )
        })
}

fn with_article(noun: &str) -> String {
    let an = noun.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {noun}", if an { "an" } else { "a" })
}

/// `identifier` in the form the catalog stores for lookup parameter `param` of `entity_type`:
/// ids upper case (rsIDs lower), Ensembl versions dropped, HGVS operations lower case, term
/// ids with `_` and the prefix's own case; names as given (gene symbols upper case).
pub fn normalize(identifier: &str, entity_type: &str, param: &str) -> String {
    let id = identifier.trim();
    match param {
        "name" if entity_type == "gene" => return id.to_ascii_uppercase(),
        "name" => return id.to_string(),
        "rsid" => return id.to_ascii_lowercase(),
        _ => {}
    }
    if entity_type == "ontology" {
        return match ontology_term(id) {
            Some((prefix, local)) => format!("{prefix}_{}", local.to_ascii_uppercase()),
            None => id.to_ascii_uppercase().replace(':', "_"),
        };
    }
    let up = id.to_ascii_uppercase();
    match param {
        "gene_id" | "transcript_id" => drop_versions(&up),
        "hgvs" => match up.split_once(":G.") {
            Some((seq, change)) => {
                let mut change = change.to_string();
                for op in ["DELINS", "DEL", "DUP", "INS"] {
                    if change.contains(op) {
                        change = change.replacen(op, &op.to_ascii_lowercase(), 1);
                        break;
                    }
                }
                format!("{seq}:g.{change}")
            }
            None => up,
        },
        _ => up,
    }
}

/// Removes every `.digits` run (`ENSG00000002586.20_PAR_Y` → `ENSG00000002586_PAR_Y`).
fn drop_versions(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            i += 1;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(id: &str) -> Option<(&'static str, &'static str)> {
        detect(id, None).ok()
    }

    #[test]
    fn test_shapes_pick_the_type_and_parameter() {
        assert_eq!(kind("ENSG00000139618.17"), Some(("gene", "gene_id")));
        assert_eq!(kind("ENSG00000002586_PAR_Y"), Some(("gene", "gene_id")));
        assert_eq!(kind("HGNC:1100"), Some(("gene", "hgnc_id")));
        assert_eq!(
            kind("ENST00000443707"),
            Some(("transcript", "transcript_id"))
        );
        assert_eq!(kind("ENSP00000493376"), Some(("protein", "protein_id")));
        assert_eq!(kind("P49711-2"), Some(("protein", "protein_id")));
        assert_eq!(kind("Q9P286"), Some(("protein", "dbxrefs")));
        assert_eq!(kind("A0A024RBG1"), Some(("protein", "dbxrefs")));
        assert_eq!(kind("rs12345"), Some(("variant", "rsid")));
        assert_eq!(kind("NC_000001.11:15000:A:G"), Some(("variant", "spdi")));
        assert_eq!(kind("NC_000001.11:g.15001A>G"), Some(("variant", "hgvs")));
        assert_eq!(
            kind("NC_000001.11:g.100_102delinsAT"),
            Some(("variant", "hgvs"))
        );
        assert_eq!(kind("NC_000001.11:g.100del"), Some(("variant", "hgvs")));
        assert_eq!(kind("NC_000001.11:g.100insA"), None);
        assert_eq!(kind("CA800001"), Some(("variant", "ca_id")));
        assert_eq!(kind("MONDO_0007915"), Some(("ontology", "term_id")));
        assert_eq!(kind("hp:0033726"), Some(("ontology", "term_id")));
        assert_eq!(kind("Oncotree_ACC"), Some(("ontology", "term_id")));
        assert_eq!(kind("CLO_0001"), Some(("ontology", "term_id")));
        assert_eq!(kind("PA451906"), Some(("drug", "drug_id")));
        assert_eq!(kind("CPX-9001"), Some(("complex", "complex_id")));
        assert_eq!(kind("GCST900001"), Some(("study", "study_id")));
        assert_eq!(kind("R-HSA-9000001"), Some(("pathway", "id")));
        assert_eq!(kind("HLA-DRB1"), Some(("gene", "name")));
        // An entry name with a letter species code is a protein name, not an HBA term.
        assert_eq!(kind("HBA_HUMAN"), None);
        assert_eq!(kind("C4B_2"), None);
        assert!(irregular_symbol("C4B_2") && irregular_symbol("7SK"));
        assert_eq!(kind("not an id"), None);
    }

    #[test]
    fn test_hints_select_names_and_refuse_other_ids() {
        assert_eq!(detect("CTCF", Some("protein")), Ok(("protein", "name")));
        assert_eq!(detect("lupus", Some("disease")), Ok(("ontology", "name")));
        assert_eq!(detect("rs1", Some("variant")), Ok(("variant", "rsid")));
        let e = detect("rs12345678901", Some("gene")).unwrap_err();
        assert!(e.contains("is a variant id, not a gene name"), "{e}");
        assert!(detect("x", Some("study")).unwrap_err().contains("no name"));
        assert!(detect("x", Some("virus")).unwrap_err().starts_with("hint:"));
        assert!(detect("  ", None).is_err());
    }

    #[test]
    fn test_normal_forms() {
        assert_eq!(normalize(" brca1 ", "gene", "name"), "BRCA1");
        assert_eq!(normalize("RS123", "variant", "rsid"), "rs123");
        assert_eq!(
            normalize("ensg00000002586.20_par_y", "gene", "gene_id"),
            "ENSG00000002586_PAR_Y"
        );
        assert_eq!(
            normalize("nc_000001.11:g.100_102DELINSat", "variant", "hgvs"),
            "NC_000001.11:g.100_102delinsAT"
        );
        assert_eq!(
            normalize("ncbitaxon:9606", "ontology", "term_id"),
            "NCBITaxon_9606"
        );
        assert_eq!(normalize("hp:0033726", "ontology", "term_id"), "HP_0033726");
    }
}
