//! Tab-separated values: an answer's JSON records as rows, for R, pandas and spreadsheets.
//!
//! The columns come from the endpoint's declared shape (never from the rows), so the header
//! row is the same on every page and on an empty one. Nested objects become dotted columns
//! (`annotations.bravo_af`); an array of strings is one cell joined with `,`; any other array
//! or object is one cell of compact JSON; null, absent or `[]` is an empty cell. Backslash, tab,
//! newline and carriage return are escaped as `\\`, `\t`, `\n`, `\r`. The rows are transcoded
//! from the handler's JSON bytes, so values keep their exact stored text.

use std::collections::HashMap;

use serde_json::value::RawValue;

use crate::api::Body;
use crate::shape::{Shape, Ty};

/// The media type of TSV.
pub const MEDIA_TYPE: &str = "text/tab-separated-values";

/// The Content-Type of a TSV answer.
pub const CONTENT_TYPE: &str = "text/tab-separated-values; charset=utf-8";

/// Whether an endpoint answering `body` has a TSV form (its answer is records).
pub fn available(body: Body) -> bool {
    matches!(body, Body::Array(_) | Body::Object(_) | Body::ArrayOf(_))
}

/// Nested objects deeper than this are one JSON cell (shapes may refer to each other).
const MAX_DEPTH: usize = 3;

/// The columns of a record: members in shape order, an object member as its own columns.
#[derive(Debug, Default, PartialEq)]
pub struct Plan(Vec<(&'static str, Col)>);

/// One member's column(s).
#[derive(Debug, PartialEq)]
enum Col {
    /// One cell.
    Cell,
    /// An object: one column per member of its plan.
    Nested(Plan),
}

impl Plan {
    /// The plan of records of `shape` (`verbose` expands references into their records).
    fn of(shape: &Shape, verbose: bool, depth: usize) -> Plan {
        let mut plan = Plan::default();
        for m in shape.members {
            let nested = match m.ty {
                Ty::Obj(s) => Some(s),
                Ty::IdOr(s) if verbose => Some(s),
                _ => None,
            };
            let col = match nested {
                Some(s) if depth < MAX_DEPTH => Col::Nested(Plan::of(s, verbose, depth + 1)),
                _ => Col::Cell,
            };
            plan.add(m.name, col);
        }
        plan
    }

    /// Adds member `name`, merging with a member of the same name already planned (the union
    /// of several shapes keeps first-seen order).
    fn add(&mut self, name: &'static str, col: Col) {
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            None => self.0.push((name, col)),
            Some((_, Col::Nested(have))) => {
                if let Col::Nested(more) = col {
                    for (n, c) in more.0 {
                        have.add(n, c);
                    }
                }
            }
            Some((_, Col::Cell)) => {}
        }
    }

    /// The plan of an endpoint's answer, or None when it is not records (a table, numbers,
    /// any JSON): those have no TSV form.
    pub fn of_body(body: Body, verbose: bool) -> Option<Plan> {
        match body {
            Body::Array(s) | Body::Object(s) => Some(Plan::of(s, verbose, 0)),
            Body::ArrayOf(shapes) => {
                let mut plan = Plan::default();
                for s in shapes {
                    for (n, c) in Plan::of(s, verbose, 0).0 {
                        plan.add(n, c);
                    }
                }
                Some(plan)
            }
            Body::Numbers | Body::Table | Body::Any => None,
        }
    }

    /// The column names, dotted below nested objects.
    pub fn columns(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.names("", &mut out);
        out
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        for (n, c) in &self.0 {
            let name = format!("{prefix}{n}");
            match c {
                Col::Cell => out.push(name),
                Col::Nested(p) => p.names(&format!("{name}."), out),
            }
        }
    }

    fn width(&self) -> usize {
        self.0
            .iter()
            .map(|(_, c)| match c {
                Col::Cell => 1,
                Col::Nested(p) => p.width(),
            })
            .sum()
    }

    /// The cells of record `rec` (not an object: all empty).
    fn cells(&self, rec: &RawValue, out: &mut Vec<String>) {
        let Ok(members) = serde_json::from_str::<HashMap<String, &RawValue>>(rec.get()) else {
            out.extend(std::iter::repeat_n(String::new(), self.width()));
            return;
        };
        for (n, c) in &self.0 {
            let v = members.get(*n).copied();
            match (c, v) {
                (Col::Cell, v) => out.push(v.map(cell).unwrap_or_default()),
                (Col::Nested(p), Some(v)) => p.cells(v, out),
                (Col::Nested(p), None) => {
                    out.extend(std::iter::repeat_n(String::new(), p.width()));
                }
            }
        }
    }

    /// The TSV of a JSON answer: an array of records, or (for a one-object answer) one record.
    /// None when `json` is neither (a bug in a handler: the caller answers JSON).
    pub fn transcode(&self, json: &[u8], one_object: bool) -> Option<Vec<u8>> {
        let rows: Vec<&RawValue> = if one_object {
            vec![serde_json::from_slice(json).ok()?]
        } else {
            serde_json::from_slice(json).ok()?
        };
        let mut out = Vec::with_capacity(json.len());
        line(&mut out, self.columns().iter().map(|c| escape(c)));
        let mut cells = Vec::with_capacity(self.width());
        for rec in rows {
            cells.clear();
            self.cells(rec, &mut cells);
            line(&mut out, cells.iter().map(String::as_str).map(Into::into));
        }
        Some(out)
    }
}

fn line<'a>(out: &mut Vec<u8>, cells: impl Iterator<Item = std::borrow::Cow<'a, str>>) {
    for (i, c) in cells.enumerate() {
        if i > 0 {
            out.push(b'\t');
        }
        out.extend_from_slice(c.as_bytes());
    }
    out.push(b'\n');
}

/// One value as an escaped cell.
fn cell(v: &RawValue) -> String {
    let text = v.get().trim();
    if text == "null" {
        return String::new();
    }
    match text.as_bytes().first() {
        Some(b'"') => escape(&serde_json::from_str::<String>(text).unwrap_or_default()).into(),
        Some(b'[') => match serde_json::from_str::<Vec<String>>(text) {
            Ok(strings) => strings
                .iter()
                .map(|s| escape(s))
                .collect::<Vec<_>>()
                .join(","),
            Err(_) => escape(&compact(text)).into(),
        },
        Some(b'{') => escape(&compact(text)).into(),
        // A number or a boolean: its JSON text as stored.
        _ => text.to_string(),
    }
}

/// JSON text without the whitespace outside strings.
fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_str, mut esc) = (false, false);
    for ch in json.chars() {
        if in_str {
            out.push(ch);
            if esc {
                esc = false;
            } else if ch == '\\' {
                esc = true;
            } else if ch == '"' {
                in_str = false;
            }
        } else if ch == '"' {
            in_str = true;
            out.push(ch);
        } else if !ch.is_ascii_whitespace() {
            out.push(ch);
        }
    }
    out
}

/// `s` with backslash, tab, newline and carriage return escaped (the rest as is).
pub fn escape(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains(['\\', '\t', '\n', '\r']) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.into()
}

/// Whether an `Accept` header prefers TSV: `text/tab-separated-values` listed with a q above
/// 0 and at least that of JSON (`application/json`, else `application/*`, else `*/*`).
/// Anything else gets JSON: never a 406.
pub fn accepts_tsv(accept: Option<&str>) -> bool {
    let Some(accept) = accept else { return false };
    let (mut tsv, mut json, mut app, mut any) = (None, None, None, None);
    for range in accept.split(',') {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        let slot = match media.as_str() {
            MEDIA_TYPE => &mut tsv,
            "application/json" => &mut json,
            "application/*" => &mut app,
            "*/*" => &mut any,
            _ => continue,
        };
        *slot = Some(slot.map_or(q, |s: f32| s.max(q)));
    }
    let json = json.or(app).or(any).unwrap_or(0.0);
    tsv.is_some_and(|t| t > 0.0 && t >= json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{doc, Shape};

    static INNER: Shape = Shape {
        name: "Inner",
        members: &[doc("chr", Ty::Str), doc("pos", Ty::Int)],
    };
    static REC: Shape = Shape {
        name: "Rec",
        members: &[
            doc("_id", Ty::Str),
            doc("names", Ty::StrArr),
            doc("at", Ty::Obj(&INNER)),
            doc("gene", Ty::IdOr(&INNER)),
            doc("list", Ty::Arr(&INNER)),
        ],
    };
    static OTHER: Shape = Shape {
        name: "Other",
        members: &[doc("_id", Ty::Str), doc("at", Ty::Obj(&OTHER_AT))],
    };
    static OTHER_AT: Shape = Shape {
        name: "OtherAt",
        members: &[doc("chr", Ty::Str), doc("end", Ty::Int)],
    };

    fn tsv(body: Body, verbose: bool, json: &str) -> String {
        let plan = Plan::of_body(body, verbose).unwrap();
        let one = matches!(body, Body::Object(_));
        String::from_utf8(plan.transcode(json.as_bytes(), one).unwrap()).unwrap()
    }

    #[test]
    fn test_columns_from_the_shape() {
        let plain = Plan::of_body(Body::Array(&REC), false).unwrap();
        assert_eq!(
            plain.columns(),
            ["_id", "names", "at.chr", "at.pos", "gene", "list"]
        );
        let verbose = Plan::of_body(Body::Array(&REC), true).unwrap();
        assert_eq!(
            verbose.columns(),
            ["_id", "names", "at.chr", "at.pos", "gene.chr", "gene.pos", "list"]
        );
        static BOTH: [&Shape; 2] = [&REC, &OTHER];
        let union = Plan::of_body(Body::ArrayOf(&BOTH), false).unwrap();
        assert_eq!(
            union.columns(),
            ["_id", "names", "at.chr", "at.pos", "at.end", "gene", "list"]
        );
        // `available` says which bodies have a plan, without making one.
        for body in [
            Body::Array(&REC),
            Body::Object(&REC),
            Body::ArrayOf(&BOTH),
            Body::Numbers,
            Body::Table,
            Body::Any,
        ] {
            assert_eq!(available(body), Plan::of_body(body, false).is_some());
        }
    }

    #[test]
    fn test_cells() {
        let json = r#"[{"_id":"a\tb\\c\nd\re","names":["x","y,z"],"at":{"chr":"chr1","pos":5},
            "gene":"genes/G1","list":[{"chr": "chr2", "pos":1.50}]},
            {"_id":null,"names":[],"at":null,"list":[]}]"#;
        assert_eq!(
            tsv(Body::Array(&REC), false, json),
            "_id\tnames\tat.chr\tat.pos\tgene\tlist\n\
             a\\tb\\\\c\\nd\\re\tx,y,z\tchr1\t5\tgenes/G1\t[{\"chr\":\"chr2\",\"pos\":1.50}]\n\
             \t\t\t\t\t\n"
        );
        // An empty page still has its header row (and an empty array is an empty cell, above).
        assert_eq!(
            tsv(Body::Array(&REC), true, "[]"),
            "_id\tnames\tat.chr\tat.pos\tgene.chr\tgene.pos\tlist\n"
        );
        // One object is one row.
        assert_eq!(
            tsv(Body::Object(&INNER), false, r#"{"chr":"chrX","pos":true}"#),
            "chr\tpos\nchrX\ttrue\n"
        );
        // Not the declared form: no TSV (the caller answers JSON).
        let plan = Plan::of_body(Body::Array(&REC), false).unwrap();
        assert!(plan.transcode(b"{\"a\":1}", false).is_none());
    }

    #[test]
    fn test_accept() {
        assert!(accepts_tsv(Some("text/tab-separated-values")));
        assert!(accepts_tsv(Some("text/tab-separated-values, */*")));
        assert!(accepts_tsv(Some(
            "application/json;q=0.5, text/tab-separated-values;q=0.9"
        )));
        assert!(!accepts_tsv(Some(
            "application/json, text/tab-separated-values;q=0.5"
        )));
        assert!(!accepts_tsv(Some("text/tab-separated-values;q=0")));
        assert!(!accepts_tsv(Some(
            "text/html,application/xhtml+xml,*/*;q=0.8"
        )));
        assert!(!accepts_tsv(Some("text/*")));
        assert!(!accepts_tsv(Some("text/csv")));
        assert!(!accepts_tsv(None));
    }
}
