//! What documents carry through the sorters besides their record.

pub(super) const FLAG_KEYLESS: u8 = 1;
/// The record holds `null` members (kept for an `update` duplicate to store; never stored).
pub(super) const FLAG_NULLS: u8 = 2;

/// Payload carried through the sorters: flags, origin (file index, line) and the record.
pub(super) fn payload(flags: u8, file: u32, line: u64, rec: &[u8]) -> Vec<u8> {
    let mut p = Vec::with_capacity(13 + rec.len());
    payload_into(&mut p, flags, file, line, rec);
    p
}

/// Appends [`payload`]'s bytes to `out`.
pub(super) fn payload_into(out: &mut Vec<u8>, flags: u8, file: u32, line: u64, rec: &[u8]) {
    out.push(flags);
    out.extend_from_slice(&file.to_le_bytes());
    out.extend_from_slice(&line.to_le_bytes());
    out.extend_from_slice(rec);
}

pub(super) fn split_payload(p: &[u8]) -> (u8, u32, u64, &[u8]) {
    let file = u32::from_le_bytes(p[1..5].try_into().expect("4"));
    let line = u64::from_le_bytes(p[5..13].try_into().expect("8"));
    (p[0], file, line, &p[13..])
}
