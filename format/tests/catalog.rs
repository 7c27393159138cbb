//! Whole-file tests: sections round-trip; every truncation and every changed byte is refused
//! with an error, never a panic.

use varcat_format::fstmap::KeyMapBuilder;
use varcat_format::meta::Meta;
use varcat_format::{Catalog, CatalogWriter, ReadError, FORMAT_VERSION};

fn sample() -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
    let mut w = CatalogWriter::in_memory();
    let mut sections = Vec::new();
    let meta = Meta {
        format_version: FORMAT_VERSION,
        varcat_version: "test".into(),
        ..Meta::default()
    };
    sections.push(("meta".to_string(), meta.to_bytes()));
    let mut fst = KeyMapBuilder::new(Vec::new(), "genes.key").unwrap();
    for (i, k) in ["ENSG1", "ENSG2", "ENSG3"].iter().enumerate() {
        fst.insert(k.as_bytes(), i as u64).unwrap();
    }
    sections.push(("genes.key".to_string(), fst.finish().unwrap()));
    sections.push(("odd".to_string(), vec![1, 2, 3])); // forces padding
    sections.push(("empty".to_string(), Vec::new()));
    sections.push(("blob".to_string(), (0..=255u8).collect()));
    for (n, b) in &sections {
        w.add(n, b).unwrap();
    }
    (w.finish_to_vec().unwrap(), sections)
}

fn open_and_verify(bytes: Vec<u8>) -> Result<Catalog, ReadError> {
    let c = Catalog::from_vec(bytes)?;
    c.verify()?;
    Ok(c)
}

#[test]
fn test_sections_round_trip() {
    let (bytes, sections) = sample();
    let c = open_and_verify(bytes).unwrap();
    assert_eq!(c.sections().len(), sections.len());
    for (n, b) in &sections {
        assert_eq!(c.section(n).unwrap().as_ref(), &b[..], "section {n}");
    }
    assert!(c.section("absent").is_none());
    assert!(matches!(
        c.require("absent"),
        Err(ReadError::MissingSection(_))
    ));
    assert_eq!(
        Meta::from_bytes(c.section("meta").unwrap().as_ref())
            .unwrap()
            .varcat_version,
        "test"
    );
}

#[test]
fn test_every_truncation_is_refused() {
    let (bytes, _) = sample();
    for len in 0..bytes.len() {
        let r = std::panic::catch_unwind(|| open_and_verify(bytes[..len].to_vec()));
        match r {
            Ok(Err(_)) => {}
            Ok(Ok(_)) => panic!("truncation to {len} bytes was accepted"),
            Err(_) => panic!("truncation to {len} bytes panicked"),
        }
    }
}

#[test]
fn test_every_changed_byte_is_refused() {
    let (bytes, _) = sample();
    for at in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut b = bytes.clone();
            b[at] ^= bit;
            let r = std::panic::catch_unwind(|| open_and_verify(b));
            match r {
                Ok(Err(_)) => {}
                Ok(Ok(_)) => panic!("flipping bit {bit:#x} of byte {at} went unnoticed"),
                Err(_) => panic!("flipping byte {at} panicked"),
            }
        }
    }
}

#[test]
fn test_wrong_version_names_the_fix() {
    let (mut bytes, _) = sample();
    bytes[8] = 99;
    let e = Catalog::from_vec(bytes).err().unwrap();
    assert!(matches!(e, ReadError::VersionMismatch { got: 99, .. }));
    assert!(e.to_string().contains("rebuild the catalog"), "{e}");
}

#[test]
fn test_not_a_catalog() {
    assert!(matches!(
        Catalog::from_vec(b"{\"json\": true}\n".repeat(10)),
        Err(ReadError::BadMagic)
    ));
    assert!(matches!(
        Catalog::from_vec(Vec::new()),
        Err(ReadError::Truncated { .. })
    ));
}

#[test]
fn test_file_writer_is_atomic() {
    let dir = std::env::temp_dir().join(format!("varcat-format-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dest = dir.join("c.varcat");
    {
        let mut w = CatalogWriter::create(&dest).unwrap();
        w.add("a", b"hello").unwrap();
        // Dropped without finish: nothing appears at the destination, no temporary is left.
    }
    assert!(!dest.exists());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let mut w = CatalogWriter::create(&dest).unwrap();
    w.add("a", b"hello").unwrap();
    let back = w.read_back().unwrap();
    assert_eq!(back.section("a").unwrap().as_ref(), b"hello");
    w.add("b", b"world").unwrap();
    w.finish().unwrap();
    let c = Catalog::open(&dest).unwrap();
    c.verify().unwrap();
    assert_eq!(c.section("b").unwrap().as_ref(), b"world");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn test_verify_names_the_first_bad_section_whatever_the_threads() {
    // Sections over SMALL_SECTION are left to verify (open checks only the small ones).
    let big = varcat_format::catalog::SMALL_SECTION as usize + 4096;
    let mut w = CatalogWriter::in_memory();
    for i in 0..6u8 {
        w.add(&format!("s{i}"), &vec![i; big + i as usize * 512])
            .unwrap();
    }
    let good = w.finish_to_vec().unwrap();
    let c = Catalog::from_vec(good.clone()).unwrap();
    for threads in 1..=4 {
        c.verify_with(threads).unwrap();
    }
    let at = |name: &str| {
        let e = c.sections().iter().find(|e| e.name == name).unwrap();
        (e.offset + e.len / 2) as usize
    };
    let mut bad = good.clone();
    for name in ["s4", "s2", "s5"] {
        bad[at(name)] ^= 0x55;
    }
    let c = Catalog::from_vec(bad).unwrap();
    for threads in 1..=4 {
        match c.verify_with(threads) {
            Err(ReadError::ChecksumMismatch { section, .. }) => assert_eq!(section, "s2"),
            other => panic!("{threads} threads: {:?}", other.map(|_| ())),
        }
        // From the fourth section on, the first bad one is s4; from the seventh, none.
        match c.verify_from(3, threads) {
            Err(ReadError::ChecksumMismatch { section, .. }) => assert_eq!(section, "s4"),
            other => panic!("{threads} threads: {:?}", other.map(|_| ())),
        }
        c.verify_from(6, threads).unwrap();
        c.verify_from(60, threads).unwrap();
    }
}
