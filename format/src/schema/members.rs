//! How a collection's vocabulary is declared: its name and kept members, each spelled once.

/// Declares a collection's module: its `NAME`, one `&str` constant per kept member named as the
/// member is (`genes::chr` is `"chr"`; keywords take `r#`: `genes_structure::r#type` is
/// `"type"`), and `FIELDS`, the kept members with their normalisation in field-id order.
/// `coll = other` declares a collection with the members of `other`.
macro_rules! collection {
    ($(#[$doc:meta])* $coll:ident { $($member:ident: $ty:ident),* $(,)? }) => {
        #[doc = concat!("The `", stringify!($coll), "` collection: its name and kept members.")]
        $(#[$doc])*
        #[allow(non_upper_case_globals)]
        pub mod $coll {
            use $crate::schema::{Field, Ty};

            /// The collection's name.
            pub const NAME: &str = stringify!($coll);
            $(
                #[doc = concat!("Member `", stringify!($member), "`.")]
                pub const $member: &str = $crate::schema::members::unraw(stringify!($member));
            )*
            /// The kept members with their normalisation, in field-id order.
            pub const FIELDS: &[Field] = &[$(Field { name: $member, ty: Ty::$ty }),*];
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
