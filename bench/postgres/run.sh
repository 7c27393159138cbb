#!/usr/bin/env bash
# bench/postgres/run.sh: varcat against PostgreSQL on the same synthetic data and the same
# targets (bench/postgres/README.md). Not part of the test run.
#
#   bench/postgres/run.sh                       # 100k variants, c = 1 and 8, 2 rounds of 3 s
#   VARIANTS=100000 SECS=3 ROUNDS=3 CONNS="1 8" BENCH_GROUPS="point name" bench/postgres/run.sh
#
# Steps: release build; `varcat synth` + `varcat build` (skipped when present); the targets
# (pg-targets: varcat-bench's draws); the C client; setup.sh (skipped when the database is
# loaded, unless SETUP=1); `varcat serve --threads 2`; every target of every group asked once
# of each system (warm-up) and the first VERIFY answers of each group compared between varcat
# and both PostgreSQL variants; then, per round, per c, per group: varcat, pg-json, pg-jsonb
# one after the other (alternated, so that all three see the same background load), SECS
# seconds each. PIN="taskset -c 0" (for example) runs the client under that prefix.
# Raw lines go to $OUT.raw, the table (medians, ratios) to $OUT.md.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
N=${VARIANTS:-100000}
SECS=${SECS:-3}
ROUNDS=${ROUNDS:-2}
CONNS=${CONNS:-"1 8"}
BENCH_GROUPS=${BENCH_GROUPS:-"point name region assoc verbose summary closure"}
VERIFY=${VERIFY:-300}
SYNTH=${SYNTH:-/tmp/pg-s$N}
CAT=${CAT:-$SYNTH.varcat}
OUT=${OUT:-/tmp/pg-bench}
PORT=${VARCAT_PORT:-18723}
PGDIR=${PGBENCH_DIR:-/tmp/varcat-pg}
PGPORT=${PGBENCH_PORT:-5499}
PIN=${PIN:-}

cd "$ROOT"
cargo build --release --quiet
[ -d "$SYNTH" ] || target/release/varcat synth --variants "$N" --seed 1 -o "$SYNTH"
[ -f "$CAT" ] || target/release/varcat build "$SYNTH" -o "$CAT" --quiet
(cd "$HERE/targets" && CARGO_TARGET_DIR="$ROOT/target" cargo build --release --quiet)
TARGETS=$SYNTH.targets.tsv
target/release/pg-targets --variants "$N" --seed 1 > "$TARGETS"
cc -O2 -Wall -o "$HERE/client" "$HERE/client.c" -I"$(pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)" -lpq -lpthread
CLIENT="$HERE/client"
loaded=$(psql -X -At -h "$PGDIR" -p "$PGPORT" -U postgres -d varcat \
  -c "SELECT count(*) FROM pj.variants" 2>/dev/null || echo 0)
if [ "${SETUP:-0}" = 1 ] || [ "$loaded" != "$N" ]; then
  "$HERE/setup.sh" "$SYNTH"
fi

target/release/varcat serve "$CAT" --addr "127.0.0.1:$PORT" --quiet --threads 2 > /dev/null &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
until curl -sf "http://127.0.0.1:$PORT/api/health" > /dev/null; do sleep 0.2; done

echo "warm-up and answers compared (first $VERIFY targets of each group):"
for g in $BENCH_GROUPS; do
  for s in varcat pg-json pg-jsonb; do
    "$CLIENT" dump "$s" "$g" 100000 "$TARGETS" --addr "127.0.0.1:$PORT" > "$OUT.$g.$s.all"
    head -n "$VERIFY" "$OUT.$g.$s.all" > "$OUT.$g.$s.json"
  done
  for s in pg-json pg-jsonb; do
    printf '  %-8s varcat vs %-8s ' "$g" "$s"
    python3 "$HERE/compare.py" "$OUT.$g.varcat.json" "$OUT.$g.$s.json" | tail -1 || true
  done
done

: > "$OUT.raw"
{
  echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD) variants=$N secs=$SECS rounds=$ROUNDS pin='${PIN}'"
  echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} >> "$OUT.raw"
for r in $(seq "$ROUNDS"); do
  for c in $CONNS; do
    for g in $BENCH_GROUPS; do
      for s in varcat pg-json pg-jsonb; do
        $PIN "$CLIENT" run "$s" "$g" "$c" "$SECS" "$TARGETS" --addr "127.0.0.1:$PORT" | tee -a "$OUT.raw"
      done
    done
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT.raw"
python3 "$HERE/summarize.py" "$OUT.raw" | tee "$OUT.md"
