//! How a collection's vocabulary is declared: its name and kept members, each spelled once, as
//! names (`&str`, what the spec tables are written with) and as typed handles ([`Coll`],
//! [`Member`], what readers name collections and members by: only this crate makes them, so a
//! handle names a declared collection or a kept member of one).

/// Declares a collection's module: its `NAME`, one `&str` constant per kept member named as the
/// member is (`genes::chr` is `"chr"`; keywords take `r#`: `genes_structure::r#type` is
/// `"type"`), and `FIELDS`, the kept members with their normalisation in field-id order; and
/// the same as handles: `COLL` and, in module `m`, one [`Member`] per kept member
/// (`genes::m::chr`). `coll = other` declares a collection with the members of `other`: its
/// `m` is `other`'s (a member handle fits both).
macro_rules! collection {
    ($(#[$doc:meta])* $coll:ident { $($member:ident: $ty:ident),* $(,)? }) => {
        #[doc = concat!("The `", stringify!($coll), "` collection: its name and kept members.")]
        $(#[$doc])*
        #[allow(non_upper_case_globals)]
        pub mod $coll {
            use $crate::schema::{Field, Ty};

            /// The collection's name.
            pub const NAME: &str = stringify!($coll);
            /// The collection's handle.
            pub const COLL: $crate::schema::Coll = $crate::schema::Coll::new(NAME, NAME);
            $(
                #[doc = concat!("Member `", stringify!($member), "`.")]
                pub const $member: &str = $crate::schema::members::unraw(stringify!($member));
            )*
            /// The kept members with their normalisation, in field-id order.
            pub const FIELDS: &[Field] = &[$(Field { name: $member, ty: Ty::$ty }),*];

            /// The kept members as handles.
            pub mod m {
                use $crate::schema::Member;
                $(
                    #[doc = concat!("Member `", stringify!($member), "`.")]
                    pub const $member: Member = Member::new(super::NAME, super::$member);
                )*
            }
        }
    };
    ($(#[$doc:meta])* $coll:ident = $like:ident) => {
        #[doc = concat!(
            "The `", stringify!($coll), "` collection: the members of [`", stringify!($like), "`](super::", stringify!($like), ")."
        )]
        $(#[$doc])*
        pub mod $coll {
            pub use super::$like::*;

            /// The collection's name.
            pub const NAME: &str = stringify!($coll);
            /// The collection's handle (its members' handles are those of the collection it
            /// copies).
            pub const COLL: $crate::schema::Coll =
                $crate::schema::Coll::new(NAME, super::$like::NAME);
        }
    };
}

/// A member's name from its identifier: `r#type` is `type`.
pub(crate) const fn unraw(ident: &'static str) -> &'static str {
    match ident.as_bytes() {
        [b'r', b'#', ..] => ident.split_at(2).1,
        _ => ident,
    }
}

/// A collection the schema declares, as readers name it: made only by [`collection!`] (each
/// collection's `COLL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coll {
    name: &'static str,
    members_of: &'static str,
}

impl Coll {
    pub(crate) const fn new(name: &'static str, members_of: &'static str) -> Coll {
        Coll { name, members_of }
    }

    /// The collection's name.
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// The collection whose members it has: itself, or the one it copies (`mm_genes`: `genes`).
    pub const fn members_of(self) -> &'static str {
        self.members_of
    }

    /// Whether `m` is one of its members.
    pub const fn has(self, m: Member) -> bool {
        eq(self.members_of, m.of)
    }

    /// Whether it has the members of `other` (`genes` and `mm_genes`).
    pub const fn shares_members(self, other: Coll) -> bool {
        eq(self.members_of, other.members_of)
    }
}

/// A kept member of a collection (and of the collections that copy it), as readers name it:
/// made only by [`collection!`] (each collection's `m::<member>`) and for the members of object
/// members the schema indexes ([`variant_annotations`](super::variant_annotations)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    of: &'static str,
    name: &'static str,
}

impl Member {
    pub(crate) const fn new(of: &'static str, name: &'static str) -> Member {
        Member { of, name }
    }

    /// The member's name (`a.b` for member `b` of object member `a`).
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// The collection declaring it (see [`Coll::members_of`]).
    pub const fn of(self) -> &'static str {
        self.of
    }
}

/// `a == b`, in const context.
pub(super) const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
