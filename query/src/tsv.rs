//! Tab-separated values: an answer's JSON records as rows, for R, pandas and spreadsheets.
//!
//! The columns come from the endpoint's declared shape (never from the rows), so the header
//! row is the same on every page and on an empty one. Nested objects become dotted columns
//! (`annotations.bravo_af`); a reference expanded by `verbose` is its own column (the id, when
//! the referenced record is missing) followed by the dotted columns of the record. Each cell is
//! written by [`cell`], which says the dialect. The rows are transcoded from the handler's JSON
//! bytes, so numbers keep their exact stored text.

mod cell;

use std::collections::HashMap;

use serde_json::value::RawValue;

use crate::endpoint::Body;
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
    /// A reference expanded into its record: one cell for the id (a reference whose record is
    /// missing stays an id), then one column per member of the record's plan.
    Ref(Plan),
}

impl Plan {
    /// The plan of records of `shape` (`verbose` expands references into their records).
    fn of(shape: &Shape, verbose: bool, depth: usize) -> Plan {
        let mut plan = Plan::default();
        for m in shape.members {
            let col = match m.ty {
                _ if depth >= MAX_DEPTH => Col::Cell,
                Ty::Obj(s) => Col::Nested(Plan::of(s, verbose, depth + 1)),
                Ty::IdOr(s) if verbose => Col::Ref(Plan::of(s, verbose, depth + 1)),
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
            Some((_, have @ (Col::Nested(_) | Col::Ref(_)))) => {
                let (more, is_ref) = match col {
                    Col::Nested(p) => (p, false),
                    Col::Ref(p) => (p, true),
                    Col::Cell => return,
                };
                // One shape's object and another's reference: the reference's id column too.
                if is_ref {
                    if let Col::Nested(p) = have {
                        *have = Col::Ref(std::mem::take(p));
                    }
                }
                if let Col::Nested(p) | Col::Ref(p) = have {
                    for (n, c) in more.0 {
                        p.add(n, c);
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
                Col::Ref(p) => {
                    p.names(&format!("{name}."), out);
                    out.insert(out.len() - p.width(), name);
                }
            }
        }
    }

    fn width(&self) -> usize {
        self.0
            .iter()
            .map(|(_, c)| match c {
                Col::Cell => 1,
                Col::Nested(p) => p.width(),
                Col::Ref(p) => 1 + p.width(),
            })
            .sum()
    }

    /// Appends the cells of record `rec`, each followed by a tab (not an object: all null).
    fn cells(&self, rec: Option<&RawValue>, row: &mut String) {
        let members =
            rec.and_then(|r| serde_json::from_str::<HashMap<String, &RawValue>>(r.get()).ok());
        let Some(members) = members else {
            return nulls(self.width(), row);
        };
        for (n, c) in &self.0 {
            let v = members.get(*n).copied();
            match c {
                Col::Cell => {
                    cell::write(row, v);
                    row.push('\t');
                }
                Col::Nested(p) => p.cells(v, row),
                Col::Ref(p) if v.is_some_and(|v| v.get().trim_start().starts_with('{')) => {
                    nulls(1, row);
                    p.cells(v, row);
                }
                Col::Ref(p) => {
                    cell::write(row, v);
                    row.push('\t');
                    nulls(p.width(), row);
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
        let mut out = String::with_capacity(json.len());
        for name in self.columns() {
            cell::string(&mut out, &name);
            out.push('\t');
        }
        end_row(&mut out);
        for rec in rows {
            self.cells(Some(rec), &mut out);
            end_row(&mut out);
        }
        Some(out.into_bytes())
    }
}

/// Appends `n` null cells, each followed by a tab.
fn nulls(n: usize, row: &mut String) {
    for _ in 0..n {
        row.push_str(cell::NULL);
        row.push('\t');
    }
}

/// Ends a row whose cells were each followed by a tab.
fn end_row(out: &mut String) {
    if out.ends_with('\t') {
        out.pop();
    }
    out.push('\n');
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
            ["_id", "names", "at.chr", "at.pos", "gene", "gene.chr", "gene.pos", "list"]
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
            {"_id":"","names":[],"at":null,"list":[]}]"#;
        assert_eq!(
            tsv(Body::Array(&REC), false, json),
            "_id\tnames\tat.chr\tat.pos\tgene\tlist\n\
             a\\tb\\\\c\\nd\\re\t[\"x\",\"y,z\"]\tchr1\t5\tgenes/G1\t[{\"chr\":\"chr2\",\"pos\":1.50}]\n\
             \t[]\t\\N\t\\N\t\\N\t[]\n"
        );
        // An empty page still has its header row.
        assert_eq!(
            tsv(Body::Array(&REC), true, "[]"),
            "_id\tnames\tat.chr\tat.pos\tgene\tgene.chr\tgene.pos\tlist\n"
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
    fn test_an_expanded_reference_keeps_the_id_of_a_missing_record() {
        let json = r#"[{"_id":"1","gene":{"chr":"chr2","pos":7}},
            {"_id":"2","gene":"genes/MISSING"},{"_id":"3","gene":null}, 4]"#;
        assert_eq!(
            tsv(Body::Array(&REC), true, json),
            "_id\tnames\tat.chr\tat.pos\tgene\tgene.chr\tgene.pos\tlist\n\
             1\t\\N\t\\N\t\\N\t\\N\tchr2\t7\t\\N\n\
             2\t\\N\t\\N\t\\N\tgenes/MISSING\t\\N\t\\N\t\\N\n\
             3\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n\
             \\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n"
        );
        // A union where one shape has an object and another a reference to the same shape: the
        // reference's id column is kept.
        static OBJ: Shape = Shape {
            name: "Obj",
            members: &[doc("gene", Ty::Obj(&INNER))],
        };
        static BOTH: [&Shape; 2] = [&OBJ, &REC];
        let union = Plan::of_body(Body::ArrayOf(&BOTH), true).unwrap();
        assert_eq!(&union.columns()[..3], ["gene", "gene.chr", "gene.pos"]);
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
