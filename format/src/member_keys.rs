//! What a JSON object prints before each of its members' values, for objects whose members
//! are known before any is printed (a codebook's `obj` class, a response shape): made once,
//! then copied in one piece per member instead of a comma, a quote, the name and `":` each.

/// The text before each member's value: `{"name":` for the first, `,"name":` for the others.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemberKeys(Vec<Box<[u8]>>);

impl MemberKeys {
    /// The keys of an object with members `names` in this order (printed as given: JSON
    /// string content, already escaped).
    pub fn new<'n>(names: impl IntoIterator<Item = &'n [u8]>) -> MemberKeys {
        MemberKeys(
            names
                .into_iter()
                .enumerate()
                .map(|(i, name)| {
                    let lead: &[u8] = if i == 0 { b"{\"" } else { b",\"" };
                    [lead, name, b"\":"].concat().into_boxed_slice()
                })
                .collect(),
        )
    }

    /// What comes before member `i`'s value (opening the object for the first).
    #[inline]
    pub fn key(&self, i: usize) -> &[u8] {
        &self.0[i]
    }

    /// Ends the object after its last member's value: `}`, or `{}` for an object of none
    /// (no key opened it).
    #[inline]
    pub fn close(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if self.0.is_empty() { b"{}" } else { b"}" });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_keys_and_close_print_the_object() {
        let keys = MemberKeys::new([&b"a"[..], b"b_c", b"x\\\"y"]);
        let mut out = Vec::new();
        for (i, v) in ["1", "null", "\"z\""].iter().enumerate() {
            out.extend_from_slice(keys.key(i));
            out.extend_from_slice(v.as_bytes());
        }
        keys.close(&mut out);
        assert_eq!(out, br#"{"a":1,"b_c":null,"x\"y":"z"}"#);
        let mut none = Vec::new();
        MemberKeys::new([]).close(&mut none);
        assert_eq!(none, b"{}");
    }
}
