//! The record codebook: per collection, a class for each member (stored once, decoded at
//! open) so that a record stores only what varies, compactly (FORMAT.md "Record codebook").
//!
//! The record store hands out records in the v2 member encoding ([`crate::record::Record`]):
//! [`Codebook::decode`] turns an encoded record back into it, and [`Codebook::encode`] checks
//! that it does, member by member, storing a member whose round trip differs verbatim (an
//! escape). Byte identity therefore holds by construction whatever the classes chosen.

mod choose;
mod decode;
mod encode;
mod refs;
#[cfg(test)]
mod tests;
mod value;
mod wire;

use std::sync::OnceLock;

use crate::member_keys::MemberKeys;
use crate::namemap::FastMap;
pub use crate::schema::Handles;
pub use choose::Chooser;
pub(crate) use refs::remember;
pub use refs::{remembered, Ref};

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
    Obj(Obj),
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

/// A member [`Codebook::visit`] decoded: a top-level member (its id), or an inner member of
/// the visited object (its index), with its JSON bytes.
#[derive(Debug, PartialEq)]
pub enum Visited<'a> {
    /// Member `.0`'s bytes.
    Member(u16, &'a [u8]),
    /// Inner member `.0`'s bytes.
    Inner(usize, &'a [u8]),
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

/// The members of an `obj` class: (name, class) in stored order, read as a slice.
#[derive(Clone, Debug, PartialEq)]
pub struct Obj {
    members: Vec<(Vec<u8>, Class)>,
    /// What decoding prints before each member's value, made once here.
    keys: MemberKeys,
}

impl Obj {
    /// The class of objects with `members` (names as they are printed, escaped).
    pub fn new(members: Vec<(Vec<u8>, Class)>) -> Obj {
        let keys = MemberKeys::new(members.iter().map(|(name, _)| name.as_slice()));
        Obj { members, keys }
    }
}

impl std::ops::Deref for Obj {
    type Target = [(Vec<u8>, Class)];

    fn deref(&self) -> &Self::Target {
        &self.members
    }
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
    /// Per entry, how [`Codebook::place`] passes it, computed (see [`Step`]).
    steps: Vec<Step>,
}

/// How a reader looking for a later member passes an entry: its presence bit and what its
/// value occupies, worked out once from the entry so that the walk does no counting and
/// calls nothing for the one-value classes.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Step {
    /// Its bit in the presence bitmap; [`ALWAYS`] for a member every record has.
    bit: u32,
    skip: Skip,
}

/// A [`Step`]'s bit for a member without one.
const ALWAYS: u32 = u32::MAX;

/// What an entry's value occupies in an encoded record.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Skip {
    /// Nothing (`const`, `same`).
    Nothing,
    /// A varint (`dict`, `int`, `ref`).
    Varint,
    /// A varint length and that many bytes (`raw`, `str`).
    Bytes,
    /// A varint and a byte (`float`).
    Float,
    /// More (`obj`, `arr`, `link`): [`value::skip_value`].
    Walk,
}

impl Step {
    /// Whether its member is in a record whose presence bitmap is `bitmap` (the head's, of
    /// `optional` bits: every bit numbered here is inside it).
    fn present(&self, bitmap: &[u8]) -> bool {
        self.bit == ALWAYS || bitmap[self.bit as usize / 8] >> (self.bit % 8) & 1 == 1
    }

    /// The steps of `entries`: presence bits numbered in entry order, skipping the members
    /// every record has (the one numbering the encoder and every reader use).
    fn plan(entries: &[Entry]) -> Vec<Step> {
        let mut bit = 0;
        entries
            .iter()
            .map(|e| Step {
                bit: if e.always {
                    ALWAYS
                } else {
                    bit += 1;
                    bit - 1
                },
                skip: match e.class {
                    Class::Const(_) | Class::Same(_) => Skip::Nothing,
                    Class::Dict(_) | Class::Int | Class::Ref(_) => Skip::Varint,
                    Class::Raw | Class::Str => Skip::Bytes,
                    Class::Float => Skip::Float,
                    Class::Obj(_) | Class::Arr(_) | Class::Link(_) => Skip::Walk,
                },
            })
            .collect()
    }
}

// ---- the codebook ----------------------------------------------------------------------

impl Codebook {
    /// A codebook of `entries` (ascending, distinct field ids; `Same` pointing at an earlier
    /// entry that is not itself `Same`).
    pub fn new(entries: Vec<Entry>) -> Codebook {
        let optional = entries.iter().filter(|e| !e.always).count();
        Codebook {
            steps: Step::plan(&entries),
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
}
