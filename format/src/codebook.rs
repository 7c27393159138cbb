//! The record codebook: per collection, a class for each member (stored once, decoded at
//! open) so that a record stores only what varies, compactly (FORMAT.md "Record codebook").
//!
//! The record store hands out records in the v2 member encoding ([`crate::records::Record`]):
//! [`Codebook::decode`] turns an encoded record back into it, and [`Codebook::encode`] checks
//! that it does, member by member, storing a member whose round trip differs verbatim (an
//! escape). Byte identity therefore holds by construction whatever the classes chosen.

use std::sync::OnceLock;

use crate::adjacency::KeyLookup;
use crate::bytes::u16_at;
use crate::namemap::FastMap;
use crate::records::Record;

/// The section holding collection `coll`'s codebook.
pub fn section(coll: &str) -> String {
    format!("{coll}.codebook")
}

const MAGIC: [u8; 4] = *b"CBK1";
/// Most distinct values a `dict` member may have.
const DICT_MAX: usize = 4096;
/// A `dict` member's values are used at least this many times each on average.
const DICT_USES: u64 = 8;
/// Bytes of distinct values tracked per member while choosing classes (bounds the build's
/// memory and the codebook decoded at open).
const DICT_BYTES: usize = 256 << 10;
/// Most members of an `obj` (its null bitmap stays small).
const OBJ_MAX: usize = 256;
/// Most elements of an `arr` value (a longer array is escaped; a reader refuses a larger
/// count, so a corrupt one cannot print without end from zero-byte elements).
const ARR_MAX: usize = 1 << 16;
/// Readers refuse codebooks declaring more entries than this (a corrupt count).
const MAX_ENTRIES: usize = 1 << 20;
/// The exponent byte of a `float` that marks integer text (`1`, not `1.0`).
const INT_TEXT: u8 = 0x80;

/// How a member is stored.
#[derive(Clone, Debug, PartialEq)]
pub enum Class {
    /// Verbatim: varint length + JSON bytes.
    Raw,
    /// The same bytes in every record that has the member: nothing stored.
    Const(Vec<u8>),
    /// One of a few values: varint code.
    Dict(Dict),
    /// Equal to an earlier member (codebook index) of the same record: nothing stored.
    Same(usize),
    /// A JSON integer (i64): zigzag varint.
    Int,
    /// A JSON number as its shortest decimal: zigzag varint mantissa, exponent byte.
    Float,
    /// A JSON string: varint length + its escaped content without quotes.
    Str,
    /// An object with these members in this order: a null bitmap, then each non-null member
    /// by its class (never `Obj`, `Arr` or `Same`).
    Obj(Vec<(Vec<u8>, Class)>),
    /// An array whose elements all have this class (never `Arr` or `Same`; `Obj` allowed):
    /// varint count, then each element.
    Arr(Box<Class>),
    /// A handle `"<target>/<key>"` of a record of collection `target`: its ordinal, varint.
    /// Decoding names the key through the target's key map read backwards (records in key
    /// order), so the codebook is linked to it at open ([`Codebook::refs`]).
    Ref(Ref),
    /// A handle `"<target>/<key>"` of a record of collection `target`, stored with its
    /// ordinal: varint ordinal, then varint length + the key. Decoding prints the key as
    /// stored (no key-map walk) and remembers the ordinal, so a join or a verbose expansion of
    /// the handle reads the record without walking the target's key map either.
    Link(Ref),
}

/// How a collection's records store the handles (`"<target>/<key>"`) of other collections'
/// records, when every value of a member names one collection built before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handles {
    /// As strings.
    Text,
    /// As the target's ordinals alone (`ref`): targets in key order only.
    Ordinals,
    /// As the key with the target's ordinal beside it (`link`): any target with a key map.
    Linked,
}

/// A member [`Codebook::visit`] decoded: a top-level member (its id), or an inner member of
/// the visited object (its index), with its JSON bytes.
#[derive(Debug, PartialEq)]
pub enum Visited<'a> {
    /// Member `.0`'s bytes.
    Member(u16, &'a [u8]),
    /// Inner member `.0`'s bytes.
    Inner(usize, &'a [u8]),
}

/// A `ref` member's target collection and, once linked, its key map and its identity (its
/// record store's id: the memo of decoded references is keyed by it).
#[derive(Clone, Default)]
pub struct Ref {
    /// The target collection's name.
    pub target: String,
    lookup: OnceLock<(KeyLookup, u64)>,
}

/// Slots of the per-thread memo of decoded references (a power of two).
const MEMO_SLOTS: usize = 256;

thread_local! {
    /// (target id, key) → ordinal of the references this thread decoded last: a join that
    /// resolves a handle just printed from a `ref` reads the ordinal the record stored instead
    /// of walking the target's key map again (an LD row resolves each of its two ends three
    /// times or more).
    static REF_MEMO: std::cell::RefCell<Vec<Option<MemoEntry>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A remembered reference: (target id, key, ordinal).
type MemoEntry = (u64, Vec<u8>, u64);

fn memo_slot(target: u64, key: &[u8]) -> usize {
    let mut h = crate::namemap::NameHasher::default();
    std::hash::Hasher::write_u64(&mut h, target);
    std::hash::Hasher::write(&mut h, key);
    std::hash::Hasher::finish(&h) as usize & (MEMO_SLOTS - 1)
}

fn remember(target: u64, key: &[u8], ord: u64) {
    if target == UNREMEMBERED {
        return;
    }
    REF_MEMO.with(|m| memo_put(m, memo_slot(target, key), (target, key, ord)));
}

/// Fills slot `slot` of a memo (made on first use), reusing the key buffer it held.
fn memo_put(
    memo: &std::cell::RefCell<Vec<Option<MemoEntry>>>,
    slot: usize,
    (target, key, ord): (u64, &[u8], u64),
) {
    let mut m = memo.borrow_mut();
    if m.is_empty() {
        m.resize(MEMO_SLOTS, None);
    }
    match &mut m[slot] {
        Some((t, k, o)) => {
            *t = target;
            k.clear();
            k.extend_from_slice(key);
            *o = ord;
        }
        slot => *slot = Some((target, key.to_vec(), ord)),
    }
}

/// The identity of a reference linked for encoding (the build's codebook): its decodes
/// neither consult nor fill the memos, which are keyed by the identities of opened stores.
const UNREMEMBERED: u64 = u64::MAX;

thread_local! {
    /// (target id, ordinal) → key of the `ref`s this thread decoded last: a page of LD rows
    /// names its anchor variant in every row, each a walk of the key map backwards before.
    static KEY_MEMO: std::cell::RefCell<Vec<Option<MemoEntry>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn key_slot(target: u64, ord: u64) -> usize {
    (ord ^ target.rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) as usize >> 8
        & (MEMO_SLOTS - 1)
}

/// Prints `target/key` of the `ref` to ordinal `ord` of the collection with id `id`: from the
/// thread's memo of names, else by a walk of its key map (then remembered both ways).
fn print_ref(out: &mut Vec<u8>, target: &str, lookup: &KeyLookup, id: u64, ord: u64) -> Option<()> {
    if id == UNREMEMBERED {
        print_handle(out, target, lookup.key_of(ord)?.as_bytes());
        return Some(());
    }
    let hit = KEY_MEMO.with(|m| match m.borrow().get(key_slot(id, ord)) {
        Some(Some((t, k, o))) if *t == id && *o == ord => {
            // Joins look the handle up next: keep it in the other memo too.
            remember(id, k, ord);
            print_handle(out, target, k);
            true
        }
        _ => false,
    });
    if hit {
        return Some(());
    }
    let key = lookup.key_of(ord)?;
    remember(id, key.as_bytes(), ord);
    KEY_MEMO.with(|m| memo_put(m, key_slot(id, ord), (id, key.as_bytes(), ord)));
    print_handle(out, target, key.as_bytes());
    Some(())
}

/// A handle as JSON: `"target/key"`.
fn print_handle(out: &mut Vec<u8>, target: &str, key: &[u8]) {
    out.push(b'"');
    out.extend_from_slice(target.as_bytes());
    out.push(b'/');
    out.extend_from_slice(key);
    out.push(b'"');
}

/// The ordinal of `key` in the collection whose record store has id `target`, if this thread
/// decoded a reference to it lately (None otherwise: look it up in the key map).
pub fn remembered(target: u64, key: &[u8]) -> Option<u64> {
    REF_MEMO.with(|m| {
        let m = m.borrow();
        match m.get(memo_slot(target, key))? {
            Some((t, k, o)) if *t == target && k == key => Some(*o),
            _ => None,
        }
    })
}

impl Ref {
    /// A reference to `target`'s records, not yet linked.
    pub fn new(target: String) -> Ref {
        Ref {
            target,
            lookup: OnceLock::new(),
        }
    }

    /// Gives the reference its target's key map (a collection in key order) and the target's
    /// identity (its record store's id): the memos of decoded references are keyed by it, so
    /// it names one key map for the life of the process.
    pub fn link(&self, key: KeyLookup, target_id: u64) {
        let _ = self.lookup.set((key, target_id));
    }

    /// Whether [`Ref::link`] was called.
    pub fn is_linked(&self) -> bool {
        self.lookup.get().is_some()
    }
}

impl PartialEq for Ref {
    fn eq(&self, other: &Ref) -> bool {
        self.target == other.target
    }
}

impl std::fmt::Debug for Ref {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ref({})", self.target)
    }
}

/// A `dict` member's values, in code order.
#[derive(Clone, Debug, Default)]
pub struct Dict {
    /// The values; a value's code is its index.
    pub values: Vec<Vec<u8>>,
    /// Value → code, built when the first value is encoded (readers never build it): up to
    /// 4,096 values, which a linear search would compare one by one for every member.
    index: OnceLock<FastMap<Vec<u8>, u32>>,
}

impl Dict {
    /// The dictionary of `values` (code order).
    pub fn new(values: Vec<Vec<u8>>) -> Dict {
        Dict {
            values,
            index: OnceLock::new(),
        }
    }

    /// The code of value `v`.
    fn code_of(&self, v: &[u8]) -> Option<u32> {
        let index = self.index.get_or_init(|| {
            let mut m = FastMap::default();
            for (i, x) in self.values.iter().enumerate().rev() {
                // The first of equal values keeps its code, as a linear search would find it.
                m.insert(x.clone(), i as u32);
            }
            m
        });
        index.get(v).copied()
    }
}

impl PartialEq for Dict {
    fn eq(&self, other: &Dict) -> bool {
        self.values == other.values
    }
}

impl Class {
    fn tag(&self) -> u8 {
        match self {
            Class::Raw => 0,
            Class::Const(_) => 1,
            Class::Dict(_) => 2,
            Class::Same(_) => 3,
            Class::Int => 4,
            Class::Float => 5,
            Class::Str => 6,
            Class::Obj(_) => 7,
            Class::Arr(_) => 8,
            Class::Ref(_) => 9,
            Class::Link(_) => 10,
        }
    }

    /// The class's name, as `varcat info` prints it.
    pub fn name(&self) -> &'static str {
        [
            "raw", "const", "dict", "same", "int", "float", "str", "obj", "arr", "ref", "link",
        ][self.tag() as usize]
    }
}

/// Buffers [`Codebook::encode`] reuses on each thread.
#[derive(Default)]
struct EncodeScratch {
    values: Vec<Option<(usize, usize)>>,
    escaped: Vec<usize>,
    body: Vec<u8>,
    one: Vec<u8>,
    check: Vec<u8>,
}

thread_local! {
    static ENCODE_SCRATCH: std::cell::RefCell<EncodeScratch> = std::cell::RefCell::default();
}

/// One member of the codebook.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The member's field id.
    pub field: u16,
    /// Present in every record: no presence bit.
    pub always: bool,
    /// How its values are stored.
    pub class: Class,
}

/// A collection's codebook.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Codebook {
    /// Members in ascending field id.
    pub entries: Vec<Entry>,
    /// Members stored verbatim because their class did not reproduce them (set by the build).
    pub escapes: u64,
    /// Bits of the presence bitmap (entries not `always`), computed.
    optional: usize,
}

// ---- varints ---------------------------------------------------------------------------

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// A bounds-checked reader over encoded bytes; every read fails (None) past the end.
struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn byte(&mut self) -> Option<u8> {
        let v = *self.b.get(self.at)?;
        self.at += 1;
        Some(v)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= ((b & 0x7f) as u64).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    fn len(&mut self) -> Option<usize> {
        usize::try_from(self.varint()?).ok()
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.b.get(self.at..end)?;
        self.at = end;
        Some(s)
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.len()?;
        self.take(n)
    }
}

/// An encoded record's head, and a cursor at its first value.
struct Head<'a> {
    c: Cursor<'a>,
    bitmap: &'a [u8],
    /// Escaped entries, ascending.
    escaped: Vec<usize>,
}

fn u32_le(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

// ---- JSON scanning: `json_scan`, the one member scanner -------------------------------

use crate::json_scan::{is_string, object_members};

fn is_int_text(v: &[u8]) -> bool {
    let d = v.strip_prefix(b"-").unwrap_or(v);
    !d.is_empty() && d.iter().all(u8::is_ascii_digit)
}

fn is_number_text(v: &[u8]) -> bool {
    matches!(v.first(), Some(b'-' | b'0'..=b'9'))
}

// ---- numbers ---------------------------------------------------------------------------

/// The shortest decimal of number text: (negative, magnitude, exponent), the exponent
/// [`INT_TEXT`] for integer text. None when it does not fit.
fn decimal(text: &[u8]) -> Option<(bool, u64, u8)> {
    let s = std::str::from_utf8(text).ok()?;
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (m, e, int_text) = match s.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().ok()?, false),
        None => (s, 0, !s.contains('.')),
    };
    let (int, frac) = m.split_once('.').unwrap_or((m, ""));
    if int.is_empty() {
        return None;
    }
    let mut mag: u64 = 0;
    for c in int.bytes().chain(frac.bytes()) {
        if !c.is_ascii_digit() {
            return None;
        }
        mag = mag.checked_mul(10)?.checked_add((c - b'0') as u64)?;
    }
    if int_text {
        return Some((neg, mag, INT_TEXT));
    }
    let exp = e.checked_sub(frac.len() as i32)?;
    let exp = i8::try_from(exp).ok().filter(|&x| x as u8 != INT_TEXT)?;
    Some((neg, mag, exp as u8))
}

/// Writes the JSON number (sign, magnitude, exponent byte) in the layout `ryu` (serde_json's
/// float printer) gives shortest digits, from the stored digits themselves: no float is
/// parsed or formatted. A value the layout does not reproduce is escaped at build, so this
/// only has to be deterministic; for serde_json output it is exact.
fn write_number(out: &mut Vec<u8>, neg: bool, mag: u64, exp: u8) -> Option<()> {
    if neg {
        out.push(b'-');
    }
    let mut buf = itoa::Buffer::new();
    let d = buf.format(mag).as_bytes();
    let n = d.len();
    if exp == INT_TEXT {
        out.extend_from_slice(d);
        return Some(());
    }
    let e = exp as i8 as i32;
    // The decimal point's position in the digits (ryu's `kk`).
    let kk = n as i32 + e;
    if e >= 0 && kk <= 16 {
        // 1234e2 → 123400.0
        out.extend_from_slice(d);
        out.extend(std::iter::repeat_n(b'0', e as usize));
        out.extend_from_slice(b".0");
    } else if 0 < kk && kk <= 16 {
        // 1234e-2 → 12.34
        out.extend_from_slice(&d[..kk as usize]);
        out.push(b'.');
        out.extend_from_slice(&d[kk as usize..]);
    } else if -5 < kk && kk <= 0 {
        // 1234e-7 → 0.0001234
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', (-kk) as usize));
        out.extend_from_slice(d);
    } else {
        // 1234e20 → 1.234e+23; 1e-7
        out.push(d[0]);
        if n > 1 {
            out.push(b'.');
            out.extend_from_slice(&d[1..]);
        }
        out.extend_from_slice(if kk > 0 { b"e+" } else { b"e" });
        write_i64(out, (kk - 1) as i64);
    }
    Some(())
}

fn write_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

fn write_i64(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    write_u64(out, v.unsigned_abs());
}

// ---- encoding and decoding one value ---------------------------------------------------

/// The key of handle `v` (JSON `"<target>/<key>"`) of `r`'s target. Plain handles only: one
/// with an escape in its text is stored verbatim.
fn handle_key<'v>(r: &Ref, v: &'v [u8]) -> Option<&'v [u8]> {
    let text = v.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let key = text.strip_prefix(r.target.as_bytes())?.strip_prefix(b"/")?;
    (!key.iter().any(|&b| b == b'\\' || b == b'"')).then_some(key)
}

/// Encodes `v` by `class` (not `Same`); None when the class cannot hold it.
fn encode_value(class: &Class, v: &[u8], out: &mut Vec<u8>) -> Option<()> {
    match class {
        Class::Raw => {
            put_varint(out, v.len() as u64);
            out.extend_from_slice(v);
        }
        Class::Const(c) => {
            if c != v {
                return None;
            }
        }
        Class::Dict(d) => {
            let code = d.code_of(v)?;
            put_varint(out, u64::from(code));
        }
        Class::Same(_) => return None,
        Class::Int => {
            if !is_int_text(v) {
                return None;
            }
            let x: i64 = std::str::from_utf8(v).ok()?.parse().ok()?;
            put_varint(out, zigzag(x));
        }
        Class::Float => {
            // Sign and magnitude rather than zigzag: `-0.0` is a value of its own.
            let (neg, mag, e) = decimal(v)?;
            put_varint(out, mag.checked_mul(2)? | neg as u64);
            out.push(e);
        }
        Class::Str => {
            if !is_string(v) {
                return None;
            }
            put_varint(out, (v.len() - 2) as u64);
            out.extend_from_slice(&v[1..v.len() - 1]);
        }
        Class::Obj(members) => {
            let got = object_members(v)?;
            if got.len() != members.len() {
                return None;
            }
            let mut nulls = vec![0u8; members.len().div_ceil(8)];
            let mut body = Vec::new();
            for (i, ((name, class), (gname, gv))) in members.iter().zip(&got).enumerate() {
                if name != gname {
                    return None;
                }
                if *gv == b"null" {
                    nulls[i / 8] |= 1 << (i % 8);
                } else {
                    encode_value(class, gv, &mut body)?;
                }
            }
            out.extend_from_slice(&nulls);
            out.extend_from_slice(&body);
        }
        Class::Ref(r) | Class::Link(r) => {
            let key = handle_key(r, v)?;
            let ord = r.lookup.get()?.0.ord(std::str::from_utf8(key).ok()?)?;
            put_varint(out, ord);
            if matches!(class, Class::Link(_)) {
                put_varint(out, key.len() as u64);
                out.extend_from_slice(key);
            }
        }
        Class::Arr(element) => {
            let got = crate::json_scan::array_elements(v)?;
            if got.len() > ARR_MAX {
                return None;
            }
            put_varint(out, got.len() as u64);
            for e in got {
                encode_value(element, e, out)?;
            }
        }
    }
    Some(())
}

/// Decodes one value of `class` (not `Same`) onto `out`.
fn decode_value(class: &Class, c: &mut Cursor<'_>, out: &mut Vec<u8>) -> Option<()> {
    match class {
        Class::Raw => out.extend_from_slice(c.bytes()?),
        Class::Const(v) => out.extend_from_slice(v),
        Class::Dict(d) => out.extend_from_slice(d.values.get(c.len()?)?),
        Class::Same(_) => return None,
        Class::Int => write_i64(out, unzigzag(c.varint()?)),
        Class::Float => {
            let m = c.varint()?;
            let e = c.byte()?;
            write_number(out, m & 1 == 1, m >> 1, e)?;
        }
        Class::Str => {
            out.push(b'"');
            out.extend_from_slice(c.bytes()?);
            out.push(b'"');
        }
        Class::Obj(members) => {
            let nulls = c.take(members.len().div_ceil(8))?;
            out.push(b'{');
            for (i, (name, class)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.push(b'"');
                out.extend_from_slice(name);
                out.extend_from_slice(b"\":");
                if nulls[i / 8] >> (i % 8) & 1 == 1 {
                    out.extend_from_slice(b"null");
                } else {
                    decode_value(class, c, out)?;
                }
            }
            out.push(b'}');
        }
        Class::Ref(r) => {
            let (lookup, id) = r.lookup.get()?;
            let ord = c.varint()?;
            print_ref(out, &r.target, lookup, *id, ord)?;
        }
        Class::Link(r) => {
            let ord = c.varint()?;
            let key = c.bytes()?;
            // Unlinked (the target absent at open), the handle still prints; nothing is
            // remembered. Linked, an ordinal past the target's end is corrupt.
            if let Some((lookup, id)) = r.lookup.get() {
                if ord >= lookup.len {
                    return None;
                }
                remember(*id, key, ord);
            }
            print_handle(out, &r.target, key);
        }
        Class::Arr(element) => {
            let n = c.len()?;
            if n > ARR_MAX {
                return None;
            }
            out.push(b'[');
            for i in 0..n {
                if i > 0 {
                    out.push(b',');
                }
                decode_value(element, c, out)?;
            }
            out.push(b']');
        }
    }
    Some(())
}

/// Moves past one value of `class` (not `Same`) without decoding it.
fn skip_value(class: &Class, c: &mut Cursor<'_>) -> Option<()> {
    match class {
        Class::Raw | Class::Str => {
            c.bytes()?;
        }
        Class::Const(_) => {}
        Class::Dict(_) | Class::Int | Class::Ref(_) => {
            c.varint()?;
        }
        Class::Float => {
            c.varint()?;
            c.byte()?;
        }
        Class::Link(_) => {
            c.varint()?;
            c.bytes()?;
        }
        Class::Same(_) => return None,
        Class::Obj(members) => {
            let nulls = c.take(members.len().div_ceil(8))?;
            for (i, (_, class)) in members.iter().enumerate() {
                if nulls[i / 8] >> (i % 8) & 1 == 0 {
                    skip_value(class, c)?;
                }
            }
        }
        Class::Arr(element) => {
            let n = c.len()?;
            if n > ARR_MAX {
                return None;
            }
            for _ in 0..n {
                skip_value(element, c)?;
            }
        }
    }
    Some(())
}

// ---- the codebook ----------------------------------------------------------------------

impl Codebook {
    /// A codebook of `entries` (ascending, distinct field ids; `Same` pointing at an earlier
    /// entry that is not itself `Same`).
    pub fn new(entries: Vec<Entry>) -> Codebook {
        let optional = entries.iter().filter(|e| !e.always).count();
        Codebook {
            entries,
            escapes: 0,
            optional,
        }
    }

    /// Its `ref` and `link` members' targets, each with how it stores them, to link at open
    /// (a record with a `ref` cannot be decoded before; a `link` then remembers nothing).
    pub fn refs(&self) -> impl Iterator<Item = (&Ref, Handles)> {
        self.entries.iter().filter_map(|e| match &e.class {
            Class::Ref(r) => Some((r, Handles::Ordinals)),
            Class::Link(r) => Some((r, Handles::Linked)),
            _ => None,
        })
    }

    /// True when the codebook has no members (records are then empty).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Encodes a v2 record (`RecordBuf::encode` bytes); members whose class does not
    /// reproduce them are stored verbatim and counted in the second value. None when the
    /// record has a member the codebook does not know or lacks an `always` one (the caller
    /// builds the codebook from every record, so this means a bug or a corrupt spool).
    pub fn encode(&self, rec: &[u8]) -> Option<(Vec<u8>, u64)> {
        ENCODE_SCRATCH.with(|s| self.encode_with(rec, &mut s.borrow_mut()))
    }

    fn encode_with(&self, rec: &[u8], s: &mut EncodeScratch) -> Option<(Vec<u8>, u64)> {
        let r = Record::new(rec);
        // Each entry's value as a range of `rec` (ranges, not slices, so the buffer outlives
        // the record and is reused: the build encodes every record once).
        let values = &mut s.values;
        values.clear();
        values.resize(self.entries.len(), None);
        let base = rec.as_ptr() as usize;
        let mut k = 0;
        for (id, v) in r.members() {
            while k < self.entries.len() && self.entries[k].field < id {
                k += 1;
            }
            if k == self.entries.len() || self.entries[k].field != id {
                return None;
            }
            let at = v.as_ptr() as usize - base;
            values[k] = Some((at, at + v.len()));
        }
        let value = |i: usize| values.get(i).copied().flatten().map(|(a, b)| &rec[a..b]);
        let mut out = vec![0u8; self.optional.div_ceil(8)];
        let mut bit = 0;
        let (escaped, body, one, check) = (&mut s.escaped, &mut s.body, &mut s.one, &mut s.check);
        escaped.clear();
        body.clear();
        for (i, e) in self.entries.iter().enumerate() {
            if !e.always {
                if values[i].is_some() {
                    out[bit / 8] |= 1 << (bit % 8);
                }
                bit += 1;
            } else if values[i].is_none() {
                return None;
            }
            let Some(v) = value(i) else { continue };
            one.clear();
            let fits = match &e.class {
                Class::Same(m) => value(*m) == Some(v),
                // A handle decodes to itself by construction (the key is stored, or the key
                // map found its ordinal and reads it back): no check, which for `ref` would
                // walk the map backwards once per handle of the build.
                class @ (Class::Ref(_) | Class::Link(_)) => encode_value(class, v, one).is_some(),
                // These store the bytes themselves (or an exact match of them): decoding gives
                // them back by construction (checking every value was ~15 % of the encoding).
                class @ (Class::Raw | Class::Const(_) | Class::Dict(_) | Class::Str) => {
                    encode_value(class, v, one).is_some()
                }
                class => {
                    check.clear();
                    encode_value(class, v, one).is_some()
                        && decode_value(class, &mut Cursor { b: one, at: 0 }, check).is_some()
                        && check.as_slice() == v
                }
            };
            if fits {
                body.extend_from_slice(one);
            } else {
                escaped.push(i);
                put_varint(body, v.len() as u64);
                body.extend_from_slice(v);
            }
        }
        put_varint(&mut out, escaped.len() as u64);
        let mut last = 0;
        for &i in escaped.iter() {
            put_varint(&mut out, (i - last) as u64);
            last = i;
        }
        out.extend_from_slice(body);
        Some((out, escaped.len() as u64))
    }

    /// Reads an encoded record's head: the presence bitmap and the escaped entries.
    fn head<'e>(&self, enc: &'e [u8]) -> Option<Head<'e>> {
        let mut c = Cursor { b: enc, at: 0 };
        let bitmap = c.take(self.optional.div_ceil(8))?;
        let n_esc = c.len()?;
        if n_esc > self.entries.len() {
            return None;
        }
        let mut escaped = Vec::with_capacity(n_esc);
        let mut last = 0usize;
        for _ in 0..n_esc {
            last = last.checked_add(c.len()?)?;
            escaped.push(last);
        }
        Some(Head { c, bitmap, escaped })
    }

    /// Decodes an encoded record into the v2 member encoding; None when corrupt.
    pub fn decode(&self, enc: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(enc.len() * 3);
        self.decode_into(enc, &mut out)?;
        Some(out)
    }

    /// Decodes an encoded record into the v2 member encoding (`Record`), replacing `out`'s
    /// contents: the layout is written in place (ids, then value ends filled in as each value
    /// is printed), so a reader reusing `out` allocates nothing per record. None when corrupt.
    pub fn decode_into(&self, enc: &[u8], out: &mut Vec<u8>) -> Option<()> {
        let Head {
            mut c,
            bitmap,
            escaped,
        } = self.head(enc)?;
        out.clear();
        // Decoded records run 3-5x their encoding: one allocation instead of a doubling chain.
        out.reserve(4 * enc.len() + 64);
        let present = |bit: &mut usize, e: &Entry| {
            e.always || {
                *bit += 1;
                bitmap[(*bit - 1) / 8] >> ((*bit - 1) % 8) & 1 == 1
            }
        };
        let mut bit = 0;
        let n = self.entries.iter().filter(|e| present(&mut bit, e)).count();
        out.extend_from_slice(&(n as u16).to_le_bytes());
        bit = 0;
        for e in &self.entries {
            if present(&mut bit, e) {
                out.extend_from_slice(&e.field.to_le_bytes());
            }
        }
        let ends = out.len();
        out.resize(ends + 4 * n, 0);
        let body = out.len();
        // The slot of each entry's value, for `Same` members (their source is earlier).
        let slot_end = |out: &Vec<u8>, k: usize| u32_le(out, ends + 4 * k) as usize;
        let (mut bit, mut k) = (0, 0);
        let mut esc = escaped.iter().peekable();
        for (i, e) in self.entries.iter().enumerate() {
            if !present(&mut bit, e) {
                if esc.peek() == Some(&&i) {
                    return None;
                }
                continue;
            }
            if esc.peek() == Some(&&i) {
                esc.next();
                out.extend_from_slice(c.bytes()?);
            } else if let Class::Same(m) = e.class {
                // The source's slot: the present entries before it.
                let mut b = 0;
                let before = self.entries[..m]
                    .iter()
                    .filter(|f| present(&mut b, f))
                    .count();
                let slot = present(&mut b, self.entries.get(m)?).then_some(before);
                let s = slot?;
                let from = body + if s == 0 { 0 } else { slot_end(out, s - 1) };
                let to = body + slot_end(out, s);
                out.extend_from_within(from..to);
            } else {
                decode_value(&e.class, &mut c, out)?;
            }
            let end = u32::try_from(out.len() - body).ok()?;
            out[ends + 4 * k..ends + 4 * k + 4].copy_from_slice(&end.to_le_bytes());
            k += 1;
        }
        if esc.next().is_some() || c.at != enc.len() {
            return None;
        }
        Some(())
    }

    /// The member names of object member `field` when every record stores it as an object
    /// (class `obj`), in the order [`Codebook::visit`] numbers them; None otherwise.
    pub fn inner_names(&self, field: u16) -> Option<Vec<&[u8]>> {
        let e = self.entries.iter().find(|e| e.field == field)?;
        match &e.class {
            Class::Obj(members) => Some(members.iter().map(|(n, _)| n.as_slice()).collect()),
            _ => None,
        }
    }

    /// One pass over an encoded record that decodes only what is asked: each present member
    /// whose id is in `top` (ascending) as [`Visited::Member`], and of the object member
    /// `inner.0` each non-null inner member `i` with `inner.1[i]` as [`Visited::Inner`]
    /// (numbered as [`Codebook::inner_names`]); the rest is skipped, not printed. The bytes
    /// are what [`Codebook::decode`] prints for them. None when corrupt, or when `inner`'s
    /// member cannot be read so (escaped, `same`, not an object): read the record whole then
    /// (callbacks may have run).
    pub fn visit(
        &self,
        enc: &[u8],
        top: &[u16],
        inner: Option<(u16, &[bool])>,
        scratch: &mut Vec<u8>,
        mut f: impl FnMut(Visited<'_>),
    ) -> Option<()> {
        let Head {
            mut c,
            bitmap,
            escaped,
        } = self.head(enc)?;
        // Sources of wanted `same` members (earlier entries): their bytes are kept.
        let sources: Vec<usize> = self
            .entries
            .iter()
            .filter(|e| top.binary_search(&e.field).is_ok())
            .filter_map(|e| match e.class {
                Class::Same(m) => Some(m),
                _ => None,
            })
            .collect();
        let mut kept: Vec<(usize, Vec<u8>)> = Vec::new();
        let mut bit = 0;
        let mut esc = escaped.iter().peekable();
        for (i, e) in self.entries.iter().enumerate() {
            let present = e.always || {
                bit += 1;
                bitmap[(bit - 1) / 8] >> ((bit - 1) % 8) & 1 == 1
            };
            let is_escaped = esc.peek() == Some(&&i);
            if !present {
                if is_escaped {
                    return None;
                }
                continue;
            }
            let wanted = top.binary_search(&e.field).is_ok();
            let within = inner.filter(|(field, _)| *field == e.field);
            let keep = sources.contains(&i);
            if is_escaped {
                esc.next();
                let v = c.bytes()?;
                if within.is_some() {
                    return None;
                }
                if keep {
                    kept.push((i, v.to_vec()));
                }
                if wanted {
                    f(Visited::Member(e.field, v));
                }
                continue;
            }
            match (&e.class, within) {
                (Class::Same(_), Some(_)) => return None,
                (Class::Same(m), None) if wanted => {
                    // Its source is earlier; an absent source makes the record corrupt.
                    let (_, v) = kept.iter().find(|(k, _)| k == m)?;
                    f(Visited::Member(e.field, v));
                }
                (Class::Same(_), None) => {}
                (Class::Obj(members), Some((_, want))) if !wanted => {
                    let nulls = c.take(members.len().div_ceil(8))?;
                    for (j, (_, class)) in members.iter().enumerate() {
                        if nulls[j / 8] >> (j % 8) & 1 == 1 {
                            continue;
                        }
                        if want.get(j) == Some(&true) {
                            scratch.clear();
                            decode_value(class, &mut c, scratch)?;
                            f(Visited::Inner(j, scratch));
                        } else {
                            skip_value(class, &mut c)?;
                        }
                    }
                }
                (_, Some(_)) => return None,
                (class, None) if wanted || keep => {
                    scratch.clear();
                    decode_value(class, &mut c, scratch)?;
                    if keep {
                        kept.push((i, scratch.clone()));
                    }
                    if wanted {
                        f(Visited::Member(e.field, scratch));
                    }
                }
                (class, None) => skip_value(class, &mut c)?,
            }
        }
        if esc.next().is_some() || c.at != enc.len() {
            return None;
        }
        Some(())
    }

    /// Places a cursor at member `field`'s value: None when the record lacks it or is
    /// corrupt. The value is read by `Place`'s class (`None` for an escaped, verbatim value).
    fn place<'e>(&'e self, enc: &'e [u8], field: u16) -> Option<(Cursor<'e>, Option<&'e Class>)> {
        let target = self
            .entries
            .binary_search_by_key(&field, |e| e.field)
            .ok()?;
        let Head {
            mut c,
            bitmap,
            escaped,
        } = self.head(enc)?;
        let is_present = |i: usize| {
            let e = &self.entries[i];
            e.always || {
                let before = self.entries[..i].iter().filter(|e| !e.always).count();
                bitmap[before / 8] >> (before % 8) & 1 == 1
            }
        };
        if !is_present(target) {
            return None;
        }
        // A `Same` member reads its source's value.
        let want = match self.entries[target].class {
            Class::Same(m) if !escaped.contains(&target) => m,
            _ => target,
        };
        let mut bit = 0;
        for (i, e) in self.entries.iter().enumerate().take(want + 1) {
            let present = e.always || {
                bit += 1;
                bitmap[(bit - 1) / 8] >> ((bit - 1) % 8) & 1 == 1
            };
            if !present {
                if i == want {
                    return None;
                }
                continue;
            }
            let is_escaped = escaped.contains(&i);
            if i == want {
                return Some((c, (!is_escaped).then_some(&e.class)));
            }
            if is_escaped {
                c.bytes()?;
            } else if !matches!(e.class, Class::Same(_)) {
                skip_value(&e.class, &mut c)?;
            }
        }
        None
    }

    /// Decodes member `field` of an encoded record alone (the others are skipped, not
    /// printed): None when the record lacks it or is corrupt. Agrees with [`Codebook::decode`]
    /// on every well-formed record; a corrupt one may give a member here that `decode`
    /// refuses (a reader never trusts either further than the member's bytes).
    pub fn decode_member(&self, enc: &[u8], field: u16) -> Option<Vec<u8>> {
        let (mut c, class) = self.place(enc, field)?;
        let mut out = Vec::new();
        match class {
            None => out.extend_from_slice(c.bytes()?),
            Some(class) => decode_value(class, &mut c, &mut out)?,
        }
        Some(out)
    }

    /// Member `name` of object member `field`, decoded alone (a filter on one number of a
    /// 35-member object prints that number only): its JSON bytes, `null` for a null member;
    /// None when absent or corrupt. Agrees with `json_scan::member` over
    /// [`Codebook::decode_member`]'s bytes.
    pub fn decode_inner(&self, enc: &[u8], field: u16, name: &[u8]) -> Option<Vec<u8>> {
        let (mut c, class) = self.place(enc, field)?;
        let Some(Class::Obj(members)) = class else {
            // Stored verbatim or in another class: print it and scan the text.
            let mut whole = Vec::new();
            match class {
                None => whole.extend_from_slice(c.bytes()?),
                Some(class) => decode_value(class, &mut c, &mut whole)?,
            }
            return crate::json_scan::member(&whole, name).map(<[u8]>::to_vec);
        };
        let nulls = c.take(members.len().div_ceil(8))?;
        for (i, (n, class)) in members.iter().enumerate() {
            let null = nulls[i / 8] >> (i % 8) & 1 == 1;
            if n.as_slice() == name {
                let mut out = Vec::new();
                if null {
                    out.extend_from_slice(b"null");
                } else {
                    decode_value(class, &mut c, &mut out)?;
                }
                return Some(out);
            }
            if !null {
                skip_value(class, &mut c)?;
            }
        }
        None
    }

    /// The codebook's bytes (section [`section`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&self.escapes.to_le_bytes());
        put_varint(&mut out, self.entries.len() as u64);
        for e in &self.entries {
            out.extend_from_slice(&e.field.to_le_bytes());
            out.push(e.always as u8);
            put_class(&mut out, &e.class);
        }
        out
    }

    /// Reads a codebook; None when malformed.
    pub fn from_bytes(b: &[u8]) -> Option<Codebook> {
        if b.get(..4)? != MAGIC {
            return None;
        }
        let escapes = u64::from_le_bytes(b.get(4..12)?.try_into().ok()?);
        let mut c = Cursor { b, at: 12 };
        let n = c.len()?;
        if n > MAX_ENTRIES.min(u16::MAX as usize + 1) {
            return None;
        }
        let mut entries: Vec<Entry> = Vec::with_capacity(n);
        for i in 0..n {
            let field = u16_at(c.take(2)?, 0);
            if entries.last().is_some_and(|l| l.field >= field) {
                return None;
            }
            let always = match c.byte()? {
                0 => false,
                1 => true,
                _ => return None,
            };
            let class = get_class(&mut c, 0)?;
            if let Class::Same(m) = class {
                if m >= i || matches!(entries[m].class, Class::Same(_)) {
                    return None;
                }
            }
            entries.push(Entry {
                field,
                always,
                class,
            });
        }
        if c.at != b.len() {
            return None;
        }
        let mut cb = Codebook::new(entries);
        cb.escapes = escapes;
        Some(cb)
    }
}

fn put_class(out: &mut Vec<u8>, class: &Class) {
    out.push(class.tag());
    match class {
        Class::Const(v) => {
            put_varint(out, v.len() as u64);
            out.extend_from_slice(v);
        }
        Class::Dict(d) => {
            put_varint(out, d.values.len() as u64);
            for v in &d.values {
                put_varint(out, v.len() as u64);
                out.extend_from_slice(v);
            }
        }
        Class::Same(m) => put_varint(out, *m as u64),
        Class::Obj(members) => {
            put_varint(out, members.len() as u64);
            for (name, class) in members {
                put_varint(out, name.len() as u64);
                out.extend_from_slice(name);
                put_class(out, class);
            }
        }
        Class::Arr(element) => put_class(out, element),
        Class::Ref(r) | Class::Link(r) => {
            put_varint(out, r.target.len() as u64);
            out.extend_from_slice(r.target.as_bytes());
        }
        Class::Raw | Class::Int | Class::Float | Class::Str => {}
    }
}

/// Reads a class at `depth`: 0 a record member (every class), 1 an array's element (no
/// `Same`, no `Arr`), 2 an object's member (no `Same`, `Obj` or `Arr`).
fn get_class(c: &mut Cursor<'_>, depth: u8) -> Option<Class> {
    Some(match c.byte()? {
        0 => Class::Raw,
        1 => Class::Const(c.bytes()?.to_vec()),
        2 => {
            let n = c.len()?;
            if n > MAX_ENTRIES || n > c.b.len() {
                return None;
            }
            Class::Dict(Dict::new(
                (0..n)
                    .map(|_| c.bytes().map(<[u8]>::to_vec))
                    .collect::<Option<_>>()?,
            ))
        }
        3 if depth == 0 => Class::Same(c.len()?),
        4 => Class::Int,
        5 => Class::Float,
        6 => Class::Str,
        7 if depth < 2 => {
            let n = c.len()?;
            if n > OBJ_MAX {
                return None;
            }
            let mut members = Vec::with_capacity(n);
            for _ in 0..n {
                let name = c.bytes()?.to_vec();
                members.push((name, get_class(c, 2)?));
            }
            Class::Obj(members)
        }
        8 if depth == 0 => Class::Arr(Box::new(get_class(c, 1)?)),
        9 if depth == 0 => Class::Ref(Ref::new(String::from_utf8(c.bytes()?.to_vec()).ok()?)),
        10 if depth == 0 => Class::Link(Ref::new(String::from_utf8(c.bytes()?.to_vec()).ok()?)),
        _ => return None,
    })
}

// ---- choosing classes ------------------------------------------------------------------

/// What the build has seen of one member's values (memory bounded: [`DICT_BYTES`]).
#[derive(Default)]
struct ValueStats {
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
                return Class::Obj(
                    shape
                        .iter()
                        .zip(&self.members)
                        .map(|(n, s)| (n.clone(), s.class(refs)))
                        .collect(),
                );
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

struct FieldStats {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::RecordBuf;

    /// The chooser that has seen `recs`.
    fn chooser(recs: &[Vec<u8>]) -> Chooser {
        let mut ch = Chooser::new();
        recs.iter().for_each(|r| ch.add(r));
        ch
    }

    fn rec(members: &[(u16, &str)]) -> Vec<u8> {
        let mut rb = RecordBuf::new();
        for (id, v) in members {
            rb.set(*id, v.as_bytes().to_vec());
        }
        rb.encode()
    }

    #[test]
    fn test_decimal_round_trips_serde_json_floats() {
        for x in [
            -0.0,
            0.5,
            1.0,
            19.60163407050492,
            1e-7,
            1.5e100,
            1e16,
            -2.25e-12,
            123456.0,
        ] {
            let text = serde_json::to_vec(&x).unwrap();
            let (neg, m, e) = decimal(&text).unwrap();
            let mut out = Vec::new();
            write_number(&mut out, neg, m, e).unwrap();
            assert_eq!(out, text, "{x}");
        }
        // Any f64 serde_json prints whose exponent fits: xorshift over bit patterns and over
        // values of a few magnitudes.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = match i % 3 {
                0 => f64::from_bits(state),
                1 => (state >> 11) as f64 / (1u64 << 53) as f64,
                _ => (state >> 11) as f64 * 10f64.powi((state % 40) as i32 - 20) / 1e16,
            };
            if !x.is_finite() {
                continue;
            }
            let text = serde_json::to_vec(&x).unwrap();
            let Some((neg, m, e)) = decimal(&text) else {
                continue;
            };
            let mut out = Vec::new();
            write_number(&mut out, neg, m, e).unwrap();
            assert_eq!(out, text, "{x:e}");
        }
        // Exponents beyond a byte do not fit the class (the member is escaped).
        assert_eq!(decimal(b"1.5e+300"), None);
        assert_eq!(decimal(b"5e-324"), None);
    }

    #[test]
    fn test_chooser_picks_classes_and_round_trips() {
        let recs: Vec<Vec<u8>> = (0..64)
            .map(|i| {
                let key = format!("\"k{i}\"");
                let obj = if i % 3 == 0 {
                    format!("{{\"a\":null,\"b\":\"x{}\"}}", i % 2)
                } else {
                    format!("{{\"a\":{}.5,\"b\":\"y\"}}", i)
                };
                rec(&[
                    (0, &key),
                    (1, "\"SPDI\""),
                    (2, &format!("\"src{}\"", i % 4)),
                    (3, &key),
                    (4, &i.to_string()),
                    (5, &obj),
                ])
            })
            .collect();
        let cb = chooser(&recs).codebook();
        let names: Vec<&str> = cb.entries.iter().map(|e| e.class.name()).collect();
        assert_eq!(names, ["str", "const", "dict", "same", "int", "obj"]);
        let cb = Codebook::from_bytes(&cb.to_bytes()).unwrap();
        for r in &recs {
            let (enc, esc) = cb.encode(r).unwrap();
            assert_eq!(esc, 0);
            assert!(enc.len() < r.len() / 2, "{} of {}", enc.len(), r.len());
            assert_eq!(cb.decode(&enc).unwrap(), *r);
        }
        // A value its class cannot hold is escaped, and still round trips.
        let odd = rec(&[
            (0, "[1]"),
            (1, "\"other\""),
            (2, "\"src9\""),
            (3, "\"z\""),
            (4, "1.5"),
            (5, "{}"),
        ]);
        let (enc, esc) = cb.encode(&odd).unwrap();
        assert_eq!(esc, 6);
        assert_eq!(cb.decode(&enc).unwrap(), odd);
    }

    #[test]
    fn test_visit_reads_what_decode_prints() {
        let recs: Vec<Vec<u8>> = (0..64)
            .map(|i| {
                let key = format!("\"k{i}\"");
                let obj = match i % 3 {
                    0 => format!("{{\"a\":null,\"b\":\"x{}\",\"c\":[{i}]}}", i % 2),
                    _ => format!("{{\"a\":{i}.5,\"b\":\"y\",\"c\":[]}}"),
                };
                rec(&[
                    (0, &key),
                    (2, &format!("\"s{}\"", i % 4)),
                    (3, &key),
                    (5, &obj),
                ])
            })
            .collect();
        let cb = chooser(&recs).codebook();
        assert_eq!(cb.inner_names(5), Some(vec![&b"a"[..], b"b", b"c"]));
        assert_eq!(cb.inner_names(0), None);
        let mut scratch = Vec::new();
        for r in &recs {
            let (enc, _) = cb.encode(r).unwrap();
            let whole = crate::records::Record::new(r);
            let mut got = Vec::new();
            let want = [true, false, true];
            cb.visit(&enc, &[0, 2], Some((5, &want)), &mut scratch, |v| {
                got.push(match v {
                    Visited::Member(f, b) => (format!("{f}"), b.to_vec()),
                    Visited::Inner(i, b) => (format!("5.{i}"), b.to_vec()),
                })
            })
            .unwrap();
            let obj = whole.get(5).unwrap();
            let mut expect = vec![
                ("0".to_string(), whole.get(0).unwrap().to_vec()),
                ("2".to_string(), whole.get(2).unwrap().to_vec()),
            ];
            for (i, name) in [(0, "a"), (2, "c")] {
                let v = crate::json_scan::member(obj, name.as_bytes()).unwrap();
                if v != b"null" {
                    expect.push((format!("5.{i}"), v.to_vec()));
                }
            }
            assert_eq!(got, expect);
            // A `same` member reads its source's bytes.
            let mut same = Vec::new();
            cb.visit(&enc, &[3], None, &mut scratch, |v| {
                same.push(format!("{v:?}"))
            })
            .unwrap();
            let want = Visited::Member(3, whole.get(3).unwrap());
            assert_eq!(same, [format!("{want:?}")]);
        }
        // An object stored verbatim (escaped) is refused: the caller reads the record whole.
        let odd = rec(&[(0, "\"z\""), (2, "\"s1\""), (3, "\"z\""), (5, "[1]")]);
        let (enc, esc) = cb.encode(&odd).unwrap();
        assert!(esc > 0);
        let want = [true; 3];
        assert!(cb
            .visit(&enc, &[0], Some((5, &want)), &mut scratch, |_| {})
            .is_none());
        let mut top = Vec::new();
        cb.visit(&enc, &[0], None, &mut scratch, |v| {
            top.push(format!("{v:?}"))
        })
        .unwrap();
        assert_eq!(top.len(), 1);
    }

    #[test]
    fn test_arrays_of_objects_get_an_element_class() {
        // A coding variant's scores: arrays of one object shape, empty ones among them.
        let recs: Vec<Vec<u8>> = (0..64)
            .map(|i| {
                let scores: Vec<String> = (0..i % 4)
                    .map(|k| format!("{{\"method\":\"m{}\",\"score\":{}.5}}", k % 2, i * k))
                    .collect();
                rec(&[
                    (0, &format!("[{}]", scores.join(","))),
                    (1, &format!("[\"rs{i}\"]")),
                ])
            })
            .collect();
        let cb = Codebook::from_bytes(&chooser(&recs).codebook().to_bytes()).unwrap();
        let want = Class::Arr(Box::new(Class::Obj(vec![
            (
                b"method".to_vec(),
                Class::Dict(Dict::new(vec![b"\"m0\"".to_vec(), b"\"m1\"".to_vec()])),
            ),
            (b"score".to_vec(), Class::Float),
        ])));
        assert_eq!(cb.entries[0].class, want);
        assert_eq!(cb.entries[1].class, Class::Arr(Box::new(Class::Str)));
        for r in &recs {
            let (enc, esc) = cb.encode(r).unwrap();
            assert_eq!(esc, 0);
            assert_eq!(cb.decode(&enc).unwrap(), *r);
        }
        // Another shape, a null element, white space: escaped, still exact.
        let odd = [
            "[{\"x\":1}]",
            "[null]",
            "[ {\"method\":\"m0\",\"score\":1.5}]",
        ];
        assert_one_escape(&cb, odd.map(|o| rec(&[(0, o), (1, "[]")])));
        // A corrupt count is refused, not printed without end.
        let mut bad = Vec::new();
        put_varint(&mut bad, (ARR_MAX + 1) as u64);
        assert!(decode_value(
            &Class::Arr(Box::new(Class::Const(b"1".to_vec()))),
            &mut Cursor { b: &bad, at: 0 },
            &mut Vec::new()
        )
        .is_none());
    }

    /// Each record encodes with exactly one member escaped, and decodes to itself.
    fn assert_one_escape(cb: &Codebook, recs: impl IntoIterator<Item = Vec<u8>>) {
        for r in recs {
            let (enc, esc) = cb.encode(&r).unwrap();
            assert_eq!(esc, 1, "{}", String::from_utf8_lossy(&r));
            assert_eq!(cb.decode(&enc).unwrap(), r);
        }
    }

    /// A key map of `keys` (sorted, distinct) valued by rank, as the indexer builds one.
    fn ranked(keys: &[&str]) -> KeyLookup {
        mapped(keys, |i| i)
    }

    /// A key map of `keys` (sorted, distinct), the `i`-th valued `ord(i)`.
    fn mapped(keys: &[&str], ord: impl Fn(u64) -> u64) -> KeyLookup {
        let pairs = keys.iter().enumerate().map(|(i, k)| (k, ord(i as u64)));
        KeyLookup::in_memory(pairs, crate::keys::KeyEncoding::Text).unwrap()
    }

    /// 200 variant keys and records whose two members are handles of them (too many for a
    /// dictionary): the first ends in order, the second scattered.
    fn handle_records() -> (Vec<String>, Vec<Vec<u8>>) {
        let keys: Vec<String> = (0..200).map(|i| format!("1:{:04}:A:G", 100 + i)).collect();
        let recs = (0..200)
            .map(|i| {
                let (a, b) = (&keys[i], &keys[(i * 7) % 200]);
                rec(&[
                    (0, &format!("\"variants/{a}\"")),
                    (1, &format!("\"variants/{b}\"")),
                ])
            })
            .collect();
        (keys, recs)
    }

    /// A dangling handle, another collection's, an escaped one: stored verbatim.
    fn assert_odd_handles_escaped(cb: &Codebook) {
        let odd = [
            "\"variants/9:9:A:C\"",
            "\"genes/1:0100:A:G\"",
            "\"variants/1:0100:A:\\u0047\"",
        ];
        assert_one_escape(
            cb,
            odd.map(|o| rec(&[(0, o), (1, "\"variants/1:0150:A:G\"")])),
        );
    }

    #[test]
    fn test_handles_of_a_linked_collection_are_stored_as_ordinals() {
        let (owned, recs) = handle_records();
        let keys: Vec<&str> = owned.iter().map(String::as_str).collect();
        let lookup = ranked(&keys);
        let ch = chooser(&recs);
        // Without the target's key map handles stay strings.
        assert_eq!(ch.codebook().entries[0].class, Class::Str);
        let refs = |t: &str| (t == "variants").then(|| (lookup.clone(), Handles::Ordinals));
        let cb = ch.codebook_with_refs(&refs);
        assert_eq!(cb.entries[0].class, Class::Ref(Ref::new("variants".into())));
        for r in &recs {
            let (enc, esc) = cb.encode(r).unwrap();
            assert!(
                esc == 0 && enc.len() <= 5,
                "no escapes (1 byte), two ordinals of 1-2 bytes"
            );
            assert_eq!(cb.decode(&enc).unwrap(), *r);
        }
        assert_odd_handles_escaped(&cb);
        // Read back from its bytes, the codebook cannot decode until linked.
        let read = Codebook::from_bytes(&cb.to_bytes()).unwrap();
        let (enc, _) = cb.encode(&recs[0]).unwrap();
        assert_eq!(read.decode(&enc), None);
        let targets: Vec<(&str, Handles)> =
            read.refs().map(|(r, h)| (r.target.as_str(), h)).collect();
        assert_eq!(targets, [("variants", Handles::Ordinals); 2]);
        read.refs().for_each(|(r, _)| r.link(lookup.clone(), 7));
        assert_eq!(read.decode(&enc).unwrap(), recs[0]);
        // The decoded references are remembered for joins, under the target's identity only.
        let key = keys[0].as_bytes();
        assert_eq!(remembered(7, key), Some(0));
        assert_eq!(remembered(8, key), None);
        // Names are remembered per target too: the same ordinals in another key map (store
        // 8) print that map's keys, alternately with the first, again and again.
        let other: Vec<String> = owned.iter().map(|k| format!("z{k}")).collect();
        let read2 = Codebook::from_bytes(&cb.to_bytes()).unwrap();
        let other_keys: Vec<&str> = other.iter().map(String::as_str).collect();
        read2
            .refs()
            .for_each(|(r, _)| r.link(ranked(&other_keys), 8));
        let handle = format!("\"variants/{}\"", other[0]);
        let want = rec(&[(0, &handle), (1, &handle)]);
        for _ in 0..3 {
            assert_eq!(read2.decode(&enc).unwrap(), want);
            assert_eq!(read.decode(&enc).unwrap(), recs[0]);
        }
        assert_eq!(remembered(8, other[0].as_bytes()), Some(0));
        // An ordinal past the target's end is corrupt, not a wrong key.
        let mut bad = enc.clone();
        let n = bad.len();
        bad[n - 2..].copy_from_slice(&[0xff, 0x7f]);
        assert_eq!(read.decode(&bad), None);
    }

    #[test]
    fn test_linked_handles_keep_their_key_beside_the_ordinal() {
        let (owned, recs) = handle_records();
        // The target need not be in key order: the ordinal comes from its map, forwards.
        let keys: Vec<&str> = owned.iter().map(String::as_str).collect();
        let lookup = mapped(&keys, |i| 199 - i);
        let refs = |t: &str| (t == "variants").then(|| (lookup.clone(), Handles::Linked));
        let cb = chooser(&recs).codebook_with_refs(&refs);
        assert_eq!(
            cb.entries[0].class,
            Class::Link(Ref::new("variants".into()))
        );
        for r in &recs {
            let (enc, esc) = cb.encode(r).unwrap();
            assert!(
                esc == 0 && enc.len() <= 1 + 2 * (2 + 1 + 10),
                "{}",
                enc.len()
            );
            assert_eq!(cb.decode(&enc).unwrap(), *r);
        }
        assert_odd_handles_escaped(&cb);
        // Read back and not linked (its target absent), a record still decodes, and nothing
        // is remembered.
        let read = Codebook::from_bytes(&cb.to_bytes()).unwrap();
        let (enc, _) = cb.encode(&recs[3]).unwrap();
        let key = owned[3].as_bytes();
        assert_eq!(read.decode(&enc).unwrap(), recs[3]);
        assert_eq!(remembered(9, key), None);
        let targets: Vec<(&str, Handles)> =
            read.refs().map(|(r, h)| (r.target.as_str(), h)).collect();
        assert_eq!(targets, [("variants", Handles::Linked); 2]);
        // Linked, a decode remembers each handle's stored ordinal for the join that follows.
        read.refs().for_each(|(r, _)| r.link(lookup.clone(), 9));
        assert_eq!(read.decode(&enc).unwrap(), recs[3]);
        assert_eq!(remembered(9, key), Some(196));
        // An ordinal past the target's end is corrupt.
        let mut bad = enc.clone();
        bad[1] = 0xff;
        bad.insert(2, 0x7f);
        assert_eq!(read.decode(&bad), None);
        // The one-pass read skips and decodes the class like any other.
        let mut seen = Vec::new();
        read.visit(&enc, &[1], None, &mut Vec::new(), |v| {
            if let Visited::Member(f, b) = v {
                seen.push((f, b.to_vec()));
            }
        })
        .unwrap();
        assert_eq!(
            seen,
            [(1, format!("\"variants/{}\"", owned[21]).into_bytes())]
        );
    }
}
