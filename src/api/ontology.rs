//! Ontology terms: 4.20 `/ontology-terms/{id}/children` and 4.22
//! `/ontology-terms/{start}/transitive-closure/{end}`.

use std::collections::{HashMap, VecDeque};

use serde_json::{json, Map, Value};
use varcat_format::collection::Collection;

use crate::api::{sets, Answer, Ctx, Reply};
use crate::engine::Filter;
use crate::params::Params;
use crate::shape::{field, member, renamed, Render, Shape, Src, Ty};

/// The term of a child row (synonyms and description always present, as the client requires).
pub static TERM_FULL: Shape = Shape {
    name: "OntologyTermFull",
    members: &[
        field("uri", Ty::Str).required(),
        field("term_id", Ty::Str).required(),
        field("name", Ty::Str).required(),
        field("synonyms", Ty::StrArr).required(),
        field("description", Ty::Str).required(),
        field("source", Ty::Str),
        field("subontology", Ty::Str),
        field("source_url", Ty::Str),
        field("class", Ty::Str),
        field("method", Ty::Str),
        field("files_filesets", Ty::Str),
    ],
};

/// A closure vertex (no `source_url`, as in IGVF).
pub static VERTEX: Shape = Shape {
    name: "OntologyTermBasic",
    members: &[
        field("uri", Ty::Str).required(),
        field("term_id", Ty::Str).required(),
        field("name", Ty::Str).required(),
        field("synonyms", Ty::StrArr).required(),
        field("description", Ty::Str).required(),
        field("source", Ty::Str).required(),
        field("subontology", Ty::Str),
        field("class", Ty::Str),
        field("method", Ty::Str),
        field("files_filesets", Ty::Str),
    ],
};

/// 4.20 record.
pub static CHILD: Shape = Shape {
    name: "OntologyTermChild",
    members: &[
        member("term", Src::Obj("_from", &TERM_FULL), Ty::Obj(&TERM_FULL)),
        renamed("relationship_type", "name", Ty::Str),
    ],
};

/// 4.20: the terms that are a subclass of the given term, in edge-key order (a child missing
/// from the catalog has no row).
pub fn children(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll("ontology_terms_ontology_terms");
    let id = p.str("ontology_term_id").unwrap_or_default();
    let mut f = Filter::over(e);
    f.and(sets::handle_is(e, "_to", "ontology_terms", id));
    f.and(sets::facet(e, "name", "subclass"));
    if let Some(ec) = e {
        f.pred(move |o| {
            ec.string(o, "_from")
                .and_then(|h| ctx.cat.resolve(&h))
                .is_some()
        });
    }
    ctx.page(p, e, &f, &CHILD)
}

/// Most vertices a closure search may visit.
pub const MAX_VISITED: usize = 100_000;
/// Most relations a closure search may scan (a hub term's fan-out counts in full).
pub const MAX_SCANNED: usize = 2_000_000;
/// Most paths a closure answer lists.
pub const MAX_PATHS: usize = 1_000;
/// Header marking an answer cut at one of those limits.
pub const CAPPED_HEADER: &str = "X-Varcat-Capped";

/// The graph of ontology relations, undirected: a vertex's neighbours through edges stored
/// either way, in edge-key order; relations to terms missing from the catalog are not followed.
struct Graph<'a> {
    edges: &'a Collection,
    terms: &'a Collection,
}

impl Graph<'_> {
    fn neighbours(&self, key: &str) -> Vec<(u32, String)> {
        let handle = format!("ontology_terms/{key}");
        let mut out: Vec<(u32, String)> = Vec::new();
        for (end, other) in [("_from", "_to"), ("_to", "_from")] {
            let Some(list) = self.edges.by(end).and_then(|m| m.get(handle.as_bytes())) else {
                continue;
            };
            for o in list.iter() {
                let Some(h) = self.edges.string(o, other) else {
                    continue;
                };
                if let Some(k) = h
                    .strip_prefix("ontology_terms/")
                    .filter(|k| self.terms.ord(k).is_some())
                {
                    out.push((o, k.to_string()));
                }
            }
        }
        out.sort();
        out
    }
}

/// Every shortest path found, as (edge, vertex reached) steps, and why the search stopped early.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ShortestPaths {
    /// Paths in the order of their edge sequences.
    pub paths: Vec<Vec<(u32, String)>>,
    /// Set when a work limit cut the answer.
    pub capped: Option<String>,
}

/// Breadth-first distances from `from`, up to `limit` deep; true when a work cap was hit.
fn distances(
    from: &str,
    limit: u32,
    neighbours: &impl Fn(&str) -> Vec<(u32, String)>,
) -> (HashMap<String, u32>, bool) {
    let mut dist = HashMap::from([(from.to_string(), 0u32)]);
    let mut queue = VecDeque::from([from.to_string()]);
    let mut scanned = 0usize;
    while let Some(v) = queue.pop_front() {
        let d = dist[&v];
        if d >= limit {
            continue;
        }
        let next = neighbours(&v);
        scanned += next.len();
        if scanned > MAX_SCANNED {
            return (dist, true);
        }
        for (_, w) in next {
            if !dist.contains_key(&w) {
                if dist.len() >= MAX_VISITED {
                    return (dist, true);
                }
                dist.insert(w.clone(), d + 1);
                queue.push_back(w);
            }
        }
    }
    (dist, false)
}

/// All shortest paths from `start` to `end` of the undirected multigraph `neighbours` describes
/// (neighbours in ascending edge order), in edge-sequence order, at most [`MAX_PATHS`].
pub fn shortest_paths(
    start: &str,
    end: &str,
    neighbours: impl Fn(&str) -> Vec<(u32, String)>,
) -> ShortestPaths {
    if start == end {
        return ShortestPaths {
            paths: vec![Vec::new()],
            capped: None,
        };
    }
    let (from_start, capped) = distances(start, u32::MAX, &neighbours);
    let Some(&total) = from_start.get(end) else {
        let capped = capped
            .then(|| format!("search stopped at {MAX_VISITED} terms or {MAX_SCANNED} relations"));
        return ShortestPaths {
            paths: Vec::new(),
            capped,
        };
    };
    let (from_end, _) = distances(end, total, &neighbours);
    // On a shortest path: d(start, v) + d(v, end) == total.
    let on_path = |v: &str| matches!((from_start.get(v), from_end.get(v)), (Some(a), Some(b)) if a + b == total);
    let mut out = ShortestPaths::default();
    // Depth-first, edges in ascending order, so paths come out in edge-sequence order; every
    // partial path stays on a shortest path, so each one pushed completes.
    let mut stack: Vec<(String, Vec<(u32, String)>)> = vec![(start.to_string(), Vec::new())];
    while let Some((v, path)) = stack.pop() {
        if v == end {
            if out.paths.len() == MAX_PATHS {
                out.capped = Some(format!("paths {MAX_PATHS}"));
                break;
            }
            out.paths.push(path);
            continue;
        }
        let d = from_start[&v];
        let next: Vec<(u32, String)> = neighbours(&v)
            .into_iter()
            .filter(|(_, w)| from_start.get(w) == Some(&(d + 1)) && on_path(w))
            .collect();
        for (o, w) in next.into_iter().rev() {
            let mut p2 = path.clone();
            p2.push((o, w.clone()));
            stack.push((w, p2));
        }
    }
    out
}

fn edge_json(e: &Collection, o: u32) -> Value {
    let key = |f: &str| {
        e.string(o, f)
            .map(|h| h.split_once('/').map_or(h.clone(), |(_, k)| k.to_string()))
    };
    json!({"from": key("_from"), "to": key("_to"), "name": e.string(o, "name").unwrap_or_default()})
}

/// 4.22: every shortest path between two terms, following relations of every type in either
/// direction. Paths are in the order of their edge-key sequences; `vertices` holds each term on
/// them, first seen first. Work is capped ([`MAX_VISITED`], [`MAX_SCANNED`], [`MAX_PATHS`]); a
/// capped answer carries the [`CAPPED_HEADER`] header.
pub fn transitive_closure(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let start = p.str("ontology_term_id_start").unwrap_or_default();
    let end = p.str("ontology_term_id_end").unwrap_or_default();
    let empty = || {
        Ok(serde_json::to_vec(&json!({"vertices": {}, "paths": []}))
            .expect("serialises")
            .into())
    };
    let (Some(edges), Some(terms)) = (
        ctx.coll("ontology_terms_ontology_terms"),
        ctx.coll("ontology_terms"),
    ) else {
        return empty();
    };
    if terms.ord(start).is_none() || terms.ord(end).is_none() {
        return empty();
    }
    let g = Graph { edges, terms };
    let found = shortest_paths(start, end, |v| g.neighbours(v));
    let render = Render::new(ctx.cat, false);
    let mut vertices = Map::new();
    let mut add_vertex = |k: &str| {
        if !vertices.contains_key(k) {
            if let Some(o) = terms.ord(k) {
                let mut buf = Vec::new();
                render.object(&mut buf, terms, o, &VERTEX);
                vertices.insert(
                    k.to_string(),
                    serde_json::from_slice::<Value>(&buf).unwrap_or(Value::Null),
                );
            }
        }
    };
    let mut paths = Vec::with_capacity(found.paths.len());
    for path in &found.paths {
        add_vertex(start);
        for (_, v) in path {
            add_vertex(v);
        }
        paths.push(Value::Array(
            path.iter().map(|(o, _)| edge_json(edges, *o)).collect(),
        ));
    }
    let mut a: Answer = serde_json::to_vec(&json!({"vertices": vertices, "paths": paths}))
        .expect("serialises")
        .into();
    if let Some(why) = found.capped {
        a.headers.push((CAPPED_HEADER, why));
    }
    Ok(a)
}

/// 4.22 result (documentation).
pub static CLOSURE: Shape = Shape {
    name: "TransitiveClosure",
    members: &[
        member("vertices", Src::Const("{}"), Ty::Any),
        member("paths", Src::Const("[]"), Ty::Any),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The naive answer: every simple path from `s` to `e` by exhaustive search, keeping the
    /// shortest, sorted by edge sequence.
    fn naive(edges: &[(usize, usize)], s: usize, e: usize) -> Vec<Vec<u32>> {
        fn walk(
            edges: &[(usize, usize)],
            v: usize,
            e: usize,
            seen: &mut Vec<usize>,
            path: &mut Vec<u32>,
            out: &mut Vec<Vec<u32>>,
        ) {
            if v == e {
                out.push(path.clone());
                return;
            }
            for (i, &(a, b)) in edges.iter().enumerate() {
                let w = if a == v {
                    b
                } else if b == v {
                    a
                } else {
                    continue;
                };
                if seen.contains(&w) {
                    continue;
                }
                seen.push(w);
                path.push(i as u32);
                walk(edges, w, e, seen, path, out);
                path.pop();
                seen.pop();
            }
        }
        let mut all = Vec::new();
        walk(edges, s, e, &mut vec![s], &mut Vec::new(), &mut all);
        let Some(min) = all.iter().map(Vec::len).min() else {
            return Vec::new();
        };
        let mut best: Vec<Vec<u32>> = all.into_iter().filter(|p| p.len() == min).collect();
        best.sort();
        best
    }

    proptest! {
        #[test]
        fn prop_closure_paths_equal_exhaustive_search(edges in prop::collection::vec((0usize..7, 0usize..7), 0..14), s in 0usize..7, e in 0usize..7) {
            let neighbours = |v: &str| {
                let v: usize = v.parse().unwrap();
                let mut out: Vec<(u32, String)> = Vec::new();
                for (i, &(a, b)) in edges.iter().enumerate() {
                    if a == v {
                        out.push((i as u32, b.to_string()));
                    }
                    if b == v && a != b {
                        out.push((i as u32, a.to_string()));
                    }
                }
                out.sort();
                out
            };
            let got = shortest_paths(&s.to_string(), &e.to_string(), neighbours);
            let got: Vec<Vec<u32>> = got.paths.iter().map(|p| p.iter().map(|x| x.0).collect()).collect();
            let want = if s == e { vec![Vec::new()] } else { naive(&edges, s, e) };
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn test_paths_are_capped() {
        // 12 layers of 2 parallel edges: 4096 shortest paths, capped at MAX_PATHS.
        let neighbours = |v: &str| {
            let v: u32 = v.parse().unwrap();
            let mut out = Vec::new();
            if v > 0 {
                out.push((2 * (v - 1), (v - 1).to_string()));
                out.push((2 * (v - 1) + 1, (v - 1).to_string()));
            }
            if v < 12 {
                out.push((2 * v, (v + 1).to_string()));
                out.push((2 * v + 1, (v + 1).to_string()));
            }
            out.sort();
            out
        };
        let found = shortest_paths("0", "12", neighbours);
        assert_eq!(found.paths.len(), MAX_PATHS);
        assert_eq!(found.capped.as_deref(), Some("paths 1000"));
        assert!(found.paths.windows(2).all(|w| w[0] < w[1]));
    }
}
