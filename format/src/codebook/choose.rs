//! Choosing a codebook at build time: what each member's values look like, and the class
//! that stores them best.

use super::refs::UNREMEMBERED;
use super::value::{decimal, is_int_text, is_number_text};
use super::{
    Class, Codebook, Dict, Entry, Handles, Obj, Ref, ARR_MAX, DICT_BYTES, DICT_MAX, DICT_USES,
    OBJ_MAX,
};
use crate::json_scan::{is_string, object_members};
use crate::keylookup::KeyLookup;
use crate::namemap::FastMap;
use crate::record::Record;

/// What the build has seen of one member's values (memory bounded: [`DICT_BYTES`]).
#[derive(Default)]
pub(super) struct ValueStats {
    count: u64,
    /// Distinct values with their first-seen order; None once too many. The fast hash is
    /// safe here: the map holds at most `DICT_MAX` values, so no input can make it degrade
    /// past that many comparisons per value.
    distinct: Option<FastMap<Vec<u8>, u32>>,
    distinct_bytes: usize,
    all_int: bool,
    all_number: bool,
    all_string: bool,
    /// The member names of an object value, when every value so far is an object with them.
    shape: Option<Vec<Vec<u8>>>,
    all_obj: bool,
    /// Per member of `shape`: its non-null values.
    members: Vec<ValueStats>,
    /// Every value so far is an array without null elements (never inside an array or an
    /// object).
    all_arr: bool,
    /// The elements of those arrays.
    elements: Option<Box<ValueStats>>,
    /// Every value so far is a plain string `"<target>/<key>"` (a record member only), and
    /// the target they share.
    all_handle: bool,
    handle_target: Option<Vec<u8>>,
}

impl ValueStats {
    /// Statistics of values at `depth`: 0 a record member, 1 an array's element, 2 an
    /// object's member (the depths [`get_class`] reads).
    fn new(depth: u8) -> ValueStats {
        ValueStats {
            distinct: Some(FastMap::default()),
            all_int: true,
            all_number: true,
            all_string: true,
            all_obj: depth < 2,
            all_arr: depth == 0,
            all_handle: depth == 0,
            ..ValueStats::default()
        }
    }

    fn add(&mut self, v: &[u8]) {
        self.count += 1;
        if let Some(d) = &mut self.distinct {
            if !d.contains_key(v) {
                self.distinct_bytes += v.len();
                if d.len() >= DICT_MAX || self.distinct_bytes > DICT_BYTES {
                    self.distinct = None;
                } else {
                    let next = d.len() as u32;
                    d.insert(v.to_vec(), next);
                }
            }
        }
        self.all_int &= is_int_text(v) && decimal(v).is_some();
        self.all_number &= is_number_text(v);
        self.all_string &= is_string(v);
        if self.all_obj {
            match object_members(v).filter(|m| m.len() <= OBJ_MAX) {
                None => self.all_obj = false,
                Some(ms) => {
                    let names: Vec<&[u8]> = ms.iter().map(|m| m.0).collect();
                    match &self.shape {
                        None => {
                            self.shape = Some(names.iter().map(|n| n.to_vec()).collect());
                            self.members = (0..ms.len()).map(|_| ValueStats::new(2)).collect();
                        }
                        Some(s) if s.iter().map(Vec::as_slice).eq(names.iter().copied()) => {}
                        Some(_) => {
                            self.all_obj = false;
                            self.members = Vec::new();
                        }
                    }
                    if self.all_obj {
                        for (st, (_, mv)) in self.members.iter_mut().zip(&ms) {
                            if *mv != b"null" {
                                st.add(mv);
                            }
                        }
                    }
                }
            }
        }
        if self.all_handle {
            let target = v
                .strip_prefix(b"\"")
                .and_then(|t| t.strip_suffix(b"\""))
                .filter(|t| !t.iter().any(|&b| b == b'\\' || b == b'"'))
                .and_then(|t| t.iter().position(|&b| b == b'/').map(|i| &t[..i]));
            match (target, &self.handle_target) {
                (Some(t), Some(h)) if t == h.as_slice() => {}
                (Some(t), None) => self.handle_target = Some(t.to_vec()),
                _ => {
                    self.all_handle = false;
                    self.handle_target = None;
                }
            }
        }
        if self.all_arr {
            match crate::json_scan::array_elements(v)
                .filter(|es| es.len() <= ARR_MAX && !es.contains(&&b"null"[..]))
            {
                None => {
                    self.all_arr = false;
                    self.elements = None;
                }
                Some(es) => {
                    let st = self
                        .elements
                        .get_or_insert_with(|| Box::new(ValueStats::new(1)));
                    for e in es {
                        st.add(e);
                    }
                }
            }
        }
    }

    /// The class for the values seen; `refs` gives the key map of a collection whose handles
    /// may be stored with or as its ordinals, and which of the two (none: handles stay
    /// strings).
    fn class(&self, refs: &dyn Fn(&str) -> Option<(KeyLookup, Handles)>) -> Class {
        if let Some(d) = &self.distinct {
            let mut values: Vec<(&Vec<u8>, &u32)> = d.iter().collect();
            values.sort_by_key(|v| *v.1);
            if values.len() == 1 {
                return Class::Const(values[0].0.clone());
            }
            if !values.is_empty() && self.count >= DICT_USES * values.len() as u64 {
                return Class::Dict(Dict::new(values.into_iter().map(|v| v.0.clone()).collect()));
            }
        }
        if self.count == 0 {
            return Class::Raw;
        }
        if let Some(t) = self.handle_target.as_deref().filter(|_| self.all_handle) {
            if let Some((k, how)) = std::str::from_utf8(t).ok().and_then(refs) {
                let r = Ref::new(String::from_utf8_lossy(t).into_owned());
                r.link(k, UNREMEMBERED);
                match how {
                    Handles::Ordinals => return Class::Ref(r),
                    Handles::Linked => return Class::Link(r),
                    Handles::Text => {}
                }
            }
        }
        if self.all_int {
            return Class::Int;
        }
        if self.all_number {
            return Class::Float;
        }
        if self.all_string {
            return Class::Str;
        }
        if self.all_obj {
            if let Some(shape) = &self.shape {
                return Class::Obj(Obj::new(
                    shape
                        .iter()
                        .zip(&self.members)
                        .map(|(n, s)| (n.clone(), s.class(refs)))
                        .collect(),
                ));
            }
        }
        if self.all_arr {
            let element = self.elements.as_ref().map_or(Class::Raw, |e| e.class(refs));
            return Class::Arr(Box::new(element));
        }
        Class::Raw
    }
}

/// Chooses a codebook from every record of a collection, fed in any order.
#[derive(Default)]
pub struct Chooser {
    records: u64,
    /// By field id.
    fields: Vec<Option<FieldStats>>,
}

pub(super) struct FieldStats {
    present: u64,
    values: ValueStats,
    /// Fields equal to this one in every record that has this one.
    same: Option<Vec<u16>>,
}

impl Chooser {
    /// A chooser that has seen nothing.
    pub fn new() -> Chooser {
        Chooser::default()
    }

    /// Takes one v2 record into account.
    pub fn add(&mut self, rec: &[u8]) {
        self.records += 1;
        let r = Record::new(rec);
        let members: Vec<(u16, &[u8])> = r.members().collect();
        for &(id, v) in &members {
            let i = id as usize;
            if self.fields.len() <= i {
                self.fields.resize_with(i + 1, || None);
            }
            let f = self.fields[i].get_or_insert_with(|| FieldStats {
                present: 0,
                values: ValueStats::new(0),
                same: Some(
                    members
                        .iter()
                        .filter(|m| m.0 < id && m.1 == v)
                        .map(|m| m.0)
                        .collect(),
                ),
            });
            f.present += 1;
            f.values.add(v);
            if let Some(s) = &mut f.same {
                s.retain(|&m| members.iter().any(|x| x.0 == m && x.1 == v));
                if s.is_empty() {
                    f.same = None;
                }
            }
        }
    }

    /// The codebook.
    pub fn codebook(&self) -> Codebook {
        self.codebook_with_refs(&|_| None)
    }

    /// The codebook, members whose values are all handles of one collection that `refs`
    /// gives a key map of stored as it says ([`Handles`]: `ref` needs records in key order);
    /// handles it lacks are stored verbatim (escapes).
    pub fn codebook_with_refs(
        &self,
        refs: &dyn Fn(&str) -> Option<(KeyLookup, Handles)>,
    ) -> Codebook {
        let mut entries: Vec<Entry> = Vec::new();
        for (id, f) in self.fields.iter().enumerate() {
            let Some(f) = f else { continue };
            let mut class = f.values.class(refs);
            if !matches!(class, Class::Const(_)) {
                // Same as an earlier member that is not itself `Same`.
                let target = f.same.iter().flatten().find_map(|&m| {
                    entries
                        .iter()
                        .position(|e| e.field == m && !matches!(e.class, Class::Same(_)))
                });
                if let Some(m) = target {
                    class = Class::Same(m);
                }
            }
            entries.push(Entry {
                field: id as u16,
                always: f.present == self.records,
                class,
            });
        }
        Codebook::new(entries)
    }
}
