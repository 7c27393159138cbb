//! Building one collection: documents → normalised records → sorted, merged, stored, indexed.
//!
//! Pass 1 reads and encodes documents into an external sorter keyed by `_key`. Pass 2 resolves
//! duplicate keys in load order by each file's policy ([`crate::duplicates`]), names repeated
//! keyless edges, and re-sorts when the collection's order is not `_key`. The
//! final pass streams records into the catalog and index entries into sorters, from which the
//! index sections are written one after another. Memory stays within the budget throughout.
//!
//! One module per stage: [`read`] (pass 1, on [`parse`]), [`merge`] (pass 2, with [`reshape`]
//! for `update` duplicates of collections prepared as read), [`records`]
//! (the final pass, on [`entries`]), [`feeds`] (the index builders) and [`sections`] (what
//! the final pass writes into the catalog); [`env`] holds the memory budget's shares.

mod adjacency;
mod entries;
mod env;
mod feeds;
mod members;
mod merge;
mod parse;
mod payload;
mod read;
mod records;
mod reshape;
mod sections;

use varcat_format::keys::KeyEncoding;
use varcat_format::{CatalogWriter, CollectionMeta};

use crate::derive::Ctx;
use crate::error::BuildError;
use crate::input::InputFile;
use crate::report::Report;
use crate::schema::Spec;
use sections::Final;

pub use env::Env;

/// Where documents come from.
pub enum Source<'a> {
    /// Input files (parts of one collection).
    Files(&'a [InputFile]),
    /// A derived table.
    Derived(crate::derive::Generator),
}

/// Builds `spec`'s collection from `source` into `w`.
pub fn build(
    w: &mut CatalogWriter,
    spec: &Spec,
    source: Source<'_>,
    ctx: &Ctx,
    env: &mut Env,
) -> Result<CollectionMeta, BuildError> {
    let name = spec.name;
    let pass1 = read::read(spec, source, ctx, env)?;
    let stream = merge::merge(spec, pass1.sorter, &pass1.files, &pass1.policies, ctx, env)?;
    env.progress.phase(&format!("{name}: writing records"));
    let mut fin = Final::new(w, spec, KeyEncoding::choose(&pass1.keys), ctx, env)?;
    records::write(&mut fin, spec, stream, &pass1.files, ctx, env)?;
    let meta = fin.finish(env, ctx)?;
    Report::bump(&mut env.report.documents, name.to_string(), meta.documents);
    Ok(meta)
}
