#!/usr/bin/env bash
# golden.sh VARCAT CATALOG OUT: serves CATALOG with the VARCAT binary on a free loopback port and
# writes every landing-page example's answer (status and body) to OUT, each plain, with
# verbose=true, with page=1 and with limit=2&page=1. Two runs are compared with cmp: a
# restructuring or a format change that must not change answers shows the same file.
set -euo pipefail
bin=$1 cat=$2 out=$3
port=$((20000 + RANDOM % 20000))
"$bin" serve "$cat" --addr 127.0.0.1:$port --quiet &
pid=$!
urls=$(mktemp)
trap 'kill $pid 2>/dev/null; rm -f "$urls"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 0.1; done
curl -s "http://127.0.0.1:$port/" | grep -o 'class="example" href="[^"]*"' |
  sed 's/.*href="//; s/"$//; s/&amp;/\&/g' >"$urls"
: >"$out"
while read -r u; do
  case "$u" in *\?*) sep='&' ;; *) sep='?' ;; esac
  for v in "$u" "$u${sep}verbose=true" "$u${sep}page=1" "$u${sep}limit=2&page=1"; do
    echo "### $v" >>"$out"
    curl -s -w '\n%{http_code}\n' "http://127.0.0.1:$port$v" >>"$out"
  done
done <"$urls"
