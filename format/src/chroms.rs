//! The per-chromosome table shared by interval and point indexes.
//!
//! Layout (at `table_offset` inside the section): per chromosome `first u64 · count u64 ·
//! aux_first u64 · aux_count u64 · name_len u32 · reserved u32 · name padded to 8`, where
//! `first/count` locate its entries and `aux_*` an optional side array (fences).

use std::io::{self, Write};

use crate::bytes::{pad8, Cursor};
use crate::error::ReadError;

/// One chromosome's slice of an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chrom {
    /// Name as in the data (`chr20`).
    pub name: String,
    /// Index of its first entry.
    pub first: u64,
    /// Number of entries.
    pub count: u64,
    /// Index of its first auxiliary value.
    pub aux_first: u64,
    /// Number of auxiliary values.
    pub aux_count: u64,
}

/// Writes the table; returns bytes written.
pub fn write_table<W: Write>(out: &mut W, chroms: &[Chrom]) -> io::Result<u64> {
    let mut n = 0u64;
    for c in chroms {
        for v in [c.first, c.count, c.aux_first, c.aux_count] {
            out.write_all(&v.to_le_bytes())?;
        }
        out.write_all(&(c.name.len() as u32).to_le_bytes())?;
        out.write_all(&0u32.to_le_bytes())?;
        out.write_all(c.name.as_bytes())?;
        let pad = pad8(c.name.len()) - c.name.len();
        out.write_all(&[0u8; 8][..pad])?;
        n += 40 + pad8(c.name.len()) as u64;
    }
    Ok(n)
}

/// Reads `count` chromosomes and checks that each lies within `entries` entries and `aux`
/// auxiliary values, in ascending name order without overlap.
pub fn read_table(
    bytes: &[u8],
    count: usize,
    entries: u64,
    aux: u64,
    section: &str,
) -> Result<Vec<Chrom>, ReadError> {
    let mut c = Cursor::new(bytes, section);
    if count > bytes.len() / 40 {
        return Err(ReadError::invalid(
            section,
            "chromosome count exceeds table",
        ));
    }
    let mut out: Vec<Chrom> = Vec::with_capacity(count);
    let (mut next, mut next_aux) = (0u64, 0u64);
    for _ in 0..count {
        let first = c.u64("chromosome first")?;
        let n = c.u64("chromosome count")?;
        let aux_first = c.u64("chromosome aux first")?;
        let aux_count = c.u64("chromosome aux count")?;
        let name_len = c.u32("chromosome name length")? as usize;
        c.u32("reserved")?;
        let r = c.skip(pad8(name_len), "chromosome name")?;
        let name = std::str::from_utf8(&bytes[r.start..r.start + name_len])
            .map_err(|_| ReadError::invalid(section, "chromosome name is not UTF-8"))?
            .to_string();
        let ok = first == next
            && first.checked_add(n).is_some_and(|e| e <= entries)
            && aux_first == next_aux
            && aux_first.checked_add(aux_count).is_some_and(|e| e <= aux)
            && out.last().is_none_or(|p| p.name < name);
        if !ok {
            return Err(ReadError::invalid(
                section,
                format!("chromosome {name} out of bounds or order"),
            ));
        }
        next = first + n;
        next_aux = aux_first + aux_count;
        out.push(Chrom {
            name,
            first,
            count: n,
            aux_first,
            aux_count,
        });
    }
    if next != entries || next_aux != aux {
        return Err(ReadError::invalid(
            section,
            "chromosome table does not cover all entries",
        ));
    }
    Ok(out)
}

/// Finds a chromosome by name (tables are short and sorted).
pub fn find<'a>(chroms: &'a [Chrom], name: &str) -> Option<&'a Chrom> {
    chroms
        .binary_search_by(|c| c.name.as_str().cmp(name))
        .ok()
        .map(|i| &chroms[i])
}
