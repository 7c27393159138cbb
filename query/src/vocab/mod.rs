//! What many endpoints share, apart from any one endpoint: the parameters, resolvers and shapes
//! of the things queries start from (variants, genes, proteins, transcripts), the entity shapes
//! edges point to, and the enumerated values IGVF validates filters against (biotypes,
//! coding-variant methods, interaction methods).

pub mod biotypes;
pub mod coding;
pub mod filters;
pub mod genes;
pub mod interactions;
pub mod proteins;
pub mod shapes;
pub mod transcripts;
pub mod variants;
