//! What each command takes, said once: `varcat <command> --help` prints it, `varcat --help`
//! prints every synopsis, and an unknown option is answered with the closest option of the
//! command's text.

use std::process::ExitCode;

/// The commands and their usage: the synopsis (the first lines, up to a blank line), a line
/// on what it does, then every option an operator may set.
const COMMANDS: &[(&str, &str)] = &[
    (
        "build",
        "\
varcat build <input-dir> -o <catalog> [options]

Builds a catalog from a directory of collections: <collection>.jsonl or .jsonl.gz files,
or a folder <collection>/ of them (as IGVF's adapters write them).

  -o, --output <catalog>  the catalog to write; written under a temporary name beside it and
                          renamed when complete and verified; never one of the inputs
  --mem-budget <size>     the build's heap bound, e.g. 512M or 4G (default 2G)
  --tmp-dir <dir>         where sort runs go (default: the output's directory)
  --threads <n>           parsing, sorting and index threads (default: the cores)
  --max-line <size>       the longest input line (default 16M, at most 1G)
  --strict                stop at the first duplicate key, misplaced coordinate, unknown
                          collection or member
  --on-duplicate <policy> a repeated _key: error (default), ignore, replace or update
  --plan <file.json>      a load plan: per collection, its files' order and policies
  --release <name>        the input's release, recorded in the catalog and shown by info
  --quiet                 no progress line
  --progress              a progress line even when stderr is not a terminal",
    ),
    (
        "serve",
        "\
varcat serve [<catalog>] [options]

Serves the catalog over HTTP (without one, the bundled sample, built first when missing).

  --addr <host:port>        where to listen (default 127.0.0.1:2023; port 0: any free one)
  --threads <n>             requests computed at once (default: the cores)
  --queue <n>               requests that may wait for a thread before 503 (default 1024)
  --max-connections <n>     open connections at most (default 4096)
  --base-path <path>        the API's path prefix (default /api)
  --cors-origin <policy>    which web origins a browser may read answers for: * (any, the
                            default, as IGVF), none, or origins such as https://a.org,https://b.org
  --write-timeout-ms <ms>   free time to write an answer; after it, the client must take at
                            least 64 KiB/s or is cut (default 10000; 0: no deadline)
  --idle-timeout-ms <ms>    how long an idle keep-alive connection is kept (default 60000)
  --no-verify               skip the checksum pass at start (for catalogs much larger
                            than RAM)
  --quiet                   no access log",
    ),
    (
        "query",
        "\
varcat query [<catalog>] '<path?query>' [--tsv]
varcat query [<catalog>] --post '<json>'|@file|@- '<path>'

Answers one request without a server, e.g. '/transcripts/genes?transcript_id=ENST00000353224',
or a batch, e.g. --post '{\"gene_id\":[\"ENSG00000101349\"]}' /genes.

  --tsv                   the answer as TSV (the same as format=tsv)
  --post <json>|@file|@-  a batch: the body itself, a file, or standard input",
    ),
    (
        "mcp",
        "\
varcat mcp [<catalog>] [--no-verify]

Serves the catalog's tools to LLM agents over the Model Context Protocol on stdin/stdout
(JSON-RPC, one message per line), the tools of IGVF's MCP server.

  --no-verify             skip the checksum pass run beside the server",
    ),
    (
        "info",
        "\
varcat info <catalog>

Prints what the catalog holds: inputs, collections, indexes, sections and record storage.",
    ),
    (
        "verify",
        "\
varcat verify <catalog>

Checks every section's checksum; exits 1 with the reason when one differs.",
    ),
    (
        "synth",
        "\
varcat synth --variants <n> -o <dir> [options]

Writes a deterministic synthetic collection directory of about <n> variants.

  --variants <n>          human variants (1_000_000 may be written with underscores)
  -o, --output <dir>      a new directory, or one this command wrote before (replaced only
                          when the new one is complete); never a directory of other data
  --seed <s>              the seed: the same seed and size give the same bytes (default 1)
  --gz                    gzip-compressed .jsonl.gz files
  --threads <n>           writer threads (default: the cores; the output does not change)",
    ),
    (
        "annotate",
        "\
varcat annotate <in.vcf|.vcf.gz|.bcf|-> -o <out.vcf|.vcf.gz|.bcf|-> [options]

Adds the catalog's INFO fields to every record of a VCF or BCF, keeping every record in order.
The input may be VCF text, BGZF, plain gzip or BCF; a BGZF or BCF input must end in its
end-of-file block.

  -o, --output <path>     the output (- for standard output); a file is written under a
                          temporary name and renamed when complete, its .tbi/.csi after it
  -O, --output-type <t>   v VCF, z BGZF VCF, b BCF, u uncompressed BCF (default: by extension)
  --catalog <catalog>     the catalog (default: the bundled sample)
  --fields <f1,f2,…|all>  the fields to add (default rsid,gnomad_af_total,bravo_af)
  --list-fields           list the fields and exit
  --prefix <p>            the INFO key prefix (default VARCAT_)
  --threads <n>           annotating and compressing threads (default: the cores)
  --assume-grch38         annotate although the header names another assembly
  --lenient               pass malformed records through with a warning instead of stopping
  --indel-window <n>      how far left of an indel to look for its expanded form (default 100)
  --allow-missing-eof     read a BGZF input without its end-of-file block (a warning) from a
                          writer that omits it
  --max-line <size>       the longest input line (default 16M, at most 1G)
  --timings               the time per stage",
    ),
    (
        "export-vcf",
        "\
varcat export-vcf [<catalog>] -o <out.vcf|.vcf.gz|-> [options]

Writes the catalog's variants as a sites-only VCF with the fields annotate adds.

  -o, --output <path>     the output (- for standard output); .vcf.gz is indexed (.tbi)
  --fields <f1,f2,…|all>  the fields (default rsid,gnomad_af_total,bravo_af)
  --prefix <p>            the INFO key prefix (default VARCAT_)
  --threads <n>           compressing threads (default: the cores)",
    ),
];

/// The usage of `cmd` (every option, `-h`/`--help` included).
pub fn of(cmd: &str) -> Option<String> {
    COMMANDS
        .iter()
        .find(|(n, _)| *n == cmd)
        .map(|(_, text)| format!("{text}\n  -h, --help              this text"))
}

/// Every command's synopsis.
pub fn all() -> String {
    let mut s = String::from(
        "varcat — a read-only query service for a genomic variant catalog (IGVF Catalog \
         compatible)\n\nUSAGE:\n",
    );
    for (_, text) in COMMANDS {
        for line in text.lines().take_while(|l| !l.is_empty()) {
            s.push_str(&format!("  {line}\n"));
        }
    }
    s.push_str(
        "\n`varcat <command> --help` lists a command's options. Without a catalog, serve, \
         query and annotate use the bundled sample catalog (built from testdata/ first when \
         missing or out of date).",
    );
    s
}

/// Prints the usage of `cmd` for `--help`.
pub fn print(cmd: &str) -> Result<ExitCode, String> {
    println!("{}", of(cmd).unwrap_or_else(all));
    Ok(ExitCode::SUCCESS)
}

/// The message for an argument `cmd` does not take: the closest option of its usage when one
/// is near, then the usage.
pub fn unexpected(cmd: &str, arg: lexopt::Arg<'_>) -> String {
    let said = arg.clone().unexpected().to_string();
    let text = of(cmd).unwrap_or_else(all);
    let hint = match arg {
        lexopt::Arg::Long(name) => closest(name, &options(&text))
            .map(|o| format!(" (did you mean --{o}?)"))
            .unwrap_or_default(),
        _ => String::new(),
    };
    format!("{cmd}: {said}{hint}\n\n{text}")
}

/// The long options a usage text names.
fn options(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter_map(|w| w.strip_prefix("--"))
        .filter(|w| !w.is_empty())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The option nearest `name` within a third of its length in edits (at least one).
fn closest<'a>(name: &str, options: &[&'a str]) -> Option<&'a str> {
    let limit = (name.len() / 3).max(1);
    options
        .iter()
        .map(|o| (edits(name, o), *o))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, o)| o)
}

/// Levenshtein distance.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_the_closest_option_is_named() {
        let build = of("build").unwrap();
        let opts = options(&build);
        assert!(opts.contains(&"mem-budget") && opts.contains(&"help"));
        assert_eq!(closest("mem-budgt", &opts), Some("mem-budget"));
        assert_eq!(closest("stict", &opts), Some("strict"));
        assert_eq!(closest("frobnicate", &opts), None);
        let e = unexpected("build", lexopt::Arg::Long("threds"));
        assert!(e.starts_with("build: invalid option '--threds' (did you mean --threads?)"));
    }

    #[test]
    fn test_every_command_has_its_usage_and_a_synopsis() {
        for (name, _) in COMMANDS {
            let text = of(name).unwrap();
            assert!(text.starts_with(&format!("varcat {name}")), "{name}");
            assert!(all().contains(&format!("varcat {name}")), "{name}");
        }
    }
}
