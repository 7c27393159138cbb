//! What a document's kept members must satisfy beyond their types: strings an index takes stay
//! within [`MAX_INDEXED_BYTES`], and coordinates can be placed on the genome.

use serde_json::Value;

use crate::normalize::index_values;
use crate::schema::{Place, Spec, MAX_INDEXED_BYTES};

/// An error when member `name` (already normalised, `json` its stored bytes) holds a string
/// longer than an index takes.
pub fn indexed_length(spec: &Spec, name: &str, v: &Value, json: &[u8]) -> Result<(), String> {
    // The stored bytes bound every string in them: most members need no closer look.
    if json.len() <= MAX_INDEXED_BYTES || !spec.is_indexed_text(name) {
        return Ok(());
    }
    if index_values(v).iter().any(|s| s.len() > MAX_INDEXED_BYTES) {
        return Err(too_long(name));
    }
    Ok(())
}

/// The error for an indexed string over the limit.
pub fn too_long(name: &str) -> String {
    format!("{name} longer than {MAX_INDEXED_BYTES} bytes (the limit for a member an index takes)")
}

/// Whether member `name` is one of the coordinates of `places`.
pub fn is_coordinate(places: &[Place], name: &str) -> bool {
    places
        .iter()
        .any(|p| p.chr == name || p.start == name || p.end == Some(name))
}

/// Why a document's coordinates cannot be placed, given its normalised coordinate members:
/// `Ok(None)` when every place is well formed, `Ok(Some(reason))` when one is not (the document
/// is stored and found by id, but by no region query), `Err` when a coordinate is past the
/// format's 2^32-1 ceiling (no catalog can hold it).
pub fn unplaced<'v>(
    places: &[Place],
    get: impl Fn(&str) -> Option<&'v Value>,
) -> Result<Option<String>, String> {
    for p in places {
        match get(p.chr) {
            Some(Value::String(c)) if !c.is_empty() => {}
            Some(v) => return Ok(Some(format!("{} is not a chromosome name: {v}", p.chr))),
            None => return Ok(Some(format!("{} is missing", p.chr))),
        }
        let Some(start) = coordinate(p.start, get(p.start))? else {
            return Ok(Some(why_not(p.start, get(p.start))));
        };
        if let Some(end_name) = p.end {
            let Some(end) = coordinate(end_name, get(end_name))? else {
                return Ok(Some(why_not(end_name, get(end_name))));
            };
            if start > end {
                return Ok(Some(format!(
                    "{} {start} is after {end_name} {end}",
                    p.start
                )));
            }
        }
    }
    Ok(None)
}

/// A coordinate as u32 when it is a non-negative integer; `Err` past the ceiling.
pub fn coordinate(name: &str, v: Option<&Value>) -> Result<Option<u32>, String> {
    let Some(x) = v.and_then(Value::as_f64) else {
        return Ok(None);
    };
    if !x.is_finite() || x < 0.0 || x.fract() != 0.0 {
        return Ok(None);
    }
    if x > u32::MAX as f64 {
        return Err(format!(
            "{name} {x} exceeds the format's coordinate ceiling of 2^32-1"
        ));
    }
    Ok(Some(x as u32))
}

/// Why coordinate `name` is not placeable.
fn why_not(name: &str, v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => format!("{name} is missing"),
        Some(v) => format!("{name} is not a non-negative integer: {v}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const GENE: Place = Place {
        chr: "chr",
        start: "start",
        end: Some("end"),
    };
    const VARIANT: Place = Place {
        chr: "chr",
        start: "pos",
        end: None,
    };

    fn check(place: Place, doc: Value) -> Result<Option<String>, String> {
        unplaced(&[place], |n| doc.get(n))
    }

    #[test]
    fn test_placeable_coordinates() {
        let ok = |d| check(GENE, d).unwrap();
        assert_eq!(ok(json!({"chr": "chr1", "start": 5, "end": 9})), None);
        // An empty interval is well formed (no region finds it).
        assert_eq!(ok(json!({"chr": "chr1", "start": 5, "end": 5})), None);
        assert_eq!(
            check(VARIANT, json!({"chr": "chr1", "pos": 0})).unwrap(),
            None
        );
    }

    #[test]
    fn test_unplaceable_coordinates_say_why() {
        let why = |d| check(GENE, d).unwrap().unwrap();
        assert_eq!(
            why(json!({"chr": "chr1", "start": -1, "end": 9})),
            "start is not a non-negative integer: -1"
        );
        assert_eq!(
            why(json!({"chr": "chr1", "start": 1.5, "end": 9})),
            "start is not a non-negative integer: 1.5"
        );
        assert_eq!(
            why(json!({"chr": "chr1", "start": 10, "end": 9})),
            "start 10 is after end 9"
        );
        // NaN reaches here as null (the reader replaces it).
        assert_eq!(
            why(json!({"chr": "chr1", "start": null, "end": 9})),
            "start is missing"
        );
        assert_eq!(why(json!({"chr": "chr1", "start": 1})), "end is missing");
        assert_eq!(why(json!({"start": 1, "end": 2})), "chr is missing");
        assert_eq!(
            why(json!({"chr": 1, "start": 1, "end": 2})),
            "chr is not a chromosome name: 1"
        );
        assert_eq!(
            why(json!({"chr": "chr1", "start": "ten", "end": 20})),
            "start is not a non-negative integer: \"ten\""
        );
        assert_eq!(
            check(VARIANT, json!({"chr": "chr1"})).unwrap().unwrap(),
            "pos is missing"
        );
    }

    #[test]
    fn test_coordinate_past_the_ceiling_is_an_error() {
        let e = check(
            GENE,
            json!({"chr": "chr1", "start": 1, "end": 5_000_000_000u64}),
        );
        assert!(e.unwrap_err().contains("ceiling"));
    }

    #[test]
    fn test_indexed_length() {
        let spec = crate::schema::spec("genes").unwrap();
        let long = "x".repeat(MAX_INDEXED_BYTES + 1);
        let v = json!(long);
        let bytes = serde_json::to_vec(&v).unwrap();
        assert_eq!(
            indexed_length(spec, "name", &v, &bytes).unwrap_err(),
            too_long("name")
        );
        // Not indexed: any length is stored.
        assert!(indexed_length(spec, "description", &v, &bytes).is_ok());
        // Many short values in one array are fine.
        let many = json!(vec!["y".repeat(100); 2000]);
        let bytes = serde_json::to_vec(&many).unwrap();
        assert!(indexed_length(spec, "synonyms", &many, &bytes).is_ok());
    }
}
