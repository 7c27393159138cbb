//! What a JSON object prints before each of its members' values, for objects whose members
//! are known before any is printed (a codebook's `obj` class, a response shape): made once,
//! then copied in one piece per member instead of a comma, a quote, the name and `":` each.

/// Bytes a short key is kept in, padded: copying a fixed length is a few vector moves the
/// compiler writes in place, where a key's own length is a call to `memcpy` (most keys are
/// short, and a region page prints about 1,700 of them).
const PAD: usize = 32;

/// The text before each member's value: `{"name":` for the first, `,"name":` for the others.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemberKeys(Vec<Key>);

#[derive(Clone, Debug, PartialEq)]
enum Key {
    /// A key of `.1` bytes, zero-padded to [`PAD`].
    Short([u8; PAD], u8),
    Long(Box<[u8]>),
}

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
                    let key = [lead, name, b"\":"].concat();
                    match key.len() {
                        n if n <= PAD => {
                            let mut padded = [0; PAD];
                            padded[..n].copy_from_slice(&key);
                            Key::Short(padded, n as u8)
                        }
                        _ => Key::Long(key.into_boxed_slice()),
                    }
                })
                .collect(),
        )
    }

    /// Writes what comes before member `i`'s value (opening the object for the first).
    #[inline]
    pub fn put(&self, i: usize, out: &mut Vec<u8>) {
        match &self.0[i] {
            Key::Short(padded, n) => {
                let at = out.len();
                out.extend_from_slice(padded);
                out.truncate(at + *n as usize);
            }
            Key::Long(key) => out.extend_from_slice(key),
        }
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
        let long = "n".repeat(PAD);
        let keys = MemberKeys::new([&b"a"[..], b"b_c", b"x\\\"y", long.as_bytes()]);
        let mut out = Vec::new();
        for (i, v) in ["1", "null", "\"z\"", "2"].iter().enumerate() {
            keys.put(i, &mut out);
            out.extend_from_slice(v.as_bytes());
        }
        keys.close(&mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!(r#"{{"a":1,"b_c":null,"x\"y":"z","{long}":2}}"#)
        );
        let mut none = Vec::new();
        MemberKeys::new([]).close(&mut none);
        assert_eq!(none, b"{}");
    }
}
