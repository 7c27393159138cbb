#!/bin/sh
# One rung of the format measurements on one varcat binary: build the catalog of an input
# directory under /usr/bin/time -v, tabulate bytes per document by collection and by section
# class (rung.py), then run varcat-bench warm and --cold on it. Compare two rungs with
# compare.py. Run it under `nice -n 19` on a shared machine:
#
#   nice -n 19 bench/format/rung.sh <varcat> <input-dir> <out-prefix> [options]
#
#   --catalog PATH      where to build (default /tmp/<basename of out-prefix>.varcat)
#   --keep              keep the catalog afterwards (default: deleted at the end)
#   --sizes-only        no benchmark (the LD rung)
#   --bench PATH        varcat-bench of the same source tree (default: next to <varcat>; it must
#                       be able to open the catalog, so a v2 catalog needs a v2 varcat-bench)
#   --bench-args "..."  passed to varcat-bench (default "--conns 1 --secs 2")
#   --build-args "..."  passed to varcat build (default none)
#
# Writes <out-prefix>.{time.txt,build.log,build.tsv,sections.tsv,sizes.tsv,sizes.md,bench.md}.
# The benchmark needs `synth.json` in the input (its --variants/--seed give the query targets).
# Cold runs evict the catalog with posix_fadvise(DONTNEED) (no drop_caches needed) and count the
# block device's reads; the machine should be otherwise quiet for them.
set -eu

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 3 ] || usage
varcat=$1 input=$2 prefix=$3
shift 3
catalog=/tmp/$(basename "$prefix").varcat
keep=0 sizes_only=0
bench=$(dirname "$varcat")/varcat-bench
bench_args="--conns 1 --secs 2"
build_args=""
while [ $# -gt 0 ]; do
    case $1 in
        --catalog) catalog=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --sizes-only) sizes_only=1; shift ;;
        --bench) bench=$2; shift 2 ;;
        --bench-args) bench_args=$2; shift 2 ;;
        --build-args) build_args=$2; shift 2 ;;
        *) usage ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$varcat" ] || { echo "rung.sh: $varcat is not executable" >&2; exit 2; }
[ -d "$input" ] || { echo "rung.sh: $input is not a directory" >&2; exit 2; }
mkdir -p "$(dirname "$prefix")"
[ "$keep" = 1 ] || trap 'rm -f "$catalog"' EXIT

echo "rung.sh: building $catalog from $input with $varcat" >&2
# shellcheck disable=SC2086 # build_args is a list of words
/usr/bin/time -v -o "$prefix.time.txt" "$varcat" build "$input" -o "$catalog" $build_args \
    >"$prefix.build.log" 2>&1 || { tail -5 "$prefix.build.log" >&2; exit 1; }
python3 "$here/rung.py" "$catalog" "$input" "$prefix.time.txt" "$prefix"
cat "$prefix.build.tsv" >&2

[ "$sizes_only" = 0 ] || exit 0
if [ ! -f "$input/synth.json" ]; then
    echo "rung.sh: $input has no synth.json: no benchmark" >&2
    exit 0
fi
variants=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["variants"])' "$input/synth.json")
seed=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seed"])' "$input/synth.json")
echo "rung.sh: varcat-bench warm and --cold ($bench_args)" >&2
# shellcheck disable=SC2086
"$bench" "$catalog" --variants "$variants" --seed "$seed" --bin "$varcat" --cold $bench_args \
    >"$prefix.bench.md"
echo "rung.sh: wrote $prefix.*" >&2
