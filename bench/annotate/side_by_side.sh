#!/bin/sh
# The side-by-side annotate benchmark (BENCHMARKS.md "Annotation against bcftools and vcfanno"):
# one 1M-record input annotated with the same fields by `varcat annotate`, `bcftools annotate`
# and vcfanno (Debian's bcftools, vcfanno, tabix), the two peers reading the annotation VCF that
# `varcat export-vcf` writes; VCF text and BGZF output; `bcftools view -Oz` of the same output as
# the BGZF floor. Each command RUNS times; prints one line per run (wall, user+sys seconds), the
# medians, varcat's --timings line, and compares the three outputs record by record.
#
# usage: side_by_side.sh <varcat> <synth-dir> <work-dir> [runs=3] ["default full"]
#   <varcat>     a release `varcat` binary
#   <synth-dir>  `varcat synth` output (e.g. of --variants 100000 --seed 1); built into <work-dir>/cat.varcat once
#   <work-dir>   scratch (about 1.5 GB with the full field set's outputs); delete it afterwards
#   the last argument picks the field sets: default (the 3 speed-target fields), full (all)
#   PEERS=bcftools in the environment leaves vcfanno out (it takes minutes per run with all
#   fields), e.g. to compare two varcat binaries against the same bcftools rows.
set -eu
VARCAT=$1 SYNTH=$2 W=$3 RUNS=${4:-3} SETS=${5:-default full}
PEERS=${PEERS:-bcftools vcfanno}
has_peer() { case " $PEERS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
HERE=$(cd "$(dirname "$0")" && pwd)
THREADS=2 # the same 2 cores for everyone's BGZF (de)compression
mkdir -p "$W"
CAT=$W/cat.varcat
[ -f "$CAT" ] || "$VARCAT" build "$SYNTH" -o "$CAT" --quiet
[ -f "$W/in.vcf" ] || python3 "$HERE/make_input.py" "$SYNTH" "$W/in.vcf"
# bcftools annotate -a reads its input through an index, so everyone reads the same BGZF input.
[ -f "$W/in.vcf.gz.tbi" ] || { bgzip -@ 2 -c "$W/in.vcf" >"$W/in.vcf.gz" && tabix -p vcf "$W/in.vcf.gz"; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# time_run LABEL CMD…: RUNS runs of a shell command, "LABEL run i: wall user+sys", then the median.
time_run() {
    label=$1
    shift
    : >"$W/times.$label"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        /usr/bin/time -f '%e %U %S' -o "$W/time.out" sh -c "$*" 2>"$W/stderr.$label" ||
            { cat "$W/stderr.$label" >&2; exit 1; }
        read -r wall user sys <"$W/time.out"
        cpu=$(echo "$user + $sys" | bc)
        echo "$label run $i: ${wall}s wall, ${cpu}s user+sys"
        echo "$wall $cpu" >>"$W/times.$label"
        i=$((i + 1))
    done
    sort -n "$W/times.$label" | awk -v l="$label" -v n="$RUNS" \
        '{w[NR]=$1} END {printf "%s median wall %.2fs\n", l, w[int((n+1)/2)]}'
    sort -k2 -n "$W/times.$label" | awk -v l="$label" -v n="$RUNS" \
        '{c[NR]=$2} END {printf "%s median user+sys %.2fs\n", l, c[int((n+1)/2)]}'
}

for SET in $SETS; do
    if [ "$SET" = default ]; then
        FIELDS=rsid,gnomad_af_total,bravo_af
    else
        FIELDS=all
    fi
    if [ "$SET" = default ]; then
        KEYS=$(echo "$FIELDS" | tr , '\n' | sed 's/^/VARCAT_/')
    else
        KEYS=$("$VARCAT" annotate --list-fields | cut -f1)
    fi
    EXP=$W/exp.$SET.vcf.gz
    [ -f "$EXP" ] || "$VARCAT" export-vcf "$CAT" -o "$EXP" --fields "$FIELDS" 2>/dev/null
    COLS=$(echo "$KEYS" | sed 's/^/INFO\//' | paste -sd, -)
    {
        echo '[[annotation]]'
        echo "file=\"$EXP\""
        echo "fields=[$(echo "$KEYS" | sed 's/.*/"&"/' | paste -sd, -)]"
        echo "names=[$(echo "$KEYS" | sed 's/.*/"&"/' | paste -sd, -)]"
        echo "ops=[$(echo "$KEYS" | sed 's/.*/"self"/' | paste -sd, -)]"
    } >"$W/vcfanno.$SET.toml"
    IN=$W/in.vcf.gz
    O=$W/out.$SET
    echo "== $SET fields: $FIELDS ($(echo "$KEYS" | wc -l) INFO keys)"
    time_run "varcat-$SET-vcf" "$VARCAT annotate $IN -o $O.varcat.vcf --catalog $CAT --fields $FIELDS --timings"
    grep timings "$W/stderr.varcat-$SET-vcf"
    time_run "varcat-$SET-textin-vcf" "$VARCAT annotate $W/in.vcf -o $O.textin.vcf --catalog $CAT --fields $FIELDS --timings"
    grep timings "$W/stderr.varcat-$SET-textin-vcf"
    rm -f "$O.textin.vcf"
    time_run "bcftools-$SET-vcf" "bcftools annotate -a $EXP -c $COLS -Ov -o $O.bcftools.vcf $IN"
    if has_peer vcfanno; then
        time_run "vcfanno-$SET-vcf" "vcfanno -p $THREADS $W/vcfanno.$SET.toml $IN > $O.vcfanno.vcf 2>/dev/null"
    fi
    # BGZF to stdout: no index pass for anyone (varcat's indexed run is timed once below).
    time_run "varcat-$SET-bgzf" "$VARCAT annotate $IN -o - -O z --threads $THREADS --catalog $CAT --fields $FIELDS --timings > $O.varcat.vcf.gz"
    grep timings "$W/stderr.varcat-$SET-bgzf"
    time_run "bcftools-$SET-bgzf" "bcftools annotate --threads $THREADS -a $EXP -c $COLS -Oz -o $O.bcftools.vcf.gz $IN"
    if has_peer vcfanno; then
        time_run "vcfanno-$SET-bgzf" "vcfanno -p $THREADS $W/vcfanno.$SET.toml $IN 2>/dev/null | bgzip -@ $THREADS > $O.vcfanno.vcf.gz"
    fi
    time_run "floor-$SET-bgzf" "bcftools view --threads $THREADS -Oz -o $O.floor.vcf.gz $O.varcat.vcf"
    if [ "$SET" = default ]; then
        "$VARCAT" annotate "$IN" -o "$O.indexed.vcf.gz" --catalog "$CAT" --fields "$FIELDS" \
            --timings 2>&1 | grep timings | sed 's/^/with the .tbi: /'
        rm -f "$O.indexed.vcf.gz" "$O.indexed.vcf.gz.tbi"
    fi
    others="$O.bcftools.vcf"
    if has_peer vcfanno; then others="$others $O.vcfanno.vcf"; fi
    # shellcheck disable=SC2086 # the file list splits on spaces
    python3 "$HERE/compare.py" "$O.varcat.vcf" $others ||
        echo "(the outputs differ as listed)"
    rm -f "$O".*.vcf.gz
done
