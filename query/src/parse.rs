//! Parsers of single parameter values (one place per rule). Each is a pure function of a
//! string, never panics, and is a fuzz target. A value with a shape is a small type (`FromStr`
//! and a `Display` that parses back to it) whose error says what was expected, in the words
//! of the 400 answer (the caller puts the parameter's name in front).

/// An identifier type held as given once `$valid` accepts it, with its error type (the text
/// refused, shown after `$expected`).
macro_rules! checked_id {
    ($(#[$doc:meta])* $name:ident, $(#[$edoc:meta])* $err:ident, $valid:expr, $expected:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct $name(String);

        impl $name {
            /// The identifier as given.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::str::FromStr for $name {
            type Err = $err;

            fn from_str(s: &str) -> Result<$name, $err> {
                if $valid(s) {
                    Ok($name(s.to_string()))
                } else {
                    Err($err { got: s.to_string() })
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        $(#[$edoc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $err {
            got: String,
        }

        impl std::fmt::Display for $err {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($expected, ", got \"{}\""), self.got)
            }
        }

        impl std::error::Error for $err {}
    };
}

pub mod ident;
pub mod number;
pub mod region;
pub mod threshold;
pub mod variant;
