//! What documents carry through the sorters besides their record.

pub(super) const FLAG_KEYLESS: u8 = 1;
/// The record holds `null` members (kept for an `update` duplicate to store; never stored).
pub(super) const FLAG_NULLS: u8 = 2;
/// The document's input line follows its record (see [`payload_into`]): kept where an `update`
/// duplicate must be applied to the documents as read, before the collection's preparation.
pub(super) const FLAG_RAW: u8 = 4;

/// Bytes before the record: flags, file index, line.
const HEADER: usize = 13;

/// Payload carried through the sorters: flags, origin (file index, line) and the record.
pub(super) fn payload(flags: u8, file: u32, line: u64, rec: &[u8]) -> Vec<u8> {
    let mut p = Vec::with_capacity(HEADER + rec.len());
    payload_into(&mut p, flags, file, line, rec, None);
    p
}

/// Appends [`payload`]'s bytes to `out`; with `raw`, flagged [`FLAG_RAW`], the record's length
/// precedes it and the input line follows it.
pub(super) fn payload_into(
    out: &mut Vec<u8>,
    flags: u8,
    file: u32,
    line: u64,
    rec: &[u8],
    raw: Option<&[u8]>,
) {
    out.push(if raw.is_some() {
        flags | FLAG_RAW
    } else {
        flags
    });
    out.extend_from_slice(&file.to_le_bytes());
    out.extend_from_slice(&line.to_le_bytes());
    if let Some(raw) = raw {
        let len = u32::try_from(rec.len()).expect("records are far below 4 GB");
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(rec);
        out.extend_from_slice(raw);
    } else {
        out.extend_from_slice(rec);
    }
}

/// A payload's flags, file index, line and record.
pub(super) fn split_payload(p: &[u8]) -> (u8, u32, u64, &[u8]) {
    let file = u32::from_le_bytes(p[1..5].try_into().expect("4"));
    let line = u64::from_le_bytes(p[5..13].try_into().expect("8"));
    let rec = match raw_parts(p) {
        Some((rec, _)) => rec,
        None => &p[HEADER..],
    };
    (p[0], file, line, rec)
}

/// A payload's input line, when it carries one ([`FLAG_RAW`]).
pub(super) fn raw_line(p: &[u8]) -> Option<&[u8]> {
    raw_parts(p).map(|(_, raw)| raw)
}

/// The record and input line of a [`FLAG_RAW`] payload.
fn raw_parts(p: &[u8]) -> Option<(&[u8], &[u8])> {
    if p[0] & FLAG_RAW == 0 {
        return None;
    }
    let len = u32::from_le_bytes(p[HEADER..HEADER + 4].try_into().expect("4")) as usize;
    Some(p[HEADER + 4..].split_at(len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_payload_carries_its_line_when_asked() {
        let mut p = Vec::new();
        payload_into(&mut p, FLAG_NULLS, 3, 7, b"rec", Some(b"{\"a\":1}"));
        assert_eq!(
            split_payload(&p),
            (FLAG_NULLS | FLAG_RAW, 3, 7, &b"rec"[..])
        );
        assert_eq!(raw_line(&p), Some(&b"{\"a\":1}"[..]));
        let p = payload(FLAG_KEYLESS, 1, 2, b"rec");
        assert_eq!(split_payload(&p), (FLAG_KEYLESS, 1, 2, &b"rec"[..]));
        assert_eq!(raw_line(&p), None);
    }
}
