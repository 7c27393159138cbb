//! A matched variant's field values as VCF INFO text (docs/DESIGN.md#annotation): floats as the shortest f32
//! text (what bcftools stores), strings percent-encoded, several values for one allele joined
//! with `|`. Values are read from stored member bytes; nothing is parsed into JSON values.

use varcat_format::codebook::Visited;
use varcat_format::collection::{Collection, Collections};
use varcat_format::schema::{
    coding_variants, genes, system, variants, variants_coding_variants, variants_diseases,
    variants_genes, variants_genomic_elements, variants_phenotypes,
};

use crate::fields::{Field, Qtl, Source};
use varcat_format::json_scan as json;

/// Appends `s` (raw JSON string content) percent-encoded for a VCF INFO value: VCF 4.3's
/// reserved `%:;=,` and CR/LF/TAB, plus space (4.2 readers split on it) and `|` (our join).
pub fn push_encoded(raw: &[u8], out: &mut Vec<u8>) {
    // Most values (rsids, gene names) have no escape and nothing to encode: copy them as is.
    if memchr::memchr(b'\\', raw).is_none() {
        return encode(raw, out);
    }
    let mut s = Vec::with_capacity(raw.len());
    json::unescape(raw, &mut s);
    encode(&s, out);
}

/// Appends `s` with the bytes [`push_encoded`] reserves as `%XX`.
fn encode(s: &[u8], out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in s {
        match b {
            b'%' | b':' | b';' | b'=' | b',' | b'\r' | b'\n' | b'\t' | b' ' | b'|' => {
                out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]])
            }
            _ => out.push(b),
        }
    }
}

/// Appends `v` as the shortest text that reads back as the same f32.
pub fn push_f32(v: f64, out: &mut Vec<u8>) {
    let mut b = ryu::Buffer::new();
    let f = v as f32;
    if f.is_finite() {
        let s = b.format_finite(f);
        out.extend_from_slice(s.strip_suffix(".0").unwrap_or(s).as_bytes());
    } else {
        out.push(b'.');
    }
}

/// The rsids of a variant (a JSON array of strings), `|`-separated.
fn push_rsids(v: Option<&[u8]>, o: &mut Vec<u8>) {
    if let Some(v) = v {
        json::for_each_str(v, |s| {
            if !o.is_empty() {
                o.push(b'|');
            }
            push_encoded(s, o);
        });
    }
}

/// A JSON string member's content, percent-encoded.
fn push_str(v: Option<&[u8]>, o: &mut Vec<u8>) {
    if let Some(s) = v.and_then(json::str_content) {
        push_encoded(s, o);
    }
}

/// A JSON number member as shortest f32 text.
fn push_number(v: Option<&[u8]>, o: &mut Vec<u8>) {
    if let Some(v) = v {
        push_number_text(v, o);
    }
}

/// An annotation member's value `v` for a field of `source` (a number or a string).
fn push_annotation(source: Source, v: &[u8], o: &mut Vec<u8>) {
    match source {
        Source::AnnotationNumber(_) => {
            push_number_text(v, o);
        }
        _ => push_str(Some(v), o),
    }
}

/// Appends JSON number text `v` as [`push_f32`] prints its value; false (nothing appended)
/// when `v` is not a number. A plain decimal of 1 to 6 significant digits in [1e-6, 1e13) is
/// copied, normalised, without parsing: f32 keeps 6 digits, so its shortest text is those
/// digits, and ryu writes that range without an exponent (`exhaustive_six_digit_decimals`
/// checks every such decimal against the parse). Most stored scores and frequencies are.
pub fn push_number_text(v: &[u8], out: &mut Vec<u8>) -> bool {
    if let Some((neg, int, frac)) = short_decimal(v.trim_ascii()) {
        if neg {
            out.push(b'-');
        }
        out.extend_from_slice(if int.is_empty() { b"0" } else { int });
        if !frac.is_empty() {
            out.push(b'.');
            out.extend_from_slice(frac);
        }
        return true;
    }
    match json::number(v) {
        Some(x) => {
            push_f32(x, out);
            true
        }
        None => false,
    }
}

/// `v` as (sign, integer digits without leading zeros, fraction digits without trailing
/// zeros) when it is `-?digits(.digits)?` with 1 to 6 significant digits and a value in
/// [1e-6, 1e13); None otherwise (exponents, zero, more digits, anything else).
fn short_decimal(v: &[u8]) -> Option<(bool, &[u8], &[u8])> {
    let (neg, v) = match v.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, v),
    };
    let (int, frac) = match memchr::memchr(b'.', v) {
        Some(dot) => (&v[..dot], &v[dot + 1..]),
        None => (v, &v[v.len()..]),
    };
    if int.is_empty()
        || (v.len() > int.len() && frac.is_empty())
        || !int.iter().chain(frac).all(u8::is_ascii_digit)
    {
        return None;
    }
    let int = &int[int.iter().take_while(|&&d| d == b'0').count()..];
    let frac = &frac[..frac.len() - frac.iter().rev().take_while(|&&d| d == b'0').count()];
    // Significant digits and the decimal exponent kk (10^(kk-1) <= |v| < 10^kk).
    let (sig, kk) = if int.is_empty() {
        let zeros = frac.iter().take_while(|&&d| d == b'0').count();
        (frac.len() - zeros, -(zeros as i64))
    } else {
        let trailing = if frac.is_empty() {
            int.iter().rev().take_while(|&&d| d == b'0').count()
        } else {
            0
        };
        (int.len() - trailing + frac.len(), int.len() as i64)
    };
    ((1..=6).contains(&sig) && -6 < kk && kk <= 13).then_some((neg, int, frac))
}

/// The catalog collections and member ids the chosen fields read, opened once.
pub struct Values<'c> {
    cols: &'c Collections,
    variants: &'c Collection,
    key: Option<u16>,
    annotations: Option<u16>,
    rsid: Option<u16>,
    spdi: Option<u16>,
    fields: Vec<Field>,
    /// The annotation members the fields read, sorted: (member, field index).
    members: Vec<(&'static [u8], usize)>,
    needs_edges: bool,
    handle: Vec<u8>,
    /// The ordinal of the variant being filled.
    ord: u64,
    /// The edge collections the fields read, looked up by name once.
    edge: EdgeColls<'c>,
    /// For each member position of the last `annotations` object read: its name and the
    /// index into `members` (stored objects list their members in one order, so a name
    /// compare usually replaces the search).
    hints: Vec<(Vec<u8>, Option<usize>)>,
    /// What one pass over an encoded record decodes (None: read records whole).
    plan: Option<Plan>,
    /// The values of the plan's top members for the record being filled: (id, present,
    /// bytes).
    top: Vec<(u16, bool, Vec<u8>)>,
}

/// The members [`Values::fill_visited`] decodes: `top` (ascending ids) and, of the
/// `annotations` object, the inner members the fields read (`want`, by the codebook's member
/// order) with the field each feeds.
struct Plan {
    top: Vec<u16>,
    inner: Option<(u16, Vec<bool>, Vec<Option<usize>>)>,
}

impl Plan {
    /// The plan for `fields` over `variants`' codebook; None when `annotations` is not stored
    /// as an object there but a field reads it.
    fn new(v: &Values<'_>) -> Option<Plan> {
        let uses = |s: fn(&Source) -> bool| v.fields.iter().any(|f| s(&f.source));
        let mut top: Vec<u16> = [
            (uses(|s| matches!(s, Source::Rsid)), v.rsid),
            (uses(|s| matches!(s, Source::Spdi)), v.spdi),
            (v.needs_edges, v.key),
        ]
        .into_iter()
        .filter_map(|(used, id)| id.filter(|_| used))
        .chain(v.fields.iter().filter_map(|f| match f.source {
            Source::VariantNumber(k) => v.variants.field(k),
            _ => None,
        }))
        .collect();
        top.sort_unstable();
        top.dedup();
        let inner = match v.annotations {
            Some(id) if !v.members.is_empty() => {
                let names = v.variants.record_store().codebook().inner_names(id)?;
                let to: Vec<Option<usize>> = names
                    .iter()
                    .map(|n| {
                        let at = v.members.binary_search_by(|(m, _)| (*m).cmp(n)).ok();
                        at.map(|at| v.members[at].1)
                    })
                    .collect();
                Some((id, to.iter().map(Option::is_some).collect(), to))
            }
            _ => None,
        };
        Some(Plan { top, inner })
    }
}

/// The collections [`Values`] reads edges from (None: the catalog lacks it).
struct EdgeColls<'c> {
    genes: Option<&'c Collection>,
    phenotypes: Option<&'c Collection>,
    elements: Option<&'c Collection>,
    diseases: Option<&'c Collection>,
    coding_edges: Option<&'c Collection>,
    coding: Option<&'c Collection>,
}

/// The edges of variant `ord` (handle `handle`) in an edge collection (ordinals): found by the
/// variant's ordinal, which the look-up already has, so no key-map walk per edge collection;
/// by handle only when the edges were built without the variants' key map.
fn edges(coll: Option<&Collection>, ord: u64, handle: &[u8]) -> Vec<u64> {
    let Some(a) = coll.and_then(|c| c.adjacency(system::FROM)) else {
        return Vec::new();
    };
    let list = if a.by_handle_only(variants::NAME) {
        std::str::from_utf8(handle).ok().and_then(|h| a.get(h))
    } else {
        // The variant is in this catalog, so its handle resolves to `ord`: `of` is `get`.
        a.of(variants::NAME, ord)
    };
    list.map(|l| l.iter().collect()).unwrap_or_default()
}

/// A test of whether an edge of `coll` has `value` in facet `field` (the facet's bitmap
/// looked up once, not per edge).
fn facet_test<'a>(coll: &'a Collection, field: &str, value: &str) -> impl Fn(u64) -> bool + 'a {
    let bits = coll.facet(field).and_then(|f| f.get(value));
    move |ord| bits.is_some_and(|b| b.contains(ord))
}

/// A variant's associations of one kind: how many, and the edge of the strongest.
type Stats = (usize, Option<u64>);

impl<'c> Values<'c> {
    /// Opens the readers of `fields` for `variants` of `cols`.
    pub fn new(cols: &'c Collections, variants: &'c Collection, fields: &[Field]) -> Values<'c> {
        let mut members: Vec<(&'static [u8], usize)> = fields
            .iter()
            .enumerate()
            .filter_map(|(i, f)| match f.source {
                Source::AnnotationNumber(m) | Source::AnnotationString(m) => {
                    Some((m.as_bytes(), i))
                }
                _ => None,
            })
            .collect();
        members.sort();
        let needs_edges = fields.iter().any(|f| {
            !matches!(
                f.source,
                Source::Rsid
                    | Source::Spdi
                    | Source::AnnotationNumber(_)
                    | Source::AnnotationString(_)
                    | Source::VariantNumber(_)
            )
        });
        let mut v = Values {
            fields: fields.to_vec(),
            members,
            needs_edges,
            cols,
            variants,
            key: variants.field(variants::_key),
            annotations: variants.field(variants::annotations),
            rsid: variants.field(variants::rsid),
            spdi: variants.field(variants::spdi),
            handle: Vec::new(),
            ord: 0,
            edge: EdgeColls {
                genes: cols.get(variants_genes::NAME),
                phenotypes: cols.get(variants_phenotypes::NAME),
                elements: cols.get(variants_genomic_elements::NAME),
                diseases: cols.get(variants_diseases::NAME),
                coding_edges: cols.get(variants_coding_variants::NAME),
                coding: cols.get(coding_variants::NAME),
            },
            hints: Vec::new(),
            plan: None,
            top: Vec::new(),
        };
        v.plan = Plan::new(&v);
        v.top = v.plan.as_ref().map_or_else(Vec::new, |p| {
            p.top.iter().map(|&id| (id, false, Vec::new())).collect()
        });
        v
    }

    /// Reads every record whole, as a record one pass cannot read is (cached, escaped where
    /// it matters): tests compare the two paths.
    pub fn read_whole(&mut self) {
        self.plan = None;
    }

    /// Sets `out[i]` to field `i`'s value for variant `ord` (empty when it has none).
    pub fn fill(&mut self, ord: u64, out: &mut [Vec<u8>]) {
        for o in out.iter_mut() {
            o.clear();
        }
        if self.fill_visited(ord, out) {
            return;
        }
        // Read whole: the record is cached, escaped where it matters, or stored otherwise.
        for o in out.iter_mut() {
            o.clear();
        }
        let Some(rec) = self.variants.record(ord) else {
            return;
        };
        // Every annotation member the fields read, in one pass over the object.
        if let Some(a) = self
            .annotations
            .and_then(|id| rec.get(id))
            .filter(|_| !self.members.is_empty())
        {
            let mut left = self.members.len();
            let (members, hints, fields) = (&self.members, &mut self.hints, &self.fields);
            let mut pos = 0;
            json::for_each_member(a, |k, v| {
                let hit = match hints.get(pos) {
                    Some((name, hit)) if name.as_slice() == k => *hit,
                    _ => {
                        let hit = members.binary_search_by(|(m, _)| (*m).cmp(k)).ok();
                        match hints.get_mut(pos) {
                            Some((name, h)) => {
                                name.clear();
                                name.extend_from_slice(k);
                                *h = hit;
                            }
                            None => hints.push((k.to_vec(), hit)),
                        }
                        hit
                    }
                };
                pos += 1;
                if let Some(at) = hit {
                    let i = members[at].1;
                    push_annotation(fields[i].source, v, &mut out[i]);
                    left -= 1;
                }
                left > 0
            });
        }
        self.fill_rest(ord, |id| rec.get(id), out);
    }

    /// [`Values::fill`] in one pass over the encoded record that decodes only the members
    /// the fields read ([`RecordStore::visit`]); false when the record must be read whole.
    fn fill_visited(&mut self, ord: u64, out: &mut [Vec<u8>]) -> bool {
        let Some(plan) = &self.plan else {
            return false;
        };
        let mut top = std::mem::take(&mut self.top);
        for (_, seen, v) in top.iter_mut() {
            *seen = false;
            v.clear();
        }
        let fields = &self.fields;
        let inner = plan.inner.as_ref().map(|(id, want, _)| (*id, &want[..]));
        let done = self
            .variants
            .record_store()
            .visit(ord, &plan.top, inner, |v| match v {
                Visited::Member(id, b) => {
                    if let Some((_, seen, v)) = top.iter_mut().find(|(i, _, _)| *i == id) {
                        *seen = true;
                        v.extend_from_slice(b);
                    }
                }
                Visited::Inner(j, b) => {
                    if let Some(i) = plan.inner.as_ref().and_then(|(_, _, to)| to[j]) {
                        push_annotation(fields[i].source, b, &mut out[i]);
                    }
                }
            })
            .is_some();
        if done {
            let get = |id: u16| {
                top.iter()
                    .find(|(i, seen, _)| *i == id && *seen)
                    .map(|(_, _, v)| v.as_slice())
            };
            self.fill_rest(ord, get, out);
        }
        self.top = top;
        done
    }

    /// The fields after the annotation members, from the variant's members (`get`) and its
    /// edges.
    fn fill_rest<'r>(
        &mut self,
        ord: u64,
        get: impl Fn(u16) -> Option<&'r [u8]>,
        out: &mut [Vec<u8>],
    ) {
        if self.needs_edges {
            self.ord = ord;
            self.handle.clear();
            self.handle.extend_from_slice(variants::NAME.as_bytes());
            self.handle.push(b'/');
            if let Some(k) = self.key.and_then(&get).and_then(json::str_content) {
                self.handle.extend_from_slice(k);
            }
        }
        let mut coding: Option<Vec<(Vec<u8>, u64)>> = None;
        // Count and top of each kind, computed once for the fields that share them.
        let mut qtls: [Option<Stats>; 2] = [None, None];
        let mut gwas: Option<Stats> = None;
        for (f, o) in self.fields.iter().zip(out.iter_mut()) {
            match f.source {
                Source::Rsid => push_rsids(self.rsid.and_then(&get), o),
                Source::Spdi => push_str(self.spdi.and_then(&get), o),
                // Read with the record.
                Source::AnnotationNumber(_) | Source::AnnotationString(_) => {}
                Source::VariantNumber(k) => push_number(self.variants.field(k).and_then(&get), o),
                Source::QtlCount(q) | Source::QtlTopGene(q) => {
                    let st = *qtls[q as usize].get_or_insert_with(|| self.qtl_stats(q));
                    self.qtl(st, f.source, o)
                }
                Source::CaqtlCount => {
                    let c = self.edge.elements;
                    let n = c.map_or(0, |c| {
                        let caqtl = facet_test(c, variants_genomic_elements::method, "caQTL");
                        edges(Some(c), self.ord, &self.handle)
                            .into_iter()
                            .filter(|&e| caqtl(e))
                            .count()
                    });
                    o.extend_from_slice(n.to_string().as_bytes());
                }
                Source::GwasCount | Source::GwasMinP | Source::GwasTopTrait => {
                    let st = *gwas.get_or_insert_with(|| self.gwas_stats());
                    self.gwas(st, f.source, o)
                }
                Source::Clingen => self.clingen(o),
                Source::Hgvsp | Source::Coding(_) => {
                    let list = coding.get_or_insert_with(|| self.coding());
                    self.coding_values(list, f.source, o);
                }
            }
        }
    }

    /// The variant's `q` associations in `variants_genes` (none without the collection).
    fn qtl_stats(&self, q: Qtl) -> Stats {
        let Some(c) = self.edge.genes else {
            return (0, None);
        };
        let is_q = facet_test(c, variants_genes::label, q.label());
        // The strongest association: the largest −log10 p (a missing one is the weakest).
        self.strongest(c, variants_genes::neg_log10_pvalue, is_q, |v| {
            Some(v.map_or(f64::INFINITY, |x| -x))
        })
    }

    /// The count of the variant's edges in `c` that pass `keep`, and the one whose member
    /// `score` ranks lowest by `rank` (given None when absent or not a number; an edge ranked
    /// None is counted but never the top); ties go to the smaller `_key`. Reads the score
    /// member alone, and keys only on a tie.
    fn strongest(
        &self,
        c: &Collection,
        score: &str,
        keep: impl Fn(u64) -> bool,
        rank: impl Fn(Option<f64>) -> Option<f64>,
    ) -> Stats {
        let (p, key) = (c.field(score), c.field(system::KEY));
        let key_of = |e| key.and_then(|id| c.member(e, id));
        let mut n = 0usize;
        let mut top: Option<(f64, u64)> = None;
        for e in edges(Some(c), self.ord, &self.handle) {
            if !keep(e) {
                continue;
            }
            n += 1;
            let Some(r) = rank(
                p.and_then(|id| c.member(e, id))
                    .and_then(|v| json::number(&v)),
            ) else {
                continue;
            };
            let better = match top {
                None => true,
                Some((s, te)) => r < s || (r == s && key_of(e).as_deref() < key_of(te).as_deref()),
            };
            if better {
                top = Some((r, e));
            }
        }
        (n, top.map(|(_, e)| e))
    }

    fn qtl(&self, (n, top): Stats, source: Source, o: &mut Vec<u8>) {
        let Some(c) = self.edge.genes else {
            if matches!(source, Source::QtlCount(_)) {
                o.push(b'0');
            }
            return;
        };
        match source {
            Source::QtlCount(_) => o.extend_from_slice(n.to_string().as_bytes()),
            _ => {
                let gene = top
                    .and_then(|e| c.value(e, variants_genes::_to))
                    .and_then(|h| {
                        let h = std::str::from_utf8(json::str_content(&h)?).ok()?;
                        self.cols.resolve(h)
                    })
                    .and_then(|(g, ord)| g.value(ord, genes::name));
                if let Some(g) = gene.as_deref().and_then(json::str_content) {
                    push_encoded(g, o);
                }
            }
        }
    }

    /// The variant's GWAS associations in `variants_phenotypes`, the top one by smallest p.
    fn gwas_stats(&self) -> Stats {
        let Some(c) = self.edge.phenotypes else {
            return (0, None);
        };
        // The smallest p; an association without one is counted, never the top.
        let gwas = facet_test(c, variants_phenotypes::label, "GWAS");
        self.strongest(c, variants_phenotypes::p_value, gwas, |v| v)
    }

    fn gwas(&self, (n, top): Stats, source: Source, o: &mut Vec<u8>) {
        let c = self.edge.phenotypes;
        match (source, c, top) {
            (Source::GwasCount, _, _) => o.extend_from_slice(n.to_string().as_bytes()),
            (Source::GwasMinP, Some(c), Some(e)) => {
                if let Some(v) = c.value(e, variants_phenotypes::p_value) {
                    o.extend_from_slice(v.trim_ascii());
                }
            }
            (Source::GwasTopTrait, Some(c), Some(e)) => {
                let term = c.value(e, variants_phenotypes::phenotype_term);
                if let Some(s) = term.as_deref().and_then(json::str_content) {
                    push_encoded(s, o);
                }
            }
            _ => {}
        }
    }

    fn clingen(&self, o: &mut Vec<u8>) {
        let Some(c) = self.edge.diseases else {
            return;
        };
        let mut got: Vec<Vec<u8>> = Vec::new();
        for e in edges(Some(c), self.ord, &self.handle) {
            let assertion = c.value(e, variants_diseases::assertion);
            if let Some(s) = assertion.as_deref().and_then(json::str_content) {
                let mut v = Vec::new();
                push_encoded(s, &mut v);
                got.push(v);
            }
        }
        got.sort();
        got.dedup();
        o.extend_from_slice(&got.join(&b'|'));
    }

    /// The variant's coding variants: (`_to` key, ordinal in `coding_variants`), in key order.
    fn coding(&self) -> Vec<(Vec<u8>, u64)> {
        let (Some(c), Some(cv)) = (self.edge.coding_edges, self.edge.coding) else {
            return Vec::new();
        };
        let mut v: Vec<(Vec<u8>, u64)> = edges(Some(c), self.ord, &self.handle)
            .into_iter()
            .filter_map(|e| {
                let to = c.value(e, variants_coding_variants::_to)?;
                let to = json::str_content(&to)?;
                let key = to.strip_prefix(coding_variants::NAME.as_bytes())?;
                let key = key.strip_prefix(b"/")?;
                let ord = cv.ord(std::str::from_utf8(key).ok()?)?;
                Some((key.to_vec(), ord))
            })
            .collect();
        v.sort();
        v.dedup();
        v
    }

    fn coding_values(&self, list: &[(Vec<u8>, u64)], source: Source, o: &mut Vec<u8>) {
        let Some(cv) = self.edge.coding else {
            return;
        };
        let member = match source {
            Source::Coding(m) => m,
            _ => coding_variants::hgvsp,
        };
        let mut any = false;
        for (i, &(_, ord)) in list.iter().enumerate() {
            if i > 0 {
                o.push(b'|');
            }
            match cv.value(ord, member).as_deref() {
                Some(v) if json::str_content(v).is_some() => {
                    push_encoded(json::str_content(v).unwrap_or_default(), o);
                    any = true;
                }
                Some(v) if json::number(v).is_some() => {
                    o.extend_from_slice(v.trim_ascii());
                    any = true;
                }
                _ => o.push(b'.'),
            }
        }
        if !any {
            o.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_reserved_characters() {
        let mut o = Vec::new();
        push_encoded(br#"drug use; a=b, c:d|e 100%\"x\""#, &mut o);
        assert_eq!(o, b"drug%20use%3B%20a%3Db%2C%20c%3Ad%7Ce%20100%25\"x\"");
    }

    #[test]
    fn floats_are_shortest_f32() {
        let mut o = Vec::new();
        push_f32(0.1, &mut o);
        o.push(b' ');
        push_f32(1.0, &mut o);
        o.push(b' ');
        push_f32(3.2e-5, &mut o);
        o.push(b' ');
        push_f32(1.5e-10, &mut o);
        o.push(b' ');
        push_f32(f64::NAN, &mut o);
        assert_eq!(o, b"0.1 1 0.000032 1.5e-10 .");
    }

    /// The slow path: parse, then the shortest f32 text.
    fn parsed(text: &str) -> Vec<u8> {
        let mut o = Vec::new();
        push_f32(text.parse().unwrap(), &mut o);
        o
    }

    #[test]
    fn number_text_copies_short_decimals_as_the_parse_prints_them() {
        for t in [
            "0.1",
            "1",
            "1.0",
            "-2.50",
            "0.000032",
            "0.0000012",
            "123456",
            "1234567",
            "1000000",
            "9999990000000",
            "0.00000099",
            "1e-5",
            "3.2E-5",
            "0",
            "-0.0",
            "0.1234567",
            "007.5",
            "12.345600",
            "-0.000001",
        ] {
            let mut fast = Vec::new();
            assert!(push_number_text(t.as_bytes(), &mut fast), "{t}");
            assert_eq!(
                String::from_utf8_lossy(&fast),
                String::from_utf8_lossy(&parsed(t)),
                "{t}"
            );
        }
        let mut o = Vec::new();
        for t in ["", "-", "1.", ".5", "1.2.3", "null", "\"1\"", "1x", "--1"] {
            assert_eq!(
                push_number_text(t.as_bytes(), &mut o),
                json::number(t.as_bytes()).is_some(),
                "{t}"
            );
        }
        assert!(short_decimal(b"1e5").is_none() && short_decimal(b"1.5").is_some());
    }

    proptest::proptest! {
        #[test]
        fn number_text_agrees_with_the_parse(m in 1u64..10_000_000, scale in 0u32..20, neg: bool) {
            // m / 10^scale written out in plain decimal, with any digit count.
            let digits = m.to_string();
            let t = if scale as usize >= digits.len() {
                format!("0.{}{digits}", "0".repeat(scale as usize - digits.len()))
            } else if scale == 0 {
                digits.clone()
            } else {
                let (i, f) = digits.split_at(digits.len() - scale as usize);
                format!("{i}.{f}")
            };
            let t = if neg { format!("-{t}") } else { t };
            let mut fast = Vec::new();
            proptest::prop_assert!(push_number_text(t.as_bytes(), &mut fast));
            proptest::prop_assert_eq!(fast, parsed(&t), "{}", t);
        }
    }

    /// Every decimal with 1 to 6 significant digits in [1e-6, 1e13), fast path against the
    /// parse (≈ 18M values; `cargo test --release -p varcat-annotate -- --ignored`).
    #[test]
    #[ignore]
    fn exhaustive_six_digit_decimals() {
        let mut fast = Vec::new();
        for m in 100_000u64..1_000_000 {
            let digits = m.to_string();
            // |v| = m × 10^(p − 6) for p in −5..=13: 0.00000m … m0000000.
            for p in -5i64..=13 {
                let t = if p <= 0 {
                    format!("0.{}{digits}", "0".repeat((-p) as usize))
                } else if p >= 6 {
                    format!("{digits}{}", "0".repeat(p as usize - 6))
                } else {
                    format!("{}.{}", &digits[..p as usize], &digits[p as usize..])
                };
                fast.clear();
                assert!(short_decimal(t.as_bytes()).is_some(), "{t}");
                push_number_text(t.as_bytes(), &mut fast);
                assert_eq!(fast, parsed(&t), "{t}");
            }
        }
    }
}
