//! 4.22 `/ontology-terms/{start}/transitive-closure/{end}`: all shortest paths between two
//! ontology terms over every relation, in a bounded bidirectional search.

use crate::engine::Read;
use crate::handler::{Answer, Ctx, Reply};
use crate::params::Params;
use crate::parse::ident::TermId;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, Render, Shape, Src, Ty};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, VecDeque};
use varcat_format::collection::Collection;
use varcat_format::schema;
use varcat_format::schema::{ontology_terms, ontology_terms_ontology_terms as edges};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/ontology-terms/{ontology_term_id_start}/transitive-closure/{ontology_term_id_end}",
    section: Some("4.22"),
    summary: "All shortest paths between two ontology terms, over every relation",
    accepts: Accepts {
        params: &[&ONTOLOGY_TERM_ID_START, &ONTOLOGY_TERM_ID_END],
        rules: &[],
        paging: Paging::Ignored,
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(transitive_closure),
    body: Body::Object(&CLOSURE),
    examples: &[
        "/ontology-terms/VCT_0000301/transitive-closure/VCT_0000002",
        "/ontology-terms/VCT_0000310/transitive-closure/VCT_0000001",
    ],
};

/// The start term (path parameter).
pub const ONTOLOGY_TERM_ID_START: Param =
    Param::new("ontology_term_id_start", Kind::TermId, TERM_PATH);
/// The end term (path parameter).
pub const ONTOLOGY_TERM_ID_END: Param = Param::new("ontology_term_id_end", Kind::TermId, TERM_PATH);

/// A closure vertex (no `source_url`, as in IGVF).
pub static VERTEX: Shape = Shape {
    name: "OntologyTermBasic",
    members: &[
        field(schema::ontology_terms::m::uri, Ty::Str).required(),
        field(schema::ontology_terms::m::term_id, Ty::Str).required(),
        field(schema::ontology_terms::m::name, Ty::Str).required(),
        field(schema::ontology_terms::m::synonyms, Ty::StrArr).required(),
        field(schema::ontology_terms::m::description, Ty::Str).required(),
        field(schema::ontology_terms::m::source, Ty::Str).required(),
        field(schema::ontology_terms::m::subontology, Ty::Str),
        field(schema::ontology_terms::m::class, Ty::Str),
        field(schema::ontology_terms::m::method, Ty::Str),
        field(schema::ontology_terms::m::files_filesets, Ty::Str),
    ],
};

/// Most vertices one breadth-first search of a closure may visit.
pub const MAX_VISITED: usize = 100_000;

/// Most relations a closure search may scan, both searches together (a hub term's fan-out
/// counts in full).
pub const MAX_SCANNED: usize = 2_000_000;

/// Most paths a closure answer lists.
pub const MAX_PATHS: usize = 1_000;

/// Header marking an answer cut at one of those limits.
pub const CAPPED_HEADER: &str = "X-Varcat-Capped";

/// The work limits of one closure search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most vertices one breadth-first search may visit.
    pub visited: usize,
    /// Most relations scanned, both searches together.
    pub scanned: usize,
    /// Most paths listed.
    pub paths: usize,
}

impl Limits {
    /// The server's limits.
    pub const SERVER: Limits = Limits {
        visited: MAX_VISITED,
        scanned: MAX_SCANNED,
        paths: MAX_PATHS,
    };
}

/// The graph of ontology relations, undirected: a vertex's neighbours through edges stored
/// either way, in edge-key order; relations to terms missing from the catalog are not followed.
struct Graph<'a> {
    edges: &'a Collection,
    terms: &'a Collection,
}

impl Graph<'_> {
    fn neighbours(&self, key: &str) -> Vec<(u64, String)> {
        let handle = format!("{}/{key}", ontology_terms::NAME);
        let mut out: Vec<(u64, String)> = Vec::new();
        for (end, other) in [
            (edges::m::_from, edges::m::_to),
            (edges::m::_to, edges::m::_from),
        ] {
            for o in sets::exact(Some(self.edges), end, &handle).iter() {
                let Some(h) = self.edges.str_of(o, other) else {
                    continue;
                };
                if let Some(k) =
                    sets::key_in(&h, ontology_terms::COLL).filter(|k| self.terms.ord(k).is_some())
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
    pub paths: Vec<Vec<(u64, String)>>,
    /// Set when a work limit cut the answer.
    pub capped: Option<String>,
}

/// Why a breadth-first search stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cap {
    Visited,
    Scanned,
}

impl Cap {
    fn describe(self, l: &Limits) -> String {
        match self {
            Cap::Visited => format!("terms {}", l.visited),
            Cap::Scanned => format!("relations {}", l.scanned),
        }
    }
}

/// Breadth-first distances from `from`. A vertex is entered only when `admit(vertex, distance)`
/// holds, and vertices at distance `limit` are not expanded. The search stops as soon as
/// `target` is reached: every vertex nearer than it is then known, since a layer is complete
/// before the next one is expanded. `scanned` counts the relations scanned against `l.scanned`.
fn distances(
    from: &str,
    limit: u32,
    target: Option<&str>,
    admit: impl Fn(&str, u32) -> bool,
    neighbours: &impl Fn(&str) -> Vec<(u64, String)>,
    l: &Limits,
    scanned: &mut usize,
) -> (HashMap<String, u32>, Option<Cap>) {
    let mut dist = HashMap::from([(from.to_string(), 0u32)]);
    let mut queue = VecDeque::from([from.to_string()]);
    while let Some(v) = queue.pop_front() {
        let d = dist[&v];
        if d >= limit {
            continue;
        }
        let next = neighbours(&v);
        *scanned += next.len();
        if *scanned > l.scanned {
            return (dist, Some(Cap::Scanned));
        }
        for (_, w) in next {
            if dist.contains_key(&w) || !admit(&w, d + 1) {
                continue;
            }
            if dist.len() >= l.visited {
                return (dist, Some(Cap::Visited));
            }
            let reached = target == Some(w.as_str());
            dist.insert(w.clone(), d + 1);
            if reached {
                return (dist, None);
            }
            queue.push_back(w);
        }
    }
    (dist, None)
}

/// All shortest paths from `start` to `end` of the undirected multigraph `neighbours` describes
/// (neighbours in ascending edge order), in edge-sequence order, within the server's limits.
pub fn shortest_paths(
    start: &str,
    end: &str,
    neighbours: impl Fn(&str) -> Vec<(u64, String)>,
) -> ShortestPaths {
    shortest_paths_within(start, end, neighbours, &Limits::SERVER)
}

/// [`shortest_paths`] within the limits `l`.
pub fn shortest_paths_within(
    start: &str,
    end: &str,
    neighbours: impl Fn(&str) -> Vec<(u64, String)>,
    l: &Limits,
) -> ShortestPaths {
    if start == end {
        return ShortestPaths {
            paths: vec![Vec::new()],
            capped: None,
        };
    }
    let mut scanned = 0usize;
    // Forward, until `end` is reached: then `from_start` holds every vertex nearer than `end`.
    let (from_start, cap) = distances(
        start,
        u32::MAX,
        Some(end),
        |_, _| true,
        &neighbours,
        l,
        &mut scanned,
    );
    let Some(&total) = from_start.get(end) else {
        return ShortestPaths {
            paths: Vec::new(),
            capped: cap.map(|c| c.describe(l)),
        };
    };
    // Backward, entering only vertices on a shortest path: d(start, v) + d(v, end) == total.
    // (A restricted distance is never shorter than the true one, and the true one is reached
    // along a shortest path, whose vertices all qualify, so the admitted distances are exact.)
    let (from_end, cap) = distances(
        end,
        total,
        None,
        |w, b| from_start.get(w).is_some_and(|&a| a + b == total),
        &neighbours,
        l,
        &mut scanned,
    );
    let mut out = ShortestPaths {
        paths: Vec::new(),
        capped: cap.map(|c| c.describe(l)),
    };
    let on_path = |v: &str| matches!((from_start.get(v), from_end.get(v)), (Some(a), Some(b)) if a + b == total);
    // Depth-first, edges in ascending order, so paths come out in edge-sequence order; every
    // partial path stays on a shortest path, so each one pushed completes.
    let mut stack: Vec<(String, Vec<(u64, String)>)> = vec![(start.to_string(), Vec::new())];
    let mut steps: HashMap<String, Vec<(u64, String)>> = HashMap::new();
    while let Some((v, path)) = stack.pop() {
        if v == end {
            if out.paths.len() == l.paths {
                out.capped = Some(format!("paths {}", l.paths));
                break;
            }
            out.paths.push(path);
            continue;
        }
        // Each vertex's steps are computed once: a vertex lies on many paths, and its
        // fan-out (already scanned by the forward search, within the budget) is not rescanned.
        let next = steps.entry(v).or_insert_with_key(|v| {
            let d = from_start[v];
            neighbours(v)
                .into_iter()
                .filter(|(_, w)| from_start.get(w) == Some(&(d + 1)) && on_path(w))
                .collect()
        });
        for (o, w) in next.iter().rev().cloned() {
            let mut p2 = path.clone();
            p2.push((o, w.clone()));
            stack.push((w, p2));
        }
    }
    out
}

fn edge_json(e: &Collection, o: u64) -> Value {
    let key = |f| {
        e.str_of(o, f)
            .map(|h| h.split_once('/').map_or(h.clone(), |(_, k)| k.to_string()))
    };
    json!({
        "from": key(edges::m::_from),
        "to": key(edges::m::_to),
        "name": e.str_of(o, edges::m::name).unwrap_or_default(),
    })
}

/// 4.22: every shortest path between two terms, following relations of every type in either
/// direction. Paths are in the order of their edge-key sequences; `vertices` holds each term on
/// them, first seen first. Work is capped ([`MAX_VISITED`], [`MAX_SCANNED`], [`MAX_PATHS`]); a
/// capped answer carries the [`CAPPED_HEADER`] header.
pub fn transitive_closure(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let start = p
        .term_id(&ONTOLOGY_TERM_ID_START)
        .map_or("", TermId::as_str);
    let end = p.term_id(&ONTOLOGY_TERM_ID_END).map_or("", TermId::as_str);
    let empty = || {
        Ok(serde_json::to_vec(&json!({"vertices": {}, "paths": []}))
            .expect("serialises")
            .into())
    };
    let (Some(edges), Some(terms)) = (ctx.coll(edges::COLL), ctx.coll(ontology_terms::COLL)) else {
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
        a.headers.push((CAPPED_HEADER, why.into()));
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
    fn naive(edges: &[(usize, usize)], s: usize, e: usize) -> Vec<Vec<u64>> {
        fn walk(
            edges: &[(usize, usize)],
            v: usize,
            e: usize,
            seen: &mut Vec<usize>,
            path: &mut Vec<u64>,
            out: &mut Vec<Vec<u64>>,
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
                path.push(i as u64);
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
        let mut best: Vec<Vec<u64>> = all.into_iter().filter(|p| p.len() == min).collect();
        best.sort();
        best
    }

    proptest! {
        #[test]
        fn prop_closure_paths_equal_exhaustive_search(edges in prop::collection::vec((0usize..7, 0usize..7), 0..14), s in 0usize..7, e in 0usize..7) {
            let neighbours = |v: &str| {
                let v: usize = v.parse().unwrap();
                let mut out: Vec<(u64, String)> = Vec::new();
                for (i, &(a, b)) in edges.iter().enumerate() {
                    if a == v {
                        out.push((i as u64, b.to_string()));
                    }
                    if b == v && a != b {
                        out.push((i as u64, a.to_string()));
                    }
                }
                out.sort();
                out
            };
            let got = shortest_paths(&s.to_string(), &e.to_string(), neighbours);
            let got: Vec<Vec<u64>> = got.paths.iter().map(|p| p.iter().map(|x| x.0).collect()).collect();
            let want = if s == e { vec![Vec::new()] } else { naive(&edges, s, e) };
            prop_assert_eq!(got, want);
        }
    }

    proptest! {
        /// Under any work limits, an answer without the capped mark is the exact answer.
        #[test]
        fn prop_uncapped_answer_is_exact(edges in prop::collection::vec((0usize..7, 0usize..7), 0..14), s in 0usize..7, e in 0usize..7, visited in 1usize..8, scanned in 0usize..30) {
            let names: Vec<String> = (0..7).map(|i| i.to_string()).collect();
            let edges2: Vec<(&str, &str)> = edges.iter().filter(|(a, b)| a != b).map(|&(a, b)| (names[a].as_str(), names[b].as_str())).collect();
            let l = Limits { visited, scanned, paths: usize::MAX };
            let got = shortest_paths_within(&names[s], &names[e], |v| graph(&edges2, v), &l);
            if got.capped.is_none() {
                let want = shortest_paths(&names[s], &names[e], |v| graph(&edges2, v));
                prop_assert_eq!(got, want);
            } else {
                prop_assert!(got.paths.is_empty() || got.paths.len() <= shortest_paths(&names[s], &names[e], |v| graph(&edges2, v)).paths.len());
            }
        }
    }

    #[test]
    fn test_paths_are_capped() {
        // 12 layers of 2 parallel edges: 4096 shortest paths, capped at MAX_PATHS.
        let neighbours = |v: &str| {
            let v: u64 = v.parse().unwrap();
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

    /// Neighbours of an undirected graph given as an edge list (edge ordinal = index).
    fn graph(edges: &[(&str, &str)], v: &str) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        for (i, &(a, b)) in edges.iter().enumerate() {
            if a == v {
                out.push((i as u64, b.to_string()));
            } else if b == v {
                out.push((i as u64, a.to_string()));
            }
        }
        out.sort();
        out
    }

    const SMALL: Limits = Limits {
        visited: 10,
        scanned: 10,
        paths: 10,
    };

    #[test]
    fn test_forward_search_capped_at_visited() {
        let names: Vec<String> = (0..=50).map(|i| i.to_string()).collect();
        let edges: Vec<(&str, &str)> = names
            .windows(2)
            .map(|w| (w[0].as_str(), w[1].as_str()))
            .collect();
        let l = Limits {
            scanned: 1_000,
            ..SMALL
        };
        let found = shortest_paths_within("0", "50", |v| graph(&edges, v), &l);
        assert_eq!(
            found,
            ShortestPaths {
                paths: Vec::new(),
                capped: Some("terms 10".into())
            }
        );
        // Within the server's limits the same search is complete.
        let found = shortest_paths("0", "50", |v| graph(&edges, v));
        assert_eq!((found.paths.len(), found.capped), (1, None));
    }

    #[test]
    fn test_reverse_search_capped_at_scanned() {
        // s - a - e, and e is a hub: the forward search stops on reaching e (3 relations
        // scanned), the backward search starts at e and its fan-out exceeds the budget.
        let leaves: Vec<String> = (0..20).map(|i| format!("leaf{i}")).collect();
        let mut edges = vec![("s", "a"), ("a", "e")];
        edges.extend(leaves.iter().map(|l| ("e", l.as_str())));
        let found = shortest_paths_within("s", "e", |v| graph(&edges, v), &SMALL);
        assert_eq!(
            found,
            ShortestPaths {
                paths: Vec::new(),
                capped: Some("relations 10".into())
            }
        );
        let found = shortest_paths("s", "e", |v| graph(&edges, v));
        let want = vec![vec![(0, "a".to_string()), (1, "e".to_string())]];
        assert_eq!(
            found,
            ShortestPaths {
                paths: want,
                capped: None
            }
        );
    }

    #[test]
    fn test_forward_search_stops_at_the_end_layer() {
        // 0 - 1 - 2 is the answer; 0 also leads into a long chain 100 - 101 - … that a search
        // of the whole component would walk.
        let chain: Vec<String> = (100..200).map(|i| i.to_string()).collect();
        let mut edges = vec![("0", "1"), ("1", "2"), ("0", "100")];
        edges.extend(chain.windows(2).map(|w| (w[0].as_str(), w[1].as_str())));
        let asked = std::cell::RefCell::new(Vec::new());
        let found = shortest_paths("0", "2", |v| {
            asked.borrow_mut().push(v.to_string());
            graph(&edges, v)
        });
        assert_eq!(found.paths.len(), 1);
        assert_eq!(found.capped, None);
        let mut asked = asked.into_inner();
        asked.sort();
        asked.dedup();
        assert_eq!(asked, ["0", "1", "2"]);
    }

    #[test]
    fn test_path_listing_scans_each_vertex_once() {
        // s = h = e with three parallel relations on each side: nine paths through h, whose
        // relations are scanned once by each search and once while listing.
        let edges = [
            ("s", "h"),
            ("s", "h"),
            ("s", "h"),
            ("h", "e"),
            ("h", "e"),
            ("h", "e"),
        ];
        let asked = std::cell::RefCell::new(Vec::new());
        let found = shortest_paths("s", "e", |v| {
            asked.borrow_mut().push(v.to_string());
            graph(&edges, v)
        });
        assert_eq!(found.paths.len(), 9);
        assert!(found.paths.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(asked.borrow().iter().filter(|v| *v == "h").count(), 3);
    }
}
