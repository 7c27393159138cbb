//! What a path module under `api/` works with, imported whole by each (`use crate::prelude::*`):
//! the endpoint declaration, parameters, filters, renderers, the catalog's collections, and the
//! shared vocabularies by module (`genes::GENE_ID`, `variants::matching`). Path modules name
//! each other explicitly (`crate::api::…`), so nothing here leads back to them.

pub use varcat_format::collection::{Collection, Collections};
pub use varcat_format::schema::{Coll, Member};

pub use crate::endpoint::{Body, Endpoint, Run};

pub use crate::engine::{Filter, Read};
pub use crate::error::ApiError;
pub use crate::handler::{member_value, Answer, Ctx, Reply};
pub use crate::params::{Accepts, Kind, Paging, Param, Params, Rule, HUMAN, HUMAN_MOUSE};
pub use crate::query::percent_decode;
pub use crate::sets;
pub use crate::shape::{Render, Shape};
pub use crate::vocab::biotypes::TRANSCRIPT_TYPES;
pub use crate::vocab::coding::{AMINO_ACIDS, SCORE_METHODS};
pub use crate::vocab::filters::{BIOLOGICAL_CONTEXT, ELEMENT_REGION, FILESET, TERM_PATH};
pub use crate::vocab::{genes, proteins, transcripts, variants};
