//! The fixed parts of the file: header, section table and footer (see FORMAT.md).
//!
//! ```text
//! | Header (32) | Section … (8-aligned) | SectionTable | Footer (48) |
//! ```

use xxhash_rust::xxh3::xxh3_64;

use crate::bytes::{pad8, u32_at, u64_at, Cursor};
use crate::error::ReadError;

/// PNG-style magic: a high-bit byte, the letters, CR LF and ^Z catch text-mode mangling.
pub const MAGIC: [u8; 8] = [0x89, b'V', b'C', b'A', b'T', 0x0D, 0x0A, 0x1A];

/// The format version this build writes and reads (exact match only; catalogs are rebuilt,
/// never migrated).
pub const FORMAT_VERSION: u32 = 3;

/// Header length. Layout: magic [8] · format_version u32 · flags u32 (0) · reserved [16] (0).
pub const HEADER_LEN: usize = 32;
const HEADER_VERSION_OFFSET: usize = MAGIC.len();

/// Footer length. Layout: table_offset u64 · table_len u64 · table_xxh3 u64 · file_len u64 ·
/// format_version u32 · reserved u32 (0) · magic [8].
pub const FOOTER_LEN: usize = 48;
const FOOTER_TABLE_OFFSET: usize = 0;
const FOOTER_TABLE_LEN: usize = 8;
const FOOTER_TABLE_SUM: usize = 16;
const FOOTER_FILE_LEN: usize = 24;
const FOOTER_VERSION: usize = 32;
const FOOTER_MAGIC: usize = 40;

/// Sections start on this boundary; padding bytes are 0.
pub const SECTION_ALIGN: usize = 8;

/// Longest section name accepted.
pub const MAX_NAME_LEN: usize = 256;

/// One row of the section table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionEntry {
    /// Unique name, e.g. `genes.records`.
    pub name: String,
    /// Absolute offset (multiple of 8).
    pub offset: u64,
    /// Length in bytes (without padding).
    pub len: u64,
    /// xxh3-64 of the section's bytes.
    pub checksum: u64,
}

/// The header bytes.
pub fn header() -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    h[HEADER_VERSION_OFFSET..HEADER_VERSION_OFFSET + 4]
        .copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h
}

/// Encodes the section table. Layout: count u64, then per entry name_len u32 · reserved u32 ·
/// offset u64 · len u64 · xxh3 u64 · name bytes padded to 8.
pub fn encode_table(entries: &[SectionEntry]) -> Vec<u8> {
    let mut t = Vec::new();
    t.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for e in entries {
        t.extend_from_slice(&(e.name.len() as u32).to_le_bytes());
        t.extend_from_slice(&0u32.to_le_bytes());
        t.extend_from_slice(&e.offset.to_le_bytes());
        t.extend_from_slice(&e.len.to_le_bytes());
        t.extend_from_slice(&e.checksum.to_le_bytes());
        t.extend_from_slice(e.name.as_bytes());
        t.resize(pad8(t.len()), 0);
    }
    t
}

/// Encodes the footer for a table at `table_offset` of `table` bytes in a file of `file_len`.
pub fn footer(table_offset: u64, table: &[u8], file_len: u64) -> [u8; FOOTER_LEN] {
    let mut f = [0u8; FOOTER_LEN];
    f[FOOTER_TABLE_OFFSET..][..8].copy_from_slice(&table_offset.to_le_bytes());
    f[FOOTER_TABLE_LEN..][..8].copy_from_slice(&(table.len() as u64).to_le_bytes());
    f[FOOTER_TABLE_SUM..][..8].copy_from_slice(&xxh3_64(table).to_le_bytes());
    f[FOOTER_FILE_LEN..][..8].copy_from_slice(&file_len.to_le_bytes());
    f[FOOTER_VERSION..][..4].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    f[FOOTER_MAGIC..][..8].copy_from_slice(&MAGIC);
    f
}

/// What [`parse`] found: the section entries and the table checksum (the catalog's identity).
pub struct Parsed {
    /// Entries in file order.
    pub entries: Vec<SectionEntry>,
    /// xxh3 of the section table; it covers every section checksum.
    pub table_checksum: u64,
}

/// Checks header, footer and section table of a whole file, in the order FORMAT.md lists.
pub fn parse(file: &[u8]) -> Result<Parsed, ReadError> {
    if file.len() < HEADER_LEN + FOOTER_LEN {
        if file.len() >= 8 && file[..8] != MAGIC {
            return Err(ReadError::BadMagic);
        }
        return Err(ReadError::truncated(format!(
            "file has {} bytes",
            file.len()
        )));
    }
    if file[..8] != MAGIC {
        return Err(ReadError::BadMagic);
    }
    let version = u32_at(file, HEADER_VERSION_OFFSET);
    if version != FORMAT_VERSION {
        return Err(ReadError::VersionMismatch {
            expected: FORMAT_VERSION,
            got: version,
        });
    }
    if file[HEADER_VERSION_OFFSET + 4..HEADER_LEN]
        .iter()
        .any(|&b| b != 0)
    {
        return Err(ReadError::invalid("header", "reserved bytes are not zero"));
    }
    let foot = &file[file.len() - FOOTER_LEN..];
    if foot[FOOTER_MAGIC..FOOTER_MAGIC + 8] != MAGIC {
        return Err(ReadError::truncated(
            "footer magic missing (file cut short?)",
        ));
    }
    let fversion = u32_at(foot, FOOTER_VERSION);
    if fversion != FORMAT_VERSION {
        return Err(ReadError::VersionMismatch {
            expected: FORMAT_VERSION,
            got: fversion,
        });
    }
    if u32_at(foot, FOOTER_VERSION + 4) != 0 {
        return Err(ReadError::invalid("footer", "reserved bytes are not zero"));
    }
    let file_len = u64_at(foot, FOOTER_FILE_LEN);
    if file_len != file.len() as u64 {
        return Err(ReadError::truncated(format!(
            "footer says {file_len} bytes, file has {}",
            file.len()
        )));
    }
    let table_offset = u64_at(foot, FOOTER_TABLE_OFFSET);
    let table_len = u64_at(foot, FOOTER_TABLE_LEN);
    let table_end = table_offset.checked_add(table_len);
    let body_end = (file.len() - FOOTER_LEN) as u64;
    if table_offset < HEADER_LEN as u64 || table_end != Some(body_end) {
        return Err(ReadError::invalid(
            "section table",
            "table bounds do not fit the file",
        ));
    }
    let table = &file[table_offset as usize..body_end as usize];
    let expected = u64_at(foot, FOOTER_TABLE_SUM);
    let got = xxh3_64(table);
    if got != expected {
        return Err(ReadError::ChecksumMismatch {
            section: "section table".into(),
            expected,
            got,
        });
    }
    let entries = parse_table(table, table_offset)?;
    // Padding between sections is covered by no checksum; requiring zeros means any changed
    // byte of the file is detected by open + verify.
    let mut at = HEADER_LEN;
    for e in &entries {
        if file[at..e.offset as usize].iter().any(|&b| b != 0) {
            return Err(ReadError::invalid(
                "padding",
                format!("non-zero bytes before section {}", e.name),
            ));
        }
        at = (e.offset + e.len) as usize;
    }
    if file[at..table_offset as usize].iter().any(|&b| b != 0) {
        return Err(ReadError::invalid(
            "padding",
            "non-zero bytes before the section table",
        ));
    }
    Ok(Parsed {
        entries,
        table_checksum: expected,
    })
}

fn parse_table(table: &[u8], table_offset: u64) -> Result<Vec<SectionEntry>, ReadError> {
    const T: &str = "section table";
    let mut c = Cursor::new(table, T);
    let count = c.usize("entry count")?;
    // Each entry takes at least 32 bytes, which bounds `count` before allocating.
    if count > table.len() / 32 {
        return Err(ReadError::invalid(T, "entry count exceeds table size"));
    }
    let mut entries = Vec::with_capacity(count);
    let mut names = std::collections::HashSet::with_capacity(count);
    let mut next_free = HEADER_LEN as u64;
    for _ in 0..count {
        let name_len = c.u32("name length")? as usize;
        let _reserved = c.u32("reserved")?;
        let offset = c.u64("offset")?;
        let len = c.u64("length")?;
        let checksum = c.u64("checksum")?;
        if name_len == 0 || name_len > MAX_NAME_LEN {
            return Err(ReadError::invalid(T, format!("bad name length {name_len}")));
        }
        let r = c.skip(pad8(name_len), "name")?;
        let name = std::str::from_utf8(&table[r.start..r.start + name_len])
            .map_err(|_| ReadError::invalid(T, "section name is not UTF-8"))?
            .to_string();
        let end = offset.checked_add(len);
        if offset % SECTION_ALIGN as u64 != 0
            || offset < next_free
            || end.is_none_or(|e| e > table_offset)
        {
            return Err(ReadError::invalid(
                T,
                format!("section {name} lies outside the body"),
            ));
        }
        next_free = end.unwrap_or(u64::MAX);
        if !names.insert(name.clone()) {
            return Err(ReadError::invalid(
                T,
                format!("section {name} appears twice"),
            ));
        }
        entries.push(SectionEntry {
            name,
            offset,
            len,
            checksum,
        });
    }
    c.finish()?;
    Ok(entries)
}

/// Recomputes every section checksum and the table checksum of a structurally valid file, so
/// tests and fuzzers can hand deliberately corrupted section contents to the section readers.
/// Returns false when the file's structure does not parse.
pub fn reseal(file: &mut [u8]) -> bool {
    let Ok(parsed) = parse_unchecked(file) else {
        return false;
    };
    let mut entries = parsed.0;
    for e in &mut entries {
        e.checksum = xxh3_64(&file[e.offset as usize..(e.offset + e.len) as usize]);
    }
    let table = encode_table(&entries);
    let (table_offset, table_len) = (parsed.1, parsed.2);
    if table.len() != table_len {
        return false;
    }
    file[table_offset..table_offset + table_len].copy_from_slice(&table);
    let n = file.len();
    let foot = footer(table_offset as u64, &table, n as u64);
    file[n - FOOTER_LEN..].copy_from_slice(&foot);
    true
}

/// Parses the table without checking its checksum: (entries, table offset, table length).
fn parse_unchecked(file: &[u8]) -> Result<(Vec<SectionEntry>, usize, usize), ReadError> {
    if file.len() < HEADER_LEN + FOOTER_LEN {
        return Err(ReadError::truncated("file"));
    }
    let foot = &file[file.len() - FOOTER_LEN..];
    let table_offset = u64_at(foot, FOOTER_TABLE_OFFSET) as usize;
    let table_len = u64_at(foot, FOOTER_TABLE_LEN) as usize;
    let body_end = file.len() - FOOTER_LEN;
    if table_offset < HEADER_LEN || table_offset.checked_add(table_len) != Some(body_end) {
        return Err(ReadError::invalid("section table", "bounds"));
    }
    let entries = parse_table(&file[table_offset..body_end], table_offset as u64)?;
    Ok((entries, table_offset, table_len))
}
