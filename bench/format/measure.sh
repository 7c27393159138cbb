#!/bin/sh
# The format measurements of one varcat binary at 1M variants, against a baseline rung (another
# binary's rung.sh output on the same input, e.g. the last format-v2 commit's): the rung on the
# 1M input (rung.sh: build, sizes, warm and cold bench), the LD rung (the same generator with
# ~10 LD rows per variant, sizes only; its input is generated into /tmp and deleted), and the
# ratio tables with the projection to IGVF's row counts (compare.py). Run it under `nice -n 19`:
#
#   nice -n 19 bench/format/measure.sh <varcat> <out-prefix> --baseline PREFIX [options]
#
#   --baseline PREFIX   a rung.sh output to compare with (required)
#   --input DIR         the 1M input (default /tmp/g1m: varcat synth --variants 1000000 --seed 1)
#   --names A,B         column names (default v2,new)
#   --no-ld             skip the LD rung (then LD is projected from the rung's 3.8 rows/variant)
#   --synth PATH        the varcat that generates the LD input (default <varcat>; it needs the
#                       hidden `synth --ld-draws`)
#   --bench-args "..."  passed to varcat-bench through rung.sh (default "--conns 1 --secs 2")
#
# Writes <out-prefix>.* (rung.sh), <out-prefix>-ld12.* and <out-prefix>.compare.md. Disk: the
# catalog (~1 GB at 1M), then the LD input (1.6 GB gzipped) and catalog in /tmp.
set -eu

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
varcat=$1 prefix=$2
shift 2
input=/tmp/g1m
baseline=
names=v2,new
ld=1
synth=$varcat
bench_args="--conns 1 --secs 2"
while [ $# -gt 0 ]; do
    case $1 in
        --input) input=$2; shift 2 ;;
        --baseline) baseline=$2; shift 2 ;;
        --names) names=$2; shift 2 ;;
        --no-ld) ld=0; shift ;;
        --synth) synth=$2; shift 2 ;;
        --bench-args) bench_args=$2; shift 2 ;;
        *) usage ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
[ -n "$baseline" ] || usage
[ -f "$baseline.sizes.tsv" ] || { echo "measure.sh: no baseline $baseline.sizes.tsv" >&2; exit 2; }

"$here/rung.sh" "$varcat" "$input" "$prefix" --bench-args "$bench_args"
ld_arg=""
if [ "$ld" = 1 ]; then
    variants=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["variants"])' "$input/synth.json")
    seed=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seed"])' "$input/synth.json")
    ld_input=/tmp/$(basename "$prefix")-ld12-input
    trap 'rm -rf "$ld_input"' EXIT
    echo "measure.sh: LD input ($variants variants, seed $seed, --ld-draws 12) into $ld_input" >&2
    "$synth" synth --variants "$variants" --seed "$seed" --ld-draws 12 --gz -o "$ld_input" \
        >"$prefix-ld12.synth.log" 2>&1
    "$here/rung.sh" "$varcat" "$ld_input" "$prefix-ld12" --sizes-only
    rm -rf "$ld_input"
    ld_arg="--ld $prefix-ld12"
fi
# shellcheck disable=SC2086 # ld_arg is empty or two words
python3 "$here/compare.py" "$baseline" "$prefix" $ld_arg --names "$names" >"$prefix.compare.md"
echo "measure.sh: wrote $prefix.compare.md" >&2
