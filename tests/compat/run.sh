#!/usr/bin/env bash
# Client-compatibility checks against a live server over the bundled catalog:
#   1. /openapi.json validates with openapi-spec-validator;
#   2. schemathesis finds no server error, no schema-violating response, no undocumented status;
#   3. the official IGVF Python client (igvf-catalog-client) validates every example answer;
#   4. the landing page and a region view render in headless Chromium and every link on them
#      answers 200;
#   5. the IGVF MCP server (igvf-catalog-mcp, over stdio) answers every tool call with data;
#   6. every TSV answer (README and server examples, a hostile catalog) reads back with the
#      README's pandas and R recipes as the JSON answer's values (tests/compat/tsv_roundtrip.py);
#   7. `varcat mcp` answers the same plan as that server does over this server (parsed JSON equal,
#      or a difference docs/igvf-differences.md lists), and refuses what it refuses; the same plan
#      over HTTP (POST /api/mcp on the server) answers as stdio does, and a cross-origin POST is
#      refused.
# Needs: a built `varcat` (VARCAT=path, default target/debug/varcat), python3 with venv, and
# Debian's chromium for step 4 and R with jsonlite for step 6 (each installed here when missing
# and we are root; else that step fails).
# Bounded: schemathesis runs for SCHEMATHESIS_SECONDS (default 120).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
varcat=${VARCAT:-$root/target/debug/varcat}
work=$(mktemp -d /tmp/varcat-compat.XXXXXX)
venv=${COMPAT_VENV:-$root/target/compat-venv}
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== build the sample catalog"
"$varcat" build testdata/catalog -o "$work/sample.varcat" --quiet

echo "== start the server"
"$varcat" serve "$work/sample.varcat" --addr 127.0.0.1:0 --quiet 2>"$work/serve.log" &
server_pid=$!
for _ in $(seq 100); do
  grep -q "listening on http://" "$work/serve.log" 2>/dev/null && break
  sleep 0.1
done
origin=$(grep -o "http://[0-9.:]*" "$work/serve.log" | head -1)
[ -n "$origin" ] || { cat "$work/serve.log"; echo "server did not start"; exit 1; }
echo "server at $origin"

echo "== python tools (pinned) in $venv"
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    igvf-catalog-client==1.3.0 schemathesis==4.32.5 openapi-spec-validator==0.9.0
fi
# Added later than the venv itself, so installed on their own when an older venv lacks them.
if [ ! -x "$venv/bin/igvf-catalog-mcp" ]; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check igvf-catalog-mcp==1.3.0 mcp==1.30.0
fi
if ! "$venv/bin/python" -c 'import pandas; assert pandas.__version__ == "3.1.1"' 2>/dev/null; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check pandas==3.1.1
fi

echo "== 1. openapi-spec-validator"
curl -sf "$origin/openapi.json" -o "$work/openapi.json"
"$venv/bin/openapi-spec-validator" "$work/openapi.json"

echo "== 2. schemathesis"
# Checked: what the server answers. Not checked: positive_data_acceptance and
# negative_data_rejection, which assume a request's validity is what the parameter schemas
# say; varcat also enforces "at least one of" rules (not expressible in OpenAPI) and, like
# IGVF, treats an empty value as absent. POST /llm-query is left out: its answer to a valid
# request is 501 by design (an IGVF client path), which not_a_server_error counts as a failure, and
# schemathesis 4.32.5 crashes in its coverage phase on that request body; tests/paths/llm_query.rs checks
# the route (400, 405, 413, 501) over real HTTP. The batch POSTs are checked.
# One worker: with two, hypothesis parses its strategies' lambda sources on both threads at
# once, and CPython 3.11's `ast.parse` then fails now and then ("SystemError: AST constructor
# recursion depth mismatch", seen in CI on GET /biosamples/variants), a crash of the tool
# that fails the run.
"$venv/bin/schemathesis" run "$origin/openapi.json" --exclude-path /llm-query \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method,allow_header_conformance \
  --max-time "${SCHEMATHESIS_SECONDS:-120}" --workers 1 --seed 2023 \
  --generation-database none --report junit --report-dir "$work/st-report" \
  --warnings off

echo "== 3. the official IGVF client"
"$venv/bin/python" tests/compat/igvf_client.py "$origin"

echo "== 4. the landing page and the region viewer in headless Chromium"
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "chromium is not installed (apt-get install chromium)"; exit 1
  fi
fi
chrome=(chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --user-data-dir="$work/chrome")
"${chrome[@]}" --dump-dom "$origin/" >"$work/dom.html" 2>"$work/chrome.log"
"${chrome[@]}" --screenshot="$work/landing.png" --window-size=1280,2000 "$origin/" \
  >>"$work/chrome.log" 2>&1
[ -s "$work/landing.png" ] || { cat "$work/chrome.log"; echo "no screenshot"; exit 1; }
# The rendered DOM (after the browser parsed it) lists every endpoint and every example link.
# The interface's 25 (id s4.N) and the client's other paths (id op-<operationId>), one per
# endpoint.
# Every GET endpoint of the document (not /health, which the page links separately; not the POST
# route /llm-query, which has no example link).
want=$(python3 -c 'import json,sys; print(sum(1 for p, i in json.load(open(sys.argv[1]))["paths"].items() if "get" in i and p != "/health"))' "$work/openapi.json")
endpoints=$(grep -o '<tr id="\(s4\.[0-9]*\|op-[a-z0-9_]*\)"' "$work/dom.html" | wc -l)
[ "$endpoints" -eq "$want" ] || { echo "rendered page lists $endpoints endpoints, want $want"; exit 1; }
# check_links <dom> <what> <least>: every href of a dumped DOM answers 200, and there are more
# than <least> of them.
check_links() {
  local links passed=0 failed=0 code link
  links=$(grep -o 'href="[^"]*"' "$1" | sed -e 's/^href="//' -e 's/"$//' -e 's/&amp;/\&/g' | sort -u)
  while read -r link; do
    code=$(curl -s -o /dev/null -w '%{http_code}' "$origin$link")
    if [ "$code" = 200 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED $link: $code"; fi
  done <<<"$links"
  echo "$2 links: $passed passed, $failed failed"
  [ "$failed" -eq 0 ] && [ "$passed" -gt "$3" ]
}
check_links "$work/dom.html" "landing page" 25
# The region viewer: it renders, not blank (tracks drawn: <rect> and <a> in the DOM
# Chromium built; a larger screenshot than an empty region's), and every link answers 200.
view="/view?region=chr20:9540000-9600000"
"${chrome[@]}" --dump-dom "$origin$view" >"$work/view.html" 2>>"$work/chrome.log"
"${chrome[@]}" --screenshot="$work/view.png" --window-size=1280,1400 "$origin$view" \
  >>"$work/chrome.log" 2>&1
"${chrome[@]}" --screenshot="$work/view-empty.png" --window-size=1280,1400 \
  "$origin/view?region=chr20:1-2" >>"$work/chrome.log" 2>&1
rects=$(grep -o '<rect' "$work/view.html" | wc -l)
anchors=$(grep -o '<a ' "$work/view.html" | wc -l)
full=$(stat -c %s "$work/view.png" 2>/dev/null || echo 0)
empty=$(stat -c %s "$work/view-empty.png" 2>/dev/null || echo 0)
echo "view page: $rects <rect>, $anchors <a>, screenshot $full bytes (empty region: $empty)"
[ "$rects" -ge 100 ] && [ "$anchors" -ge 50 ] && [ "$full" -gt "$empty" ] \
  || { cat "$work/chrome.log"; echo "the view page rendered blank"; exit 1; }
check_links "$work/view.html" "view page" 50
# The mouse example (GRCm39 collections): every link names the organism and answers 200.
"${chrome[@]}" --dump-dom "$origin/view?region=chr1:3000000-3200000&organism=Mus%20musculus" \
  >"$work/view-mouse.html" 2>>"$work/chrome.log"
grep -q 'organism=Mus%20musculus' "$work/view-mouse.html" \
  || { echo "the mouse view page has no mouse links"; exit 1; }
check_links "$work/view-mouse.html" "mouse view page" 50

echo "== 5. the IGVF MCP server"
"$venv/bin/python" tests/compat/mcp_check.py "$origin"
echo "== 6. TSV read back with pandas and R"
# Debian's r-base-core and r-cran-jsonlite, without recommends (about 35 s to install here).
if ! command -v Rscript >/dev/null || ! Rscript -e 'library(jsonlite)' >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      r-base-core r-cran-jsonlite >/dev/null
  else
    echo "R is not installed (apt-get install r-base-core r-cran-jsonlite)"; exit 1
  fi
fi
"$venv/bin/python" tests/compat/tsv_roundtrip.py "$origin" "$varcat" README.md
echo "== 7. varcat mcp against the IGVF MCP server"
"$venv/bin/python" tests/compat/mcp_compare.py "$varcat" "$work/sample.varcat" "$origin"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Origin: http://evil.example' \
  -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"ping"}' "$origin/api/mcp")
[ "$code" = 403 ] || { echo "a cross-origin POST /api/mcp answered $code, not 403"; exit 1; }
echo "cross-origin POST /api/mcp: 403"
echo "compat checks passed"
