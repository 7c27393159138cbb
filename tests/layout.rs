//! The code's layout rules, checked over the sources: no `.rs` file of the repository outside
//! `vendor/` over 800 lines, and no import circle among the modules of the format crate, the
//! query library or the server (a module's `crate::…` and `super::…` paths outside comments
//! and test modules, each resolved to the deepest module it names).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::util::root;

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(sources(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out
}

/// The module path of `file` below the crate's `src` (`api::genes` for `api/genes.rs`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("lib" | "mod")) {
        parts.pop();
    }
    parts.join("::")
}

/// The code of `text` without its test module and comments.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifier-and-`::` path starting at `s`.
fn path_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(s.len());
    s[..end].trim_end_matches(':')
}

/// The modules each module of the crate at `src` names.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = sources(src);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(src, f)).collect();
    let deepest = |path: &str| {
        let mut parts: Vec<&str> = path.split("::").collect();
        while !parts.is_empty() {
            let m = parts.join("::");
            if modules.contains(&m) {
                return Some(m);
            }
            parts.pop();
        }
        None
    };
    let mut out = BTreeMap::new();
    for f in &files {
        let m = module_of(src, f);
        let text = code(&std::fs::read_to_string(f).unwrap());
        let mut named = BTreeSet::new();
        for (prefix, base) in [("crate::", String::new()), ("super::", parent(&m))] {
            for (i, _) in text.match_indices(prefix) {
                let rest = &text[i + prefix.len()..];
                let path = path_at(rest);
                let full = |p: &str| {
                    if base.is_empty() {
                        p.to_string()
                    } else {
                        format!("{base}::{p}")
                    }
                };
                let mut targets = vec![full(path)];
                // `crate::a::{b, c::D}`: each member too.
                if let Some(group) = rest[path.len()..].strip_prefix("::{") {
                    let group = group.split('}').next().unwrap_or("");
                    for item in group.split(',') {
                        let item = path_at(item.trim());
                        if !item.is_empty() && item != "self" {
                            targets.push(full(&format!("{path}::{item}")));
                        }
                    }
                }
                for t in targets {
                    if let Some(d) = deepest(&t) {
                        if d != m && !d.is_empty() {
                            named.insert(d);
                        }
                    }
                }
            }
        }
        out.insert(m, named);
    }
    out
}

fn parent(m: &str) -> String {
    m.rsplit_once("::")
        .map_or(String::new(), |(p, _)| p.to_string())
}

/// A circle among `graph`'s modules, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first search; a module met again on the current path closes a circle.
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            return Some(path[i..].to_vec());
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for n in graph.get(m).into_iter().flatten() {
            if let Some(c) = visit(n, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut Vec::new(), &mut done))
}

/// The crates whose modules must not import each other in a circle.
const NO_CIRCLES: &[&str] = &["format", "query", "server"];

#[test]
fn test_no_import_circle_in_the_format_the_query_library_or_the_server() {
    for krate in NO_CIRCLES {
        let graph = imports(&root().join(krate).join("src"));
        assert!(graph.len() > 10, "{krate}: modules found");
        assert_eq!(circle(&graph), None, "{krate}: an import circle");
    }
}

#[test]
fn test_the_circle_check_finds_one() {
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    graph.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        circle(&graph),
        Some(vec!["a".to_string(), "b".to_string(), "c".to_string()])
    );
    graph.insert("c".to_string(), BTreeSet::new());
    assert_eq!(circle(&graph), None);
}

/// The longest a source file may be.
const MAX_LINES: usize = 800;

/// Every `.rs` file of the repository but vendored code and build output, by path relative to
/// the root.
fn repository_sources() -> Vec<String> {
    let root = root();
    let mut out = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                if !(name.starts_with('.') || name == "target" || p == root.join("vendor")) {
                    dirs.push(p);
                }
            } else if name.ends_with(".rs") {
                let rel = p.strip_prefix(&root).unwrap();
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn test_no_source_file_outside_vendor_over_800_lines() {
    let files = repository_sources();
    for part in [
        "format/src/",
        "query/src/",
        "tests/",
        "tools/src/",
        "src/",
        "fuzz/",
    ] {
        assert!(
            files.iter().any(|f| f.starts_with(part)),
            "no source found under {part}"
        );
    }
    assert!(!files.iter().any(|f| f.starts_with("vendor/")));
    let mut over = Vec::new();
    for f in &files {
        let n = std::fs::read_to_string(root().join(f))
            .unwrap()
            .lines()
            .count();
        if n > MAX_LINES {
            over.push(format!("{f}: {n} lines"));
        }
    }
    assert!(over.is_empty(), "over {MAX_LINES} lines: {over:#?}");
}
