//! Output shapes: which members a record has, in which order, from where.
//!
//! A shape is data; [`Render`] assembles JSON by copying stored member bytes in the shape's
//! order and splicing referenced records in place of their id when `verbose` asks for it. The
//! same shapes generate the OpenAPI schemas, so the document cannot drift from the answers.

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use varcat_format::collection::{Collection, Collections};
use varcat_format::member_keys::MemberKeys;
use varcat_format::records::StoredRecord;
use varcat_format::schema::Member as Stored;

use crate::engine::name_in;

/// JSON type of a member (for the OpenAPI document).
#[derive(Clone, Copy, Debug)]
pub enum Ty {
    /// string
    Str,
    /// number
    Num,
    /// integer
    Int,
    /// boolean
    Bool,
    /// array of strings
    StrArr,
    /// any JSON
    Any,
    /// an object of a shape
    Obj(&'static Shape),
    /// an array of objects of a shape
    Arr(&'static Shape),
    /// a string id, or (verbose) an object of a shape
    IdOr(&'static Shape),
    /// a string id, or (verbose) an array of objects of a shape (one, or none when missing)
    IdOrList(&'static Shape),
    /// a string id, or (verbose) an object of one of these shapes (a handle into one of
    /// several collections)
    IdOrOneOf(&'static [&'static Shape]),
}

/// What a member is filled from when the record lacks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// `null`.
    Null,
    /// `""` (a string the IGVF client requires).
    EmptyStr,
    /// `[]` (an array the IGVF client requires).
    EmptyArr,
}

/// Computes a member; writes one JSON value and returns true, or returns false for `null`.
pub type Compute = fn(&Render<'_>, &Collection, u64, &mut Vec<u8>) -> bool;

/// Where a member's value comes from. Stored members are named by their schema handles: debug
/// builds check that the rendered record's collection keeps them.
#[derive(Clone, Copy)]
pub enum Src {
    /// A stored member of the record.
    Field(Stored),
    /// The record's `_key`.
    Key,
    /// A handle member: the id string, or with `verbose` the referenced record in `shape`
    /// (the id string stays when the target is missing).
    Ref(Stored, &'static Shape),
    /// A handle member: the id string, or with `verbose` a one-element array of the referenced
    /// record in `shape` (`[]` when the target is missing): the IGVF client requires the array.
    RefList(Stored, &'static Shape),
    /// A handle member always expanded to the referenced record, or `null` when missing.
    Obj(Stored, &'static Shape),
    /// A constant (raw JSON).
    Const(&'static str),
    /// Computed.
    Fn(Compute),
    /// Written by the endpoint's handler, which builds its answer itself: the shape only
    /// documents it (rendered, it is `null`).
    Doc,
}

/// One member of a shape.
#[derive(Clone, Copy)]
pub struct Member {
    /// Output name.
    pub name: &'static str,
    /// Source.
    pub src: Src,
    /// Type.
    pub ty: Ty,
    /// Value when absent.
    pub missing: Missing,
}

impl std::fmt::Debug for Member {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Member({})", self.name)
    }
}

/// A record shape.
#[derive(Debug)]
pub struct Shape {
    /// Schema name in the OpenAPI document.
    pub name: &'static str,
    /// Members in output order.
    pub members: &'static [Member],
}

/// A member copied from the stored member `m`, under its name.
pub const fn field(m: Stored, ty: Ty) -> Member {
    Member {
        name: m.name(),
        src: Src::Field(m),
        ty,
        missing: Missing::Null,
    }
}

/// A member of a shape only documented (see [`Src::Doc`]).
pub const fn doc(name: &'static str, ty: Ty) -> Member {
    Member {
        name,
        src: Src::Doc,
        ty,
        missing: Missing::Null,
    }
}

/// A member copied from a stored member with another name.
pub const fn renamed(name: &'static str, from: Stored, ty: Ty) -> Member {
    Member {
        name,
        src: Src::Field(from),
        ty,
        missing: Missing::Null,
    }
}

/// A member of any source.
pub const fn member(name: &'static str, src: Src, ty: Ty) -> Member {
    Member {
        name,
        src,
        ty,
        missing: Missing::Null,
    }
}

impl Member {
    /// The same member, `""`/`[]` instead of null (client-required).
    pub const fn required(self) -> Member {
        let missing = match self.ty {
            Ty::StrArr | Ty::Arr(_) => Missing::EmptyArr,
            _ => Missing::EmptyStr,
        };
        Member { missing, ..self }
    }
}

/// The string inside JSON string bytes (fast path without escapes).
pub fn json_str(b: &[u8]) -> Option<Cow<'_, str>> {
    if b.len() >= 2 && b[0] == b'"' && b[b.len() - 1] == b'"' && !b.contains(&b'\\') {
        return std::str::from_utf8(&b[1..b.len() - 1])
            .ok()
            .map(Cow::Borrowed);
    }
    serde_json::from_slice::<String>(b).ok().map(Cow::Owned)
}

/// Writes `s` as a JSON string.
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("writing to a Vec cannot fail");
}

/// Renders records.
pub struct Render<'a> {
    /// The catalog.
    pub cat: &'a Collections,
    /// `verbose=true`.
    pub verbose: bool,
}

/// Most (shape, collection) pairs whose field ids a thread keeps ([`Render::ids`]); past it
/// the list starts again (a connection's requests mostly go to a few endpoints).
const IDS_KEPT: usize = 8;

thread_local! {
    /// Per (shape, record store) rendered on this thread: the field id each member reads,
    /// found once rather than by name in every record (a name hash per member per record was
    /// 6 % of a region request's server time at 1M), and kept across requests (found once per
    /// request, they were a third of a point look-up's allocations). Keyed by the shape's
    /// address (shapes are static) and the store's id (unique in the process, so a catalog
    /// reloaded at the same address is never mistaken for the old one).
    static IDS: RefCell<Vec<(*const Shape, u64, Rc<FieldIdsOf>)>> =
        const { RefCell::new(Vec::new()) };
}

/// How the members of one shape are found in the records of one collection.
struct FieldIdsOf {
    /// The distinct field ids the shape reads, in increasing order (as records hold them).
    sorted: Vec<u16>,
    /// By member of the shape: its field's position in `sorted`, if it reads one present in
    /// the collection.
    slot: Vec<Option<usize>>,
    /// What is printed before each member's value.
    keys: MemberKeys,
}

/// Most distinct stored members a shape is looked up in one pass for ([`Render::object_of`]);
/// a wider shape searches the record per member.
const ONE_PASS: usize = 48;

impl<'a> Render<'a> {
    /// A renderer.
    pub fn new(cat: &'a Collections, verbose: bool) -> Render<'a> {
        Render { cat, verbose }
    }

    /// By member of `shape`: the id in `coll` of the stored member it reads, if any.
    fn ids(&self, coll: &Collection, shape: &Shape) -> Rc<FieldIdsOf> {
        let key = (shape as *const Shape, coll.record_store().id());
        let kept = IDS.with_borrow(|ids| {
            ids.iter()
                .find(|(s, c, _)| (*s, *c) == key)
                .map(|(_, _, f)| f.clone())
        });
        if let Some(f) = kept {
            return f;
        }
        let ids = Rc::new(Self::field_ids_of(coll, shape));
        IDS.with_borrow_mut(|kept| {
            if kept.len() == IDS_KEPT {
                kept.clear();
            }
            kept.push((key.0, key.1, ids.clone()));
        });
        ids
    }

    /// How `shape`'s members are found in the records of `coll`.
    fn field_ids_of(coll: &Collection, shape: &Shape) -> FieldIdsOf {
        // Shapes name stored members (checked against the schema by `name_in`); the renderer
        // copies their bytes, as engine::Read would.
        #[allow(clippy::disallowed_methods)]
        let by_member: Vec<Option<u16>> = shape
            .members
            .iter()
            .map(|m| match m.src {
                Src::Field(f) | Src::Ref(f, _) | Src::RefList(f, _) | Src::Obj(f, _) => {
                    coll.field(name_in(coll, f, None))
                }
                Src::Key => coll.field("_key"),
                Src::Doc | Src::Const(_) | Src::Fn(_) => None,
            })
            .collect();
        let mut sorted: Vec<u16> = by_member.iter().flatten().copied().collect();
        sorted.sort_unstable();
        sorted.dedup();
        let slot = by_member
            .iter()
            .map(|id| id.and_then(|id| sorted.binary_search(&id).ok()))
            .collect();
        let keys = MemberKeys::new(shape.members.iter().map(|m| m.name.as_bytes()));
        FieldIdsOf { sorted, slot, keys }
    }

    /// The record a reference member's `handle` expands to, looked up only when verbose: a
    /// plain row prints the handle as stored, and the lookup would cost a key-map walk (cold:
    /// disk reads) per row.
    pub fn expansion(&self, handle: &str) -> Option<(&'a Collection, u64)> {
        if self.verbose {
            self.cat.resolve(handle)
        } else {
            None
        }
    }

    /// Writes record `ord` of `coll` as an object of `shape`.
    pub fn object(&self, out: &mut Vec<u8>, coll: &Collection, ord: u64, shape: &Shape) {
        self.object_of(out, coll, ord, coll.record(ord), shape);
    }

    /// [`Self::object`] of record `ord`, decoded already as `rec`.
    fn object_of(
        &self,
        out: &mut Vec<u8>,
        coll: &Collection,
        ord: u64,
        rec: Option<StoredRecord>,
        shape: &Shape,
    ) {
        let ids = self.ids(coll, shape);
        // The members the shape reads, found in one pass along the record's sorted ids.
        let mut found: [Option<&[u8]>; ONE_PASS] = [None; ONE_PASS];
        let one_pass = ids.sorted.len() <= ONE_PASS;
        if let (Some(r), true) = (&rec, one_pass) {
            r.get_sorted(&ids.sorted, &mut found[..ids.sorted.len()]);
        }
        for (i, m) in shape.members.iter().enumerate() {
            ids.keys.put(i, out);
            // The stored member this one reads ([`Render::ids`]), unless null.
            let value = || {
                ids.slot[i]
                    .and_then(|k| match one_pass {
                        true => found[k],
                        false => rec.as_ref().and_then(|r| r.get(ids.sorted[k])),
                    })
                    .filter(|v| *v != b"null")
            };
            let written = match m.src {
                Src::Field(_) | Src::Key => value().map(|v| out.extend_from_slice(v)).is_some(),
                Src::Doc => false,
                Src::Const(raw) => {
                    out.extend_from_slice(raw.as_bytes());
                    true
                }
                Src::Fn(f) => f(self, coll, ord, out),
                Src::Ref(_, target) => match value() {
                    None => false,
                    Some(v) => {
                        match json_str(v).and_then(|h| self.expansion(&h)) {
                            Some((c, o)) => self.object(out, c, o, target),
                            None => out.extend_from_slice(v),
                        }
                        true
                    }
                },
                Src::RefList(_, target) => match value() {
                    None => false,
                    Some(v) if !self.verbose => {
                        out.extend_from_slice(v);
                        true
                    }
                    Some(v) => {
                        out.push(b'[');
                        if let Some((c, o)) = json_str(v).and_then(|h| self.expansion(&h)) {
                            self.object(out, c, o, target);
                        }
                        out.push(b']');
                        true
                    }
                },
                Src::Obj(_, target) => {
                    match value().and_then(|v| json_str(v).and_then(|h| self.cat.resolve(&h))) {
                        Some((c, o)) => {
                            self.object(out, c, o, target);
                            true
                        }
                        None => false,
                    }
                }
            };
            if !written {
                out.extend_from_slice(match m.missing {
                    Missing::Null => b"null",
                    Missing::EmptyStr => b"\"\"",
                    Missing::EmptyArr => b"[]",
                });
            }
        }
        ids.keys.close(out);
    }

    /// A JSON array of (collection, record) items, each in the shape `select` picks for it.
    pub fn items<'c, 's, I>(
        &self,
        items: I,
        select: impl Fn(&Collection, u64) -> &'s Shape,
    ) -> Vec<u8>
    where
        I: IntoIterator<Item = (&'c Collection, u64)>,
        I::IntoIter: ExactSizeIterator,
    {
        let items = items.into_iter();
        let n = items.len();
        let mut out = crate::spare::body(4096);
        out.push(b'[');
        for (i, (c, o)) in items.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            if matches!(i, 1 | 4 | 16) {
                make_room(&mut out, i, n);
            }
            // Decoded whole before the shape is chosen: a selector reads members of the record
            // (a source, a method), which then come from the thread's decoded record instead
            // of each walking the encoded one.
            let rec = c.record(o);
            self.object_of(&mut out, c, o, rec, select(c, o));
        }
        out.push(b']');
        out
    }

    /// A JSON array of records of several collections, each in `shape`.
    pub fn array_of(&self, items: &[(&Collection, u64)], shape: &Shape) -> Vec<u8> {
        self.items(items.iter().copied(), |_, _| shape)
    }

    /// A JSON array of records of `coll`, each in the shape `select` picks for it.
    pub fn array_with<'s>(
        &self,
        coll: Option<&Collection>,
        ords: &[u64],
        select: impl Fn(&Collection, u64) -> &'s Shape,
    ) -> Vec<u8> {
        match coll {
            Some(c) => {
                c.prefetch(ords);
                self.items(ords.iter().map(|&o| (c, o)), select)
            }
            None => self.items([], select),
        }
    }

    /// A JSON array of records of `coll` in `shape`.
    pub fn array(&self, coll: Option<&Collection>, ords: &[u64], shape: &Shape) -> Vec<u8> {
        self.array_with(coll, ords, |_, _| shape)
    }
}

/// Most room a body is given ahead of what is written (a guess from a few items; the body
/// grows past it as a vector does).
const ROOM_AHEAD: usize = 4 << 20;

/// Before item `k` of `n`: when the `k` items written say the rest will not fit, the body
/// moves now to a buffer with room for all of them (and an eighth more), copying what is
/// written so far. Left to itself the vector would double later, when full, and a `realloc`
/// copies the whole buffer: a region page of 29 KB past the thread's 32 KiB spare copied
/// 32 KiB to add a few hundred bytes.
fn make_room(out: &mut Vec<u8>, k: usize, n: usize) {
    let guess = out.len() / k * n;
    let guess = (guess + guess / 8).min(out.len() + ROOM_AHEAD);
    if guess > out.capacity() {
        let mut bigger = Vec::with_capacity(guess);
        bigger.extend_from_slice(out);
        *out = bigger;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_room_is_made_for_the_items_the_first_ones_foretell() {
        // One item of 100 bytes written ('[' and the item), 50 to come: room for ~50 × 100.
        let mut out = Vec::with_capacity(128);
        out.extend_from_slice(&[b'x'; 101]);
        make_room(&mut out, 1, 50);
        assert!(out.capacity() >= 101 * 50, "{}", out.capacity());
        assert_eq!(out, [b'x'; 101]);
        // Room enough already: the buffer stays where it is.
        let ptr = out.as_ptr();
        make_room(&mut out, 1, 2);
        assert_eq!(out.as_ptr(), ptr);
        // A huge first item does not reserve without bound.
        let mut big = vec![b'y'; 1 << 20];
        make_room(&mut big, 1, 1000);
        assert!(big.capacity() <= (1 << 20) + ROOM_AHEAD);
    }
}
