//! The `meta` section: build metadata and the catalog's table of contents, as JSON.
//!
//! It holds no wall-clock time, so the same input always gives the same bytes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::keys::KeyEncoding;

use crate::error::ReadError;

/// Name of the metadata section.
pub const META_SECTION: &str = "meta";

/// Build metadata and table of contents.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    /// Format version of the file.
    pub format_version: u32,
    /// Version of the varcat that built it.
    pub varcat_version: String,
    /// Input files: name, size, checksum, documents.
    pub inputs: Vec<InputFile>,
    /// Build options that affect the output.
    pub options: BTreeMap<String, serde_json::Value>,
    /// Collections stored.
    pub collections: Vec<CollectionMeta>,
    /// Build summary (duplicates, dangling references, dropped values, the collections and
    /// members skipped…).
    pub summary: BTreeMap<String, serde_json::Value>,
    /// The release the catalog was built from (`varcat build --release`), e.g. IGVF's catalog
    /// release name. Absent when none was given. Members added after format v3's first
    /// catalogs are optional, and readers ignore members they do not know, so neither way
    /// needs a new format version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// The load plan the build followed (`varcat build --plan`), each step with the files it
    /// loaded. Absent when none was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_plan: Option<serde_json::Value>,
}

/// One input file.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct InputFile {
    /// File name relative to the input directory.
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
    /// xxh3-64 of the file's bytes, hex.
    pub xxh3: String,
    /// Documents read from it.
    pub documents: u64,
}

/// One stored collection.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct CollectionMeta {
    /// Collection name (`genes`, `variants_genes`, or a derived table's name).
    pub name: String,
    /// `node`, `edge` or `derived`.
    pub kind: String,
    /// Number of records (= ordinals).
    pub documents: u64,
    /// Member names; a member's field id is its index here.
    pub fields: Vec<String>,
    /// Indexes built, as section-name suffixes ([`crate::indexes::IndexName`]s).
    pub indexes: Vec<String>,
    /// How the key map spells `_key`s (see [`crate::keys`]).
    pub key_encoding: KeyEncoding,
    /// Whether it has a key map (`<c>.key`): only collections some request looks up by key
    /// (the schema's `Spec::keyed`) have one.
    pub keyed: bool,
    /// Bytes per ordinal in its sections (4; the width is per collection so that one that can
    /// pass 2³² documents can be 8).
    pub ordinal_width: u8,
}

impl Meta {
    /// Parses the section (members it does not know are ignored, so a newer varcat's
    /// additions do not stop an older one reading the catalog).
    pub fn from_bytes(b: &[u8]) -> Result<Meta, ReadError> {
        serde_json::from_slice(b)
            .map_err(|e| ReadError::invalid(META_SECTION, format!("bad JSON: {e}")))
    }

    /// Serialises the section.
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(self).expect("metadata serialises")
    }

    /// The collection named `name`.
    pub fn collection(&self, name: &str) -> Option<&CollectionMeta> {
        self.collections.iter().find(|c| c.name == name)
    }
}

/// Section names, built in one place for the indexer and the server.
pub mod names {
    use crate::indexes::IndexName;

    /// Record store of a collection.
    pub fn records(coll: &str) -> String {
        format!("{coll}.records")
    }
    /// `_key` → ordinal map.
    pub fn key(coll: &str) -> String {
        format!("{coll}.key")
    }
    /// The one section of index `ix` of a collection (every kind but the value maps, whose
    /// sections are [`map_fst`] and [`map_post`]): `genes.facet.type`, `genes.intervals`.
    pub fn index(coll: &str, ix: &IndexName) -> String {
        format!("{coll}.{ix}")
    }
    /// FST part of value map `ix` (`by`, `fold`, `tok`): value → postings address.
    pub fn map_fst(coll: &str, ix: &IndexName) -> String {
        format!("{coll}.{ix}.fst")
    }
    /// Postings of [`map_fst`].
    pub fn map_post(coll: &str, ix: &IndexName) -> String {
        format!("{coll}.{ix}.post")
    }
    /// Postings of adjacency `ix` ([`index`] is its table).
    pub fn adj_post(coll: &str, ix: &IndexName) -> String {
        format!("{coll}.{ix}.post")
    }
    /// FST of adjacency `ix`'s unresolved handles.
    pub fn adj_unresolved_fst(coll: &str, ix: &IndexName) -> String {
        format!("{coll}.{ix}.unresolved.fst")
    }
    /// Postings of [`adj_unresolved_fst`].
    pub fn adj_unresolved_post(coll: &str, ix: &IndexName) -> String {
        format!("{coll}.{ix}.unresolved.post")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The optional members are written only when set, read back, and absent from an older
    /// catalog's metadata; a member this reader does not know is ignored (how a later varcat's
    /// additions stay readable without a new format version).
    #[test]
    fn test_optional_and_unknown_members() {
        let plain = Meta::default();
        let text = String::from_utf8(plain.to_bytes()).unwrap();
        assert!(
            !text.contains("release") && !text.contains("load_plan"),
            "{text}"
        );
        assert_eq!(Meta::from_bytes(text.as_bytes()).unwrap(), plain);
        let with = Meta {
            release: Some("IGVF_catalog_v1.0".into()),
            load_plan: Some(serde_json::json!({"collections": {}})),
            ..Meta::default()
        };
        assert_eq!(Meta::from_bytes(&with.to_bytes()).unwrap(), with);
        let mut v: serde_json::Value = serde_json::from_slice(&with.to_bytes()).unwrap();
        v["added_later"] = serde_json::json!({"x": 1});
        let read = Meta::from_bytes(&serde_json::to_vec(&v).unwrap()).unwrap();
        assert_eq!(read, with);
    }
}
