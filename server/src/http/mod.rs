//! The HTTP surface, independent of the server library: one request in, one response out.
//! `varcat serve` and `varcat query` both answer through [`App::handle`].
//!
//! [`message`]: the request and response and what every answer shares; [`loaded`]: the
//! catalog being served; [`app`]: the application's state; [`dispatch`]: which kind of request
//! this is and one arm per kind, the endpoint arm in [`endpoint`]; [`date`]: the `Date` header;
//! [`value`]: a header's value.

pub mod app;
pub mod date;
pub mod dispatch;
pub mod endpoint;
// Also built for its unit tests, which CI (no bench build) runs.
#[cfg(any(test, feature = "bench-floor"))]
pub mod floor;
pub mod loaded;
pub mod message;
pub mod value;

pub use app::App;
pub use date::write_date;
pub use loaded::{FileStamp, Loaded};
pub use message::{error, ReqBody, Request, Response, GZIP_MIN};
