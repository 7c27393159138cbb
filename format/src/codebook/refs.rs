//! `ref` and `link` members: handles of another collection's records, stored as its
//! ordinals, and the per-thread memos that spare a join the target's key map.

use std::sync::OnceLock;

use crate::keylookup::KeyLookup;

/// A `ref` member's target collection and, once linked, its key map and its identity (its
/// record store's id: the memo of decoded references is keyed by it).
#[derive(Clone, Default)]
pub struct Ref {
    /// The target collection's name.
    pub target: String,
    pub(super) lookup: OnceLock<(KeyLookup, u64)>,
}

/// Slots of the per-thread memo of decoded references (a power of two).
pub(super) const MEMO_SLOTS: usize = 256;

thread_local! {
    /// (target id, key) → ordinal of the references this thread decoded last: a join that
    /// resolves a handle just printed from a `ref` reads the ordinal the record stored instead
    /// of walking the target's key map again (an LD row resolves each of its two ends three
    /// times or more).
    static REF_MEMO: std::cell::RefCell<Vec<Option<MemoEntry>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A remembered reference: (target id, key, ordinal).
pub(super) type MemoEntry = (u64, Vec<u8>, u64);

pub(super) fn memo_slot(target: u64, key: &[u8]) -> usize {
    let mut h = crate::namemap::NameHasher::default();
    std::hash::Hasher::write_u64(&mut h, target);
    std::hash::Hasher::write(&mut h, key);
    std::hash::Hasher::finish(&h) as usize & (MEMO_SLOTS - 1)
}

pub(crate) fn remember(target: u64, key: &[u8], ord: u64) {
    if target == UNREMEMBERED {
        return;
    }
    REF_MEMO.with(|m| memo_put(m, memo_slot(target, key), (target, key, ord)));
}

/// Fills slot `slot` of a memo (made on first use), reusing the key buffer it held.
pub(super) fn memo_put(
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
pub(super) const UNREMEMBERED: u64 = u64::MAX;

thread_local! {
    /// (target id, ordinal) → key of the `ref`s this thread decoded last: a page of LD rows
    /// names its anchor variant in every row, each a walk of the key map backwards before.
    static KEY_MEMO: std::cell::RefCell<Vec<Option<MemoEntry>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

pub(super) fn key_slot(target: u64, ord: u64) -> usize {
    (ord ^ target.rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) as usize >> 8
        & (MEMO_SLOTS - 1)
}

/// Prints `target/key` of the `ref` to ordinal `ord` of the collection with id `id`: from the
/// thread's memo of names, else by a walk of its key map (then remembered both ways).
pub(super) fn print_ref(
    out: &mut Vec<u8>,
    target: &str,
    lookup: &KeyLookup,
    id: u64,
    ord: u64,
) -> Option<()> {
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
pub(super) fn print_handle(out: &mut Vec<u8>, target: &str, key: &[u8]) {
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

/// The key of handle `v` (JSON `"<target>/<key>"`) of `r`'s target. Plain handles only: one
/// with an escape in its text is stored verbatim.
pub(super) fn handle_key<'v>(r: &Ref, v: &'v [u8]) -> Option<&'v [u8]> {
    let text = v.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let key = text.strip_prefix(r.target.as_bytes())?.strip_prefix(b"/")?;
    (!key.iter().any(|&b| b == b'\\' || b == b'"')).then_some(key)
}
