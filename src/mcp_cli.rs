//! `varcat mcp`: the catalog's tools for LLM agents over the Model Context Protocol on stdio
//! (the server is `varcat_server::mcp`; this opens the catalog and runs it).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use lexopt::prelude::*;

use crate::usage;
use varcat_server::http::{App, Loaded};
use varcat_server::mcp::stdio;

/// Runs `varcat mcp [<catalog>] [--no-verify]`.
pub fn mcp(mut p: lexopt::Parser) -> Result<ExitCode, String> {
    let (mut path, mut verify) = (None, true);
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Short('h') | Long("help") => return usage::print("mcp"),
            Long("no-verify") => verify = false,
            Value(v) if path.is_none() => path = Some(PathBuf::from(v)),
            other => return Err(usage::unexpected("mcp", other)),
        }
    }
    // The sample bootstrap reports on stderr: stdout carries protocol messages only.
    let path = crate::cli::catalog_arg(path)?;
    let start = std::time::Instant::now();
    // Only the open checks here, so that `initialize` is answered at once whatever the size;
    // the checksum pass runs beside the server.
    let loaded = Loaded::open(&path, false).map_err(|e| format!("{}: {e}", path.display()))?;
    let catalog = loaded.cat.catalog.clone();
    let app = Arc::new(App::new(loaded, "/api"));
    eprintln!(
        "varcat mcp: catalog {} opened in {} ms; reading JSON-RPC messages on stdin",
        path.display(),
        start.elapsed().as_millis()
    );
    if verify {
        let damaged = app.mcp().damage_flag();
        std::thread::spawn(move || match catalog.verify() {
            Ok(()) => eprintln!("varcat mcp: all checksums verified"),
            Err(e) => {
                eprintln!("varcat mcp: {e}; tool calls are refused");
                let _ = damaged.set(e.to_string());
            }
        });
    }
    let stdin = std::io::stdin().lock();
    stdio::serve(app, stdin, std::io::stdout()).map_err(|e| format!("stdin: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
