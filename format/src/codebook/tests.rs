use super::value::{decimal, decode_value, exact_f64, write_number};
use super::wire::{put_varint, Cursor};
use super::*;
use crate::keylookup::KeyLookup;
use crate::record::RecordBuf;

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
        // Padded with zeros: after the digits (up to 15) and after the point (up to 4).
        1e15,
        1.5e15,
        0.0001234,
        0.00001,
        0.001,
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
    let mut exact = 0;
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
        // Made from the digits without text, the number is the one the text parses to.
        if let Some(y) = exact_f64(neg, m, e) {
            assert_eq!(y.to_bits(), x.to_bits(), "{x:e}");
            exact += 1;
        }
    }
    assert!(exact > 10_000, "{exact} exact");
    for (text, exact) in [
        (&b"0.0001234"[..], true),
        (b"-0.0", true),
        (b"12", true),
        (b"9007199254740993", false),
        (b"1e-30", false),
    ] {
        let (neg, m, e) = decimal(text).unwrap();
        let parsed: f64 = std::str::from_utf8(text).unwrap().parse().unwrap();
        match exact_f64(neg, m, e) {
            Some(y) => assert_eq!(y.to_bits(), parsed.to_bits()),
            None => assert!(!exact, "{text:?}"),
        }
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
        let whole = crate::record::Record::new(r);
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
    let want = Class::Arr(Box::new(Class::Obj(Obj::new(vec![
        (
            b"method".to_vec(),
            Class::Dict(Dict::new(vec![b"\"m0\"".to_vec(), b"\"m1\"".to_vec()])),
        ),
        (b"score".to_vec(), Class::Float),
    ]))));
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
    let targets: Vec<(&str, Handles)> = read.refs().map(|(r, h)| (r.target.as_str(), h)).collect();
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
    let targets: Vec<(&str, Handles)> = read.refs().map(|(r, h)| (r.target.as_str(), h)).collect();
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

/// An `obj` class of no members (the chooser makes a constant of `{}`, but a codebook may
/// declare one) prints `{}`: its keys open the object only when it has members.
#[test]
fn test_an_object_of_no_members_round_trips() {
    let cb = Codebook::new(vec![Entry {
        field: 0,
        always: true,
        class: Class::Obj(Obj::new(Vec::new())),
    }]);
    let cb = Codebook::from_bytes(&cb.to_bytes()).unwrap();
    let r = rec(&[(0, "{}")]);
    let (enc, esc) = cb.encode(&r).unwrap();
    assert_eq!(esc, 0);
    assert_eq!(cb.decode(&enc).unwrap(), r);
}

#[test]
fn test_the_walk_plan_numbers_presence_bits_and_sizes_each_value() {
    let entry = |field, always, class| Entry {
        field,
        always,
        class,
    };
    let cb = Codebook::new(vec![
        entry(1, true, Class::Str),
        entry(2, false, Class::Int),
        entry(3, true, Class::Const(b"1".to_vec())),
        entry(4, false, Class::Float),
        entry(5, false, Class::Same(0)),
        entry(6, true, Class::Arr(Box::new(Class::Str))),
    ]);
    let plan: Vec<(u32, Skip)> = cb.steps.iter().map(|s| (s.bit, s.skip)).collect();
    assert_eq!(
        plan,
        [
            (ALWAYS, Skip::Bytes),
            (0, Skip::Varint),
            (ALWAYS, Skip::Nothing),
            (1, Skip::Float),
            (2, Skip::Nothing),
            (ALWAYS, Skip::Walk),
        ]
    );
}

#[test]
fn test_skipping_stops_at_the_end_of_the_bytes() {
    let mut long = Vec::new();
    put_varint(&mut long, 300);
    for (b, varint_ok, bytes_ok) in [
        (&[0x05, b'a'][..], true, false),
        (&[0x01, b'a'][..], true, true),
        (&[0x80][..], false, false),
        (&long[..], true, false),
        (&[][..], false, false),
    ] {
        let mut c = Cursor { b, at: 0 };
        assert_eq!(c.skip_varint().is_some(), varint_ok, "{b:?}");
        let mut c = Cursor { b, at: 0 };
        assert_eq!(c.skip_bytes().is_some(), bytes_ok, "{b:?}");
        assert!(c.at <= b.len());
    }
}
