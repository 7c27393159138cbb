#!/usr/bin/env bash
# Instructions per answer of each group's handler: the work a handler does, in a figure that a
# noisy or shared machine does not move (valgrind counts instructions; it does not time them).
#
#   scripts/handler-instructions.sh <catalog> <variants> [groups] [varcat-bench]
#
# <catalog> from `varcat synth --variants <variants> --seed 1` and `varcat build`; groups as
# varcat-bench's (default point,name,region,assoc,verbose). Each group is run twice under
# cachegrind, `varcat-bench --handlers` with 1 and with 3 timed passes over 500 URLs: the
# difference is two passes, so opening the catalog and making the URLs cancel out.
set -euo pipefail
catalog=${1:?usage: $0 <catalog> <variants> [groups] [varcat-bench]}
variants=${2:?usage: $0 <catalog> <variants> [groups] [varcat-bench]}
groups=${3:-point,name,region,assoc,verbose}
bench=${4:-target/release/varcat-bench}
urls=500
command -v valgrind >/dev/null || { echo "$0: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
refs() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$bench" "$catalog" --variants "$variants" --seed 1 --urls "$urls" --groups "$1" \
    --handlers "$2" 2>&1 >/dev/null | awk '/I *refs:/ { gsub(",", "", $NF); print $NF }'
}
echo "| group | instructions an answer |"
echo "|---|---:|"
for g in ${groups//,/ }; do
  one=$(refs "$g" 1)
  three=$(refs "$g" 3)
  [ -n "$one" ] && [ -n "$three" ] || { echo "$0: cachegrind gave no count for $g" >&2; exit 1; }
  echo "| $g | $(( (three - one) / (2 * urls) )) |"
done
